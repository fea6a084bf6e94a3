// "Keep screen on" (issue 25; templates/_wakelock.html): the Screen Wake Lock API in a secure context (HTTPS,
// localhost); elsewhere (plain HTTP on the LAN, where browsers refuse that API) a muted, looping, inline video,
// as NoSleep.js does, fetched only once the switch is on. Remembered per phone; taken again when the page is
// shown again, let go when it is hidden or left.
(function () {
  var box = document.getElementById("wakelock");
  if (!box) return;
  var on = document.getElementById("wakelock-on"), note = document.getElementById("wakelock-note");
  var KEY = "iki-wakelock", lock = null, video = null;
  var api = window.isSecureContext && "wakeLock" in navigator;
  function remember(v) { try { if (v) localStorage.setItem(KEY, "1"); else localStorage.removeItem(KEY); } catch (e) { /* storage refused */ } }
  function say(t) { note.textContent = t; }
  function play() {
    if (!video) {
      video = document.createElement("video");
      video.muted = video.loop = video.playsInline = true;
      video.setAttribute("playsinline", ""); video.setAttribute("muted", ""); video.setAttribute("aria-hidden", "true");
      box.getAttribute("data-video").split(" ").forEach(function (src) {
        var s = document.createElement("source");
        s.src = src; s.type = /webm$/.test(src) ? "video/webm" : "video/mp4";
        video.appendChild(s);
      });
      box.appendChild(video);
    }
    var p = video.play();
    if (p && p.catch) p.catch(function () { say("This browser would not keep the screen on. Turn the switch off and on again to retry."); });
  }
  function take() {
    if (!on.checked || document.visibilityState !== "visible") return;
    if (!api) {
      say("This address starts with http://, not https://, so the browser will not keep the screen on by itself: a silent, hidden video keeps it awake instead.");
      return play();
    }
    say("");
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      if (!on.checked) drop();
    }, function () {
      say("This phone refused to keep the screen on (a battery saver?): a silent, hidden video keeps it awake instead.");
      play();
    });
  }
  function drop() {
    if (lock) { lock.release().catch(function () {}); lock = null; }
    if (video) video.pause();
  }
  on.addEventListener("change", function () {
    remember(on.checked);
    if (on.checked) take(); else { drop(); say(""); }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") take(); else drop();
  });
  window.addEventListener("pagehide", drop);
  window.addEventListener("pageshow", function (e) { if (e.persisted) take(); });
  try { on.checked = localStorage.getItem(KEY) === "1"; } catch (e) { on.checked = false; }
  box.hidden = false;
  take();
})();
