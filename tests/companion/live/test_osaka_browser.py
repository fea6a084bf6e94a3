"""The live-table engine on a Traders of Osaka game, in phone-sized Chromium against the ASGI server (issue 21,
docs/sync.md): taps seen on the other phones through the stream, applied once, kept offline, taken back when
refused, kept per game, said when the phone cannot keep them, a conflict that holds nothing else, and the poll
when the stream is blocked."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.companion.live.conftest import Table, lose_the_first_answer, pulls_of, watch_mark

pytestmark = [pytest.mark.browser]

#: How soon another phone shows a tap is measured by `manage.py bench live` (issue 21: 300 ms at p95), not here:
#: the tests wait for what a phone shows (tests/conftest.py BROWSER_WAIT_MS bounds a hang), and count the pulls to
#: tell a stream's poke from a timer.


def _open(page: Any, table: Table, token: str, *, stream: bool = True) -> None:
    page.goto(f"{table.base}/osaka/games/{token}/")
    if stream:
        page.wait_for_function("() => document.documentElement.dataset.liveBy === 'stream'")


def _take(page: Any, seat: int, colour: str, delta: int = 1) -> None:
    details = page.locator(f"#change-{seat}")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.locator(f"#{'take' if delta > 0 else 'give'}-{seat}-{colour}-go").click()


def _tokens(table: Table, edit: str, seat: int, colour: str) -> int:
    rows = table.sql(
        f"SELECT s.{colour} FROM companion_osakaseat s JOIN companion_osakagame g ON g.id = s.game_id "
        "WHERE g.edit_token = ? AND s.seat = ?",
        edit,
        seat,
    )
    return int(rows[0][0])


def _writes(table: Table) -> int:
    return int(table.sql("SELECT COUNT(*) FROM companion_mutation")[0][0])


def _tap_count(page: Any) -> int:
    return int(
        page.evaluate(
            "() => JSON.parse(localStorage.getItem(Object.keys(localStorage).find(k => k.startsWith('live-outbox:'))) || '[]').length"
        )
    )


@pytest.mark.poke
def test_two_phones_and_the_view_link_see_each_tap_through_the_stream(
    table: Table, new_context: Any, screenshot: Any
) -> None:
    edit, view = table.osaka()
    ann, ben, look = (new_context().new_page() for _ in range(3))
    _open(ann, table, edit)
    _open(ben, table, edit)
    _open(look, table, view)
    # Counted once each stream is open: before its first word a page polls (conftest.pulls_of).
    pulls = pulls_of(ann, ben, look)
    _take(ann, 1, "red")
    expect(ann.locator("#tok-1-red")).to_have_text("1")
    expect(ben.locator("#tok-1-red")).to_have_text("1")
    expect(look.locator("#tok-1-red")).to_have_text("1")
    _take(ben, 2, "blue")
    expect(ann.locator("#tok-2-blue")).to_have_text("1")
    expect(look.locator("#tok-2-blue")).to_have_text("1")
    expect(look.locator("#total-2")).to_contain_text("1 of")
    # Each pull was asked for by a poke (the version moved), not by a timer: 2 taps, seen by 2 other phones.
    assert len(pulls) <= 4, pulls
    assert look.locator("#take-1-red-go").count() == 0  # the view link offers no write
    screenshot(look, "live-osaka-view-link")


def test_a_tap_whose_answer_was_lost_lands_once(table: Table, page: Any) -> None:
    edit, _ = table.osaka()
    _open(page, table, edit)
    lost = lose_the_first_answer(page)
    waited = watch_mark(page, "#seat-1", "live-waiting")
    _take(page, 1, "green")
    expect(page.locator("#tok-1-green")).to_have_text("1")  # at once, waiting
    waited()
    expect(page.locator("#seat-1")).not_to_have_class("osaka-seat live-waiting")  # sent again
    expect(page.locator("#tok-1-green")).to_have_text("1")
    assert _tokens(table, edit, 1, "green") == 1
    assert lost == [1]
    assert _writes(table) == 1


def test_offline_taps_show_at_once_and_land_once(table: Table, new_context: Any) -> None:
    edit, _ = table.osaka()
    context = new_context()
    page = context.new_page()
    _open(page, table, edit)
    context.set_offline(True)
    for _ in range(3):
        _take(page, 2, "yellow")
    expect(page.locator("#tok-2-yellow")).to_have_text("3")  # each shows at once
    expect(page.locator("#seat-2")).to_have_class("osaka-seat live-waiting")
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 3 waiting.")
    assert _tap_count(page) == 3
    context.set_offline(False)
    expect(page.locator("#seat-2")).not_to_have_class("osaka-seat live-waiting")
    expect(page.locator(".live-status")).to_be_hidden()
    expect(page.locator("#tok-2-yellow")).to_have_text("3")
    assert _tokens(table, edit, 2, "yellow") == 3
    assert _writes(table) == 3


def test_a_refused_tap_is_taken_back_with_its_message(table: Table, page: Any, screenshot: Any) -> None:
    edit, _ = table.osaka()
    _open(page, table, edit)
    _take(page, 1, "blue", -1)  # nothing to give back
    # said under the buttons, where the thumb is (it was said at the top of the page, off the screen)
    said = page.locator("#seat-said-1")
    expect(said).to_contain_text("has no blue token to give back.")
    expect(said).to_be_in_viewport()
    expect(page.locator("#state-message")).to_have_count(0)
    expect(page.locator("#tok-1-blue")).to_have_text("0")
    expect(page.locator("#seat-1")).not_to_have_class("osaka-seat live-waiting")
    screenshot(page, "live-osaka-refused")


def test_one_games_waiting_taps_never_show_on_another(table: Table, new_context: Any) -> None:
    first, _ = table.osaka()
    second, _ = table.osaka(("Cho", "Dai"))
    context = new_context()
    context.route(f"**/osaka/games/{first}/change", lambda route: route.abort())  # the first game's taps wait
    page = context.new_page()
    _open(page, table, first)
    _take(page, 1, "red")
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 1 waiting.")
    other = context.new_page()  # same phone, same storage, another game
    _open(other, table, second)
    expect(other.locator("#tok-1-red")).to_have_text("0")
    _take(other, 1, "red")
    expect(other.locator("#seat-1")).not_to_have_class("osaka-seat live-waiting")
    expect(other.locator(".live-status")).to_be_hidden()
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 1 waiting.")
    assert _tokens(table, second, 1, "red") == 1
    assert _tokens(table, first, 1, "red") == 0
    context.unroute(f"**/osaka/games/{first}/change")
    expect(page.locator("#seat-1")).not_to_have_class("osaka-seat live-waiting")  # sent again
    expect(page.locator(".live-status")).to_be_hidden()
    assert _tokens(table, first, 1, "red") == 1


def test_storage_that_throws_is_said_and_the_tap_still_sent(table: Table, page: Any) -> None:
    edit, _ = table.osaka()
    page.add_init_script(
        "Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };"
    )
    _open(page, table, edit)
    _take(page, 1, "red")
    expect(page.locator(".live-status")).to_contain_text("cannot keep taps while offline")
    expect(page.locator("#seat-1")).not_to_have_class("osaka-seat live-waiting")
    assert _tokens(table, edit, 1, "red") == 1


def test_an_unanswered_conflict_holds_no_later_tap(table: Table, new_context: Any, screenshot: Any) -> None:
    edit, _ = table.osaka()
    context = new_context()
    page = context.new_page()
    _open(page, table, edit)
    for seat in (1, 2):
        page.select_option(f"#total{seat}", "8")
        page.select_option(f"#cards{seat}", str(seat + 1))
    context.set_offline(True)
    page.click("#who-starts")  # sent with the version this phone saw...
    _take(page, 1, "red")
    other = table.client()  # ...while another phone changes the game
    other.request("GET", f"/osaka/games/{edit}/")
    status, _, _ = other.request(
        "POST", f"/osaka/games/{edit}/change", {"op": "token", "seat": 2, "colour": "green", "delta": 1}
    )
    assert status == 302
    context.set_offline(False)
    expect(page.get_by_role("button", name="Apply it anyway")).to_be_visible()
    expect(page.locator(".live-note")).to_contain_text("the start player was not saved")
    expect(page.locator("#seat-1")).not_to_have_class("osaka-seat live-waiting")  # the +1 went on
    assert _tokens(table, edit, 1, "red") == 1
    screenshot(page, "live-osaka-conflict")
    page.get_by_role("button", name="Apply it anyway").click()
    expect(page.locator("#start-text")).to_be_visible()


def test_with_the_stream_blocked_the_page_polls(table: Table, new_context: Any) -> None:
    edit, _ = table.osaka()
    ann, ben = new_context().new_page(), new_context().new_page()
    ben.route("**/live/**", lambda route: route.abort())
    _open(ann, table, edit)
    _open(ben, table, edit, stream=False)
    _take(ann, 2, "red")
    expect(ben.locator("#tok-2-red")).to_have_text("1")
    assert ben.evaluate("document.documentElement.dataset.liveBy") == "poll"


#: The values that differ on every render of the same log (CSRF tokens, the client ids rendered into the forms):
#: a line kept from an older render holds older ones. Nothing else may differ from a reload.
VOLATILE = re.compile(r'(name="(?:csrfmiddlewaretoken|cid)" value=")[^"]*"')


def test_token_taps_send_their_log_line_alone_and_each_phones_log_matches_a_reload(
    table: Table, new_context: Any, screenshot: Any
) -> None:
    """A token tap's answer, and the other phone's pull, carry the log's new line, not the log (issue 21,
    "osakaline"): live.js puts it first and drops the line no longer among the last eight versions. After ten taps
    across two phones, each phone's log is, byte for byte, the log a reload shows."""
    edit, _ = table.osaka()
    ann, ben = new_context().new_page(), new_context().new_page()
    sent: list[str] = []
    for phone in (ann, ben):
        _open(phone, table, edit)
        phone.on(
            "response", lambda r: sent.append(r.text()) if "/change" in r.url or "/state?" in r.url else None
        )
    first = int(ann.locator("#state").get_attribute("data-live-version"))
    for n in range(10):
        phone, seat = (ann, 1) if n % 2 == 0 else (ben, 2)
        with phone.expect_response(lambda r: r.url.endswith("/change")):
            _take(phone, seat, ("red", "blue", "yellow", "green", "red")[n // 2])
        for each in (ann, ben):
            expect(each.locator("#log-lines > li").first).to_have_id(f"event-{first + n + 1}")
            expect(each.locator(".live-waiting")).to_have_count(0)
    assert len(sent) >= 10
    assert all('id="log"' not in s and s.count('data-live-in="log-lines"') <= 2 for s in sent), sent
    lines = "Array.from(document.querySelectorAll('#log-lines > li'), (li) => li.id)"
    assert ann.evaluate(lines) == [f"event-{v}" for v in range(first + 10, first + 2, -1)]  # the last eight
    shown = [_log(p) for p in (ann, ben)]
    texts = [p.locator("#log-lines").inner_text() for p in (ann, ben)]
    screenshot(ben, "live-osaka-log-line")
    for phone in (ann, ben):
        phone.reload()
        assert _log(phone) == shown[0] == shown[1]
        assert phone.locator("#log-lines").inner_text() == texts[0] == texts[1]


def _log(phone: Any) -> str:
    """The phone's log list as it stands, but for the values that differ on every render (:data:`VOLATILE`)."""
    return VOLATILE.sub(r"\1", phone.locator("#log-lines").evaluate("e => e.outerHTML"))


def test_an_undo_strikes_its_line_on_both_phones_and_the_next_tap_leaves_a_reloads_log(
    table: Table, new_context: Any, screenshot: Any
) -> None:
    """An undo's answer marks its line undone on both phones and adds its own line ("Undid: ..."); the phone that
    undid shows its answer beside that line, which the next change (here the other phone's tap, pulled) takes
    away: both logs are then, byte for byte, a reload's."""
    edit, _ = table.osaka()
    ann, ben = new_context().new_page(), new_context().new_page()
    for phone in (ann, ben):
        _open(phone, table, edit)
    first = int(ann.locator("#state").get_attribute("data-live-version"))
    for seat, colour in ((1, "red"), (2, "green"), (1, "blue")):
        with ann.expect_response(lambda r: r.url.endswith("/change")):
            _take(ann, seat, colour)
    target = first + 2  # Ben took a green token
    expect(ben.locator("#log-lines > li").first).to_have_id(f"event-{first + 3}")
    with ann.expect_response(lambda r: r.url.endswith("/change")):
        ann.locator(f"#undo-{target}-go").click()
    for phone in (ann, ben):
        expect(phone.locator("#log-lines > li").first).to_have_id(f"event-{first + 4}")
        expect(phone.locator(f"#event-{target}")).to_have_class("undone")
        expect(phone.locator(f"#event-{target}")).to_contain_text("undone")
        expect(phone.locator(f"#undo-{target}-go")).to_contain_text("Restore")
        expect(phone.locator("#tok-2-green")).to_have_text("0")
    expect(ann.locator(f"#event-{target} #answer-event")).to_have_text("Undid: Ben took a green token.")
    with ben.expect_response(lambda r: r.url.endswith("/change")):
        _take(ben, 2, "red")
    for phone in (ann, ben):
        expect(phone.locator("#log-lines > li").first).to_have_id(f"event-{first + 5}")
    expect(ann.locator("#answer-event")).to_have_count(0)  # the pull brought the line again, without it
    shown = [_log(ann), _log(ben)]
    assert shown[0] == shown[1]
    ann.reload()
    assert _log(ann) == shown[0]
    screenshot(ann, "live-osaka-undo-line")  # after: a screenshot leaves style="" on the page's inputs


def test_a_stream_gone_quiet_is_opened_anew(table: Table, new_context: Any) -> None:
    """A connection lost without a word (a router that drops it, a laptop's network gone) leaves the stream open
    and silent: the page waited for pokes that never came. The server speaks at least every 20 s
    (companion.live.stream.KEEPALIVE_S); a page that has heard nothing for much longer opens its stream anew and
    polls meanwhile. The page's clock is moved on (Playwright's clock), not waited for."""
    edit, _ = table.osaka()
    ann = new_context().new_page()
    ann.clock.install()
    _open(ann, table, edit)
    with ann.expect_request(lambda r: "/live/osaka/" in r.url):
        ann.clock.fast_forward(60_000)
    ann.wait_for_function("() => document.documentElement.dataset.liveBy === 'stream'")
    ben = new_context().new_page()
    _open(ben, table, edit)
    _take(ben, 1, "red")
    expect(ann.locator("#tok-1-red")).to_have_text("1")
