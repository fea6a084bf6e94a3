// This phone's recent setups, games, sheets, checked pads and groups (issues 13, 14, 23), in localStorage: docs/architecture.md.
(function () {
  "use strict";
  var KEY = "iki-recent", MAX = 20;
  function load() {
    try { var v = JSON.parse(localStorage.getItem(KEY) || "[]"); return Array.isArray(v) ? v : []; }
    catch (e) { return []; }
  }
  function save(list) {
    try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX))); } catch (e) { /* full or private */ }
  }
  function remember(item) {
    var list = load(), old = null;
    list = list.filter(function (i) { if (i.url === item.url) { old = i; return false; } return true; });
    item = Object.assign({}, item);
    if (old && !item.detail) item.detail = old.detail;
    if (old && item.title === "Score sheet") item.title = old.title;
    item.date = new Date().toISOString().slice(0, 10);
    list.unshift(item);
    save(list);
  }
  // The phone's time zone, for the times and dates the server writes (companion/timezones.py).
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; // "Europe/Paris": a cookie's characters
    if (/^[\w\/+-]{1,64}$/.test(zone) && document.cookie.split("; ").indexOf("tz=" + zone) < 0) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch (e) { /* no Intl: the server's UTC */ }
  var path = location.pathname, query = new URLSearchParams(location.search), m;
  var entry = document.getElementById("recent-entry");
  function detail(fallback) {
    var marked = document.querySelector("[data-recent]");
    return marked ? marked.getAttribute("data-recent") : fallback;
  }
  if (/^\/(osaka\/)?games\/[^/]+\/$/.test(path) && entry) {
    var game = JSON.parse(entry.textContent), item = { kind: game.label, url: path, title: game.players };
    var seen = item.detail = detail(game.month), main = document.getElementById("main");
    remember(item);
    if (main && window.MutationObserver) new MutationObserver(function () {
      var now = detail(game.month);
      if (now !== seen) { seen = item.detail = now; remember(item); }
    }).observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-recent"] });
  } else if (path === "/setup/game" && query.get("seed") && query.get("table")) {
    var options = [query.get("players") + " players"];
    if (query.get("akebono") === "1") options.push("Akebono");
    if (query.get("grand_master") === "1") options.push("Grand Master");
    remember({ kind: "Setup", url: path + location.search, title: query.get("seed"), detail: options.join(", ") });
  } else if ((m = path.match(/^\/score\/(view\/)?([A-Za-z0-9_-]{20,})\//))) {
    var names = Array.prototype.map.call(document.querySelectorAll(".sp-who"), function (e) { return e.textContent.trim(); });
    var points = Array.prototype.map.call(document.querySelectorAll(".sp-points"), function (e) { return e.textContent.trim(); });
    var result = names.map(function (n, i) { return n + " " + (points[i] || ""); }).join(", ");
    remember({ kind: "Score sheet", url: "/score/" + (m[1] || "") + m[2] + "/", title: names.length ? names.join(", ") : "Score sheet", detail: result });
  } else if (/^\/groups\/[A-Za-z0-9_-]{20,}\/$/.test(path)) {
    // A group's page (either link): the way back to it next week, from this phone.
    var heading = document.querySelector("main h1"), kept = document.querySelector("main h1 + p");
    var named = heading ? heading.textContent.trim() : "Group", viewLink = document.getElementById("group-view-link");
    remember({ kind: "Group", url: path, title: named, detail: kept ? kept.textContent.trim().replace(/\.$/, "") : "",
      edit: !!document.getElementById("group-edit-link") });
    // The edit page knows the view-only link: its entry here, if any, takes the group's name too (renamed since).
    if (viewLink) save(load().map(function (i) {
      return i.url === new URL(viewLink.href).pathname ? Object.assign({}, i, { title: named }) : i;
    }));
  } else if ((m = path.match(/^\/results\/(view\/)?[A-Za-z0-9_-]{20,}\/$/))) {
    // A checked paper pad's kept result: its page is the only way back to file, correct or remove it.
    var placed = Array.prototype.map.call(document.querySelectorAll(".ck-ranking > li"), function (li) {
      var who = li.querySelector("strong"), total = li.querySelector(".rs-total");
      return [who ? who.textContent.trim() : "", total ? total.textContent.trim() : ""];
    });
    remember({ kind: m[1] ? "Checked pad (view only)" : "Checked pad", url: path, title: placed.map(function (p) { return p[0]; }).join(", ") || "Result",
      detail: placed.map(function (p) { return p.join(" "); }).join(", ") });
  }
  // A live page's title follows the part that moves (the tracked game's month): the element marked data-title.
  var titled = document.querySelector("[data-title]"), page = document.getElementById("main");
  if (titled && page && window.MutationObserver) new MutationObserver(function () {
    var now = document.querySelector("[data-title]");
    if (now && now.getAttribute("data-title") !== document.title) document.title = now.getAttribute("data-title");
  }).observe(page, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-title"] });
  // A result page's "Your group's link": this phone's groups (their edit links) offered as one tap each, so that
  // next week's game goes to the group it played in, not to a new group typed with the same name.
  var field = document.getElementById("group-link");
  if (field && field.form) {
    load().filter(function (i) { return i.kind === "Group" && i.edit; }).slice(0, 3).forEach(function (g) {
      var go = document.createElement("button");
      go.type = "button";
      go.className = "button";
      go.textContent = "File it in " + g.title;
      go.addEventListener("click", function () { field.value = location.origin + g.url; field.form.requestSubmit(); });
      var row = document.createElement("div");
      row.className = "actions stretch";
      row.appendChild(go);
      field.form.appendChild(row);
    });
  }
  var box = document.getElementById("recent");
  if (!box) return;
  function draw() {
    var list = load(), ul = box.querySelector("ul");
    box.hidden = list.length === 0;
    ul.textContent = "";
    list.forEach(function (item) {
      var li = document.createElement("li"), a = document.createElement("a"), small = document.createElement("span");
      a.href = item.url;
      a.textContent = item.kind + ": " + item.title;
      small.className = "small muted";
      small.textContent = [item.detail, item.date].filter(Boolean).join(" · ");
      var remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", "Remove " + item.kind + " " + item.title + " from this list");
      remove.addEventListener("click", function () {
        save(load().filter(function (i) { return i.url !== item.url; }));
        draw();
      });
      var text = document.createElement("div");
      text.appendChild(a); text.appendChild(small);
      li.appendChild(text); li.appendChild(remove);
      ul.appendChild(li);
    });
  }
  draw();
})();
