"""Issue 26 in a phone-sized browser at a non-loopback plain-HTTP address (no secure context, as a table on the
LAN): ban a building, type the table's names, re-roll the buildings, share (the link copied or selected), scan
the QR code, and track the game with the names carried over."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from companion.models.games import Game, Seat
from setupgen import Options, generate, parse_code
from tests.companion.test_links import decode_qr
from tests.conftest import CHROMIUM_ARGS, _context
from tests.setupgen.helpers import named_hidden_draws
from tests.setupgen.test_code import draws, owned

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
HOST = "phone.test"  # Chromium resolves it to 127.0.0.1: an http:// origin that is not a secure context
NAMES = ["Aiko", "Bunta", "Chiyo", "Daisuke"]


@pytest.fixture(scope="module")
def lan_browser(browser: Any) -> Iterator[Any]:
    """A second Chromium (the session's Playwright) that resolves phone.test to the loopback address."""
    other = browser.browser_type.launch(
        executable_path=shutil.which("chromium") or "/usr/bin/chromium",
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
    )
    yield other
    other.close()


def code_of(url: str) -> str:
    return parse_qs(urlparse(url).query)["seed"][0]


def test_ban_reroll_share_scan_and_track(live_server: Any, lan_browser: Any, screenshot: Any) -> None:
    origin = f"http://{HOST}:{urlparse(live_server.url).port}"
    phone = _context(lan_browser)
    page = phone.new_page()
    page.goto(origin + "/setup/")
    assert page.evaluate("window.isSecureContext") is False
    page.get_by_text("4 players", exact=True).click()
    page.get_by_label("IKI Akebono").check()
    page.locator("summary", has_text="House rules").click()
    page.locator("#house-choice-pub-izakaya").select_option(label="Banned")
    page.locator("summary", has_text="names").click()
    for i, name in enumerate(NAMES, start=1):
        page.locator(f"#name-{i}").fill(name)
    screenshot(page, "setup26-options")
    page.get_by_role("button", name="Generate setup").click()
    page.wait_for_url(re.compile(r"/setup/game\?.*seed=[A-Z2-9]{8}\.XF"))
    options = Options(4, akebono=True)
    first = code_of(page.url)
    assert "House rules: no Pub (Izakaya)" in page.locator("#house-line").inner_text()
    assert "1 Aiko, 2 Bunta, 3 Chiyo, 4 Daisuke" in page.locator("#names-line").inner_text()

    # Re-roll the buildings: a new code, every other part kept, the page says which part was drawn again.
    button = page.locator("#rerolls").get_by_role("button", name="Buildings")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44
    button.click()
    page.wait_for_url(re.compile(r"drawn=buildings"))
    second = code_of(page.url)
    assert (
        parse_code(second).rerolls.keys() == {"buildings"}
        and parse_code(second).house == parse_code(first).house
    )
    before, after = generate(options, first), generate(options, second)
    assert {k: v for k, v in draws(after).items() if not owned(k, "buildings")} == {
        k: v for k, v in draws(before).items() if not owned(k, "buildings")
    }
    assert "pub-izakaya" not in after.buildings
    assert "Buildings drawn again" in page.locator("#drawn-line").inner_text()
    assert named_hidden_draws(page.locator("main").inner_text(), after) == []
    screenshot(page, "setup26-rerolled")

    # Share: no secure context here, so the link is selected (and copied with the older command where it works).
    link = page.locator("#share-link").input_value()
    assert link.startswith(origin + "/setup/game?") and code_of(link) == second
    page.locator("#share-button").click()
    page.locator("#share-answer").filter(has_text=re.compile(r"Copied|selected")).wait_for()
    selected = page.evaluate(
        "() => { const f = document.getElementById('share-link'); return f.value.slice(f.selectionStart, f.selectionEnd) }"
    )
    assert selected == link
    screenshot(page, "setup26-shared")

    # Scan the QR code: it reads back as the share link, which opens this same setup on another phone.
    page.locator("#setup-qr summary").click()
    image = page.locator("#setup-qr img")
    image.wait_for()
    page.wait_for_function("() => document.querySelector('#setup-qr img').naturalWidth > 0")
    screenshot(page, "setup26-qr")
    svg = page.evaluate(
        "async (src) => (await fetch(src)).text()", image.get_attribute("src")
    )  # what it shows
    assert decode_qr(svg) == [link]
    other = _context(lan_browser).new_page()
    other.goto(link)
    assert other.locator("#setup-code").inner_text().replace(" ", "") == second

    # Track this game: the names typed on the setup page are filled in; the game has this setup.
    page.get_by_role("link", name="Track this game").first.click()
    page.wait_for_url(re.compile(r"/games/new/"))
    for i, name in enumerate(NAMES):
        assert page.locator(f"#name-{i}").input_value() == name
    screenshot(page, "setup26-track")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/.+/share"))
    game = Game.objects.get()
    assert game.setup == after.to_json()
    assert [s.name for s in Seat.objects.filter(game=game).order_by("seat")] == NAMES
    phone.close()
    other.context.close()
