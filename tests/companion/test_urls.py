"""Every address of companion/urls.py answers ``HEAD`` exactly as it answers ``GET`` (issue 10, item 9): link
checkers, proxies' health checks and some phones' previews send ``HEAD``, and a 405 there reads as a broken page."""

from __future__ import annotations

import copy
import re

import pytest
from django.test import Client
from django.urls import URLPattern, get_resolver

from companion.models.results import Group
from companion.scorepad.services import start_sheet
from companion.scorepad.steps import STEPS
from companion.services.osaka import NewPlayer as OsakaPlayer
from companion.services.osaka import create_game as create_osaka_game
from companion.services.tracker.games import NewPlayer, create_game
from scoring.examples import WORKED_EXAMPLE
from setupgen import Options, generate

pytestmark = pytest.mark.django_db

# Query strings for the addresses that need one to answer 200.
QUERIES = {
    "setup-game": "?players=3&seed=K7MX2QPA",
    "setup-sheet": "?players=3&seed=K7MX2QPA",
    "api-setup": "?players=3&seed=K7MX2QPA",
}
# GET answers these with a page (or a redirect to one): HEAD must too. The others refuse GET (POST-only).
ANSWER_GET = {
    "home", "healthz", "favicon", "scorepad-new", "scorepad-sheet", "scorepad-result", "scorepad-pdf",
    "scorepad-step", "games-new", "game", "game-state", "game-share", "game-log", "setup-options", "setup-game",
    "setup-sheet", "api-setup", "pads", "pads-blank", "api-catalogue", "scorepad-view", "scorepad-view-pdf",
    "osaka", "osaka-payday", "osaka-sheet", "osaka-games-new", "osaka-game", "osaka-game-state", "osaka-game-share",
    "osaka-game-log", "osaka-game-sheet", "osaka-game-payday",
    "check", "check-2015", "check-2015-work", "group", "group-csv", "group-json",  # issues 14, 23
    "group-file", "group-restore",  # issue 24: a group's file, "Download everything", and its restore
    "manifest", "apple-touch-icon", "apple-touch-icon-precomposed", "find",  # issue 25
    "live-stream-game",  # issue 21: the tracked game's stream (204 under WSGI: the page polls)
    "game-screen", "game-screen-state", "osaka-game-screen", "osaka-game-screen-state",  # issue 25: table screen
    "service-worker",  # issue 25: /sw.js
}  # fmt: skip


def _addresses() -> dict[str, str]:
    """A real address for every URL pattern: a game's edit token, a scored sheet's token, its first step."""
    setup = generate(Options(players=2), seed="K7MX2QPA").to_json()
    game = create_game(
        players=[NewPlayer("Anaïs", "red"), NewPlayer("David", "blue")],
        akebono=False,
        grand_master=False,
        setup=setup,
        who="test",
    )
    players = copy.deepcopy(WORKED_EXAMPLE)["players"]
    sheet = start_sheet(
        names=[p["name"] for p in players],
        colours=["red", "blue"],
        akebono=False,
        prefill={p["name"]: {k: v for k, v in p.items() if k != "name"} for p in players},
    )
    osaka = create_osaka_game(players=[OsakaPlayer("Anaïs", "white"), OsakaPlayer("David", "pink")])
    group = Group.objects.create(name="Thursday")
    values = {
        "str:token": game.edit_token,
        "sheet:token": sheet.token,
        "slug:slug": STEPS[0].slug,
        "link:token": group.token,
    }
    # Routes whose token is another kind's: a sheet's view-only page, a Traders of Osaka game.
    tokens = {"scorepad-view": sheet.view_token, "scorepad-view-pdf": sheet.view_token}
    addresses = {}
    for pattern in get_resolver().url_patterns:
        assert isinstance(pattern, URLPattern), "companion/urls.py has no nested includes"
        name = str(pattern.name)
        token = tokens.get(name, osaka.edit_token if name.startswith("osaka-game") else None)
        here = values | ({"str:token": token, "sheet:token": token} if token else {})
        path = re.sub(r"<([^>]+)>", lambda m, here=here: here[m.group(1)], str(pattern.pattern))
        addresses[str(pattern.name)] = "/" + path + QUERIES.get(str(pattern.name), "")
    return addresses


def test_head_answers_wherever_get_does(client: Client) -> None:
    addresses = _addresses()
    answered = set()
    for name, url in addresses.items():
        got, head = client.get(url), client.head(url)
        assert head.status_code == got.status_code, (
            f"{name} {url}: GET {got.status_code}, HEAD {head.status_code}"
        )
        assert head.content == b"", name
        if got.status_code < 400:
            answered.add(name)
            assert head.get("Content-Type") == got.get("Content-Type"), name
    assert answered == ANSWER_GET, "a new address: add it to ANSWER_GET if GET answers it"


@pytest.mark.parametrize("url", ["/api/v1/catalogue", "/", "/healthz", "/favicon.ico"])
def test_post_to_a_read_only_address_is_405(client: Client, url: str) -> None:
    response = client.post(url)
    assert response.status_code == 405
    assert set(response["Allow"].split(", ")) == {"GET", "HEAD"}


def test_a_page_loads_htmx_only_when_it_uses_it(client: Client) -> None:
    """First-load bytes (issue 12): htmx is 16 KiB gzipped, so a page without an htmx attribute does not load it,
    and a page with one does (``{% block htmx %}`` in templates/base.html)."""
    pages = 0
    for name, url in _addresses().items():
        response = client.get(url, follow=True)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        html = response.content.decode()
        if "<html" not in html:
            continue
        pages += 1
        uses = re.search(r"\shx-(?!headers=)[a-z-]+=", html) is not None
        loads = "/static/django_htmx/htmx" in html
        assert uses == loads, f"{name} {url}: uses htmx {uses}, loads it {loads}"
    assert pages >= 20


def test_the_pad_check_spares_the_recent_list_s_script(client: Client) -> None:
    """First-load bytes (issue 21: every page within 30 KiB): a typed 4-player pad check loads htmx for its live
    check and had grown past the budget; it has nothing for this phone's recent list, so it loads no recent.js
    (``{% block recent %}``), where the home page and a tracked game still do."""
    from benchmarks.walkthrough import CHECKED_PAD

    for url in (f"/check/?{CHECKED_PAD}", "/check/2015/"):
        assert "companion/recent" not in client.get(url).content.decode(), url
    assert "companion/recent" in client.get("/").content.decode()
