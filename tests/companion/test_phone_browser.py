"""Issue 25 on a 390x844 phone: the app installs (a valid manifest, its icons fetched), the BG Stats link of a
result decodes to the whole play, and the main pages stay within the screen in dark mode and at 200% text."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_manifest_is_valid_and_its_icons_load(live_server: Any, page: Any) -> None:
    page.goto(f"{live_server.url}/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/manifest.webmanifest"
    cdp = page.context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["url"].endswith("/manifest.webmanifest")
    assert found["errors"] == [], found["errors"]  # Chromium parsed it without a complaint
    data = json.loads(found["data"])
    assert (data["start_url"], data["display"], data["short_name"]) == ("/", "standalone", "IKI")
    response = page.request.get(f"{live_server.url}{href}")
    assert response.status == 200 and response.headers["content-type"] == "application/manifest+json"
    sizes = set()
    for icon in data["icons"]:
        fetched = page.request.get(f"{live_server.url}{icon['src']}")
        assert fetched.status == 200, icon["src"]
        assert fetched.headers["content-type"] == icon["type"]
        sizes.add((icon["sizes"], icon.get("purpose", "any")))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    assert page.request.get(f"{live_server.url}/apple-touch-icon.png").status == 200


def test_the_bgstats_link_on_the_result_page_decodes_to_the_whole_play(live_server: Any, page: Any) -> None:
    from django.test import Client

    from companion.models.results import Result
    from tests.companion.test_play_time import ENDED, play_to_the_end
    from tests.factories import make_game

    game = play_to_the_end(make_game(("Anaïs", "Ben", "Chie", "Dai")))
    assert Client().post(f"/games/{game.edit_token}/end").status_code == 302
    game.refresh_from_db()
    assert game.scoresheet is not None
    page.goto(f"{live_server.url}/score/{game.scoresheet.token}/result/")
    expect(page.locator(".rs-length")).to_have_text("Game length: 1 h 32 min")
    link = page.get_by_role("link", name="Send to BG Stats")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href is not None and href.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(parse_qs(urlparse(href).query)["data"][0])
    result = Result.objects.get()
    assert data["playDate"] == ENDED.strftime("%Y-%m-%d %H:%M:%S") and data["durationMin"] == 92
    assert data["sourceName"] == "IKI companion" and data["sourcePlayId"].startswith("result-")
    assert data["game"] == {"name": "IKI", "highestWins": True, "noPoints": False, "sourceGameId": "iki"}
    assert data["board"] == "3-4 player side" and "setup K7MX2QPA" in data["comments"]
    assert [p["name"] for p in data["players"]] == ["Anaïs", "Ben", "Chie", "Dai"]
    assert [p["startPlayer"] for p in data["players"]].count(True) == 1
    assert data["players"][game.first_player - 1]["startPlayer"]
    for sent, kept in zip(data["players"], result.players, strict=True):
        assert (sent["score"], sent["rank"], sent["winner"], sent["role"]) == (
            kept["total"], kept["rank"], kept["rank"] == 1, kept["colour"],
        )  # fmt: skip
        assert sent["sourcePlayerId"].startswith("player-")
