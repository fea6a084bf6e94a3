"""The pad check on a 390x844 phone: the rulebook example typed one player at a time (no flag), an impossible
variety flagged as it is typed, the walk into the walk-through, and the same page without JavaScript."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import evaluate
from scoring.examples import WORKED_EXAMPLE
from tests.phones import select_room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: iki-rulebook.txt "END OF THE GAME AND SCORING": the lines the scorer writes for Anaïs (100) and David (41).
ANAIS, DAVID = ({**p["lines"], "total": p["total"]} for p in evaluate(WORKED_EXAMPLE)["players"])


def _settled(page: Any) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


def _start(page: Any, base: str) -> None:
    page.goto(base + "/check/")
    page.get_by_label("Player 1", exact=True).fill("Anaïs")
    page.get_by_label("Player 2", exact=True).fill("David")
    page.locator("#colour-1").select_option("blue")
    page.get_by_role("button", name="Start checking").click()
    page.wait_for_url(re.compile(r"/check/\?"))


def _type(page: Any, seat: int, lines: dict[str, int]) -> None:
    for line, value in lines.items():
        _settled(page)
        field = page.locator(f"#p{seat}-{line}")
        field.fill(str(value))
        field.press("Tab")


def test_the_rulebook_pad_checks_clean_one_player_at_a_time(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    _start(page, live_server.url)
    expect(page.locator("#p0")).to_be_visible()
    expect(page.locator("#p1")).to_be_hidden()  # one player at a time
    _type(page, 0, ANAIS)
    page.locator("label:has(input[name='p0-pipe'][value='yes'])").click()
    page.get_by_role("link", name=re.compile("^David")).click()
    expect(page.locator("#p1")).to_be_visible()
    expect(page.locator("#p0")).to_be_hidden()
    _type(page, 1, DAVID)
    _settled(page)
    expect(page.locator("#verdict")).to_contain_text("Every number can be right")
    expect(page.locator("#verdict")).to_contain_text("Anaïs 100")
    page.mouse.wheel(0, 2000)  # scrolled down, the tabs stay in reach below the top bar
    page.wait_for_function("window.scrollY > 0")  # the scroll has happened
    tabs, bar = page.locator(".ck-tabs").bounding_box(), page.locator(".topbar").bounding_box()
    assert tabs is not None and bar is not None and tabs["y"] >= bar["y"] + bar["height"] - 1
    box = page.locator("#p1-variety").bounding_box()
    assert box is not None and box["height"] >= 44  # a thumb's target
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    screenshot(page, "check-clean")


def test_an_impossible_variety_is_flagged_and_walked(live_server: Any, page: Any, screenshot: Any) -> None:
    _start(page, live_server.url)
    _type(page, 0, {"variety": 12})
    _settled(page)
    expect(page.locator("#p0-variety-msg")).to_contain_text("variety 12 is impossible: 1, 4, 9, 16 or 25")
    expect(page.locator("#p0-flag")).to_contain_text("1")
    screenshot(page, "check-flagged")
    page.get_by_role("button", name="Find it in the walk-through: Characters").click()
    page.wait_for_url(re.compile(r"/score/[A-Za-z0-9_-]{20,}/characters/\?target=variety%3A12"))
    expect(page.locator("#check-target")).to_contain_text("variety was written as 12")
    screenshot(page, "check-walk-target")


def test_the_check_works_without_javascript(live_server: Any, new_context: Any) -> None:
    page = new_context(java_script_enabled=False).new_page()
    _start(page, live_server.url)
    page.locator("#p0-variety").fill("12")
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.locator("#p0-variety-msg")).to_contain_text("variety 12 is impossible")
    expect(page.locator("#p0-variety")).to_have_value("12")  # the URL kept the pad


def test_a_2015_pad_is_added_up_and_kept(live_server: Any, page: Any, screenshot: Any) -> None:
    """RULINGS E1: Hana's printed values typed in; the companion adds up 94 and keeps the result."""
    page.goto(live_server.url + "/check/2015/work/")
    page.get_by_label("Player 1", exact=True).fill("Hana")
    page.get_by_label("Player 2", exact=True).fill("Jiro")
    page.locator("#colour-1").select_option("blue")
    page.get_by_role("button", name="Start").click()
    for field, value in {"score_track": 31, "types": 4, "fish_seasons": 3, "bonito": 5, "pouches": "2 3",
                         "pipes": 1, "constructions": "5 8", "koban": 2, "lumber": 1, "mon": 11}.items():  # fmt: skip
        page.locator(f"#p0-{field}").fill(str(value))
    page.get_by_role("button", name="Add it up").click()
    expect(page.locator(".ck-ranking")).to_contain_text("Hana 94")
    screenshot(page, "check-2015")
    page.get_by_role("button", name="Keep this result").click()
    page.wait_for_url(re.compile(r"/results/[A-Za-z0-9_-]{22,}/$"))
    expect(page.locator("h1")).to_contain_text("IKI 2015")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "check-2015-kept")


def test_a_grand_master_pad_with_one_mistake(live_server: Any, page: Any, screenshot: Any) -> None:
    """Issue 19 on the phone: the Grand Master box ticked with seed QQQQ4444 lets Ikku's 6 stand; then a fish
    line typed 2 under a total of 100 is one number in doubt, its total listed as following from it."""
    page.goto(live_server.url + "/check/")
    expect(page.locator("#verdict")).to_have_count(0)
    page.get_by_label("Player 1", exact=True).fill("Anaïs")
    page.get_by_label("Player 2", exact=True).fill("David")
    page.locator("#colour-1").select_option("blue")
    page.locator("label:has(input[name='edition'][value='akebono'])").click()
    page.locator("#seed").fill("QQQQ4444")
    page.get_by_label("The setup was made with the Grand Master variant (2 players, Akebono)").check()
    page.locator("#check-help summary").click()
    box = page.locator("label[for=grand_master]").bounding_box()
    assert box is not None and box["height"] >= 44  # a thumb's target
    screenshot(page, "check-start-grand-master")
    page.get_by_role("button", name="Start checking").click()
    page.wait_for_url(re.compile(r"grand_master=1"))
    expect(page.locator("#verdict")).to_contain_text("Type your pad's numbers")
    _type(page, 0, {"personalities": 6})
    _settled(page)
    expect(page.locator("#verdict")).to_contain_text("Every number can be right")
    _type(
        page, 0, {"score_track": 30, "variety": 9, "fish": 2, "tobacco": 4, "buildings": 26, "resources": 2}
    )
    _type(page, 0, {"total": 80})
    _settled(page)
    expect(page.locator("#verdict")).to_contain_text("1 number cannot be right")
    expect(page.locator("#verdict")).to_contain_text("It follows from Anaïs's fish")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "check-one-mistake")


def test_a_reload_or_a_walk_and_back_keeps_what_was_typed(live_server: Any, page: Any) -> None:
    """A phone that sleeps and reloads, or a table that walks a line in doubt and comes back, finds the pad as
    typed: each live check keeps the whole pad in the address, on the player's tab, and switching tabs adds no
    step to Back (Back leaves the check rather than showing an older pad)."""
    _start(page, live_server.url)
    _type(page, 0, {"score_track": 28})
    _settled(page)
    page.locator("#p0-variety").fill("12")
    page.get_by_role("link", name=re.compile("^David")).click()  # its check answers once David's tab is shown
    _settled(page)
    page.wait_for_url(re.compile(r"p0-variety=12.*#p1$"))
    _type(page, 1, {"score_track": 40})
    _settled(page)
    page.wait_for_url(re.compile(r"p1-score_track=40.*#p1$"))
    page.reload()
    expect(page.locator("#p1")).to_be_visible()  # the player being typed
    expect(page.locator("#p1-score_track")).to_have_value("40")
    expect(page.locator("#p0-variety")).to_have_value("12")
    expect(page.locator("#p0-variety-msg")).to_contain_text("variety 12 is impossible")
    page.get_by_role("link", name=re.compile("^Anaïs")).click()
    page.get_by_role("button", name="Find it in the walk-through: Characters").click()
    page.wait_for_url(re.compile(r"/score/"))
    page.go_back()
    expect(page.locator("#p0")).to_be_visible()
    expect(page.locator("#p0-variety")).to_have_value("12")
    expect(page.locator("#p1-score_track")).to_have_value("40")
    page.go_back()  # the tabs were no steps of their own: Back leaves the typed pad for the page before it
    page.wait_for_url(re.compile(r"/check/$"))


def test_a_message_under_the_line_just_typed_leaves_the_next_field_where_it_was(
    live_server: Any, page: Any
) -> None:
    """Typing down the pad, a line's message appears under it as the next field is tapped: that field (where
    the thumb and the keyboard are) stays where it was on the screen, at the top of the page and scrolled."""
    _start(page, live_server.url)
    for scrolled, (line, value) in ((0, ("variety", 12)), (250, ("fish", 2))):
        page.evaluate(f"window.scrollTo(0, {scrolled})")
        page.wait_for_function(f"window.scrollY === {scrolled}")
        page.locator(f"#p0-{line}").fill(str(value))
        following = page.locator(f".ck-row:has(#p0-{line}) + .ck-row input")
        before = following.bounding_box()
        following.tap()
        expect(page.locator(f"#p0-{line}-msg")).to_contain_text(f"{line} {value} is impossible")
        _settled(page)
        after = following.bounding_box()
        assert before is not None and after is not None
        assert abs(after["y"] - before["y"]) <= 1, (line, before, after)


def test_a_long_setup_code_is_taken_whole(live_server: Any, page: Any) -> None:
    """A setup code with parts drawn again and house rules (43 characters, under the 64 a code may have) is
    typed whole: cut short, it is another code, or none."""
    code = "K7MX2QPA.RTCDB4QF7XSEFA22GAB.X2569ABFM.VFJK"
    page.goto(live_server.url + "/check/")
    page.get_by_label("Player 1", exact=True).fill("Anaïs")
    page.get_by_label("Player 2", exact=True).fill("David")
    page.locator("#colour-1").select_option("blue")
    page.locator("label:has(input[name='edition'][value='akebono'])").click()
    page.locator("#seed").fill(code)
    expect(page.locator("#seed")).to_have_value(code)
    page.get_by_role("button", name="Start checking").click()
    page.wait_for_url(re.compile(r"/check/\?"))
    expect(page.locator("#verdict")).to_contain_text("Type your pad's numbers")


@pytest.mark.parametrize("url", ["/check/", "/check/2015/"])
def test_each_colour_is_read_whole_on_the_start_form(live_server: Any, page: Any, url: str) -> None:
    """The players' colours sit in a card inside the page's card: each colour's name still shows whole beside
    the drop-down arrow (20 px), not "Greer" for Green."""
    page.goto(live_server.url + url)
    room = select_room(page, ".player-row select")
    assert len(room) == 4 and min(room) >= 0, room


def test_a_live_check_the_server_cannot_answer_keeps_what_was_typed(live_server: Any, page: Any) -> None:
    """A live check sent while the server restarts (a proxy's 502) swaps nothing (templates/base.html's htmx
    configuration swaps an error page only for a refused form, 403 or 429): the numbers typed stay, and the next
    change checks again."""
    _start(page, live_server.url)
    _type(page, 0, {"score_track": 40})
    page.route("**/check/?*", lambda route: route.fulfill(status=502, body="Bad gateway"))
    with page.expect_response(lambda r: r.status == 502):
        field = page.locator("#p0-variety")
        field.fill("9")
        field.press("Tab")
    _settled(page)
    page.unroute("**/check/?*")
    expect(page.locator("#p0-score_track")).to_have_value("40")
    expect(page.locator("#p0-variety")).to_have_value("9")
    expect(page.locator("#p0")).to_be_visible()
    _type(page, 0, {"fish": 3})
    expect(page).to_have_url(re.compile(r"p0-variety=9"))  # checked again, the pad kept in the address


@pytest.mark.parametrize("text", ["100%", "200%"])
def test_the_players_tabs_stick_right_under_the_top_bar(live_server: Any, page: Any, text: str) -> None:
    """Scrolled down a player's lines, the players' tabs stay right under the top bar: no strip of the page
    showing between them (the bar is one row at any text size, tests/companion/test_phone_browser.py)."""
    _start(page, live_server.url)
    if text == "200%":
        page.evaluate("document.documentElement.style.fontSize = '200%'")
    page.locator("#p0-rank").scroll_into_view_if_needed()
    page.mouse.wheel(0, 300)
    page.wait_for_function("() => window.scrollY > 300")
    bar = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().bottom")
    tabs = page.evaluate("document.querySelector('.ck-tabs').getBoundingClientRect().top")
    assert abs(tabs - bar) <= 1, (bar, tabs)
