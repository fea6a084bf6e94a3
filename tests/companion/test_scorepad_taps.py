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


def test_a_typed_number_over_another_phones_change_is_a_conflict_until_forced(client: Client) -> None:
    """docs/sync.md "Conflicts": a live set carries the value it replaces (``was-``); when the sheet holds neither
    that nor the new value, nothing is written and the phone is asked; ``force`` writes it."""
    sheet = sheet_of(2)
    for n in (1, 2):
        _tap(client, sheet, n)  # another phone's +1, +1: the track is at 2
    typed = {"lc": "other5678", "v": "1", "p": "0", "p0-score_track": "9", "was-p0-score_track": "0"}
    refused = client.post(f"/score/{sheet.token}/track/entry/", {**typed, "ln": "1"}, **LIVE)
    assert refused.status_code == 409
    assert "Anaïs" in refused.content.decode()
    sheet.refresh_from_db()
    assert (sheet.table["players"][0]["score_track"], sheet.version) == (2, 3)
    forced = client.post(f"/score/{sheet.token}/track/entry/", {**typed, "ln": "2", "force": "1"}, **LIVE)
    assert forced.status_code == 200
    sheet.refresh_from_db()
    assert (sheet.table["players"][0]["score_track"], sheet.version) == (9, 4)


def test_a_conflict_brings_the_page_what_the_other_phone_changed(client: Client) -> None:
    """A refused write is answered with the sheet's version, which the page takes as caught up (live.js pulls only
    when that version is not the next of its own): so the answer carries every piece the page lacks by the
    digests the write sends (``h``), not only its message. A phone refused after another phone's change kept the
    old tab and total, and a ``was-`` value the sheet never held, which the next tap was refused for again."""
    sheet = sheet_of(2)
    page = client.get(f"/score/{sheet.token}/track/", {"v": "0", "p": "0", "h": ""}, **LIVE)
    assert page["X-Live-Version"] == "1"
    held = ".".join(re.findall(r'data-h="([^"]+)"', page.content.decode()))
    _tap(client, sheet, 1)  # another phone's +1: the track is at 1, the sheet at version 2
    typed = {"lc": "other5678", "ln": "1", "v": "1", "p": "0", "h": held}
    refused = client.post(
        f"/score/{sheet.token}/track/entry/",
        {**typed, "p0-score_track": "9", "was-p0-score_track": "0"},
        **LIVE,
    )
    assert (refused.status_code, refused["X-Live-Version"]) == (409, "2")
    body = refused.content.decode()
    ids = set(re.findall(r'<[a-z]+ data-h="[^"]+"[^>]*? id="([^"]+)"', body))
    assert {"tab-p0-count", "total-p0", "e-p0-score_track"} <= ids
    assert 'name="was-p0-score_track" value="1"' in body
    assert "IKI on the score track to 1 first" in body


def test_a_live_pull_sends_the_step_pieces_the_page_lacks_and_the_result_nothing_when_unchanged(
    client: Client,
) -> None:
    """docs/sync.md "Pulls": a step's pull answers the pieces whose digests the page does not hold, and the
    result page's pull answers 204 when the page already shows the sheet's version."""
    sheet = sheet_of(2)
    _tap(client, sheet, 1)
    pull = client.get(f"/score/{sheet.token}/track/", {"v": "1", "p": "0", "h": ""}, **LIVE)
    assert (pull.status_code, pull["X-Live-Version"]) == (200, "2")
    ids = re.findall(r'<[a-z]+ data-h="[^"]+"[^>]*? id="([^"]+)"', pull.content.decode())
    assert "e-p0-score_track" in ids
    held = ".".join(re.findall(r'data-h="([^"]+)"', pull.content.decode()))
    again = client.get(f"/score/{sheet.token}/track/", {"v": "1", "p": "0", "h": held}, **LIVE)
    assert (again.status_code, again["X-Live-Version"], again.content) == (200, "2", b"")  # holds every piece
    assert client.get(f"/score/{sheet.token}/track/", {"v": "2", "p": "0"}, **LIVE).status_code == 204
    result = f"/score/view/{sheet.view_token}/"
    assert client.get(result, {"v": "2"}, **LIVE).status_code == 204
    changed = client.get(result, {"v": "1"}, **LIVE)
    assert (changed.status_code, changed["X-Live-Version"]) == (200, "2")
    assert changed.content


@pytest.mark.parametrize(
    ("headers", "typed", "track"),
    [
        (LIVE, "400000", 41),  # refused a moment ago, still in the box: let go, the +1 counts from 40
        ({}, "400000", 41),  # without JavaScript: typed, then + (the page never said it was refused)
        (LIVE, "not a number", 41),
        ({}, "45", 46),  # a number that can be saved rides along: the +1 counts from it
    ],
)  # fmt: skip
def test_a_plus_one_beside_a_refused_number_counts_from_the_saved_one(
    client: Client, headers: dict[str, str], typed: str, track: int
) -> None:
    """A −/+ is never refused for the number in its own box: one that cannot be saved (refused when it was typed)
    does not ride along with the tap, so the tap is not lost again and again until the player retypes."""
    sheet = sheet_of(2)
    url = f"/score/{sheet.token}/track/entry/"
    client.post(
        url, {"p0-score_track": "40", "was-p0-score_track": "0", "lc": "phone1234", "ln": "1"}, **headers
    )
    tap = {"p0-score_track": typed, "was-p0-score_track": "40", "op": PLUS_ONE, "lc": "phone1234", "ln": "2"}
    r = client.post(url, {**tap, "p": "0", "refused": "1"}, **headers)
    assert r.status_code == (200 if headers else 302)
    shown = r.content.decode() if headers else client.get(r["Location"]).content.decode()
    assert f'name="p0-score_track" value="{track}"' in shown
    assert f'name="was-p0-score_track" value="{track}"' in shown
    assert "bad-input" not in shown
    sheet.refresh_from_db()
    assert (sheet.table["players"][0]["score_track"], sheet.version) == (track, 3)
