"""Several phones writing to one tracked Traders of Osaka game at the same moment (docs/sync.md): threads through
the ORM, each with its own connection (in-process on PostgreSQL, in a subprocess on a SQLite file, as
tests/companion/test_games_concurrency.py). Tokens taken at once all land; one write sent at once under one client
id applies once; a payday entered at once on several phones against the same version is recorded once."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.errors import Conflict
from companion.models.osaka import OsakaGame
from companion.services.osaka import NewPlayer, create_game, record
from tests.companion.osaka.test_games import _begin
from tests.concurrency import THREADS, at_once

pytestmark = pytest.mark.django_db(transaction=True)
COLOURS = ("red", "blue", "yellow", "green")


def _game() -> OsakaGame:
    return create_game(players=[NewPlayer("Anaïs", "white"), NewPlayer("David", "pink")])


def scenario_tokens_all_land() -> None:
    game = _game()
    results = at_once(
        lambda i: record(
            game.pk,
            kind="token",
            data={"seat": i % 2, "colour": COLOURS[i % 4], "delta": 1},
            who=f"phone {i}",
        )
    )
    assert [r for r in results if isinstance(r, BaseException)] == []
    seats = list(OsakaGame.objects.get(pk=game.pk).seats.all())
    assert sum(s.total_tokens for s in seats) == THREADS
    assert OsakaGame.objects.get(pk=game.pk).version == 1 + THREADS


def scenario_one_client_id_applies_once() -> None:
    game = _game()
    results = at_once(
        lambda i: record(
            game.pk,
            kind="token",
            data={"seat": 0, "colour": "red", "delta": 1},
            who=f"phone {i}",
            cid="the-same-tap-1",
        )
    )
    assert [r for r in results if isinstance(r, BaseException)] == []
    game.refresh_from_db()
    assert game.seats.get(seat=1).red == 1 and game.events.filter(kind="token").count() == 1


def scenario_one_payday_from_many_phones() -> None:
    game = _begin(_game())  # RULINGS O7: no payday before the start
    seen = game.version
    data = {"arrived": ["red"], "sunk": [], "players": [{"goods": {"red": [5]}}, {}]}
    results = at_once(lambda i: record(game.pk, kind="payday", data=data, who=f"phone {i}", seen=seen))
    assert sum(isinstance(r, OsakaGame) for r in results) == 1, results
    assert sum(isinstance(r, Conflict) for r in results) == THREADS - 1, results
    game.refresh_from_db()
    assert game.seats.get(seat=1).vp == 1 and game.events.filter(kind="payday").count() == 1


SCENARIOS: dict[str, Callable[[], None]] = {
    "tokens": scenario_tokens_all_land,
    "cid": scenario_one_client_id_applies_once,
    "payday": scenario_one_payday_from_many_phones,
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_orm_threads_at_once(name: str) -> None:
    SCENARIOS[name]()
