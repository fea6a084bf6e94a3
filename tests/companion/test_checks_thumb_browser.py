"""The pad check under the thumb (a 390x844 phone): a Check tapped on a player's tab comes back on that player
with the button where the thumb is, with JavaScript or without, and so does the keyboard's Go key; at 200% text
every line's label still reads whole beside or above its number."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Every visible line label of the shown player, with the lines of text it takes.
LABEL_LINES = (
    "[...document.querySelectorAll('.ck-row label')].filter((l) => l.offsetParent).map((l) => "
    "[l.textContent.trim(), Math.round(l.getBoundingClientRect().height / parseFloat(getComputedStyle(l).lineHeight))])"
)


def _start_three(page: Any, base: str, *, akebono: bool = False) -> None:
    page.goto(base + "/check/")
    for i, name in enumerate(("Anaïs", "David", "Dominique")):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.locator("#colour-1").select_option("blue")
    page.locator("#colour-2").select_option("green")
    if akebono:
        page.locator("label:has(input[name='edition'][value='akebono'])").click()
    page.get_by_role("button", name="Start checking").click()
    page.wait_for_url(re.compile(r"/check/\?"))


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


@pytest.mark.parametrize("javascript", [True, False])
def test_check_comes_back_on_the_player_under_the_thumb(
    live_server: Any, new_context: Any, javascript: bool
) -> None:
    """Typing the third player's pad and tapping Check used to come back at the top of the page on the first
    player: the table had to find its player and scroll down again to read the verdict."""
    page = new_context(java_script_enabled=javascript).new_page()
    _start_three(page, live_server.url)
    page.get_by_role("link", name=re.compile("^Dominique")).click()
    page.locator("#p2-variety").fill("12")
    page.get_by_role("button", name="Check", exact=True).click()
    page.wait_for_url(re.compile(r"p2-variety=12"))
    expect(page.locator("#p2")).to_be_visible()
    expect(page.locator("#p0")).to_be_hidden()
    expect(page.locator("#p2-variety-msg")).to_contain_text("variety 12 is impossible")
    assert _in_view(page, "#p2-check"), page.locator("#p2-check").bounding_box()
    expect(page.locator("#verdict")).to_contain_text("1 number cannot be right")


def test_the_go_key_in_a_field_comes_back_on_its_player(live_server: Any, page: Any) -> None:
    """The keyboard's Go key submits the form with its first button (the players' Check again): it comes back
    on the player being typed, not on the first one at the top."""
    _start_three(page, live_server.url)
    page.get_by_role("link", name=re.compile("^David")).click()
    page.locator("#p1-fish").fill("2")
    page.locator("#p1-fish").press("Enter")
    page.wait_for_url(re.compile(r"p1-fish=2.*#p1-check$"))
    expect(page.locator("#p1")).to_be_visible()
    expect(page.locator("#p1-fish-msg")).to_contain_text("fish 2 is impossible")


def test_at_200_percent_text_every_label_reads_whole(live_server: Any, page: Any, screenshot: Any) -> None:
    """The phone's text size at 200%: a line's label used to be squeezed beside its number to a letter a line
    ("P / e / r / s / o / n / ..."); it takes the row, the number under it."""
    page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    _start_three(page, live_server.url, akebono=True)
    labels = page.evaluate(LABEL_LINES)
    assert len(labels) == 9 and all(lines <= 2 for _, lines in labels), labels
    box = page.locator("#p0-personalities").bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "check-200-text")
