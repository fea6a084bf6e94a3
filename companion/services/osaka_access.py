"""Opening a tracked Traders of Osaka game by its token (companion/models/osaka.py): what a token opens and how,
the poll's version, a private link's first opening.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from django.db import models
from django.utils import timezone

from companion.models.osaka import OsakaGame, OsakaSeat

TABLE_PHONE: Final = "the table's phone"


class Access(StrEnum):
    """What a token opens: the whole game (edit), a look (view), or one player's own phone (seat)."""

    EDIT = "edit"
    VIEW = "view"
    SEAT = "seat"


@dataclass(frozen=True)
class Opened:
    game: OsakaGame
    access: Access
    seat: OsakaSeat | None

    @property
    def can_edit(self) -> bool:
        return self.access is not Access.VIEW

    @property
    def who(self) -> str:
        return self.seat.name if self.seat else TABLE_PHONE


# --- selectors ----------------------------------------------------------------------------------------------------


def open_token(token: str) -> Opened | None:
    """The game a token opens and how, or None. Tokens are compared in constant time once found."""
    game = OsakaGame.objects.filter(models.Q(edit_token=token) | models.Q(view_token=token)).first()
    if game is not None:
        if secrets.compare_digest(game.edit_token, token):
            return Opened(game, Access.EDIT, None)
        return Opened(game, Access.VIEW, None)
    seat = OsakaSeat.objects.select_related("game").filter(private_token=token).first()
    if seat is None or not secrets.compare_digest(seat.private_token, token):
        return None
    return Opened(seat.game, Access.SEAT, seat)


def version_of(token: str) -> int | None:
    """The version of a token's game: the poll's fast path, one indexed query (two for a player's own link)."""
    games = OsakaGame.objects.filter(models.Q(edit_token=token) | models.Q(view_token=token)).order_by()
    found = list(games.values_list("version", flat=True)[:1])
    if not found:
        seats = OsakaSeat.objects.filter(private_token=token).order_by()
        found = list(seats.values_list("game__version", flat=True)[:1])
    return int(found[0]) if found else None


def mark_opened(seat: OsakaSeat) -> None:
    """The first time a private link opens, it stops being shown on the share page."""
    if seat.private_opened is None:
        OsakaSeat.objects.filter(pk=seat.pk, private_opened__isnull=True).update(
            private_opened=timezone.now()
        )
