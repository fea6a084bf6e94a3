// The tracked game on a phone (issue 13, docs/sync.md). Without this file every form still posts and reloads.
// - A tap is sent with fetch and only the parts of #state it changed are swapped; the tapped control stays where
//   the thumb is and its answer is written next to it (an aria-live slot).
// - A poll never replaces a field that has focus or unsaved input: it says another phone changed it and offers it.
// - Every write carries a client-made id and waits in an outbox kept in localStorage until the server answers,
//   in order; a set or phase tap refused as stale (409) is shown as a conflict to confirm or drop.
(function () {
  "use strict";
  var state = document.getElementById("state");
  if (!state) return;
  var POLL_MS = 1500, RETRY_MS = 3000;
  var box = document.getElementById("outbox");
  var key = "iki-outbox:" + location.pathname;
  var sending = false, conflict = null;

  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function load() {
    try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return []; }
  }
  function save(items) {
    if (items.length) localStorage.setItem(key, JSON.stringify(items)); else localStorage.removeItem(key);
  }
  function newId() {
    var a = new Uint8Array(12);
    crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function partOf(el) { var p = el && el.closest("[data-part]"); return p ? p.getAttribute("data-part") : ""; }
  function slotFor(part) {
    var p = state.querySelector('[data-part="' + part + '"]');
    var slot = p && p.closest(".slot");
    return slot ? slot.querySelector("[data-answer]") : null;
  }
  function say(part, text, level) {
    var slot = slotFor(part);
    if (!slot) return;
    slot.textContent = text;
    slot.className = "answer small " + (level || "ok");
  }

  // --- swapping in place ------------------------------------------------------------------------------------
  function dirty(part) {
    var fields = part.querySelectorAll("input:not([type=hidden]), select");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f === document.activeElement) return f;
      if (f.tagName === "SELECT") {
        if (f.selectedIndex !== defaultIndex(f)) return f;
      } else if (f.value !== f.defaultValue) return f;
    }
    return null;
  }
  function defaultIndex(select) {
    for (var i = 0; i < select.options.length; i++) if (select.options[i].defaultSelected) return i;
    return select.options.length ? 0 : -1;
  }
  function offer(old, fresh, field) {
    // Keep the player's typing; say what the other phone set and offer it.
    var twin = field.id ? fresh.querySelector("#" + CSS.escape(field.id)) : null;
    var value = twin ? (twin.tagName === "SELECT" ? twin.value : twin.getAttribute("value")) : "";
    var mine = field.tagName === "SELECT" ? Array.prototype.filter.call(field.options, function (o) {
      return o.defaultSelected; }).map(function (o) { return o.value; })[0] : field.defaultValue;
    old._fresh = fresh;
    if (value === mine || !field.hasAttribute("data-offer")) return;  // nothing another phone set here
    var slot = old.closest(".slot") && old.closest(".slot").querySelector("[data-answer]");
    if (!slot) return;
    slot.className = "answer small warning";
    slot.textContent = "Another phone changed this to " + value + ". ";
    var use = document.createElement("button");
    use.type = "button";
    use.textContent = "Use " + value;
    use.className = "use-fresh";
    use.addEventListener("click", function () {
      if (old._fresh && old.parentNode) old.replaceWith(old._fresh);
      slot.textContent = "";
    });
    slot.appendChild(use);
  }
  function apply(html) {
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    var fresh = t.content.querySelector("#state");
    if (!fresh) return null;
    var now = +state.getAttribute("data-version"), next = +fresh.getAttribute("data-version");
    var message = fresh.querySelector("#state-message");
    if (message) message.remove();
    if (next < now) return message;
    var old = state.querySelector("#state-message");
    if (old) old.remove();
    var parts = fresh.querySelectorAll("[data-part]");
    var same = parts.length === state.querySelectorAll("[data-part]").length;
    for (var i = 0; same && i < parts.length; i++) {
      if (!state.querySelector('[data-part="' + parts[i].getAttribute("data-part") + '"]')) same = false;
    }
    if (!same) {
      // The page's shape changed (the game ended, a control appeared): replace it all, keep open folds.
      var open = Array.prototype.map.call(state.querySelectorAll("details[open]"), function (d) { return d.id; });
      state.replaceWith(fresh);
      state = fresh;
      open.forEach(function (id) { var d = id && document.getElementById(id); if (d) d.open = true; });
      return message;
    }
    Array.prototype.forEach.call(parts, function (part) {
      var mine = state.querySelector('[data-part="' + part.getAttribute("data-part") + '"]');
      if (mine.outerHTML === part.outerHTML) return;
      var field = dirty(mine);
      if (field) { offer(mine, part, field); return; }
      mine.replaceWith(part.cloneNode(true));
    });
    state.setAttribute("data-version", next);
    state.setAttribute("data-poll", fresh.getAttribute("data-poll"));
    return message;
  }
  // Keep the element at the same place on the screen across a swap.
  function steady(part, work) {
    var el = state.querySelector('[data-part="' + part + '"]');
    var before = el ? el.getBoundingClientRect().top : null;
    var result = work();
    el = state.querySelector('[data-part="' + part + '"]');
    if (el && before !== null) window.scrollBy(0, el.getBoundingClientRect().top - before);
    return result;
  }
  document.addEventListener("focusout", function (e) {
    var part = e.target.closest && e.target.closest("[data-part]");
    setTimeout(function () {
      if (part && part._fresh && part.parentNode && !dirty(part)) {
        part.replaceWith(part._fresh);
      }
    }, 0);
  });

  // --- the outbox -----------------------------------------------------------------------------------------------
  function show() {
    var items = load();
    if (!box) return;
    if (conflict) return;
    box.hidden = items.length === 0;
    box.className = "outbox";
    box.textContent = items.length ? "Not saved yet: " + items.length + " waiting" : "";
  }
  function showConflict(item, message) {
    conflict = item;
    box.hidden = false;
    box.className = "outbox conflict";
    box.textContent = "";
    var p = document.createElement("span");
    p.textContent = message + " Your tap: " + item.label + ". ";
    var yes = document.createElement("button");
    yes.type = "button"; yes.id = "conflict-apply"; yes.textContent = "Apply it anyway";
    var no = document.createElement("button");
    no.type = "button"; no.id = "conflict-drop"; no.textContent = "Drop it";
    yes.addEventListener("click", function () {
      var items = load();
      if (items.length && items[0].cid === item.cid) {
        items[0].body = items[0].body.filter(function (kv) { return kv[0] !== "v" && kv[0] !== "was"; });
        items[0].body.push(["v", state.getAttribute("data-version")]);
        save(items);
      }
      conflict = null; flush();
    });
    no.addEventListener("click", function () {
      var items = load();
      if (items.length && items[0].cid === item.cid) { items.shift(); save(items); }
      say(item.part, "Dropped: " + item.label + ".", "warning");
      conflict = null; show(); flush();
    });
    box.appendChild(p); box.appendChild(yes); box.appendChild(no);
    say(item.part, "Not applied: " + item.label + " (see below).", "warning");
  }
  function flush() {
    if (sending || conflict) return;
    var items = load();
    show();
    if (!items.length) return;
    var item = items[0];
    sending = true;
    var body = new URLSearchParams();
    item.body.forEach(function (kv) { body.append(kv[0], kv[1]); });
    body.set("csrfmiddlewaretoken", csrf());
    fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrf() }
    }).then(function (r) {
      return r.text().then(function (text) { return { status: r.status, text: text }; });
    }).then(function (r) {
      sending = false;
      answered(item, r);
    }, function () {
      // No answer (offline, or the connection dropped): the tap stays in the outbox and is sent again.
      sending = false;
      load().forEach(function (i) { say(i.part, "Not saved yet: offline.", "warning"); });
      show();
    });
  }
  function answered(item, r) {
    if (r.status >= 500) { show(); setTimeout(flush, RETRY_MS); return; }
    var message = null;
    if (r.status !== 409) {
      var rest = load();
      if (rest.length && rest[0].cid === item.cid) { rest.shift(); save(rest); }
    }
    steady(item.part, function () { message = apply(r.text); });
    var text = message ? message.textContent : "";
    if (r.status === 409) { showConflict(item, text); return; }
    if (r.status === 200 && state.querySelector("[data-ask]")) {
      // The tap asked first (Next with a reveal due or ending the game, removing an entry): nothing was saved,
      // the question is shown where the tapped control was.
      say(item.part, "", "warning"); show(); flush(); return;
    }
    if (!message && r.status >= 400) {
      var t = document.createElement("template"); t.innerHTML = r.text;
      var m = t.content.querySelector(".message, p");
      text = m ? m.textContent : "Refused (" + r.status + ").";
    }
    var level = r.status >= 400 ? "error" : (message && message.classList.contains("warning") ? "warning" : "ok");
    say(item.part, (text || "Saved.") + (r.status < 400 ? " " + item.label : ""), level);
    show();
    flush();
  }
  function label(form, button) {
    var l = form.getAttribute("data-label") || (button && button.getAttribute("aria-label")) || "a change";
    var field = form.querySelector("input[name=value]:not([type=hidden]), select[name=value]");
    return field ? l + " to " + field.value : l;
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!state.contains(form) || form.hasAttribute("data-plain") || !form.getAttribute("data-kind")) return;
    e.preventDefault();
    var button = e.submitter;
    var body = [];
    new FormData(form, button).forEach(function (v, k) { if (k !== "csrfmiddlewaretoken") body.push([k, v]); });
    var cid = newId();
    body.push(["cid", cid]);
    var part = partOf(form);
    var items = load();
    items.push({ cid: cid, url: form.action, body: body, label: label(form, button), kind: form.getAttribute("data-kind"), part: part });
    save(items);
    // What was typed is now in the outbox: the field is no longer "unsaved input".
    form.querySelectorAll("input:not([type=hidden])").forEach(function (f) { f.defaultValue = f.value; });
    form.querySelectorAll("select option").forEach(function (o) { o.defaultSelected = o.selected; });
    say(part, "Sending…", "ok");
    flush();
  });

  // --- polling --------------------------------------------------------------------------------------------------
  // The first part on the screen: what a poll keeps in place while parts above it change height.
  function onScreen() {
    var parts = state.querySelectorAll("[data-part]");
    for (var i = 0; i < parts.length; i++) {
      var r = parts[i].getBoundingClientRect();
      if (r.height > 0 && r.top >= 0) return parts[i].getAttribute("data-part");
    }
    return "";
  }
  function poll() {
    if (document.hidden || sending) return;
    fetch(state.getAttribute("data-poll") + "?v=" + state.getAttribute("data-version"), {
      headers: { "HX-Request": "true" }, credentials: "same-origin"
    }).then(function (r) {
      if (r.status !== 200) return null;
      return r.text();
    }).then(function (text) {
      if (text && !sending) steady(onScreen(), function () { apply(text); });
      if (load().length) flush();
    }).catch(function () { show(); });
  }
  setInterval(poll, POLL_MS);
  setInterval(function () { if (load().length) flush(); }, RETRY_MS);
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  flush();
})();
