// The setup page's Share button (templates/setup_game.html), a file of its own: the Content-Security-Policy allows
// no inline script (companion/csp.py). The page's shared ticks ride live.js (docs/sync.md).
(function () {
  "use strict";
  // Share: the share sheet where the browser offers it, else the clipboard, with a "Copied" answer; both need a
  // secure context, which plain HTTP on the LAN is not: there the link is selected in its field and copied with
  // the older copy command (or left selected to copy by hand). Without JavaScript the button stays hidden.
  function say(t) { document.getElementById("share-answer").textContent = t; }
  async function share(url) {
    if (window.isSecureContext && navigator.share) {
      try { await navigator.share({ title: document.title, url: url }); return say("Shared."); }
      catch (e) { if (e.name === "AbortError") return; }
    }
    if (window.isSecureContext && navigator.clipboard) {
      try { await navigator.clipboard.writeText(url); return say("Copied."); } catch (e) { /* below */ }
    }
    var f = document.getElementById("share-link"), ok = false;
    f.focus();
    f.setSelectionRange(0, f.value.length);
    try { ok = document.execCommand("copy"); } catch (e) { /* left selected */ }
    say(ok ? "Copied." : "The link is selected: copy it, or show the QR code.");
  }
  function ready() {
    var b = document.getElementById("share-button");
    if (!b || b.dataset.ready) return;
    b.dataset.ready = "1";
    b.hidden = false;
    b.addEventListener("click", function () { share(b.dataset.share); });
  }
  document.addEventListener("DOMContentLoaded", ready);
})();
