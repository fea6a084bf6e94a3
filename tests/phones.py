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
