"""A write is stored exactly once even when the server dies between the write and its answer (issue 21): the
worker exits right after the write commits (tests/companion/live/dies.py), gunicorn starts another, and the phone
sends the same write again with the same client id and counter. On SQLite here; on PostgreSQL when the suite runs
there (DATABASE_URL, `.ci/postgres`)."""

from __future__ import annotations

import http.client
import secrets
import time
from typing import Any

import pytest

from benchmarks.polling import Browserless
from tests.companion.live.conftest import Table


def _again(table: Table, phone: Browserless) -> Browserless:
    """A new connection with the same cookies, once the new worker answers."""
    deadline = time.monotonic() + 30
    while True:
        fresh = table.client()
        fresh.cookies = dict(phone.cookies)
        try:
            if fresh.request("GET", "/healthz")[0] == 200:
                return fresh
        except (OSError, http.client.HTTPException):
            if time.monotonic() > deadline:
                raise
        time.sleep(0.2)


def _dies_then_lands_once(table: Table, url: str, form: dict[str, Any]) -> dict[str, str]:
    phone = table.client()
    phone.request("GET", url.rsplit("/", 2)[0] + "/")  # the CSRF cookie
    form = {**form, "lc": "die" + secrets.token_hex(6), "ln": "1"}
    with pytest.raises((OSError, http.client.HTTPException)):
        phone.request("POST", url, form, headers={"X-Live": "1"})
    status, headers, _ = _again(table, phone).request("POST", url, form, headers={"X-Live": "1"})
    assert status == 200
    assert headers.get("x-live-replay") == "1"  # the stored answer, not a second write
    return headers


def test_an_osaka_tap_lands_once_when_the_server_dies_before_answering(dying_table: Table) -> None:
    edit, _ = dying_table.osaka()
    form = {"op": "token", "seat": 1, "colour": "red", "delta": 1}
    _dies_then_lands_once(dying_table, f"/osaka/games/{edit}/change", form)
    rows = dying_table.sql(
        "SELECT s.red, g.version FROM companion_osakaseat s JOIN companion_osakagame g ON g.id = s.game_id "
        "WHERE g.edit_token = ? AND s.seat = 1",
        edit,
    )
    assert rows == [(1, 2)]
    assert dying_table.sql("SELECT COUNT(*) FROM companion_mutation")[0][0] == 1


def test_a_sheet_entry_lands_once_when_the_server_dies_before_answering(dying_table: Table) -> None:
    token = dying_table.sheet()
    form = {"op": "bump|0|score_track|1", "p": "0"}
    _dies_then_lands_once(dying_table, f"/score/{token}/track/entry/", form)
    assert dying_table.sheet_value(token, 0, "score_track") == 1
    assert dying_table.sql("SELECT version FROM companion_scoresheet WHERE token = ?", token) == [(2,)]
    assert dying_table.sql("SELECT COUNT(*) FROM companion_mutation")[0][0] == 1


@pytest.mark.parametrize("op", ["bump|0|score_track|1", "add|1|characters|any-artisan"])
def test_the_walk_throughs_additive_taps_sent_twice_count_once(table: Table, op: str) -> None:
    """The reproduced defect: +1 and "add an unnamed card" sent twice (a retry after a lost answer) counted
    twice. The same write id now counts once, with or without the live script (the form renders one)."""
    token = table.sheet()
    phone = table.client()
    phone.request("GET", f"/score/{token}/track/")
    form = {"op": op, "lc": "retry" + secrets.token_hex(6), "ln": "1"}
    step = "track" if "score_track" in op else "characters"
    first = phone.request("POST", f"/score/{token}/{step}/entry/", form)
    second = phone.request("POST", f"/score/{token}/{step}/entry/", form)
    assert first[0] == second[0] == 302 and first[1]["location"] == second[1]["location"]
    if "score_track" in op:
        assert table.sheet_value(token, 0, "score_track") == 1
    else:
        assert table.sheet_value(token, 1, "characters") == ["any-artisan"]
