"""Issue 20, item 3: "the game is the setup". "Track this game" on the setup page carries every option of the setup
(player count, Akebono, Grand Master, seed, table code); the new-game form then shows that setup as fixed, offers
exactly that many name rows, and refuses another number of players (the same code would give another setup,
RULINGS R19). Followed for 2, 3 and 4 players, with and without Akebono and the Grand Master variant, the game has
the setup page's buildings, fires, personalities and first player. A browser test follows the link at 390x844.
"""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.test import Client

from companion.models.games import Game
from companion.views.tracker.new import made_for_message
from scoring.catalogue import BUILDING_BY_ID
from setupgen import Options, generate

HX = {"HTTP_HX_REQUEST": "true"}
NAMES = ["Anaïs", "Ben", "Chie", "Dom"]
COLOURS = ["red", "blue", "green", "yellow"]
SEED = "K7MX2QPA"
OPTIONS = [
    Options(2),
    Options(2, akebono=True),
    Options(2, akebono=True, grand_master=True),
    Options(3),
    Options(3, akebono=True),
    Options(4),
    Options(4, akebono=True),
]

pytestmark = pytest.mark.django_db


def options_query(options: Options) -> str:
    return (
        f"players={options.players}"
        + ("&akebono=1" if options.akebono else "")
        + ("&grand_master=1" if options.grand_master else "")
    )


def track_link(page: str) -> str:
    match = re.search(r'<a class="button primary" href="([^"]+)">Track this game</a>', page)
    assert match is not None
    return html_lib.unescape(match.group(1))


def form_of(page: str) -> tuple[dict[str, str], list[str]]:
    """The new-game form's hidden fields (name -> value) and the names of its name rows, in order."""
    form = page[page.index('<form id="new-game"') : page.index("</form>")]
    hidden = dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"', form))
    hidden.pop("csrfmiddlewaretoken", None)
    rows = re.findall(r'<input type="text" id="(name-\d)"', form)
    return {k: html_lib.unescape(v) for k, v in hidden.items()}, rows


def setup_page_draws(page: str) -> tuple[list[str], int]:
    """The buildings listed on the setup page and the first player's seat, as the table reads them."""
    step = re.search(
        r'<li id="step-(?:general|akebono)-buildings">.*?<ul class="setup-details">(.*?)</ul>', page, re.S
    )
    assert step is not None
    listed = re.findall(r"<li>([^<]+)</li>", step.group(1))
    seat = re.search(r"Seat (\d) is the first player", page)
    assert seat is not None
    return [html_lib.unescape(line).split(" (ongoing ability)")[0] for line in listed], int(seat.group(1))


@pytest.mark.parametrize("options", OPTIONS, ids=options_query)
def test_track_this_game_gives_the_setup_pages_game(options: Options) -> None:
    client = Client()
    setup_page = client.get(f"/setup/game?{options_query(options)}&seed={SEED}", follow=True).content.decode()
    link = track_link(setup_page)
    assert link.startswith(f"/games/new/?{options_query(options)}&seed={SEED}&table=")
    form_page = client.get(link).content.decode()
    hidden, rows = form_of(form_page)
    # Exactly that many name rows, all required, and the setup shown as fixed (no options to change by mistake).
    assert rows == [f"name-{i}" for i in range(options.players)]
    assert form_page.count(" required") == options.players
    assert hidden["seed"] == SEED and hidden["setup_players"] == str(options.players)
    assert ("akebono" in hidden) == options.akebono and ("grand_master" in hidden) == options.grand_master
    assert 'name="seed" value' not in form_page.replace('type="hidden" name="seed" value', "")
    assert f"This code gives that setup only with {options.players} players" in form_page
    change = (
        f'<a class="button" href="/setup/?{options_query(options).replace("&", "&amp;")}">Change the players'
    )
    assert change in form_page
    players = {f"name-{i}": NAMES[i] for i in range(options.players)}
    players |= {f"colour-{i}": COLOURS[i] for i in range(options.players)}
    response = client.post("/games/new/", {**hidden, **players})
    assert response.status_code == 302, response.content.decode()
    game = Game.objects.get()
    expected = client.get(f"/api/v1/setup?{options_query(options)}&seed={SEED}").json()
    assert game.setup == expected == generate(options, SEED).to_json()
    assert (game.players, game.akebono, game.grand_master) == (
        options.players,
        options.akebono,
        options.grand_master,
    )
    # What the setup page shows is what the game has: buildings in order, the first player.
    buildings, first_seat = setup_page_draws(setup_page)
    assert buildings == [BUILDING_BY_ID[b].name for b in game.setup["buildings"]]
    assert first_seat == game.first_player == expected["first_player"]
    game_page = client.get(game.edit_url()).content.decode()
    assert f"<strong>First player:</strong> {NAMES[first_seat - 1]}" in game_page
    assert f"<strong>Buildings:</strong> {html_lib.escape(', '.join(buildings))}" in game_page
    # The hidden draws the tracker will reveal are the same draws (the setup page shows none of them).
    assert game.setup["fires"] == expected["fires"]
    assert game.setup["akebono"] == expected["akebono"]


@pytest.mark.parametrize(("made_for", "given"), [(3, 2), (4, 3), (4, 2)])
@pytest.mark.parametrize("htmx", [False, True])
def test_another_number_of_players_is_refused(made_for: int, given: int, htmx: bool) -> None:
    """The form has exactly ``made_for`` rows; leaving some empty (or a hand-made post) is refused: another
    number of players would give another setup from the same code."""
    client = Client()
    form = {"seed": SEED, "setup_players": str(made_for), "akebono": "1"}
    form |= {f"name-{i}": NAMES[i] for i in range(given)} | {f"colour-{i}": COLOURS[i] for i in range(given)}
    response = client.post("/games/new/", form, **(HX if htmx else {}))
    assert response.status_code == 400
    page = response.content.decode()
    assert html_lib.escape(made_for_message(made_for, given)) in page
    assert f"made for {made_for} players: with {given} it gives another setup" in page
    assert ("<html" in page) is not htmx
    hidden, rows = form_of(page)
    assert rows == [f"name-{i}" for i in range(made_for)]  # the form comes back with the setup still fixed
    assert hidden["setup_players"] == str(made_for) and hidden["seed"] == SEED
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("players=7&seed=K7MX2QPA", "2 to 4 players, not 7"),
        ("players=3&akebono=1&grand_master=1&seed=K7MX2QPA", "Grand Master variant is for 2 players"),
        ("players=two&seed=K7MX2QPA", "whole number"),
        ("players=2&akebono=perhaps&seed=K7MX2QPA", "must be 1 or 0"),
        ("players=3&seed=K7MX2QP0", "never use 0, O, 1, I, L or U"),
        ("players=3&seed=K7M", "has 3 characters"),
    ],
)
def test_a_broken_setup_link_says_why_and_offers_the_plain_form(query: str, words: str) -> None:
    response = Client().get(f"/games/new/?{query}")
    assert response.status_code == 400
    page = response.content.decode().replace("&#x27;", "'")
    assert "This link to a setup cannot be used" in page and words in page
    _, rows = form_of(page)
    assert len(rows) == 4 and 'name="setup_players"' not in page


def test_the_link_takes_a_seed_as_the_setup_page_reads_it() -> None:
    page = Client().get("/games/new/?players=3&seed=k7mx-2qpa").content.decode()
    hidden, rows = form_of(page)
    assert hidden["seed"] == "K7MX2QPA" and len(rows) == 3
    assert "setup code <strong>K7MX 2QPA</strong> · 3 players · base game." in page


def test_a_setup_made_for_3_posted_with_a_bad_count_or_seed() -> None:
    """A hand-made post: an impossible setup_players is a message, not a 500; a bad seed keeps the setup fixed."""
    client = Client()
    base = {"name-0": "A", "colour-0": "red", "name-1": "B", "colour-1": "blue"}
    response = client.post("/games/new/", {**base, "seed": SEED, "setup_players": "9"})
    assert response.status_code == 400
    assert "made for 2 to 4 players" in response.content.decode()
    form = {**base, "name-2": "C", "colour-2": "green", "seed": "K7MX2QP0", "setup_players": "3"}
    response = client.post("/games/new/", form)
    assert response.status_code == 400
    assert "Setup code:" in response.content.decode()
    assert Game.objects.count() == 0


def test_the_plain_form_says_a_typed_code_needs_its_players_and_options() -> None:
    """Without the link, a typed code is taken with the players given: the form says it gives another setup then."""
    page = Client().get("/games/new/?seed=K7MX2QPA&akebono=1").content.decode()
    assert "gives that setup only with the number of players and the options it was made for" in page
    assert "with others, the same code gives another setup" in page
    _, rows = form_of(page)
    assert len(rows) == 4


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "options",
    [Options(2, akebono=True, grand_master=True), Options(2), Options(3, akebono=True), Options(4)],
    ids=options_query,
)
def test_follow_the_setup_link_in_a_browser(
    live_server: Any, page: Any, screenshot: Any, options: Options
) -> None:
    """At 390x844: set up on /setup/, tap "Track this game", fill exactly the offered names, create, and find the
    setup page's buildings and first player on the game page (and its fires and personalities in the game)."""
    page.goto(live_server.url + "/setup/")
    page.get_by_text(f"{options.players} players", exact=True).click()
    if options.akebono:
        page.get_by_label("IKI Akebono").check()
    if options.grand_master:
        page.get_by_label("Grand Master variant").check()
    page.get_by_role("button", name="Generate setup").click()
    page.wait_for_url(re.compile(r"/setup/game\?.*seed=[A-Z2-9]{8}&table="))
    seed = re.search(r"seed=([A-Z2-9]{8})", page.url)
    assert seed is not None
    buildings_step = page.locator('[id$="-buildings"] .setup-details li')
    buildings = [line.split(" (ongoing ability)")[0] for line in buildings_step.all_inner_texts()]
    first = re.search(
        r"Seat (\d) is the first player", page.locator("#step-player-first-player").inner_text()
    )
    assert first is not None
    page.get_by_role("link", name="Track this game").first.click()
    page.wait_for_url(re.compile(r"/games/new/\?players="))
    names = page.locator("#new-game input[type=text][id^=name-]")
    assert names.count() == options.players
    for i in range(options.players):
        page.fill(f"#name-{i}", NAMES[i])
        page.select_option(f"#colour-{i}", COLOURS[i])
    screenshot(page, f"setup-link-form-{options.players}")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url("**/share")
    page.get_by_role("link", name="Go to the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/$"))
    game = Game.objects.get()
    expected = generate(options, seed.group(1)).to_json()
    assert game.setup == expected
    main = page.locator("main").inner_text()
    assert f"First player: {NAMES[int(first.group(1)) - 1]}" in main
    assert f"Buildings: {', '.join(buildings)}" in main
    assert game.setup["fires"] == expected["fires"] and game.setup["akebono"] == expected["akebono"]
    screenshot(page, f"setup-link-game-{options.players}")
