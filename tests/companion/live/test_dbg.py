from tests.companion.live.test_osaka_browser import _open, _take, _tokens, Table, expect
import pytest

pytestmark = [pytest.mark.browser]


def test_dbg(table, new_context):
    edit, _ = table.osaka()
    context = new_context()
    page = context.new_page()
    page.on(
        "response",
        lambda r: print(
            "RESP",
            r.status,
            r.url[-40:],
            r.headers.get("x-live-version"),
            r.headers.get("x-live-done"),
            r.headers.get("x-live-replay"),
        ),
    )
    page.on("requestfailed", lambda r: print("FAILED", r.url[-40:]))
    page.on("request", lambda r: print("REQ", r.url[-60:], (r.post_data or "")[-60:]))
    _open(page, table, edit)
    context.set_offline(True)
    for _ in range(3):
        _take(page, 2, "yellow")
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 3 waiting.")
    context.set_offline(False)
    expect(page.locator(".live-status")).to_be_hidden(timeout=8000)
    page.wait_for_timeout(1000)
    print(
        _tokens(table, edit, 2, "yellow"), table.sql("select client, counter, status from companion_mutation")
    )
