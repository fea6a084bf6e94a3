"""A setup tick is stored exactly once even when the server dies between the write and its answer (issue 21), as
the tracker's, the sheet's and Osaka's are (tests/companion/live/test_exactly_once.py): the worker exits right
after the write commits (tests/companion/live/dies.py), gunicorn starts another, and the phone sends the same tap
again with the same client id and counter. On SQLite here; on PostgreSQL when the suite runs there."""

from __future__ import annotations

import http.client
import json
import secrets

import pytest

from companion.setup_query import new_table
from tests.companion.live.conftest import Table
from tests.companion.live.test_exactly_once import _again

QUERY = "players=4&akebono=1&seed=K7MX2QPA"


def test_a_setup_tick_lands_once_when_the_server_dies_before_answering(dying_table: Table) -> None:
    table = new_table()
    phone = dying_table.client()
    assert phone.request("GET", f"/setup/game?{QUERY}&table={table}")[0] == 200  # the CSRF cookie
    url = f"/setup/ticks?{QUERY}&table={table}"
    form = {"step": "general-board", "done": "general-board", "lc": "die" + secrets.token_hex(6), "ln": "1"}
    with pytest.raises((OSError, http.client.HTTPException)):
        phone.request("POST", url, form, headers={"X-Live": "1"})
    status, headers, body = _again(dying_table, phone).request("POST", url, form, headers={"X-Live": "1"})
    assert status == 200
    assert headers.get("x-live-replay") == "1"  # the stored answer, not a second write
    assert "Saved: “Main board” ticked." in body.decode()
    rows = dying_table.sql("SELECT done, version FROM companion_setupprogress")
    assert [(json.loads(done) if isinstance(done, str) else done, version) for done, version in rows] == [
        (["general-board"], 1)
    ]
    assert dying_table.sql("SELECT COUNT(*) FROM companion_mutation")[0][0] == 1
