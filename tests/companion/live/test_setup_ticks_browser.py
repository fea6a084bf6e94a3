"""The setup page's shared ticks on the live-table engine, in phone-sized Chromium against the ASGI server (issue
21, docs/sync.md "The setup page's ticks"): phones on one share link and a view-only screen see each other's ticks
through the stream,
a tap whose answer was lost lands once, offline taps show at once and land once, one setup's waiting taps never
show on another's page, and with the stream blocked the page polls. Nothing hidden is named on the way."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.setup_query import new_table
from setupgen import Options, checklist, generate
from tests.companion.live.conftest import Table, lose_the_first_answer, pulls_of
from tests.setupgen.helpers import named_hidden_draws

pytestmark = [pytest.mark.browser]

QUERY = "players=4&akebono=1&seed=K7MX2QPA"
SETUP = generate(Options(players=4, akebono=True), "K7MX2QPA")
TOTAL = len(checklist(SETUP))


def _open(page: Any, table: Table, code: str, *, stream: bool = True) -> None:
    page.goto(f"{table.base}/setup/game?{QUERY}&table={code}")
    if stream:
        page.wait_for_function("() => document.documentElement.dataset.liveBy === 'stream'")


def _box(page: Any, step: str) -> Any:
    return page.locator(f"#tick-{step}")


def _saved(table: Table) -> set[str]:
    rows = table.sql("SELECT done FROM companion_setupprogress")
    return {step for (done,) in rows for step in (json.loads(done) if isinstance(done, str) else done)}


def _writes(table: Table) -> int:
    return int(table.sql("SELECT COUNT(*) FROM companion_mutation")[0][0])


@pytest.mark.poke
def test_two_phones_and_the_view_link_see_each_others_ticks_through_the_stream(
    table: Table, new_context: Any, screenshot: Any
) -> None:
    """Two phones on the share link tick and untick; a third screen watches through the view-only link. Each tap
    reaches the others by a poke, then a pull of the changed pieces."""
    code = new_table()
    one, two, look = (new_context().new_page() for _ in range(3))
    _open(one, table, code)
    _open(two, table, code)
    view = one.locator("#view-link").input_value()  # the LAN address of this server: its path, here
    look.goto(table.base + view[view.index("/setup/") :])
    look.wait_for_function("() => document.documentElement.dataset.liveBy === 'stream'")
    expect(look.locator("#view-only-line")).to_be_visible()
    # Counted once each stream is open: before its first word a page polls (conftest.pulls_of).
    pulls = pulls_of(one, two, look)
    _box(one, "general-board").check()
    expect(one.locator("#setup-progress")).to_contain_text("Saved: “Main board” ticked.")
    for page in (two, look):
        expect(_box(page, "general-board")).to_be_checked()
        expect(page.locator("#setup-progress strong")).to_have_text(f"1 of {TOTAL}")
    _box(two, "akebono-sailors").check()
    for page in (one, look):
        expect(_box(page, "akebono-sailors")).to_be_checked()
    _box(one, "general-board").uncheck()
    for page in (two, look):
        expect(_box(page, "general-board")).not_to_be_checked()
        expect(page.locator("#setup-progress strong")).to_have_text(f"1 of {TOTAL}")
    _box(two, "general-board").check()  # the box a pull put in still saves a tap
    expect(_box(look, "general-board")).to_be_checked()
    expect(_box(one, "general-board")).to_be_checked()
    assert _saved(table) == {"general-board", "akebono-sailors"}
    assert _writes(table) == 4
    # Each pull was asked for by a poke (the version moved), not by a timer: 4 taps, seen by 2 other screens.
    assert len(pulls) <= 8, pulls
    for page in (one, two, look):
        assert page.evaluate("document.documentElement.dataset.liveBy") == "stream"
        assert named_hidden_draws(page.locator("main").inner_text(), SETUP) == []
    expect(_box(look, "general-calendar")).to_be_disabled()  # the view link offers no write
    assert code not in look.content()
    screenshot(look, "live-setup-view-link")


def test_a_tick_whose_answer_was_lost_lands_once(table: Table, page: Any) -> None:
    _open(page, table, new_table())
    lost = lose_the_first_answer(page, "**/setup/ticks?*")
    _box(page, "general-calendar").check()
    # The pull (poked by the write) says the write landed: it leaves the outbox, not sent again.
    expect(page.locator("#setup-progress strong")).to_have_text(f"1 of {TOTAL}")
    expect(page.locator(".live-status")).to_be_hidden()
    expect(_box(page, "general-calendar")).to_be_checked()
    assert (
        page.evaluate(
            "Object.keys(localStorage).filter(k => k.startsWith('live-outbox:') && localStorage.getItem(k) !== '[]').length"
        )
        == 0
    )
    assert lost == [1]
    assert _saved(table) == {"general-calendar"}
    assert _writes(table) == 1


def test_offline_ticks_show_at_once_and_land_once(table: Table, new_context: Any, screenshot: Any) -> None:
    context = new_context()
    page = context.new_page()
    _open(page, table, new_table())
    context.set_offline(True)
    _box(page, "general-board").check()
    _box(page, "general-reserve").check()
    _box(page, "general-board").uncheck()
    expect(_box(page, "general-reserve")).to_be_checked()  # each shows at once
    expect(_box(page, "general-board")).not_to_be_checked()
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 3 waiting.")
    screenshot(page, "live-setup-offline")
    context.set_offline(False)
    expect(page.locator(".live-status")).to_be_hidden()
    expect(page.locator("#setup-progress strong")).to_contain_text("1 of")
    expect(_box(page, "general-reserve")).to_be_checked()
    expect(_box(page, "general-board")).not_to_be_checked()
    assert _saved(table) == {"general-reserve"}
    assert _writes(table) == 3


def test_one_setups_waiting_ticks_never_show_on_another(table: Table, new_context: Any) -> None:
    first, second = new_table(), new_table()
    context = new_context()
    context.route("**/setup/ticks?*", lambda route: route.abort())  # this phone's ticks wait
    page = context.new_page()
    _open(page, table, first)
    _box(page, "general-board").check()
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 1 waiting.")
    other = context.new_page()  # same phone, same storage, another table's setup
    _open(other, table, second)
    expect(_box(other, "general-board")).not_to_be_checked()
    expect(other.locator(".live-status")).to_be_hidden()
    context.unroute("**/setup/ticks?*")
    expect(page.locator(".live-status")).to_be_hidden()  # sent again, once
    assert _saved(table) == {"general-board"}
    assert table.sql("SELECT COUNT(*) FROM companion_setupprogress")[0][0] == 1
    expect(_box(other, "general-board")).not_to_be_checked()


def test_with_the_stream_blocked_the_page_polls(table: Table, new_context: Any) -> None:
    code = new_table()
    one, two = new_context().new_page(), new_context().new_page()
    two.route("**/live/**", lambda route: route.abort())
    _open(one, table, code)
    _open(two, table, code, stream=False)
    _box(one, "akebono-boats").check()
    expect(_box(two, "akebono-boats")).to_be_checked()
    expect(two.locator("#setup-progress strong")).to_contain_text("1 of")
    assert two.evaluate("document.documentElement.dataset.liveBy") == "poll"
    _box(two, "akebono-trade").check()  # and its own taps still land, and reach the other phone
    expect(_box(one, "akebono-trade")).to_be_checked()


def test_storage_that_throws_is_said_and_the_tick_still_sent(table: Table, page: Any) -> None:
    page.add_init_script(
        "Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };"
    )
    _open(page, table, new_table())
    _box(page, "general-fire").check()
    expect(page.locator(".live-status")).to_contain_text("cannot keep taps while offline")
    expect(page.locator("#setup-progress")).to_contain_text("Saved: “Fire tiles” ticked.")
    assert _saved(table) == {"general-fire"}


def test_the_page_does_not_move_under_the_thumb(table: Table, new_context: Any) -> None:
    """A phone reading a step far down the list: another phone's ticks above it (the count line, its message)
    change nothing where that step stands on the screen."""
    code = new_table()
    one, two = new_context().new_page(), new_context().new_page()
    _open(one, table, code)
    _open(two, table, code)
    step = two.locator("#step-akebono-starting-characters")
    step.scroll_into_view_if_needed()
    before = step.bounding_box()
    _box(one, "general-board").check()
    _box(one, "general-calendar").check()
    expect(_box(two, "general-calendar")).to_be_checked()
    _box(two, "akebono-starting-characters").check()  # its own tap's answer brings a message above
    expect(two.locator("#setup-progress")).to_contain_text("ticked.")
    after = step.bounding_box()
    assert before is not None and after is not None
    assert abs(after["y"] - before["y"]) < 1


def test_another_setups_kept_page_never_stands_in_for_this_one(table: Table, page: Any) -> None:
    """Every setup lives at /setup/game, told apart by its query. The last state a phone saw of a live page is kept
    when it is left (a secure context: 127.0.0.1), for the worker's copy of that same page; one setup's, two ticks
    ahead of a new setup's version 0, never replaces the new setup's page, its code, its count and its links."""
    page.goto(f"{table.base}/setup/game?players=3&seed=Q4RT8WXZ")  # the redirect adds a table's code
    assert page.evaluate("window.isSecureContext") is True
    _box(page, "general-board").check()
    expect(page.locator("#setup-progress strong")).to_have_text(re.compile(r"^1 of "))
    _box(page, "general-reserve").check()
    expect(page.locator("#setup-progress strong")).to_have_text(re.compile(r"^2 of "))
    for again in (False, True):
        if again:
            page.reload()
        else:
            page.goto(f"{table.base}/setup/game?{QUERY}")  # Generate: another setup, the same path
        expect(page.locator("#setup-code")).to_have_text("K7MX 2QPA")
        expect(page.locator("#setup-progress strong")).to_have_text(f"0 of {TOTAL}")
        expect(page.get_by_role("link", name="Track this game").first).to_have_attribute(
            "href", re.compile("seed=K7MX2QPA")
        )
    page.go_back()  # the first setup, from the server: its own ticks
    expect(page.locator("#setup-code")).to_have_text("Q4RT 8WXZ")
    expect(page.locator("#setup-progress strong")).to_have_text(re.compile(r"^2 of "))
