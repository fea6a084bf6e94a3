/* "Share" on the setup page (issue 26): the phone's share sheet where the browser offers it, else the clipboard
   with a "Copied" answer; both need a secure context, and a table on plain HTTP over the LAN has none, so there
   the link is selected in its field and copied with the older copy command, or left selected to copy by hand.
   Without JavaScript the button stays hidden: the link field and the QR code remain. */
(function () {
  "use strict";
  function answer(text) { var out = document.getElementById("share-answer"); if (out) out.textContent = text; }
  function selectField(url) {
    var field = document.getElementById("share-link");
    if (!field) return false;
    field.focus();
    field.select();
    field.setSelectionRange(0, url.length);
    try { return document.execCommand("copy"); } catch (e) { return false; }
  }
  async function share(url) {
    if (window.isSecureContext && navigator.share) {
      try { await navigator.share({ title: document.title, url: url }); answer("Shared."); return; }
      catch (e) { if (e && e.name === "AbortError") return; }
    }
    if (window.isSecureContext && navigator.clipboard) {
      try { await navigator.clipboard.writeText(url); answer("Copied."); return; } catch (e) { /* fall back */ }
    }
    answer(selectField(url) ? "Copied." : "The link is selected: copy it, or show the QR code.");
  }
  function ready() {
    var button = document.getElementById("share-button");
    if (!button || button.dataset.ready) return;
    button.dataset.ready = "1";
    button.hidden = false;
    button.addEventListener("click", function () { share(button.dataset.share); });
  }
  document.addEventListener("DOMContentLoaded", ready);
  document.addEventListener("htmx:afterSettle", ready);
})();
