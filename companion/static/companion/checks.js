// The pad check (templates/check.html, check_2015.html), on top of its htmx live check.
// The player tabs (templates/_check_parts.html, "tabs"): a tab replaces the address's player instead of adding a
// step to Back, so Back leaves the check rather than showing the pad as it was before the last typing
// (each live check keeps the whole pad in the address: companion/views/checks/common.py, kept_in_address).
document.addEventListener("click", (event) => {
  const tab = event.target.closest && event.target.closest(".ck-tab[href^='#']");
  if (!tab || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) {
    return;
  }
  event.preventDefault();
  location.replace(tab.hash);
});

// A live check puts the pad it checked in the address (HX-Replace-Url): on the tab shown when its answer comes,
// which may be another than when it was asked (typing, then tapping the next player's tab).
document.addEventListener("htmx:beforeHistoryUpdate", (event) => {
  const update = event.detail.history;
  if (update && update.path) {
    update.path = update.path.split("#")[0] + location.hash;
  }
});

// A live check's messages appear under the line just typed, while the next field is being typed in: the page
// scrolls by what that field moved, so it stays under the thumb (and above the keyboard).
let typing = null;
document.addEventListener("htmx:beforeSwap", () => {
  const field = document.activeElement;
  typing = field && field.closest && field.closest(".ck-player") ? [field, field.getBoundingClientRect().top] : null;
});
document.addEventListener("htmx:afterSwap", () => {
  if (typing && typing[0].isConnected) {
    const moved = typing[0].getBoundingClientRect().top - typing[1];
    if (moved) {
      window.scrollBy(0, moved);
    }
  }
  typing = null;
});

// The keyboard's Go key in a player's field would submit the form with its first button (the players' "Check
// again"), whose address names no player: it taps that player's own Check instead, so the page comes back on the
// player being typed (templates/_check_parts.html, "player"), as the button under the thumb does.
document.addEventListener("keydown", (event) => {
  const field = event.target;
  const own = event.key === "Enter" && field.matches && field.matches(".ck-player input[type=text]")
    && field.closest(".ck-player").querySelector(".ck-check");
  if (own && !event.defaultPrevented) {
    event.preventDefault();
    own.form.requestSubmit(own);
  }
});
