/* The live-table client (issue 21; docs/sync.md describes it): one script for every shared thing. The live root
   ([data-live="<thing>"], data-live-stream, -pull, -version) holds pieces (an id and a digest, data-h). A tap is a
   write with this page's client id and counter (lc, ln), kept in the thing's outbox until answered, sent in order;
   an additive tap (data-bump, data-by) shows at once, waiting. The stream pokes, the page pulls the pieces it lacks
   (no stream: it polls). A conflict waits alone; a field being typed in is never replaced; nothing moves. */
(() => {
  "use strict";
  const POLL_MS = 1500, RETRY_MS = 2000, WAIT_SAY_MS = 800, QUIET_MS = 50000, LAST = "live-last";
  const int = (text) => parseInt(text, 10) || 0;
  const inside = (scope, id) => scope.querySelector("#" + CSS.escape(id));
  const make = (tag, properties) => Object.assign(document.createElement(tag), properties);
  const root = () => document.querySelector("[data-live]");
  // Offline (docs/sync.md "Offline"): a page the service worker answered from its copy is older than the last state
  // this phone saw of it, kept when it was left (less its waiting taps): that is put back. Plain HTTP has no worker.
  // Kept by the page's whole address, as the worker keeps pages (every setup is /setup/game), and for its thing only.
  const worker = window.isSecureContext && "serviceWorker" in navigator, here = location.pathname + location.search;
  const lastSeen = () => { try { return JSON.parse(localStorage.getItem(LAST) || "{}"); } catch (e) { return {}; } };
  const was = worker && root() && lastSeen()[here];
  if (was && was.thing === root().dataset.live && was.v > int(root().dataset.liveVersion)) root().outerHTML = was.html;
  const live = root(); // pieces are put in inside it, never in its place
  if (!live) return;
  const KEY = "live-outbox:" + live.dataset.live;
  const client = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => (b % 36).toString(36)).join("");
  let counter = 0, sending = false, pulling = false, again = false, offline = false, kept = true, lastTap = null;
  // heard: the newest version a poke announced while a write was on its way; pull only if its answer did not get there.
  // newest: the newest version whose pieces the page shows (a write's answer's); a pull answered older is not applied.
  let heard = 0, newest = 0, outbox = [];
  // A view-only page (data-live-read-only) writes nothing: the taps the edit link's page left waiting on this
  // phone are not its to send.
  const reads = "liveReadOnly" in live.dataset;
  try { if (!reads) outbox = JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { kept = false; }
  // The writes this page has held (loaded or made): another tab's of the same thing stay in storage, its to send.
  const tapId = (o) => `${o.lc}:${o.n}`, ours = new Set(outbox.map(tapId));

  // --- the bar: waiting taps, conflicts, notes (fixed: it never moves the page) -------------------------------
  document.body.insertAdjacentHTML("beforeend",
    '<div class="live-bar" aria-live="polite"><p class="message warning live-status" hidden></p></div>');
  const bar = document.body.lastElementChild, status = bar.firstChild;
  let waitTimer = 0;
  function show() {
    const n = outbox.length, lines = [];
    if (n && (offline || Date.now() - outbox[0].at > WAIT_SAY_MS)) lines.push(`Not saved yet: ${n} waiting.`);
    if (!kept) lines.push("This phone cannot keep taps while offline: each tap is sent at once.");
    if (offline && !lines.length) lines.push("Reconnecting…"); // the server is not answering: quiet, it catches up
    status.classList.toggle("live-quiet", lines[0] === "Reconnecting…");
    status.textContent = lines.join(" ");
    status.hidden = !lines.length;
    clearTimeout(waitTimer);
    if (n && !offline) waitTimer = setTimeout(show, WAIT_SAY_MS);
  }
  // A note with its buttons ([label, what it does]); any of them puts the note away.
  function note(text, buttons) {
    const box = make("div", { className: "message warning live-note" });
    box.setAttribute("role", "alert");
    box.append(make("p", { textContent: text }));
    for (const [label, act] of buttons) {
      const onclick = () => { // it fades, but takes a second tap for a moment: a double tap never reaches what it hid
        box.classList.add("live-note-gone");
        box.setAttribute("aria-hidden", "true");
        setTimeout(() => box.remove(), 500);
        act();
      };
      box.append(make("button", { type: "button", textContent: label, onclick }), " ");
    }
    bar.append(box);
    return box;
  }
  // The outbox into storage: a new tap's in the task that sends it (never lost); an answered one's after the answer
  // is in place, or when the page is left (lost, it is only sent again: applied once).
  let storing = 0;
  function persist(later) {
    clearTimeout(storing);
    storing = later ? setTimeout(persist) : 0;
    if (later) return;
    let others = [];
    try { others = JSON.parse(localStorage.getItem(KEY) || "[]").filter((o) => !ours.has(tapId(o))); } catch (e) {}
    try { localStorage.setItem(KEY, JSON.stringify([...others, ...outbox])); } catch (e) { kept = false; }
    show();
  }

  // --- pieces --------------------------------------------------------------------------------------------------
  const version = () => int(live.dataset.liveVersion);
  const held = () => Array.from(live.querySelectorAll("[data-h]"), (e) => e.dataset.h).join(".");
  // The page's open <details>, for a render that keeps them open (only where it has any).
  function keepOpen(params) {
    if (!live.querySelector("details")) return;
    params.set("open", Array.from(live.querySelectorAll("details[open][id]"), (d) => d.id).join(" "));
  }
  const fields = (el) => el.querySelectorAll("input:not([type=hidden]), select, textarea");
  const typed = (f) => "typed" in f.dataset; // changed on this phone since it came or was sent
  const shown = (f) => f.tagName === "SELECT" ? (f.selectedOptions[0] || {}).text || "" : f.value;
  const saved = (f) => f.tagName === "SELECT" ? (Array.from(f.options).find((o) => o.defaultSelected) || {}).text
    : f.defaultValue; // as the page was given it, whatever was typed since
  const labelOf = (f) => ((f.id && document.querySelector(`label[for="${f.id}"]`) || {}).textContent
    || f.getAttribute("aria-label") || "this").trim();

  // What stays where it stood on the screen: the tapped element while in view, else the innermost one with an id at
  // the last touch's height (the thumb's; the top before any), one that shows: Chromium measures a closed <details>'s.
  let thumb = 0;
  function anchorOf() {
    const box = (el) => el.getBoundingClientRect(), y = Math.min(Math.max(thumb, 0), innerHeight);
    const shows = (el) => (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0);
    const seen = (el) => box(el).bottom >= 0 && box(el).top <= innerHeight && box(el).height > 0 && shows(el);
    const near = Array.from(live.querySelectorAll("[id]")).filter((el) => box(el).bottom >= y && seen(el));
    const tapped = lastTap && lastTap.isConnected && seen(lastTap);
    const mark = tapped ? lastTap : near.filter((el) => box(el).top <= y).pop() || near[0];
    return mark ? { el: mark, id: mark.id, top: box(mark).top } : null;
  }

  // Put the pieces of an answer in place, with the waiting taps' changes on top.
  // ``pulled``: a pull's pieces, which never bring an answer: the answers beside this phone's controls stay until
  // they fade or its next tap (a pull that follows the tap's answer does not take it away).
  function apply(html, pulled = false) {
    const t = make("template", { innerHTML: html });
    const anchor = anchorOf(), active = document.activeElement;
    for (const fresh of Array.from(t.content.children)) {
      const old = fresh.id && document.getElementById(fresh.id);
      if (!old) { addLine(fresh); continue; }
      if (pulled && (old.matches("[data-answer]") || asked(old, fresh))) continue;
      const busy = Array.from(fields(old)).filter((f) => (f === active || typed(f)) && !mine(f));
      const clash = busy.find((f) => f.id && inside(fresh, f.id) && shown(inside(fresh, f.id)) !== shown(f));
      if (clash) { hold(old, fresh, clash); continue; }
      if (old.matches("details[open]")) fresh.open = true;
      for (const d of old.querySelectorAll("details[open][id]")) {
        if (inside(fresh, d.id)) inside(fresh, d.id).open = true;
      }
      place(old, fresh);
      unhold(fresh.id);
    }
    const back = active && active.id && !active.isConnected && document.getElementById(active.id);
    if (back) back.focus({ preventScroll: true }); // the focused field, put in anew
    const mark = anchor && (anchor.el.isConnected ? anchor.el : anchor.id && document.getElementById(anchor.id));
    if (mark) window.scrollBy(0, mark.getBoundingClientRect().top - anchor.top);
    bar.querySelectorAll(".live-note:not(.live-note-gone)").forEach((box) => box.say && box.say()); // a conflict now
  }

  // A question this phone asked ([data-ask]) that a pull would take away: kept while what it asks about stands (its
  // piece's data-gone, the game's step, unchanged; or the control it names in data-about still there: a record),
  // else it goes with its data-gone words (another phone moved the game on, removed the record): true to keep it.
  function asked(old, fresh) {
    const question = old.querySelector("[data-ask]"), about = question && question.dataset.about;
    const gone = about ? question.dataset.gone : fresh.dataset.gone;
    if (!question || !gone || inside(fresh, question.id)) return false;
    const stands = about ? !!fresh.querySelector(`[aria-label="${CSS.escape(about)}"]`) : gone === old.dataset.gone;
    if (!stands) note(gone, [["OK", () => {}]]);
    return stands;
  }

  // A new line of a list (data-live-in="<list id>", data-v its version): put in by version, newest first; the
  // lines older than the list's last data-live-keep versions go (the server's render shows the same lines).
  function addLine(fresh) {
    const list = fresh.dataset.liveIn && document.getElementById(fresh.dataset.liveIn), v = int(fresh.dataset.v);
    if (!list) return;
    list.insertBefore(fresh, Array.from(list.children).find((line) => int(line.dataset.v) < v) || null);
    const keep = int(list.dataset.liveKeep), newest = int(list.firstElementChild.dataset.v);
    for (const line of Array.from(list.children)) if (keep && int(line.dataset.v) <= newest - keep) line.remove();
  }

  // A record's player (select[data-keep]) and its search (input[data-filter], picker.js) are this phone's choice, not
  // shared input: a fresh piece takes them over (issue 23: the player stays after Add whatever else changed).
  const MINE = "select[data-keep], input[data-filter]", mine = (f) => f.matches(MINE);
  function place(old, fresh) {
    old.replaceWith(fresh);
    for (const f of old.querySelectorAll(MINE)) {
      const twin = f.id && inside(fresh, f.id);
      if (!twin || !f.value) continue;
      const offered = twin.value;
      twin.value = f.value;
      if (twin.value !== f.value) twin.value = offered; // a player the fresh picker no longer offers
      if (twin.dataset.filter) twin.dispatchEvent(new Event("input", { bubbles: true })); // narrowed again
    }
    rebump(fresh); // in place: a number's form is outside its piece
  }
  window.addEventListener("input", (e) => { e.target.dataset.typed = ""; }); // unsaved input, until it is sent

  // A piece with a field being typed in: keep it, and offer the other phone's value.
  const holding = {}; // piece id -> its note
  const unhold = (id) => { if (holding[id]) holding[id].remove(); delete holding[id]; };
  function hold(old, fresh, field) {
    const value = shown(inside(fresh, field.id));
    unhold(old.id);
    holding[old.id] = note(`Another phone changed ${labelOf(field)} to ${value}.`, [[`Use ${value}`, () => {
      unhold(old.id);
      if (old.isConnected) place(old, fresh); // else a piece around it was put in anew meanwhile
    }]]);
  }

  // --- optimistic additive taps ---------------------------------------------------------------------------------
  // scope: the page, a fresh piece, or the copy of the live root kept when the page is left.
  function bumpOne(id, by, scope = document) {
    const el = inside(scope, id);
    if (!el) return;
    if ("value" in el && el.tagName !== "OUTPUT") {
      el.value = String(int(el.value) + by);
      el.defaultValue = el.value;
      const twin = el.form && el.name && el.form.querySelector(`[name="was-${el.name}"]`);
      if (twin) twin.value = el.value; // the value this page now shows as its own
    } else {
      el.textContent = el.textContent.replace(/-?\d+/, (n) => String(int(n) + by));
    }
    waiting(el.closest("[data-h]") || el, true);
  }
  function waiting(piece, on) { // aria-busy "false" is as good as none
    piece.classList.toggle("live-waiting", on);
    piece.setAttribute("aria-busy", String(on));
  }
  const bump = (bumps, sign, scope) => bumps.forEach(([id, by]) => bumpOne(id, by * sign, scope));
  const rebump = (piece) => outbox.forEach((item) => bump(item.bump, 1, piece));
  // The waiting mark goes once no tap in the outbox still counts on that element.
  function settle(item) {
    for (const [id] of item.bump) {
      const el = document.getElementById(id);
      if (el && !outbox.some((o) => o.bump.some(([b]) => b === id))) waiting(el.closest("[data-h]") || el, false);
    }
  }

  // --- push ------------------------------------------------------------------------------------------------------
  function tap(form, submitter, field) {
    const by = submitter ? int(submitter.dataset.by) : 0;
    const bumps = by && submitter.dataset.bump ? submitter.dataset.bump.split(" ").map((id) => [id, by]) : [];
    // A −/+ counts from the saved number (its twin): one refused since, not typed again, is let go, not sent along.
    for (const f of bumps.map(([id]) => inside(form, id)).filter((f) => f && f.name && !typed(f))) {
      const twin = form.elements[`was-${f.name}`];
      if (twin) f.value = twin.value;
    }
    const data = new FormData(form, submitter || undefined);
    // What this tap sends is what the page now holds: a later tap does not send a typed number again (a refusal
    // puts the twin back: the next tap sends the number again, but for its own −/+, above).
    const twins = [];
    for (const twin of form.querySelectorAll('input[name^="was-"]')) {
      const f = form.elements[twin.name.slice(4)];
      if (!f || !("value" in f) || f.value === twin.value) continue;
      twins.push([twin.name, twin.value]);
      twin.value = f.value;
    }
    // A record's search is done with once its choice is sent; what was sent is no longer unsaved input (the tap's
    // own answer may replace its form).
    for (const f of form.querySelectorAll("input[data-filter]")) f.value = "";
    for (const f of fields(form)) delete f.dataset.typed;
    if (field && field.dataset.liveAs) data.set(field.dataset.liveAs, field.value); // which box of a list changed
    // A form kept while another phone changed it (a held piece) still says the version it was made against.
    const piece = form.closest("[data-h]");
    if (data.has("v") && !(piece && holding[piece.id])) data.set("v", String(version()));
    keepOpen(data);
    lastTap = submitter || document.activeElement;
    bump(bumps, 1);
    const label = form.dataset.liveSet || (field ? labelOf(field) : "");
    // The number it sets (its one field, or the field changed): a conflict's note names it, and the value now.
    const one = field || (fields(form).length === 1 && fields(form)[0]);
    const [to, where] = one && one.matches("[type=number], select") ? [shown(one), one.id] : ["", ""];
    const item = { url: form.action, bump: bumps, label, force: form.dataset.liveForce || "", twins, to, where };
    send({ ...item, step: "liveStep" in form.dataset }, data);
  }

  // Into the outbox with the next write id (lc, ln; Osaka's cid too), then sent in order.
  function send(item, params) {
    counter += 1;
    params.set("lc", client); params.set("ln", String(counter));
    if (params.has("cid")) params.set("cid", `${client}-${counter}`);
    const body = new URLSearchParams(params).toString();
    outbox.push({ ...item, n: counter, lc: client, at: Date.now(), body });
    ours.add(`${client}:${counter}`);
    flush(); // its request leaves first, then it is kept
    persist();
  }

  // A request of this script (X-Live: 1): {response, html}, or null when the server cannot be reached.
  function ask(url, init = {}) {
    return fetch(url, { credentials: "same-origin", headers: { "X-Live": "1" }, ...init })
      .then(async (response) => ({ response, html: await response.text() }), () => null);
  }

  // Whether the server answered (a request's {response}, or true: the stream spoke); the bar says it when not.
  function reach(got) {
    const gone = !got || (got !== true && got.response.status >= 500);
    if (gone !== offline) { offline = gone; show(); }
    return !offline;
  }

  async function flush() {
    if (sending || !outbox.length) return;
    sending = true;
    try {
      while (outbox.length) {
        const item = outbox[0];
        const got = await ask(item.url, { method: "POST", body: new URLSearchParams(`${item.body}&h=${held()}`) });
        if (!reach(got)) break;
        outbox = outbox.filter((o) => o !== item); // a pull may have dropped it already (X-Live-Done)
        answered(item, got.response, got.html);
        persist(true);
      }
    } finally {
      sending = false;
      show();
      if (again || heard > version()) pull();
    }
  }

  function answered(item, response, html) {
    const v = int(response.headers.get("X-Live-Version")), known = response.headers.has("X-Live-Version");
    const fresh = known && !response.headers.has("X-Live-Replay"); // a replay's pieces are old: pull instead
    const before = item.bump.map(([id]) => document.getElementById(id)); // a piece put in anew shows it undone
    if (fresh) { apply(html); newest = Math.max(newest, v); }
    if (response.status === 409) conflict(item);
    else if (response.status >= 400) {
      item.bump.forEach(([id, by], i) => { if (before[i] && before[i].isConnected) bumpOne(id, -by); });
      for (const [name, was] of item.twins || []) document.getElementsByName(name).forEach((t) => { t.value = was; });
      if (!known) note("That tap was not saved: this link cannot change it.", [["OK", () => {}]]);
    } else if (!fresh && !item.done && v && v <= version()) {
      item.bump.forEach(([id, by]) => bumpOne(id, -by)); // landed before: the page shows it already (a reload)
    }
    settle(item);
    if (!fresh || v !== version() + 1) pull();
    else live.dataset.liveVersion = String(v);
  }

  // The number not saved, and the value now once it changed again since the note came (answered minutes later).
  // A step's (a form[data-live-step], naming the step) goes once the game moves on again: "anyway" is refused then.
  const step = () => (document.querySelector("form[data-live-step]") || { dataset: {} }).dataset.liveStep;
  function conflict(item) {
    const to = item.to ? " to " + item.to : "";
    const what = `Another phone changed it first: ${item.label || "this"}${to} was not saved.`;
    const now = () => { const f = item.where && document.getElementById(item.where); return f ? saved(f) : ""; };
    const from = item.step ? step() : null;
    const first = now(), box = note(what, [[item.force || "Apply it anyway", () => {
      const params = new URLSearchParams(item.body);
      if (params.has("v")) params.set("v", String(version()));
      params.set("force", "1");
      send(item, params);
    }], ["Drop it", () => {}]]);
    box.say = () => {
      const gone = `The game has moved on since: ${item.label || "that tap"} was dropped.`;
      if (from !== null && step() !== from) { box.remove(); note(gone, [["OK", () => {}]]); return; }
      box.firstChild.textContent = now() === first ? what : `${what} It is ${now()} now.`;
    };
  }

  // --- poke and pull ---------------------------------------------------------------------------------------------
  async function pull() {
    if (pulling || sending) { again = true; return; }
    pulling = true; again = false;
    try {
      const clients = [...new Set(outbox.map((o) => o.lc))].join("."); // those with writes in the outbox
      const query = new URLSearchParams({ v: version(), h: held(), lc: clients });
      keepOpen(query);
      const url = live.dataset.livePull;
      const got = await ask(url + (url.includes("?") ? "&" : "?") + query); // null: the next poke or poll asks again
      reach(got);
      if (got && got.response.status === 200) {
        done(got.response.headers.get("X-Live-Done") || "");
        const v = int(got.response.headers.get("X-Live-Version"));
        if (v && v < Math.max(newest, version())) again = true; // a write's answer got here first: ask again
        else { apply(got.html, true); if (v) live.dataset.liveVersion = String(v); }
      }
    } finally {
      pulling = false;
      if (again) pull();
    }
  }

  // Writes the server applied whose answers were lost ("<client>:<last counter>,..."): out of the outbox, not
  // counted again on the screen.
  function done(header) {
    const last = Object.fromEntries(header.split(",").filter(Boolean).map((p) => p.split(":")));
    const gone = outbox.filter((o) => o.n <= int(last[o.lc]));
    if (!gone.length) return;
    gone.forEach((o) => { o.done = true; }); // its bump is no longer put on top of what the pull brings
    outbox = outbox.filter((o) => !gone.includes(o));
    persist();
    gone.forEach(settle);
  }

  // The stream, while it answers (the page's data-live-by is "stream"); else the page polls. The server speaks at
  // least every 20 s (companion.live.stream.KEEPALIVE_S): a stream silent for QUIET_MS (a connection lost without a
  // word) or closed for good (a proxy's 502 at a restart) is opened anew, the page polling meanwhile.
  const doc = document.documentElement.dataset;
  let source = null, heardAt = 0;
  function listen() {
    if (source) source.close();
    heardAt = Date.now();
    doc.liveBy = "poll";
    source = new EventSource(live.dataset.liveStream);
    source.onmessage = (e) => {
      heardAt = Date.now();
      doc.liveBy = "stream";
      reach(true);
      const v = int(e.data);
      if (sending) heard = Math.max(heard, v);
      else if (v !== version()) pull();
    };
    source.onerror = () => { doc.liveBy = "poll"; };
  }
  if (live.dataset.liveStream && window.EventSource) listen();

  // --- taps ------------------------------------------------------------------------------------------------------
  window.addEventListener("submit", (e) => {
    const form = e.target, sub = e.submitter;
    if (!form.matches("form[data-live-form]")) return;
    if (sub && sub.name === "go" && sub.value !== "stay") {
      counter += 1; // navigation: a plain (or htmx) request, with a write id of its own
      for (const f of form.querySelectorAll("[name=lc], [name=ln]")) f.value = f.name === "lc" ? client : counter;
      return;
    }
    e.preventDefault(); e.stopImmediatePropagation(); tap(form, sub);
  }, true);
  window.addEventListener("change", (e) => {
    const box = e.target.closest && e.target.closest("[data-live-change]");
    const form = box && (e.target.form || box.closest("form"));
    if (!form) return;
    e.stopImmediatePropagation(); tap(form, null, e.target);
  }, true);
  // An answer floating under its control (.answer[data-answer]) goes when it has faded, at the next touch anywhere
  // else, or when it is tapped itself (at its click, so the tap never reaches a control it hid): it never stands in
  // the way of the next tap. The page then no longer holds it, so the same answer to a later tap comes again.
  const answerOf = (e) => e.target.closest(".answer[data-answer]");
  const putAway = (answer) => { answer.classList.add("answer-gone"); answer.removeAttribute("data-h"); };
  window.addEventListener("pointerdown", (e) => {
    thumb = e.clientY; // where the thumb is (anchorOf)
    if (!answerOf(e)) document.querySelectorAll(".answer[data-answer]:not(:empty)").forEach(putAway);
  }, true);
  window.addEventListener("click", (e) => { if (answerOf(e)) putAway(answerOf(e)); }, true);
  window.addEventListener("touchend", (e) => { thumb = e.changedTouches[0].clientY; }, true); // a scroll's end too
  document.addEventListener("animationend", (e) => { if (answerOf(e)) putAway(answerOf(e)); });

  window.addEventListener("pagehide", () => { if (storing) persist(); });
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { pull(); flush(); } });
  setInterval(flush, RETRY_MS);
  setInterval(() => {
    if (source && Date.now() - heardAt > QUIET_MS) listen();
    if (doc.liveBy !== "stream" && !document.hidden) pull();
  }, POLL_MS);
  if (worker) {
    // Left: keep the live root as it shows, less the waiting taps' optimistic changes (put back on top at load).
    window.addEventListener("pagehide", () => {
      const copy = live.cloneNode(true);
      for (const item of outbox) bump(item.bump, -1, copy);
      copy.querySelectorAll(".live-waiting").forEach((piece) => waiting(piece, false));
      const others = Object.entries(lastSeen()).filter(([at]) => at !== here).slice(-3);
      const last = { thing: live.dataset.live, v: version(), html: copy.outerHTML };
      const all = Object.fromEntries([...others, [here, last]]);
      try { localStorage.setItem(LAST, JSON.stringify(all)); } catch (e) { /* full: the worker's copy shows */ }
    });
    window.addEventListener("load", () => {
      const fresh = !navigator.serviceWorker.controller; // this load was not seen by a worker: name its parts
      navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready).then((reg) => {
        const parts = document.querySelectorAll("link[rel=stylesheet], link[rel=manifest], script[src]");
        const keep = [location.href, ...Array.from(parts, (e) => e.href || e.src)];
        if (fresh && reg.active) reg.active.postMessage({ keep });
      }).catch(() => {});
    });
  }
  outbox.forEach((item) => bump(item.bump, 1));
  show();
  flush();
})();
