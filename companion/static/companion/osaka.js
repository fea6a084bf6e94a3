/* Traders of Osaka game page (templates/osaka_game.html): an outbox for taps that did not reach the server, and
   keeping the page where the thumb is when the state is swapped in. The page works without it (plain forms).

   Outbox: every write inside [data-outbox] carries a client id (cid) rendered by the server; the request is kept in
   localStorage until the server answers it (applied, or refused for good), and sent again when the phone is back
   online, every few seconds, and on the next page load. The server applies a cid once, so a write sent twice
   counts once (companion/services/osaka.py).

   Keep place: before #state is swapped, the tapped form (or the first element with an id at the top of the screen,
   for a poll) is remembered with its distance from the top of the viewport; after the swap the page is scrolled so
   it stands where it stood. Open <details> stay open. */
(() => {
  "use strict";
  const KEY = "osaka-outbox";
  const RETRY_MS = 5000;

  const load = () => {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  };
  const store = (items) => {
    try { localStorage.setItem(KEY, JSON.stringify(items)); } catch (e) { /* private mode: no outbox */ }
    show(items);
  };
  const csrf = () => {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; } catch (e) { return ""; }
  };
  function show(items) {
    const box = document.getElementById("outbox");
    if (!box) return;
    box.hidden = items.length === 0;
    box.textContent = items.length === 1
      ? "1 tap is waiting for the connection: it will be sent by itself."
      : `${items.length} taps are waiting for the connection: they will be sent by themselves.`;
  }
  const settle = (cid) => store(load().filter((item) => item.cid !== cid));

  document.addEventListener("htmx:beforeRequest", (e) => {
    const cfg = e.detail.requestConfig;
    if (!cfg || cfg.verb !== "post" || !e.detail.elt.closest("[data-outbox]")) return;
    const cid = cfg.formData && cfg.formData.get("cid");
    if (!cid) return;
    const items = load().filter((item) => item.cid !== cid);
    items.push({ cid, url: cfg.path, body: new URLSearchParams(cfg.formData).toString(), at: Date.now() });
    store(items);
  });
  document.addEventListener("htmx:afterRequest", (e) => {
    const cfg = e.detail.requestConfig;
    const cid = cfg && cfg.verb === "post" && cfg.formData && cfg.formData.get("cid");
    const status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (cid && status >= 200 && status < 500) settle(cid); // answered: applied, or refused with a reason
  });

  let sending = false;
  async function flush() {
    const items = load();
    if (sending || !items.length) return;
    sending = true;
    try {
      for (const item of items) {
        let response;
        try {
          response = await fetch(item.url, {
            method: "POST",
            credentials: "same-origin",
            headers: { "X-CSRFToken": csrf(), "HX-Request": "true",
                       "Content-Type": "application/x-www-form-urlencoded" },
            body: item.body,
          });
        } catch (err) {
          break; // still offline: try again later
        }
        if (response.status >= 500) break;
        settle(item.cid);
      }
    } finally {
      sending = false;
    }
  }
  window.addEventListener("online", flush);
  document.addEventListener("DOMContentLoaded", () => { show(load()); flush(); });
  setInterval(flush, RETRY_MS);

  let anchor = null;
  let open = [];
  const topmost = () => {
    for (const el of document.querySelectorAll("#state [id]")) {
      const box = el.getBoundingClientRect();
      if (box.top >= 0 && box.height > 0) return el;
    }
    return null;
  };
  document.addEventListener("htmx:beforeSwap", (e) => {
    if (!e.detail.target || e.detail.target.id !== "state") return;
    const elt = e.detail.requestConfig && e.detail.requestConfig.elt;
    let mark = elt && elt.id && elt.id !== "state" ? elt : null;
    if (!mark || !document.body.contains(mark)) mark = topmost();
    anchor = mark ? { id: mark.id, top: mark.getBoundingClientRect().top } : null;
    open = [...document.querySelectorAll("#state details[open][id]")].map((d) => d.id);
  });
  document.addEventListener("htmx:afterSwap", (e) => {
    if (!e.detail.target || !document.getElementById("state")) return;
    for (const id of open) {
      const details = document.getElementById(id);
      if (details) details.open = true;
    }
    open = [];
    const mark = anchor && document.getElementById(anchor.id);
    if (mark) window.scrollBy(0, mark.getBoundingClientRect().top - anchor.top);
    anchor = null;
  });
})();
