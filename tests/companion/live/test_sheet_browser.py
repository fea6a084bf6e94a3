"""The live-table engine on the scoring walk-through, in phone-sized Chromium against the ASGI server (issue 21,
docs/sync.md): taps seen on the other phones and the view-only link through the stream, applied once, kept
offline, taken back when refused, kept per sheet, said when the phone cannot keep them, a conflict that holds
nothing else, the page that does not move, and the poll when the stream is blocked."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.companion.live.conftest import Table, lose_the_first_answer, watch_mark
from tests.companion.live.test_answer_browser import Held

pytestmark = [pytest.mark.browser]

#: How soon another phone shows an entry is measured by `manage.py bench live`, not here: the tests wait for what
#: a phone shows (tests/conftest.py BROWSER_WAIT_MS bounds a hang).
TRACK = "p0-score_track"


def _open(page: Any, table: Table, token: str, step: str = "track", *, stream: bool = True) -> None:
    page.goto(f"{table.base}/score/{token}/{step}/")
    if stream:
        page.wait_for_function("() => document.documentElement.dataset.liveBy === 'stream'")


def _writes(table: Table) -> int:
    return int(table.sql("SELECT COUNT(*) FROM companion_mutation")[0][0])


@pytest.mark.poke
def test_two_phones_and_the_view_link_see_each_tap_through_the_stream(
    table: Table, new_context: Any, screenshot: Any
) -> None:
    token = table.sheet()
    view = table.sql("SELECT view_token FROM companion_scoresheet WHERE token = ?", token)[0][0]
    aya, ben, look = (new_context().new_page() for _ in range(3))
    _open(aya, table, token)
    _open(ben, table, token)
    look.goto(f"{table.base}/score/view/{view}/")
    look.wait_for_function("() => document.documentElement.dataset.liveBy === 'stream'")
    before = look.locator("#result").inner_text()
    where = ben.locator(f"#{TRACK}-more").bounding_box()["y"]
    aya.locator(f"#{TRACK}-more").click()
    expect(aya.locator(f"#{TRACK}")).to_have_value("1")
    expect(ben.locator(f"#{TRACK}")).to_have_value("1")
    expect(look.locator("#result")).not_to_have_text(before)
    assert ben.locator(f"#{TRACK}-more").bounding_box()["y"] == where  # nothing moved under Ben's thumb
    ben.locator(f"#{TRACK}-more").click()
    expect(aya.locator(f"#{TRACK}")).to_have_value("2")
    expect(aya.locator(".sp-totals")).to_contain_text("Aya 2")
    assert table.sheet_value(token, 0, "score_track") == 2
    screenshot(look, "live-sheet-view-link")


def test_a_tap_whose_answer_was_lost_lands_once(table: Table, page: Any) -> None:
    token = table.sheet()
    _open(page, table, token)
    lost = lose_the_first_answer(page, "**/entry/")
    waited = watch_mark(page, f"#e-{TRACK}", "live-waiting")
    page.locator(f"#{TRACK}-more").click()
    expect(page.locator(f"#{TRACK}")).to_have_value("1")  # at once, waiting
    waited()
    expect(page.locator(f"#e-{TRACK}")).to_have_class("sp-number")  # sent again, answered
    expect(page.locator(f"#{TRACK}")).to_have_value("1")
    assert table.sheet_value(token, 0, "score_track") == 1
    assert lost == [1]
    assert _writes(table) == 1


def test_offline_taps_show_at_once_and_land_once(table: Table, new_context: Any) -> None:
    token = table.sheet()
    context = new_context()
    page = context.new_page()
    _open(page, table, token)
    context.set_offline(True)
    for n in (1, 2, 3):
        page.locator(f"#{TRACK}-more").click()
        expect(page.locator(f"#{TRACK}")).to_have_value(str(n))  # at once
    expect(page.locator(f"#e-{TRACK}")).to_have_class("sp-number live-waiting")
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 3 waiting.")
    context.set_offline(False)
    expect(page.locator(f"#e-{TRACK}")).to_have_class("sp-number")
    expect(page.locator(".live-status")).to_be_hidden()
    expect(page.locator(f"#{TRACK}")).to_have_value("3")
    assert table.sheet_value(token, 0, "score_track") == 3
    assert _writes(table) == 3


def test_a_refused_tap_is_taken_back_with_its_message(table: Table, page: Any) -> None:
    token = table.sheet()
    _open(page, table, token)
    # A button the server refuses (what an outdated page might send): its +1 shows, then is taken back.
    page.evaluate(f"document.getElementById('{TRACK}-more').value = 'bump|0|nonsense|1'")
    page.locator(f"#{TRACK}-more").click()
    expect(page.locator("#bad-input")).to_contain_text("Nothing was changed.")
    expect(page.locator(f"#{TRACK}")).to_have_value("0")
    expect(page.locator(f"#e-{TRACK}")).to_have_class("sp-number")
    assert table.sheet_value(token, 0, "score_track") == 0


def test_one_sheets_waiting_taps_never_show_on_another(table: Table, new_context: Any) -> None:
    first, second = table.sheet(), table.sheet(("Cho", "Dai"))
    context = new_context()
    context.route(f"**/score/{first}/**/entry/", lambda route: route.abort())  # the first sheet's taps wait
    page = context.new_page()
    _open(page, table, first)
    page.locator(f"#{TRACK}-more").click()
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 1 waiting.")
    other = context.new_page()  # same phone, same storage, another sheet
    _open(other, table, second)
    other.locator(f"#{TRACK}-more").click()
    expect(other.locator(f"#e-{TRACK}")).to_have_class("sp-number")
    expect(other.locator(f"#{TRACK}")).to_have_value("1")
    expect(other.locator(".live-status")).to_be_hidden()
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 1 waiting.")
    assert table.sheet_value(second, 0, "score_track") == 1
    assert table.sheet_value(first, 0, "score_track") == 0


def test_storage_that_throws_is_said_and_the_tap_still_sent(table: Table, page: Any) -> None:
    token = table.sheet()
    page.add_init_script(
        "Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };"
    )
    _open(page, table, token)
    page.locator(f"#{TRACK}-more").click()
    expect(page.locator(".live-status")).to_contain_text("cannot keep taps while offline")
    expect(page.locator(f"#e-{TRACK}")).to_have_class("sp-number")
    assert table.sheet_value(token, 0, "score_track") == 1


def test_an_unanswered_conflict_holds_no_later_tap(table: Table, new_context: Any, screenshot: Any) -> None:
    token = table.sheet()
    context = new_context()
    page = context.new_page()
    _open(page, table, token)
    context.set_offline(True)
    page.locator(f"#{TRACK}").fill("5")
    page.locator(f"#{TRACK}").press("Tab")  # a typed number: it replaces 0...
    page.locator(f"#{TRACK}-more").click()  # ...then a +1
    other = table.client()  # another phone types 7 meanwhile
    other.request("GET", f"/score/{token}/track/")
    other.request("POST", f"/score/{token}/track/entry/", {TRACK: "7", f"was-{TRACK}": "0"})
    context.set_offline(False)
    expect(page.get_by_role("button", name="Apply it anyway")).to_be_visible()
    expect(page.locator(f"#e-{TRACK}")).to_have_class("sp-number")  # the +1 did not wait
    expect(page.locator(".live-status")).to_be_hidden()
    assert table.sheet_value(token, 0, "score_track") == 8
    expect(page.locator(f"#{TRACK}")).to_have_value("8")
    screenshot(page, "live-sheet-conflict")
    page.get_by_role("button", name="Apply it anyway").click()
    expect(page.locator(f"#{TRACK}")).to_have_value("5")
    assert table.sheet_value(token, 0, "score_track") == 5


def test_a_field_being_typed_in_is_not_replaced(table: Table, new_context: Any) -> None:
    token = table.sheet()
    aya, ben = new_context().new_page(), new_context().new_page()
    _open(aya, table, token)
    _open(ben, table, token)
    aya.locator(f"#{TRACK}").fill("4")  # typing, not left yet
    ben.locator(f"#{TRACK}-more").click()
    expect(aya.get_by_role("button", name="Use 1")).to_be_visible()
    expect(aya.locator(f"#{TRACK}")).to_have_value("4")
    expect(aya.locator(f"#{TRACK}")).to_be_focused()
    aya.get_by_role("button", name="Use 1").click()
    expect(aya.locator(f"#{TRACK}")).to_have_value("1")


def test_a_plus_one_after_a_refused_number_counts_from_the_saved_one(table: Table, page: Any) -> None:
    """A number refused stays in its box (the player may fix it); the −/+ beside it then counts from the number
    saved, at once and in the answer, instead of sending the refused one along and being refused with it."""
    token = table.sheet()
    _open(page, table, token)
    field = page.locator(f"#{TRACK}")
    field.fill("40")
    field.press("Tab")
    expect(page.locator(".sp-totals")).to_contain_text("Aya 40")  # answered: its piece is in before the next
    field.fill("400000")
    field.press("Tab")
    expect(page.locator("#bad-input")).to_contain_text("Nothing was changed.")
    expect(field).to_have_value("400000")
    held = Held()
    page.route("**/entry/", held.route)
    page.tap(f"#{TRACK}-more")
    expect(field).to_have_value("41")  # at once, waiting for the server
    expect(page.locator(f"#e-{TRACK}")).to_have_class("sp-number live-waiting")
    held.release()
    expect(page.locator(f"#e-{TRACK}")).to_have_class("sp-number")
    expect(page.locator("#bad-input")).to_have_count(0)
    expect(field).to_have_value("41")
    expect(page.locator(f"input[name='was-{TRACK}']")).to_have_value("41")
    assert table.sheet_value(token, 0, "score_track") == 41


def test_without_javascript_a_plus_one_beside_a_refused_number_counts_from_the_saved_one(
    table: Table, new_context: Any
) -> None:
    token = table.sheet()
    page = new_context(java_script_enabled=False).new_page()
    _open(page, table, token, stream=False)
    field = page.locator(f"#{TRACK}")
    field.fill("40")
    field.press("Enter")
    expect(page.locator(f"input[name='was-{TRACK}']")).to_have_value("40")
    field.fill("400000")
    page.locator(f"#{TRACK}-more").click()
    expect(page.locator(f"input[name='was-{TRACK}']")).to_have_value("41")
    expect(field).to_have_value("41")
    expect(page.locator("#bad-input")).to_have_count(0)
    assert table.sheet_value(token, 0, "score_track") == 41


def test_with_the_stream_blocked_the_page_polls(table: Table, new_context: Any) -> None:
    token = table.sheet()
    aya, ben = new_context().new_page(), new_context().new_page()
    ben.route("**/live/**", lambda route: route.abort())
    _open(aya, table, token)
    _open(ben, table, token, stream=False)
    aya.locator(f"#{TRACK}-more").click()
    expect(ben.locator(f"#{TRACK}")).to_have_value("1")
    assert ben.evaluate("document.documentElement.dataset.liveBy") == "poll"
