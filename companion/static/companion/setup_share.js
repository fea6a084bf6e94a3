// The setup page's script (templates/setup_game.html), a file of its own: the Content-Security-Policy allows no
// inline script and no eval (companion/csp.py), so htmx's hx-on and trigger filters are done here instead.
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
  document.addEventListener("htmx:afterSettle", ready);

  // The poll for other phones' ticks (#setup-poll, htmx "every"): asks only while the page is seen, and not while
  // a tap of this phone is being saved (its answer would be stale). Cancelling one request keeps the poll going.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id !== "setup-poll") return;
    if (document.visibilityState !== "visible" || document.querySelector("#setup-ticks .htmx-request")) {
      event.preventDefault();
    }
  });

  // A tick that was not saved goes back to how it was, and the progress line says why.
  function unsaved(text) {
    return function (event) {
      var elt = event.detail.elt;
      if (elt.type !== "checkbox" || !elt.closest("#setup-ticks")) return;
      elt.checked = !elt.checked;
      var p = document.getElementById("setup-progress");
      p.className = "setup-progress message error";
      p.textContent = text;
    };
  }
  document.addEventListener("htmx:sendError",
    unsaved("Not saved: no connection. Tap the step again when you are back online."));
  document.addEventListener("htmx:responseError",
    unsaved("Not saved: the server refused it. Reload the page and tap the step again."));
})();
