"""Nothing moves under the thumb (issue 23): the tracker's layout shift is 0 during a sequence of taps, on the phone
that taps and on a second phone that only watches.

The browser's own measure: every ``layout-shift`` entry (PerformanceObserver, buffered) is summed, those within
500 ms of a tap included (Cumulative Layout Shift leaves those out; a thumb does not). The count starts once the
page has loaded; the taps are the quick scores (a score of 99 gaining a digit among them), the firefighting and
trade taps, -1, a refusal, an exact value, a record, and "Next phase" through a month's phases.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from companion.models.games import Game
from companion.services.tracker.changes import apply_change
from scoring.calendar import due_reveals
from tests.companion.test_targets_browser import _tracked_game
from tests.conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OBSERVE = """
window.__shifts = [];
window.__observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.__shifts.push({
      value: e.value,
      step: window.__step || '',
      recent: e.hadRecentInput,
      sources: (e.sources || []).map((s) => {
        const n = s.node;
        const what = n && n.nodeType === 1
          ? `${n.tagName.toLowerCase()}${n.id ? '#' + n.id : ''}.${[...n.classList].join('.')}`
          : (n ? `text "${(n.textContent || '').trim().slice(0, 30)}"` : '?');
        return `${what} y ${Math.round(s.previousRect.y)} -> ${Math.round(s.currentRect.y)}`;
      }),
    });
  }
});
window.__observer.observe({ type: 'layout-shift', buffered: true });
"""


#: A line put at the top of what the phone shows: everything under it moves down, a shift the measure must see.
PUSH_DOWN = """
() => {
  const seen = [...document.querySelectorAll('#state [id]')].find((e) => e.getBoundingClientRect().top > 60);
  const line = document.createElement('p');
  line.textContent = 'A line that pushes the rest down';
  seen.before(line);
}
"""


def _reveal_due(game: Game) -> None:
    """Reveal what the phase has due, as the table would before "Next phase" (which would otherwise ask first)."""
    game.refresh_from_db()
    hidden = [
        k
        for k in due_reveals(game.month, game.phase_enum, game.options, game.setup)
        if k not in game.revealed
    ]
    if hidden:
        apply_change(game_id=game.pk, op="reveal", who="test", key=" ".join(hidden))


def _phone(new_context: Any, url: str) -> Any:
    page = new_context().new_page()
    page.add_init_script(OBSERVE)
    page.goto(url)
    page.wait_for_load_state("load")
    return page


#: Count from here: the shifts of what came before (the folds opened) are drawn by the next frames and handed to the
#: observer later, so wait for two frames, take what is pending, then start from nothing.
START_COUNTING = """
async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  window.__observer.takeRecords();
  window.__shifts = [];
}
"""


def _start_counting(*pages: Any) -> None:
    for page in pages:
        page.evaluate(START_COUNTING)


def _step(label: str, *pages: Any) -> None:
    """Name the step that the shifts from now on belong to (the failure message says where a shift came from)."""
    for page in pages:
        page.evaluate("(t) => { window.__step = t; }", label)


def _shifts(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__shifts"))


def _text(page: Any, selector: str, text: str) -> None:
    expect(page.locator(selector)).to_have_text(text)


@pytest.mark.long  # the longest browser tests of the suite (20-50 s in CI): started first
def test_taps_move_nothing_on_either_phone(live_server: Any, new_context: Any, screenshot: Any) -> None:
    from django.test import Client

    game = _tracked_game(Client(), to_the_end=False)
    url = live_server.url + game.edit_url()
    one = _phone(new_context, url)
    two = _phone(new_context, url)
    two.click("#setup-ticks summary")
    # The watching phone reads further down the page, where a changed phase rewrites what is above and below.
    two.locator("#now-title").scroll_into_view_if_needed()
    two.evaluate("window.scrollBy(0, 200)")
    one.click("#exact-2 summary")  # folds opened before the count: what is under them goes down, as asked
    one.click("#setup-ticks summary")
    _start_counting(one, two)

    taps = [
        ("#add-2-2", "#score-2", "101"),  # David Martin 99 -> 101: a digit more
        ("#add-1-1", "#score-1", "72"),
        ("#add-3-5", "#score-3", "107"),  # -1
        ("#fire-add-4", "#fire-4", "1"),
        ("#trade-add-1", "#trade-1", "1"),
        ("#add-4-4", "#score-4", "125"),
    ]
    for button, count, value in taps:
        _step(button, one, two)
        one.click(button)
        _text(one, count, value)
        _text(two, count, value)
        expect(one.locator("[data-answer]:not(:empty)").first).to_be_attached()
    # A refusal answers beside its row: Ulric's score set to 0 by another phone, his -1 is refused.
    _step("refusal", one, two)
    apply_change(
        game_id=game.pk,
        op="score-set",
        who="test",
        seat=4,
        value=0,
        seen=Game.objects.get(pk=game.pk).version,
    )
    _text(one, "#score-4", "0")
    one.click("#add-4-5")
    expect(one.locator("#answer-row-4")).not_to_be_empty()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    one.screenshot(path=str(SCREENSHOTS / "layout-shift-refusal-screen.png"))  # the viewport: no scrolling
    # An exact value, set in its fold.
    _step("exact value", one, two)
    one.fill("#set-score-2", "140")
    one.click("#set-score-go-2")
    _text(one, "#score-2", "140")
    _text(two, "#score-2", "140")
    # A record, added from the record form.
    _step("record", one, two)
    one.locator("#record-tokens").scroll_into_view_if_needed()
    one.select_option("#record-tokens", index=1)
    entries = one.locator("#part-records li").count()
    one.click("#record-tokens-go")
    expect(one.locator("#part-records li")).to_have_count(entries + 1)
    expect(two.locator("#part-records li")).to_have_count(entries + 1)
    # Two steps of the setup checklist ticked, one on each phone (the watching phone then goes back to reading).
    for phone, step in ((one, "#tick-general-board"), (two, "#tick-general-calendar")):
        _step(step, one, two)
        phone.locator(step).scroll_into_view_if_needed()
        phone.click(step)
        expect(one.locator(step)).to_have_attribute("aria-pressed", "true")
        expect(two.locator(step)).to_have_attribute("aria-pressed", "true")
    two.locator("#now-title").scroll_into_view_if_needed()
    # Through the month's phases into the next month; where a reveal is due, "Next phase" asks first and the
    # question's Reveal answers it.
    one.evaluate("window.scrollTo(0, 0)")
    for title in ("phase B", "phase C", "Month 2"):
        game.refresh_from_db()
        due = [
            k
            for k in due_reveals(game.month, game.phase_enum, game.options, game.setup)
            if k not in game.revealed
        ]
        _step(f"next to {title}", one, two)
        one.click("#next")
        if due:
            expect(one.locator("#next-ask")).to_be_visible()
            if title == "phase B":
                one.screenshot(path=str(SCREENSHOTS / "layout-shift-ask-screen.png"))
            _step(f"reveal before {title}", one, two)
            one.click("#ask-reveal")
            expect(one.locator("#next-ask")).to_have_count(0)
            _step(f"next again to {title}", one, two)
            one.click("#next")
        expect(one.locator("#month-title")).to_contain_text(title)
        expect(two.locator("#month-title")).to_contain_text(title)
    moved = {"tapping phone": _shifts(one), "watching phone": _shifts(two)}
    screenshot(one, "layout-shift-tapping")
    screenshot(two, "layout-shift-watching")
    total = {who: sum(e["value"] for e in entries) for who, entries in moved.items()}
    assert total == {"tapping phone": 0, "watching phone": 0}, "\n".join(
        f"{who}, {e['step']}: {e['value']:.4f} {e['sources']}"
        for who, entries in moved.items()
        for e in entries
    )
    for page in (one, two):  # the measure sees a shift where there is one
        _start_counting(page)
        page.evaluate(PUSH_DOWN)
        page.wait_for_function("window.__shifts.length > 0")
