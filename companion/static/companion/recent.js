// This phone's recent setups, games (IKI and Traders of Osaka, issue 23) and score sheets (issue 13, item 6):
// kept in localStorage, no account.
// Every page records itself when it is one of them; the home page lists them, each removable.
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
    if (old && !item.detail) item.detail = old.detail;
    item = Object.assign({}, item);
    if (old && item.title === "Score sheet") item.title = old.title;
    item.date = new Date().toISOString().slice(0, 10);
    list.unshift(item);
    save(list);
  }
  var path = location.pathname, query = new URLSearchParams(location.search), m;
  var entry = document.getElementById("recent-entry");
  // A tracked game's state ("month 4", "finished") is on the part of the page its swaps replace (data-recent):
  // read again whenever it changes, so a game that ends on this page is listed as finished.
  function detail(fallback) {
    var marked = document.querySelector("[data-recent]");
    return marked ? marked.getAttribute("data-recent") : fallback;
  }
  function follow(item, fallback) {
    item.detail = detail(fallback);
    remember(item);
    var seen = item.detail, main = document.getElementById("main");
    if (!main || !window.MutationObserver) return;
    new MutationObserver(function () {
      var now = detail(fallback);
      if (now !== seen) { seen = now; item.detail = now; remember(item); }
    }).observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-recent"] });
  }
  if (/^\/games\/[^/]+\/$/.test(path) && entry) {
    var game = JSON.parse(entry.textContent);
    follow({ kind: game.view ? "IKI game (view only)" : "IKI game", url: path, title: game.players }, game.month);
  } else if (/^\/osaka\/games\/[A-Za-z0-9_-]{20,}\/$/.test(path) && entry) {
    // Every kind of Osaka link: the table's (edit), view only, and a player's own (it says whose).
    var osaka = JSON.parse(entry.textContent);
    var kind = osaka.access === "seat" ? "Osaka game, " + osaka.me + "'s own link"
      : osaka.access === "view" ? "Osaka game (view only)" : "Osaka game";
    follow({ kind: kind, url: path, title: osaka.players }, "in play");
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
