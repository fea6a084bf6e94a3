// The result panel's Share button (templates/results_panel.html), a file of its own: the Content-Security-Policy
// allows no inline script (companion/csp.py). The share sheet where the browser offers it, else the clipboard;
// without either (or without JavaScript) the button stays hidden and the view-only link remains on the page.
(function () {
  "use strict";
  function ready() {
    var b = document.getElementById("share-result"), said = document.getElementById("share-said");
    if (!b || b.dataset.ready || !(navigator.share || navigator.clipboard)) return;
    b.dataset.ready = "1";
    b.hidden = false;
    b.textContent = navigator.share ? "Share…" : "Copy the link";
    b.addEventListener("click", function () {
      var url = b.dataset.url;
      if (navigator.share) { navigator.share({title: b.dataset.title || "Result", url: url}).catch(function () {}); return; }
      navigator.clipboard.writeText(url).then(function () { said.textContent = "Link copied."; });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready); else ready();
})();
