"""The setup checklist's ticks, kept on the server: nothing lost if a phone sleeps, two phones tick at once, or a
second phone opens the share link (issue 3, the page of companion/views/setup_page.py). A setup's ticks are a
shared thing of the live-table engine (issue 21, docs/sync.md): the kind ``setup``, named by :attr:`stream`.

A setup is identified by what reproduces it (RULINGS R19): the table's own code, the generator's version, the
normalized options and the seed. The view builds that ``key`` (companion.setup_query.ticks_key); this module only
stores the ticked step ids per key, and a version that moves with each change.

Concurrency: every change runs in one transaction holding the progress row (``select_for_update`` on PostgreSQL;
SQLite's ``BEGIN IMMEDIATE`` serialises writers, see companion/settings.py) and adds or removes only the ids it
was asked to, on the list read under that lock, so two phones ticking different steps at once both land.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from django.db import models, transaction

KEY_MAX: Final = 200
STREAM_MAX: Final = 2**63 - 1


def stream_of(key: str) -> int:
    """The number that names the setup ``key`` to the live-table engine (``setup:<number>``, its stream address):
    known before anyone ticked, so a page opened on a fresh setup follows it without storing a row. A digest of the
    key, which holds the table's unguessable code, so it is as hard to guess."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") & STREAM_MAX


class SetupProgress(models.Model):
    key = models.CharField(max_length=KEY_MAX, unique=True)
    #: :func:`stream_of` the key.
    stream = models.BigIntegerField(unique=True)
    done: models.JSONField[list[str], list[str]] = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)
    #: The game "Track this game" made of this table's setup: one game a table, so a second phone's "Track this
    #: game" opens it instead of splitting the table in two games (companion.services.tracker.games.create_game).
    game = models.ForeignKey(
        "companion.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name_plural = "setup progress"

    def __str__(self) -> str:
        return f"setup progress {self.key} ({len(self.done)} ticked)"


@dataclass(frozen=True, slots=True)
class Ticks:
    """A setup's ticks: the step ids ticked and the version (0 before the first tick)."""

    done: frozenset[str]
    version: int


def _done(raw: object) -> frozenset[str]:
    return frozenset(raw) if isinstance(raw, list) else frozenset()


def ticks_of(stream: int) -> Ticks:
    """The ticks of the setup numbered ``stream`` (:func:`stream_of` its key; one indexed query; none at version 0
    when nobody ticked anything yet)."""
    row = SetupProgress.objects.filter(stream=stream).values_list("done", "version").first()
    return Ticks(_done(row[0]), int(row[1])) if row else Ticks(frozenset(), 0)


def version_of(stream: int) -> int:
    """The version of the setup numbered ``stream`` (0 before the first tick): a pull's "nothing changed" check."""
    found = SetupProgress.objects.filter(stream=stream).values_list("version", flat=True).first()
    return int(found) if found is not None else 0


def ticked(key: str) -> frozenset[str]:
    """The step ids ticked so far for the setup ``key`` (none when nobody ticked anything yet)."""
    return ticks_of(stream_of(key)).done


def locked_progress(key: str) -> SetupProgress:
    """The progress row of the setup ``key``, made if nobody ticked yet, held until the caller's transaction ends
    (call it inside ``transaction.atomic()``). Two first writes at once: one inserts, the other's insert waits for
    it, fails on the unique key and reads its row (get_or_create), then both lock it in turn."""
    if len(key) > KEY_MAX:
        raise ValueError(f"a setup key has at most {KEY_MAX} characters")
    try:
        return SetupProgress.objects.select_for_update().get(key=key)
    except SetupProgress.DoesNotExist:
        SetupProgress.objects.get_or_create(key=key, defaults={"stream": stream_of(key)})
        return SetupProgress.objects.select_for_update().get(key=key)


def tracked_game(stream: int) -> str | None:
    """The edit token of the game "Track this game" made of the setup numbered ``stream``; None before."""
    return (
        SetupProgress.objects.filter(stream=stream, game__isnull=False)
        .values_list("game__edit_token", flat=True)
        .first()
    )


def change_ticks(key: str, *, add: Iterable[str] = (), remove: Iterable[str] = ()) -> Ticks:
    """Tick ``add`` and untick ``remove`` in one transaction holding the row; returns every tick after it.

    Only the ids named change: a tick another phone saved meanwhile stays. The caller checks the ids against the
    setup's checklist first; an id both added and removed ends up ticked.
    """
    added, removed = frozenset(add), frozenset(remove) - frozenset(add)
    with transaction.atomic():
        row = locked_progress(key)
        before = _done(row.done)
        after = (before | added) - removed
        if after != before:
            row.done = sorted(after)
            row.version += 1
            row.save(update_fields=["done", "version", "updated"])
    return Ticks(after, row.version)


def tick(key: str, step_id: str, done: bool) -> frozenset[str]:
    """Tick (``done``) or untick one step; returns every tick after it."""
    return change_ticks(key, add=(step_id,) if done else (), remove=() if done else (step_id,)).done
