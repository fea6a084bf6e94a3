"""What a public server keeps (README, "Serving the public"; ``manage.py purge``, run daily by deploy/'s timer).

Anything no one has changed for ``days`` days is deleted: a tracked game (IKI or Traders of Osaka) by its last
change, a score sheet by its last entry, a checked pad's result by its last edit, a setup's ticks by the last
tick. A group is used while results are filed in it or edited, or it is renamed (its last use is the newest of its
creation, its results' edits and its last rename): the results filed in a used group are kept, with their sheets,
however old. Reading a page is not a change: a link only opened for a year goes with the rest. The live engine's
record of the writes made to a thing goes with the thing; their answers' pieces are forgotten after their own,
shorter time (companion.live.engine.KEEP_WRITES), whatever ``days`` is.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TypeVar

from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from companion.live.engine import old_answers
from companion.live.kinds import key
from companion.models.games import Game
from companion.models.live import Mutation
from companion.models.osaka import OsakaGame
from companion.models.results import Group, Result
from companion.models.scoresheets import ScoreSheet
from companion.models.setup_progress import SetupProgress

_Idle = TypeVar("_Idle", Game, OsakaGame)


@dataclass(frozen=True)
class Purged:
    """How many of each were deleted (or would be, on a dry run)."""

    games: int
    osaka_games: int
    sheets: int
    results: int
    groups: int
    setups: int
    #: Writes recorded for the things deleted, and answers whose pieces were forgotten (KEEP_WRITES).
    writes: int = 0
    answers: int = 0

    def __str__(self) -> str:
        return (
            f"{self.games} games, {self.osaka_games} Traders of Osaka games, {self.sheets} score sheets, "
            f"{self.results} results, {self.groups} groups, {self.setups} setups' ticks, "
            f"{self.writes} writes recorded for them, {self.answers} stored answers of writes"
        )


def _idle(rows: QuerySet[_Idle], changes: str, cutoff: datetime.datetime) -> QuerySet[_Idle]:
    """The games created before ``cutoff`` whose newest change (``changes``: the related field's ``at``) is too."""
    return (
        rows.annotate(last=Max(changes)).filter(created__lt=cutoff).filter(Q(last__lt=cutoff) | Q(last=None))
    )


def purge(days: int, *, dry_run: bool = False, now: datetime.datetime | None = None) -> Purged:
    """Delete what no one changed for ``days`` days (see the module); ``dry_run`` counts without deleting."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=days)
    with transaction.atomic():
        groups = Group.objects.annotate(last=Max("results__updated")).filter(created__lt=cutoff)
        idle = (Q(last__lt=cutoff) | Q(last=None)) & (Q(renamed__lt=cutoff) | Q(renamed=None))
        old_groups = list(groups.filter(idle).values_list("pk", flat=True))
        games = list(_idle(Game.objects.all(), "changes__at", cutoff).values_list("pk", flat=True))
        in_used_group = Q(result__group__isnull=False) & ~Q(result__group__in=old_groups)
        # An Osaka game whose result is filed in a group still used is kept with it, as a filed sheet is.
        osaka = list(
            _idle(OsakaGame.objects.all(), "events__at", cutoff)
            .exclude(in_used_group)
            .values_list("pk", flat=True)
        )
        sheets = (
            ScoreSheet.objects.filter(updated__lt=cutoff)
            .exclude(in_used_group)
            .filter(Q(game=None) | Q(game__in=games))
        )
        results = Result.objects.filter(
            Q(group__in=old_groups) | Q(sheet=None, group=None, updated__lt=cutoff) | Q(sheet__in=sheets)
        )
        setups = SetupProgress.objects.filter(updated__lt=cutoff)
        things = [
            *(key("game", pk) for pk in games),
            *(key("osaka", pk) for pk in osaka),
            *(key("sheet", pk) for pk in sheets.values_list("pk", flat=True)),
            *(key("setup", stream) for stream in setups.values_list("stream", flat=True)),
        ]
        writes = Mutation.objects.filter(thing__in=things)
        answers = old_answers(now=now).exclude(thing__in=things)
        counted = Purged(
            games=len(games),
            osaka_games=len(osaka),
            sheets=sheets.count(),
            results=results.count(),
            groups=len(old_groups),
            setups=setups.count(),
            writes=writes.count(),
            answers=answers.count(),
        )
        if not dry_run:
            writes.delete()
            answers.update(body="")
            results.delete()
            sheets.delete()
            Group.objects.filter(pk__in=old_groups).delete()
            Game.objects.filter(pk__in=games).delete()
            OsakaGame.objects.filter(pk__in=osaka).delete()
            setups.delete()
    return counted


__all__ = ["Purged", "purge"]
