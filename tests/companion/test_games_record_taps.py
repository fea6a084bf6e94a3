"""A record in few taps (issue 23): the record's player is this phone's (the name it signs as, a cookie) and stays
on the player just recorded for; the answer names who recorded what under the form tapped, with the Undo of that
entry; the picker offers what the month offers first and names no draw before its reveal; each phone undoes its
own last change, and the answer says what it undid."""

from __future__ import annotations

import re
from html import unescape
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client

from companion.models.games import Game
from companion.presenters.tracker.state import WHO_COOKIE
from companion.services.tracker.changes import apply_change
from tests.factories import make_game

pytestmark = pytest.mark.django_db
LIVE = {"HTTP_X_LIVE": "1"}


def _phone(name: str) -> Client:
    """A phone that signs its changes as ``name``."""
    phone = Client()
    phone.cookies[WHO_COOKIE] = quote(name)
    return phone


def _post(phone: Client, game: Game, **form: Any) -> Any:
    return phone.post(f"/games/{game.edit_token}/change", form, **LIVE)


def _seat_chosen(html: str, field: str) -> str:
    select = re.search(rf'<select name="seat" id="record-{field}-seat"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, f"no player picker for {field}"
    chosen = re.search(r'<option value="(\d+)" selected>', select.group(1))
    assert chosen is not None
    return chosen.group(1)


@pytest.mark.parametrize(("who", "seat"), [("Chie", "3"), ("Ben", "2"), ("The table", "1"), ("", "1")])
def test_the_records_player_is_the_one_this_phone_signs_as(who: str, seat: str) -> None:
    game = make_game()
    phone = _phone(who) if who else Client()
    html = phone.get(game.edit_url()).content.decode()
    for field in ("characters", "tokens", "buildings", "retirement_tokens"):
        assert _seat_chosen(html, field) == seat


def test_after_add_the_form_stays_on_the_player_recorded_for() -> None:
    game = make_game()
    phone = _phone("Chie")
    answer = _post(phone, game, op="record-add", seat="2", field="characters", key="monk")
    assert answer.status_code == 200
    body = answer.content.decode()
    assert _seat_chosen(body, "characters") == "2"  # the answer's forms: Ben, as just recorded, not Anaïs


def test_the_answer_names_who_recorded_what_under_the_form_tapped_with_its_undo() -> None:
    game = make_game()
    phone = _phone("Ben")
    body = _post(phone, game, op="record-add", seat="2", field="characters", key="monk").content.decode()
    said = re.search(r'<div [^>]*id="answer-record-add-characters"[^>]*>(.*?)</div>', body, re.S)
    assert said is not None
    assert "Saved: Ben hired Monk" in said.group(1)
    version = Game.objects.get(pk=game.pk).version
    assert f'name="key" value="{version}"' in said.group(1) and 'value="undo-entry"' in said.group(1)
    # The other forms' answers stay empty (their space is kept: the slot is there, empty).
    tokens = re.search(r'id="answer-record-add-tokens"[^>]*>(.*?)</div>', body, re.S)
    assert tokens is not None and tokens.group(1).strip() == ""
    undone = _post(phone, game, op="undo-entry", field="characters", key=str(version))
    assert undone.status_code == 200
    assert "Saved: Ben undid “Ben hired Monk" in undone.content.decode()
    assert not any(s.record.get("characters") for s in Game.objects.get(pk=game.pk).seats.all())


def test_each_phone_undoes_its_own_last_change_not_the_tables() -> None:
    game = make_game()
    anais, ben = _phone("Anaïs"), _phone("Ben")
    assert _post(anais, game, op="score-add", seat="1", value="2").status_code == 200
    assert _post(ben, game, op="score-add", seat="2", value="3").status_code == 200
    answer = _post(anais, game, op="undo-mine")
    assert answer.status_code == 200
    assert "Saved: Anaïs undid “+2 IKI for Anaïs (now 2)”." in answer.content.decode()
    scores = dict(Game.objects.get(pk=game.pk).seats.values_list("name", "score"))
    assert scores == {"Anaïs": 0, "Ben": 3, "Chie": 0}
    # Anaïs has nothing left to undo; Ben's own +3 is still his to undo.
    refused = _post(anais, game, op="undo-mine")
    assert refused.status_code == 400 and "Anaïs has nothing to undo." in refused.content.decode()
    assert "Saved: Ben undid “+3 IKI for Ben" in _post(ben, game, op="undo-mine").content.decode()


def test_an_undo_never_undoes_what_came_after_it() -> None:
    """An older change's own inverse is taken back, field by field: an undo of +2 is -2 even after a later +5
    (undo._undo_seat; tests/companion/test_games_undo.py has every kind of field)."""
    game = make_game()
    anais, ben = _phone("Anaïs"), _phone("Ben")
    _post(anais, game, op="score-add", seat="1", value="2")
    _post(ben, game, op="score-add", seat="1", value="5")  # Ben scores for Anaïs after her own +2
    undone = _post(anais, game, op="undo-mine")
    assert undone.status_code == 200 and "Saved: Anaïs undid “+2 IKI for Anaïs" in undone.content.decode()
    assert Game.objects.get(pk=game.pk).seats.get(seat=1).score == 5


UNDO_REFUSED = [
    ({"op": "undo-entry", "key": "x"}, "There is no such change to undo."),
    ({"op": "undo-entry", "key": "999"}, "There is no such change to undo."),
    ({"op": "undo-entry", "key": "1"}, "That line is not a change that can be undone."),  # the creation
    ({"op": "undo-mine"}, "Dee has nothing to undo."),
]


@pytest.mark.parametrize(("form", "said"), UNDO_REFUSED)
def test_an_undo_of_nothing_is_refused_and_changes_nothing(form: dict[str, str], said: str) -> None:
    game = make_game()
    apply_change(game_id=game.pk, op="score-add", who="Ben", seat=2, value=3)
    before = Game.objects.get(pk=game.pk).version
    answer = _post(_phone("Dee"), game, **form)
    assert answer.status_code == 400 and said in answer.content.decode()
    assert Game.objects.get(pk=game.pk).version == before


def test_another_phones_entry_is_undone_only_after_a_confirmation() -> None:
    game = make_game()
    _post(_phone("Ben"), game, op="record-add", seat="2", field="characters", key="monk")
    version = Game.objects.get(pk=game.pk).version
    answer = _post(_phone("Chie"), game, op="undo-entry", field="characters", key=str(version))
    assert answer.status_code == 200 and "Undo Ben's change “Ben hired Monk" in unescape(
        answer.content.decode()
    )
    assert Game.objects.get(pk=game.pk).seats.get(seat=2).record.get("characters") == ["monk"]
    assert Game.objects.get(pk=game.pk).version == version


def test_undone_twice_says_so() -> None:
    game = make_game()
    ben = _phone("Ben")
    _post(ben, game, op="record-add", seat="2", field="characters", key="monk")
    version = str(Game.objects.get(pk=game.pk).version)
    assert _post(ben, game, op="undo-entry", field="characters", key=version).status_code == 200
    again = _post(ben, game, op="undo-entry", field="characters", key=version)
    assert again.status_code == 400 and "Already undone: Ben hired Monk" in again.content.decode()


def test_undo_mine_is_offered_to_a_phone_that_signs_as_someone() -> None:
    game = make_game()
    assert 'id="undo-mine"' in _phone("Ben").get(game.edit_url()).content.decode()
    assert (
        'id="undo-mine"' not in Client().get(game.edit_url()).content.decode()
    )  # unsigned: the table's only


def _characters_offered(html: str) -> list[str]:
    picker = re.search(r'<select id="record-characters" name="key">(.*?)</select>', html, re.S)
    assert picker is not None
    return re.findall(r'<option value="([^"]+)"', picker.group(1))


def test_the_picker_offers_the_months_new_character_first_only_once_revealed() -> None:
    """The month's New Character (RULINGS R17: revealed in its month) heads the picker once the table revealed
    it, and is named nowhere in the picker before."""
    game = make_game(akebono=True)
    drawn = game.setup["akebono"]["new_characters"]
    month, card = next((int(m), c) for m, c in sorted(drawn.items(), key=lambda mc: int(mc[0])))
    Game.objects.filter(pk=game.pk).update(month=month)
    phone = _phone("Ben")
    assert card not in _characters_offered(phone.get(game.edit_url()).content.decode())
    Game.objects.filter(pk=game.pk).update(revealed=[f"new-character-{month}"])
    offered = _characters_offered(phone.get(game.edit_url()).content.decode())
    assert offered[0] == card


def test_the_search_is_offered_for_the_long_pickers_only() -> None:
    html = _phone("Ben").get(make_game().edit_url()).content.decode()
    found = set(re.findall(r'data-filter="record-([a-z_]+)"', html))
    assert found == {"characters", "tokens"}


@pytest.mark.parametrize(
    ("akebono", "field", "key", "said"),
    [
        (False, "tokens", "fish-spring", "Saved: Ben bought Spring fish"),
        (False, "buildings", "well", "Saved: Ben built Well"),
        (True, "boats", "ferry-boat", "Saved: Ben built Ferry"),
    ],
)
def test_each_record_form_answers_under_itself(akebono: bool, field: str, key: str, said: str) -> None:
    game = make_game(akebono=akebono)
    body = _post(_phone("Ben"), game, op="record-add", seat="2", field=field, key=key).content.decode()
    answer = re.search(rf'<div [^>]*id="answer-record-add-{field}"[^>]*>(.*?)</div>', body, re.S)
    assert answer is not None and said in answer.group(1)
