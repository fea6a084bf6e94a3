"""PostgreSQL's LISTEN misses no write (companion/live/stream.py, ``Hub``; docs/sync.md "Push"): a ``NOTIFY`` sent
before the process's ``LISTEN`` began, or before a stream was watched, reaches nobody, so the versions are read
once more at those two moments. Each test moves a game's version with no ``NOTIFY`` at all, where only that read
can tell the stream (a CI run of 2026-11-26 saw a stream opened through Caddy stay at the version it opened with
when the tap's poke came before the LISTEN).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections
from django.db.models import F

from companion.live.kinds import key
from companion.live.stream import Hub
from companion.models.games import Game
from tests.factories import make_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="LISTEN/NOTIFY: PostgreSQL's (CI's second pass)"
    ),
]
WAIT_S = 10  # a bound for a hang, not a speed check


@pytest.fixture(autouse=True)
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadPoolExecutor]:
    """The thread of the hub's version reads (and of a test's own queries from the event loop), whose database
    connection is closed after the test: the test database is dropped at the end of the run, which an open
    connection would refuse."""
    pool = ThreadPoolExecutor(1)
    monkeypatch.setattr("companion.live.stream._lookups", lambda: pool)
    yield pool
    pool.submit(connections.close_all).result()
    pool.shutdown()


def _moved_without_a_poke(game: Game) -> int:
    """The game's version moved by one, committed, with no NOTIFY (a write whose poke reached nobody)."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    return game.version + 1


def test_a_write_committed_before_the_listen_began_reaches_the_stream() -> None:
    game = make_game()
    moved = _moved_without_a_poke(game)  # after the stream read its version, before anything listened

    async def watch() -> int:
        hub = Hub(asyncio.get_running_loop())
        with hub.watch(key("game", game.pk), game.version) as queue:  # the first stream: the LISTEN begins
            return await asyncio.wait_for(queue.get(), WAIT_S)

    assert asyncio.run(watch()) == moved  # before: the version it opened with, told again


def test_a_write_committed_before_a_stream_was_watched_reaches_it(pool: ThreadPoolExecutor) -> None:
    listened, game = make_game(), make_game()

    async def watch() -> int:
        hub = Hub(asyncio.get_running_loop())
        with hub.watch(
            key("game", listened.pk), listened.version
        ):  # another game's stream: the LISTEN begins
            async with asyncio.timeout(WAIT_S):
                while not hub.listening:
                    await asyncio.sleep(0.01)
            moved = await asyncio.get_running_loop().run_in_executor(pool, _moved_without_a_poke, game)
            with hub.watch(key("game", game.pk), game.version) as queue:  # its version read before the write
                assert await asyncio.wait_for(queue.get(), WAIT_S) == moved  # before: nothing came
        return moved

    asyncio.run(watch())
