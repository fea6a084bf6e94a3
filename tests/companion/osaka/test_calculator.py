"""The payday calculator (companion/views/osaka/calculator.py) through the Django test client: the full page, the
htmx partials (the answer with each player's box out of band, the whole form), bad input as a 400 with the
message at the field, and hypothesis fuzzing of the form: never a 500. Also the Osaka start page and the home
page offering both games."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.views.osaka.forms import EDO_FIELDS

URL = "/osaka/payday/"
HX = {"HTTP_HX_REQUEST": "true"}

#: Issue 15's example as the form sends it: Ann's yellow 5, 3, 2 with a yellow token; her blue 2, 2, 3 (3 insured)
#: and a blue 2 to insure with; Bo's red 2, 2, 2, 3.
CONTRACT = {
    "players": "2", "edo1": "yellow", "edo2": "red", "sunk": "blue",
    "p0-name": "Ann", "p0-tokens_yellow": "1", "p0-goods_yellow_2": "1", "p0-goods_yellow_3": "1",
    "p0-goods_yellow_5": "1", "p0-goods_blue_2": "2", "p0-goods_blue_3": "1", "p0-insured_blue_3": "1",
    "p0-insurance_blue_2": "1", "p1-name": "Bo", "p1-goods_red_2": "3", "p1-goods_red_3": "1",
}  # fmt: skip


def text(response: Any) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def test_the_empty_calculator(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert '<form id="osaka-calc"' in html and 'method="get"' in html and 'action="/osaka/payday/"' in html
    assert 'hx-get="/osaka/payday/"' in html  # href-like: the GET action works without htmx
    assert html.count('class="card osaka-player"') == 4
    assert "Choose the ship that reached Edo." in text(response)


def test_the_contract_example_worked_out(client: Client) -> None:
    response = client.get(URL, CONTRACT)
    assert response.status_code == 200
    page = text(response)
    assert "4 VP cards" in page and "+1 yellow token" in page
    assert (
        "Yellow: 3 cards, highest (5 + 1 token) × 3 = 18 → 20: 4 VP cards (take 2, 3, 5 and 1 from the draw pile)"
        in page
    )
    assert "Blue sinks: 3 goods; 3 already insured; insurance 2 (2 icons) insures 2, 2; nothing lost" in page
    assert "Red: 4 cards, highest 3 × 4 = 12 → 15: 3 VP cards (take 2, 2, 2; discard 3)" in page
    assert "Ann 4 +1 0" in page and "Bo 3 +1 0" in page  # the whole table's summary


def test_htmx_typing_swaps_the_answer_and_each_player_box(client: Client) -> None:
    response = client.get(URL, CONTRACT, HTTP_HX_TARGET="osaka-result", **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="osaka-result"')
    assert "<html" not in html and 'id="osaka-calc"' not in html
    assert html.count('hx-swap-oob="true"') == 2
    assert 'id="osaka-result-p0"' in html and 'id="osaka-result-p1"' in html


def test_htmx_ships_swap_the_whole_form(client: Client) -> None:
    response = client.get(URL, {**CONTRACT, "edo2": ""}, HTTP_HX_TARGET="osaka-calc", **HX)
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="osaka-calc"') and "<html" not in html
    assert 'name="p0-goods_red_2"' not in html  # the red block is gone with the red ship
    assert 'name="p0-insurance_blue_2"' in html


def test_the_rules_refusing_a_payday_say_why_at_the_player(client: Client) -> None:
    response = client.get(
        URL, {**CONTRACT, "p1-insurance_blue_3": "1", "p1-goods_blue_5": "0"}, HTTP_HX_TARGET="x"
    )
    page = text(response)
    assert response.status_code == 200  # a well-formed form; the rules answer
    assert "The rules do not allow this payday: 0 problems" not in page
    assert "Bo's blue insurance (3: 1 icon) is more than the 0 uninsured goods need" in page  # a warning only
    refused = text(client.get(URL, {**CONTRACT, "sunk": ["blue", "red"]}))
    assert "The red ship cannot reach Edo and sink at once" in refused
    assert "The rules do not allow this payday: 1 problem, shown above and at the players." in refused


def test_the_end_is_announced(client: Client) -> None:
    page = text(client.get(URL, {**CONTRACT, "p0-tokens_green": "6"}))
    assert "Game over. The game ends after the yellow payday: Ann has 8 or more achievement tokens." in page
    assert "no red payday; the blue ship on the waves does not sink" in page


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"p0-goods_yellow_2": "-1"}, "Ensure this value is greater than or equal to 0."),
        ({"p0-goods_yellow_2": "28"}, "Ensure this value is less than or equal to 27."),
        ({"p0-goods_yellow_2": "two"}, "Enter a whole number."),
        ({"p0-tokens_red": "100"}, "Ensure this value is less than or equal to 99."),
        ({"edo2": "yellow"}, "The yellow ship is already 1st: each ship arrives once."),
        ({"edo1": "purple"}, "choose one of the offered values, not 'purple'"),
        ({"players": "5"}, "choose one of the offered values, not '5'"),
        ({"sunk": "purple"}, "On the waves: choose only offered values, not 'purple'"),
        ({"p1-name": "ann"}, "Two players have this name: give each a different one."),
        ({"p1-name": "x" * 25}, "a name has at most 24 characters (this one has 25)"),
    ],
)
def test_bad_input_is_a_400_with_the_message_at_the_field(
    client: Client, change: dict[str, str], message: str
) -> None:
    for headers in ({}, {**HX, "HTTP_HX_TARGET": "osaka-calc"}):
        response = client.get(URL, {**CONTRACT, **change}, **headers)
        assert response.status_code == 400
        assert message in response.content.decode().replace("&#x27;", "'")
        assert "VP card" not in text(response).split("The whole table")[-1]  # no answer from a bad form


def test_a_blank_name_is_the_trader_colour(client: Client) -> None:
    page = text(client.get(URL, {**CONTRACT, "p0-name": "", "p1-name": " "}))
    assert "White 4 +1 0" in page and "Pink 3 +1 0" in page


def test_more_players_show_more_cards(client: Client) -> None:
    html = client.get(URL, {**CONTRACT, "players": "4"}).content.decode()
    assert html.count('class="card osaka-player"') == 4
    assert "Player 4 (Tan)" in html


def test_only_get(client: Client) -> None:
    assert client.post(URL, CONTRACT).status_code == 405
    assert client.get(URL, CONTRACT).status_code == 200  # the same question, asked with a GET


query_values = st.one_of(
    st.text(max_size=8),
    st.sampled_from(
        ["", "0", "1", "3", "27", "28", "-1", "red", "blue", "yellow", "green", "2", "4", "1e9", "٣"]
    ),
)
field_names = st.sampled_from(
    ["players", *EDO_FIELDS, "sunk"]
    + [f"p{i}-{k}" for i in range(5) for k in ("name", "tokens_red", "goods_red_2", "goods_blue_5",
                                                 "insured_blue_3", "insurance_blue_2", "insurance_blue_5")]
)  # fmt: skip


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(field_names, query_values, max_size=14), st.booleans())
def test_any_query_gets_a_page_never_a_500(client: Client, query: dict[str, str], htmx: bool) -> None:
    headers = {**HX, "HTTP_HX_TARGET": "osaka-result"} if htmx else {}
    response = client.get(URL, query, **headers)
    assert response.status_code in (200, 400)
    assert ("<html" in response.content.decode()) is not htmx


def test_the_osaka_start_page_and_both_games_at_home(client: Client) -> None:
    osaka = client.get("/osaka/")
    assert osaka.status_code == 200
    html = osaka.content.decode()
    for href in ('href="/osaka/payday/"', 'href="/osaka/games/new/"', 'href="/osaka/sheet.pdf?size=a4"'):
        assert href in html
    assert '<a class="other-game" href="/">IKI</a>' in html  # the navigation leads back to the other game
    home = client.get("/").content.decode()
    assert "<title>Table companion · IKI and Traders of Osaka</title>" in home
    for href in ('href="/setup/"', 'href="/score/"', 'href="/osaka/payday/"', 'href="/osaka/games/new/"'):
        assert href in home
    assert 'aria-label="Traders of Osaka">Osaka</a>' in home
