"""Objects the companion's tests start from, made as the app makes them."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import Field, Model

from companion.models.games import Game
from companion.models.osaka import OsakaGame
from companion.models.results import Group, Result
from companion.models.scoresheets import ScoreSheet
from companion.models.setup_progress import tick
from companion.services.osaka import NewPlayer as OsakaPlayer
from companion.services.osaka import create_game as create_osaka_game
from companion.services.results import create_group, file_result, keep_checked_pad, record_result
from companion.services.tracker.games import NewPlayer, create_game
from scoring.examples import WORKED_EXAMPLE
from setupgen import Options, generate

COLOURS = ("red", "blue", "green", "yellow")


def make_game(
    names: tuple[str, ...] = ("Anaïs", "Ben", "Chie"), *, akebono: bool = False, finished: bool = False
) -> Game:
    """A tracked game of the seed K7MX2QPA; ``finished``: past New Year's Day, ready to be scored."""
    setup = generate(Options(players=len(names), akebono=akebono), seed="K7MX2QPA").to_json()
    game = create_game(
        players=[NewPlayer(n, c) for n, c in zip(names, COLOURS, strict=False)],
        akebono=akebono,
        grand_master=False,
        setup=setup,
        who="test",
    )
    if finished:
        Game.objects.filter(pk=game.pk).update(month=13, finished=True)
        game.refresh_from_db()
    return game


def play_to(game: Game, month: int) -> Game:
    """Move a tracked ``game`` to phase A of ``month`` (13: New Year's Day) through the tracker's services,
    revealing what each step makes due first, as a table answering "Next"'s question would."""
    from companion.services.tracker.changes import apply_change
    from scoring.calendar import due_reveals

    game = Game.objects.get(pk=game.pk)
    while game.month < month:
        for key in due_reveals(game.month, game.phase_enum, game.options, game.setup):
            if key not in game.revealed:
                game = apply_change(game_id=game.pk, op="reveal", who="test", key=key)
        game = apply_change(game_id=game.pk, op="next", who="test", seen=game.version)
    return Game.objects.get(pk=game.pk)


def stored_rows() -> Iterator[tuple[type[Model], list[Field[Any, Any]], list[tuple[Any, ...]]]]:
    """Every table of the app: its model, its columns' fields and its rows as the database driver returns them.
    Read with one plain ``SELECT`` a table, not through the ORM: the fuzz tests read every table two or three times
    a request, and the ORM's query building made that 15 times dearer (5.4 against 0.35 ms), a third of their
    time."""
    from django.apps import apps
    from django.db import connection

    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for model in apps.get_app_config("companion").get_models(include_auto_created=True):
            fields = list(model._meta.concrete_fields)
            cursor.execute(
                f"SELECT {', '.join(quote(f.column) for f in fields)} FROM {quote(model._meta.db_table)}"
            )
            yield model, fields, cursor.fetchall()


def db_snapshot() -> dict[str, list[tuple[str, ...]]]:
    """Every row of every table of the app, each column as the database stores it, as text: what "nothing changed
    in the database" compares."""
    return {model.__name__: sorted(tuple(map(str, row)) for row in rows) for model, _, rows in stored_rows()}


@dataclass(frozen=True)
class EveryKind:
    """One object of every kind a server keeps (:func:`every_kind`)."""

    game: Game
    osaka: OsakaGame
    sheet: ScoreSheet
    result: Result
    group: Group
    pad: Result
    lone: ScoreSheet


def every_kind() -> EveryKind:
    """One object of every kind a server keeps, made as the app makes them: a tracked game with changes, a Traders
    of Osaka game with an event, a score sheet kept as a result and filed under a group, a checked paper pad's
    result (no sheet) in the same group, a lone sheet, and a setup's ticks."""
    game = make_game()
    osaka = create_osaka_game(players=[OsakaPlayer("Anaïs", "white"), OsakaPlayer("David", "pink")])
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    result = record_result(sheet=sheet)
    assert result is not None
    group = create_group(name="Thursday")
    file_result(result=result, group=group)
    pad = keep_checked_pad(
        edition="iki-2015",
        players=[
            {"name": n, "colour": c, "lines": {"score_track": t}, "total": t, "rank": r, "buildings": [],
             "personalities": []}
            for n, c, t, r in (("Anaïs", "red", 61, 1), ("David", "blue", 40, 2))
        ],
        query="edition=2015",
    )  # fmt: skip
    file_result(result=pad, group=group)
    lone = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["green", "blue"])
    tick("table-" + "k" * 22, "general-board", True)
    return EveryKind(game, osaka, sheet, result, group, pad, lone)


def once_of(html: str) -> str:
    """The one-time code (``{% once %}``) of the first form on a page that has one: what its button sends."""
    found = re.search(r'name="once" value="([A-Za-z0-9_-]+)"', html)
    assert found is not None, "the page has no form with a one-time code"
    return found.group(1)
