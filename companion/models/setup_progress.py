"""The setup checklist's ticks, kept on the server: nothing lost if a phone sleeps, two phones tick at once, or a
second phone opens the share link (issue 3, the page of companion/views/setup.py).

A setup is identified by what reproduces it (RULINGS R19): the generator's version, the normalized options and the
seed. The view builds that ``key`` from its own query-string helper, e.g.
``v1?players=2&akebono=1&grand_master=1&seed=K7MX2QPA``; this module only stores the ticked step ids per key.

Concurrency: every change runs in one transaction holding the progress row (``select_for_update`` on PostgreSQL;
SQLite's ``BEGIN IMMEDIATE`` serialises writers, see companion/settings.py) and adds or removes only the ids it
was asked to, on the list read under that lock, so two phones ticking different steps at once both land.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models, transaction

KEY_MAX = 200


class SetupProgress(models.Model):
    key = models.CharField(max_length=KEY_MAX, unique=True)
    done = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "setup progress"

    def __str__(self) -> str:
        return f"setup progress {self.key} ({len(self.done)} ticked)"


def ticked(key: str) -> frozenset[str]:
    """The step ids ticked so far for the setup ``key`` (none when nobody ticked anything yet)."""
    done = SetupProgress.objects.filter(key=key).values_list("done", flat=True).first()
    return frozenset(done) if isinstance(done, list) else frozenset()


def change_ticks(key: str, *, add: Iterable[str] = (), remove: Iterable[str] = ()) -> frozenset[str]:
    """Tick ``add`` and untick ``remove`` in one transaction holding the row; returns every tick after it.

    Only the ids named change: a tick another phone saved meanwhile stays. The caller checks the ids against the
    setup's checklist first; an id both added and removed ends up ticked.
    """
    added, removed = frozenset(add), frozenset(remove) - frozenset(add)
    if len(key) > KEY_MAX:
        raise ValueError(f"a setup key has at most {KEY_MAX} characters")
    with transaction.atomic():
        try:
            row = SetupProgress.objects.select_for_update().get(key=key)
        except SetupProgress.DoesNotExist:
            # The first tick of this setup. Two first ticks at once: one inserts, the other's insert waits for it,
            # fails on the unique key and reads its row (get_or_create), then both lock it in turn.
            SetupProgress.objects.get_or_create(key=key)
            row = SetupProgress.objects.select_for_update().get(key=key)
        before = frozenset(row.done) if isinstance(row.done, list) else frozenset()
        after = (before | added) - removed
        if after != before:
            row.done = sorted(after)
            row.version += 1
            row.save(update_fields=["done", "version", "updated"])
    return after


def tick(key: str, step_id: str, done: bool) -> frozenset[str]:
    """Tick (``done``) or untick one step; returns every tick after it."""
    return change_ticks(key, add=(step_id,) if done else (), remove=() if done else (step_id,))
