/* The walk-through's Next, Back and "Go to the result" (templates/scorepad_step.html): sent by this script, so a
   tap while the server cannot be reached keeps the player on the page with a quiet note, instead of the browser's
   own error page (what was typed is kept: live.js holds it until it is saved). live.js gave the request a write
   id of its own (its submit listener runs first, at capture); the entries Next carries are set values, so a second
   try after a lost answer sets the same numbers again. Without JavaScript (or without fetch) the buttons stay plain
   form posts. */
(() => {
  "use strict";
  const WAIT_MS = 15000;
  let going = false, through = false;
  function say(form, text) {
    let box = form.querySelector(".sp-unreached");
    if (!box) {
      box = Object.assign(document.createElement("p"), { className: "message warning small sp-unreached" });
      box.setAttribute("role", "status");
      form.querySelector(".sp-nav").after(box);
    }
    box.textContent = text;
    box.hidden = !text;
  }
  window.addEventListener("pageshow", () => { going = through = false; }); // back from the next page
  window.addEventListener("submit", (e) => {
    const form = e.target, sub = e.submitter;
    if (through || e.defaultPrevented || !window.fetch || !form.matches("form[data-live-form]")) return;
    if (!sub || sub.name !== "go" || sub.value === "stay" || !form.querySelector(".sp-nav")) return;
    e.preventDefault();
    if (going) return; // a second tap while the first is on its way
    going = true;
    say(form, "");
    const stop = new AbortController(), timer = setTimeout(() => stop.abort(), WAIT_MS);
    // Sent as htmx sends it, so the answer names where to go (HX-Location, HX-Redirect) and the next step is
    // loaded once, by the browser, not first by this request too.
    fetch(form.action, { method: "POST", body: new FormData(form, sub), credentials: "same-origin",
                         headers: { "HX-Request": "true" }, signal: stop.signal })
      .then((response) => {
        if (response.status >= 500) throw new Error("unreached");
        const there = response.ok && (response.headers.get("HX-Redirect")
          || JSON.parse(response.headers.get("HX-Location") || "{}").path);
        if (there) {
          location.assign(there);
        } else { // a refusal (a bad number, a busy sheet) is a page of its own: shown as without this script
          through = true;
          form.requestSubmit(sub);
        }
      })
      .catch(() => {
        going = false;
        say(form, "Could not reach the server. You are still here and nothing you typed is lost: tap again in a moment.");
      })
      .finally(() => clearTimeout(timer));
  });
})();
