"""Undo you can read, on two 390x844 phones (issue 23): one phone undoes the other's change from the history after
confirming, and both see it; removing a record entry leaves a "Removed" line in its place with its Undo, so
nothing below it moves (no layout shift)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.models.games import Game
from companion.services.tracker.changes import apply_change
from tests.factories import make_game
from tests.phones import phone_as, top_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Layout shifts seen by the page (the browser's layout-shift entries), those right after a tap included.
SHIFTS = """() => { window.__shift = 0; new PerformanceObserver((list) => { for (const e of list.getEntries())
  window.__shift += e.value; }).observe({type: "layout-shift", buffered: false}); }"""


def test_one_phone_undoes_the_others_change_from_the_history_after_confirming(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = make_game(("Anaïs", "Ben", "Chie"))
    url = live_server.url + game.edit_url()
    ben, anais = phone_as(new_context, url, "Ben"), phone_as(new_context, url, "Anaïs")
    ben.click("#add-2-3")  # Ben: +3 for himself
    ben.locator("#answer-row-2", has_text="Saved: +3 IKI for Ben (now 3).").wait_for()
    version = Game.objects.get(pk=game.pk).version
    line = anais.locator(f"#change-{version}")
    line.get_by_text("+3 IKI for Ben").wait_for()  # Anaïs's phone follows the table
    anais.locator(f"#undo-history-{version}").scroll_into_view_if_needed()
    anais.click(f"#undo-history-{version}")
    ask = anais.locator(f"#undo-ask-{version}")
    ask.get_by_text("Undo Ben's change “+3 IKI for Ben (now 3)”?").wait_for()
    box = anais.locator(f"#undo-sure-{version}").bounding_box()
    assert box is not None and box["height"] >= 44
    from tests.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    anais.screenshot(path=str(SCREENSHOTS / "undo-history-confirm.png"))
    anais.click(f"#undo-sure-{version}")
    anais.locator("#answer-history", has_text="Saved: Anaïs undid “+3 IKI for Ben (now 3)”.").wait_for()
    anais.locator(f"#change-{version}.undone").wait_for()
    anais.locator("#score-2", has_text="0").wait_for()
    ben.locator("#score-2", has_text="0").wait_for()  # and Ben's phone sees it undone
    ben.locator(f"#change-{version}.undone").wait_for()
    assert Game.objects.get(pk=game.pk).seats.get(seat=2).score == 0
    anais.screenshot(path=str(SCREENSHOTS / "undo-history-done.png"))
    screenshot(ben, "undo-history-other-phone")


def test_removing_an_entry_moves_nothing_below_it(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = make_game(("Anaïs", "Ben", "Chie"))
    for key in ("monk", "ox-cart", "seamstress"):
        apply_change(game_id=game.pk, op="record-add", who="Anaïs", seat=1, field="characters", key=key)
    url = live_server.url + game.edit_url()
    anais = phone_as(new_context, url, "Anaïs")
    anais.click("#record-seat-1 > summary")
    anais.evaluate("document.querySelector('#record-seat-1').scrollIntoView({block: 'start'})")
    below = top_of(anais, "#record-seat-2 > summary")
    anais.evaluate(SHIFTS)
    anais.click("[aria-label='Remove Ox Cart from Anaïs']")
    anais.locator("#remove-yes").wait_for()
    assert abs(top_of(anais, "#record-seat-2 > summary") - below) <= 1  # the question opens over the line
    anais.click("#remove-yes")
    removed = anais.locator("#part-record-1 li.removed", has_text="Ox Cart").get_by_text("Removed")
    removed.wait_for()
    assert abs(top_of(anais, "#record-seat-2 > summary") - below) <= 1
    version = Game.objects.get(pk=game.pk).version
    undo = anais.locator(f"#undo-record-1-{version}")
    box = undo.bounding_box()
    assert box is not None and box["height"] >= 44
    from tests.conftest import SCREENSHOTS

    anais.screenshot(path=str(SCREENSHOTS / "undo-removed-line.png"))
    undo.click()
    anais.get_by_label("Remove Ox Cart from Anaïs").wait_for()
    assert abs(top_of(anais, "#record-seat-2 > summary") - below) <= 1
    assert anais.evaluate("window.__shift") == 0
    assert Game.objects.get(pk=game.pk).seats.get(seat=1).record["characters"] == [
        "monk",
        "ox-cart",
        "seamstress",
    ]


def test_an_undo_question_stays_while_its_line_can_be_undone(live_server: Any, new_context: Any) -> None:
    """Anaïs is asked "Undo Ben's change …?" over its line. Another change at the table took the question away
    without a word; it now stays while the line can still be undone, and once Ben has undone it himself, the bar
    says so."""
    game = make_game(("Anaïs", "Ben", "Chie"))
    url = live_server.url + game.edit_url()
    ben, anais = phone_as(new_context, url, "Ben"), phone_as(new_context, url, "Anaïs")
    ben.click("#add-2-3")
    ben.locator("#answer-row-2", has_text="Saved: +3 IKI for Ben (now 3).").wait_for()
    version = Game.objects.get(pk=game.pk).version
    anais.locator(f"#change-{version}").get_by_text("+3 IKI for Ben").wait_for()
    anais.locator(f"#undo-history-{version}").scroll_into_view_if_needed()
    anais.click(f"#undo-history-{version}")
    ask = anais.locator(f"#undo-ask-{version}")
    ask.get_by_text("Undo Ben's change “+3 IKI for Ben (now 3)”?").wait_for()
    ben.click("#add-3-1")  # Ben: +1 for Chie
    anais.locator("#score-3", has_text="1").wait_for()  # the pull has come
    assert ask.count() == 1  # still asked: the line can still be undone
    ben.click(f"#undo-history-{version}")  # Ben undoes his own change: no question
    ben.locator(f"#change-{version}.undone").wait_for()
    note = anais.locator(".live-note")
    note.get_by_text("Another phone already undid “+3 IKI for Ben (now 3)”.").wait_for()
    assert ask.count() == 0
