"""The setup generator in a phone-sized browser (issue 3): generate, tick steps, reveal one hidden item at a time
with htmx, re-roll, and the share link reproduces the setup."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.views.setup import new_table
from setupgen import Options, generate

TABLE = new_table()  # the table's own code: the ticks are saved under it, never under the seed alone
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_generate_tick_reveal_and_share(
    live_server: Any, page: Any, new_context: Any, screenshot: Any
) -> None:
    page.goto(live_server.url + "/setup/")
    page.get_by_text("2 players", exact=True).click()
    page.get_by_label("IKI Akebono").check()
    page.get_by_label("Grand Master variant").check()
    screenshot(page, "setup-options")
    page.get_by_role("button", name="Generate setup").click()
    page.wait_for_url(re.compile(r"/setup/game\?.*seed=[A-Z2-9]{8}"))
    seed = re.search(r"seed=([A-Z2-9]{8})", page.url)
    assert seed is not None
    setup = generate(Options(players=2, akebono=True, grand_master=True), seed.group(1))
    body = page.locator("main").inner_text()
    assert "Grand Master" in body
    assert f"Nagaya {setup.fires[0].nagaya}." not in body  # hidden until asked
    screenshot(page, "setup-game-top")

    tick = page.locator("#tick-general-board")
    tick.check()
    assert tick.is_checked()

    page.get_by_role("link", name="Reveal: Fire at the end of month 5 (strength 4)").click()
    secret = page.locator("#hidden-fire-5 .setup-secret")
    secret.wait_for()
    assert f"Nagaya {setup.fires[0].nagaya}" in secret.inner_text()
    assert tick.is_checked()  # htmx swapped the one item: the ticks are kept
    assert page.locator("#hidden-fire-8 .setup-secret").count() == 0
    screenshot(page, "setup-game-revealed")
    page.locator("#hidden-fire-5").get_by_role("link", name="Hide again").click()
    page.locator("#hidden-fire-5").get_by_role("link", name=re.compile("Reveal")).wait_for()

    share = page.locator("#share-link").input_value()
    other = new_context().new_page()
    other.goto(share)
    assert other.locator(".setup-seed strong").inner_text().replace(" ", "") == setup.seed
    assert (
        other.locator("#step-akebono-buildings .setup-details").inner_text()
        == page.locator("#step-akebono-buildings .setup-details").inner_text()
    )

    page.get_by_role("link", name="Re-roll").first.click()
    page.wait_for_url(lambda url: "seed=" in url and setup.seed not in url)
    screenshot(page, "setup-game-full")


def test_reveal_works_without_javascript(live_server: Any, new_context: Any) -> None:
    page = new_context(java_script_enabled=False).new_page()
    page.goto(live_server.url + f"/setup/game?players=3&seed=K7MX2QPA&table={TABLE}")
    setup = generate(Options(players=3), "K7MX2QPA")
    page.get_by_role("link", name="Reveal: Fire at the end of month 8 (strength 8)").click()
    assert "show=fire-8" in page.url
    assert f"Nagaya {setup.fires[1].nagaya}" in page.locator("#hidden-fire-8").inner_text()
    assert page.locator("#hidden-fire-5 .setup-secret").count() == 0


def test_options_form_warns_about_grand_master_live(live_server: Any, page: Any, screenshot: Any) -> None:
    page.goto(live_server.url + "/setup/")
    page.get_by_label("Grand Master variant").check()
    page.get_by_text("needs 2 players and Akebono").wait_for()
    page.get_by_role("button", name="Generate setup").click()
    page.get_by_role("alert").wait_for()
    screenshot(page, "setup-options-error")
    assert "2 players" in page.get_by_role("alert").inner_text()


def test_a_long_bad_seed_message_fits_the_phone(live_server: Any, page: Any) -> None:
    """Issue 10, item 9: the message wraps inside its box; the page never scrolls sideways at 390 px."""
    page.goto(live_server.url + "/setup/game?players=3&seed=K7MX2QP0" + "O" * 40)
    message = page.locator(".message.error")
    assert "never uses" in message.inner_text() or "never use" in message.inner_text()
    box = message.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("(el) => el.scrollWidth <= el.clientWidth", message.element_handle())
