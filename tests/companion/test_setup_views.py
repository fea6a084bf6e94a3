"""The setup pages and ``GET /api/v1/setup`` through the Django test client: full pages and htmx partials,
valid and invalid input (issue 3)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client

from companion.setup_query import new_table
from scoring.catalogue import PERSONALITY_BY_ID
from setupgen import GENERATOR_VERSION, Options, generate
from tests.setupgen.helpers import named_hidden_draws

HX = {"HTTP_HX_REQUEST": "true"}
GM = "players=2&akebono=1&grand_master=1"

# The checklist page reads its saved ticks (companion/models/setup_progress.py).
TABLE = new_table()  # the table's own code: the ticks are saved under it, never under the seed alone
pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    return Client()


def html(response: Any) -> str:
    return response.content.decode()


# --- options page ---------------------------------------------------------------------------------------------


def test_options_page(client: Client) -> None:
    page = html(client.get("/setup/"))
    assert "<html" in page
    assert 'action="/setup/game"' in page
    assert 'hx-get="/setup/"' in page
    for label in ('for="players-2"', 'for="akebono"', 'for="grand_master"', 'for="seed"'):
        assert label in page
    assert 'id="players-4" name="players" value="4" checked' in page


def test_options_page_prefills_from_the_query(client: Client) -> None:
    page = html(client.get("/setup/?players=2&akebono=1&grand_master=1"))
    assert 'value="2" checked' in page
    assert 'name="akebono" value="1" checked' in page
    assert "needs 2 players" not in page


@pytest.mark.parametrize(
    ("query", "warned"),
    [
        ("players=3&grand_master=1", True),
        ("players=2&grand_master=1", True),
        ("players=2&akebono=1&grand_master=1", False),
        ("players=4&akebono=1", False),
        ("players=zz&grand_master=1", True),
    ],
)
def test_options_partial_warns_about_grand_master(client: Client, query: str, warned: bool) -> None:
    response = client.get(f"/setup/?{query}", **HX)
    assert response.status_code == 200
    body = html(response)
    assert "<html" not in body
    assert 'id="setup-warning"' in body
    assert ("needs 2 players and Akebono" in body) == warned


def test_options_page_refuses_post(client: Client) -> None:
    assert client.post("/setup/").status_code in (403, 405)
    assert client.get("/setup/").status_code == 200  # the page is there, for a GET


# --- the checklist page ---------------------------------------------------------------------------------------


def test_no_seed_redirects_to_a_new_one(client: Client) -> None:
    response = client.get("/setup/game?players=3&akebono=1")
    assert response.status_code == 302
    query = parse_qs(urlparse(response["Location"]).query)
    assert query["players"] == ["3"]
    assert query["akebono"] == ["1"]
    assert re.fullmatch(r"[2-9A-Z]{8}", query["seed"][0])
    again = client.get(f"/setup/game?players=3&akebono=1&seed=&table={TABLE}")
    assert again.status_code == 302
    assert again["Location"] != response["Location"]


def test_checklist_page_shows_the_public_draws(client: Client) -> None:
    response = client.get(f"/setup/game?{GM}&seed=k7mx-2qpa&table={TABLE}")
    assert response.status_code == 200
    page = html(response)
    setup = generate(Options(2, akebono=True, grand_master=True), "K7MX2QPA")
    assert "K7MX 2QPA" in page
    assert "http://testserver/setup/game?players=2&amp;akebono=1&amp;grand_master=1&amp;seed=K7MX2QPA" in page
    for section in ("General setup", "Player setup", "Akebono setup", "Two-player setup"):
        assert section in page
    for p in setup.akebono.personalities["spring"] if setup.akebono else ():
        assert PERSONALITY_BY_ID[p].name in page
    assert f"Seat {setup.first_player} is the first player" in page
    assert 'type="checkbox" id="tick-general-board"' in page
    assert "/setup/sheet.pdf?players=2&amp;akebono=1&amp;grand_master=1&amp;seed=K7MX2QPA&amp;size=a4" in page
    # Issue 13 (the table code) and issue 20 (every option of the setup): "Track this game".
    track = (
        f'href="/games/new/?players=2&amp;akebono=1&amp;grand_master=1&amp;seed=K7MX2QPA&amp;table={TABLE}"'
    )
    assert track in page
    # Re-roll all (issue 26): a new seed, the same options, house rules and table.
    assert (
        f'href="/setup/game?players=2&amp;akebono=1&amp;grand_master=1&amp;seed=K7MX2QPA&amp;table={TABLE}'
        '&amp;reroll=all">Re-roll all' in page
    )


@pytest.mark.parametrize("seed", ["K7MX2QPA", "22222222", "ZZZZZZZZ", "H4RT9WQE"])
def test_hidden_information_is_not_in_the_page(client: Client, seed: str) -> None:
    """Issue 20: no hidden draw, and no way to reveal one here; the tracker does, and the page says so."""
    setup = generate(Options(2, akebono=True, grand_master=True), seed)
    page = html(client.get(f"/setup/game?{GM}&seed={seed}&table={TABLE}"))
    assert named_hidden_draws(page, setup) == []
    assert not re.search(r"Nagaya [1-4]|Blocking tile [1-4]|show=|Reveal:|>Reveal<", page)
    assert "This page shows no hidden draw. The game tracker reveals each one when it is due" in page
    for note in (
        "each fire",
        "the Summer, Autumn and Winter Personalities",
        "each month's New",
        "which Summer",
    ):
        assert f"Hidden until due: the game tracker reveals {note}" in page.replace("&#x27;", "'")


@pytest.mark.parametrize(
    "param", ["show=fire-5", "hide=blocking-7", "show=new-character-3", "show=%3Cscript%3E"]
)
def test_an_old_reveal_address_gets_the_page_and_no_secret(client: Client, param: str) -> None:
    """Addresses from when this page revealed items: the page without any secret, and a line saying why."""
    setup = generate(Options(2, akebono=True, grand_master=True), "K7MX2QPA")
    response = client.get(f"/setup/game?{GM}&seed=K7MX2QPA&{param}&table={TABLE}")
    assert response.status_code == 200
    page = html(response)
    assert "the game tracker reveals each one when it is due. Open “Track this game”." in page
    assert named_hidden_draws(page, setup) == []
    assert "<script>" not in page
    # An old page's htmx "Reveal" button: the whole checklist comes back, in place of the old one.
    partial = client.get(f"/setup/game?{GM}&seed=K7MX2QPA&{param}&table={TABLE}", **HX)
    assert partial.status_code == 200
    assert partial["HX-Retarget"] == "#setup"
    assert named_hidden_draws(html(partial), setup) == []
    assert "<html" not in html(partial)


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("players=5&seed=K7MX2QPA", "2 to 4 players, not 5"),
        ("players=3&akebono=1&grand_master=1&seed=K7MX2QPA", "Grand Master variant is for 2 players"),
        ("players=2&grand_master=1", "needs the Akebono expansion"),
        ("players=abc", "whole number"),
        ("", "how many players"),
        ("players=4&akebono=maybe", "Akebono must be 1 or 0"),
        ("players=4&seed=K7MX2QP0", "never use 0, O, 1, I, L or U"),
        ("players=4&seed=K7M", "has 3 characters"),
    ],
)
def test_bad_options_get_the_form_back_with_a_message(client: Client, query: str, words: str) -> None:
    response = client.get(f"/setup/game?{query}&table={TABLE}")
    assert response.status_code == 400
    page = html(response)
    assert "<html" in page
    assert 'role="alert"' in page
    assert words in page.replace("&#x27;", "'")
    partial = client.get(f"/setup/game?{query}&table={TABLE}", **HX)
    assert partial.status_code == 400
    assert "<html" not in html(partial)
    assert words in html(partial).replace("&#x27;", "'")


# --- the JSON API ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "options"),
    [
        ("players=4", Options(4)),
        ("players=3&akebono=1", Options(3, akebono=True)),
        ("players=2&akebono=true&grand_master=on", Options(2, akebono=True, grand_master=True)),
        ("players=2&akebono=0&grand_master=", Options(2)),
    ],
)
def test_api_setup(client: Client, query: str, options: Options) -> None:
    response = client.get(f"/api/v1/setup?{query}&seed=k7mx2qpa")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert data == generate(options, "K7MX2QPA").to_json()
    assert data["generator_version"] == GENERATOR_VERSION
    assert "max-age" in response["Cache-Control"]


def test_api_without_a_seed_draws_a_new_one(client: Client) -> None:
    first = client.get("/api/v1/setup?players=4")
    second = client.get("/api/v1/setup?players=4")
    assert first.status_code == second.status_code == 200
    assert first.json()["seed"] != second.json()["seed"]
    assert "no-store" in first["Cache-Control"]
    again = client.get(f"/api/v1/setup?players=4&seed={first.json()['seed']}")
    assert again.json() == first.json()


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("players=5", "players", "2 to 4 players, not 5"),
        ("players=1", "players", "not 1"),
        ("", "players", "how many players"),
        ("players=four", "players", "whole number"),
        ("players=3&akebono=1&grand_master=1", "grand_master", "for 2 players, not 3"),
        ("players=2&grand_master=1", "grand_master", "needs the Akebono expansion"),
        ("players=2&akebono=2", "akebono", "must be 1 or 0"),
        ("players=2&seed=K7MX2QP", "seed", "has 7 characters"),
        ("players=2&seed=OOOOOOOO", "seed", "never use"),
    ],
)
def test_api_bad_options(client: Client, query: str, field: str, words: str) -> None:
    response = client.get(f"/api/v1/setup?{query}")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == field
    assert words in error["message"]


def test_api_only_answers_get(client: Client) -> None:
    response = client.post("/api/v1/setup?players=4", data="{}", content_type="application/json")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method-not-allowed"


def test_htmx_checklist_partial(client: Client) -> None:
    response = client.get(f"/setup/game?players=4&akebono=1&seed=K7MX2QPA&table={TABLE}", **HX)
    assert response.status_code == 200
    body = html(response)
    assert "<html" not in body
    assert 'id="setup"' in body
    assert "Akebono setup" in body
    assert response["HX-Push-Url"] == f"/setup/game?players=4&akebono=1&seed=K7MX2QPA&table={TABLE}"
    assert "HX-Retarget" not in response  # only an old reveal button's request is retargeted


@pytest.mark.parametrize("query", ["players=4&akebono=1", "players=2&akebono=1&grand_master=1", "players=3"])
def test_no_player_facing_page_links_the_json_that_shows_every_hidden_draw(
    client: Client, query: str
) -> None:
    """Issue 10, item 7: the API answer lists every fire, personality and New Character; no page links it."""
    for url in (f"/setup/?{query}", f"/setup/game?{query}&seed=K7MX2QPA&table={TABLE}", "/", "/games/new/"):
        html = client.get(url).content.decode()
        assert "/api/v1/setup" not in html, url


# --- issue 20: nothing a setup phone is sent names a hidden draw ------------------------------------------------

ALL_OPTIONS = [
    ("players=4", Options(4)),
    ("players=3", Options(3)),
    ("players=2", Options(2)),
    ("players=4&akebono=1", Options(4, akebono=True)),
    ("players=3&akebono=1", Options(3, akebono=True)),
    ("players=2&akebono=1", Options(2, akebono=True)),
    (GM, Options(2, akebono=True, grand_master=True)),
]


@pytest.mark.parametrize(("query", "options"), ALL_OPTIONS, ids=[q for q, _ in ALL_OPTIONS])
@pytest.mark.parametrize("seed", ["K7MX2QPA", "22222222", "H4RT9WQE"])
def test_nothing_a_setup_phone_gets_names_a_hidden_draw(
    client: Client, query: str, options: Options, seed: str
) -> None:
    """Every answer a phone gets on the setup side, for every option set: the page and its htmx partial (ticked
    and not), an old reveal address, a tick's answer, the pull's answer, the view-only page, the options page and its partial, the
    new-game form "Track this game" opens, and the PDF sheet (decoded with pypdf). The page loads no JSON."""
    from tests.companion.test_setup_pdf import pdf_text

    setup = generate(options, seed)
    page_url = f"/setup/game?{query}&seed={seed}&table={TABLE}"
    ticks = f"/setup/ticks?{query}&seed={seed}&table={TABLE}"
    steps_with_hidden = [
        "general-fire",
        *(["akebono-personalities", "akebono-new-characters", "akebono-tokens"] if options.akebono else []),
        *(["two-player-blocking-tiles"] if options.players == 2 else []),
    ]
    answers: dict[str, str] = {
        "page": html(client.get(page_url)),
        "partial": html(client.get(page_url, **HX)),
    }
    for step in steps_with_hidden:
        tapped = client.post(ticks, {"step": step, "done": step}, HTTP_X_LIVE="1")  # the live script's tap
        assert tapped.status_code == 200
        answers[f"tick {step}"] = html(tapped)
    pulled = client.get(f"/setup/ticks/state?{query}&seed={seed}&table={TABLE}&v=0", HTTP_X_LIVE="1")
    assert pulled.status_code == 200
    answers["pull"] = html(pulled)
    answers["ticked page"] = html(client.get(page_url))
    answers["ticked partial"] = html(client.get(page_url, **HX))
    for item in (
        "fire-5",
        "fire-11",
        "personalities-winter",
        "new-character-12",
        "blocking-12",
        "tokens-autumn",
    ):
        answers[f"show {item}"] = html(client.get(f"{page_url}&show={item}"))
        answers[f"htmx show {item}"] = html(client.get(f"{page_url}&show={item}", **HX))
    answers["options"] = html(client.get(f"/setup/?{query}&seed={seed}"))
    answers["options partial"] = html(client.get(f"/setup/?{query}&seed={seed}", **HX))
    answers["new game"] = html(client.get(f"/games/new/?{query}&seed={seed}&table={TABLE}"))
    answers["sheet"] = pdf_text(client.get(f"/setup/sheet.pdf?{query}&seed={seed}").content)[1]
    view = re.search(r'id="view-link" value="http://testserver([^"]+)"', answers["ticked page"])
    assert view is not None
    answers["view-only page"] = html(client.get(view.group(1).replace("&amp;", "&")))
    assert "checked" in answers["ticked page"] and 'id="tick-general-fire"' in answers["pull"]
    assert " disabled checked" in answers["view-only page"]
    for name, text in answers.items():
        if name.startswith("options"):
            # The house-rules form lists every card of every season alike (issue 26): no draw in it.
            text = re.sub(r'<details class="house-rules".*?</details>', "", text, flags=re.S)
            text = re.sub(r'<div id="house-lists" hx-swap-oob="true">.*', "", text, flags=re.S)
        assert named_hidden_draws(text, setup) == [], name
        assert not re.search(r"Nagaya [1-4]|Blocking tile [1-4]", text), name
        assert "/api/" not in text and ".json" not in text, name


def test_a_share_link_pasted_as_the_code_says_to_open_it(client: Client) -> None:
    """A player pastes the link a friend shared into the setup code field (which keeps 64 characters of it): the
    page says it is a link to open, not which characters a code never uses."""
    pasted = "http://192.168.178.23:8000/setup/game?players=3&akebono=1&seed=K7MX2QPA&table=x"[:64]
    response = client.get("/setup/game", {"players": "4", "seed": pasted})
    assert response.status_code == 400
    said = re.search(r'id="setup-error">([^<]+)<', response.content.decode())
    assert said is not None and unescape(said.group(1)).startswith(
        "That is a link, not a setup code: open the link itself"
    )


def test_the_code_field_says_a_code_needs_the_same_options(client: Client) -> None:
    """A code read aloud by a friend who played 3 players with Akebono gives another setup with 4 base players:
    the field's hint says so before the table sets up the wrong one."""
    hint = re.search(r'id="seed-hint"[^>]*>([^<]+)<', client.get("/setup/").content.decode())
    assert hint is not None
    assert "same setup only with the same players, Akebono and variant" in hint.group(1)
