/* Search-as-you-type of the tracker's record pickers (input[data-filter] names its <select>): only the choices whose
   name holds what is typed stay, the first of them chosen; the choices the month offers stay first (their group
   comes first). live.js keeps what was typed when it puts a picker in anew, and says so with an input event. */
(() => {
  "use strict";
  const plain = (t) => t.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  function narrow(input) {
    const select = document.getElementById(input.dataset.filter);
    if (!select) return;
    const want = plain(input.value.trim());
    for (const o of select.options) o.hidden = o.disabled = Boolean(want) && !plain(o.text).includes(want);
    for (const g of select.querySelectorAll("optgroup")) g.hidden = !Array.from(g.children).some((o) => !o.hidden);
    const firstShown = Array.from(select.options).find((o) => !o.hidden), chosen = select.selectedOptions[0];
    if (firstShown && (want || !chosen || chosen.hidden)) firstShown.selected = true;
  }
  window.addEventListener("input", (e) => { if (e.target.matches("input[data-filter]")) narrow(e.target); });
})();
