// The pad check's player tabs (templates/_check_parts.html, "tabs"): a tab replaces the address's player instead
// of adding a step to Back, so Back leaves the check rather than showing the pad as it was before the last typing
// (each live check keeps the whole pad in the address: companion/views/checks/common.py, kept_in_address).
document.addEventListener("click", (event) => {
  const tab = event.target.closest && event.target.closest(".ck-tab[href^='#']");
  if (!tab || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) {
    return;
  }
  event.preventDefault();
  location.replace(tab.hash);
});
