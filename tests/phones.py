"""Helpers of the browser tests where several phones share a tracked game: a phone signed as a player, and where
an element stands on its screen."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from companion.presenters.tracker.state import WHO_COOKIE


def phone_as(new_context: Any, url: str, who: str, **options: Any) -> Any:
    """A phone (a fresh browser context, tests/conftest.py, with ``options``) signed as ``who`` (the tracker's
    who-cookie), on ``url``."""
    context = new_context(**options)
    context.add_cookies([{"name": WHO_COOKIE, "value": quote(who), "url": url}])
    page = context.new_page()
    page.goto(url)
    return page


def top_of(page: Any, selector: str) -> float:
    """The top of the element ``selector`` names, in the viewport (CSS px)."""
    return float(page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().top", selector))


#: Each shown drop-down's room to spare (CSS px): its inner width less its padding, its arrow (20 px) and its
#: widest choice's text measured in its own font; below 0, a choice is cut ("Choos", "Greer").
SELECT_ROOM = """(selector) => [...document.querySelectorAll(selector)].map(s => {
    const pen = document.createElement('canvas').getContext('2d'), style = getComputedStyle(s);
    pen.font = style.font;
    const text = Math.max(...[...s.options].map(o => pen.measureText(o.text).width));
    return s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20 - text; })"""


def select_room(page: Any, selector: str) -> list[float]:
    """:data:`SELECT_ROOM` of the drop-downs ``selector`` names."""
    return [float(r) for r in page.evaluate(SELECT_ROOM, selector)]
