"""The table screen on a laptop across the table (templates/screen_game.html, screen.css): the room reads the
titles; the lines under them, the event's text and "Hidden until a player reveals it", are smaller."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from companion.models.games import Game
from scoring.calendar import due_reveals
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


#: Screens a table puts across the table: a 720p TV, a laptop, a 1080p TV.
SCREENS = ((1280, 720), (1366, 768), (1280, 800), (1920, 1080))
FOUR = ("Anaïs Lenoir", "David Martin", "Dominique Ro", "Ulric Fabian")


def _moved_on(game: Game, client: Client, *, steps: int, reveal: bool) -> Game:
    """``game`` moved on ``steps`` phases by its edit link's "Next", revealing what is due first if asked."""
    for _ in range(steps):
        game.refresh_from_db()
        due = [
            k
            for k in due_reveals(game.month, game.phase_enum, game.options, game.setup)
            if k not in game.revealed
        ]
        if reveal and due:
            client.post(f"/games/{game.edit_token}/change", {"op": "reveal", "key": " ".join(due)})
            game.refresh_from_db()
        client.post(f"/games/{game.edit_token}/change", {"op": "next", "v": game.version})
    game.refresh_from_db()
    return game


def test_the_screen_fits_a_tv_no_one_scrolls(live_server: Any, new_context: Any) -> None:
    """Four players with Akebono, a fire month's phase C (its trade track income, the firefighting order), and a
    table that taps no reveal until month 10 (every New Character, fire tile and season's personalities still
    due): the whole screen fits each screen's height, its last line (back to the game) included."""
    client = Client()
    games = [
        _moved_on(make_game(FOUR, akebono=True), client, steps=14, reveal=True),  # month 5, phase C
        _moved_on(make_game(FOUR, akebono=True), client, steps=27, reveal=False),  # month 10, phase A
    ]
    assert [(g.month, g.phase) for g in games] == [(5, "C"), (10, "A")]
    for width, height in SCREENS:
        page = new_context(viewport={"width": width, "height": height}).new_page()
        for game in games:
            page.goto(f"{live_server.url}/games/{game.view_token}/screen")
            tall = page.evaluate("document.documentElement.scrollHeight")
            assert tall <= height, (width, height, game.month, tall)
            assert page.get_by_role("link", name="Back to the game (view only)").is_visible()
        page.context.close()
