"""No page breaks the Content-Security-Policy (issue 24, companion/csp.py): a phone visits every page of the app,
listening for violations two ways (the console's CSP errors and ``securitypolicyviolation`` events recorded from an
init script), and taps the main control of each feature to show it still works under the policy."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

from companion.csp import HEADER, POLICY
from companion.models.games import Game
from companion.models.osaka import OsakaGame
from companion.models.results import Group, Result
from companion.models.scoresheets import ScoreSheet
from companion.services.results import file_result, record_result
from tests.companion.test_checks_browser import ANAIS, _settled, _start, _type
from tests.companion.test_urls import _addresses

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample || ""}`.trim());
}, true);
"""


class Watch:
    """A page that keeps every CSP violation it meets, from the console and from the violation events."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.console: list[str] = []
        page.add_init_script(RECORD)
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.console.append(message.text)

    def visit(self, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.headers.get(HEADER.lower()) == POLICY, url
        self.page.wait_for_load_state("load")
        self.clean(url)

    def clean(self, where: str) -> None:
        events = self.page.evaluate("window.__csp || []")
        assert events == [], f"{where}: {events}"
        assert self.console == [], f"{where}: {self.console}"


def _html_pages(base: str) -> dict[str, str]:
    """Every address of companion/urls.py that answers GET with an HTML page (tests/companion/test_urls.py)."""
    client, pages = Client(), {}
    for name, url in _addresses().items():
        if url.startswith("/live/"):  # event streams, not pages (and async: not from Playwright's thread)
            continue
        response = client.get(url, follow=True)
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            pages[name] = base + url
    return pages


def test_every_page_keeps_the_policy_and_still_works(live_server: Any, new_context: Any) -> None:
    page = new_context(bypass_csp=False).new_page()  # the real policy: no bypass for the harness here
    watch = Watch(page)
    base = live_server.url
    pages = _html_pages(base)
    assert len(pages) >= 20, sorted(pages)
    for url in pages.values():
        watch.visit(url)
    # Pages the address list does not reach: a group's view-only page, an Osaka player's own link, a sheet's
    # result filed under a group, error pages.
    sheet = ScoreSheet.objects.get()
    result = record_result(sheet=sheet)
    assert isinstance(result, Result)
    group = Group.objects.get()
    file_result(result=result, group=group)
    osaka = OsakaGame.objects.get()
    for url in (
        group.get_absolute_url(), group.view_url(), osaka.seats.get(seat=2).private_url(), osaka.view_url(),
        Game.objects.get().view_url(), "/no/such/page/", "/setup/game/?players=3&seed=NOT-A-CODE",
    ):  # fmt: skip
        watch.visit(base + url)
    expect(page.locator("h1")).to_be_visible()

    # The setup page: Share answers, a tick is saved (live.js), the page pulls (no stream under WSGI: it polls).
    watch.visit(pages["setup-game"])
    page.locator("#share-button").click()
    expect(page.locator("#share-answer")).not_to_have_text("")
    box = page.locator("#setup-ticks input[type=checkbox]").first
    with page.expect_response(lambda r: r.request.method == "POST" and "/setup/ticks" in r.url):
        box.check()
    expect(page.locator("#setup-progress")).to_contain_text("1 of")
    with page.expect_request(lambda r: "/setup/ticks/state" in r.url):
        pass
    watch.clean("setup ticks")

    # A tick the server cannot save waits in the outbox, and the page says so (live.js).
    page.route("**/setup/ticks?*", lambda route: route.fulfill(status=500, body="no"))
    unticked = page.locator("#setup-ticks input[type=checkbox]:not(:checked)").first.get_attribute("id")
    box = page.locator(f"#{unticked}")
    box.click()
    expect(page.locator(".live-status")).to_contain_text("Not saved yet: 1 waiting.")
    expect(box).to_be_checked()
    page.unroute("**/setup/ticks?*")
    expect(page.locator(".live-status")).to_be_hidden()
    watch.clean("setup tick waiting")

    # The setup options page: changing an option asks the server (htmx).
    watch.visit(pages["setup-options"])
    with page.expect_response(lambda r: "/setup/" in r.url and r.request.headers.get("hx-request") == "true"):
        page.locator("#setup-options label:has(input[type=radio]:not(:checked))").first.click()
    watch.clean("setup options")

    # The check: typed numbers are checked as you type, with a problem shown.
    _start(page, base)
    _type(page, 0, {**ANAIS, "total": ANAIS["total"] + 7})
    _settled(page)
    expect(page.locator("#verdict")).to_be_visible()
    watch.clean("check with problems")

    # The result panel's Share button (result_share.js) and the group's chart.
    watch.visit(f"{base}/score/{sheet.token}/result/")
    expect(page.locator("#share-result")).to_be_visible()
    watch.visit(base + group.get_absolute_url())
    expect(page.locator("svg.rs-chart")).to_have_count(1)
    expect(page.locator("svg.rs-swatch").first).to_be_visible()

    # The Osaka calculator answers as you type.
    watch.visit(base + "/osaka/payday/")
    page.get_by_text("2", exact=True).click()
    _settled(page)
    for edo, ship in (("#id_edo1", "yellow"), ("#id_edo2", "red")):
        page.select_option(edo, ship)
        _settled(page)
    page.locator(".osaka-sunk label").filter(has_text="Blue").click()
    _settled(page)
    page.fill("[name=p0-name]", "Ann")
    expect(page.locator("#osaka-result")).to_contain_text("Ann")
    watch.clean("osaka calculator")

    # The pads page: choosing a pad updates its summary (htmx).
    watch.visit(pages["pads"])
    with page.expect_response(lambda r: "/pads" in r.url and r.request.headers.get("hx-request") == "true"):
        page.locator("main form label:has(input[type=radio]:not(:checked))").first.click()
    watch.clean("pads")
    assert not re.search(r"unsafe-(inline|eval)", POLICY)
