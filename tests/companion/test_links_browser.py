"""A game opened on the laptop at localhost shows the phones a QR code of its LAN address (issue 20 item 5): the
code is read from the screen, as a phone's camera would read it. Headless Chromium, 390x844 (tests/conftest.py)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image
from pyzbar import pyzbar

from companion import links
from tests.factories import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_game_opened_at_localhost_shows_a_code_of_the_lan_address(
    live_server: Any, page: Any, screenshot: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.TABLE_BIND = "0.0.0.0"  # as `manage.py table` serves (tests/conftest.py makes it 127.0.0.1)
    monkeypatch.setattr(links, "interface_addresses", lambda: ["127.0.0.1", "::1", "192.168.1.20"])
    game = make_game()
    assert live_server.url.startswith("http://localhost:")
    port = live_server.url.rsplit(":", 1)[1]
    page.goto(live_server.url + game.edit_url() + "share")
    note = page.locator("#share-note")
    assert (
        note.inner_text()
        == f"Opened on this computer as localhost: the phones use http://192.168.1.20:{port}/"
    )
    codes = page.locator(".qr")
    assert codes.count() == 2
    read = []
    for i in range(2):
        picture = Image.open(io.BytesIO(codes.nth(i).screenshot())).convert("L")
        read += [code.data.decode() for code in pyzbar.decode(picture)]
    assert read == [
        f"http://192.168.1.20:{port}/games/{game.edit_token}/",
        f"http://192.168.1.20:{port}/games/{game.view_token}/",
    ]
    screenshot(page, "games-share-localhost")
