"""A token tap of a tracked Traders of Osaka game costs the same on the first turn and the last (issue 21): the
write applies the change to the state the game keeps instead of replaying the log (companion/services/osaka.py),
and its answer, like a pull behind by token changes only, renders only the pieces a token change can alter
(companion/views/osaka/games.py ``AFTER_TOKEN``). Checked against the whole log's replay and the whole page's
render: the same state, the same pieces sent."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.live.engine import Pieces
from companion.models.osaka import OsakaGame
from companion.services.osaka import record
from tests.companion.osaka.test_games import _begin, _game, _payday

pytestmark = pytest.mark.django_db
LIVE = {"HTTP_X_LIVE": "1"}
PIECE = re.compile(r'<\w+ data-h="([0-9a-f]+)"[^>]*? id="([^"]+)"')


def _pieces(markup: str) -> dict[str, str]:
    """Each piece's id and digest."""
    return {i: h for h, i in PIECE.findall(markup)}


def _all(client: Client, token: str) -> dict[str, str]:
    """Every piece as a page holding none gets them (a pull naming no digest)."""
    response = client.get(f"/osaka/games/{token}/state", **LIVE)
    assert response.status_code == 200
    return _pieces(response.content.decode())


def _rendered(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The ids of the pieces each later render makes (answers and pulls)."""
    renders: list[list[str]] = []
    missing = Pieces.missing

    def spy(self: Pieces, held: Any) -> list[Any]:
        renders.append([p.id for p in self.found])
        return missing(self, held)

    monkeypatch.setattr(Pieces, "missing", spy)
    return renders


def _tap(client: Client, game: OsakaGame, held: dict[str, str], seat: int, colour: str, delta: int) -> Any:
    form = {"op": "token", "seat": seat, "colour": colour, "delta": delta, "h": ".".join(held.values())}
    return client.post(f"/osaka/games/{game.edit_token}/change", form, **LIVE)


def _state(game: OsakaGame) -> list[tuple[int, ...]]:
    return [(*s.tokens.values(), s.vp) for s in game.seats.order_by("seat")]


def _started(client: Client) -> OsakaGame:
    game = _begin(_game(3))
    _payday(client, game, {"edo1": "red", "p0-goods_red_5": 2, "p1-goods_red_3": 1})
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    ("seat", "colour", "delta", "status"),
    [(1, "red", 1, 200), (2, "green", -1, 200), (3, "blue", -1, 400), (2, "yellow", 1, 200)],
)
def test_a_token_taps_answer_holds_the_pieces_the_whole_render_would_send(
    client: Client, monkeypatch: pytest.MonkeyPatch, seat: int, colour: str, delta: int, status: int
) -> None:
    game = _started(client)
    before = _all(client, game.edit_token)
    assert "latest-box" in before and "seat-3" in before  # the payday just played shows until the next change
    rendered = _rendered(monkeypatch)
    answer = _tap(client, game, before, seat, colour, delta)
    assert answer.status_code == status
    assert rendered == [["state-msg", "latest-box", f"seat-{seat}", "log"]]  # not the 9 pieces of the page
    after = _all(client, game.edit_token)
    changed = {i for i, h in after.items() if before.get(i) != h}
    sent = _pieces(answer.content.decode())
    assert set(sent) == changed | ({"state-msg"} if status == 400 else set())  # a refusal says why
    assert all(after[i] == h for i, h in sent.items() if i != "state-msg")
    if status == 200:
        assert {f"seat-{seat}", "log", "latest-box"} <= set(sent)


def test_a_pull_behind_by_token_taps_gets_what_the_whole_render_would_send(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _started(client)
    seen = game.version
    before = _all(client, game.view_token)
    for seat, colour in ((1, "red"), (3, "blue")):
        assert _tap(client, game, {}, seat, colour, 1).status_code == 200
    game.refresh_from_db()
    after = _all(client, game.view_token)
    query = {"v": seen, "h": ".".join(before.values())}
    rendered = _rendered(monkeypatch)
    pull = client.get(f"/osaka/games/{game.view_token}/state", query, **LIVE)
    assert rendered == [["state-msg", "latest-box", "seat-1", "seat-3", "log"]]
    assert pull["X-Live-Version"] == str(game.version)
    sent = _pieces(pull.content.decode())
    assert sent == {i: h for i, h in after.items() if before.get(i) != h}
    assert set(sent) == {"seat-1", "seat-3", "log", "latest-box"}
    # Behind an undo (not a token change), the pull renders every piece and sends what changed.
    last = game.events.filter(kind="token").first()
    assert last is not None
    record(game.pk, kind="undo", data={"target": last.version}, who="t")
    now = _all(client, game.view_token)
    pull = client.get(f"/osaka/games/{game.view_token}/state", {"v": game.version, "h": query["h"]}, **LIVE)
    assert _pieces(pull.content.decode()) == {i: h for i, h in now.items() if before.get(i) != h}


def test_a_token_tap_applies_to_the_kept_state_without_reading_the_log(client: Client) -> None:
    game = _started(client)
    with CaptureQueriesContext(connection) as queries:
        record(game.pk, kind="token", data={"seat": 0, "colour": "red", "delta": 1}, who="t", cid="tap-1")
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    log_reads = [sql for sql in reads if '"companion_osakaevent"' in sql and '"cid" =' not in sql]
    # One read: the seats with their game (whether its client id was applied, the live write's stored answer)
    assert log_reads == [] and len(reads) == 1, reads
    assert "EXISTS" in reads[0] and '"cid" =' in reads[0], reads[0]
    record(game.pk, kind="token", data={"seat": 2, "colour": "blue", "delta": 1}, who="t")
    record(game.pk, kind="token", data={"seat": 1, "colour": "green", "delta": -1}, who="t")
    kept = _state(game)
    # Undo and restore the last tap: two whole replays of the log, which must find the state the taps kept.
    last = game.events.filter(kind="token").first()
    assert last is not None
    record(game.pk, kind="undo", data={"target": last.version}, who="t")
    assert _state(game) != kept
    record(game.pk, kind="undo", data={"target": last.version}, who="t")
    assert _state(game) == kept
    events = {e.version: (e.summary, e.result) for e in game.events.filter(kind="token")}
    assert events[last.version] == ("David gave back a green token", {"applied": True, "note": ""})
