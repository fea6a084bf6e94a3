"""The service worker (issue 25, "Installable"; companion/static/companion/sw.js, docs/sync.md "Offline"): a phone at
``http://127.0.0.1`` (a secure context, as HTTPS is) loads a tracked game; the server is stopped; a reload shows the
game's last state and the outbox instead of the browser's error page; a tap waits; the server comes back on the same
address and the waiting taps land once. The page runs under the real Content-Security-Policy."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from benchmarks.polling import ROOT, _wait_ready, free_port
from tests.companion.live.conftest import Table
from tests.companion.live.test_screen_browser import TV
from tests.companion.live.test_tracker_browser import _add, _score, _writes, new_game
from tests.companion.test_csp_browser import Watch

pytestmark = [pytest.mark.browser]

#: Waits (in the page) until the worker keeps this page: promises awaited, a bounded number of checks.
KEPT_JS = """async () => {
  await navigator.serviceWorker.ready;
  for (let i = 0; i < 600; i++) {
    if (navigator.serviceWorker.controller && await caches.match(location.href)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}"""


class Server:
    """gunicorn (uvicorn workers, as ``manage.py table``) on one SQLite file, stopped and started on one port."""

    def __init__(self, database: Path) -> None:
        self.port = free_port()
        self.env = dict(
            os.environ,
            DJANGO_DEBUG="0",
            DJANGO_SETTINGS_MODULE="companion.settings",
            DJANGO_SECRET_KEY=settings.SECRET_KEY,
            DATABASE_URL=f"sqlite:///{database}",
        )
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=self.env, check=True
        )
        self.process: subprocess.Popen[bytes] | None = None
        self.log = (database.parent / "server.log").open(
            "w+b"
        )  # a file: a pipe nobody reads would block the server

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "companion.asgi:application", "--bind", f"127.0.0.1:{self.port}",
             "--workers", "1", "--worker-class", "companion.worker.TableWorker", "--log-level", "warning"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True,
        )  # fmt: skip
        _wait_ready(self.port, self.process, self.log)

    def stop(self, *, at_once: bool = False) -> None:
        """Stopped as gunicorn stops; ``at_once``: every process of it killed (the computer serving the table shut,
        its program killed), which closes the open streams (stopped, the master waits 15 s for them and is killed,
        and its worker goes on serving them alone)."""
        if self.process is not None and at_once:
            os.killpg(self.process.pid, signal.SIGKILL)
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
            self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Server, Table]]:
    database = tmp_path / "db.sqlite3"
    running = Server(database)
    running.start()
    try:
        yield running, Table(f"http://127.0.0.1:{running.port}", "127.0.0.1", running.port, database)
    finally:
        running.stop()
        running.log.close()


def test_a_reload_with_the_server_gone_shows_the_last_state_and_the_taps_land_once(
    server: tuple[Server, Table], new_context: Any, screenshot: Any
) -> None:
    gunicorn, table = server
    edit, _ = new_game(table)
    context = new_context(bypass_csp=False)  # the real policy: the worker and its registration pass it
    page = context.new_page()
    watch = Watch(page)
    watch.visit(f"{table.base}/games/{edit}/")
    assert page.evaluate("window.isSecureContext") is True
    assert page.evaluate(KEPT_JS) is True
    _add(page, 1, 3)  # lands while the server is there
    expect(page.locator("#part-row-1")).to_have_class("row")
    expect(page.locator("#score-1")).to_have_text("3")
    assert _score(table, edit, 1) == 3

    gunicorn.stop()
    _add(page, 2, 2)
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 1 waiting.")
    page.reload()  # the worker's copy, not the browser's error page
    expect(page.locator("#state")).to_be_visible()
    expect(page.locator("#score-1")).to_have_text("3")  # the last state this phone saw, newer than the copy
    expect(page.locator("#score-2")).to_have_text("2")  # the waiting tap, shown as waiting
    expect(page.locator("#part-row-2")).to_have_class("row live-waiting")
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 1 waiting.")
    _add(page, 3, 5)
    expect(page.locator("#score-3")).to_have_text("5")
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 2 waiting.")
    screenshot(page, "offline-reload")

    gunicorn.start()  # the same address: the outbox is sent again and lands, once each
    expect(page.locator(".live-status")).to_be_hidden()
    expect(page.locator("#part-row-2")).to_have_class("row")
    expect(page.locator("#part-row-3")).to_have_class("row")
    assert [_score(table, edit, seat) for seat in (1, 2, 3)] == [3, 2, 5]
    assert _writes(table) == 3
    assert int(table.sql("SELECT COUNT(*) FROM companion_change WHERE op = 'score-add'")[0][0]) == 3
    page.reload()  # online again: the server's page, which agrees
    expect(page.locator("#score-2")).to_have_text("2")
    expect(page.locator("#score-3")).to_have_text("5")
    watch.clean("the game, offline and back")


def test_the_view_link_and_the_table_screen_say_quietly_while_the_server_is_gone(
    server: tuple[Server, Table], new_context: Any, screenshot: Any
) -> None:
    """The view-only link and the table screen gave no sign while the server could not be reached: they showed the
    last state as if it were live. They now say "Reconnecting…" in the bar, fixed (the page does not move) and
    polite to a screen reader, until the server answers again; then they catch up."""
    gunicorn, table = server
    edit, view = new_game(table)
    look, tv = new_context().new_page(), new_context(**TV).new_page()
    look.goto(f"{table.base}/games/{view}/")
    tv.goto(f"{table.base}/games/{view}/screen")
    pages = (look, tv)
    for page in pages:
        page.wait_for_function("() => document.documentElement.dataset.liveBy === 'stream'")
        expect(page.locator(".live-status")).to_be_hidden()
    top = "document.querySelector('main').getBoundingClientRect().top"
    tops = [page.evaluate(top) for page in pages]

    gunicorn.stop(at_once=True)
    for page in pages:
        expect(page.locator(".live-status")).to_have_text("Reconnecting…")
        expect(page.locator(".live-status")).to_be_visible()
        assert page.locator(".live-bar").get_attribute("aria-live") == "polite"
        assert page.locator(".live-note").count() == 0  # nothing to answer: a quiet line, no alert
    assert [page.evaluate(top) for page in pages] == tops  # the page did not move
    screenshot(look, "offline-view-link-reconnecting")
    screenshot(tv, "offline-screen-reconnecting")

    gunicorn.start()
    for page in pages:
        expect(page.locator(".live-status")).to_be_hidden()
    client = table.client()
    client.request("GET", f"/games/{edit}/")
    assert (
        client.request("POST", f"/games/{edit}/change", {"op": "score-add", "seat": 1, "value": 3})[0] == 302
    )
    expect(look.locator("#score-1")).to_have_text("3")
    expect(tv.locator("#screen-score-1")).to_have_text("3")
