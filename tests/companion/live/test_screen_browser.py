"""The table screen in Chromium against the ASGI server (issue 25, "The big screen"): a laptop-sized screen and a
phone-sized one follow a tracked IKI game and an Osaka game; a tap on a phone shows on the screen within a poke
of the stream, and within a poll when the stream is blocked. Screenshots at 1280x720 and 390x844."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.companion.live.conftest import Table
from tests.companion.live.test_tracker_browser import _add, _open, new_game

pytestmark = [pytest.mark.browser, pytest.mark.poke]
TV = {
    "viewport": {"width": 1280, "height": 720},
    "is_mobile": False,
    "has_touch": False,
    "device_scale_factor": 1,
}


def _screen(page: Any, url: str, *, stream: bool = True) -> None:
    page.goto(url)
    how = "stream" if stream else "poll"
    page.wait_for_function(f"() => document.documentElement.dataset.liveBy === '{how}'")


def test_a_tap_on_a_phone_shows_on_the_table_screen(table: Table, new_context: Any, screenshot: Any) -> None:
    edit, view = new_game(table)
    phone = new_context().new_page()
    tv = new_context(**TV).new_page()
    small = new_context().new_page()  # a phone used as the screen, its stream blocked: it polls
    small.route("**/live/**", lambda route: route.abort())
    _open(phone, table, edit)
    _screen(tv, f"{table.base}/games/{edit}/screen")  # the edit link's screen is the view link's
    assert tv.url == f"{table.base}/games/{view}/screen"
    _screen(small, f"{table.base}/games/{view}/screen", stream=False)
    expect(tv.locator("#screen-score-1")).to_have_text("0")
    _add(phone, 1, 3)
    expect(tv.locator("#screen-score-1")).to_have_text("3")
    expect(small.locator("#screen-score-1")).to_have_text("3")
    phone.click("#fire-add-2")
    expect(tv.locator("#screen-fire-2")).to_have_text("1")
    # The month's New Character is due and hidden: the screen says so without naming it, until it is revealed.
    expect(tv.locator("#screen-now")).to_contain_text("Hidden until a player reveals it.")
    assert tv.locator(".screen-reveal").count() == 0
    phone.click("#next")
    phone.click("#ask-reveal")
    expect(tv.locator("#screen-now .screen-reveal")).to_have_count(1)
    expect(tv.locator("#screen-now")).not_to_contain_text("Hidden until")
    phone.click("#next")
    expect(tv.locator(".screen-phases li.current")).to_have_text(re.compile(r"^B "))
    expect(small.locator(".screen-phases li.current")).to_have_text(re.compile(r"^B "))
    # Large type: a score is readable across the room, and the QR code is there to join.
    size = tv.locator("#screen-score-1").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 48, size
    assert tv.locator(".screen-join svg").count() == 1
    assert tv.locator("main form, main button").count() == 0  # nothing to write with
    # Nothing scrolls sideways on a phone.
    assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(tv, "screen-iki-1280x720")
    screenshot(small, "screen-iki-390x844")


def test_an_osaka_token_shows_on_the_table_screen(table: Table, new_context: Any, screenshot: Any) -> None:
    edit, view = table.osaka(("Ann", "Ben", "Cho"))
    phone = new_context().new_page()
    tv = new_context(**TV).new_page()
    phone.goto(f"{table.base}/osaka/games/{edit}/")
    phone.wait_for_function("() => document.documentElement.dataset.liveBy === 'stream'")
    _screen(tv, f"{table.base}/osaka/games/{view}/screen")
    expect(tv.locator("#screen-total-2")).to_have_text("0")
    phone.locator("#change-2 summary").click()
    phone.click("#take-2-green-go")
    expect(tv.locator("#screen-tok-2-green")).to_have_text("1")
    expect(tv.locator("#screen-total-2")).to_have_text("1")
    assert tv.locator("main form, main button").count() == 0
    screenshot(tv, "screen-osaka-1280x720")
