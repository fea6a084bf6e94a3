"""The shared things a phone can follow (docs/sync.md "Joining the engine"): how a token finds one (its key and
version, one indexed query) and how the versions of many are read at once (the SQLite version check).

A new kind adds one :class:`Kind` here with its token lookup."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from django.db import models

from companion.models.games import Game
from companion.models.osaka import OsakaGame, OsakaSeat
from companion.models.scoresheets import ScoreSheet
from companion.models.setup_progress import SetupProgress


@dataclass(frozen=True, slots=True)
class Kind:
    #: A token (edit, view, or a player's own) -> (primary key, version), or None.
    find: Callable[[str], tuple[int, int] | None]
    model: type[models.Model]
    #: The field holding the thing's number (its primary key, or a number known before the row exists).
    field: str = "pk"

    def versions(self, pks: Collection[int]) -> dict[int, int]:
        """The versions of the things ``pks`` that have a row, in one statement."""
        rows = self.model._default_manager.filter(**{f"{self.field}__in": list(pks)}).order_by()
        return {int(pk): int(v) for pk, v in rows.values_list(self.field, "version")}


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


SETUP_TOKEN = re.compile(r"[0-9a-f]{16}")


def setup_token(stream: int) -> str:
    """A setup's stream token: its number (companion.models.setup_progress.stream_of) in 16 hex digits."""
    return f"{stream:016x}"


def _setup(token: str) -> tuple[int, int] | None:
    """Any well-formed number: a setup nobody ticked yet has no row and is at version 0 (its first tick pokes)."""
    if not SETUP_TOKEN.fullmatch(token):
        return None
    stream = int(token, 16)
    found = SetupProgress.objects.filter(stream=stream).values_list("version", flat=True).first()
    return stream, int(found or 0)


KINDS: dict[str, Kind] = {
    "game": Kind(_game, Game),
    "sheet": Kind(_sheet, ScoreSheet),
    "osaka": Kind(_osaka, OsakaGame),
    "setup": Kind(_setup, SetupProgress, "stream"),
}


def key(kind: str, pk: int) -> str:
    """The thing's name in a poke and in the stored writes: ``sheet:12``."""
    return f"{kind}:{pk}"
