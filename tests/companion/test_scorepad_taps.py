"""A walk-through tap as the live script sends it (issue 21, docs/sync.md): what it costs the database, what it
answers, and what the same write sent again gets."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.models.live import Mutation
from companion.models.scoresheets import ScoreSheet
from tests.companion.test_scorepad import sheet_of

pytestmark = pytest.mark.django_db

#: A +1 on the score track, in statements: BEGIN (IMMEDIATE on SQLite); one read of the sheet that also looks up
#: the write's stored answer (companion.live.engine.stored_id); the version-checked UPDATE; the stored answer;
#: COMMIT. Seven before that read was merged (the sheet's number looked up before the write, its stored answer
#: apart). On PostgreSQL one more: the poke (NOTIFY).
TAP_QUERIES = 5
LIVE = {"HTTP_X_LIVE": "1"}
PLUS_ONE = "bump|0|score_track|1"


def _tap(client: Client, sheet: ScoreSheet, n: int, op: str = PLUS_ONE, **more: str) -> Any:
    """Write ``n`` of one phone, as live.js posts it (its page's version and player, the digests it holds)."""
    form = {
        "lc": "phone1234",
        "ln": str(n),
        "v": "0",
        "p": "0",
        "h": "0123456789.abcdef0123",
        "op": op,
        **more,
    }
    return client.post(f"/score/{sheet.token}/track/entry/", form, **LIVE)


def test_a_plus_one_is_five_statements_and_answers_its_four_pieces(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    sheet = sheet_of(4, akebono=True)
    for n in range(1, 4):
        _tap(client, sheet, n)
    with django_assert_max_num_queries(TAP_QUERIES + (connection.vendor == "postgresql")):
        response = _tap(client, sheet, 4)
    assert response.status_code == 200
    assert response["X-Live-Version"] == "5"
    assert re.findall(r'id="([^"]+)"[^>]*? hx-swap-oob', response.content.decode()) == [
        "p0-top",
        "tab-p0-count",
        "total-p0",
        "e-p0-score_track",
    ]
    assert len(gzip.compress(response.content)) < 2048
    sheet.refresh_from_db()
    assert (sheet.table["players"][0]["score_track"], sheet.version) == (4, 5)


def test_the_same_write_again_gets_the_first_answer_and_writes_nothing(client: Client) -> None:
    sheet = sheet_of(2)
    first = _tap(client, sheet, 1)
    with CaptureQueriesContext(connection) as queries:
        again = _tap(client, sheet, 1)
    assert (again.status_code, again["X-Live-Replay"], again["X-Live-Version"]) == (200, "1", "2")
    assert again.content == first.content
    said = [q["sql"].split()[0] for q in queries.captured_queries]
    assert "UPDATE" not in said and "INSERT" not in said, said
    sheet.refresh_from_db()
    assert (sheet.table["players"][0]["score_track"], sheet.version) == (1, 2)
    assert Mutation.objects.filter(thing=f"sheet:{sheet.pk}").count() == 1


def test_a_refused_write_sent_again_is_refused_again_without_a_second_look(client: Client) -> None:
    sheet = sheet_of(2)
    first = _tap(client, sheet, 1, op="bump|7|score_track|1")  # no eighth player
    again = _tap(client, sheet, 1, op="bump|7|score_track|1")
    assert (first.status_code, again.status_code, again["X-Live-Replay"]) == (400, 400, "1")
    assert again.content == first.content and 'id="bad-input"' in first.content.decode()
    sheet.refresh_from_db()
    assert sheet.version == 1


def test_a_write_to_no_sheet_or_to_a_view_only_link_stores_nothing(client: Client) -> None:
    sheet = sheet_of(2)
    nowhere = client.post(
        "/score/" + "x" * 24 + "/track/entry/", {"lc": "phone1234", "ln": "1", "op": PLUS_ONE}
    )
    view_only = client.post(
        f"/score/{sheet.view_token}/track/entry/", {"lc": "phone1234", "ln": "2", "op": PLUS_ONE}, **LIVE
    )
    assert (nowhere.status_code, view_only.status_code) == (404, 403)
    assert not Mutation.objects.exists()
    sheet.refresh_from_db()
    assert sheet.version == 1
