"""A scoreboard row never wraps at 390 px (issue 23, "rows never wrap at 390 px with 12-character names and three-
digit scores"): on an Akebono game of four twelve-character names with a hyphen or a space (where a browser may
break a line), every player's name stays on one line, whole, beside IKI, Fire and Trade at their widest (999, 10,
10), every row as tall as the others; and a count gaining a digit moves no button of the row."""

from __future__ import annotations

from typing import Any

import pytest

from companion.models.games import SCORE_MAX, Game
from companion.services.tracker.changes import apply_change
from scoring.calendar import TRACK_MAX
from tests.factories import make_game
from tests.phones import phone_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Twelve characters each, broken by a hyphen or a space, wide letters first.
NAMES = ("Marie-Hélène", "Wim Wouterse", "Jean Baptist", "Mwangi-Wambo")

#: Each row's name: its height against one line of its text, and whether the whole name shows (no ellipsis).
ROWS = """
() => [...document.querySelectorAll('.scoreboard .row-head')].map((head) => {
  const name = head.querySelector('strong');
  const style = getComputedStyle(name);
  return {
    name: name.textContent,
    lines: name.getBoundingClientRect().height / parseFloat(style.lineHeight),
    whole: name.scrollWidth <= name.clientWidth + 0.5,
    row: head.getBoundingClientRect().height,
    right: head.getBoundingClientRect().right,
  };
})
"""


def _game(scores: tuple[int, ...]) -> Game:
    game = make_game(NAMES, akebono=True)
    for seat, score in enumerate(scores, start=1):
        game = apply_change(
            game_id=game.pk, op="score-set", who="t", seat=seat, value=score, seen=game.version
        )
        game = apply_change(
            game_id=game.pk, op="fire-set", who="t", seat=seat, value=TRACK_MAX, seen=game.version
        )
        game = apply_change(
            game_id=game.pk, op="trade-set", who="t", seat=seat, value=TRACK_MAX, seen=game.version
        )
    return game


def _one_line_each(page: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = page.evaluate(ROWS)
    assert [r["name"] for r in rows] == list(NAMES)
    wrapped = [r for r in rows if r["lines"] > 1.5 or not r["whole"] or r["right"] > 390]
    assert not wrapped, wrapped
    assert len({round(r["row"]) for r in rows}) == 1, rows  # every row as tall as the others
    return rows


def test_no_name_wraps_beside_three_digit_counts_and_a_new_digit_moves_nothing(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = _game((SCORE_MAX, 99, 108, 120))
    page = phone_as(new_context, live_server.url + game.edit_url(), "Wim Wouterse")
    screenshot(page, "scoreboard-rows-long-names")
    _one_line_each(page)
    buttons = [page.locator(f"#add-2-{n}").bounding_box() for n in range(1, 6)]
    page.click("#add-2-1")  # Wim Wouterse: 99 -> 100
    page.locator("#answer-row-2", has_text="Saved: +1 IKI for Wim Wouterse (now 100).").wait_for()
    assert [page.locator(f"#add-2-{n}").bounding_box() for n in range(1, 6)] == buttons
    _one_line_each(page)
