"""The walk-through's Next while the server cannot be reached (a phone at the edge of the Wi-Fi, the laptop
asleep): the player stays on the step with a quiet note and what they typed, and the next tap goes on
(companion/static/companion/step_nav.js). Without JavaScript Next stays a plain form post
(tests/companion/test_scorepad_browser.py, test_walk_through_without_javascript)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.models.scoresheets import ScoreSheet
from tests.companion.test_scorepad_browser import _start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENTRY = "**/entry/"


def test_next_while_the_server_is_unreached_stays_on_the_step(live_server: Any, page: Any) -> None:
    url = _start(page, live_server.url, ("Aya", "Ben"))
    token = url.rstrip("/").split("/")[-2]
    page.route(ENTRY, lambda route: route.abort("connectionrefused"))
    page.locator("#p0-score_track").fill("30")
    page.get_by_role("button", name="Next: Ben →").click()
    note = page.locator(".sp-unreached")
    expect(note).to_contain_text("Could not reach the server")
    expect(note).to_contain_text("nothing you typed is lost")
    assert page.url == url  # not the browser's error page
    expect(page.locator("#p0-score_track")).to_have_value("30")

    page.unroute(ENTRY)
    page.get_by_role("button", name="Next: Ben →").click()
    page.wait_for_url(re.compile(r"/track/\?p=1$"))
    expect(page.locator(".sp-totals")).to_contain_text("Aya 30")  # the typed number, kept and sent
    sheet = ScoreSheet.objects.get(token=token)
    assert sheet.table["players"][0]["score_track"] == 30


def test_a_proxys_502_is_unreached_too(live_server: Any, page: Any) -> None:
    """A server restarting behind its proxy answers 502: the same note, not the proxy's page."""
    url = _start(page, live_server.url, ("Aya", "Ben"))
    page.locator("#p0-score_track").fill("12")
    page.locator("#p0-score_track").press("Tab")
    expect(page.locator("input[name='was-p0-score_track']")).to_have_value("12")
    page.route(ENTRY, lambda route: route.fulfill(status=502, body="Bad gateway"))
    page.get_by_role("button", name="Next: Ben →").click()
    expect(page.locator(".sp-unreached")).to_contain_text("Could not reach the server")
    assert page.url == url
    expect(page.locator("body")).not_to_contain_text("Bad gateway")


def test_next_and_the_result_load_their_page_once(live_server: Any, page: Any) -> None:
    """The script's request is answered with where to go (as htmx is answered), not with the next page: the
    browser loads it once (a plain redirect followed by fetch loaded each step twice)."""
    _start(page, live_server.url, ("Aya", "Ben"))
    loads: list[str] = []
    page.on("request", lambda r: loads.append(r.url) if r.method == "GET" and "/score/" in r.url else None)
    page.locator("#p0-score_track").fill("30")
    page.get_by_role("button", name="Next: Ben →").click()
    page.wait_for_url(re.compile(r"/track/\?p=1$"))
    expect(page.locator(".sp-totals")).to_contain_text("Aya 30")
    assert [u for u in loads if u.endswith("/track/?p=1")] == [page.url]
    page.get_by_role("button", name="Go to the result").click()
    page.wait_for_url(re.compile(r"/result/$"))
    assert [u for u in loads if u.endswith("/result/")] == [page.url]
