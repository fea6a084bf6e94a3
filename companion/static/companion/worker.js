/* The service worker's registration for a page without the live engine (a group's page): live.js registers it on
   the live pages (docs/sync.md "Offline"), this on the others that include _worker.html, so that a phone that opens
   such a page first, from its home screen, also gets the worker and the page kept for a reload without the server.
   Only in a secure context (HTTPS, or this computer's localhost): browsers refuse workers on plain HTTP. */
(() => {
  "use strict";
  if (!window.isSecureContext || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    const fresh = !navigator.serviceWorker.controller; // the worker did not see this load: it is told what to keep
    navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready).then((reg) => {
      const parts = document.querySelectorAll("link[rel=stylesheet], link[rel=manifest], script[src]");
      if (fresh && reg.active) reg.active.postMessage({ keep: [location.href, ...Array.from(parts, (e) => e.href || e.src)] });
    }).catch(() => {});
  });
})();
