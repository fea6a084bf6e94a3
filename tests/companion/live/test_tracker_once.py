"""The tracked game on the live engine without a browser (issue 21, second stage): a tap lands exactly once when
the server dies between the write and its answer (tests/companion/live/dies.py), and a +3's answer is only the
pieces it changed, read and written in a bounded number of SQL queries."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.models.games import Game
from companion.models.live import Mutation
from companion.services.tracker.games import NewPlayer, create_game
from tests.companion.live.conftest import Table
from tests.companion.live.test_exactly_once import _dies_then_lands_once
from tests.companion.live.test_tracker_browser import new_game

#: A +3 on a 3-player Akebono game, as the server runs it, in statements that read or write rows: one read (the
#: token's game and seats held, the write's stored answer looked up and the last log lines, companion.models.games
#: hold), the seat, the game's version, the log line, the stored answer (issue 21 asks 5; 12 before the engine,
#: 8 on it before that read was merged). On PostgreSQL one more: the poke (NOTIFY).
TAP_QUERIES = 5
#: BEGIN (IMMEDIATE on SQLite) and COMMIT around them: one transaction.
TRANSACTION = frozenset({"BEGIN", "BEGIN IMMEDIATE", "COMMIT"})


def test_a_tracker_tap_lands_once_when_the_server_dies_before_answering(dying_table: Table) -> None:
    edit, _ = new_game(dying_table)
    form = {"op": "score-add", "seat": 1, "value": 3}
    _dies_then_lands_once(dying_table, f"/games/{edit}/change", form)
    rows = dying_table.sql(
        "SELECT s.score, g.version FROM companion_seat s JOIN companion_game g ON g.id = s.game_id "
        "WHERE g.edit_token = ? AND s.seat = 1",
        edit,
    )
    assert rows == [(3, 2)]
    assert dying_table.sql("SELECT COUNT(*) FROM companion_mutation")[0][0] == 1
    assert dying_table.sql("SELECT COUNT(*) FROM companion_change WHERE op = 'score-add'")[0][0] == 1


def _akebono() -> Game:
    from setupgen import Options, generate

    setup = generate(Options(players=3, akebono=True), seed="K7MX2QPA").to_json()
    players = [NewPlayer("Anaïs", "red"), NewPlayer("David", "blue"), NewPlayer("Dominique", "green")]
    return create_game(players=players, akebono=True, grand_master=False, setup=setup, who="test")


def _held(client: Client, game: Game) -> str:
    page = client.get(game.edit_url()).content.decode()
    return ".".join(re.findall(r'data-h="([0-9a-f]+)"', page))


def _tap(client: Client, game: Game, counter: int, **form: Any) -> Any:
    body = {"lc": "phone1234", "ln": counter, "h": _held(client, game), **form}
    return client.post(f"/games/{game.edit_token}/change", body, HTTP_X_LIVE="1")


@pytest.mark.django_db(transaction=True)
def test_a_plus_three_answers_its_pieces_in_few_queries() -> None:
    """Outside a test transaction, as the server runs it."""
    game = _akebono()
    client = Client()
    for n in range(1, 12):  # a game some taps in: the log is full
        _tap(client, game, n, op="score-add", seat=2, value=1)
    held = _held(client, game)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/games/{game.edit_token}/change",
            {"lc": "phone1234", "ln": 12, "h": held, "op": "score-add", "seat": 1, "value": 3},
            HTTP_X_LIVE="1",
        )
    assert response.status_code == 200
    body = response.content.decode()
    assert len(gzip.compress(response.content)) < 2048  # pieces, not the 58 kB state
    ids = re.findall(r'^<[a-z]+ data-h="[0-9a-f]+"[^>]*? id="([^"]+)"', body, re.M)
    game.refresh_from_db()
    # The log's new line alone, not the log (issue 21 "perf2": live.js puts it first in its list).
    assert "part-row-1" in body and 'id="answer-row-1"' in body and f'id="change-{game.version}"' in body
    assert "part-row-2" not in body and "part-month" not in body and "part-log" not in body, ids
    assert body.count('data-live-in="log-lines"') == 1
    poke = connection.vendor == "postgresql"
    said = [q["sql"] for q in queries.captured_queries]
    rows = [q for q in said if q not in TRANSACTION]
    assert len(rows) <= TAP_QUERIES + poke, "\n".join(q[:90] for q in said)
    assert len(said) - len(rows) <= 2, said  # one transaction
    game.refresh_from_db()
    assert game.seats.get(seat=1).score == 3


@pytest.mark.django_db
def test_a_replay_answers_what_the_first_answered_and_changes_nothing() -> None:
    game = _akebono()
    client = Client()
    first = _tap(client, game, 1, op="score-add", seat=3, value=5)
    again = _tap(client, game, 1, op="score-add", seat=3, value=5)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again["X-Live-Replay"] == "1" and again.content == first.content
    assert game.seats.get(seat=3).score == 5 and Mutation.objects.count() == 1


@pytest.mark.django_db
def test_a_stale_set_is_a_conflict_and_the_pull_says_what_landed() -> None:
    game = _akebono()
    client = Client()
    _tap(client, game, 1, op="score-add", seat=1, value=2)
    stale = _tap(client, game, 2, op="score-set", seat=1, value=9, v=1, was="0")
    assert stale.status_code == 409
    assert "Someone changed the game first" in stale.content.decode()
    assert game.seats.get(seat=1).score == 2
    pull = client.get(f"/games/{game.view_token}/state?v=1&h=&lc=phone1234", HTTP_X_LIVE="1")
    assert pull.status_code == 200 and pull["X-Live-Done"] == "phone1234:2"
    assert 'id="part-row-1"' in pull.content.decode()
    assert client.get(f"/games/{game.view_token}/state?v=2", HTTP_X_LIVE="1").status_code == 204
    # The view-only link's pull holds no write control.
    assert "data-live-form" not in pull.content.decode()
