"""The setup generator in a phone-sized browser (issue 3): generate, tick steps, re-roll, and the share link
reproduces the setup. Hidden draws are the game tracker's to reveal (issue 20): the page names none and says so;
two phones on one share link see each other's ticks (here under the test's WSGI server, which holds no stream:
the page polls; the stream itself is tested in tests/companion/live/test_setup_ticks_browser.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.setup_query import new_table
from setupgen import Options, generate
from tests.setupgen.helpers import named_hidden_draws

TABLE = new_table()  # the table's own code: the ticks are saved under it, never under the seed alone
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_generate_tick_and_share(live_server: Any, page: Any, new_context: Any, screenshot: Any) -> None:
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
    assert named_hidden_draws(body, setup) == []  # the tracker reveals them
    assert "The game tracker reveals each one when it is due" in page.locator("#tracker-line").inner_text()
    assert page.get_by_role("link", name=re.compile("Reveal")).count() == 0
    screenshot(page, "setup-game-top")

    tick = page.locator("#tick-general-board")
    tick.check()
    assert tick.is_checked()
    page.locator("#setup-progress").get_by_text("Saved: “Main board” ticked.").wait_for()
    note = page.locator("#hidden-general-fire")
    assert note.inner_text().startswith("Hidden until due: the game tracker reveals each fire's Nagaya")
    box = note.get_by_role("link", name="Track this game").bounding_box()
    assert box is not None and box["height"] >= 44
    screenshot(page, "setup-game-hidden-note")

    share = page.locator("#share-link").input_value()
    other = new_context().new_page()
    other.goto(share)
    assert other.locator(".setup-seed strong").inner_text().replace(" ", "") == setup.seed
    assert (
        other.locator("#step-akebono-buildings .setup-details").inner_text()
        == page.locator("#step-akebono-buildings .setup-details").inner_text()
    )

    page.get_by_role("link", name="Re-roll all").first.click()
    page.wait_for_url(lambda url: "seed=" in url and setup.seed not in url)
    screenshot(page, "setup-game-full")


def test_the_page_names_no_hidden_draw_without_javascript(live_server: Any, new_context: Any) -> None:
    page = new_context(java_script_enabled=False).new_page()
    page.goto(live_server.url + f"/setup/game?players=3&seed=K7MX2QPA&table={TABLE}&show=fire-8")
    setup = generate(Options(players=3), "K7MX2QPA")
    body = page.locator("main").inner_text()
    assert named_hidden_draws(body, setup) == []
    assert "This page shows no hidden draw: the game tracker reveals each one when it is due." in body


def test_two_phones_see_each_others_ticks_within_a_poll(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    """Issue 20: two phones on one share link (one table code); a tick or untick on one shows on the other
    without a reload; the count follows. No stream under WSGI: the page falls back to polling by itself."""
    url = live_server.url + f"/setup/game?players=4&akebono=1&seed=K7MX2QPA&table={TABLE}"
    one, two = new_context().new_page(), new_context().new_page()
    one.goto(url)
    two.goto(url)
    total = one.locator("#setup-progress strong").inner_text().split(" of ")[1]

    def tap(page: Any, other: Any, title: str, step: str, ticked: bool, count: int) -> None:
        """Tick (or untick) ``title`` on ``page``; once saved, ``other`` shows it and the count within a poll."""
        box = page.get_by_label(title, exact=True)
        box.check() if ticked else box.uncheck()
        page.locator("#setup-progress").get_by_text(
            f"Saved: “{title}” {'ticked' if ticked else 'unticked'}."
        ).wait_for()
        state = "true" if ticked else "false"
        other.wait_for_function(f"document.getElementById('tick-{step}').checked === {state}")
        other.locator("#setup-progress").get_by_text(f"{count} of {total}").wait_for()

    tap(one, two, "Main board", "general-board", True, 1)
    tap(two, one, "Sailors", "akebono-sailors", True, 2)
    tap(one, two, "Main board", "general-board", False, 1)
    tap(two, one, "Main board", "general-board", True, 2)  # the box the poll swapped in still saves a tap
    assert one.evaluate("document.documentElement.dataset.liveBy") == "poll"
    screenshot(two, "setup-two-phones")
    # A phone on another table code (another share link of the same seed) sees none of it.
    three = new_context().new_page()
    three.goto(live_server.url + "/setup/game?players=4&akebono=1&seed=K7MX2QPA")
    three.wait_for_url(re.compile(r"table="))
    assert not three.get_by_label("Main board", exact=True).is_checked()


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


def test_house_rules_fit_the_phone_with_large_text(live_server: Any, page: Any) -> None:
    """A phone set to large text (150 %): each house-rule row's card name and its choice stay on the screen (the
    choice goes under a long name), so the page never scrolls sideways and no choice is cut off."""
    page.goto(live_server.url + "/setup/?players=2&akebono=1")
    page.evaluate("document.documentElement.style.fontSize = '150%'")
    page.locator("summary", has_text="House rules").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#house-choice-fire-watchtower").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390 and box["height"] >= 44


def test_the_setup_code_reads_on_one_line(live_server: Any, page: Any) -> None:
    """The code a player reads aloud is not broken between its two halves at the end of a line ("Setup code
    K7MX" on one line, "2QPA" on the next): it goes under its label whole."""
    page.goto(live_server.url + f"/setup/game?players=4&seed=K7MX2QPA&table={TABLE}")
    assert page.evaluate("document.getElementById('setup-code').getClientRects().length") == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_checklist_fits_the_phone_with_the_largest_text(live_server: Any, page: Any) -> None:
    """A phone set to its largest text (200 %): a long word of a step ("firefighting", "(Urourubune):") wraps
    inside the step, and the page never scrolls sideways."""
    page.goto(live_server.url + f"/setup/game?players=2&akebono=1&grand_master=1&seed=K7MX2QPA&table={TABLE}")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    wider = page.evaluate(
        "[...document.querySelectorAll('#setup-ticks *')].filter((e) => e.scrollWidth > e.clientWidth + 1)"
        ".map((e) => e.id || e.className)"
    )
    assert wider == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
