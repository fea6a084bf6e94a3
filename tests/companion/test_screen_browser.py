"""The table screen on a laptop across the table (templates/screen_game.html, screen.css): the room reads the
titles; the lines under them, the event's text and "Hidden until a player reveals it", are smaller."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZE = "(el) => parseFloat(getComputedStyle(el).fontSize)"


def test_a_hidden_event_s_line_is_no_larger_than_its_text(live_server: Any, new_context: Any) -> None:
    game = make_game(akebono=True)  # month 1: a reveal due, hidden until a player makes it
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{live_server.url}/games/{game.view_token}/screen")
    event = page.locator(".screen-events li", has_text="Hidden until a player reveals it.").first
    hidden = event.locator(".muted", has_text="Hidden until")
    title = event.locator("strong")
    asks = event.locator(".screen-asks")
    assert hidden.evaluate(SIZE) < title.evaluate(SIZE)
    if asks.count():
        assert hidden.evaluate(SIZE) == asks.evaluate(SIZE)
