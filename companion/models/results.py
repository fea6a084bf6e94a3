"""Results and groups (issue 14): what a finished score sheet leaves behind, and the tables that play together.

A :class:`Result` is written by :func:`companion.services.results.record_result` when a sheet reaches its result
page with no error, and rewritten when the sheet changed since; it keeps what the history needs (date, game,
players, colours, lines, totals, ranks, the setup's seed, and the buildings and personalities each player held)
so that the statistics never re-read the rules. A :class:`Group` is a table that plays together: an unguessable
link (``token``) that can file results and rename players, and a view-only one (``view_token``) that reads.
"""

from __future__ import annotations

import datetime
from typing import Any, Final

from django.db import models
from django.urls import reverse
from django.utils import timezone

from companion.models.osaka import OsakaGame
from companion.models.scoresheets import ScoreSheet
from companion.tokens import new_token

#: The games a result can be of (issue 14: IKI, IKI + Akebono, IKI 2015; issue 23: a tracked Traders of Osaka game).
EDITIONS: Final = (
    ("iki", "IKI"),
    ("iki-akebono", "IKI + Akebono"),
    ("iki-2015", "IKI 2015"),
    ("osaka", "Traders of Osaka"),
)
#: The editions of IKI: their results have the score pad's lines, buildings and personalities; an Osaka result has
#: none (its ``total`` is the VP cards, its ``rank`` the ranking with the tokens' tie-break, RULINGS O5).
IKI_EDITIONS: Final = frozenset({"iki", "iki-akebono", "iki-2015"})
EDITION_LABELS: Final = dict(EDITIONS)
GROUP_NAME_MAX: Final = 40
RESTORE_DAYS: Final = 30
"""How long a removed result's edit link offers to restore it (issue 20: nothing irreversible in one tap)."""


class Group(models.Model):
    """A table that plays together; no accounts, two links."""

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    view_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    name = models.CharField(max_length=GROUP_NAME_MAX)
    #: Renamed and merged players, old name -> the name kept: applied again when a filed sheet is edited later.
    aliases: models.JSONField[dict[str, str], dict[str, str]] = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)
    #: When it was last renamed: a change of the group, so a use of it (companion/services/retention.py).
    renamed = models.DateTimeField(null=True, blank=True, editable=False)
    #: The form that made it (:func:`companion.forms.once_key`): a second tap of the same form finds this group.
    made_by = models.CharField(max_length=64, unique=True, null=True, blank=True, editable=False)
    #: Restored from a group's file: each player's BG Stats id as the file gave it (name -> ``sourcePlayerId``), so
    #: that the players' plays sent from here match those sent from the group the file was made of.
    bgstats_players: models.JSONField[dict[str, str], dict[str, str]] = models.JSONField(
        default=dict, blank=True
    )

    class Meta:
        app_label = "companion"

    def __str__(self) -> str:
        return f"group {self.name!r}"

    def get_absolute_url(self) -> str:
        return reverse("group", args=[self.token])

    def view_url(self) -> str:
        return reverse("group", args=[self.view_token])


class Result(models.Model):
    """One finished game. ``players`` is a list of ``{"name", "colour", "lines", "total", "rank", "buildings",
    "personalities"}`` in seating order; ``sheet_version`` is the sheet's version it was made from."""

    #: The walk-through's sheet it was scored on; None for a checked paper pad (``/check/``, ``/check/2015/``).
    sheet = models.OneToOneField(
        ScoreSheet, null=True, blank=True, on_delete=models.CASCADE, related_name="result"
    )
    #: The tracked Traders of Osaka game it is the final ranking of (issue 23); None for IKI's results.
    osaka_game = models.OneToOneField(
        OsakaGame, null=True, blank=True, on_delete=models.CASCADE, related_name="result"
    )
    #: A checked pad's (or an Osaka game's) own links (a sheet's result uses the sheet's): edit (file, remove) and view-only.
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    view_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    #: A checked pad's query (``/check/?…``), so "Edit the numbers" reopens it.
    query = models.TextField(blank=True, default="")
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.SET_NULL, related_name="results")
    edition = models.CharField(max_length=16, choices=EDITIONS)
    played = models.DateField()
    players: models.JSONField[list[dict[str, Any]], list[dict[str, Any]]] = models.JSONField()
    seed = models.CharField(max_length=64, blank=True, default="")
    sheet_version = models.PositiveIntegerField()
    #: Removed by the table: kept out of every list and never written again by the sheet's result page; its
    #: edit link restores it for :data:`RESTORE_DAYS` days (its group is kept for that).
    removed = models.BooleanField(default=False)
    #: The last write; while ``removed``, when it was removed (nothing writes a removed result but a restore).
    updated = models.DateTimeField(auto_now=True)
    #: When the game started and ended, for a result no tracked game times: a checked pad's keeping, or a
    #: restored group file's times (companion/services/play_time.py reads the rest from the game's log).
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)
    #: Restored from a group's file: the BG Stats id (``sourcePlayId``) its game had there, so that sending it again
    #: updates the play BG Stats has instead of adding it twice; "" for every other result (its id is made).
    bgstats_id = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        app_label = "companion"
        ordering = ("played", "pk")

    def __str__(self) -> str:
        return f"result of {self.played} ({', '.join(p['name'] for p in self.players)})"

    @property
    def edition_label(self) -> str:
        return EDITION_LABELS[self.edition]

    @property
    def public_token(self) -> str:
        """The token of the result's view-only link: its sheet's, its Osaka game's, or its own for a checked pad."""
        if self.sheet is not None:
            return self.sheet.view_token
        return self.osaka_game.view_token if self.osaka_game is not None else self.view_token

    def view_url(self) -> str:
        """The view-only page: the sheet's result page, the Osaka game's view-only page, or the checked pad's."""
        if self.sheet is not None:
            return self.sheet.view_url()
        if self.osaka_game is not None:
            return self.osaka_game.view_url()
        return reverse("result-view", args=[self.view_token])

    def edit_url(self) -> str:
        """Where the table keeps, files and removes it: the sheet's result page, the Osaka game's page (its final
        ranking), or the checked pad's."""
        if self.sheet is not None:
            return reverse("scorepad-result", args=[self.sheet.token])
        if self.osaka_game is not None:
            return self.osaka_game.edit_url()
        return reverse("result-page", args=[self.token])

    @property
    def restorable_until(self) -> datetime.datetime | None:
        """Until when a removed result can be restored (None when it is not removed, or no longer can be)."""
        if not self.removed:
            return None
        until = self.updated + datetime.timedelta(days=RESTORE_DAYS)
        return until if timezone.now() <= until else None

    @property
    def from_group_file(self) -> bool:
        """Restored from a group's file: no sheet, game or paper pad of its own, so its group's edit link is the
        only way to its own page (where it is removed, or filed elsewhere)."""
        return self.sheet_id is None and self.osaka_game_id is None and not self.query

    @property
    def edit_token(self) -> str:
        """The token the result's writes are addressed by."""
        return self.sheet.token if self.sheet is not None else self.token


__all__ = ["EDITIONS", "EDITION_LABELS", "IKI_EDITIONS", "RESTORE_DAYS", "Group", "Result"]
