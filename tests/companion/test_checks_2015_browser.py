"""The pad checks on a 390x844 phone (issue 23): the 2015 pad typed as written, its problems all at once and its
result kept; four twelve-character names on both checks with no horizontal scroll of the page, tabs that fit (or,
when the names share eleven letters, scroll inside their own row), and every target at least 44 px tall."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.companion.test_checks_browser import _settled, _type

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Four twelve-character names, two pairs that share their first eleven letters.
NAMES = ("Alexandrinea", "Alexandrineb", "Bartholomews", "Bartholomewz")
#: Four twelve-character names as a table has them: the tabs show "Al", "Ad", "Do" and "Da".
TWELVE = ("Alexandrines", "Adelheidrose", "Dominiqueann", "Davidmichael")
LABELS = {NAMES: list(NAMES), TWELVE: ["Al", "Ad", "Do", "Da"]}
#: What a thumb can tap on the check pages (a radio or checkbox is tapped through its label).
TARGETS = (
    "main a, main button, main summary, main select, "
    "main input:not([type=hidden]):not([type=radio]):not([type=checkbox]), "
    "main label:has(input[type=radio]), main label:has(input[type=checkbox])"
)


def _small_targets(page: Any) -> list[str]:
    return list(
        page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)]
                .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
                .filter(e => e.getBoundingClientRect().height < 44)
                .map(e => `${e.tagName} ${e.id || e.getAttribute('href') || e.textContent.trim().slice(0, 30)}`
                          + ` ${Math.round(e.getBoundingClientRect().height)}px`)""",
            TARGETS,
        )
    )


def _start(page: Any, url: str, names: tuple[str, ...]) -> None:
    page.goto(url)
    for i, name in enumerate(names):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start checking").click()
    page.wait_for_url(re.compile(r"\?"))


def test_a_written_2015_pad_is_checked_all_at_once_and_kept(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    """RULINGS E1-E5 at the table: the printed values typed once, Hana's and Jiro's lines as written with two
    slips; both flagged at once, then fixed and kept."""
    _start(page, live_server.url + "/check/2015/", ("Hana", "Jiro"))
    expect(page.locator("#verdict")).to_contain_text("Type your pad's numbers")
    page.locator("#printed summary").click()
    for field, value in {
        "bonito": 5,
        "sea_bream": 7,
        "pouches": "2 3 4 5",
        "constructions": "2 3 4 5 6 8",
    }.items():
        _settled(page)
        page.locator(f"#{field}").fill(str(value))
        page.locator(f"#{field}").press("Tab")
    _type(page, 0, {"score_track": 31, "variety": 12, "fish": 15, "tobacco": 10, "buildings": 13, "resources": 9,
                    "total": 94})  # fmt: skip
    page.locator("label:has(input[name='p0-pipe'][value='yes'])").click()
    page.get_by_role("link", name=re.compile("^Jiro")).click()
    _type(page, 1, {"score_track": 70, "variety": 4, "fish": 0, "tobacco": 15, "buildings": 0, "resources": 0,
                    "total": 78})  # fmt: skip
    page.locator("label:has(input[name='p1-pipe'][value='no'])").click()
    _settled(page)
    expect(page.locator("#verdict")).to_contain_text("2 numbers cannot be right")
    expect(page.locator("#verdict")).to_contain_text("variety 12 is impossible")
    expect(page.locator("#verdict")).to_contain_text("tobacco 15 is impossible")
    expect(page.locator("#p1-flag")).to_contain_text("1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "check-2015-written-doubts")
    _type(page, 1, {"tobacco": 4, "total": 78})
    page.get_by_role("link", name=re.compile("^Hana")).click()
    _type(page, 0, {"variety": 16})
    _settled(page)
    expect(page.locator("#verdict")).to_contain_text("Every number can be right")
    expect(page.locator("#p0-tab-total")).to_have_text("94")
    screenshot(page, "check-2015-written-clean")
    page.get_by_role("button", name="Keep this result").click()
    page.wait_for_url(re.compile(r"/results/[A-Za-z0-9_-]{22,}/$"))
    expect(page.locator("h1")).to_contain_text("IKI 2015")


@pytest.mark.parametrize(("path", "names"), [("/check/", NAMES), ("/check/2015/", TWELVE)])
def test_four_long_names_fit_and_every_target_is_a_thumb_s(
    live_server: Any, page: Any, screenshot: Any, path: str, names: tuple[str, ...]
) -> None:
    page.goto(live_server.url + path)
    assert _small_targets(page) == []
    _start(page, live_server.url + path, names)
    for seat in range(4):
        if seat:
            page.locator(f".ck-tab[data-seat='{seat}']").click()
        _type(page, seat, {"score_track": 100 + seat, "total": 100 + seat})
    _settled(page)
    tabs = page.locator(".ck-tab")
    expect(tabs).to_have_count(4)
    labels = [t.strip() for t in page.locator(".ck-tab-name").all_inner_texts()]
    assert labels == LABELS[names]  # the first letters until unique
    expect(page.locator("#p3-tab-total")).to_have_text("103")  # the whole total
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no horizontal scroll of the page
    bar = page.locator(".ck-tabs").bounding_box()
    assert bar is not None and bar["x"] >= 0 and bar["x"] + bar["width"] <= 390  # the row keeps to its box
    clipped = page.evaluate(
        "[...document.querySelectorAll('.ck-tab')].filter(t => t.scrollWidth > t.clientWidth)"
    )
    assert clipped == []  # each tab shows its label and total whole
    page.locator(".ck-tab[data-seat='3']").scroll_into_view_if_needed()
    last = page.locator(".ck-tab[data-seat='3']").bounding_box()
    assert last is not None and last["x"] >= 0 and last["x"] + last["width"] <= 390  # reachable whole
    page.locator("#check-help summary").click()
    assert _small_targets(page) == []
    screenshot(page, f"check-four-names{path.replace('/', '-').rstrip('-')}")
    if names == TWELVE:  # the short labels fit the row: nothing to scroll
        assert page.evaluate(
            "(() => { const t = document.querySelector('.ck-tabs'); "
            "return t.scrollWidth <= t.clientWidth; })()"
        )
