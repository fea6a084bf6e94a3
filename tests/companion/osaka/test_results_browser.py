"""Issue 23 on a 390x844 phone: an Osaka game finished on the table's phone, filed in a group with IKI games of
four twelve-character names, read on the group page without sideways scrolling, and listed on this phone's home
page as finished, with each kind of its links; the top bar marks only the section the page is in."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.models.osaka import OsakaGame
from companion.models.results import Group, Result
from companion.services.osaka import NewPlayer, create_game, record
from scoring.score import AKEBONO_LINES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Anaïs Lenoir", "David Martin", "Dominique Ro", "Ulric Fabian")  # twelve characters each


def _near_the_end() -> OsakaGame:
    """Started (David draws the smallest hand, RULINGS O7's first tokens taken), Anaïs at 7 tokens: the next
    payday in which she gains one ends the game."""
    game = create_game(
        players=[NewPlayer(n, c) for n, c in zip(NAMES, ("white", "pink", "gray", "tan"), strict=True)]
    )
    record(
        game.pk, kind="start", data={"draws": [[9, 3], [8, 3], [10, 2], [11, 3]]}, who="t", seen=game.version
    )
    for seat in range(4):
        record(game.pk, kind="token", data={"seat": seat, "colour": "green", "delta": 1}, who="t")
    for colour in ("red", "blue", "yellow", "red", "blue", "yellow"):
        record(game.pk, kind="token", data={"seat": 0, "colour": colour, "delta": 1}, who="t")
    return OsakaGame.objects.get(pk=game.pk)


def _iki_games(group: Group) -> None:
    """Two Akebono evenings of the same four players with every line of the pad, so the group page has IKI's
    widest tables too (the "Best" column, a column per player in the line averages)."""
    for day, shift in ((datetime.date(2026, 1, 8), 0), (datetime.date(2026, 1, 15), 7)):
        Result.objects.create(
            group=group, edition="iki-akebono", played=day, sheet_version=1,
            players=[
                {"name": n, "colour": c, "lines": dict.fromkeys(AKEBONO_LINES, 10 + i + shift),
                 "total": 100 + len(AKEBONO_LINES) * (i + shift), "rank": 4 - i, "buildings": [],
                 "personalities": []}
                for i, (n, c) in enumerate(zip(NAMES, ("red", "blue", "green", "yellow"), strict=True))
            ],
        )  # fmt: skip


def _no_sideways_scroll(page: Any) -> None:
    wide = page.evaluate(
        "[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > 392"
        " && !e.parentElement.closest('.rs-scroll')).map(e => e.tagName + '.' + e.className).slice(0, 5)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide
    assert wide == []


def test_finish_file_and_find_an_osaka_game_at_phone_width(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    game = _near_the_end()
    group = Group.objects.create(name="Thursday")
    _iki_games(group)
    own = game.seats.get(seat=2).private_url()
    page.goto(live_server.url + own)  # David's own link: listed as his
    page.goto(live_server.url + game.view_url())
    page.goto(live_server.url + game.edit_url())
    page.click("#enter-payday")
    page.wait_for_load_state()  # htmx binds the ships' change on load: a choice made before that sends nothing
    with page.expect_response(lambda r: "/payday?" in r.url and r.request.method == "GET"):
        page.select_option("#id_edo1", "yellow")
    page.locator("[name=p0-goods_yellow_3]").fill("1")
    page.locator("[name=p1-goods_yellow_5]").fill("2")
    expect(page.locator("#osaka-end")).to_contain_text("The game ends")  # the preview
    page.click("#work-it-out")  # "Record this payday": Anaïs's 8th token ends the game
    expect(page.locator("#final")).to_contain_text("Game over")
    expect(page.locator("#keep")).to_contain_text("Send to BG Stats")
    screenshot(page, "osaka-result-panel")
    page.get_by_label("Your group's link, or a name for a new group").fill(
        live_server.url + group.get_absolute_url()
    )
    page.get_by_role("button", name="File it").click()
    page.wait_for_url(re.compile(r"/osaka/games/.*#keep"))
    expect(page.locator("#keep")).to_contain_text("Kept in your group Thursday")
    page.get_by_role("link", name="Open the group").click()
    page.wait_for_url(re.compile(r"/groups/"))
    expect(page.locator("#stats-osaka")).to_have_text("Traders of Osaka: 1 game")
    expect(page.locator("#stats-iki-akebono")).to_have_text("IKI + Akebono: 2 games")
    expect(page.locator(".rs-games")).to_contain_text("David Martin 2 VP")
    _no_sideways_scroll(page)
    expect(page.locator("nav[aria-label=Main] a[aria-current=page]")).to_have_text(["Score"])
    screenshot(page, "osaka-result-group")
    page.goto(live_server.url + "/")
    recent = page.locator("#recent")
    expect(recent).to_be_visible()
    items = recent.locator("li")
    expect(items.filter(has_text="Osaka game: Anaïs Lenoir, David Martin")).to_contain_text("finished")
    expect(items.filter(has_text="Osaka game (view only)")).to_have_count(1)
    expect(items.filter(has_text="Osaka game, David Martin's own link")).to_have_count(1)
    assert page.locator("nav[aria-label=Main] a[aria-current]").count() == 0  # home: no section
    _no_sideways_scroll(page)
    screenshot(page, "osaka-result-home-recent")


@pytest.mark.parametrize(
    ("path", "current"),
    [("/setup/", "Setup"), ("/games/new/", "Track"), ("/score/", "Score"), ("/check/", "Score"),
     ("/osaka/payday/", "Payday"), ("/osaka/games/new/", "Track"), ("/osaka/", None)],
)  # fmt: skip
def test_the_top_bar_marks_only_the_current_section(
    live_server: Any, page: Any, path: str, current: str
) -> None:
    page.goto(live_server.url + path)
    marked = page.locator("nav[aria-label=Main] a[aria-current=page]")
    expect(marked).to_have_text([current] if current else [])
    other = page.locator("nav[aria-label=Main] a.other-game")
    style = other.evaluate("e => getComputedStyle(e).backgroundColor + ' ' + getComputedStyle(e).fontWeight")
    assert style in ("rgba(0, 0, 0, 0) 400", "rgba(0, 0, 0, 0) normal"), (
        style
    )  # the other game: never selected
