"""A Traders of Osaka token tap as the server runs it (issue 21): few statements, one transaction without a
savepoint, and a refused tap still stored as answered in that transaction (companion/services/osaka.py
``record`` joins the live write's transaction: every refusal is raised before its first write)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.models.live import Mutation
from companion.models.osaka import OsakaGame
from tests.companion.live.test_tracker_once import TRANSACTION
from tests.companion.osaka.test_games import _begin, _game

#: A token tap in statements that read or write rows: the token's game (the page's access), one read in the
#: transaction (the seats with their game held, whether the write's cid was applied, its stored answer), the seat,
#: the game's version, the log line, the log shown (the answer's), the stored answer. 12 with BEGIN, a savepoint
#: and COMMIT before; on PostgreSQL one more: the poke (NOTIFY).
TAP_QUERIES = 7


def _held(client: Client, game: OsakaGame) -> str:
    page = client.get(f"/osaka/games/{game.edit_token}/").content.decode()
    return ".".join(re.findall(r'data-h="([0-9a-f]+)"', page))


def _tap(client: Client, game: OsakaGame, counter: int, **form: Any) -> Any:
    body = {"op": "token", "lc": "phone1234", "ln": counter, "h": _held(client, game), **form}
    return client.post(f"/osaka/games/{game.edit_token}/change", body, HTTP_X_LIVE="1")


@pytest.mark.django_db(transaction=True)
def test_a_token_tap_is_one_transaction_of_few_statements() -> None:
    """Outside a test transaction, as the server runs it."""
    game = _begin(_game(3))
    client = Client()
    for n in range(1, 10):  # the log is full
        assert _tap(client, game, n, seat=2, colour="red", delta=1 if n % 2 else -1).status_code == 200
    held = _held(client, game)
    form = {"op": "token", "seat": 1, "colour": "blue", "delta": 1, "lc": "phone1234", "ln": 10, "h": held}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/osaka/games/{game.edit_token}/change", form, HTTP_X_LIVE="1")
    assert response.status_code == 200
    assert 'id="seat-1"' in response.content.decode()
    said = [q["sql"] for q in queries.captured_queries]
    rows = [q for q in said if q not in TRANSACTION]
    poke = connection.vendor == "postgresql"
    assert not any("SAVEPOINT" in q for q in said), said
    assert len(rows) <= TAP_QUERIES + poke, "\n".join(q[:90] for q in said)
    assert len(said) - len(rows) <= 2, said  # one transaction
    assert game.seats.get(seat=1).blue == 1


@pytest.mark.django_db(transaction=True)
def test_a_refused_tap_is_answered_and_stored_without_a_savepoint() -> None:
    """Nothing to give back: 400 with the message, stored as answered, the game unchanged; the same write again
    gets the same answer."""
    game = _begin(_game(3))
    client = Client()
    version = OsakaGame.objects.get(pk=game.pk).version
    refused = _tap(client, game, 1, seat=3, colour="blue", delta=-1)
    assert (
        refused.status_code == 400 and 'id="seat-said-3" data-answer' in refused.content.decode()
    )  # at the tap
    again = _tap(client, game, 1, seat=3, colour="blue", delta=-1)
    assert again.status_code == 400 and again["X-Live-Replay"] == "1"
    assert Mutation.objects.filter(thing=f"osaka:{game.pk}").count() == 1
    assert OsakaGame.objects.get(pk=game.pk).version == version


#: The pull of a phone behind by a token tap, in statements: the version (?v=, the 204's check), the token's game,
#: the last events (which changes, and the log's lines), the seats. 5 before: the changes were read apart from the
#: log's lines.
PULL_QUERIES = 4


@pytest.mark.django_db(transaction=True)
def test_a_pull_behind_by_a_tap_reads_the_log_once() -> None:
    game = _begin(_game(3))
    client = Client()
    held = _held(client, game)
    seen = OsakaGame.objects.get(pk=game.pk).version
    assert _tap(client, game, 1, seat=2, colour="red", delta=1).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        pull = client.get(f"/osaka/games/{game.view_token}/state", {"v": seen, "h": held}, HTTP_X_LIVE="1")
    assert pull.status_code == 200 and pull["X-Live-Version"] == str(seen + 1)
    assert f'id="event-{seen + 1}"' in pull.content.decode() and 'id="seat-2"' in pull.content.decode()
    said = [q["sql"] for q in queries.captured_queries]
    assert len(said) <= PULL_QUERIES, "\n".join(q[:90] for q in said)
    assert sum('FROM "companion_osakaevent"' in q for q in said) == 1, said
