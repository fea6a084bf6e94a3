"""The shared things a phone can follow (docs/sync.md "Joining the engine"): how a token finds one (its key and
version, one indexed query) and how the versions of many are read at once (the SQLite version check).

A new kind (a setup table code) adds one :class:`Kind` here with its token lookup."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from django.db import models

from companion.models.games import Game
from companion.models.osaka import OsakaGame, OsakaSeat
from companion.models.scoresheets import ScoreSheet


@dataclass(frozen=True, slots=True)
class Kind:
    #: A token (edit, view, or a player's own) -> (primary key, version), or None.
    find: Callable[[str], tuple[int, int] | None]
    model: type[models.Model]

    def versions(self, pks: Collection[int]) -> dict[int, int]:
        rows = self.model.objects.filter(pk__in=list(pks)).order_by().values_list("pk", "version")
        return {int(pk): int(v) for pk, v in rows}


def _first(rows: models.QuerySet[models.Model]) -> tuple[int, int] | None:
    found = list(rows.order_by().values_list("pk", "version")[:1])
    return (int(found[0][0]), int(found[0][1])) if found else None


def _sheet(token: str) -> tuple[int, int] | None:
    return _first(ScoreSheet.objects.filter(models.Q(token=token) | models.Q(view_token=token)))


def _osaka(token: str) -> tuple[int, int] | None:
    found = _first(OsakaGame.objects.filter(models.Q(edit_token=token) | models.Q(view_token=token)))
    if found is None:
        seats = OsakaSeat.objects.filter(private_token=token).order_by()
        rows = list(seats.values_list("game_id", "game__version")[:1])
        found = (int(rows[0][0]), int(rows[0][1])) if rows else None
    return found


def _game(token: str) -> tuple[int, int] | None:
    return _first(Game.objects.filter(models.Q(edit_token=token) | models.Q(view_token=token)))


KINDS: dict[str, Kind] = {
    "game": Kind(_game, Game),
    "sheet": Kind(_sheet, ScoreSheet),
    "osaka": Kind(_osaka, OsakaGame),
}


def key(kind: str, pk: int) -> str:
    """The thing's name in a poke and in the stored writes: ``sheet:12``."""
    return f"{kind}:{pk}"
