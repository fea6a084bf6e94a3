"""A phone's times in its own time zone (companion/timezones.py): recent.js keeps the zone in a cookie on the first
page, and every page after shows the server's times in it."""

from __future__ import annotations

from typing import Any

import pytest

from companion.models.games import Change
from tests.companion.test_timezones import EVENING
from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_in_california_reads_its_own_time(live_server: Any, new_context: Any) -> None:
    game = make_game()
    Change.objects.filter(game=game).update(at=EVENING)
    page = new_context(timezone_id="America/Los_Angeles").new_page()
    page.goto(f"{live_server.url}/")  # the first page: the server has no zone of the phone yet
    page.goto(f"{live_server.url}/games/{game.edit_token}/log")
    assert "2026-01-14 20:30:05" in page.locator("main").inner_text()
    assert {"name": "tz", "value": "America/Los_Angeles"}.items() <= next(
        c for c in page.context.cookies() if c["name"] == "tz"
    ).items()
