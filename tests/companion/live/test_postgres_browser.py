"""Two app processes on one PostgreSQL (issue 21): a tap served by one pokes a phone whose stream is held by the
other, through LISTEN/NOTIFY (companion/live/stream.py). Runs when the suite runs on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import expect

from benchmarks.polling import served
from tests.companion.live.conftest import Table
from tests.concurrency import gunicorn_database_url

pytestmark = [pytest.mark.browser, pytest.mark.poke]


def test_a_tap_on_one_process_pokes_a_phone_on_the_other(table: Table, new_context: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("LISTEN/NOTIFY between processes needs PostgreSQL")
    edit, view = table.osaka()
    with served(gunicorn_database_url(), workers=1) as (host, port):
        other = f"http://{host}:{port}"
        watcher = new_context().new_page()
        polls: list[str] = []
        watcher.on("request", lambda r: polls.append(r.url) if "/state" in r.url else None)
        watcher.goto(f"{other}/osaka/games/{view}/")
        watcher.wait_for_function("() => document.documentElement.dataset.liveBy === 'stream'")
        tapper = new_context().new_page()
        tapper.goto(f"{table.base}/osaka/games/{edit}/")
        tapper.locator("#change-1 summary").click()
        tapper.locator("#take-1-red-go").click()
        expect(watcher.locator("#tok-1-red")).to_have_text("1")
        assert len(polls) == 1 and "v=1" in polls[0]  # one pull, asked for by the poke
