// Keep screen on: see templates/_wakelock.html.
(function () {
  var box = document.getElementById("wakelock");
  if (!box) return;
  var on = document.getElementById("wakelock-on"), note = document.getElementById("wakelock-note");
  var K = "iki-wakelock", lock = null, video = null, d = document;
  var api = window.isSecureContext && "wakeLock" in navigator;
  var VIDEO = ": a silent, hidden video keeps it awake instead.";
  function say(t) { note.textContent = t; }
  function play(why) {
    say(why + VIDEO);
    if (!video) {
      video = d.createElement("video");
      video.muted = video.loop = video.playsInline = true;
      video.setAttribute("aria-hidden", "true");
      box.getAttribute("data-video").split(" ").forEach(function (src) {
        var s = d.createElement("source");
        s.src = src; s.type = "video/" + src.split(".").pop();
        video.appendChild(s);
      });
      box.appendChild(video);
    }
    video.play().catch(function () { say("This browser would not keep the screen on."); });
  }
  function take() {
    if (!on.checked || d.visibilityState !== "visible") return;
    if (!api) return play("This address starts with http://, not https://, so the browser will not keep the screen on by itself");
    navigator.wakeLock.request("screen").then(function (l) {
      if (lock) lock.release().catch(function () {});
      lock = l;
      if (!on.checked || d.visibilityState !== "visible") drop();
    }, function () { play("This phone refused to keep the screen on (a battery saver?)"); });
  }
  function drop() {
    if (lock) lock.release().catch(function () {});
    lock = null;
    if (video) video.pause();
  }
  on.addEventListener("change", function () {
    try { on.checked ? localStorage.setItem(K, "1") : localStorage.removeItem(K); } catch (e) { /* not remembered */ }
    if (on.checked) take(); else { drop(); say(""); }
  });
  d.addEventListener("visibilitychange", function () { d.visibilityState === "visible" ? take() : drop(); });
  addEventListener("pagehide", drop);
  addEventListener("pageshow", function (e) { if (e.persisted) take(); });
  try { on.checked = localStorage.getItem(K) === "1"; } catch (e) { /* off */ }
  box.hidden = false;
  take();
})();
