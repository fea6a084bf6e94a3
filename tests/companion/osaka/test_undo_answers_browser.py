"""A Traders of Osaka undo says who undid what, beside the line tapped (issue 23), at 390x844: on a player's own
phone with the live script (the answer floats under the line: neither the Undo tapped nor the line under it moves)
and without JavaScript (the page comes back at that line saying so); the table's phone keeps the log's words.

What is above the line does change: the undone payday's tokens leave the page and the log gains its "Undid" line,
the page scrolling so that the line tapped stays where the thumb is. The browser's layout-shift measure counts that
change when the answer takes over 500 ms (a loaded machine), so the test measures the two lines themselves."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from companion.models.osaka import OsakaEvent, OsakaGame
from companion.services.osaka import record
from tests.companion.osaka.test_games import _begin, _game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LINE = "Payday: red. Tokens: Anaïs +1 red."


def _paid() -> tuple[OsakaGame, int]:
    """A game after one payday (Anaïs: 5 -> 1 VP, +1 red token), and that payday's version."""
    game = _begin(_game())
    record(game.pk, kind="payday", who="test", seen=OsakaGame.objects.get(pk=game.pk).version,
           data={"arrived": ["red"], "sunk": [], "players": [{"goods": {"red": [5]}}, {}, {}]})  # fmt: skip
    payday = OsakaEvent.objects.get(game=game, kind="payday")
    assert payday.summary == LINE
    return game, payday.version


def test_an_undo_on_a_players_phone_names_them_beside_the_line(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game, version = _paid()
    david = new_context().new_page()
    david.goto(live_server.url + game.seats.get(seat=2).private_url())
    david.wait_for_load_state()  # live.js binds the forms on load
    undo = david.locator(f"#undo-{version}-go")
    below = david.locator(f"#undo-{version - 1}-go")  # the line under it: Dominique's green token
    undo.evaluate("b => b.scrollIntoView({block: 'center'})")
    before = (undo.bounding_box()["y"], below.bounding_box()["y"])
    undo.click()
    said = david.locator(f"#event-{version} #answer-event")
    expect(said).to_have_text(f"Saved: David undid “{LINE}”")
    expect(david.locator(f"#undo-{version}-go")).to_contain_text("Restore")
    after = (undo.bounding_box()["y"], below.bounding_box()["y"])
    assert all(abs(a - b) <= 2 for a, b in zip(after, before, strict=True)), (before, after)
    screenshot(david, "osaka-undo-answer")
    david.click(f"#undo-{version}-go")  # Restore
    expect(said).to_have_text("Saved: David restored “Payday: red”.")
    assert game.seats.get(seat=1).red == 1


def test_an_undo_without_javascript_comes_back_at_its_line(live_server: Any, new_context: Any) -> None:
    game, version = _paid()
    table = new_context(java_script_enabled=False).new_page()
    table.goto(live_server.url + game.edit_url())
    table.click(f"#undo-{version}-go")
    table.wait_for_url(lambda u: "?did=" in u)
    said = table.locator(f"#event-{version} #answer-event")
    expect(said).to_have_text(f"Undid: {LINE}")  # the table's phone signs as nobody: the log's words
    box = said.bounding_box()
    assert box is not None and 0 <= box["y"] <= 844  # opened at the line
    assert game.seats.get(seat=1).red == 0
