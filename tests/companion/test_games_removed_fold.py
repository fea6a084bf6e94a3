"""A player's removals no longer pile up as struck lines (issue 23): the latest removal standing keeps its
"Removed · Undo" line where the entry stood; the older ones are folded under the player's record ("2 more
removed", a ``<details>`` whose summary is one line), each still undoable there, by the live script, htmx and
a plain form, once something was recorded for that player since (a burst of removals keeps its lines, so nothing
moves under the thumb removing one after another); undoing the latest brings the entry back in its place."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from companion.models.games import Game
from companion.presenters.tracker.state import LOG_ON_PAGE
from tests.companion.test_games_answers import page_after
from tests.companion.test_games_record_taps import _phone, _post
from tests.companion.test_games_undo import _do, _seat
from tests.factories import make_game

pytestmark = pytest.mark.django_db
KEYS = ("monk", "ox-cart", "fisherman", "yamabushi", "carpenter")


def _removed(game: Game, *keys: str, then: bool = True) -> list[int]:
    """Ben holds the five characters; his phone removes ``keys`` one by one, ``then`` builds the Well (a record
    saved for him since): their removals' versions."""
    for key in KEYS:
        _do(game, "Ben", "record-add", seat=2, field="characters", key=key)
    removed = [_do(game, "Ben", "record-remove", seat=2, field="characters", key=k) for k in keys]
    if then:
        _do(game, "Ben", "record-add", seat=2, field="buildings", key="well")
    return removed


def _record(body: str) -> tuple[list[str], list[str], str]:
    """Ben's record as shown: the lines of his characters (struck ones marked "-"), the folded lines, and the
    fold's summary ("" when there is none)."""
    part = re.search(r'id="part-record-2".*?id="answer-record-2"', body, re.S)  # his record, then its answer
    assert part is not None
    html = part.group(0)
    folded = re.search(
        r'<details class="removed-more"[^>]*><summary>(.*?)</summary>(.*?)</details>', html, re.S
    )
    listed = re.search(r'<ul class="entries">(.*?)</ul>', html, re.S)
    assert listed is not None

    def lines(markup: str) -> list[str]:
        found = re.findall(r'<li( class="removed")?[^>]*>\s*<span[^>]*>([^<]*)</span>', markup)
        return [("-" if struck else "") + unescape(name) for struck, name in found]

    return lines(listed.group(1)), lines(folded.group(2)) if folded else [], folded.group(1) if folded else ""


def test_only_the_latest_removal_keeps_its_line_the_others_are_folded() -> None:
    game = make_game()
    monk, ox, fisher = _removed(game, "monk", "ox-cart", "fisherman")
    body = Client().get(game.edit_url()).content.decode()
    assert _record(body) == (
        ["-Fisherman", "Yamabushi", "Carpenter"],  # the latest, in its place
        ["-Ox Cart", "-Monk"],  # newest first
        "2 more removed",
    )
    for version in (monk, ox, fisher):
        assert f'id="undo-record-2-{version}"' in body  # each still undoable


@pytest.mark.parametrize("transport", ["live", "htmx", "plain"])
def test_a_folded_removal_is_undone_from_the_fold(transport: str) -> None:
    game = make_game()
    monk, _, _ = _removed(game, "monk", "ox-cart", "fisherman")
    ben = _phone("Ben")
    body = page_after(ben, game, transport, "record-2", op="undo-entry", field="record-2", key=str(monk))
    assert "Saved: Ben undid “Removed from Ben: Monk (characters)”." in unescape(body)
    assert _seat(game, 2).record["characters"] == ["monk", "yamabushi", "carpenter"]  # back where it stood
    if transport != "live":  # the live answer sends only the pieces that changed: the record is one
        # Monk back where it stood; Fisherman's line where its removal would put it back (the list's first place
        # when it was removed).
        assert _record(body) == (
            ["-Fisherman", "Monk", "Yamabushi", "Carpenter"],
            ["-Ox Cart"],
            "1 more removed",
        )


def test_undoing_the_latest_brings_its_entry_back_in_its_place() -> None:
    game = make_game()
    _, _, fisher = _removed(game, "monk", "ox-cart", "fisherman")
    body = _post(_phone("Ben"), game, op="undo-entry", field="record-2", key=str(fisher)).content.decode()
    assert "Saved: Ben undid" in unescape(body)
    page = Client().get(game.edit_url()).content.decode()
    # The next older removal (Ox Cart) now is the latest: its line where Ox Cart stood.
    assert _record(page) == (["-Ox Cart", "Fisherman", "Yamabushi", "Carpenter"], ["-Monk"], "1 more removed")


def test_a_burst_of_removals_keeps_its_lines_until_something_is_recorded_for_the_player() -> None:
    """Removing one entry after another, each line stays where it stood (nothing moves under the thumb); the next
    record saved for that player (made from the forms above the records) folds the older ones; a change of
    another player's record, a track tap or a loss folds nothing."""
    game = make_game()
    _removed(game, "monk", "ox-cart", "fisherman", then=False)
    _do(game, "Chie", "record-add", seat=3, field="characters", key="book-lender")
    _do(game, "Chie", "score-add", seat=2, value=3)
    _do(game, "Chie", "lost", seat=2, field="fire", key="carpenter")
    lines = ["-Monk", "-Ox Cart", "-Fisherman", "Yamabushi"]
    assert _record(Client().get(game.edit_url()).content.decode()) == (lines, [], "")
    _do(game, "Chie", "record-add", seat=2, field="buildings", key="well")
    page = Client().get(game.edit_url()).content.decode()
    assert _record(page) == (["-Fisherman", "Yamabushi"], ["-Ox Cart", "-Monk"], "2 more removed")
    # The next removal folds nothing: the line that was on screen stays until the next record saved for Ben.
    _do(game, "Ben", "record-remove", seat=2, field="characters", key="yamabushi")
    page = Client().get(game.edit_url()).content.decode()
    assert _record(page) == (["-Fisherman", "-Yamabushi"], ["-Ox Cart", "-Monk"], "2 more removed")
    _do(game, "Ben", "record-add", seat=2, field="characters", key="monk")
    page = Client().get(game.edit_url()).content.decode()
    assert _record(page) == (["-Yamabushi", "Monk"], ["-Fisherman", "-Ox Cart", "-Monk"], "3 more removed")


def test_removals_older_than_the_pages_last_changes_are_folded_but_the_latest() -> None:
    game = make_game()
    _removed(game, "monk", "ox-cart", then=False)
    for _ in range(LOG_ON_PAGE):
        _do(game, "Anaïs", "score-add", seat=1, value=1)
    page = Client().get(game.edit_url()).content.decode()
    assert _record(page) == (["-Ox Cart", "Fisherman", "Yamabushi", "Carpenter"], ["-Monk"], "1 more removed")


def test_another_phones_folded_removal_asks_first_with_the_fold_open() -> None:
    """Another phone's removal is undone after a confirmation (issue 23): its question opens over its line, so
    the fold that holds it is open (htmx and plain form: the live script keeps an open fold open itself)."""
    game = make_game()
    monk, _ = _removed(game, "monk", "ox-cart")
    asked = _phone("Anaïs").post(
        f"/games/{game.edit_token}/change",
        {"op": "undo-entry", "field": "record-2", "key": str(monk)},
        HTTP_HX_REQUEST="true",
    )
    body = unescape(asked.content.decode())
    assert asked.status_code == 200 and f'id="undo-ask-{monk}"' in body
    assert re.search(r'<details class="removed-more" id="removed-more-2" open>', body)
    assert "Undo Ben's change “Removed from Ben: Monk (characters)”?" in body
    assert _seat(game, 2).record["characters"] == ["fisherman", "yamabushi", "carpenter"]  # nothing yet
