"""Recording what happened in a tracked game (issue 13, item 5): each entry checked as it is made, kept and
flagged by the rules validator (RULINGS R13/R14), hires moving the markers by their printed gains, any entry
removable, and "Score the game" handing all of it to the walk-through."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from companion.models.games import Game
from companion.models.scoresheets import ScoreSheet
from tests.factories import make_game, play_to

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _post(client: Client, game: Game, **form: Any) -> Any:
    return client.post(f"/games/{game.edit_token}/change", form, **HX)


def _add(client: Client, game: Game, seat: int, field: str, key: str, **extra: Any) -> Any:
    return _post(client, game, op="record-add", seat=seat, field=field, key=key, **extra)


def _flags(client: Client, game: Game) -> set[str]:
    return set(
        re.findall(r'data-code="([a-z-]+)"', client.get(f"/games/{game.edit_token}/").content.decode())
    )


#: One row per rule an entry can break (RULINGS R13/R14): the entries (seat, field, id), the code flagged. A
#: component beyond its supply is not kept: it is refused or asked about (test_games_record_rules.py).
#: Base game, seed K7MX2QPA: buildings Merchant House, Restaurant, Kabuki Theater, Inn, Well, Imperial Villa.
FLAGGED = [
    ([(1, "buildings", "shrine")], "not-in-setup"),
    ([(1, "tokens", "fish-spring"), (1, "tokens", "fish-spring-bonus")], "fish-same-season"),
    ([(1, "retirement_tokens", "hire-discount")], "token-without-source"),
    ([(1, "characters", "boiled-egg-peddler"), (1, "characters", "cotton-peddler")], "starting-characters"),
    ([(1, "tokens", "fish-winter-akebono")], "not-in-game"),
]


@pytest.mark.parametrize(("entries", "code"), FLAGGED)
def test_an_entry_the_rules_refuse_is_kept_and_flagged(
    client: Client, entries: list[tuple[int, str, str]], code: str
) -> None:
    game = make_game()
    for seat, field, key in entries:
        assert _add(client, game, seat, field, key).status_code == 200
    assert code in _flags(client, game)
    kept = [i for s in game.seats.all() for items in s.record.values() for i in items]
    assert len(kept) == len(entries)  # kept, so the order of entries never deadlocks


def test_the_players_with_flagged_records_are_named_above_the_records(client: Client) -> None:
    """The line said "Ben has a rules question to answer" for what is a flag, not a question."""
    game = make_game()
    _add(client, game, 1, "buildings", "shrine")
    page = unescape(client.get(f"/games/{game.edit_token}/").content.decode())
    (line,) = re.findall(r'id="record-flagged">([^<]*)<', page)
    name = game.seats.get(seat=1).name
    assert line == f"Records to look at: {name}. The rules flag something in them: open the records below."


def test_the_firefighting_marker_below_the_hires_gains_is_flagged(client: Client) -> None:
    """RULINGS R13 (2026-11-23): the marker never moves down, so it stands at least at the hires' gains."""
    game = make_game()
    assert _add(client, game, 1, "characters", "firefighter").status_code == 200
    assert "firefighting-below-gains" not in _flags(client, game)
    game.refresh_from_db()
    assert _post(client, game, op="fire-set", seat=1, value=1, v=game.version).status_code == 200
    assert "firefighting-below-gains" in _flags(client, game)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"field": "buildings", "key": "monk"}, "Choose one of the buildings"),
        ({"field": "characters", "key": "shrine"}, "Choose one of the characters"),
        ({"field": "pipes", "key": "fish-spring"}, "Choose one of the pipes"),
        ({"field": "tokens", "key": "inn"}, "fish, pipe or tobacco"),
        ({"field": "score_track", "key": "monk"}, "Choose what to record"),
        ({"field": "", "key": ""}, "Choose what to record"),
        ({"field": "characters", "key": "monk", "seat": "9"}, "Choose one of the game"),
    ],
)
def test_an_entry_of_the_wrong_kind_is_refused_and_nothing_changes(
    client: Client, form: dict[str, str], message: str
) -> None:
    game = make_game()
    response = _post(client, game, **{"op": "record-add", "seat": "1", **form})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert all(not s.record for s in game.seats.all())


def test_a_hire_moves_the_markers_by_its_printed_gains_and_undo_restores_them(client: Client) -> None:
    game = make_game(akebono=True)
    Game.objects.filter(pk=game.pk).update(month=3, revealed=["new-character-3"])  # the Ship Carpenter is out
    assert _add(client, game, 2, "characters", "firefighter").status_code == 200  # firefighting +2
    assert _add(client, game, 2, "characters", "ship-carpenter").status_code == 200  # trade +1
    assert _add(client, game, 2, "tokens", "pipe-autumn-2").status_code == 200  # a pipe: firefighting +2
    assert _add(client, game, 3, "characters", "salt-peddler").status_code == 200  # drafted: no gain
    seats = {s.seat: s for s in game.seats.all()}
    assert (seats[2].firefighting, seats[2].trade) == (4, 1)
    assert seats[2].record == {"characters": ["firefighter", "ship-carpenter"], "pipes": ["pipe-autumn-2"]}
    assert seats[3].firefighting == 0
    log = client.get(f"/games/{game.view_token}/log").content.decode()
    assert "Ben hired Firefighter (now firefighting 2)" in log
    assert "Chie drafted Salt Peddler" in log
    game.refresh_from_db()
    assert _post(client, game, op="undo", v=game.version).status_code == 200
    game.refresh_from_db()
    assert _post(client, game, op="undo", v=game.version).status_code == 200
    seat = game.seats.get(seat=2)
    assert (seat.firefighting, seat.trade, seat.record) == (
        2,
        1,
        {"characters": ["firefighter", "ship-carpenter"]},
    )


def test_any_entry_can_be_removed_or_lost_in_a_fire(client: Client) -> None:
    game = make_game()
    for key in ("monk", "dice-maker", "ox-cart"):
        _add(client, game, 1, "characters", key)
    assert _post(client, game, op="record-remove", seat=1, field="characters", key="monk").status_code == 200
    assert _post(client, game, op="lost", seat=1, key="dice-maker").status_code == 200
    assert game.seats.get(seat=1).record == {"characters": ["ox-cart"], "lost": ["dice-maker"]}
    again = _post(client, game, op="record-remove", seat=1, field="characters", key="monk")
    assert again.status_code == 400
    assert "another phone removed it" in again.content.decode()
    assert _post(client, game, op="lost", seat=2, key="ox-cart").status_code == 400


def test_a_recorded_hire_replayed_with_its_id_lands_once(client: Client) -> None:
    game = make_game()
    for _ in range(2):
        assert _add(client, game, 1, "characters", "monk", cid="hire1").status_code == 200
    assert game.seats.get(seat=1).record == {"characters": ["monk"]}


def test_resources_are_a_set_made_against_what_the_phone_saw(client: Client) -> None:
    game = make_game()
    form = {"op": "resources", "seat": 1, "mon": 7, "koban": 2, "wood": 1, "rice": 0, "sandals": 3}
    assert _post(client, game, **form, v=0, was="0,0,0,0,0").status_code == 200
    assert _post(client, game, **form | {"mon": 9}, v=0, was="0,0,0,0,0").status_code == 409
    assert _post(client, game, **form | {"mon": -1}, v=0, was="7,2,1,0,3").status_code == 400
    assert game.seats.get(seat=1).record == {"mon": 7, "koban": 2, "wood": 1, "rice": 0, "sandals": 3}


def test_score_the_game_fills_the_walk_through_with_the_record(client: Client) -> None:
    game = make_game(akebono=True)
    _add(client, game, 1, "characters", "eyeglass-peddler")
    _add(client, game, 1, "characters", "firefighter")
    _add(client, game, 1, "tokens", "fish-summer-bonus")
    _add(client, game, 1, "tokens", "tobacco-spring-1")
    _add(client, game, 1, "buildings", "well")
    _add(client, game, 2, "boats", "shop-boat")
    _add(client, game, 2, "personalities", game.setup["akebono"]["personalities"]["spring"][0])
    _add(client, game, 2, "characters", "monk")
    _add(client, game, 2, "retirement_tokens", "hire-discount")
    _post(
        client, game, op="resources", seat=3, mon=9, koban=1, wood=2, rice=0, sandals=4, v=0, was="0,0,0,0,0"
    )
    Game.objects.filter(pk=game.pk).update(month=13, finished=True)
    assert client.post(f"/games/{game.edit_token}/end").status_code == 302
    players = {p["name"]: p for p in ScoreSheet.objects.get().table["players"]}
    assert players["Anaïs"]["characters"] == ["eyeglass-peddler", "firefighter"]
    assert players["Anaïs"]["firefighting"] == 2
    assert (players["Anaïs"]["fish"], players["Anaïs"]["tobacco"]) == (
        ["fish-summer-bonus"],
        ["tobacco-spring-1"],
    )
    assert players["Anaïs"]["buildings"] == ["well"]
    assert players["Ben"]["boats"] == ["shop-boat"] and len(players["Ben"]["personalities"]) == 1
    assert players["Ben"]["retirement_tokens"] == ["hire-discount"]
    assert (players["Chie"]["mon"], players["Chie"]["koban"], players["Chie"]["sandals"]) == (9, 1, 4)


def test_a_retirement_token_is_said_as_taken(client: Client) -> None:
    game = make_game()
    _add(client, game, 1, "characters", "monk")
    said = _add(client, game, 1, "retirement_tokens", "hire-discount").content.decode()
    assert "Saved: Anaïs took the token Hire -1 (Monk)" in said and "retired for" not in said


def test_the_view_only_page_offers_no_record(client: Client) -> None:
    game = make_game()
    _add(client, game, 1, "characters", "monk")
    page = client.get(f"/games/{game.view_token}/").content.decode()
    assert "record-title" not in page and 'name="op" value="record-add"' not in page


def _offered(client: Client, game: Game, field: str) -> set[str]:
    """The ids the record's picker of ``field`` offers on the edit page."""
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    picker = re.search(rf'<select id="record-{field}" name="key">(.*?)</select>', page, re.S)
    assert picker is not None
    return set(re.findall(r'<option value="([^"]+)"', picker.group(1)))


#: (month, offered, not offered): the pickers offer this season's and the earlier seasons' cards and tokens (a
#: record the table forgot), never a later season's, which nobody can have hired or bought yet.
#: With Akebono and 3 players the setup deals 4 of the 5 starting cards: the fifth (the Wood Seller, seed K7MX2QPA)
#: has left the game. The Fisherman token comes with the Fisherman (month 7's New Character), the Policeman token
#: with the Policeman, which month 11 did not draw.
SEASON_OFFERS = [
    (False, 1, {"book-lender", "fish-spring"}, {"dumpling-peddler", "fish-summer", "pipe-winter-1"}),
    (False, 4, {"book-lender", "dumpling-peddler", "fish-summer"}, {"firewood-peddler", "fish-autumn"}),
    (False, 13, {"book-lender", "firewood-peddler", "fish-spring", "pipe-winter-1"}, set()),
    (
        True,
        1,
        {"book-lender", "fish-spring-akebono"},
        {"wood-seller", "fish-summer-akebono", "fish-fisherman"},
    ),
    (
        True,
        13,
        {"firewood-peddler", "fish-winter-akebono", "fish-fisherman"},
        {"wood-seller", "tobacco-policeman"},
    ),
]


@pytest.mark.parametrize(("akebono", "month", "offered", "hidden"), SEASON_OFFERS)
def test_the_record_offers_nothing_of_a_season_not_reached(
    client: Client, akebono: bool, month: int, offered: set[str], hidden: set[str]
) -> None:
    game = play_to(make_game(akebono=akebono), month)
    shown = _offered(client, game, "characters") | _offered(client, game, "tokens")
    assert offered <= shown
    assert not hidden & shown


def test_a_recorded_four_player_akebono_game_leaves_only_what_the_end_decides(client: Client) -> None:
    """Issue 13's "done when": scored from the tracker, the sheet has no error; only wild types and stack orders
    (the incomplete codes) may be left to answer."""
    from scoring.table import read_table
    from scoring.validate import INCOMPLETE_CODES, validate

    game = make_game(("Anaïs", "Ben", "Chie", "Dai"), akebono=True)
    setup = game.setup
    starting = [c["card"] for c in setup["starting_characters"]]
    spring = setup["akebono"]["personalities"]["spring"]
    plan = {
        1: [("characters", starting[0]), ("characters", "monk"), ("characters", "dice-maker")],
        2: [("characters", starting[1]), ("characters", "firefighter"), ("tokens", "fish-spring-bonus")],
        3: [("characters", starting[2]), ("tokens", "pipe-spring-1"), ("tokens", "tobacco-spring-1")],
        4: [("characters", starting[3]), ("boats", "shop-boat"), ("personalities", spring[0])],
    }
    for seat, entries in plan.items():
        for field, key in entries:
            assert _add(client, game, seat, field, key).status_code == 200, (seat, key)
    _add(client, game, 1, "buildings", setup["buildings"][0])
    _add(client, game, 2, "buildings", setup["buildings"][1])
    for seat in plan:
        numbers = {"mon": seat, "koban": 1, "wood": 2, "rice": 0, "sandals": 1}
        _post(client, game, op="resources", seat=seat, v=0, was="0,0,0,0,0", **numbers)
    assert _flags(client, game) == set()
    Game.objects.filter(pk=game.pk).update(month=13, finished=True)
    assert client.post(f"/games/{game.edit_token}/end").status_code == 302
    report = validate(read_table(ScoreSheet.objects.get().table))
    assert report.errors == ()
    assert {p.code for p in report.warnings} <= INCOMPLETE_CODES


def test_the_starting_card_no_one_drafted_leaves_the_picker_once_each_player_has_one(client: Client) -> None:
    """Three players draft 3 of the 4 starting cards dealt; the fourth goes back to the box (base rulebook, setup
    13B): offered while a player has none, never once each holds one."""
    game = make_game()
    dealt = [c["card"] for c in game.setup["starting_characters"]]
    assert len(dealt) == 4

    def offered() -> set[str]:
        page = client.get(f"/games/{game.edit_token}/").content.decode()
        group = re.search(r'<optgroup label="Starting characters \(drafted\)">(.*?)</optgroup>', page, re.S)
        return set(re.findall(r'value="([a-z-]+)"', group.group(1))) if group else set()

    for seat, card in enumerate(dealt[:2], start=1):
        assert _add(client, game, seat, "characters", card).status_code == 200
    assert offered() == set(dealt[2:])  # the third player has not drafted yet
    assert _add(client, game, 3, "characters", dealt[2]).status_code == 200
    assert offered() == set()
