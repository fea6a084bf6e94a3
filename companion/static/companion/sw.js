/* The service worker (issue 25; docs/sync.md "Offline: the service worker"), served at /sw.js so that its scope is
   the whole site, and registered by live.js only in a secure context (HTTPS, or this computer's own localhost):
   browsers refuse service workers on plain HTTP, the table's usual LAN.

   Network first, always: online, every request goes to the server as if there were no worker. What it keeps, in
   one cache, are the pages opened (navigations answered 200) and the static files (/static/, the manifest, the
   icons). When the server cannot be reached, a reload gets the kept copy instead of the browser's error page;
   live.js then puts back the game's last state and its outbox ("Not saved yet: n waiting") and sends the
   waiting taps when the server answers again (each applied once: docs/sync.md). Writes (POST), the live streams
   and pulls are never answered from the cache. A page sends the addresses it was made of when it starts (the
   first page was loaded before the worker ran). */
"use strict";
const STATIC = "/static/"; // the view serving this file puts the site's STATIC_URL here
const CACHE = "iki-shell-1";
const KEEP_PAGES = 12;
const kept = (url) => url.origin === self.location.origin && (
  url.pathname.startsWith(STATIC) || url.pathname === "/manifest.webmanifest" || url.pathname.startsWith("/apple-touch-icon"));

// Everything but a page and a kept file goes straight to the network, the worker not even woken (the static routing
// API, where the browser has it): a tap, a pull and a stream cost no more than without a worker.
self.addEventListener("install", (event) => {
  self.skipWaiting();
  const path = (pathname) => ({ urlPattern: new URLPattern({ pathname }) });
  if (event.addRoutes) event.waitUntil(event.addRoutes([{ source: "network", condition: { not: { or: [
    { requestMode: "navigate" }, path(STATIC + "*"), path("/manifest.webmanifest"), path("/apple-touch-icon*"),
  ] } } }]).catch(() => {}));
});
self.addEventListener("activate", (e) => e.waitUntil((async () => {
  for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
  await self.clients.claim();
})()));

async function keep(request, response) {
  const cache = await caches.open(CACHE);
  await cache.put(request, response);
  const pages = (await cache.keys()).filter((r) => !kept(new URL(r.url)));
  for (const old of pages.slice(0, Math.max(0, pages.length - KEEP_PAGES))) await cache.delete(old);
}

async function networkFirst(event, isPage) {
  try {
    const response = await fetch(event.request);
    if (response.ok && response.type === "basic") event.waitUntil(keep(event.request, response.clone()));
    return response;
  } catch (err) {
    const copy = await caches.match(event.request, { ignoreVary: true });
    if (copy) return copy;
    if (!isPage) throw err;
    return new Response(
      "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'><title>Not reachable</title>"
      + "<p>The computer serving the table cannot be reached, and this phone has no copy of this page. Try again "
      + "when it is back.</p>", { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(networkFirst(event, true));
  else if (kept(url)) event.respondWith(networkFirst(event, false));
});

// A page names the addresses it is made of (itself, its styles and scripts): kept, as the worker did not see them.
self.addEventListener("message", (event) => {
  const urls = Array.isArray(event.data && event.data.keep) ? event.data.keep : [];
  event.waitUntil((async () => {
    for (const href of urls.slice(0, 20)) {
      const url = new URL(href, self.location.origin);
      if (url.origin !== self.location.origin) continue;
      try {
        const response = await fetch(url, { credentials: "same-origin" });
        if (response.ok) await keep(url.href, response);
      } catch (err) { /* unreachable now: kept on the next load */ }
    }
  })());
});
