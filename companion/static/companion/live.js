/* The live-table client (issue 21, docs/sync.md): one script for every shared thing (a score sheet, an Osaka game,
   a tracked IKI game).

   The page's live root ([data-live="<thing>"]) names its stream (data-live-stream), its pull address
   (data-live-pull) and the version it shows (data-live-version); every part a change may alter is a piece: an
   element with an id and a digest (data-h).

   Push: a tap on a [data-live-form] (or a change inside [data-live-change]; a changed field with data-live-as="x"
   also sends its value as x) becomes a write with this page's client id and the next counter (lc, ln; cid too), kept in an outbox (localStorage, one key per thing) until the server
   answers, sent in order. Additive taps (data-bump, data-by) show their new value at once, marked waiting.
   A 409 (someone changed it first) waits alone for "Apply it anyway" (or the form's data-live-force, saying what
   it does) / "Drop it"; later taps go on.
   Poke and pull: the stream says the thing's version; when it moved, the page asks for the pieces it lacks
   (h = the digests it holds). No stream (a proxy, a WSGI server): the page polls every 1.5 s by itself.
   A piece holding a focused or unsaved field is not replaced: the bar offers the other phone's value. The tapped
   element (or the topmost one) stays where it stood on the screen. */
(() => {
  "use strict";
  const POLL_MS = 1500, RETRY_MS = 2000, WAIT_SAY_MS = 800;
  const root = () => document.querySelector("[data-live]");
  // Offline (issue 25, docs/sync.md "Offline"): in a secure context a service worker keeps the pages and static
  // files, so a reload with the server unreachable shows its copy; the last state this phone saw of this page,
  // kept when it was left (without its waiting taps), is newer: it is put back. Plain HTTP has no worker.
  const worker = window.isSecureContext && "serviceWorker" in navigator, LAST = "live-last";
  const lastSeen = () => { try { return JSON.parse(localStorage.getItem(LAST) || "{}"); } catch (e) { return {}; } };
  if (worker) {
    const r = root(), was = r && lastSeen()[location.pathname];
    if (was && was.v > (parseInt(r.dataset.liveVersion, 10) || 0)) r.outerHTML = was.html;
  }
  const first = root();
  if (!first || !window.fetch) return;
  const thing = first.dataset.live;
  const KEY = "live-outbox:" + thing;
  const client = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => (b % 36).toString(36)).join("");
  let counter = 0, sending = false, pulling = false, again = false, offline = false, kept = true;
  let streamOpen = false, lastTap = null;
  // The newest version a poke announced while a write was on its way: the write's answer usually brings the page
  // there itself (on SQLite the poke of one's own tap can arrive before its answer), so pull only if it did not.
  let heard = 0;
  const conflicts = [];
  let outbox = [];
  try { outbox = JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { kept = false; }

  // --- the bar: waiting taps, conflicts, notes (fixed: it never moves the page) -------------------------------
  const bar = document.createElement("div");
  bar.className = "live-bar";
  bar.setAttribute("aria-live", "polite");
  const status = document.createElement("p");
  status.className = "message warning live-status";
  status.hidden = true;
  bar.append(status);
  document.body.append(bar);
  let waitTimer = 0;
  function show() {
    const n = outbox.length;
    const lines = [];
    if (n && (offline || Date.now() - outbox[0].at > WAIT_SAY_MS)) lines.push(`Not saved yet: ${n} waiting.`);
    if (!kept) lines.push("This phone cannot keep taps while offline: each tap is sent at once.");
    status.textContent = lines.join(" ");
    status.hidden = !lines.length;
    clearTimeout(waitTimer);
    if (n && !offline) waitTimer = setTimeout(show, WAIT_SAY_MS);
  }
  function note(text, buttons) {
    const box = document.createElement("div");
    box.className = "message warning live-note";
    box.setAttribute("role", "alert");
    const p = document.createElement("p");
    p.textContent = text;
    box.append(p);
    for (const [label, act] of buttons) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.addEventListener("click", () => { box.remove(); act(); });
      box.append(b, " ");
    }
    bar.append(box);
    return box;
  }
  function persist() {
    try { localStorage.setItem(KEY, JSON.stringify(outbox)); } catch (e) { kept = false; }
    show();
  }

  // --- pieces --------------------------------------------------------------------------------------------------
  const version = () => parseInt((root() || first).dataset.liveVersion, 10) || 0;
  const setVersion = (v) => { const r = root(); if (r) r.dataset.liveVersion = String(v); };
  const held = () => Array.from((root() || first).querySelectorAll("[data-h]"), (e) => e.dataset.h).join(".");
  const opened = () => Array.from(document.querySelectorAll("[data-live] details[open][id]"), (d) => d.id).join(" ");
  const fields = (el) => el.querySelectorAll("input:not([type=hidden]), select, textarea");
  const dirty = (f) => f.tagName === "SELECT"
    ? Array.from(f.options).some((o) => o.selected !== o.defaultSelected)
    : (f.type === "checkbox" || f.type === "radio") ? f.checked !== f.defaultChecked : f.value !== f.defaultValue;
  const shown = (f) => f.tagName === "SELECT" ? (f.selectedOptions[0] || {}).text || "" : f.value;
  const labelOf = (f) => {
    const l = f.id && document.querySelector(`label[for="${f.id}"]`);
    return ((l && l.textContent) || f.getAttribute("aria-label") || "this").trim();
  };
  const held_notes = {};

  function anchorOf() {
    const r = root();
    let mark = lastTap && document.body.contains(lastTap) ? lastTap : null;
    if (mark) {
      const box = mark.getBoundingClientRect();
      if (box.bottom < 0 || box.top > innerHeight) mark = null;
    }
    if (!mark && r) {
      for (const el of r.querySelectorAll("[id]")) {
        const box = el.getBoundingClientRect();
        if (box.top >= 0 && box.height > 0) { mark = el; break; }
      }
    }
    return mark ? { el: mark, id: mark.id, top: mark.getBoundingClientRect().top } : null;
  }

  // Put the pieces of an answer in place; returns the ids replaced.
  function apply(html) {
    const t = document.createElement("template");
    t.innerHTML = html;
    const anchor = anchorOf();
    const active = document.activeElement;
    const replaced = [];
    for (const fresh of Array.from(t.content.children)) {
      const old = fresh.id && document.getElementById(fresh.id);
      if (!old) continue;
      fresh.removeAttribute("hx-swap-oob");
      keep(old, fresh);
      const busy = Array.from(fields(old)).filter((f) => (f === active || dirty(f)) && !kept_here(f));
      const clash = busy.find((f) => {
        const twin = f.id && fresh.querySelector("#" + CSS.escape(f.id));
        return twin && shown(twin) !== shown(f);
      });
      if (clash) { hold(old, fresh, clash); continue; }
      for (const d of old.querySelectorAll("details[open][id]")) {
        const twin = fresh.querySelector("#" + CSS.escape(d.id));
        if (twin) twin.open = true;
      }
      if (old.matches("details[open]")) fresh.open = true;
      old.replaceWith(fresh);
      replaced.push(fresh.id);
      if (held_notes[fresh.id]) { held_notes[fresh.id].remove(); delete held_notes[fresh.id]; }
    }
    if (active && active.id && !document.body.contains(active)) {
      const back = document.getElementById(active.id);
      if (back) back.focus({ preventScroll: true });
    }
    rebump(replaced);
    if (anchor) {
      const mark = document.body.contains(anchor.el) ? anchor.el : anchor.id && document.getElementById(anchor.id);
      if (mark) window.scrollBy(0, mark.getBoundingClientRect().top - anchor.top);
    }
    return replaced;
  }

  // A record's player (select[data-keep]) and its search (input[data-filter]) are this phone's choice, not shared
  // input: a fresh piece takes them over (issue 23: the player stays after Add whatever else changed).
  const kept_here = (f) => f.matches("select[data-keep], input[data-filter]");
  function keep(old, fresh) {
    for (const f of old.querySelectorAll("select[data-keep][id], input[data-filter][id]")) {
      const twin = fresh.querySelector("#" + CSS.escape(f.id));
      if (!twin) continue;
      if (f.tagName === "SELECT") {
        if (!Array.from(twin.options).some((o) => o.value === f.value)) continue;
        for (const o of twin.options) o.selected = o.defaultSelected = o.value === f.value;
      } else if (f.value) { twin.value = twin.defaultValue = f.value; narrow(twin); }
    }
  }
  // Search-as-you-type of a record's picker: only the choices whose name holds what is typed stay, the first
  // of them chosen; the choices the month offers stay first (their group comes first).
  const plain = (t) => t.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  function narrow(input) {
    // Its own form's picker first: a fresh piece is narrowed before it takes the old one's place.
    const form = input.closest("form");
    const select = (form && form.querySelector("#" + CSS.escape(input.dataset.filter)))
      || document.getElementById(input.dataset.filter);
    if (!select) return;
    const want = plain(input.value.trim());
    let firstShown = null;
    for (const o of select.options) {
      const show = !want || plain(o.text).includes(want);
      o.hidden = o.disabled = !show;
      if (show && !firstShown) firstShown = o;
    }
    for (const g of select.querySelectorAll("optgroup")) g.hidden = !Array.from(g.children).some((o) => !o.hidden);
    if (firstShown && (select.selectedOptions[0] || {}).hidden !== false) firstShown.selected = true;
    if (want && firstShown) firstShown.selected = true;
  }
  window.addEventListener("input", (e) => { if (e.target.matches && e.target.matches("input[data-filter]")) narrow(e.target); });

  // A piece with a field being typed in: keep it, and offer the other phone's value.
  function hold(old, fresh, field) {
    const twin = fresh.querySelector("#" + CSS.escape(field.id));
    const value = shown(twin);
    if (held_notes[old.id]) held_notes[old.id].remove();
    held_notes[old.id] = note(`Another phone changed ${labelOf(field)} to ${value}.`, [
      [`Use ${value}`, () => {
        delete held_notes[old.id];
        const now = document.getElementById(old.id);
        if (now) { now.replaceWith(fresh); rebump([fresh.id]); }
      }],
    ]);
  }

  // --- optimistic additive taps ---------------------------------------------------------------------------------
  function bumpOne(id, by) {
    const el = document.getElementById(id);
    if (!el) return;
    if ("value" in el && el.tagName !== "OUTPUT") {
      el.value = String((parseInt(el.value, 10) || 0) + by);
      el.defaultValue = el.value;
      const twin = el.form && el.name && el.form.querySelector(`[name="was-${el.name}"]`);
      if (twin) twin.value = el.value; // the value this page now shows as its own
    } else {
      el.textContent = el.textContent.replace(/-?\d+/, (n) => String(parseInt(n, 10) + by));
    }
    const piece = el.closest("[data-h]") || el;
    piece.classList.add("live-waiting");
    piece.setAttribute("aria-busy", "true");
  }
  const bump = (item, sign) => (item.bump || []).forEach(([id, by]) => bumpOne(id, by * sign));
  const within = (replaced, id) => replaced.some((r) => {
    const piece = document.getElementById(r);
    return piece && (r === id || piece.querySelector("#" + CSS.escape(id)));
  });
  function rebump(replaced) {
    if (!replaced.length) return;
    for (const item of outbox) for (const [id, by] of item.bump || []) if (within(replaced, id)) bumpOne(id, by);
  }

  // --- push ------------------------------------------------------------------------------------------------------
  function tap(form, submitter, field) {
    const data = new FormData(form, submitter || undefined);
    // What this tap sends is what the page now holds: a later tap does not send a typed number again (a refusal
    // puts the twin back, so the number is sent again with the next tap).
    const twins = [];
    for (const twin of form.querySelectorAll('input[name^="was-"]')) {
      const f = form.elements[twin.name.slice(4)];
      if (!f || !("value" in f) || f.value === twin.value) continue;
      twins.push([twin.name, twin.value]);
      twin.value = f.value;
      if (f.defaultValue !== undefined) f.defaultValue = f.value;
    }
    // A record's search is done with once its choice is sent.
    for (const f of form.querySelectorAll("input[data-filter]")) f.value = f.defaultValue = "";
    // What was sent is no longer unsaved input: the tap's own answer may replace its form.
    for (const f of fields(form)) {
      if (f.tagName === "SELECT") for (const o of f.options) o.defaultSelected = o.selected;
      else if (f.type === "checkbox" || f.type === "radio") f.defaultChecked = f.checked;
      else f.defaultValue = f.value;
    }
    counter += 1;
    const n = counter;
    data.set("lc", client);
    data.set("ln", String(n));
    if (field && field.dataset.liveAs) data.set(field.dataset.liveAs, field.value); // which box of a list changed
    if (data.has("cid")) data.set("cid", `${client}-${n}`);
    // A form kept while another phone changed it (a held piece) still says the version it was made against.
    const piece = form.closest("[data-h]");
    if (data.has("v") && !(piece && held_notes[piece.id])) data.set("v", String(version()));
    if (document.querySelector("[data-live] details")) data.set("open", opened());
    const spec = submitter && submitter.dataset.bump;
    const by = submitter ? parseInt(submitter.dataset.by, 10) || 0 : 0;
    const item = {
      n, lc: client, at: Date.now(), url: form.action,
      body: new URLSearchParams(data).toString(),
      bump: spec && by ? spec.split(" ").map((id) => [id, by]) : [],
      label: form.dataset.liveSet || (field ? labelOf(field) : ""),
      force: form.dataset.liveForce || "",
      twins,
    };
    lastTap = submitter || document.activeElement;
    bump(item, 1);
    outbox.push(item);
    persist();
    flush();
  }

  async function flush() {
    if (sending || !outbox.length) return;
    sending = true;
    try {
      while (outbox.length) {
        const item = outbox[0];
        let response, html;
        try {
          response = await fetch(item.url, {
            method: "POST", credentials: "same-origin",
            headers: { "X-Live": "1", "Content-Type": "application/x-www-form-urlencoded" },
            body: item.body + "&h=" + held(),
          });
          html = await response.text();
        } catch (err) { offline = true; break; }
        if (response.status >= 500) { offline = true; break; }
        offline = false;
        outbox = outbox.filter((o) => o !== item); // a pull may have dropped it already (X-Live-Done)
        persist();
        answered(item, response, html);
      }
    } finally {
      sending = false;
      show();
      if (again || heard > version()) pull();
    }
  }

  function answered(item, response, html) {
    const live = response.headers.has("X-Live-Version");
    const v = parseInt(response.headers.get("X-Live-Version"), 10) || 0;
    const replay = response.headers.has("X-Live-Replay");
    if (response.status === 409) {
      if (live && !replay) apply(html);
      conflict(item);
    } else if (response.status >= 400) {
      const replaced = live && !replay ? apply(html) : [];
      for (const [id, by] of item.bump || []) if (!within(replaced, id)) bumpOne(id, -by);
      for (const [name, was] of item.twins || []) document.querySelectorAll(`[name="${name}"]`).forEach((t) => { t.value = was; });
      if (!live) note("That tap was not saved: this link cannot change it.", [["OK", () => {}]]);
    } else if (live && !replay) {
      apply(html);
    }
    settle(item);
    if (!live || replay || v !== version() + 1) pull();
    else setVersion(v);
  }

  // The waiting mark goes once no tap in the outbox still counts on that element.
  function settle(item) {
    for (const [id] of item.bump || []) {
      const el = document.getElementById(id);
      const piece = el && (el.closest("[data-h]") || el);
      if (piece && !outbox.some((o) => (o.bump || []).some(([b]) => b === id))) {
        piece.classList.remove("live-waiting");
        piece.removeAttribute("aria-busy");
      }
    }
  }

  function conflict(item) {
    conflicts.push(item);
    const what = item.label || "this";
    note(`Another phone changed it first: ${what} was not saved.`, [
      [item.force || "Apply it anyway", () => {
        counter += 1;
        const body = new URLSearchParams(item.body);
        body.set("ln", String(counter));
        body.set("lc", client);
        if (body.has("cid")) body.set("cid", `${client}-${counter}`);
        if (body.has("v")) body.set("v", String(version()));
        body.set("force", "1");
        outbox.push({ ...item, n: counter, lc: client, at: Date.now(), body: body.toString() });
        persist();
        flush();
      }],
      ["Drop it", () => {}],
    ]);
  }

  // --- poke and pull ---------------------------------------------------------------------------------------------
  async function pull() {
    const r = root();
    if (!r) return;
    if (pulling || sending) { again = true; return; }
    pulling = true;
    again = false;
    try {
      const url = r.dataset.livePull;
      const ids = [...new Set(outbox.map((o) => o.lc))].join(".");
      const q = `v=${version()}&h=${held()}&lc=${ids}` + (r.querySelector("details") ? "&open=" + encodeURIComponent(opened()) : "");
      const response = await fetch(url + (url.includes("?") ? "&" : "?") + q, { headers: { "X-Live": "1" }, credentials: "same-origin" });
      if (response.status === 200) {
        const html = await response.text();
        done(response.headers.get("X-Live-Done") || "");
        apply(html);
        const v = parseInt(response.headers.get("X-Live-Version"), 10);
        if (v) setVersion(v);
      }
    } catch (err) { /* offline: the next poke or poll asks again */ }
    finally {
      pulling = false;
      if (again) pull();
    }
  }

  // Writes the server applied whose answers were lost: out of the outbox, not counted again on the screen.
  function done(header) {
    const last = Object.fromEntries(header.split(",").filter(Boolean).map((p) => { const [c, n] = p.split(":"); return [c, +n]; }));
    const gone = outbox.filter((o) => o.n <= (last[o.lc] || 0));
    if (!gone.length) return;
    outbox = outbox.filter((o) => !gone.includes(o));
    persist();
    gone.forEach(settle);
  }

  function listen() {
    const url = first.dataset.liveStream;
    if (!url || !window.EventSource) return;
    const source = new EventSource(url);
    const mark = (how) => { document.documentElement.dataset.liveBy = how; };
    mark("poll");
    source.onmessage = (e) => {
      streamOpen = true;
      mark("stream");
      const v = parseInt(e.data, 10) || 0;
      if (sending) heard = Math.max(heard, v);
      else if (v !== version()) pull();
    };
    source.onerror = () => { streamOpen = false; mark("poll"); };
  }

  // --- taps ------------------------------------------------------------------------------------------------------
  window.addEventListener("submit", (e) => {
    const form = e.target;
    if (!form.matches("[data-live] form[data-live-form], form[data-live-form]") || !root()) return;
    const sub = e.submitter;
    if (sub && sub.name === "go" && sub.value !== "stay") {
      counter += 1; // navigation: a plain (or htmx) request, with a write id of its own
      form.querySelectorAll("[name=lc]").forEach((f) => { f.value = client; });
      form.querySelectorAll("[name=ln]").forEach((f) => { f.value = String(counter); });
      return;
    }
    e.preventDefault();
    e.stopImmediatePropagation();
    tap(form, sub);
  }, true);
  window.addEventListener("change", (e) => {
    const box = e.target.closest && e.target.closest("[data-live-change]");
    const form = box && (e.target.form || box.closest("form"));
    if (!form) return;
    e.stopImmediatePropagation();
    tap(form, null, e.target);
  }, true);

  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { pull(); flush(); } });
  setInterval(() => { if (outbox.length) flush(); }, RETRY_MS);
  setInterval(() => { if (!streamOpen && !document.hidden) pull(); }, POLL_MS);
  if (worker) {
    window.addEventListener("pagehide", () => {
      const copy = (root() || first).cloneNode(true);
      for (const item of outbox) for (const [id, by] of item.bump || []) {
        const el = copy.querySelector("#" + CSS.escape(id));
        if (el && el.tagName === "INPUT") el.setAttribute("value", String((parseInt(el.getAttribute("value"), 10) || 0) - by));
        else if (el) el.textContent = el.textContent.replace(/-?\d+/, (n) => String(parseInt(n, 10) - by));
      }
      copy.querySelectorAll(".live-waiting").forEach((e) => { e.classList.remove("live-waiting"); e.removeAttribute("aria-busy"); });
      const all = lastSeen();
      delete all[location.pathname];
      Object.keys(all).slice(0, -3).forEach((k) => { delete all[k]; }); // this page and the last 3 others
      all[location.pathname] = { v: version(), html: copy.outerHTML };
      try { localStorage.setItem(LAST, JSON.stringify(all)); } catch (e) { /* full: the worker's copy shows */ }
    });
    window.addEventListener("load", () => {
      const fresh = !navigator.serviceWorker.controller; // this load was not seen by a worker: name its parts
      navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready).then((reg) => {
        const parts = document.querySelectorAll("link[rel=stylesheet], link[rel=manifest], script[src]");
        if (fresh && reg.active) reg.active.postMessage({ keep: [location.href, ...Array.from(parts, (e) => e.href || e.src)] });
      }).catch(() => {});
    });
  }
  outbox.forEach((item) => bump(item, 1));
  show();
  listen();
  flush();
})();
