"""The answer floating under a tapped control never stands in the way of the next tap (issue 23: "A floating error
may cover the next row for up to 9 s; taps pass through it"), on a phone-sized touch screen against the ASGI server.

The answer floats over the next row without moving it (tests/companion/test_layout_shift_browser.py measures the
shift); live.js puts it away at the next touch anywhere, and a touch on the answer itself only puts it away: that
touch's click lands on the answer, never on a control the answer hid (the "ghost click" a touch screen makes when an
overlay vanishes at touchstart)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.companion.live.conftest import Table
from tests.companion.live.test_tracker_browser import _add, _open, _score, new_game
from tests.conftest import SCREENSHOTS

pytestmark = [pytest.mark.browser]

#: The element each click lands on, in order (id, or tag when it has none).
CLICKS = """
window.__clicks = [];
document.addEventListener('click', (e) => window.__clicks.push(e.target.id || e.target.tagName), true);
"""


class Held:
    """Requests held until released (the answers a tap waits for), then let through."""

    def __init__(self) -> None:
        self.waiting: list[Any] = []
        self.released = False

    def route(self, route: Any) -> None:
        if self.released:
            route.continue_()
        else:
            self.waiting.append(route)

    def release(self) -> None:
        self.released = True
        for route in self.waiting:
            route.continue_()


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return dict(box)


def test_the_next_rows_button_takes_a_tap_right_after_an_error(table: Table, page: Any) -> None:
    edit, _ = new_game(table)
    _open(page, table, edit)
    _add(page, 1, -1)  # refused: the score track does not go below 0
    error = page.locator("#answer-row-1")
    expect(error).to_contain_text("cannot go below 0")
    expect(error).to_be_visible()
    said, ben = _box(page, "#answer-row-1"), _box(page, "#part-row-2")
    assert said["y"] + said["height"] > ben["y"]  # it floats over Ben's row...
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "live-answer-error-screen.png"))  # the viewport, 390x844
    held = Held()
    page.route("**/change", held.route)  # the next answers wait: what the touch itself does shows alone
    page.tap("#add-2-1")  # ...and Ben's +1 takes the very next tap
    expect(page.locator("#score-2")).to_have_text("1")  # at once, waiting for the server
    expect(error).to_be_hidden()  # put away by the touch, before any answer
    held.release()
    expect(page.locator("#answer-row-2")).to_have_text("Saved: +1 IKI for Ben (now 1).")
    assert _score(table, edit, 2) == 1


def test_the_same_answer_comes_again_after_it_was_put_away(table: Table, page: Any) -> None:
    edit, _ = new_game(table)
    _open(page, table, edit)
    error = page.locator("#answer-row-1")
    _add(page, 1, -1)
    expect(error).to_be_visible()
    page.tap("#month-title")  # a touch anywhere puts it away
    expect(error).to_be_hidden()
    _add(page, 1, -1)  # the same refusal again says so again
    expect(error).to_be_visible()
    expect(error).to_contain_text("cannot go below 0")


def test_a_touch_on_the_answer_only_puts_it_away(table: Table, page: Any) -> None:
    edit, _ = new_game(table)
    _open(page, table, edit)
    page.evaluate(CLICKS)
    _add(page, 1, -1)
    error = page.locator("#answer-row-1")
    expect(error).to_be_visible()
    said = _box(page, "#answer-row-1")
    page.evaluate("window.__clicks = []")
    page.touchscreen.tap(said["x"] + said["width"] / 2, said["y"] + said["height"] / 2)
    expect(error).to_be_hidden()
    assert page.evaluate("window.__clicks") == [
        "answer-row-1"
    ]  # the touch reached nothing the answer covered
    page.tap("#add-2-3")
    expect(page.locator("#score-2")).to_have_text("3")
    expect(page.locator("#answer-row-2")).to_have_text("Saved: +3 IKI for Ben (now 3).")
    assert (_score(table, edit, 1), _score(table, edit, 2)) == (0, 3)
