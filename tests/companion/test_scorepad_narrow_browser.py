"""The walk-through on a 390x844 phone with four twelve-character names and three-digit totals (issue 23, "Small
screens"): the sticky totals bar shows every whole total, each player's tab a short unique label (first letters
until unique) and the whole total, the page never scrolls sideways, and every tap target is at least 44 px."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from companion.scorepad.services import start_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Twelve characters each; David and Dominique begin alike, as the issue's table did.
NAMES = ("Anaïs Dubois", "Dominique Ro", "David Martin", "Bartholomews")
SHORT = ("A", "Do", "Da", "B")
TOTALS = (108, 99, 127, 100)
TARGET = 44

#: Every visible control that is not a word inside a sentence (a box or radio: its label), with its box.
MEASURE = """() => {
  const boxes = [];
  for (let el of document.querySelectorAll('a, button, select, input:not([type=hidden]), summary, [role=tab]')) {
    if (el.matches('[type=radio], [type=checkbox]') && el.closest('label')) el = el.closest('label');  // the tap's target
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest('p, li:not(.sp-steps li)')) continue;
    boxes.push({what: el.id || el.textContent.trim().slice(0, 30) || el.outerHTML.slice(0, 60),
                w: r.width, h: r.height});
  }
  return {scroll: document.documentElement.scrollWidth, width: window.innerWidth, boxes};
}"""

CLIPPED = """(el) => {
  const r = el.getBoundingClientRect();
  for (let p = el; p && p !== document.body; p = p.parentElement) {
    const q = p.getBoundingClientRect();
    if (p.scrollWidth > p.clientWidth + 1 && getComputedStyle(p).overflowX !== 'visible') return p.className;
    if (r.left < q.left - 1 || r.right > q.right + 1) return p.className || p.tagName;
  }
  return r.right > window.innerWidth + 1 ? 'viewport' : '';
}"""


def test_four_long_names_and_three_digit_totals_fit_a_phone(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    sheet = start_sheet(
        names=list(NAMES),
        colours=["red", "blue", "green", "purple"],
        akebono=True,
        prefill={name: {"score_track": total} for name, total in zip(NAMES, TOTALS, strict=True)},
    )
    page.goto(f"{live_server.url}/score/{sheet.token}/track/?p=1")
    expect(page.get_by_role("tab", selected=True)).to_contain_text(str(TOTALS[1]))
    bar = page.locator("#sp-totals")
    screenshot(page, "scorepad-narrow-four-players")
    for i, total in enumerate(TOTALS):
        tab = page.locator(f"#tab-p{i}")
        expect(tab).to_have_accessible_name(f"{NAMES[i]} {total}")
        assert tab.locator(".sp-tab-name").inner_text() == SHORT[i]
        for shown in (
            tab.locator(".sp-tab-name"),
            tab.locator(f"#tab-p{i}-count strong"),
            bar.locator(f"#total-p{i}"),
        ):
            assert shown.evaluate(CLIPPED) == "", f"{NAMES[i]}: {shown} is cut short"
        expect(bar.locator(f"#total-p{i}")).to_have_text(str(total))
        assert tab.bounding_box()["y"] == page.locator("#tab-p0").bounding_box()["y"], "the tabs fill one row"
        assert bar.locator(f"#total-p{i}").evaluate("el => el.scrollWidth <= el.clientWidth")
        assert bar.locator(f"#total-p{i}").bounding_box()["y"] == bar.locator("#total-p0").bounding_box()["y"]
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= measured["width"], "the page scrolls sideways"
    small = [b for b in measured["boxes"] if b["w"] < TARGET or b["h"] < TARGET]
    assert not small, f"targets under {TARGET} px: {small}"
    assert len(measured["boxes"]) > 10  # the tabs, the steps, the stepper and Next were all measured


def test_the_pad_check_fits_the_same_table(live_server: Any, page: Any, screenshot: Any) -> None:
    """The pad check's tabs: the same short labels and whole totals, every tab on the screen."""
    query = urlencode(
        [
            *((f"name-{i}", name) for i, name in enumerate(NAMES)),
            *((f"colour-{i}", c) for i, c in enumerate(("red", "blue", "green", "purple"))),
            *((f"p{i}-total", str(total)) for i, total in enumerate(TOTALS)),
        ]
    )
    page.goto(f"{live_server.url}/check/?{query}")
    expect(page.locator("#p0-tab-total")).to_have_text(str(TOTALS[0]))
    screenshot(page, "check-narrow-four-players")
    for i, total in enumerate(TOTALS):
        tab = page.locator(f".ck-tab[data-seat='{i}']")
        expect(tab).to_have_accessible_name(re.compile(rf"^{NAMES[i]} {total}"))
        assert tab.locator(".ck-tab-name").inner_text() == SHORT[i]
        assert tab.evaluate(CLIPPED) == "", f"{NAMES[i]}'s tab is cut short"
    measured = page.evaluate(MEASURE)
    assert measured["scroll"] <= measured["width"], "the page scrolls sideways"
    small = [b for b in measured["boxes"] if b["w"] < TARGET or b["h"] < TARGET]
    assert not small, f"targets under {TARGET} px: {small}"
    assert len(measured["boxes"]) > 10
