"""Score sheets: the end-game scoring walk-through's saved state (issue 4).

A sheet holds the table being scored as the JSON of :func:`scoring.table.read_table` (``docs/api.md``) and a
``version`` that every write moves on (:func:`companion.scorepad.services.record_entries`, a version-checked
write). Sheets are addressed by an unguessable token, never by their numeric id. What the rules allow is not
decided here: :mod:`scoring.validate` judges the stored table on every render.
"""

from __future__ import annotations

from typing import Any, Final

from django.db import models
from django.urls import reverse

from companion.tokens import new_token
from scoring import reading
from scoring.table import Table, read_table

#: Player colours offered at the start. The rulebook only says "each player chooses a color" (Setup) without
#: naming them; these are the usual four of the box plus two spares for a player who prefers another word.
COLOURS: Final = ("red", "blue", "green", "yellow", "purple", "black")
NAME_MAX: Final = 24
"""The longest player name, IKI's and Traders of Osaka's, on every start page (companion.forms): what a column of
the PDF score pad fits."""
#: Entries beyond this size are refused as malformed before they reach the rules (nothing in IKI comes close);
#: the JSON API's bound, one constant (scoring.reading).
MAX_NUMBER: Final = reading.MAX_NUMBER


class ScoreSheet(models.Model):
    """One end-game scoring in progress or done. ``table`` is the scoring JSON; ``version`` counts changes."""

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    #: The view-only link's token (>= 128 random bits): it opens the result and the PDF, never an entry.
    view_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    table: models.JSONField[dict[str, Any], dict[str, Any]] = models.JSONField()
    colours: models.JSONField[list[str], list[str]] = models.JSONField(default=list)
    #: Stack ranks on the firefighting track, by player name (0 = top of the stack): RULINGS R12.
    stack: models.JSONField[dict[str, int], dict[str, int]] = models.JSONField(default=dict)
    seed = models.CharField(max_length=64, blank=True, default="")
    #: The seed's setup was made with the Grand Master variant (RULINGS R24: a code stands with its options).
    grand_master = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    #: The group the sheet was started for ("Score a game for this group", its edit link): the result is filed
    #: there when it is first kept. Never shown as a link by the sheet's view-only pages.
    group = models.ForeignKey(
        "companion.Group", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "companion"

    def __str__(self) -> str:
        return f"score sheet {self.token[:6]}… ({', '.join(self.names)})"

    def get_absolute_url(self) -> str:
        """The walk-through's first step."""
        return reverse("scorepad-step", args=[self.token, "track"])

    def view_url(self) -> str:
        """The view-only page: the result and the PDF, nothing that writes."""
        return reverse("scorepad-view", args=[self.view_token])

    @property
    def names(self) -> list[str]:
        return [p["name"] for p in self.table["players"]]

    @property
    def akebono(self) -> bool:
        return "akebono" in self.table.get("expansions", [])

    def colour(self, i: int) -> str:
        """Player ``i``'s colour ("" when none is stored for that seat)."""
        return str(self.colours[i]) if i < len(self.colours) else ""

    def read(self) -> Table:
        """The stored table, read by the rules core (it was written by this module, so it always reads)."""
        return read_table(self.table)


__all__ = ["COLOURS", "MAX_NUMBER", "NAME_MAX", "ScoreSheet", "new_token"]
