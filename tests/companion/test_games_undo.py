"""Undo you can read (issue 23): any line of the history can be undone (another phone's after a confirmation)
without undoing what came after it. Each change carries its own inverse, field by field
(companion.services.tracker.inverse.seat_entry): the score and the trade track are taken back by exactly what the
change moved, the firefighting marker goes back to its place in the stack, record entries are taken out or put back
one by one; what a later change standing depends on is refused with a sentence naming it (undo._undo_seat)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from companion.models.games import Game, Seat
from companion.presenters.tracker.state import LOG_ON_PAGE
from companion.services.tracker.changes import apply_change
from companion.services.tracker.errors import Asked
from scoring.calendar import firefighting_seats
from tests.companion.test_games_record_taps import LIVE, _phone, _post
from tests.factories import db_snapshot, make_game

pytestmark = pytest.mark.django_db


def _do(game: Game, who: str, op: str, **kw: Any) -> int:
    """One change made through the service, as phone ``who`` (a set change made against the current version);
    its version."""
    kw.setdefault("seen", Game.objects.get(pk=game.pk).version)
    return apply_change(game_id=game.pk, op=op, who=who, **kw).version


def _seat(game: Game, n: int) -> Seat:
    return Seat.objects.get(game=game, seat=n)


def _undo(game: Game, who: str, version: int, **form: str) -> Any:
    return _post(_phone(who), game, op="undo-entry", field="history", key=str(version), **form)


def _text(response: Any) -> str:
    return unescape(response.content.decode())


def test_another_phones_change_is_undone_after_a_confirmation_and_the_answer_says_what() -> None:
    game = make_game()
    version = _do(game, "Ben", "score-add", seat=1, value=3)
    before = db_snapshot()
    asked = _undo(game, "Anaïs", version)
    assert asked.status_code == 200
    assert "Undo Ben's change “+3 IKI for Anaïs (now 3)”?" in _text(asked)
    assert f'id="undo-sure-{version}"' in asked.content.decode()
    assert db_snapshot() == before  # asking writes nothing
    done = _undo(game, "Anaïs", version, sure="1")
    assert done.status_code == 200 and "Saved: Anaïs undid “+3 IKI for Anaïs (now 3)”." in _text(done)
    assert _seat(game, 1).score == 0
    assert Game.objects.get(pk=game.pk).changes.get(version=version).undone


def test_the_service_asks_too_without_a_view() -> None:
    """The confirmation is the service's rule, not only the page's: a client posting without it is asked."""
    game = make_game()
    version = _do(game, "Ben", "score-add", seat=2, value=5)
    with pytest.raises(Asked):
        _do(game, "Chie", "undo-entry", key=str(version))
    assert _seat(game, 2).score == 5


def test_ones_own_change_needs_no_confirmation() -> None:
    game = make_game()
    version = _do(game, "Ben", "trade-add", seat=2)
    assert "Saved: Ben undid “Ben +1 trade (now 1)”." in _text(_undo(game, "Ben", version))
    assert _seat(game, 2).trade == 0


@pytest.mark.parametrize(
    ("first", "then", "field", "after"),
    [
        # An undo of +3 is -3 even after a later +2: the +2 stands.
        ({"op": "score-add", "seat": 1, "value": 3}, {"op": "score-add", "seat": 1, "value": 2}, "score", 2),
        # A score set from 0 to 10, then +2: taking the set back takes 10 away, the +2 stands.
        ({"op": "score-set", "seat": 1, "value": 10}, {"op": "score-add", "seat": 1, "value": 2}, "score", 2),
        ({"op": "trade-add", "seat": 1}, {"op": "trade-add", "seat": 1}, "trade", 1),
        # Another field of the same player is no obstacle.
        ({"op": "score-add", "seat": 1, "value": 3}, {"op": "fire-add", "seat": 1}, "score", 0),
        ({"op": "fire-add", "seat": 1}, {"op": "score-add", "seat": 1, "value": 5}, "firefighting", 0),
    ],
)
def test_an_older_change_is_undone_out_of_order_and_what_came_after_stands(
    first: dict[str, Any], then: dict[str, Any], field: str, after: int
) -> None:
    game = make_game()
    version = _do(game, "Anaïs", **first)
    first_line = Game.objects.get(pk=game.pk).changes.get(version=version).summary
    _do(game, "Ben", **then)
    answer = _undo(game, "Anaïs", version)
    assert answer.status_code == 200 and f"Saved: Anaïs undid “{first_line}”." in _text(answer)
    assert getattr(_seat(game, 1), field) == after


def test_undo_mine_blocks_per_field_not_per_player() -> None:
    game = make_game()
    anais = _phone("Anaïs")
    _post(anais, game, op="score-add", seat="1", value="2")
    _do(game, "Ben", "fire-add", seat=1)  # Ben moves Anaïs's firefighting marker afterwards
    answer = _post(anais, game, op="undo-mine")
    assert answer.status_code == 200 and "Saved: Anaïs undid “+2 IKI for Anaïs (now 2)”." in _text(answer)
    assert (_seat(game, 1).score, _seat(game, 1).firefighting) == (0, 1)


def _lost_monk(game: Game) -> int:
    version = _do(game, "Anaïs", "record-add", seat=1, field="characters", key="monk")
    _do(game, "Ben", "lost", seat=1, field="fire", key="monk")
    return version


def _removed_then_taken(game: Game) -> int:
    _do(game, "Anaïs", "record-add", seat=1, field="characters", key="monk")
    version = _do(game, "Anaïs", "record-remove", seat=1, field="characters", key="monk")
    _do(game, "Ben", "record-add", seat=2, field="characters", key="monk")
    return version


def _score_set_later(game: Game) -> int:
    version = _do(game, "Anaïs", "score-add", seat=1, value=3)
    _do(game, "Ben", "score-set", seat=1, value=20)
    return version


def _fire_moved_later(game: Game) -> int:
    version = _do(game, "Anaïs", "fire-add", seat=1)
    _do(game, "Ben", "fire-add", seat=1)
    return version


def _hire_fire_moved_later(game: Game) -> int:
    version = _do(game, "Anaïs", "record-add", seat=1, field="characters", key="firefighter")
    _do(game, "Ben", "fire-add", seat=1)
    return version


def _resources_saved_later(game: Game) -> int:
    numbers = {"mon": 3, "koban": 1, "wood": 0, "rice": 0, "sandals": 0}
    version = _do(game, "Anaïs", "resources", seat=1, numbers=numbers)
    _do(game, "Ben", "resources", seat=1, numbers={**numbers, "mon": 5})
    return version


def _below_zero(game: Game) -> int:
    version = _do(game, "Anaïs", "score-add", seat=1, value=2)
    _do(game, "Ben", "score-add", seat=1, value=-1)
    _do(game, "Ben", "score-add", seat=1, value=-1)
    return version


def _next_twice(game: Game) -> int:
    version = _do(game, "Anaïs", "next")
    _do(game, "Ben", "next")
    return version


REFUSED = [
    (_score_set_later, "Anaïs's score was set later (“Anaïs's score set to 20”): undo that first."),
    (_fire_moved_later, "Anaïs's firefighting marker moved later (“Anaïs +1 firefighting (now 2, on top)”)"),
    (_hire_fire_moved_later, "Anaïs's firefighting marker moved later"),
    (_resources_saved_later, "Anaïs's resources were saved again later"),
    (_lost_monk, "Monk is no longer in Anaïs's characters (“Anaïs lost Monk in a fire”): undo that first."),
    (_removed_then_taken, "Monk is taken (Ben): there is only one to put back."),
    (_below_zero, "Undoing it would put Anaïs's score at -2: undo “-1 IKI for Anaïs (now 0)” first."),
    (_next_twice, "A later change touched the same thing: undo “month 1: Phase C"),
]


@pytest.mark.parametrize(("made", "said"), REFUSED, ids=[f.__name__ for f, _ in REFUSED])
def test_an_undo_a_later_change_depends_on_is_refused_naming_it(made: Any, said: str) -> None:
    game = make_game()
    version = made(game)
    before = db_snapshot()
    answer = _undo(game, "Anaïs", version, sure="1")
    assert answer.status_code == 400
    assert said in _text(answer)
    assert db_snapshot() == before


def test_undoing_a_move_puts_the_marker_back_in_its_place_in_the_stack() -> None:
    """RULINGS R11/R12: the firefighting order is by space, then the marker higher in the stack. Anaïs's marker
    goes back under Chie's, which reached that space after Anaïs had left it, as if she had never moved."""
    game = make_game()
    seats = {s.seat: s for s in Seat.objects.filter(game=game)}
    assert {s.firefighting for s in seats.values()} == {0}
    version = _do(game, "Anaïs", "fire-set", seat=1, value=3)
    _do(game, "Ben", "fire-set", seat=2, value=3)  # on top of Anaïs on 3
    _do(game, "Chie", "fire-top", seat=3, was="0." + str(seats[3].stack))
    answer = _undo(game, "Anaïs", version, sure="1")
    assert answer.status_code == 200
    markers = [s.marker for s in Seat.objects.filter(game=game)]
    assert _seat(game, 1).firefighting == 0 and _seat(game, 2).firefighting == 3
    assert firefighting_seats(markers) == (2, 3, 1)  # Chie put on top of space 0 after Anaïs left it


def test_a_change_logged_before_changes_carried_their_inverse_is_undone_per_player() -> None:
    """A change stored as its seat before it (the older format) still undoes: whole, when nothing later touched
    that player, else refused."""
    game = make_game()
    version = _do(game, "Anaïs", "score-add", seat=1, value=3)
    Game.objects.get(pk=game.pk).changes.filter(version=version).update(
        undo={"seat": 1, "before": {"score": 0, "firefighting": 0, "stack": _seat(game, 1).stack, "trade": 0}}
    )
    later = _do(game, "Ben", "trade-add", seat=1)
    refused = _undo(game, "Anaïs", version)
    assert refused.status_code == 400 and "undo “Anaïs +1 trade (now 1)” first" in _text(refused)
    assert _undo(game, "Ben", later).status_code == 200
    assert _undo(game, "Anaïs", version).status_code == 200
    assert (_seat(game, 1).score, _seat(game, 1).trade) == (0, 0)


def test_a_removed_entry_keeps_its_place_with_its_undo_and_comes_back_there() -> None:
    game = make_game()
    ben = _phone("Ben")
    for key in ("monk", "ox-cart", "fisherman"):
        _do(game, "Ben", "record-add", seat=2, field="characters", key=key)
    answer = _post(ben, game, op="record-remove", seat="2", field="characters", key="ox-cart")
    body = answer.content.decode()
    version = Game.objects.get(pk=game.pk).version
    listed = re.search(r'id="part-record-2".*?<ul class="entries">(.*?)</ul>', body, re.S)
    assert listed is not None
    lines = re.findall(r"<li[^>]*>\s*<span[^>]*>([^<]*)</span>", listed.group(1))
    assert lines == ["Monk", "Ox Cart", "Fisherman"]  # in its place: nothing below moves
    assert re.search(
        rf'<li class="removed" id="removed-{version}"><span class="gone">Ox Cart</span>', listed.group(1)
    )
    assert f'id="undo-record-2-{version}"' in body
    back = _post(ben, game, op="undo-entry", field="record-2", key=str(version))
    assert back.status_code == 200 and "Saved: Ben undid “Removed from Ben: Ox Cart (characters)”." in _text(
        back
    )
    assert _seat(game, 2).record["characters"] == ["monk", "ox-cart", "fisherman"]
    assert 'id="answer-record-2"' in back.content.decode()


def test_a_removed_entrys_line_stays_while_its_removal_can_be_undone() -> None:
    """Its removal can be undone however many changes came after it (each change carries its own inverse), so
    its "Removed" line with its Undo stays past the page's last changes; once undone, the entry is back instead.
    A pull without the record section reads nothing more."""
    game = make_game()
    ben = _phone("Ben")
    for key in ("monk", "ox-cart", "fisherman"):
        _do(game, "Ben", "record-add", seat=2, field="characters", key=key)
    _post(ben, game, op="record-remove", seat="2", field="characters", key="ox-cart")
    version = Game.objects.get(pk=game.pk).version
    for _ in range(LOG_ON_PAGE + 2):  # the removal leaves the page's last changes
        _do(game, "Anaïs", "score-add", seat=1, value=1)
    page = ben.get(game.edit_url()).content.decode()
    assert f'id="change-{version}"' not in page  # no longer in the history
    listed = re.search(r'id="part-record-2".*?<ul class="entries">(.*?)</ul>', page, re.S)
    assert listed is not None
    assert re.findall(r"<li[^>]*>\s*<span[^>]*>([^<]*)</span>", listed.group(1)) == [
        "Monk",
        "Ox Cart",
        "Fisherman",
    ]
    assert f'id="removed-{version}"' in listed.group(1) and f'id="undo-record-2-{version}"' in page
    back = _post(ben, game, op="undo-entry", field="record-2", key=str(version))
    assert back.status_code == 200 and "Saved: Ben undid “Removed from Ben: Ox Cart (characters)”." in _text(
        back
    )
    assert _seat(game, 2).record["characters"] == ["monk", "ox-cart", "fisherman"]
    page = ben.get(game.edit_url()).content.decode()
    assert f'id="removed-{version}"' not in page and "Ox Cart" in page


def test_the_history_names_who_did_what_with_an_undo_per_line_and_none_on_the_view_link() -> None:
    game = make_game()
    version = _do(game, "Ben", "score-add", seat=3, value=5)
    page = _text(_phone("Anaïs").get(game.edit_url()))
    line = re.search(rf'<li[^>]* id="change-{version}"[^>]*>(.*?)</li>', page, re.S)
    assert line is not None
    assert "<strong>Ben</strong>: +5 IKI for Chie (now 5)" in line.group(1)
    assert f'id="undo-history-{version}"' in line.group(1)
    view = Client().get(game.view_url()).content.decode()
    assert f'id="change-{version}"' in view and 'value="undo-entry"' not in view


def test_the_view_link_never_undoes() -> None:
    game = make_game()
    version = _do(game, "Ben", "score-add", seat=3, value=5)
    answer = Client().post(
        f"/games/{game.view_token}/change", {"op": "undo-entry", "key": str(version), "sure": "1"}, **LIVE
    )
    assert answer.status_code == 403
    assert _seat(game, 3).score == 5


def test_the_htmx_answer_names_what_was_done_with_its_undo() -> None:
    game = make_game()
    answer = _phone("Ben").post(
        f"/games/{game.edit_token}/change",
        {"op": "score-add", "seat": "3", "value": "2"},
        HTTP_HX_REQUEST="true",
    )
    body = _text(answer)
    version = Game.objects.get(pk=game.pk).version
    said = re.search(r'id="state-msg">(.*?)</div>', body, re.S)
    assert said is not None
    assert "Saved: +2 IKI for Chie (now 2)." in said.group(1)
    assert f'id="undo-history-{version}"' in said.group(1)


def test_a_plain_form_comes_back_to_the_page_saying_what_it_did_with_its_undo() -> None:
    game = make_game()
    ben = _phone("Ben")
    answer = ben.post(f"/games/{game.edit_token}/change", {"op": "trade-add", "seat": "1"})
    version = Game.objects.get(pk=game.pk).version
    assert answer.status_code == 302
    assert answer["Location"] == f"{game.edit_url()}?did={version}&at=row-1#answer-row-1"  # beside the row
    page = _text(ben.get(answer["Location"].split("#")[0]))
    beside = re.search(r'id="answer-row-1">(.*?)</p>', page, re.S)
    assert beside is not None and beside.group(1) == "Saved: Anaïs +1 trade (now 1)."
    said = re.search(r'id="state-msg">(.*?)</div>', page, re.S)  # its Undo stays at the top of the state
    assert said is not None and "Saved: Anaïs +1 trade (now 1)." in said.group(1)
    assert f'id="undo-history-{version}"' in said.group(1)
    undone = ben.post(
        f"/games/{game.edit_token}/change", {"op": "undo-entry", "field": "history", "key": version}
    )
    page = _text(ben.get(undone["Location"].split("#")[0]))
    assert "Saved: Ben undid “Anaïs +1 trade (now 1)”." in page
    assert _seat(game, 1).trade == 0


@pytest.mark.parametrize("did", ["x", "0", "-3", "1.5"])
def test_a_page_naming_no_change_is_a_400(did: str) -> None:
    game = make_game()
    answer = Client().get(game.edit_url(), {"did": did})
    assert answer.status_code == 400 and "names no change" in answer.content.decode()


def test_the_table_undo_says_what_it_undid() -> None:
    game = make_game()
    _do(game, "Ben", "score-add", seat=2, value=3)
    current = Game.objects.get(pk=game.pk).version
    answer = _post(_phone("Chie"), game, op="undo", v=str(current))
    assert answer.status_code == 200 and "Saved: Chie undid “+3 IKI for Ben (now 3)”." in _text(answer)
