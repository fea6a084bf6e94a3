"""A Traders of Osaka game tracked at the table (issue 15): one game on every phone, nothing lost.

- ``OsakaGame``: a ``version`` bumped by every change, an edit and a view-only token (>= 128 random bits each), the
  seed of the start player's random tie-break, and the state derived from the entries (start seat, the end).
- ``OsakaSeat``: a player's name and Trader colour, their own private link (the phone that shows their VP count,
  RULINGS O6), and the derived tokens by colour and VP cards.
- ``OsakaEvent``: the log and the truth: what the table entered (``kind``, ``data``), who and when, the client's
  id of the write (``cid``: a replayed write applies once), whether it is undone, and what it did when last
  replayed (``result``, ``summary``). The state is the replay of the entries not undone
  (:func:`scoring.osaka.track.replay`, companion/services/osaka.py).
"""

from __future__ import annotations

import secrets
from typing import ClassVar

from django.db import models
from django.urls import reverse
from django.utils import timezone

from companion.models.scoresheets import NAME_MAX
from companion.tokens import new_token
from scoring.osaka.components import COLOURS, MAX_PLAYERS, MIN_PLAYERS, ByColour


def new_seed() -> str:
    return secrets.token_hex(8)


class OsakaGame(models.Model):
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    created = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)
    players = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=32, default=new_seed)
    start_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    finished = models.BooleanField(default=False)
    end = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=models.Q(players__gte=MIN_PLAYERS, players__lte=MAX_PLAYERS),
                name="osaka_players_2_4",
            ),
        ]

    def __str__(self) -> str:
        return f"Osaka game {self.pk} (version {self.version})"

    def edit_url(self) -> str:
        return reverse("osaka-game", args=[self.edit_token])

    def view_url(self) -> str:
        return reverse("osaka-game", args=[self.view_token])


class OsakaSeat(models.Model):
    game = models.ForeignKey(OsakaGame, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX)
    trader = models.CharField(max_length=10)
    private_token = models.CharField(max_length=64, unique=True, default=new_token)
    private_opened = models.DateTimeField(null=True, blank=True)
    red = models.PositiveSmallIntegerField(default=0)
    blue = models.PositiveSmallIntegerField(default=0)
    yellow = models.PositiveSmallIntegerField(default=0)
    green = models.PositiveSmallIntegerField(default=0)
    vp = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("seat",)
        constraints: ClassVar = [
            models.UniqueConstraint(fields=("game", "seat"), name="osaka_seat_unique_seat"),
            models.UniqueConstraint(fields=("game", "name"), name="osaka_seat_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat})"

    @property
    def tokens(self) -> ByColour[int]:
        return ByColour(self.red, self.blue, self.yellow, self.green)

    @tokens.setter
    def tokens(self, value: ByColour[int]) -> None:
        for colour, n in value.items():
            setattr(self, colour.value, n)

    @property
    def total_tokens(self) -> int:
        return sum(self.tokens.values())

    def private_url(self) -> str:
        return reverse("osaka-game", args=[self.private_token])


TOKEN_FIELDS = tuple(c.value for c in COLOURS)


class OsakaEvent(models.Model):
    game = models.ForeignKey(OsakaGame, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    cid = models.CharField(max_length=64, blank=True, default="")
    at = models.DateTimeField(default=timezone.now)
    who = models.CharField(max_length=NAME_MAX + 10)
    kind = models.CharField(max_length=10)
    data = models.JSONField(default=dict)
    undone = models.BooleanField(default=False)
    summary = models.CharField(max_length=500, default="")
    result = models.JSONField(default=dict)

    class Meta:
        ordering = ("-version",)
        constraints: ClassVar = [
            models.UniqueConstraint(fields=("game", "version"), name="osaka_event_unique_version"),
            models.UniqueConstraint(
                fields=("game", "cid"), condition=~models.Q(cid=""), name="osaka_event_unique_cid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version}: {self.summary}"
