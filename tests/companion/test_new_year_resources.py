"""New Year's Day's resources rows and "Reveal and go on" through the test client (issue 23): what the page
offers, what a write saves, and every bad input answered with a 4xx and a message, nothing saved."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from companion.models.games import Game
from companion.services.tracker.changes import apply_change
from tests.factories import db_snapshot, make_game, play_to

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _post(client: Client, game: Game, *, htmx: bool = True, **form: Any) -> Any:
    return client.post(f"/games/{game.edit_token}/change", form, **(HX if htmx else {}))


def _row(client: Client, game: Game, seat: int, *, htmx: bool = True, **numbers: Any) -> Any:
    """A New Year's Day row as its form posts it: the numbers asked, ``blank=0``, made against the saved ones."""
    game.refresh_from_db()
    was = ",".join(
        str(game.seats.get(seat=seat).record.get(k, 0)) for k in ("mon", "koban", "wood", "rice", "sandals")
    )
    form = {"op": "resources", "seat": seat, "v": game.version, "was": was, "blank": "0", **numbers}
    return _post(client, game, htmx=htmx, **form)


def _record(game: Game, seat: int) -> dict[str, Any]:
    return dict(Game.objects.get(pk=game.pk).seats.get(seat=seat).record)


def test_new_years_day_shows_one_row_a_player_asking_what_scores_for_them(client: Client) -> None:
    """iki-rulebook.txt "Resources": rice and sandals are worth nothing, except to the owner of the Merchant House
    (per sandal) or the Storehouse (per rice), Appendix 2: only that owner is asked them."""
    game = make_game()
    apply_change(game_id=game.pk, op="record-add", who="t", seat=2, field="buildings", key="merchant-house")
    before = client.get(f"/games/{game.edit_token}/").content.decode()
    assert 'id="resources-title"' not in before and 'id="res-1-mon"' not in before  # not before New Year
    game = play_to(game, 13)
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert "Resources at the end" in page
    for seat in (1, 2, 3):
        assert all(f'id="res-{seat}-{k}"' in page for k in ("mon", "koban", "wood"))
        assert f'id="res-{seat}-rice"' not in page
    assert 'id="res-2-sandals"' in page and 'id="res-1-sandals"' not in page
    assert 'placeholder="0"' in page and 'name="blank" value="0"' in page
    view = client.get(f"/games/{game.view_token}/").content.decode()
    assert "res-1-mon" not in view  # a view-only link never leads to a write


@pytest.mark.parametrize("htmx", [True, False])
def test_a_row_saves_what_it_asks_blank_as_0_and_keeps_the_rest(client: Client, htmx: bool) -> None:
    game = play_to(make_game(), 13)
    apply_change(
        game_id=game.pk, op="resources", who="t", seat=1, seen=game.version,
        numbers={"mon": 1, "koban": 0, "wood": 0, "rice": 4, "sandals": 2},
    )  # fmt: skip
    answer = _row(client, game, 1, htmx=htmx, mon="13", koban="2", wood="")
    assert answer.status_code == (200 if htmx else 302)
    assert _record(game, 1) == {"mon": 13, "koban": 2, "wood": 0, "rice": 4, "sandals": 2}
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert 'id="res-1-mon" name="mon" value="13"' in page and 'id="res-1-wood" name="wood" value=""' in page
    assert 'id="res-1-saved"' in page and 'id="res-2-saved"' not in page
    if htmx:
        said = "Anaïs&#x27;s resources: 13 mon, 2 koban, 0 wood, 4 rice, 2 sandals"
        assert said in answer.content.decode()


@pytest.mark.parametrize(
    ("numbers", "said"),
    [
        ({"mon": "x"}, "Mon: enter a whole number."),
        ({"koban": "1.5"}, "Koban: enter a whole number."),
        ({"wood": "-1"}, "Wood must be a whole number from 0 to 999."),
        ({"mon": "1000"}, "Mon must be a whole number from 0 to 999."),
        ({}, "Enter the player's resources."),
    ],
)
def test_a_bad_row_is_refused_with_a_message_and_saves_nothing(
    client: Client, numbers: dict[str, str], said: str
) -> None:
    game = play_to(make_game(), 13)
    before = db_snapshot()
    answer = _row(client, game, 1, **numbers)
    assert answer.status_code == 400
    assert said.replace("'", "&#x27;") in answer.content.decode()
    assert db_snapshot() == before


def test_a_row_made_against_resources_another_phone_changed_is_a_conflict(client: Client) -> None:
    game = play_to(make_game(), 13)
    stale = Game.objects.get(pk=game.pk).version
    saved = _row(client, game, 1, mon="5")
    assert (
        saved.status_code == 200
        and "Anaïs&#x27;s resources: 5 mon, 0 koban, 0 wood<" in saved.content.decode()
    )
    late = _post(
        client, game, op="resources", seat=1, v=stale, was="0,0,0,0,0", blank="0", mon="9", koban="", wood=""
    )
    assert late.status_code == 409
    assert _record(game, 1)["mon"] == 5


# --- "Reveal and go on": the answer to what "Next" asks, one change ------------------------------------------------


def _reveal_next(client: Client, game: Game, keys: str, *, htmx: bool = True, **extra: Any) -> Any:
    game.refresh_from_db()
    form = {"op": "reveal-next", "key": keys, "v": game.version, "was": f"{game.month}{game.phase}", **extra}
    return _post(client, game, htmx=htmx, **form)


@pytest.mark.parametrize("htmx", [True, False])
def test_reveal_and_go_on_reveals_what_is_due_moves_on_and_undoes_as_one(client: Client, htmx: bool) -> None:
    """RULINGS R17: the New Character is revealed at its month's start; the question offers it with the move."""
    game = make_game(akebono=True)
    asked = _post(client, game, op="next", ask="1", v=1, was="1A").content.decode()
    assert 'id="ask-reveal-next"' in asked and "Reveal and go on" in asked and 'id="ask-reveal"' in asked
    assert 'id="ask-not-yet"' in asked  # Next tapped too soon: the table can step back from the question
    assert _reveal_next(client, game, "new-character-1", htmx=htmx).status_code == (200 if htmx else 302)
    game.refresh_from_db()
    assert (game.month, game.phase, game.revealed) == (1, "B", ["new-character-1"])
    assert game.changes.filter(op="reveal-next").count() == 1
    game.refresh_from_db()
    assert _post(client, game, op="undo", v=game.version).status_code == 200
    game.refresh_from_db()
    assert (game.month, game.phase, game.revealed) == (1, "A", [])


def test_reveal_and_go_on_skips_what_another_phone_revealed_and_refuses_what_is_not_due(
    client: Client,
) -> None:
    game = make_game(akebono=True)
    apply_change(game_id=game.pk, op="reveal", who="t", key="new-character-1")
    before = db_snapshot()
    early = _reveal_next(client, game, "new-character-2")  # RULINGS R16-R18: never before it is due
    assert early.status_code == 400 and "not revealed yet" in early.content.decode()
    assert db_snapshot() == before
    assert _reveal_next(client, game, "new-character-1").status_code == 200  # revealed meanwhile: it moves on
    game.refresh_from_db()
    assert (game.phase, game.revealed) == ("B", ["new-character-1"])


def test_reveal_and_go_on_is_a_set_refused_when_the_table_moved_and_after_the_end(client: Client) -> None:
    game = make_game(akebono=True)
    stale = _post(client, game, op="reveal-next", key="new-character-1", v=0, was="12C")
    assert stale.status_code == 409
    Game.objects.filter(pk=game.pk).update(month=13, phase="new-year", finished=True)
    over = _reveal_next(client, game, "new-character-1")
    assert over.status_code == 400 and "The game is over" in over.content.decode()


def test_reveal_and_go_on_is_refused_on_new_years_day_where_next_ends_the_game(client: Client) -> None:
    game = play_to(make_game(akebono=True), 13)
    before = db_snapshot()
    refused = _reveal_next(client, game, "")
    assert refused.status_code == 400 and "reveal first, then end the game" in refused.content.decode()
    assert db_snapshot() == before


def test_a_reveal_made_late_leaves_now_once_reveal_and_go_on_moves_the_table(client: Client) -> None:
    """A reveal tapped late stays under "Now" for the step it was made in, and leaves it when the table moves
    on, whichever button moved it ("Next" or "Reveal and go on")."""
    game = make_game(akebono=True)
    assert _post(client, game, op="next", v=1, was="1A").status_code == 200  # "Go on without"
    assert _post(client, game, op="reveal", key="new-character-1").status_code == 200  # late, in phase B
    kept = client.get(f"/games/{game.edit_token}/").content.decode()
    assert 'data-event="overdue-new-character-1"' in kept
    assert _reveal_next(client, game, "").status_code == 200
    game.refresh_from_db()
    assert game.phase == "C"
    moved = client.get(f"/games/{game.edit_token}/").content.decode()
    assert 'data-event="overdue-new-character-1"' not in moved
