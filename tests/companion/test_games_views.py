"""The Django test client on every view of a tracked game (companion/views/tracker/): full pages and htmx
partials, valid and invalid input, edit and view-only tokens, hidden information kept out of the HTML."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client

from companion.models.games import Change, Game
from companion.presenters.tracker.state import LOG_ON_PAGE
from companion.services.tracker.games import NewPlayer, create_game
from scoring.rules import nagaya_name

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
LIVE = {"HTTP_X_LIVE": "1"}


def _game(players: int = 3, akebono: bool = True, grand_master: bool = False) -> Game:
    from setupgen import Options, generate

    setup = generate(Options(players=players, akebono=akebono, grand_master=grand_master), seed="K7MX2QPA")
    names = [
        NewPlayer("Anaïs", "red"),
        NewPlayer("David", "blue"),
        NewPlayer("Dominique", "green"),
        NewPlayer("Ulric", "yellow"),
    ]
    return create_game(
        players=names[:players], akebono=akebono, grand_master=grand_master, setup=setup.to_json(), who="test"
    )


def _change(client: Client, game: Game, htmx: bool = True, **form: Any) -> Any:
    return client.post(f"/games/{game.edit_token}/change", form, **(HX if htmx else {}))


# --- creating ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_new_game_form(client: Client, htmx: bool) -> None:
    response = client.get("/games/new/", **(HX if htmx else {}))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="new-game"' in html
    assert ("<html" in html) is not htmx
    assert 'for="name-0"' in html


def test_new_game_form_takes_the_setup_options_from_the_query(client: Client) -> None:
    html = client.get("/games/new/?seed=K7MX2QPA&akebono=1&grand_master=1").content.decode()
    assert 'value="K7MX2QPA"' in html
    assert html.count(" checked") == 2
    assert client.get("/games/new/?akebono=maybe&seed=" + "x" * 500).status_code == 200


def test_changing_the_players_of_a_tracked_setup_keeps_the_names(client: Client) -> None:
    """ "Track this game" brought 3 names; the table wants a 4th player: "Change the players or options" goes back
    to the setup's options with the 3 names typed, not an empty form."""
    import re
    from html import unescape

    html = client.get("/games/new/?players=3&seed=K7MX2QPA&name=Aiko&name=Ben&name=Chie").content.decode()
    change = re.search(r'href="([^"]+)">Change the players or options', html)
    assert change is not None and change.group(1).startswith("/setup/?")
    options = client.get(unescape(change.group(1))).content.decode()
    assert [
        f'id="name-{i}" name="name" value="{n}"' in options for i, n in ((1, "Aiko"), (2, "Ben"), (3, "Chie"))
    ] == [True] * 3


def test_create_a_game_stores_the_setup_and_opens_the_share_page(client: Client) -> None:
    form = {
        "name-0": " Anaïs ",
        "colour-0": "red",
        "name-1": "David",
        "colour-1": "blue",
        "akebono": "1",
        "seed": "k7mx2qpa",
    }
    response = client.post("/games/new/", form)
    assert response.status_code == 302
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.edit_token}/share"
    assert game.setup["seed"] == "K7MX2QPA"
    assert game.generator_version == str(game.setup["generator_version"])
    assert [s.name for s in game.seats.all()] == ["Anaïs", "David"]
    assert len(game.edit_token) >= 22 and len(game.view_token) >= 22 and game.edit_token != game.view_token
    share = client.get(response["Location"])
    html = share.content.decode()
    assert html.count("<svg") == 2
    assert game.view_token in html and game.edit_token in html


def _recent_entry(html: str) -> Any:
    """The game's entry for the phone's "On this phone" list, as recent.js reads it (``JSON.parse``)."""
    head = '<script id="recent-entry" type="application/json">'
    assert html.count(head) == 1
    return json.loads(html.split(head, 1)[1].split("</script>", 1)[0])


def test_the_recent_list_gets_the_names_as_typed_and_the_page_stays_safe(client: Client) -> None:
    """A name with a quote or markup reached the list escaped twice (``O&#x27;Neil``); it is kept as typed, and
    cannot end the script element it is written in."""
    odd = "</script><b>\"x'&"
    form = {"name-0": "O'Neil", "colour-0": "red", "name-1": odd, "colour-1": "blue", "seed": "k7mx2qpa"}
    assert client.post("/games/new/", form).status_code == 302
    game = Game.objects.get()
    edit = client.get(f"/games/{game.edit_token}/").content.decode()
    assert _recent_entry(edit) == {
        "kind": "game",
        "label": "IKI game",
        "players": f"O'Neil, {odd}",
        "month": "month 1",
    }
    assert "<b>" not in edit
    Game.objects.filter(pk=game.pk).update(month=13)
    view = client.get(f"/games/{game.view_token}/").content.decode()
    assert _recent_entry(view)["label"] == "IKI game (view only)"
    assert _recent_entry(view)["month"] == "New Year"
    Game.objects.filter(pk=game.pk).update(finished=True)
    assert _recent_entry(client.get(f"/games/{game.view_token}/").content.decode())["month"] == "finished"


def test_create_with_htmx_redirects_by_header(client: Client) -> None:
    response = client.post(
        "/games/new/", {"name-0": "A", "colour-0": "red", "name-1": "B", "colour-1": "blue"}, **HX
    )
    assert response.status_code == 204
    assert response["HX-Redirect"].endswith("/share")


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"name-0": "Anaïs", "colour-0": "red"}, "2 to 4 players"),
        ({"name-0": "A", "colour-0": "red", "name-1": "a", "colour-1": "blue"}, "different name"),
        ({"name-0": "A", "colour-0": "red", "name-1": "B", "colour-1": "red"}, "different colour"),
        ({"name-0": "A", "colour-0": "pink", "name-1": "B", "colour-1": "red"}, "colour from the list"),
        ({"name-0": "A" * 25, "colour-0": "red", "name-1": "B", "colour-1": "blue"}, "at most 24"),
        (
            {
                "name-0": "A",
                "colour-0": "red",
                "name-1": "B",
                "colour-1": "blue",
                "name-2": "C",
                "colour-2": "green",
                "akebono": "1",
                "grand_master": "1",
            },
            "Grand Master",
        ),
        ({"name-0": "A", "colour-0": "red", "name-1": "B", "colour-1": "blue", "seed": "!!"}, "eed"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_create_refuses_bad_input(client: Client, form: dict[str, str], message: str, htmx: bool) -> None:
    response = client.post("/games/new/", form, **(HX if htmx else {}))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Game.objects.count() == 0


# --- the game page and polling ------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_game_page_edit_and_view(client: Client, htmx: bool) -> None:
    game = _game()
    edit = client.get(f"/games/{game.edit_token}/", **(HX if htmx else {})).content.decode()
    view = client.get(f"/games/{game.view_token}/", **(HX if htmx else {})).content.decode()
    assert 'id="state"' in edit and 'id="state"' in view
    assert "<form" in edit
    assert "<form" not in view and "<button" not in view
    assert game.edit_token not in view


def test_unknown_or_malformed_token_is_404(client: Client) -> None:
    assert client.get("/games/" + "x" * 24 + "/").status_code == 404
    assert client.get("/games/short/").status_code == 404
    assert client.get("/games/" + "x" * 24 + "/state?v=1").status_code == 404
    assert client.post("/games/" + "x" * 24 + "/change", {"op": "next"}).status_code == 404
    game = _game()  # a real token answers each of them
    assert client.get(f"/games/{game.edit_token}/").status_code == 200
    assert client.get(f"/games/{game.edit_token}/state?v={game.version}").status_code == 204


def test_polling_answers_204_while_unchanged(client: Client) -> None:
    game = _game()
    url = f"/games/{game.view_token}/state"
    unchanged = client.get(f"{url}?v={game.version}", **HX)
    assert unchanged.status_code == 204
    assert unchanged.content == b""
    _change(client, game, op="score-add", seat=1, value=3)
    fresh = client.get(f"{url}?v={game.version}", **HX)
    assert fresh.status_code == 200
    assert f'data-version="{game.version + 1}"' in fresh.content.decode()
    assert client.get(f"{url}?v={game.version + 1}", **HX).status_code == 204
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("v", ["abc", "1.5", "", "99999999999"])
def test_polling_bad_version_is_400(client: Client, v: str) -> None:
    game = _game()
    assert client.get(f"/games/{game.edit_token}/state?v={v}").status_code == 400
    read = client.get(f"/games/{game.edit_token}/state?v={game.version}")  # a number is read
    assert read.status_code == 204


# --- changes ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_quick_score_and_log(client: Client, htmx: bool) -> None:
    game = _game()
    client.cookies["iki_who"] = "David%27s%20phone"
    response = _change(client, game, htmx, op="score-add", seat=2, value=5)
    assert response.status_code == (200 if htmx else 302)
    game.refresh_from_db()
    assert game.seats.get(seat=2).score == 5
    change = game.changes.first()
    assert change is not None
    assert change.who == "David's phone"
    assert "+5 IKI for David" in change.summary


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"op": "score-add", "seat": 1, "value": 4}, "Choose +1"),
        ({"op": "score-add", "seat": 1, "value": -1}, "below 0"),
        ({"op": "score-add", "seat": 9, "value": 1}, "one of the game"),
        ({"op": "score-set", "seat": 1, "value": -3, "v": 1}, "from 0 to 999"),
        ({"op": "score-set", "seat": 1, "value": "x", "v": 1}, "whole number"),
        ({"op": "fire-set", "seat": 1, "value": 11, "v": 1}, "from 0 to 10"),
        ({"op": "trade-set", "seat": 1, "value": 12, "v": 1}, "from 0 to 10"),
        ({"op": "explode"}, "Unknown change"),
        ({"op": "undo", "v": 1}, "nothing to undo"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_changes_are_refused_and_change_nothing(
    client: Client, form: dict[str, Any], message: str, htmx: bool
) -> None:
    game = _game()
    response = _change(client, game, htmx, **form)
    assert response.status_code == 400
    assert message in response.content.decode()
    game.refresh_from_db()
    assert game.version == 1
    assert [s.score for s in game.seats.all()] == [0, 0, 0]


#: A +1 with the marker already at the end of its track (RULINGS R11; the score's end is the tracker's own): the
#: seat's fields set first, the tap, what the refusal says.
AT_THE_END = [
    ({"trade": 10}, {"op": "trade-add"}, "Anaïs's trade marker is already at 10, the end of the track."),
    (
        {"firefighting": 10, "stack": 9},
        {"op": "fire-add"},
        "Anaïs's firefighting marker is already at 10, on top",
    ),
    ({"score": 999}, {"op": "score-add", "value": 1}, "Anaïs's score cannot go above 999."),
    ({"score": 999}, {"op": "score-add", "value": 5}, "Anaïs's score cannot go above 999."),
]


@pytest.mark.parametrize(("fields", "form", "message"), AT_THE_END)
@pytest.mark.parametrize("how", [{}, HX, LIVE])
def test_a_tap_at_the_end_of_a_track_is_refused_and_logs_nothing(
    client: Client, fields: dict[str, int], form: dict[str, Any], message: str, how: dict[str, str]
) -> None:
    """A tap that would change nothing is refused (400, the live script takes its +1 back, docs/sync.md), where it
    was answered "Saved" with a do-nothing line and the phone kept showing 11."""
    game = _game()
    game.seats.filter(seat=1).update(**fields)
    response = client.post(f"/games/{game.edit_token}/change", {**form, "seat": 1}, **how)
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    game.refresh_from_db()
    assert game.version == 1
    assert game.changes.count() == 1  # the creation's line only
    seat = game.seats.get(seat=1)
    assert {f: getattr(seat, f) for f in fields} == fields


def test_a_tap_that_passes_the_end_stops_there_and_one_under_the_stack_goes_on_top(client: Client) -> None:
    """+5 from 997 lands on 999; F+1 on space 10 under another marker puts it on top (base "Fire tower"), a move."""
    game = _game()
    game.seats.filter(seat=1).update(score=997, firefighting=10, stack=1)
    game.seats.filter(seat=2).update(firefighting=10, stack=2)
    assert _change(client, game, op="score-add", seat=1, value=5).status_code == 200
    assert _change(client, game, op="fire-add", seat=1).status_code == 200
    seat = game.seats.get(seat=1)
    assert (seat.score, seat.firefighting) == (999, 10)
    assert seat.stack > game.seats.get(seat=2).stack
    assert _change(client, game, op="fire-add", seat=1).status_code == 400


@pytest.mark.parametrize("htmx", [False, True])
def test_stale_set_change_is_409_with_the_fresh_state(client: Client, htmx: bool) -> None:
    game = _game()
    assert _change(client, game, op="fire-set", seat=1, value=4, v=1).status_code == 200
    stale = _change(client, game, htmx, op="fire-set", seat=1, value=7, v=1)
    assert stale.status_code == 409
    html = stale.content.decode()
    assert "Someone changed the game first" in html
    assert 'id="fire-1">4<' in html
    game.refresh_from_db()
    assert game.seats.get(seat=1).firefighting == 4


def test_view_token_cannot_change(client: Client) -> None:
    game = _game()
    for url, form in [
        ("change", {"op": "score-add", "seat": 1, "value": 3}),
        ("change", {"op": "next", "v": 1}),
        ("who", {"who": "x"}),
        ("end", {}),
    ]:
        response = client.post(f"/games/{game.view_token}/{url}", form)
        assert response.status_code == 403
        assert "view-only link" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 1


def test_firefighting_stack_and_turn_order(client: Client) -> None:
    game = _game(players=3)
    first = game.first_player
    seats = [1, 2, 3]
    clockwise = [*seats[first - 1 :], *seats[: first - 1]]
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    names = {1: "Anaïs", 2: "David", 3: "Dominique"}
    order_html = page[page.index('id="order-title"') :]
    assert [order_html.index(names[s]) for s in clockwise] == sorted(
        order_html.index(names[s]) for s in clockwise
    )
    _change(client, game, op="fire-set", seat=clockwise[2], value=2, v=1)
    _change(client, game, op="fire-set", seat=clockwise[0], value=2, v=2)
    _change(client, game, op="next", v=3)
    _change(client, game, op="next", v=4)
    _change(client, game, op="next", v=5)
    game.refresh_from_db()
    assert (game.month, game.phase) == (2, "A")
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    order_html = page[
        page.index('id="order-title"') : page.index("</section>", page.index('id="order-title"'))
    ]
    expected = [clockwise[0], clockwise[2], clockwise[1]]
    positions = [order_html.index(names[s]) for s in expected]
    assert positions == sorted(positions)
    assert "on top of the stack on space 2" in page


def test_undo_reverts_the_last_change_and_is_logged(client: Client) -> None:
    game = _game()
    _change(client, game, op="score-add", seat=1, value=3)
    _change(client, game, op="fire-add", seat=2)
    _change(client, game, op="undo", v=3)
    game.refresh_from_db()
    assert game.seats.get(seat=2).firefighting == 0
    assert game.seats.get(seat=1).score == 3
    _change(client, game, op="undo", v=4)
    game.refresh_from_db()
    assert game.seats.get(seat=1).score == 0
    assert Change.objects.filter(game=game, undone=True).count() == 2
    log = client.get(f"/games/{game.view_token}/log").content.decode()
    assert "Undid: +3 IKI for Anaïs" in log


def _advance_to(client: Client, game: Game, month: int, phase: str) -> None:
    game.refresh_from_db()
    while (game.month, game.phase) != (month, phase) and not game.finished:
        assert _change(client, game, op="next", v=game.version).status_code == 200
        game.refresh_from_db()


def test_hidden_information_is_revealed_for_the_table_only_when_due(client: Client) -> None:
    """RULINGS R16-R18: the New Character and the blocking tile at their month's start, the next season's
    Personalities at the season change, a fire's Nagaya at the fire; each revealed by one phone for every phone,
    offered only when due and refused before (issue 13, item 4)."""
    from scoring.catalogue import CHARACTER_BY_ID, PERSONALITY_BY_ID

    game = _game(players=2, akebono=True, grand_master=True)
    setup = game.setup
    fire5 = next(f for f in setup["fires"] if f["month"] == 5)
    summer = [PERSONALITY_BY_ID[p].name for p in setup["akebono"]["personalities"]["summer"]]
    month2 = CHARACTER_BY_ID[setup["akebono"]["new_characters"]["2"]].name
    month1 = CHARACTER_BY_ID[setup["akebono"]["new_characters"]["1"]].name
    tile1 = f"Ikizama space {setup['two_player']['blocking_tiles'][0]} is blocked"

    def html(token: str) -> str:
        return client.get(f"/games/{token}/").content.decode()

    def reveal(key: str) -> Any:
        return _change(client, game, op="reveal", key=key)

    page = html(game.view_token)
    assert month1 not in page and tile1 not in page  # due, but nobody revealed them yet
    assert 'id="reveal-new-character-1"' in html(game.edit_token)
    assert 'id="reveal-new-character-1"' not in page  # the view-only phone is offered nothing
    for key in ("new-character-2", "fire-5", "season-summer", "nonsense"):
        refused = reveal(key)
        assert refused.status_code == 400, key
    assert "revealed yet" in reveal("fire-5").content.decode()
    assert reveal("new-character-1").status_code == 200
    assert reveal("blocking-tile-1").status_code == 200
    page = html(game.view_token)
    assert month1 in page and tile1 in page and month2 not in page
    assert reveal("new-character-1").status_code == 400  # once is enough
    log = client.get(f"/games/{game.view_token}/log").content.decode()
    assert "Revealed the New Character of month 1 (by a phone in month 1)" in log
    assert month1 not in log  # the log names the reveal, never the secret
    _advance_to(client, game, 3, "B")
    assert reveal("season-summer").status_code == 400
    _advance_to(client, game, 3, "C")
    assert not any(name in html(game.view_token) for name in summer)
    assert reveal("season-summer").status_code == 200
    assert all(name in html(game.view_token) for name in summer)
    _advance_to(client, game, 5, "B")
    assert "burns" not in html(game.edit_token)
    assert reveal("fire-5").status_code == 400
    _advance_to(client, game, 5, "C")
    assert "burns" not in html(game.edit_token)
    assert reveal("fire-5").status_code == 200
    assert f"The fire burns {nagaya_name(fire5['nagaya'])}" in html(game.view_token)
    game.refresh_from_db()
    assert _change(client, game, op="undo", v=game.version).status_code == 200
    assert "burns" not in html(game.view_token)  # undo hides it again; the log keeps both lines
    log = client.get(f"/games/{game.view_token}/log").content.decode()
    assert "Undid: Revealed the fire tile of month 5" in log


def test_setup_ticks_live_in_the_game_behind_the_edit_token(client: Client) -> None:
    game = _game()
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert 'id="tick-general-board"' in page
    assert 'id="tick-general-board"' not in client.get(f"/games/{game.view_token}/").content.decode()
    assert _change(client, game, op="tick", key="general-board").status_code == 200
    assert _change(client, game, op="tick", key="general-board").status_code == 400
    assert _change(client, game, op="tick", key="no-such-step").status_code == 400
    game.refresh_from_db()
    assert game.ticks == ["general-board"]
    assert 'aria-pressed="true"' in client.get(f"/games/{game.edit_token}/").content.decode()
    assert _change(client, game, op="untick", key="general-board").status_code == 200
    game.refresh_from_db()
    assert game.ticks == []
    forged = client.post(f"/games/{game.view_token}/change", {"op": "tick", "key": "general-board"})
    assert forged.status_code == 403


def test_a_replayed_client_id_is_applied_once(client: Client) -> None:
    game = _game()
    for _ in range(3):
        response = _change(client, game, op="score-add", seat=1, value=3, cid="a1b2c3")
        assert response.status_code == 200
    assert "Already saved." in response.content.decode()
    assert game.seats.get(seat=1).score == 3
    assert _change(client, game, op="score-add", seat=1, value=3, cid="x" * 41).status_code == 400


def test_a_set_made_against_an_unchanged_value_is_no_conflict(client: Client) -> None:
    """Another player's +1 meanwhile does not stop a Set; a change of the same value does (409)."""
    game = _game()
    assert _change(client, game, op="score-add", seat=2, value=1).status_code == 200
    assert _change(client, game, op="score-set", seat=1, value=9, v=1, was="0").status_code == 200
    assert _change(client, game, op="score-set", seat=1, value=4, v=1, was="0").status_code == 409
    assert _change(client, game, op="next", v=1, was="1A").status_code == 200
    assert _change(client, game, op="next", v=1, was="1A").status_code == 409
    game.refresh_from_db()
    assert (game.seats.get(seat=1).score, game.phase) == (9, "B")


def test_apply_it_anyway_skips_one_phase_but_never_a_later_one(client: Client) -> None:
    """After a conflict, "Apply it anyway" (force, the page's version, the step the phone saw as ``was``) moves the
    game one step on from the step another phone took; tapped once the game has gone further, it moves nothing."""
    game = _game()
    assert _change(client, game, op="next", v=1, was="1A").status_code == 200  # another phone: 1A -> 1B
    assert _change(client, game, op="next", v=2, was="1A", force="1").status_code == 200  # 1B -> 1C
    game.refresh_from_db()
    assert (game.month, game.phase) == (1, "C")
    for v, was in ((3, "1C"), (4, "2A")):  # the table plays on to 2B
        assert _change(client, game, op="next", v=v, was=was).status_code == 200
    stale = _change(client, game, op="next", v=5, was="1B", force="1")  # a note left from 1B
    assert stale.status_code == 400
    assert "The game has moved on since that tap: it is month 2, Phase B" in stale.content.decode()
    game.refresh_from_db()
    assert (game.month, game.phase, game.version) == (2, "B", 5)


@pytest.mark.parametrize(
    ("month", "phase", "title"),
    [(1, "A", "Order for phase A"), (1, "B", "Order for phase B"), (2, "C", "(phase C)")],
)
def test_the_order_heading_names_the_phase_that_is_on(
    client: Client, month: int, phase: str, title: str
) -> None:
    """Issue 13, item 7: "Order for phase A" stayed during B and C."""
    game = _game()
    _advance_to(client, game, month, phase)
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert title in page
    if phase != "A":
        assert "Order for phase A" not in page


def test_who_sets_the_phone_name(client: Client) -> None:
    game = _game()
    response = client.post(f"/games/{game.edit_token}/who", {"who": "  Anaïs  "})
    assert response.status_code == 302
    _change(client, game, op="trade-add", seat=1)
    assert game.changes.first().who == "Anaïs"  # type: ignore[union-attr]
    assert client.post(f"/games/{game.edit_token}/who", {"who": ""}).status_code == 400
    assert client.post(f"/games/{game.edit_token}/who", {"who": "x" * 41}).status_code == 400


@pytest.mark.parametrize(
    ("url", "method"),
    [
        ("", "post"),
        ("state", "post"),
        ("change", "get"),
        ("who", "get"),
        ("end", "get"),
        ("share", "post"),
        ("log", "post"),
    ],
)
def test_wrong_method_is_405(client: Client, url: str, method: str) -> None:
    game = _game()
    response = getattr(client, method)(f"/games/{game.edit_token}/{url}")
    assert response.status_code == 405


def test_end_before_new_year_is_refused(client: Client) -> None:
    game = _game()
    response = client.post(f"/games/{game.edit_token}/end")
    assert response.status_code == 400
    assert "not over" in response.content.decode()


def test_a_whole_game_ends_in_the_scoring_walk_through(client: Client) -> None:
    game = _game(players=3, akebono=True)
    _change(client, game, op="score-set", seat=1, value=28, v=1)
    _change(client, game, op="fire-set", seat=2, value=7, v=2)
    _change(client, game, op="trade-set", seat=3, value=3, v=3)
    _advance_to(client, game, 13, "new-year")
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert "New Year&#x27;s Day" in page or "New Year's Day" in page
    assert _change(client, game, op="next", v=game.version).status_code == 200
    game.refresh_from_db()
    assert game.finished
    assert _change(client, game, op="score-add", seat=1, value=1).status_code == 400
    response = client.post(f"/games/{game.edit_token}/end")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.scoresheet is not None
    assert response["Location"] == game.scoresheet.get_absolute_url()
    sheet = client.get(response["Location"])
    assert sheet.status_code == 200
    from companion.models.scoresheets import ScoreSheet

    table = ScoreSheet.objects.get().table
    players = {p["name"]: p for p in table["players"]}
    assert players["Anaïs"]["score_track"] == 28
    assert players["David"]["firefighting"] == 7
    assert players["Dominique"]["trade"] == 3
    assert sorted(table["setup"]["buildings"]) == sorted(game.setup["buildings"])
    again = client.post(f"/games/{game.edit_token}/end")
    assert again["Location"] == game.scoresheet.get_absolute_url()
    edit_page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert game.scoresheet.get_absolute_url() in edit_page
    view_page = client.get(f"/games/{game.view_token}/").content.decode()
    assert game.scoresheet.token not in view_page  # the view-only page never leads to an entry
    assert game.scoresheet.view_url() in view_page


def test_once_the_score_sheet_is_open_the_tracker_changes_nothing(client: Client) -> None:
    """Undo last reopened a game whose sheet was open: a track moved then never reached the sheet, which "Open the
    score sheet" showed as it was. The sheet owns the scoring once opened: the tracker refuses, and says where."""
    game = _game()
    _advance_to(client, game, 13, "new-year")
    assert _change(client, game, op="next", v=game.version).status_code == 200  # the game ends
    assert client.post(f"/games/{game.edit_token}/end").status_code == 302  # the sheet opens
    undo = _change(client, game, op="undo", v=game.version + 1)
    assert undo.status_code == 400
    assert "change the numbers on the score sheet" in undo.content.decode()
    game.refresh_from_db()
    assert game.finished
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert 'id="undo" disabled' in page


@pytest.mark.parametrize(
    ("players", "akebono", "edit", "said"),
    [
        (3, False, True, "Hidden draws (the fires' Nagayas) are offered to reveal under"),
        (2, False, True, "Hidden draws (the fires' Nagayas, blocking tiles) are offered"),
        (3, True, False, 'New Characters) show under "Now" once a player at the table reveals them.'),
    ],
)
def test_the_setup_names_only_this_games_hidden_draws(
    client: Client, players: int, akebono: bool, edit: bool, said: str
) -> None:
    """A base game has no Personalities or New Characters, only two players have blocking tiles, and the
    view-only link reveals nothing."""
    game = _game(players=players, akebono=akebono)
    page = client.get(f"/games/{game.edit_token if edit else game.view_token}/").content.decode()
    line = re.sub(r"\s+", " ", html.unescape(page.split('id="hidden-draws">')[1].split("</p>")[0])).strip()
    assert said in line
    assert ("Personalities" in line) is akebono and ("blocking" in line) is (players == 2)


def test_share_page_of_the_view_token_shows_only_the_view_link(client: Client) -> None:
    game = _game()
    html = client.get(f"/games/{game.view_token}/share").content.decode()
    assert html.count("<svg") == 1
    assert game.view_token in html
    assert game.edit_token not in html


def test_log_page_lists_every_change(client: Client) -> None:
    game = _game()
    for _ in range(LOG_ON_PAGE + 2):
        _change(client, game, op="trade-add", seat=3)
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    log = client.get(f"/games/{game.edit_token}/log").content.decode()
    assert page.count("</strong>: Dominique +1 trade (now") == LOG_ON_PAGE  # each line names who did it
    assert log.count("Dominique +1 trade (now") == LOG_ON_PAGE + 2
    assert "Game created" in log
    assert client.head(f"/games/{game.view_token}/log").status_code == 200


def test_trade_income_is_shown_after_the_fire(client: Client) -> None:
    """Akebono "Trade track income": after each fire every player gains the bonuses reached."""
    game = _game()
    _change(client, game, op="trade-set", seat=2, value=6, v=1)
    _advance_to(client, game, 5, "B")
    assert "Trade track income now" not in client.get(f"/games/{game.edit_token}/").content.decode()
    _advance_to(client, game, 5, "C")
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert "David (trade 6): 1 mon, 1 sandal, 1 rice" in page


def test_a_game_made_from_a_setup_page_takes_its_ticks(client: Client) -> None:
    """Issue 13, item 4: the setup's ticks move into the game, behind its edit token."""
    import re

    from companion.setup_query import new_table

    table = new_table()
    query = f"players=3&akebono=1&seed=K7MX2QPA&table={table}"
    client.post(f"/setup/ticks?{query}", {"step": "general-board", "done": "general-board"})
    setup_page = client.get(f"/setup/game?{query}").content.decode()
    track = re.search(r'href="(/games/new/\?[^"]+)"', setup_page)
    assert track is not None and f"table={table}" in track.group(1).replace("&amp;", "&")
    form_page = client.get(track.group(1).replace("&amp;", "&")).content.decode()
    assert f'name="table" value="{table}"' in form_page
    players = {"name-0": "Anaïs", "colour-0": "red", "name-1": "Ben", "colour-1": "blue", "name-2": "Chie"}
    players["colour-2"] = "green"
    response = client.post("/games/new/", {**players, "akebono": "1", "seed": "K7MX2QPA", "table": table})
    assert response.status_code == 302
    assert Game.objects.get().ticks == ["general-board"]
    forged = client.post("/games/new/", {**players, "seed": "K7MX2QPA", "table": "A" * 30})
    assert forged.status_code == 302
    assert Game.objects.order_by("-pk").first().ticks == []  # type: ignore[union-attr]


def test_a_second_phone_tracking_the_same_setup_page_joins_its_game(client: Client) -> None:
    """Two phones of one table tap "Track this game" on the setup page: one game, not two (the table would be split
    between two games, each with half the taps); the setup page then opens that game and says its steps are
    ticked there."""
    from companion.setup_query import new_table

    table = new_table()
    query = f"players=2&seed=K7MX2QPA&table={table}"
    form = {"name-0": "Anaïs", "colour-0": "red", "name-1": "Ben", "colour-1": "blue", "seed": "K7MX2QPA"}
    first = client.post("/games/new/", {**form, "table": table})
    client.post(f"/setup/ticks?{query}", {"step": "general-board", "done": "general-board"})
    second = client.post("/games/new/", {**form, "name-0": "Ben", "name-1": "Anaïs", "table": table})
    game = Game.objects.get()
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == f"/games/{game.edit_token}/share"
    # A phone whose setup page was opened before the game was made follows its old "Track this game" link.
    track = client.get(f"/games/new/?{query}&name=Ben&name=Ana%C3%AFs")
    assert track.status_code == 302 and track["Location"] == f"/games/{game.edit_token}/"
    page = client.get(f"/setup/game?{query}").content.decode()
    assert f'href="/games/{game.edit_token}/"' in page and "/games/new/?" not in page
    assert "This setup's game is tracked: tick the remaining steps there." in page
    # Another table playing the same setup code makes its own game.
    client.post("/games/new/", {**form, "table": new_table()})
    assert Game.objects.count() == 2


def test_a_tick_on_the_setup_page_after_tracking_points_to_the_game(client: Client) -> None:
    """A phone still on the setup page ticks a step after another phone made the game: the tick is saved on the
    setup page, and its answer says the game now holds the table's ticks, with the link to it."""
    from html import unescape

    from companion.setup_query import new_table

    table = new_table()
    query = f"players=2&seed=K7MX2QPA&table={table}"
    form = {"name-0": "Anaïs", "colour-0": "red", "name-1": "Ben", "colour-1": "blue", "seed": "K7MX2QPA"}
    before = client.post(
        f"/setup/ticks?{query}", {"step": "general-board", "done": "general-board"}, HTTP_X_LIVE="1"
    )
    assert "tracked" not in before.content.decode()
    client.post("/games/new/", {**form, "table": table})
    game = Game.objects.get()
    after = client.post(
        f"/setup/ticks?{query}", {"step": "general-reserve", "done": "general-reserve"}, HTTP_X_LIVE="1"
    )
    said = unescape(after.content.decode())
    assert after.status_code == 200
    assert "Saved: “Reserve” ticked. This setup's game is tracked: tick the steps in the game" in said
    assert f'<a href="/games/{game.edit_token}/">Open the tracked game</a>' in said


# --- issue 20: a due reveal stays due; "Next" and "End the game" ask first -----------------------------------------


def _next(client: Client, game: Game, *, ask: bool = True, htmx: bool = True) -> Any:
    """The Next button's tap (it asks first: ``ask=1``), or the question's "Go on without" (no ``ask``)."""
    game.refresh_from_db()
    form = {"op": "next", "v": game.version, "was": f"{game.month}{game.phase}"}
    return _change(client, game, htmx=htmx, **form, **({"ask": "1"} if ask else {}))


def _go_to(client: Client, game: Game, month: int, phase: str) -> None:
    """Move on without revealing anything (the answer "Go on without" every time)."""
    game.refresh_from_db()
    while (game.month, game.phase) != (month, phase):
        assert _next(client, game, ask=False).status_code == 200
        game.refresh_from_db()


@pytest.mark.parametrize("htmx", [True, False])
def test_next_asks_first_when_a_reveal_is_due_and_moves_only_when_told(client: Client, htmx: bool) -> None:
    """RULINGS R18: the New Character is revealed at its month's start; "Next" asks before leaving it unrevealed,
    writes nothing by asking, and answers the question on the page itself (a plain form page without JS)."""
    game = _game(players=3, akebono=True)
    asked = _next(client, game, htmx=htmx)
    assert asked.status_code == 200  # a question, not a redirect: nothing was saved
    html = asked.content.decode()
    assert "The New Character of month 1 is not revealed yet: reveal it now?" in html
    assert 'id="ask-reveal"' in html and 'id="ask-go-on"' in html and "Go on without" in html
    assert ('id="next"' in html) is False  # the question stands where the Next button was
    assert ("<html" in html) is not htmx  # the partial with JS, the whole page without
    game.refresh_from_db()
    assert (game.month, game.phase, game.version) == (1, "A", 1)
    went = _next(client, game, ask=False, htmx=htmx)
    assert went.status_code == (200 if htmx else 302)
    game.refresh_from_db()
    assert (game.month, game.phase) == (1, "B")


def test_a_missed_reveal_stays_offered_in_every_later_step_until_revealed(client: Client) -> None:
    """Issue 20: tapped past its phase, a reveal stays under "Now", marked with the month it fell due, on every
    later step; "Next" keeps asking; the fold's words are true; the month 4 bridge is reachable."""
    from scoring.catalogue import CHARACTER_BY_ID, PERSONALITY_BY_ID

    game = _game(players=3, akebono=True)
    summer = [PERSONALITY_BY_ID[p].name for p in game.setup["akebono"]["personalities"]["summer"]]
    month1 = CHARACTER_BY_ID[game.setup["akebono"]["new_characters"]["1"]].name

    def html(token: str) -> str:
        return client.get(f"/games/{token}/").content.decode()

    _go_to(client, game, 1, "B")
    page = html(game.edit_token)
    now = page.split('aria-label="Now"')[1].split("</ul>")[0]
    assert 'id="reveal-new-character-1"' in now and "due since month 1" in now
    fold = page.split("The whole month")[1]
    assert 'Hidden until a player reveals it (under "Now")' in fold and 'id="reveal-' not in fold
    view = html(game.view_token)
    assert "due since month 1" in view and 'id="reveal-' not in view and month1 not in view
    _go_to(client, game, 4, "A")
    page = html(game.edit_token)
    assert 'id="reveal-season-summer"' in page and 'id="due-since-season-summer">due since month 3' in page
    assert 'id="bridge-hidden"' in page and not any(name in html(game.view_token) for name in summer)
    _go_to(client, game, 5, "B")  # two months later: still offered, and Next still asks
    page = html(game.edit_token)
    assert 'id="reveal-season-summer"' in page and 'id="reveal-new-character-1"' in page
    question = _next(client, game).content.decode()
    assert "the Summer personalities and river tokens" in question and "Reveal them now?" in question
    keys = question.split('name="key" value="')[1].split('"')[0].split()
    assert {"season-summer", "new-character-1", "new-character-5"} <= set(keys)
    assert _change(client, game, op="reveal", key=" ".join(keys)).status_code == 200
    page = html(game.view_token)
    assert all(name in page for name in summer) and month1 in page  # shown on every phone, where it was due
    assert "On the Nihonbashi bridge:</strong> " + ", ".join(summer) in page
    assert _next(client, game).status_code == 200
    game.refresh_from_db()
    assert (game.month, game.phase) == (5, "C")  # nothing left to ask: Next moved on
    page = html(game.edit_token)
    assert "due since" not in page.split('aria-label="Now"')[1].split("</ul>")[0]
    assert month1 not in html(game.view_token)  # shown during the step it was revealed in only
    assert _change(client, game, op="undo", v=game.version).status_code == 200  # undo the Next
    game.refresh_from_db()
    assert _change(client, game, op="undo", v=game.version).status_code == 200  # undo the reveal: all hidden
    assert not any(name in html(game.view_token) for name in summer)
    log = client.get(f"/games/{game.view_token}/log").content.decode()
    assert f"Undid: Revealed the {len(keys)} draws that were due (by a phone in month 5)" in log
    assert summer[0] not in log and month1 not in log  # the log names the reveals, never a secret


@pytest.mark.parametrize("htmx", [True, False])
def test_end_the_game_asks_once_and_says_it_can_be_reopened(client: Client, htmx: bool) -> None:
    game = _game(players=2, akebono=False)
    _go_to(client, game, 13, "new-year")
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert 'id="next"' in page and "End the game</button>" in page
    asked = _next(client, game, htmx=htmx).content.decode()
    assert "End the game now?" in asked and "reopens the game" in asked
    assert "The blocking tile of month 1" in asked  # nothing was revealed all game: asked once, together
    assert 'id="ask-go-on"' in asked and ">End the game</button>" in asked
    game.refresh_from_db()
    assert not game.finished
    assert _next(client, game, ask=False, htmx=htmx).status_code == (200 if htmx else 302)
    game.refresh_from_db()
    assert game.finished
    assert _change(client, game, op="undo", v=game.version).status_code == 200
    game.refresh_from_db()
    assert not game.finished and game.month == 13  # reopened, as the question said


def test_at_new_year_with_every_draw_revealed_next_asks_only_whether_to_end(client: Client) -> None:
    """Issue 20: with nothing left to reveal, the question at New Year's Day is the end alone."""
    from scoring.calendar import due_reveals

    game = _game(players=2, akebono=False)
    _go_to(client, game, 13, "new-year")
    game.refresh_from_db()
    due = due_reveals(game.month, game.phase_enum, game.options, game.setup)
    Game.objects.filter(pk=game.pk).update(revealed=sorted(set(game.revealed) | set(due)))
    asked = _next(client, game).content.decode()
    assert 'id="next-ask-question"' in asked and 'id="ask-go-on"' in asked
    question = asked.split('id="next-ask-question"')[1].split(">", 1)[1].split("<", 1)[0]
    assert (
        question
        == "End the game now? The tracks close for the scoring; &quot;Undo last&quot; reopens the game."
    )
    game.refresh_from_db()
    assert not game.finished


def test_a_stale_next_is_a_conflict_not_a_question(client: Client) -> None:
    game = _game(players=3, akebono=True)
    _next(client, game, ask=False)
    stale = _change(client, game, op="next", ask="1", v=1, was="1A")
    assert stale.status_code == 409 and "ask-go-on" not in stale.content.decode()


def test_the_seed_shows_only_on_edit_links_until_the_game_ends(client: Client) -> None:
    """The seed regenerates every hidden draw (issue 20): a view-only page, partial, poll, share page or log
    never prints it before the game ends; the edit page does."""
    game = _game(players=2, akebono=True)
    seed = game.seed
    assert seed and seed in client.get(f"/games/{game.edit_token}/").content.decode()
    views = [
        f"/games/{game.view_token}/",
        f"/games/{game.view_token}/state",
        f"/games/{game.view_token}/share",
        f"/games/{game.view_token}/log",
    ]
    for url in views:
        for headers in ({}, HX):
            assert seed not in client.get(url, **headers).content.decode(), url
    _go_to(client, game, 13, "new-year")
    assert seed not in client.get(f"/games/{game.view_token}/").content.decode()
    _next(client, game, ask=False)
    assert seed in client.get(f"/games/{game.view_token}/").content.decode()  # the game is over


@pytest.mark.parametrize("htmx", [True, False])
def test_removing_a_recorded_entry_asks_once(client: Client, htmx: bool) -> None:
    game = _game(players=3, akebono=False)
    assert _change(client, game, op="record-add", seat=1, field="characters", key="monk").status_code == 200
    page = client.get(f"/games/{game.edit_token}/").content.decode()
    assert 'aria-label="Remove Monk from Anaïs"' in page and 'name="ask" value="1"' in page
    form = {"op": "record-remove", "seat": 1, "field": "characters", "key": "monk"}
    asked = _change(client, game, htmx=htmx, ask="1", **form)
    html = asked.content.decode()
    assert asked.status_code == 200 and 'id="remove-ask"' in html and "Remove Monk from Anaïs?" in html
    assert 'id="record-seat-1" open' in html  # without JS the question is not folded away
    assert game.seats.get(seat=1).record == {"characters": ["monk"]}  # asking writes nothing
    assert _change(client, game, htmx=htmx, **form).status_code == (200 if htmx else 302)
    assert not game.seats.get(seat=1).record.get("characters")
    gone = _change(client, game, ask="1", **form)  # asked about an entry another phone removed: said so
    assert gone.status_code == 400 and "another phone removed it" in gone.content.decode()


def test_a_reveal_of_several_keys_skips_those_revealed_meanwhile(client: Client) -> None:
    """The question's Reveal names every due key; one another phone revealed meanwhile is skipped, not refused;
    all revealed already is refused; a key not due yet refuses the whole tap."""
    game = _game(players=2, akebono=True)
    assert _change(client, game, op="reveal", key="blocking-tile-1").status_code == 200
    both = _change(client, game, op="reveal", key="blocking-tile-1 new-character-1")
    assert both.status_code == 200
    game.refresh_from_db()
    assert game.revealed == ["blocking-tile-1", "new-character-1"]
    log = client.get(f"/games/{game.view_token}/log").content.decode()
    assert "Revealed the New Character of month 1 (by a phone in month 1)" in log
    again = _change(client, game, op="reveal", key="blocking-tile-1 new-character-1")
    assert again.status_code == 400 and "Already revealed" in again.content.decode()
    early = _change(client, game, op="reveal", key="new-character-1 fire-5")
    assert early.status_code == 400 and "revealed yet" in early.content.decode()
    _go_to(client, game, 1, "C")
    pair = _change(
        client, game, op="reveal", key="blocking-tile-1 blocking-tile-1"
    )  # a key twice counts once
    assert pair.status_code == 400
