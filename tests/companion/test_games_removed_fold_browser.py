"""A player's removals fold instead of piling up (issue 23), at 390x844: removing one entry after another moves
nothing under the thumb (no layout shift; the older struck lines fold only when something is recorded for the
player from the forms above); the fold's summary is one line of a thumb's height whatever the count, and each
folded removal is undone from it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from companion.models.games import Game
from companion.services.tracker.changes import apply_change
from tests.companion.test_games_undo_browser import SHIFTS
from tests.factories import make_game
from tests.phones import phone_as, top_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _change(game: Game, op: str, **kw: Any) -> None:
    apply_change(game_id=game.pk, op=op, who="Ben", seat=2, **kw)


def test_removals_fold_without_moving_what_the_thumb_is_on(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = make_game(("Anaïs", "Ben", "Chie"))
    for key in ("monk", "ox-cart", "dice-maker", "yamabushi", "carpenter"):
        _change(game, "record-add", field="characters", key=key)
    for key in ("monk", "ox-cart"):
        _change(game, "record-remove", field="characters", key=key)
    _change(game, "record-add", field="buildings", key="well")  # Monk folds; Ox Cart's line stays
    url = live_server.url + game.edit_url()
    ben = phone_as(new_context, url, "Ben")
    ben.click("#record-seat-2 > summary")
    fold = ben.locator("#removed-more-2 > summary")
    expect(fold).to_have_text("1 more removed")
    height = fold.bounding_box()["height"]
    assert height >= 44
    ben.evaluate("document.querySelector('#record-seat-2').scrollIntoView({block: 'start'})")
    line = "[aria-label='Remove Yamabushi from Ben']"
    at = top_of(ben, line)
    ben.evaluate(SHIFTS)
    ben.click("[aria-label='Remove Dice Maker from Ben']")
    ben.locator("#remove-yes").wait_for()
    ben.click("#remove-yes")
    ben.locator("#part-record-2 li.removed", has_text="Dice Maker").get_by_text("Removed").wait_for()
    assert abs(top_of(ben, line) - at) <= 1  # Ox Cart's line above it did not fold away
    expect(ben.locator("#part-record-2 li.removed", has_text="Ox Cart")).to_be_visible()
    assert ben.evaluate("window.__shift") == 0
    # Another phone records for Ben (the forms above): the older lines fold, into one line of a thumb's height.
    _change(game, "record-add", field="buildings", key="inn")
    expect(fold).to_have_text("2 more removed")
    assert fold.bounding_box()["height"] == height  # one line, whatever the count
    fold.click()
    from tests.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ben.screenshot(path=str(SCREENSHOTS / "removed-fold-screen.png"))  # the viewport, the fold open
    monk = Game.objects.get(pk=game.pk).changes.get(op="record-remove", undo__at__1="monk").version
    ben.click(f"#undo-record-2-{monk}")
    expect(ben.locator("#answer-record-2")).to_have_text(
        "Saved: Ben undid “Removed from Ben: Monk (characters)”."
    )
    expect(fold).to_have_text("1 more removed")
    screenshot(ben, "removed-fold")
    assert Game.objects.get(pk=game.pk).seats.get(seat=2).record["characters"][0] == "monk"
