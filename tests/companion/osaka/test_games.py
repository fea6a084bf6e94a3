"""The tracked Traders of Osaka game through the Django test client (companion/views/osaka/games.py): creating and
sharing, full pages and htmx partials, polling, every write (tokens, the start, paydays, undo of any payday), the
client id that makes a replayed write apply once, stale versions, the view-only link that never writes, each
player's own link with their VP count (RULINGS O6), the end and the ranking, the log and the filled tally sheet;
hypothesis fuzzing of the forms: never a 500."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Sequence
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from companion.models.osaka import OsakaEvent, OsakaGame, OsakaSeat
from companion.services.osaka import NewPlayer, create_game, record

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def text(response: Any) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def _game(n: int = 3) -> OsakaGame:
    players = [NewPlayer("Anaïs", "white"), NewPlayer("David", "pink"), NewPlayer("Dominique", "gray"),
               NewPlayer("Ulric", "tan")]  # fmt: skip
    return create_game(players=players[:n])


def _begin(game: OsakaGame, first: Sequence[str] = ()) -> OsakaGame:
    """The game's start (rulebook "PREPARATION"): David starts (the smallest total, 8), then each player takes a
    first achievement token (``first``: their colours, green unless told): before it no payday is played."""
    game.refresh_from_db()
    n = game.seats.count()
    record(
        game.pk,
        kind="start",
        data={"draws": [[9, 3], [8, 3], [10, 2], [11, 3]][:n]},
        who="t",
        seen=game.version,
    )
    for seat, colour in enumerate(first or ["green"] * n):
        record(game.pk, kind="token", data={"seat": seat, "colour": colour, "delta": 1}, who="t")
    game.refresh_from_db()
    return game


def _url(game: OsakaGame, what: str = "", token: str | None = None) -> str:
    return f"/osaka/games/{token or game.edit_token}/{what}"


def _change(client: Client, game: OsakaGame, htmx: bool = True, token: str | None = None, **form: Any) -> Any:
    return client.post(_url(game, "change", token), form, **(HX if htmx else {}))


def _take(client: Client, game: OsakaGame, seat: int, colour: str, delta: int = 1, **extra: Any) -> Any:
    return _change(client, game, op="token", seat=seat, colour=colour, delta=delta, **extra)


def _payday(
    client: Client, game: OsakaGame, form: dict[str, Any], token: str | None = None, **extra: Any
) -> Any:
    game.refresh_from_db()
    return client.post(_url(game, "payday", token), {"v": game.version, **form}, **extra)


def _seat(game: OsakaGame, n: int) -> OsakaSeat:
    return game.seats.get(seat=n)


# --- creating and sharing -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_new_game_form(client: Client, htmx: bool) -> None:
    response = client.get("/osaka/games/new/", **(HX if htmx else {}))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="new-game"' in page and ("<html" in page) is not htmx
    assert 'name="name1"' in page and '<option value="pink" selected>Pink</option>' in page


def test_create_then_share(client: Client) -> None:
    form = {"name1": " Anaïs ", "trader1": "white", "name2": "David", "trader2": "pink", "name3": "",
            "trader3": "gray", "trader4": "tan"}  # fmt: skip
    response = client.post("/osaka/games/new/", form)
    assert response.status_code == 302
    game = OsakaGame.objects.get()
    assert response["Location"] == f"/osaka/games/{game.edit_token}/share"
    assert [(s.name, s.trader) for s in game.seats.all()] == [("Anaïs", "white"), ("David", "pink")]
    tokens = [game.edit_token, game.view_token, *[s.private_token for s in game.seats.all()]]
    assert len(set(tokens)) == 4 and all(len(t) >= 24 for t in tokens)  # 18 random bytes: 144 bits
    share = client.get(response["Location"]).content.decode()
    assert share.count("<svg") == 4  # edit, view, and each player's own link
    assert all(t in share for t in tokens)
    viewer = client.get(_url(game, "share", game.view_token)).content.decode()
    assert viewer.count("<svg") == 1 and game.edit_token not in viewer and "own link" not in viewer


def test_create_with_htmx_redirects_by_header(client: Client) -> None:
    response = client.post("/osaka/games/new/", {"name1": "A", "trader1": "white", "name2": "B", "trader2": "tan"},
                           **HX)  # fmt: skip
    assert response.status_code == 204 and response["HX-Redirect"].endswith("/share")


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"name1": "A", "trader1": "white"}, "give a name"),
        (
            {"name1": "A", "trader1": "white", "name2": "a", "trader2": "pink"},
            "Give each player a different name.",
        ),
        (
            {"name1": "A", "trader1": "white", "name2": "B", "trader2": "white"},
            "Give each player a different colour",
        ),
        ({"name1": "A" * 25, "trader1": "white", "name2": "B", "trader2": "pink"}, "at most 24 characters"),
        (
            {"name1": "A", "trader1": "purple", "name2": "B", "trader2": "pink"},
            "choose one of the offered values",
        ),
    ],
)
def test_create_refuses_bad_input(client: Client, form: dict[str, str], message: str) -> None:
    response = client.post("/osaka/games/new/", form)
    assert response.status_code == 400 and message in text(response)
    assert not OsakaGame.objects.exists()


# --- the page and the poll ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_game_page(client: Client, htmx: bool) -> None:
    game = _game()
    response = client.get(_url(game), **(HX if htmx else {}))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    page = response.content.decode()
    assert ('<div id="state"' in page) and ("<html" in page) is not htmx
    assert 'id="start-form"' in page and 'id="enter-payday"' in page
    assert f'data-live-pull="/osaka/games/{game.edit_token}/state"' in page
    assert f'data-live-stream="/live/osaka/{game.edit_token}"' in page


@pytest.mark.parametrize("token", ["nope", "x" * 30, "a" * 200, "%00"])
def test_unknown_tokens_are_404(client: Client, token: str) -> None:
    for what in ("", "state?v=1", "log", "share", "sheet.pdf"):
        assert client.get(f"/osaka/games/{token}/{what}").status_code == 404
    assert client.post(f"/osaka/games/{token}/change", {"op": "token"}).status_code == 404
    game = _game()  # a real token answers each of them
    for what in ("", "log", "share", "sheet.pdf"):
        assert client.get(f"/osaka/games/{game.edit_token}/{what}").status_code == 200


def test_the_poll_answers_204_until_the_game_changes(client: Client) -> None:
    game = _game()
    for token in (game.edit_token, game.view_token, _seat(game, 2).private_token):
        assert client.get(_url(game, f"state?v={game.version}", token)).status_code == 204
    _take(client, game, 1, "red")
    response = client.get(_url(game, f"state?v={game.version}"))
    assert response.status_code == 200 and response.content.decode().startswith('<div id="state"')
    assert client.get(_url(game, "state?v=x1")).status_code == 400
    assert client.get(_url(game, "state")).status_code == 200


# --- writes -------------------------------------------------------------------------------------------------------


def test_tokens(client: Client) -> None:
    game = _game()
    response = _take(client, game, 1, "red")
    assert response.status_code == 200 and '<div id="state"' in response.content.decode()
    assert _seat(game, 1).red == 1
    response = _change(client, game, htmx=False, op="token", seat=2, colour="blue", delta=1)
    # without JavaScript: back at the seat tapped, not at the top of the page (a seat far down the page)
    assert response.status_code == 302 and response["Location"] == _url(game) + "#seat-2"
    refused = _take(client, game, 3, "green", -1)
    assert refused.status_code == 400 and "Dominique has no green token to give back." in text(refused)
    assert game.events.count() == 3  # create, two tokens: nothing saved by the refusal


def test_a_replayed_write_applies_once(client: Client) -> None:
    game = _game()
    for _ in range(3):
        assert _take(client, game, 1, "red", cid="tap-0001-red").status_code == 200
    assert _seat(game, 1).red == 1 and game.events.filter(kind="token").count() == 1
    _take(client, game, 1, "red", cid="tap-0002-red")
    assert _seat(game, 1).red == 2


def test_the_view_only_link_never_writes(client: Client) -> None:
    game = _game()
    for path, form in (("change", {"op": "token", "seat": 1, "colour": "red", "delta": 1}),
                       ("payday", {"edo1": "red", "v": 1}), ("renew", {"seat": 1})):  # fmt: skip
        response = client.post(_url(game, path, game.view_token), form, **HX)
        assert response.status_code == 403
        assert "This is the view-only link: it cannot change the game." in text(response)
    assert client.get(_url(game, "payday", game.view_token)).status_code == 403
    assert game.events.count() == 1 and _seat(game, 1).red == 0
    page = client.get(_url(game, token=game.view_token)).content.decode()
    assert 'id="view-only"' in page and "<form" not in page.split('<div id="state"')[1].split("</main>")[0]


def test_a_players_own_link_writes_as_that_player(client: Client) -> None:
    game = _game()
    david = _seat(game, 2)
    response = _take(client, game, 2, "yellow", token=david.private_token)
    assert response.status_code == 200
    assert game.events.first().who == "David"  # type: ignore[union-attr]
    assert client.get(_url(game, token=david.private_token)).status_code == 200
    assert _seat(game, 2).private_opened is not None
    share = client.get(_url(game, "share")).content.decode()
    assert david.private_token not in share and _seat(game, 1).private_token in share


def test_unknown_or_bad_changes_are_400(client: Client) -> None:
    game = _game()
    assert _change(client, game, op="explode").status_code == 400
    bad = _change(client, game, op="token", seat=9, colour="purple", delta=3)
    assert bad.status_code == 400 and "Check the form" in text(bad)
    assert _change(client, game, op="undo", target="x").status_code == 400
    assert _change(client, game, op="undo", target=1).status_code == 400  # the creation is not undone
    assert game.events.count() == 1


def _draws(game: OsakaGame, *hands: tuple[int, int], **extra: Any) -> dict[str, Any]:
    form: dict[str, Any] = {"op": "start", "v": game.version, **extra}
    for i, (total, cards) in enumerate(hands, start=1):
        form[f"total{i}"], form[f"cards{i}"] = total, cards
    return form


def test_the_start_player(client: Client) -> None:
    game = _game()
    stale = _change(client, game, **_draws(game, (9, 3), (8, 3), (8, 2), v=game.version + 5))
    assert stale.status_code == 409 and "Someone changed the game first" in text(stale)
    # the live page's note says it, with its buttons: the pieces do not say it again at the top of the page
    live = client.post(
        f"/osaka/games/{game.edit_token}/change",
        {**_draws(game, (9, 3), (8, 3), (8, 2), v=game.version + 5), "lc": "phone1234", "ln": 1},
        HTTP_X_LIVE="1",
    )
    assert live.status_code == 409 and "changed the game first" not in live.content.decode()
    response = _change(client, game, **_draws(game, (9, 3), (8, 3), (8, 2)))
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.start_seat == 3
    page = text(response)
    assert (
        "Dominique starts: David and Dominique drew the smallest total (8); Dominique did it with the fewest cards (2)."
        in page
    )
    assert (
        "Clockwise from Dominique, each player takes one achievement token of their choice: Dominique Anaïs David"
        in page
    )


def test_a_hand_that_cannot_be_drawn_is_refused(client: Client) -> None:
    game = _game()
    response = _change(client, game, **_draws(game, (9, 2), (8, 3), (8, 2)))
    assert response.status_code == 400 and "Anaïs: 2 cards making 9 is not a hand drawn" in text(response)
    game.refresh_from_db()
    assert game.start_seat is None


# --- paydays ------------------------------------------------------------------------------------------------------

RED = {"edo1": "red", "sunk": "blue", "p0-goods_red_5": 1, "p0-goods_red_2": 2, "p1-goods_blue_3": 2,
       "p1-insurance_blue_2": 1, "p2-goods_red_3": 1, "p2-goods_blue_5": 1}  # fmt: skip


def test_the_payday_form_and_its_preview(client: Client) -> None:
    game = _game()
    _take(client, game, 1, "red")
    page = client.get(_url(game, "payday"))
    assert page.status_code == 200 and 'method="post"' in page.content.decode()
    # Without JavaScript, "Work it out" shows the chosen ships' fields and the answer; it records nothing.
    assert f'formmethod="get" formaction="/osaka/games/{game.edit_token}/payday"' in page.content.decode()
    plain = client.get(_url(game, "payday"), RED)
    assert "Anaïs 4 +1 0" in text(plain) and not game.events.filter(kind="payday").exists()
    preview = client.get(_url(game, "payday"), RED, HTTP_HX_TARGET="osaka-result", **HX)
    body = text(preview)
    assert preview.status_code == 200 and "Anaïs 4 +1 0" in body  # (5 + 1 token) x 3 = 18 -> 20
    assert "Dominique 1 +1 1" in body  # a red 3 sold; the uninsured blue 5 sunk
    structure = client.get(_url(game, "payday"), {"edo1": "green"}, HTTP_HX_TARGET="osaka-calc", **HX)
    assert (
        'name="p0-goods_green_2"' in structure.content.decode() and "<html" not in structure.content.decode()
    )
    assert game.events.count() == 2  # looking records nothing


def test_recording_a_payday(client: Client) -> None:
    game = _begin(_game())
    _take(client, game, 1, "red")
    response = _payday(client, game, {**RED, "cid": "payday-0001"})
    assert response.status_code == 302 and response["Location"] == _url(game) + "#latest"
    again = _payday(client, game, {**RED, "cid": "payday-0001"})  # the same write sent again
    assert again.status_code == 302 and game.events.filter(kind="payday").count() == 1
    assert [(s.red, s.vp) for s in game.seats.all()] == [(2, 4), (0, 0), (1, 1)]
    page = text(client.get(_url(game)))
    assert (
        "Payday just now Payday: red; sunk: blue. Tokens: Anaïs +1 red, Dominique +1 red. Lost to the Black Tide: Dominique blue 1."
        in page
    )
    assert "take 2, 2, 5 and 1 from the draw pile" in page
    htmx = _payday(client, game, {**RED, "cid": "payday-0002"}, **HX)
    assert htmx.status_code == 204 and htmx["HX-Redirect"].endswith("#latest")


def test_a_payday_before_the_start_is_refused(client: Client) -> None:
    """RULINGS O7: each player starts with 1 token, taken once the start player is chosen ("PREPARATION"); a
    payday entered before is refused and nothing is saved (it was recorded before)."""
    game = _game()
    response = _payday(client, game, {**RED, "cid": "payday-early"})
    assert response.status_code == 400 and "the game has not started yet" in text(response)
    game.refresh_from_db()
    assert _change(client, game, **_draws(game, (9, 3), (8, 3), (10, 2))).status_code == 200
    for seat in (1, 2):
        _take(client, game, seat, "green")
    refused = _payday(client, game, {**RED, "cid": "payday-early2"})  # Dominique has no token yet
    assert refused.status_code == 400 and "each player takes a first achievement token" in text(refused)
    assert not game.events.filter(kind="payday").exists()
    _take(client, game, 3, "green")
    assert _payday(client, game, {**RED, "cid": "payday-now"}).status_code == 302


def test_a_payday_entered_on_two_phones_counts_once(client: Client) -> None:
    game = _begin(_game())
    seen = game.version
    assert client.post(_url(game, "payday"), {**RED, "v": seen, "cid": "phone-one-1"}).status_code == 302
    second = client.post(_url(game, "payday"), {**RED, "v": seen, "cid": "phone-two-1"}, **HX)
    assert second.status_code == 409 and "A red payday was just recorded by the table's phone." in text(
        second
    )
    assert game.events.filter(kind="payday").count() == 1


GREEN = {"edo1": "green", "p1-goods_green_5": 2}  # David: (5 + 1 token) x 2 = 12 -> 15: 3 VP, +1 green token


def _tokens_now(page: str) -> str:
    found = re.search(r'<p[^>]* id="tokens-now"[^>]*>.*?</p>', page, re.S)
    assert found is not None, "no Tokens now line"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group())).split())


@pytest.mark.parametrize("htmx", [False, True])
def test_a_payday_recorded_meanwhile_is_said_beside_the_button_and_not_rearmed(
    client: Client, htmx: bool
) -> None:
    """The table's phone and Anaïs's own link enter the same payday: the second gets a 409 that says, beside the
    button she just tapped, what was recorded meanwhile, shows the tokens as they are now, and records hers only
    when she chooses to ("Record mine too"); the form she sent, sent again, still counts once."""
    game = _begin(_game())
    seen, anais = game.version, _seat(game, 1).private_token
    assert client.post(_url(game, "payday"), {**GREEN, "v": seen, "cid": "table-phone-1"}).status_code == 302
    game.refresh_from_db()
    mine = {**GREEN, "v": seen, "cid": "anais-phone-1"}
    answer = client.post(_url(game, "payday", anais), mine, **(HX if htmx else {}))
    page = answer.content.decode()
    assert answer.status_code == 409
    said = re.search(r'<p[^>]* role="alert"[^>]* id="payday-conflict"[^>]*>(.*?)</p>', page, re.S)
    assert said is not None
    assert "A green payday was just recorded by the table's phone." in html.unescape(said.group(1))
    # Beside the button, after the preview: where the thumb is.
    assert page.index('id="osaka-result"') < said.start() < page.index('id="record-mine"')
    assert ">Record this payday<" not in page and 'id="work-it-out"' not in page  # no button armed as before
    assert 'name="v" value="' + str(game.version) + '"' in page  # only on "Record mine too"
    assert page.count('name="v"') == 1
    assert f'href="{_url(game, token=anais)}#latest"' in page  # drop it: back to the game
    # his green token from the payday just recorded; each colour named for a screen reader, the sum said as one
    assert "David: Green 2, 2 in all" in _tokens_now(page)
    assert ('hx-swap-oob="true"' in page) == htmx  # outside the form htmx swaps
    assert (
        f'action="{_url(game, "payday", anais)}#record"' in page
    )  # a plain form's answer opens at the button
    again = client.post(_url(game, "payday", anais), mine, **(HX if htmx else {}))  # the same tap again
    assert again.status_code == 409 and game.events.filter(kind="payday").count() == 1
    too = client.post(_url(game, "payday", anais), {**mine, "v": game.version}, **(HX if htmx else {}))
    assert too.status_code == (204 if htmx else 302) and game.events.filter(kind="payday").count() == 2


def test_a_payday_after_a_game_ending_one_recorded_meanwhile_is_only_dropped(client: Client) -> None:
    game = _begin(_game(), first=["red", "green", "green"])
    for colour in ("blue", "yellow", "green", "red", "blue", "yellow"):
        _take(client, game, 1, colour)  # Anaïs at 7 tokens: her red sale ends the game
    game.refresh_from_db()
    ending = {"edo1": "red", "p0-goods_red_3": 1, "v": game.version}
    assert client.post(_url(game, "payday"), {**ending, "cid": "table-phone-1"}).status_code == 302
    answer = client.post(
        _url(game, "payday", _seat(game, 2).private_token), {**ending, "cid": "david-phone-1"}
    )
    assert answer.status_code == 409 and 'id="record-mine"' not in answer.content.decode()
    assert (
        "A red payday was just recorded by the table's phone. Yours was not saved. The game is over."
        in text(answer)
    )


@pytest.mark.parametrize(
    ("change", "status", "message"),
    [
        ({"sunk": ["blue", "red"]}, 400, "The red ship cannot reach Edo and sink at once"),
        ({"p0-goods_red_2": "-2"}, 400, "Ensure this value is greater than or equal to 0."),
        ({"edo1": ""}, 400, "Choose the ship that reached Edo."),
        (
            {"edo1": "green", "sunk": []},
            400,
            "No one sells or loses anything in this payday: enter the goods first.",
        ),
        ({"v": "x"}, 400, "Reload the page."),
    ],
)
def test_a_payday_refused(client: Client, change: dict[str, Any], status: int, message: str) -> None:
    game = _begin(_game())
    response = client.post(_url(game, "payday"), {**RED, "v": game.version, **change})
    assert response.status_code == status and message in text(response)
    assert not game.events.filter(kind="payday").exists()


def test_undo_any_payday_replays_the_later_ones(client: Client) -> None:
    game = _begin(_game())
    _payday(client, game, {"edo1": "red", "p0-goods_red_5": 1})  # Anaïs: 5 -> 1 VP, +1 red token
    _payday(client, game, {"edo1": "red", "p0-goods_red_5": 2})  # Anaïs: (5 + 1) x 2 = 12 -> 15: 3 VP
    assert _seat(game, 1).vp == 4
    first = game.events.filter(kind="payday").order_by("version").first()
    assert first is not None
    response = _change(client, game, op="undo", target=first.version)
    assert response.status_code == 200
    assert (_seat(game, 1).vp, _seat(game, 1).red) == (2, 1)  # the second payday again, without the token: 10
    assert "Undid: Payday: red. Tokens: Anaïs +1 red." in text(response)
    _change(client, game, op="undo", target=first.version)  # restore
    assert _seat(game, 1).vp == 4 and not OsakaEvent.objects.get(pk=first.pk).undone


def test_take_your_vp_cards_only_for_a_payday_just_played(client: Client) -> None:
    """RULINGS O8: the page shows the payday just played, to take its VP cards; an undo plays none, so the payday
    before the one undone is not shown again (its VP cards were taken already), nor after a restore."""
    game = _begin(_game())
    _payday(client, game, {"edo1": "red", "p0-goods_red_5": 1})
    assert "Payday just now" in text(client.get(_url(game)))
    _payday(client, game, {"edo1": "blue", "p1-goods_blue_5": 1})
    second = game.events.first()
    assert second is not None and "Payday: blue" in text(client.get(_url(game)))
    undone = _change(client, game, op="undo", target=second.version)
    assert undone.status_code == 200 and "Take your VP cards now" not in text(undone)
    for token in (game.edit_token, game.view_token, _seat(game, 1).private_token):
        assert 'id="latest"' not in client.get(_url(game, token=token)).content.decode()
    _change(client, game, op="undo", target=second.version)  # restored: not played now either
    assert "Take your VP cards now" not in text(client.get(_url(game)))
    _payday(client, game, {"edo1": "red", "p2-goods_red_5": 1})  # a payday played: shown again
    assert "Payday just now Payday: red. Tokens: Dominique +1 red." in text(client.get(_url(game)))


def test_an_undone_game_ending_payday_names_only_the_payday_held(client: Client) -> None:
    """RULINGS O7: red ends the game (Anaïs's 8th token), so the yellow payday entered with it never happens; the
    log's line of it undone (its ships, without what it gave) names red alone, and keeps doing so when a later
    undo plays the log again, and so does the line of its restore."""
    game = _begin(_game(), first=["red", "green", "green"])
    for colour in ("blue", "yellow", "green", "red", "blue", "yellow"):
        _take(client, game, 1, colour)  # Anaïs at 7 tokens
    took = game.events.first()
    _payday(client, game, {"edo1": "red", "edo2": "yellow", "p0-goods_red_3": 1, "p1-goods_yellow_5": 3})
    payday = game.events.first()
    assert took is not None and payday is not None
    assert payday.summary == "Payday: red. Tokens: Anaïs +1 red. The game ends here."
    _change(client, game, op="undo", target=payday.version)
    assert game.events.get(pk=payday.pk).summary == "Payday: red"
    for _ in range(2):  # a token taken before it, undone and restored: the log is played again from there
        _change(client, game, op="undo", target=took.version)
        assert game.events.get(pk=payday.pk).summary == "Payday: red"
    _change(client, game, op="undo", target=payday.version)  # restored
    assert [e.summary for e in game.events.all()[:2]] == [
        "Restored: Payday: red",
        "Restored: Anaïs took a yellow token",
    ]
    assert game.events.get(pk=payday.pk).summary == "Payday: red. Tokens: Anaïs +1 red. The game ends here."
    assert "red and yellow" not in text(client.get(_url(game, "log")))


def test_the_end_the_ranking_and_vp_kept_secret_until_then(client: Client) -> None:
    game = _begin(_game(), first=["red", "green", "green"])
    for colour in ("blue", "yellow", "green", "red", "blue", "yellow"):
        _take(client, game, 1, colour)  # Anaïs at 7 tokens
    _payday(client, game, {"edo1": "green", "p1-goods_green_5": 2})  # David: (5 + 1) x 2 = 12 -> 15: 3 VP
    anais, david = _seat(game, 1), _seat(game, 2)
    for token in (game.edit_token, game.view_token, david.private_token):
        page = client.get(_url(game, token=token)).content.decode()
        assert 'id="my-vp"' not in page or token == david.private_token
        assert "final-vp" not in page
    mine = client.get(_url(game, token=david.private_token)).content.decode()
    assert re.search(r'id="my-vp">3<', mine)
    assert 'id="my-vp">0<' in client.get(_url(game, token=anais.private_token)).content.decode()
    # A two-ship moment: yellow ends the game (Anaïs's 8th token), so the red payday does not happen.
    response = _payday(client, game, {"edo1": "yellow", "edo2": "red", "p0-goods_yellow_3": 1,
                                      "p1-goods_red_5": 3}, **HX)  # fmt: skip
    assert response.status_code == 204
    game.refresh_from_db()
    assert game.finished
    assert (
        game.end
        == "The game ends after the yellow payday: Anaïs has 8 or more achievement tokens. Nothing after it happens: no red payday."
    )
    page = client.get(_url(game, token=game.view_token))
    body = text(page)
    assert "Game over" in body and "Place Player VP cards Tokens 1 David 3 2 2 Anaïs 1 8" in body
    assert _payday(client, game, {"edo1": "red", "p1-goods_red_5": 1}).status_code == 400  # no more paydays
    assert "Enter a payday" not in body


def test_the_tie_break_in_words(client: Client) -> None:
    game = _begin(_game(2), first=["red", "red"])
    for colour in ("blue", "yellow", "green", "red", "blue", "yellow"):
        _take(client, game, 1, colour)
    _payday(client, game, {"edo1": "green", "p0-goods_green_2": 1, "p1-goods_green_3": 1})  # 1 VP each
    body = text(client.get(_url(game)))
    assert (
        "Anaïs: Tied with David on 1 VP; more achievement tokens rank first (Anaïs 8, David 2), so Anaïs is 1st."
        in body
    )


# --- log, links, sheet --------------------------------------------------------------------------------------------


def test_the_log_never_shows_vp(client: Client) -> None:
    game = _begin(_game())
    _payday(client, game, {"edo1": "red", "p0-goods_red_5": 3})
    log = client.get(_url(game, "log", game.view_token))
    assert log.status_code == 200
    body = text(log)
    assert "Payday: red. Tokens: Anaïs +1 red." in body and "VP card" not in body
    assert 'id="undo-' not in log.content.decode()  # view only
    assert 'id="undo-' in client.get(_url(game, "log")).content.decode()


def test_a_lost_own_link_is_replaced_and_logged(client: Client) -> None:
    game = _game()
    old = _seat(game, 2).private_token
    response = client.post(_url(game, "renew"), {"seat": 2})
    assert response.status_code == 302
    assert client.get(_url(game, token=old)).status_code == 404
    assert client.get(_url(game, token=_seat(game, 2).private_token)).status_code == 200
    assert game.events.first().summary == "David's own link was replaced"  # type: ignore[union-attr]
    assert client.post(_url(game, "renew", _seat(game, 1).private_token), {"seat": 2}).status_code == 403
    assert client.post(_url(game, "renew"), {"seat": 9}).status_code == 400


def test_the_filled_tally_sheet(client: Client) -> None:
    game = _begin(_game())
    _payday(client, game, {"edo1": "red", "p0-goods_red_5": 3})
    during = client.get(_url(game, "sheet.pdf"))
    assert during.status_code == 200 and during["Content-Type"] == "application/pdf"
    text_ = " ".join(PdfReader(io.BytesIO(during.content)).pages[0].extract_text().split())
    assert "Anaïs 1 0 0 1 2" in text_ and "VP counts stay secret until the end" in text_
    refused = client.get(_url(game, "sheet.pdf?size=a3"))
    assert refused.status_code == 400 and refused["Content-Type"].startswith("text/html")  # the error page
    assert "No such tally sheet: size is a4 or letter." in refused.content.decode()


# --- fuzzing ------------------------------------------------------------------------------------------------------

values = st.one_of(
    st.text(max_size=6), st.sampled_from(["", "1", "-1", "0", "9", "red", "purple", "2", "12", "1e3"])
)
change_fields = st.sampled_from(["op", "seat", "colour", "delta", "target", "cid", "v", "total1", "cards1",
                                 "total2", "cards2", "total3", "cards3"])  # fmt: skip
ops = st.sampled_from(["token", "start", "undo", "", "next"])


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(op=ops, form=st.dictionaries(change_fields, values, max_size=8), htmx=st.booleans())
def test_any_change_gets_a_clear_answer(client: Client, op: str, form: dict[str, str], htmx: bool) -> None:
    game = OsakaGame.objects.first() or _game()
    response = _change(client, game, htmx=htmx, **{**form, "op": op})
    assert response.status_code in (200, 302, 400, 409)


payday_fields = st.sampled_from(["edo1", "edo2", "sunk", "v", "cid", "p0-goods_red_2", "p1-goods_red_5",
                                 "p2-insured_blue_3", "p2-insurance_blue_2", "p0-goods_blue_2", "p5-goods_red_2"])  # fmt: skip


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.dictionaries(payday_fields, values, max_size=8), htmx=st.booleans())
def test_any_payday_form_gets_a_clear_answer(client: Client, form: dict[str, str], htmx: bool) -> None:
    game = OsakaGame.objects.first() or _game()
    response = client.post(_url(game, "payday"), form, **(HX if htmx else {}))
    assert response.status_code in (204, 302, 400, 409)
    assert client.get(_url(game, "payday"), form).status_code in (200, 400)


new_fields = st.sampled_from(["name1", "name2", "name3", "name4", "trader1", "trader2", "trader3", "trader4"])


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.dictionaries(new_fields, st.one_of(values, st.sampled_from(["white", "pink", "gray", "tan"]))))
def test_any_new_game_form_gets_a_clear_answer(client: Client, form: dict[str, str]) -> None:
    assert client.post("/osaka/games/new/", form).status_code in (302, 400)
