"""One form for the players on every start page, and what a text or number field accepts (issue 10, items 3 and 5):
one name limit (24, what the PDF pad fits) and the same messages everywhere; control characters and bidi overrides
refused with a message naming the field; digits ``int()`` reads count as their number, look-alikes are refused."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client

from companion.forms import NAME_MAX, PlayersForm, whole_number
from companion.models.games import Change, Game, Seat
from companion.models.scoresheets import ScoreSheet
from companion.scorepad.services import start_sheet
from tests.factories import make_game

pytestmark = pytest.mark.django_db

START_PAGES = {
    "games": ("/games/new/", {}),
    "score": ("/score/", {"edition": "base", "setup_kind": "none"}),
}


def _game(names: tuple[str, ...] = ("Anaïs", "Ben", "Chie"), finished: bool = False) -> Game:
    return make_game(names, finished=finished)


# --- the players' form: a row per rule ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["Solo"], "IKI is played by 2 to 4 players: fill in 2 to 4 names (you gave 1)."),
        (["Aya", "aya"], "Give each player a different name."),
        (["A" * 25, "B"], "Player 1: a name has at most 24 characters (this one has 25)."),
        (["Ann\x00", "B"], "Player 1: the name holds a control character (U+0000) that cannot be shown: type it again."),
        (["A", "B\x1b[31m"], "Player 2: the name holds a control character (U+001B) that cannot be shown: type it again."),
        (["A", "\u202eB"], "Player 2: the name holds a direction-override character (U+202E): type it again without it."),
        (["A", "B\u2066"], "Player 2: the name holds a direction-override character (U+2066): type it again without it."),
        (["\u200b", "B"], "Player 1: a name needs letters or signs a person can see."),
        (["A", "\u3164"], "Player 2: a name needs letters or signs a person can see."),
        (["\u200bAnn", "B"], "Player 1: the name starts with a character that cannot be seen (U+200B): type it again without it."),
        (["Ann", "ANN\u200b"], "Give each player a different name."),
        (["Ann", "An\u2060n"], "Give each player a different name."),
    ],
)  # fmt: skip
@pytest.mark.parametrize("page", sorted(START_PAGES))
def test_every_start_page_refuses_the_same_names_with_the_same_message(
    client: Client, page: str, names: list[str], message: str
) -> None:
    url, extra = START_PAGES[page]
    colours = ("red", "blue", "green", "yellow")
    form = (
        {**extra}
        | {f"name-{i}": n for i, n in enumerate(names)}
        | {f"colour-{i}": colours[i] for i in range(4)}
    )
    response = client.post(url, form)
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Game.objects.exists() and not ScoreSheet.objects.exists()


@pytest.mark.parametrize("page", sorted(START_PAGES))
def test_every_start_page_takes_the_longest_allowed_name_and_folds_tabs_and_newlines(
    client: Client, page: str
) -> None:
    url, extra = START_PAGES[page]
    longest = "Ō" * NAME_MAX
    form = {**extra, "name-0": longest, "colour-0": "red", "name-1": " Ben\tof\nEdo ", "colour-1": "blue"}
    assert client.post(url, form).status_code == 302
    names = (
        [s.name for s in Seat.objects.order_by("seat")] if page == "games" else ScoreSheet.objects.get().names
    )
    assert names == [longest, "Ben of Edo"]


def test_the_start_pages_render_one_form_with_one_limit(client: Client) -> None:
    for url, _ in START_PAGES.values():
        html = client.get(url).content.decode()
        for i in range(4):
            assert f'<label for="name-{i}">' in html
            assert f'id="name-{i}" name="name-{i}"' in html
        assert html.count(f'maxlength="{NAME_MAX}"') == 4


def test_a_colour_not_in_the_list_is_refused_without_echoing_it() -> None:
    form = PlayersForm({"name-0": "A", "colour-0": "x" * 500, "name-1": "B", "colour-1": "blue"})
    assert not form.is_valid()
    assert form.messages() == ["Player 1: choose a colour from the list."]


# --- a tracked game, scored ---------------------------------------------------------------------------------------


def test_a_tracked_game_with_the_longest_names_is_scored(client: Client) -> None:
    names = ("A" * NAME_MAX, "B" * NAME_MAX, "C" * NAME_MAX)
    game = _game(names, finished=True)
    response = client.post(f"/games/{game.edit_token}/end")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.scoresheet is not None
    assert game.scoresheet.names == list(names)


def test_a_game_stored_with_longer_names_opens_the_names_filled_in_never_a_dead_end(client: Client) -> None:
    """Games made when the tracker took 40 characters: the names come filled in and editable."""
    game = _game(finished=True)
    Seat.objects.filter(game=game, seat=1).update(name="Anaïs of the Eastern Sea Road, Nihonbash")
    response = client.post(f"/games/{game.edit_token}/end")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="Anaïs of the Eastern Sea Road, Nihonbash"' in html
    assert "Player 1: a name has at most 24 characters (this one has 40)." in html
    assert not ScoreSheet.objects.exists()
    form = {"confirm-names": "1", "name-0": "Anaïs", "colour-0": "red", "name-1": "Ben", "colour-1": "blue"}
    short = client.post(f"/games/{game.edit_token}/end", form)  # a player left out: 3 seats, 2 names
    assert short.status_code == 400
    assert "This game has 3 players" in short.content.decode()
    response = client.post(f"/games/{game.edit_token}/end", {**form, "name-2": "Chie", "colour-2": "green"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.scoresheet is not None
    assert game.scoresheet.names == ["Anaïs", "Ben", "Chie"]
    assert game.scoresheet.table["players"][0]["score_track"] == 0  # the tracks follow the seats, renamed


# --- the phone's name: form and cookie ----------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["", "A" * 25, "Ann\x00", "\u202eAnn", "\x7f"])
def test_a_bad_phone_name_is_refused_naming_the_field(client: Client, who: str) -> None:
    game = _game()
    response = client.post(f"/games/{game.edit_token}/who", {"who": who})
    assert response.status_code == 400
    assert "This phone&#x27;s name:" in response.content.decode()
    assert "iki_who" not in response.cookies


@pytest.mark.parametrize("cookie", ["Ann%00", quote("\u202eMallory"), "A" * 100, "%07", quote("\x1b[2J")])
def test_a_bad_name_already_in_a_cookie_is_dropped(client: Client, cookie: str) -> None:
    game = _game()
    client.cookies["iki_who"] = cookie
    assert client.get(f"/games/{game.edit_token}/").status_code == 200
    response = client.post(f"/games/{game.edit_token}/change", {"op": "score-add", "seat": "1", "value": "2"})
    assert response.status_code in (200, 302)
    assert Change.objects.filter(game=game).latest("version").who == "a phone"


# --- numbers --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "number"),
    [("7", 7), (" 12 ", 12), ("-3", -3), ("３", 3), ("１２", 12), ("٣", 3), ("۷", 7), ("²", None), ("³", None),
     ("¹", None), ("⑤", None), ("", None), ("1.5", None), ("seven", None), ("9" * 13, None)],
)  # fmt: skip
def test_a_whole_number_is_what_int_reads(typed: str, number: int | None) -> None:
    assert whole_number(typed) == number


@pytest.mark.parametrize("typed", ["²", "³", "¹", "⑤"])
@pytest.mark.parametrize(
    ("step", "form"),
    [
        ("resources", {"p0-mon": "{}", "was-p0-mon": "0"}),
        ("characters", {"op": "add|{}|characters|monk"}),
        ("track", {"op": "bump|{}|score_track|1"}),
        ("track", {"op": "bump|0|score_track|{}"}),
        ("firefighting", {"stack-p0": "{}", "was-stack-p0": ""}),
    ],
)
def test_digit_look_alikes_get_a_400_naming_the_field(
    client: Client, typed: str, step: str, form: dict[str, Any]
) -> None:
    sheet = start_sheet(names=["Anaïs", "Ben"], colours=["red", "blue"], akebono=False)
    sent = {k: v.replace("{}", typed) for k, v in form.items()}
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(f"/score/{sheet.token}/{step}/entry/", sent, **headers)
        assert response.status_code == 400
        html = response.content.decode()
        assert "player number" in html or "enter a whole number" in html
    sheet.refresh_from_db()
    assert sheet.version == 1


def test_full_width_digits_count_as_their_number(client: Client) -> None:
    sheet = start_sheet(names=["Anaïs", "Ben"], colours=["red", "blue"], akebono=False)
    response = client.post(
        f"/score/{sheet.token}/resources/entry/", {"p１-mon": "x", "p0-mon": "１２", "was-p0-mon": "0"}
    )
    assert response.status_code in (200, 302)
    sheet.refresh_from_db()
    assert sheet.table["players"][0]["mon"] == 12
    game = _game()
    client.post(f"/games/{game.edit_token}/change", {"op": "score-add", "seat": "٢", "value": "３"})
    assert Seat.objects.get(game=game, seat=2).score == 3


@pytest.mark.parametrize("typed", ["²", "⑤"])
def test_game_numbers_refuse_look_alikes(client: Client, typed: str) -> None:
    game = _game()
    for form, named in (
        ({"op": "score-add", "seat": typed, "value": "1"}, "The player&#x27;s seat: enter a whole number."),
        ({"op": "score-set", "seat": "1", "value": typed, "v": "1"}, "The number: enter a whole number."),
        ({"op": "score-set", "seat": "1", "value": "3", "v": typed}, "The version: enter a whole number."),
        ({"op": "resources", "seat": "1", "mon": typed, "v": "1"}, "Mon: enter a whole number."),
        ({"op": "score-add", "seat": "1", "value": "1.0"}, "The number: enter a whole number."),
        ({"op": "score-add", "seat": "1", "value": "1000000"}, "The number: enter a whole number."),
    ):
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}, {"HTTP_X_LIVE": "1"}):
            response = client.post(f"/games/{game.edit_token}/change", form, **headers)
            assert response.status_code == 400, form
            assert named in response.content.decode(), form
    assert not Seat.objects.filter(game=game).exclude(score=0).exists()
    game.refresh_from_db()
    assert game.version == 1
    # The same numbers in their own digits are read: the page still answers.
    assert (
        client.post(
            f"/games/{game.edit_token}/change", {"op": "score-add", "seat": "١", "value": "５"}
        ).status_code
        == 302
    )
    assert Seat.objects.get(game=game, seat=1).score == 5


NAMES_OF_ONE_TABLE = {
    "/api/v1/score": lambda a, b: {"players": [{"name": a}, {"name": b}]},
    "/api/v1/osaka/ranking": lambda a, b: {"players": [{"name": a, "vp": 3}, {"name": b, "vp": 4}]},
}


@pytest.mark.parametrize("url", sorted(NAMES_OF_ONE_TABLE))
def test_the_json_api_refuses_an_invisible_name_naming_the_field(client: Client, url: str) -> None:
    body = NAMES_OF_ONE_TABLE[url]("Ann", "\u200bBen")
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "players[1].name"
    assert "U+200B" in response.json()["error"]["message"]


@pytest.mark.parametrize("url", sorted(NAMES_OF_ONE_TABLE))
def test_the_json_api_takes_names_differing_by_invisible_characters_as_one(client: Client, url: str) -> None:
    response = client.post(url, NAMES_OF_ONE_TABLE[url]("Ann", "ANN\u200b"), content_type="application/json")
    assert response.status_code in (400, 422)
    body = response.json()
    field = body["error"]["field"] if "error" in body else body["errors"][0]["field"]
    assert field == "players[1].name"


def test_emoji_and_joined_scripts_stay_allowed(client: Client) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    form = {"name-0": family, "colour-0": "red", "name-1": "می\u200cخواهم", "colour-1": "blue",
            "name-2": "میخواهم", "colour-2": "green"}  # fmt: skip
    assert client.post("/games/new/", form).status_code == 302
    assert [s.name for s in Seat.objects.order_by("seat")] == [family, "می\u200cخواهم", "میخواهم"]


def test_osaka_refuses_an_invisible_name_and_look_alikes(client: Client) -> None:
    form = {"name1": "\u200bAnn", "trader1": "white", "name2": "Ben", "trader2": "pink"}
    refused = client.post("/osaka/games/new/", form)
    assert refused.status_code == 400 and "U+200B" in refused.content.decode()
    alike = client.post("/osaka/games/new/", {**form, "name1": "BEN\u200b"})
    assert alike.status_code == 400 and "Give each player a different name." in alike.content.decode()
