"""Issue 25, "Keep the screen on", as the server sends it (the switch itself: test_wakelock_browser.py): each of the
three pages carries the one partial, hidden until wakelock.js shows it, and nothing of the keep-awake video, which
is fetched only once the switch is on (the first-load budget)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from companion.services.osaka import NewPlayer as OsakaPlayer
from companion.services.osaka import create_game as create_osaka_game
from tests.companion.test_scorepad import sheet_of, step
from tests.factories import make_game

ROOT = Path(__file__).resolve().parent.parent.parent
STATIC = ROOT / "companion" / "static" / "companion"


def three_pages() -> dict[str, str]:
    """The tracker, a walk-through step and the Osaka tracker, by name (test_wakelock_browser.py uses them too)."""
    osaka = create_osaka_game(players=[OsakaPlayer("Anaïs", "white"), OsakaPlayer("David", "pink")])
    return {
        "tracker": reverse("game", args=[make_game().edit_token]),
        "walk-through": step(sheet_of(), "track"),
        "osaka": reverse("osaka-game", args=[osaka.edit_token]),
    }


@pytest.mark.django_db
def test_each_page_has_the_switch_hidden_and_no_video(client: Client) -> None:
    for name, url in three_pages().items():
        response = client.get(url)
        assert response.status_code == 200, name
        html = response.content.decode()
        assert html.count('id="wakelock"') == 1, name
        assert re.search(r'<div class="wakelock" id="wakelock" data-video="[^"]+" hidden>', html), name
        assert re.search(
            r'<input type="checkbox" role="switch" id="wakelock-on"><span>Keep screen on</span>', html
        )
        assert (
            len(re.findall(r'<script src="/static/companion/wakelock[^"]*\.js" defer></script>', html)) == 1
        )
        assert "<video" not in html and not re.search(r'(?:src|href)="[^"]*awake\.', html), name
        assert "style=" not in html.split('id="wakelock"')[1].split("</div>")[0], "no inline style (the CSP)"


@pytest.mark.parametrize("template", ["games.html", "scorepad_step.html", "osaka_game.html"])
def test_each_page_includes_it_with_one_line(template: str) -> None:
    lines = (ROOT / "templates" / template).read_text().splitlines()
    assert [line.strip() for line in lines if "wakelock" in line] == ['{% include "_wakelock.html" %}']


@pytest.mark.parametrize("name", ["awake.webm", "awake.mp4"])
def test_the_video_is_tiny(name: str) -> None:
    assert 0 < (STATIC / name).stat().st_size <= 2048
