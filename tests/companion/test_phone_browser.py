"""Issue 25 on a 390x844 phone: the app installs (a valid manifest, its icons fetched), the BG Stats link of a
result decodes to the whole play, and the main pages stay within the screen in dark mode and at 200% text."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_manifest_is_valid_and_its_icons_load(live_server: Any, page: Any) -> None:
    page.goto(f"{live_server.url}/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/manifest.webmanifest"
    cdp = page.context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["url"].endswith("/manifest.webmanifest")
    assert found["errors"] == [], found["errors"]  # Chromium parsed it without a complaint
    data = json.loads(found["data"])
    assert (data["start_url"], data["display"], data["short_name"]) == ("/", "standalone", "IKI")
    response = page.request.get(f"{live_server.url}{href}")
    assert response.status == 200 and response.headers["content-type"] == "application/manifest+json"
    sizes = set()
    for icon in data["icons"]:
        fetched = page.request.get(f"{live_server.url}{icon['src']}")
        assert fetched.status == 200, icon["src"]
        assert fetched.headers["content-type"] == icon["type"]
        sizes.add((icon["sizes"], icon.get("purpose", "any")))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    assert page.request.get(f"{live_server.url}/apple-touch-icon.png").status == 200


def test_the_bgstats_link_on_the_result_page_decodes_to_the_whole_play(live_server: Any, page: Any) -> None:
    from django.test import Client

    from companion.models.results import Result
    from tests.companion.test_play_time import ENDED, play_to_the_end
    from tests.factories import make_game

    game = play_to_the_end(make_game(("Anaïs", "Ben", "Chie", "Dai")))
    assert Client().post(f"/games/{game.edit_token}/end").status_code == 302
    game.refresh_from_db()
    assert game.scoresheet is not None
    page.goto(f"{live_server.url}/score/{game.scoresheet.token}/result/")
    expect(page.locator(".rs-length")).to_have_text("Game length: 1 h 32 min")
    link = page.get_by_role("link", name="Send to BG Stats")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href is not None and href.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(parse_qs(urlparse(href).query)["data"][0])
    result = Result.objects.get()
    assert data["playDate"] == ENDED.strftime("%Y-%m-%d %H:%M:%S") and data["durationMin"] == 92
    assert data["sourceName"] == "IKI companion" and data["sourcePlayId"].startswith("result-")
    assert data["game"] == {"name": "IKI", "highestWins": True, "noPoints": False, "sourceGameId": "iki"}
    assert data["board"] == "3-4 player side" and "setup code K7MX2QPA" in data["comments"]
    assert [p["name"] for p in data["players"]] == ["Anaïs", "Ben", "Chie", "Dai"]
    assert [p["startPlayer"] for p in data["players"]].count(True) == 1
    assert data["players"][game.first_player - 1]["startPlayer"]
    for sent, kept in zip(data["players"], result.players, strict=True):
        assert (sent["score"], sent["rank"], sent["winner"], sent["role"]) == (
            kept["total"], kept["rank"], kept["rank"] == 1, kept["colour"],
        )  # fmt: skip
        assert sent["sourcePlayerId"].startswith("player-")


def _main_pages() -> dict[str, str]:
    """The pages a table uses most, with real addresses: a setup, a tracked game, a walk-through step and its
    result, a checked pad, a group, and Traders of Osaka's calculator and tracked game."""
    import copy

    from django.test import Client

    from companion.models.results import Group, Result
    from companion.models.scoresheets import ScoreSheet
    from companion.services.osaka import NewPlayer as OsakaPlayer
    from companion.services.osaka import create_game as create_osaka_game
    from scoring.examples import AKEBONO_FOUR_PLAYERS
    from tests.factories import make_game

    game = make_game(("Anaïs", "Benedetta", "Chie", "Dai"), akebono=True)
    sheet = ScoreSheet.objects.create(
        table=copy.deepcopy(AKEBONO_FOUR_PLAYERS), colours=["red", "blue", "green", "yellow"]
    )
    Client().get(f"/score/{sheet.token}/result/")
    group = Group.objects.create(name="Thursday evenings")
    Result.objects.update(group=group)
    osaka = create_osaka_game(players=[OsakaPlayer("Anaïs", "white"), OsakaPlayer("David", "pink")])
    return {
        "home": "/",
        "setup": "/setup/",
        "setup-game": "/setup/game?players=4&akebono=1&seed=K7MX2QPA",
        "games-new": "/games/new/",
        "game": f"/games/{game.edit_token}/",
        "score-new": "/score/",
        "score-step": f"/score/{sheet.token}/buildings/",
        "score-result": f"/score/{sheet.token}/result/",
        "check": "/check/",
        "group": group.get_absolute_url(),
        "osaka": "/osaka/",
        "osaka-payday": "/osaka/payday/",
        # a sale and a sinking worked out, with a long name: the goods grid and the table's summary at their widest
        "osaka-payday-sunk": "/osaka/payday/?players=4&edo1=red&sunk=blue&p0-goods_red_5=2&p1-goods_red_2=1"
        "&p0-name=Maximilianus+Bartholomew",
        "osaka-game": f"/osaka/games/{osaka.edit_token}/",
    }


WIDEST = (
    "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391)"
    ".map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 12)"
)


@pytest.mark.parametrize("text", ["100%", "200%"])
def test_dark_mode_and_large_text_leave_no_horizontal_scroll(
    live_server: Any, new_context: Any, screenshot: Any, text: str
) -> None:
    pages = _main_pages()
    page = new_context(color_scheme="dark").new_page()
    if text == "200%":  # the phone's text size setting: the browser's default font size doubled (16 -> 32 px)
        page.context.new_cdp_session(page).send(
            "Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}}
        )
    failures = {}
    for name, url in pages.items():
        page.goto(f"{live_server.url}{url}")
        expect(page.locator("main")).to_be_visible()
        root = page.evaluate("getComputedStyle(document.documentElement).fontSize")
        assert root == ("36px" if text == "200%" else "18px"), (name, root)  # the text follows the setting
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(22, 20, 18)", (name, background)  # the dark theme
        if page.evaluate("document.documentElement.scrollWidth") > 390:
            failures[name] = page.evaluate(WIDEST)
        screenshot(page, f"phone-dark-{text[:-1]}-{name}")
    assert failures == {}, json.dumps(failures, indent=1)


#: Each shown fold of the page: whether it is open, and the mark drawn before its summary.
FOLD_MARKS = (
    "[...document.querySelectorAll('details > summary')].filter((s) => s.getClientRects().length)"
    ".map((s) => [s.parentElement.open, getComputedStyle(s, '::before').content])"
)
CLOSED, OPEN = '"\u25b8" / ""', '"\u25be" / ""'


def test_every_fold_shows_that_it_opens(live_server: Any, page: Any, screenshot: Any) -> None:
    """A summary laid out as flex loses the browser's own mark, and a fold then looks like a plain heading (the
    tracker's month plan, exact values and records, the pad check's players). Every shown fold of the main pages
    has the same mark, closed and open; a screen reader hears the summary's words, not the mark."""
    pages = _main_pages()
    marks = {}
    for name, url in pages.items():
        page.goto(f"{live_server.url}{url}")
        expect(page.locator("main")).to_be_visible()
        marks[name] = page.evaluate(FOLD_MARKS)
    wrong = {name: m for name, m in marks.items() if any(mark != (OPEN if o else CLOSED) for o, mark in m)}
    assert wrong == {}, json.dumps(wrong, indent=1)
    # The tracker shows its plan, four exact values, four records and more; the check its two folds.
    assert len(marks["game"]) >= 10 and len(marks["check"]) >= 2
    page.goto(f"{live_server.url}{pages['game']}")
    plan = page.locator(".month-plan > summary")
    expect(plan).to_have_accessible_name("The whole month")
    plan.click()
    expect(page.locator(".month-plan")).to_have_attribute("open", "")
    assert plan.evaluate("(s) => getComputedStyle(s, '::before').content") == OPEN
    screenshot(page, "folds-marked")


#: Each shown fold's summary whose words start on a line below its mark, not beside it: (the words, their left
#: edge minus the summary's).
MARKS_APART = (
    "[...document.querySelectorAll('details > summary')].filter((s) => s.getClientRects().length).map((s) => {"
    " const r = document.createRange(); r.selectNodeContents(s); const first = r.getClientRects()[0];"
    " return [s.textContent.trim().slice(0, 40), first ? first.left - s.getBoundingClientRect().left : 0]; })"
    ".filter(([, left]) => left < 8)"
)


def test_every_fold_mark_stands_beside_its_words(live_server: Any, page: Any) -> None:
    """The score start's "The lists: ..." fold wrapped its words under its mark, which then stood alone on a line
    of its own, like a stray character. On the main pages every fold's words start beside its mark."""
    apart = {}
    for name, url in _main_pages().items():
        page.goto(f"{live_server.url}{url}")
        expect(page.locator("main")).to_be_visible()
        if found := page.evaluate(MARKS_APART):
            apart[name] = found
    assert apart == {}, json.dumps(apart, indent=1)


def test_find_a_game_by_its_code_from_the_home_page(live_server: Any, page: Any, screenshot: Any) -> None:
    from tests.factories import make_game

    game = make_game(("Anaïs", "Ben", "Chie"))
    page.goto(f"{live_server.url}/")  # a phone with no recent items: the list is hidden, the form is not
    expect(page.locator("#recent")).to_be_hidden()
    field = page.get_by_label("Paste a link, or type the code under a QR code")
    field.fill("no such code")
    page.get_by_role("button", name="Find").click()
    expect(page.locator("#find-errors")).to_contain_text("Nothing here has this link or code")
    expect(page.get_by_label("Paste a link, or type the code under a QR code")).to_have_value("no such code")
    screenshot(page, "phone-find-unknown")
    page.get_by_label("Paste a link, or type the code under a QR code").fill(
        f"http://192.168.1.20:8000{game.view_url()}"
    )
    page.get_by_role("button", name="Find").click()
    page.wait_for_url(f"**{game.view_url()}")
    expect(page.locator("main")).to_contain_text("Anaïs")
    page.goto(f"{live_server.url}/")
    expect(page.locator("#recent")).to_contain_text("Anaïs, Ben, Chie")  # the game is a recent item again
    screenshot(page, "phone-home-find")


def test_the_recent_list_shows_the_names_as_typed(live_server: Any, page: Any) -> None:
    """recent.js reads the game's names from the page: a quote or markup in a name shows as typed, never as
    ``&#x27;`` nor as markup."""
    from tests.factories import make_game

    odd = "</script><b>\"x'&"
    game = make_game(("O'Neil", odd))
    page.goto(f"{live_server.url}/games/{game.edit_token}/")
    expect(page.locator("main")).to_contain_text("O'Neil")
    page.goto(f"{live_server.url}/")
    expect(page.locator("#recent a")).to_have_text(f"IKI game: O'Neil, {odd}")
    expect(page.locator("#recent b")).to_have_count(0)


@pytest.mark.parametrize("name", ["app", "setup", "osaka", "checks"])
def test_a_minified_stylesheet_has_the_same_rules(page: Any, name: str) -> None:
    """collectstatic saves stylesheets minified (companion/storage.py): Chromium reads the very same rules (a
    custom property's fallback keeps the spaces it was written with, ``var(--a,1rem)`` against ``var(--a, 1rem)``:
    the same value, so spaces after commas are not compared)."""
    import re
    from pathlib import Path

    from companion.storage import minified

    css = (Path(__file__).resolve().parents[2] / f"companion/static/companion/{name}.css").read_text()
    rules = """(css) => { const sheet = new CSSStyleSheet(); sheet.replaceSync(css);
      return [...sheet.cssRules].map((r) => r.cssText); }"""
    written, served = (
        [re.sub(r",\s+", ",", rule) for rule in page.evaluate(rules, text)] for text in (css, minified(css))
    )
    assert len(written) > 10 and served == written
    assert len(minified(css)) < len(css) * 0.9


@pytest.mark.parametrize("way", ["setting", "root"])
def test_the_top_bar_stays_one_row_at_200_percent_text(live_server: Any, page: Any, way: str) -> None:
    """At 200 % text (the phone's text size setting, or a larger root font) the top bar wrapped into three rows,
    a third of the 844 px screen: it stays one row, its links still 44 px targets."""
    if way == "setting":
        page.context.new_cdp_session(page).send(
            "Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}}
        )
    for url in ("/", "/check/", "/osaka/payday/"):  # the current section's link is bold, so wider
        page.goto(f"{live_server.url}{url}")
        if way == "root":
            page.evaluate("document.documentElement.style.fontSize = '200%'")
        expect(page.locator("main")).to_be_visible()
        assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('main p')).fontSize)") >= 32
        bar = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().height")
        assert bar <= 844 / 12, (url, bar)
        links = page.evaluate(
            "[...document.querySelectorAll('.topbar a')].map(a => a.getBoundingClientRect())"
        )
        assert len({round(r["top"]) for r in links[1:]}) == 1, url  # the section links on one row
        assert min(min(r["height"], r["width"]) for r in links) >= 44, url
