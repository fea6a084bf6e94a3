"""Two phones changing one game at the same moment never lose an update (issue 5, docs/sync.md).

Concurrent HTTP requests against gunicorn (2 uvicorn workers, as the app is served) on the database of the run: a throw-away SQLite
file with the settings' WAL + BEGIN IMMEDIATE, or the PostgreSQL test database in CI. And threads applying changes
through the ORM at once (each thread its own connection): in-process on PostgreSQL, and on SQLite in a subprocess
on a database file (the in-memory test database's shared-cache table locks are not what a deployment runs). Additive changes (+3 IKI)
all land; conflicting "set" changes carrying the same version: exactly one wins, the others are refused (409) and
change nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks.polling import Browserless, served
from companion.errors import Conflict
from companion.models.games import Game
from companion.services.tracker.changes import apply_change
from companion.services.tracker.games import NewPlayer, create_game
from tests.concurrency import THREADS, at_once, gunicorn_database_url

pytestmark = pytest.mark.django_db(transaction=True)


def _game() -> Game:
    from setupgen import Options, generate

    setup = generate(Options(players=2), seed="K7MX2QPA").to_json()
    return create_game(
        players=[NewPlayer("Anaïs", "red"), NewPlayer("David", "blue")],
        akebono=False,
        grand_master=False,
        setup=setup,
        who="test",
    )


def test_concurrent_http_requests_never_lose_an_update() -> None:
    with served(gunicorn_database_url()) as (host, port):
        creator = Browserless(host, port)
        token = creator.new_game()
        phones = [Browserless(host, port) for _ in range(THREADS)]
        for phone in phones:
            phone.request("GET", f"/games/{token}/")

        def add(i: int) -> int:
            status, _, _ = phones[i].request(
                "POST",
                f"/games/{token}/change",
                {"op": "score-add", "seat": 1, "value": 3},
                {"HX-Request": "true"},
            )
            return status

        assert at_once(add) == [200] * THREADS
        status, _, page = creator.request("GET", f"/games/{token}/")
        assert status == 200
        assert f'id="score-1">{3 * THREADS}<' in page.decode()
        version = 1 + THREADS

        def move(i: int) -> int:
            status, _, _ = phones[i].request(
                "POST", f"/games/{token}/change", {"op": "fire-set", "seat": 2, "value": i + 1, "v": version}
            )
            return status

        statuses = at_once(move)
        assert sorted(statuses) == [302] + [409] * (THREADS - 1)
        winner = statuses.index(302) + 1
        _, _, page = creator.request("GET", f"/games/{token}/")
        assert f'id="fire-2">{winner}<' in page.decode()
        status, _, _ = creator.request("GET", f"/games/{token}/state?v={version + 1}")
        assert status == 204


# --- the ORM scenarios: run in-process on PostgreSQL, in a subprocess on a SQLite file ---------------------------


def scenario_additive_changes_all_land() -> None:
    game = _game()
    results = at_once(
        lambda i: apply_change(game_id=game.pk, op="score-add", who=f"phone {i}", seat=1, value=3)
    )
    assert [r for r in results if isinstance(r, BaseException)] == []
    game.refresh_from_db()
    assert game.seats.get(seat=1).score == 3 * THREADS
    assert game.version == 1 + THREADS
    assert game.changes.filter(op="score-add").count() == THREADS


def scenario_firefighting_steps_all_land_and_stack() -> None:
    game = _game()
    results = at_once(
        lambda i: apply_change(game_id=game.pk, op="fire-add", who=f"phone {i}", seat=1 + i % 2)
    )
    assert [r for r in results if isinstance(r, BaseException)] == []
    seats = {s.seat: s for s in Game.objects.get(pk=game.pk).seats.all()}
    assert seats[1].firefighting == THREADS // 2
    assert seats[2].firefighting == THREADS // 2
    assert seats[1].stack != seats[2].stack


def scenario_conflicting_set_changes(op: str) -> None:
    game = _game()
    seen = game.version
    results = at_once(
        lambda i: apply_change(game_id=game.pk, op=op, who=f"phone {i}", seat=2, value=i + 1, seen=seen)
    )
    winners = [r for r in results if isinstance(r, Game)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(winners) == 1, results
    assert len(refused) == THREADS - 1, results
    game.refresh_from_db()
    assert game.version == seen + 1
    field = {"fire-set": "firefighting", "score-set": "score", "trade-set": "trade"}[op]
    assert getattr(game.seats.get(seat=2), field) == results.index(winners[0]) + 1


def scenario_next_phase_advances_once() -> None:
    game = _game()
    seen = game.version
    results = at_once(lambda i: apply_change(game_id=game.pk, op="next", who=f"phone {i}", seen=seen))
    assert sum(isinstance(r, Game) for r in results) == 1, results
    assert sum(isinstance(r, Conflict) for r in results) == THREADS - 1, results
    game.refresh_from_db()
    assert (game.month, game.phase) == (1, "B")


SCENARIOS: dict[str, Callable[[], None]] = {
    "additive": scenario_additive_changes_all_land,
    "firefighting": scenario_firefighting_steps_all_land_and_stack,
    "fire-set": lambda: scenario_conflicting_set_changes("fire-set"),
    "score-set": lambda: scenario_conflicting_set_changes("score-set"),
    "trade-set": lambda: scenario_conflicting_set_changes("trade-set"),
    "next": scenario_next_phase_advances_once,
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_orm_threads_at_once(name: str) -> None:
    SCENARIOS[name]()
