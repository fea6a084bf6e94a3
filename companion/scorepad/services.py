"""What the walk-through writes and makes, as keyword-only functions (the HackSoft styleguide's services).

Two phones may edit one sheet at once: every entry is a small :class:`~companion.scorepad.entries.EntryChange` (set one
number, add or remove one component, choose one wild type...) applied to a freshly read row and written only if the
row is still the version read (the ORM's ``filter(pk=..., version=read).update(..., version=F("version") + 1)``),
else read and applied again (:func:`record_entries`), so nobody's entry is overwritten by a stale table.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from django.db.models import F
from django.utils import timezone

from companion.errors import UserError
from companion.models.games import Game
from companion.models.results import Group
from companion.models.scoresheets import COLOURS, NAME_MAX, ScoreSheet
from companion.pdf.scorepad import PadPlayer, filled_pad
from companion.scorepad.entries import EntryChange
from companion.scorepad.steps import read_sheet
from companion.services.tracker import records
from companion.services.tracker.games import scoring_setup
from scoring import catalogue as cat
from scoring.calendar import firefighting_seats
from scoring.errors import quote
from scoring.names import name_key
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
from scoring.score import LINE_LABELS, lines_for, score_table
from scoring.table import LIST_FIELDS, NUMBER_FIELDS, read_table
from scoring.validate import Report, validate

# --- entries: the versioned write --------------------------------------------------------------------------------

#: Lists whose entries may repeat: unnamed characters (``any-{type}``) and retirement tokens with a supply of 2.
REPEATABLE: Final = frozenset({"retirement_tokens"})


def _apply(table: dict[str, Any], stack: dict[str, int], change: EntryChange) -> None:
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


def record_entries(
    *,
    token: str,
    changes: Iterable[EntryChange] | Callable[[ScoreSheet], Iterable[EntryChange]],
    stored: Any = None,
) -> ScoreSheet:
    """Apply entries to the freshly read sheet and save it; return the saved sheet.

    ``changes`` may be a function of the read sheet (a form is read against its players); whatever it raises
    leaves the sheet untouched. Raises :class:`ScoreSheet.DoesNotExist` for an unknown token. With no change
    nothing is written. ``stored``: an annotation the read adds to the sheet as ``sheet.stored`` (the id of the
    write's stored answer, companion.live.engine.stored_id), so one query reads the sheet and finds a replay.

    Two phones never overwrite each other: the write names the version it read (``UPDATE ... WHERE version =
    read``), and when another phone wrote in between, the row is read again and the same form applied to it, as
    a row lock would have made it wait and read.
    """
    rows = ScoreSheet.objects.annotate(stored=stored) if stored is not None else ScoreSheet.objects.all()
    for _ in range(MAX_TRIES):
        sheet = rows.get(token=token)
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


class SheetError(UserError):
    """What :func:`start_sheet` was given cannot start a sheet; ``field`` names the offending argument."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message, field=field)


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
    grand_master: bool = False,
    group: Group | None = None,
) -> ScoreSheet:
    """Create a sheet for 2-4 players, optionally with the game's setup and values known from a tracked game.
    ``group``: the group it is scored for, where its result is filed when first kept.

    ``setup`` is the JSON of ``scoring.table`` (``{"buildings": [...], "personalities": [...], "boat_sides":
    {...}}``); ``prefill`` maps a player's name to JSON fields of that player (``score_track``,
    ``firefighting``, ``trade``...). Raises :class:`SheetError` for input that cannot form a table (wrong player
    count, blank or repeated names, unknown colours or ids) or a setup the rules refuse (RULINGS R15/R18).
    """

    clean = [str(n).strip() for n in names]
    if not MIN_PLAYERS <= len(clean) <= MAX_PLAYERS:
        raise SheetError("names", f"IKI is played by 2 to 4 players, not {len(clean)}.")
    if any(not n for n in clean):
        raise SheetError("names", "Every player needs a name.")
    if any(len(n) > NAME_MAX for n in clean):
        raise SheetError("names", f"Keep names to {NAME_MAX} characters.")
    if len({name_key(n) for n in clean}) != len(clean):
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
    _check_setup(data)
    sheet = ScoreSheet(
        table=data,
        colours=list(colours),
        stack=stack,
        seed=seed or "",
        grand_master=bool(seed) and grand_master,
        group=group,
    )
    _derive(sheet)
    sheet.save()
    return sheet


def _check_setup(data: Mapping[str, Any]) -> None:
    """A table's setup the rules refuse (RULINGS R15/R18), or an unknown id in it: :class:`SheetError`."""
    try:
        table = read_table(data)
    except ValueError as exc:  # InputError: an unknown id or a value of the wrong type
        raise SheetError("setup", str(exc)) from None
    setup_errors = [p for p in validate(table).errors if p.field.startswith("setup")]
    if setup_errors:
        raise SheetError("setup", " ".join(p.message for p in setup_errors))


def check_setup(*, setup: Mapping[str, Any], akebono: bool, players: int) -> None:
    """What :func:`start_sheet` says of ``setup`` for a table of ``players``, before the names are all right:
    the start page shows it beside the form's other problems."""
    names = [f"Player {i + 1}" for i in range(players)]
    _check_setup({"expansions": ["akebono"] if akebono else [], "players": [_player_json(n) for n in names],
                  "setup": dict(setup)})  # fmt: skip


def sheet_from_seed(
    *, code: str, players: int, akebono: bool, grand_master: bool
) -> tuple[dict[str, Any], str]:
    """The setup a seed code made (what the start page's "seed" option knows was in play), and the seed."""
    from setupgen import Options, OptionsError, SeedError, generate

    try:
        setup = generate(Options(players=players, akebono=akebono, grand_master=grand_master), seed=code)
    except (SeedError, OptionsError) as exc:
        raise SheetError("seed", f"Check the setup code: {exc}.") from None
    out: dict[str, Any] = {"buildings": list(setup.buildings)}
    if setup.akebono is not None:
        out["personalities"] = [p for pair in setup.akebono.personalities.values() for p in pair]
        out["boat_sides"] = dict(setup.akebono.boat_sides)
    return out, setup.seed


@dataclass(frozen=True, slots=True)
class Ranked:
    name: str
    colour: str
    rank: int
    total: int
    tie_break: str
    lines: list[tuple[str, int, str]]


@dataclass(frozen=True, slots=True)
class SheetResult:
    """A sheet judged by the rules core: the report, and the ranking when the rules accept the table."""

    report: Report
    ranking: list[Ranked]

    @property
    def tie_breaks(self) -> list[str]:
        return list(dict.fromkeys(r.tie_break for r in self.ranking if r.tie_break))

    @property
    def missing(self) -> list[str]:
        """RULINGS R13 as amended: what an incomplete table still lacks (scored with what is known)."""
        return [p.message for p in self.report.warnings if p.incomplete]


def result_of(*, sheet: ScoreSheet) -> SheetResult:
    """The ranking and each line's explanation (RULINGS R3-R12), or only the report while the rules refuse."""
    table = read_sheet(sheet)
    report = validate(table)
    ranking = []
    if report.valid:
        labels = [(key, LINE_LABELS[key]) for key in lines_for(table.akebono)]
        for i, s in enumerate(score_table(table)):
            lines = [(label, s.lines[key].points, s.lines[key].explanation) for key, label in labels]
            ranking.append(Ranked(s.name, sheet.colour(i), s.rank, s.total, s.tie_break or "", lines))
        ranking.sort(key=lambda r: (r.rank, r.name))
    return SheetResult(report, ranking)


def pad_pdf(*, sheet: ScoreSheet, result: SheetResult, pagesize: str) -> bytes:
    """The filled score pad of a scored sheet (RULINGS R3), saying what is missing (R13 as amended)."""
    players = [
        PadPlayer(
            name=r.name,
            colour=r.colour or None,
            lines={
                key: points
                for key, (_label, points, _why) in zip(lines_for(sheet.akebono), r.lines, strict=True)
            },
            total=r.total,
            rank=r.rank,
        )
        for r in sorted(result.ranking, key=lambda r: sheet.names.index(r.name))
    ]
    return filled_pad(
        akebono=sheet.akebono,
        players=players,
        pagesize=pagesize,
        date=sheet.created.date() if sheet.created else datetime.date.today(),  # type: ignore[truthy-bool]  # None until saved
        seed=sheet.seed or None,
        grand_master=sheet.grand_master,
        tie_breaks=result.tie_breaks,
        missing=result.missing,
    )


def pad_filename(names: Sequence[str]) -> str:
    return "iki-score-" + "-".join(re.sub(r"[^A-Za-z0-9]+", "", n) or "player" for n in names) + ".pdf"


__all__ = [
    "SheetError",
    "pad_filename",
    "pad_pdf",
    "record_entries",
    "result_of",
    "sheet_from_seed",
    "start_sheet",
]


def sheet_for_game(*, game: Game, names: Sequence[str], colours: Sequence[str]) -> ScoreSheet:
    """The score sheet of a finished tracked game, in seat order under the names the table confirmed: the score
    track, firefighting and trade positions, the stack order, the setup and everything recorded during the game
    (companion.services.tracker.records). Two phones tapping "Score the game" at once: the first link wins and both get
    the same sheet. Raises :class:`SheetError` for a game the walk-through refuses."""
    seats = list(game.seats.all())
    prefill: dict[str, dict[str, Any]] = {}
    for seat, name in zip(seats, names, strict=True):
        prefill[name] = {
            "score_track": seat.score,
            "firefighting": seat.firefighting,
            **records.scoring_fields(seat),
        }
        if game.akebono:
            prefill[name]["trade"] = seat.trade
    by_seat = {seat.seat: name for seat, name in zip(seats, names, strict=True)}
    sheet = start_sheet(
        names=names,
        colours=colours,
        akebono=game.akebono,
        setup=scoring_setup(game),
        prefill=prefill,
        firefighting_order=[by_seat[n] for n in firefighting_seats(seat.marker for seat in seats)],
        seed=game.seed or None,
        grand_master=game.grand_master,
    )
    Game.objects.filter(pk=game.pk, scoresheet=None).update(scoresheet=sheet)
    linked = Game.objects.get(pk=game.pk).scoresheet
    if linked is None or linked.pk != sheet.pk:
        sheet.delete()
    assert linked is not None
    return linked
