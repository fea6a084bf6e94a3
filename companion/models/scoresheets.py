"""Score sheets: the end-game scoring walk-through's saved state (issue 4).

A sheet holds the table being scored as the JSON of :func:`scoring.table.read_table` (``docs/api.md``), saved as
each entry is made. Two phones may edit one sheet at once: every change is a small :class:`Change` (set one
number, add or remove one component, choose one wild type...) applied to a freshly read row and written only
if the row is still the version read, else read and applied again (:func:`apply_changes`), so nobody's entry is
overwritten by a stale table.

Sheets are addressed by an unguessable token, never by their numeric id. What the rules allow is not decided here:
:mod:`scoring.validate` judges the stored table on every render.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from django.db import models
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from companion.tokens import new_token
from scoring import catalogue as cat
from scoring.errors import quote
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
from scoring.table import LIST_FIELDS, NUMBER_FIELDS, Table, read_table

#: Player colours offered at the start. The rulebook only says "each player chooses a color" (Setup) without
#: naming them; these are the usual four of the box plus two spares for a player who prefers another word.
COLOURS: Final = ("red", "blue", "green", "yellow", "purple", "black")
NAME_MAX: Final = 24
"""The longest player name, on every start page (companion.forms): what a column of the PDF score pad fits."""
#: Entries beyond this size are refused as malformed before they reach the rules (nothing in IKI comes close).
MAX_NUMBER: Final = 9999
#: Lists whose entries may repeat: unnamed characters (``any-{type}``) and retirement tokens with a supply of 2.
REPEATABLE: Final = frozenset({"retirement_tokens"})


class ScoreSheet(models.Model):
    """One end-game scoring in progress or done. ``table`` is the scoring JSON; ``version`` counts changes."""

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    #: The view-only link's token (>= 128 random bits): it opens the result and the PDF, never an entry.
    view_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    table = models.JSONField()
    colours = models.JSONField(default=list)
    #: Stack ranks on the firefighting track, by player name (0 = top of the stack): RULINGS R12.
    stack = models.JSONField(default=dict)
    seed = models.CharField(max_length=64, blank=True, default="")
    version = models.PositiveIntegerField(default=1)
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


# --- changes -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """One entry made on a step.

    ``op`` is one of: ``set`` (a number field to ``value``), ``bump`` (a number field by ``value``), ``add`` /
    ``remove`` (one ``item`` of a list field), ``wild`` (the chosen type ``item`` of the card ``field``, "" to
    clear), ``stack`` (the player's firefighting stack rank ``value``, -1 to clear).
    """

    op: str
    player: int
    field: str = ""
    item: str = ""
    value: int = 0


def _apply(table: dict[str, Any], stack: dict[str, int], change: Change) -> None:
    player = table["players"][change.player]
    if change.op == "set":
        player[change.field] = change.value
    elif change.op == "bump":
        player[change.field] = max(0, int(player.get(change.field, 0)) + change.value)
    elif change.op == "add":
        items = player.setdefault(change.field, [])
        if change.item not in items or change.field in REPEATABLE or cat.any_type(change.item) is not None:
            items.append(change.item)
    elif change.op == "remove":
        items = player.setdefault(change.field, [])
        if change.item in items:
            items.remove(change.item)
            if change.field == "characters" and change.item not in items:
                player.get("wild_types", {}).pop(change.item, None)
    elif change.op == "wild":
        wild = player.setdefault("wild_types", {})
        if change.item:
            wild[change.field] = change.item
        else:
            wild.pop(change.field, None)
    elif change.op == "stack":
        if change.value < 0:
            stack.pop(player["name"], None)
        else:
            stack[player["name"]] = change.value
    else:  # pragma: no cover - the views only build the ops above
        raise ValueError(f"unknown change {change.op!r}")


def firefighting_order(players: Sequence[Mapping[str, Any]], stack: Mapping[str, int]) -> list[str] | None:
    """RULINGS R12: all players by position, highest first, stack top first within a space.

    None while players share a space and their stack order is not fully given (the core then lets them share a
    place); also None when nobody shares a space, since the positions alone give the order.
    """
    by_space: dict[int, list[str]] = {}
    for p in players:
        by_space.setdefault(int(p.get("firefighting", 0)), []).append(p["name"])
    shared = [names for names in by_space.values() if len(names) > 1]
    if not shared:
        return None
    for names in shared:
        ranks = [stack.get(n) for n in names]
        if any(r is None for r in ranks) or len(set(ranks)) != len(ranks):
            return None
    order: list[str] = []
    for space in sorted(by_space, reverse=True):
        order.extend(sorted(by_space[space], key=lambda n: stack.get(n, 0)))
    return order


def _derive(sheet: ScoreSheet) -> None:
    order = firefighting_order(sheet.table["players"], sheet.stack)
    if order is None:
        sheet.table.pop("firefighting_order", None)
    else:
        sheet.table["firefighting_order"] = order


#: Attempts at an entry while other phones keep writing between its read and its write.
MAX_TRIES: Final = 20


class SheetBusy(RuntimeError):
    """Other phones wrote between every read and write of an entry (:data:`MAX_TRIES` times): nothing saved."""


def apply_changes(
    token: str, changes: Iterable[Change] | Callable[[ScoreSheet], Iterable[Change]]
) -> ScoreSheet:
    """Apply entries to the freshly read sheet and save it; return the saved sheet.

    ``changes`` may be a function of the read sheet (a form is read against its players); whatever it raises
    leaves the sheet untouched. Raises :class:`ScoreSheet.DoesNotExist` for an unknown token. With no change
    nothing is written.

    Two phones never overwrite each other: the write names the version it read (``UPDATE ... WHERE version =
    read``), and when another phone wrote in between, the row is read again and the same form applied to it, as
    a row lock would have made it wait and read.
    """
    for _ in range(MAX_TRIES):
        sheet = ScoreSheet.objects.get(token=token)
        todo = list(changes(sheet) if callable(changes) else changes)
        if not todo:
            return sheet
        read = sheet.version
        for change in todo:
            _apply(sheet.table, sheet.stack, change)
        if any(c.op == "stack" or c.field == "firefighting" for c in todo):
            _derive(sheet)  # the order stored beside the players follows their positions and the stack
        now = timezone.now()
        written = ScoreSheet.objects.filter(pk=sheet.pk, version=read).update(
            table=sheet.table, stack=sheet.stack, version=F("version") + 1, updated=now
        )
        if written == 1:
            sheet.version, sheet.updated = read + 1, now
            return sheet
    raise SheetBusy("the sheet kept changing under this entry")


# --- starting a sheet --------------------------------------------------------------------------------------------


class SheetError(ValueError):
    """What :func:`start_sheet` was given cannot start a sheet; ``field`` names the offending argument."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _player_json(name: str) -> dict[str, Any]:
    return {"name": name, **dict.fromkeys(NUMBER_FIELDS, 0), **{k: [] for k in LIST_FIELDS}, "wild_types": {}}


_PREFILL_FIELDS: Final = frozenset(NUMBER_FIELDS) | frozenset(LIST_FIELDS) | {"wild_types"}


def start_sheet(
    *,
    names: Sequence[str],
    colours: Sequence[str],
    akebono: bool,
    setup: Mapping[str, Any] | None = None,
    prefill: Mapping[str, Mapping[str, Any]] | None = None,
    firefighting_order: Sequence[str] | None = None,
    seed: str | None = None,
) -> ScoreSheet:
    """Create a sheet for 2-4 players, optionally with the game's setup and values known from a tracked game.

    ``setup`` is the JSON of ``scoring.table`` (``{"buildings": [...], "personalities": [...], "boat_sides":
    {...}}``); ``prefill`` maps a player's name to JSON fields of that player (``score_track``,
    ``firefighting``, ``trade``...). Raises :class:`SheetError` for input that cannot form a table (wrong player
    count, blank or repeated names, unknown colours or ids) or a setup the rules refuse (RULINGS R15/R18).
    """
    from scoring.validate import validate  # the rules core judges the setup

    clean = [str(n).strip() for n in names]
    if not MIN_PLAYERS <= len(clean) <= MAX_PLAYERS:
        raise SheetError("names", f"IKI is played by 2 to 4 players, not {len(clean)}.")
    if any(not n for n in clean):
        raise SheetError("names", "Every player needs a name.")
    if any(len(n) > NAME_MAX for n in clean):
        raise SheetError("names", f"Keep names to {NAME_MAX} characters.")
    if len({n.casefold() for n in clean}) != len(clean):
        raise SheetError("names", "Give each player a different name.")
    if len(colours) != len(clean) or any(c not in COLOURS for c in colours):
        raise SheetError("colours", f"Choose a colour for each player ({', '.join(COLOURS)}).")
    if len(set(colours)) != len(colours):
        raise SheetError("colours", "Give each player a different colour.")
    data: dict[str, Any] = {
        "expansions": ["akebono"] if akebono else [],
        "players": [_player_json(n) for n in clean],
    }
    if setup:
        data["setup"] = {k: (dict(v) if isinstance(v, Mapping) else list(v)) for k, v in setup.items()}
    index = {n: i for i, n in enumerate(clean)}
    for name, fields in (prefill or {}).items():
        if name not in index:
            raise SheetError("prefill", f"{quote(name)} is not one of the players.")
        for key, value in fields.items():
            if key not in _PREFILL_FIELDS:
                raise SheetError("prefill", f"{quote(key)} is not a field of a player's score.")
            data["players"][index[name]][key] = value
    stack: dict[str, int] = {}
    if firefighting_order is not None:
        if sorted(firefighting_order) != sorted(clean):
            raise SheetError("firefighting_order", "The firefighting order must list every player once.")
        # Keep each player's place within the stack of its own space (0 = top), as the firefighting step asks.
        space = {n: data["players"][index[n]].get("firefighting", 0) for n in clean}
        for n in firefighting_order:
            stack[n] = sum(1 for m in stack if space[m] == space[n])
    try:
        table = read_table(data)
    except ValueError as exc:  # InputError: an unknown id or a value of the wrong type
        raise SheetError("setup", str(exc)) from None
    setup_errors = [p for p in validate(table).errors if p.field.startswith("setup")]
    if setup_errors:
        raise SheetError("setup", " ".join(p.message for p in setup_errors))
    sheet = ScoreSheet(table=data, colours=list(colours), stack=stack, seed=seed or "")
    _derive(sheet)
    sheet.save()
    return sheet


__all__ = [
    "COLOURS",
    "Change",
    "ScoreSheet",
    "SheetBusy",
    "SheetError",
    "apply_changes",
    "firefighting_order",
    "start_sheet",
]
