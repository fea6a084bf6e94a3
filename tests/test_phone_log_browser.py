"""What a failed browser test's phones held (tests/phone_log.py): a stylesheet that loaded and one that did not,
the failed request, a refused answer, the console's error and an uncaught error, each named; and only a failed
test's report carries them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import PHONE_LOG, pytest_runtest_makereport

pytestmark = pytest.mark.browser

ORIGIN = "http://phone.test"


def test_a_phone_says_which_stylesheet_it_lacks_and_why(
    new_context: Any, request: pytest.FixtureRequest
) -> None:
    context = new_context()
    context.route(f"{ORIGIN}/", lambda route: route.fulfill(content_type="text/html", body=(
        '<link rel="stylesheet" href="/shown.css"><link rel="stylesheet" href="/lost.css">'
        "<script>console.error('a script said no'); fetch('/refused'); null.x;</script><p id='done'>page</p>"
    )))  # fmt: skip
    context.route(
        f"{ORIGIN}/shown.css", lambda route: route.fulfill(content_type="text/css", body="p{color:red}")
    )
    context.route(f"{ORIGIN}/lost.css", lambda route: route.abort("connectionreset"))
    context.route(f"{ORIGIN}/refused", lambda route: route.fulfill(status=409, body="later"))
    page = context.new_page()
    # Chromium's console line on the refused answer comes last: every event before it has been logged.
    with page.expect_console_message(lambda message: "409" in message.text):
        page.goto(f"{ORIGIN}/")
    said = request.node.stash[PHONE_LOG].describe()
    assert said.startswith("phone 1:\n")
    assert f"request failed: GET {ORIGIN}/lost.css: net::ERR_CONNECTION_RESET" in said
    assert f"the server responded with a status of 409 (Conflict) ({ORIGIN}/refused)" in said
    assert "console error: a script said no" in said
    assert "uncaught error: Cannot read properties of null (reading 'x')" in said
    assert f"  page {ORIGIN}/\n    document: complete\n" in said
    assert (
        "    stylesheet /shown.css: 1 rules\n"
        "    stylesheet /lost.css: its rules unreadable: not loaded, or from another origin"
    ) in said


def test_a_failed_test_reports_its_phones_and_a_passed_one_nothing(
    new_context: Any, request: pytest.FixtureRequest
) -> None:
    context = new_context()
    context.route(f"{ORIGIN}/", lambda route: route.fulfill(content_type="text/html", body="<p>page</p>"))
    context.new_page().goto(f"{ORIGIN}/")
    new_context()  # a phone without a page
    held = f"phone 1:\n  page {ORIGIN}/\n    document: complete\nphone 2:"
    for when, failed, sections in [
        ("call", True, [("what the phones held", held)]),
        ("call", False, []),
        ("setup", True, []),  # a fixture's failure: the phones are not the test's yet
    ]:
        report = SimpleNamespace(when=when, failed=failed, sections=[])
        hook = pytest_runtest_makereport(request.node, None)  # type: ignore[arg-type]
        next(hook)
        with pytest.raises(StopIteration) as answered:
            hook.send(report)
        assert answered.value.value is report and report.sections == sections
