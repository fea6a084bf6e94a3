"""A game tracked at the table (issue 5): one shared game on every phone, month by month, nothing lost.

The rules live in the pure :mod:`scoring.calendar`; the writes in :mod:`companion.services.tracker`; this module
keeps the rows:

- ``Game``: options, the generated setup (its JSON and the generator's version, so the game never depends on
  regenerating), the month and phase, a ``version`` bumped by every change, and two unguessable tokens (edit and
  view-only, >= 128 random bits each).
- ``Seat``: a player's name, colour, score track, firefighting position and stack height, Akebono trade track.
- ``Change``: the log: who (the name the phone chose), when, what, and what it takes to undo it.

Concurrency (docs/sync.md, companion.services.tracker.changes): every change runs in one transaction holding the game row (``select_for_update`` on
PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` serialises writers, see companion/settings.py). Additive changes (+3 IKI)
are applied to the value read under that lock, so two simultaneous taps both land. "Set" changes (a position, the
next phase, undo) carry the version the phone saw; a stale version is a conflict and nothing changes.
"""

from __future__ import annotations

import re
from typing import ClassVar

from django.db import models
from django.urls import reverse
from django.utils import timezone

from companion.tokens import new_token
from scoring.calendar import TRACK_MAX, CalendarOptions, Marker, Phase

NAME_COLUMN = 40
"""The width of a stored name: games made before one limit served every start page hold names up to 40."""
SCORE_MAX = 999
CLIENT_ID_MAX = 40
CLIENT_ID_RE = re.compile(rf"[A-Za-z0-9_-]{{1,{CLIENT_ID_MAX}}}")
"""A write's client-made id (the older tracker script made 24 hex digits; the live engine's writes carry lc/ln
instead): ASCII only, so every database stores it."""
QUICK_SCORES = (1, 2, 3, 5, -1)
"""The IKI a player's row adds in one tap (its quick-score buttons); any other change of the score is set."""
SUMMARY_MAX = 200
"""The longest line of the log (a change's summary)."""


class Game(models.Model):
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    created = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)
    players = models.PositiveSmallIntegerField()
    akebono = models.BooleanField(default=False)
    grand_master = models.BooleanField(default=False)
    setup = models.JSONField()
    generator_version = models.CharField(max_length=20)
    month = models.PositiveSmallIntegerField(default=1)
    phase = models.CharField(max_length=10, default=Phase.A.value)
    finished = models.BooleanField(default=False)
    #: The reveal keys the table has revealed (scoring.calendar ``Event.reveal``), seen by every phone (issue 13).
    revealed: models.JSONField[list[str], list[str]] = models.JSONField(default=list)
    #: The setup checklist's ticked step ids (setupgen.checklist), shared by every phone behind the edit token.
    ticks: models.JSONField[list[str], list[str]] = models.JSONField(default=list)
    #: Set by a change (companion.services.tracker) whose answer deserves a warning (a record's immediate IKI below 0); not stored.
    warned = False
    #: The seats as a change left them (apply_change), so its answer reads them again from no query; not stored.
    seat_list: list[Seat] | None = None
    #: The newest changes, newest first, as a write read them (hold) and left them; not stored.
    recent: list[Change] | None = None
    #: The score sheet made from this game ("Score the game"); the game page links its edit or view-only page.
    scoresheet = models.OneToOneField(
        "companion.ScoreSheet", null=True, blank=True, on_delete=models.SET_NULL, related_name="game"
    )

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(condition=models.Q(month__gte=1, month__lte=13), name="game_month_1_13"),
            models.CheckConstraint(
                condition=models.Q(players__gte=2, players__lte=4), name="game_players_2_4"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} (month {self.month}, {self.phase})"

    @property
    def options(self) -> CalendarOptions:
        return CalendarOptions(players=self.players, akebono=self.akebono, grand_master=self.grand_master)

    @property
    def phase_enum(self) -> Phase:
        return Phase(self.phase)

    @property
    def seed(self) -> str:
        seed = self.setup.get("seed") if isinstance(self.setup, dict) else None
        return seed if isinstance(seed, str) else ""

    @property
    def first_player(self) -> int:
        first = self.setup.get("first_player") if isinstance(self.setup, dict) else None
        return first if isinstance(first, int) and 1 <= first <= self.players else 1

    def edit_url(self) -> str:
        return reverse("game", args=[self.edit_token])

    def view_url(self) -> str:
        return reverse("game", args=[self.view_token])


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_COLUMN)
    colour = models.CharField(max_length=20)
    score = models.PositiveIntegerField(default=0)
    firefighting = models.PositiveSmallIntegerField(default=0)
    stack = models.IntegerField(default=0)
    trade = models.PositiveSmallIntegerField(default=0)
    #: What the table recorded of this player for the end-game scoring (companion.services.tracker.records).
    record = models.JSONField(default=dict)

    class Meta:
        ordering = ("seat",)
        constraints: ClassVar = [
            models.UniqueConstraint(fields=("game", "seat"), name="seat_unique_seat"),
            models.UniqueConstraint(fields=("game", "name"), name="seat_unique_name"),
            models.CheckConstraint(
                condition=models.Q(firefighting__lte=TRACK_MAX), name="seat_firefighting_0_10"
            ),
            models.CheckConstraint(condition=models.Q(trade__lte=TRACK_MAX), name="seat_trade_0_10"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat})"

    @property
    def marker(self) -> Marker:
        return Marker(self.seat, self.firefighting, self.stack)


class Change(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    version = models.PositiveIntegerField()
    at = models.DateTimeField(default=timezone.now)
    who = models.CharField(max_length=NAME_COLUMN)
    op = models.CharField(max_length=20)
    summary = models.CharField(max_length=SUMMARY_MAX)
    undo = models.JSONField(default=dict)
    undone = models.BooleanField(default=False)
    #: The id the phone made for this write (issue 13, item 3): a replay of it is answered, never applied again.
    client_id = models.CharField(max_length=CLIENT_ID_MAX, blank=True, default="")

    class Meta:
        ordering = ("-version",)
        constraints: ClassVar = [
            models.UniqueConstraint(fields=("game", "version"), name="change_unique_version"),
            models.UniqueConstraint(
                fields=("game", "client_id"),
                condition=~models.Q(client_id=""),
                name="change_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version}: {self.summary}"
