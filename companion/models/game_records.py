"""What a tracked game recorded of each player (issue 13, item 5): cards hired, tokens bought, buildings, boats,
personalities met, retirements, characters lost in a fire, and the resources at the end.

Kept on the seat as the scoring table's own fields (``scoring.table.LIST_FIELDS`` and the resources), so "Score
the game" hands them to the walk-through as they are. Each entry is checked against the catalogue when it is made
(an id of the wrong kind is refused) and the whole table goes through the rules validator on every render: an
entry the rules refuse is kept and flagged, as the walk-through does, so the order of entries never deadlocks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from scoring.calendar import TRACK_MAX, move_marker
from scoring.catalogue import (
    BOAT_BY_ID,
    BUILDING_BY_ID,
    CHARACTER_BY_ID,
    FIREFIGHTING_GAIN,
    PERSONALITY_BY_ID,
    RETIREMENT_TOKEN_BY_ID,
    STARTING_IDS,
    TOKEN_BY_ID,
    TRADE_GAIN,
)
from scoring.errors import InputError
from scoring.table import LIST_FIELDS, read_table
from scoring.validate import INCOMPLETE_CODES, Problem, validate

if TYPE_CHECKING:
    from companion.models.games import Seat

RESOURCES: Final = ("mon", "koban", "wood", "rice", "sandals")
RESOURCE_MAX: Final = 999
LOST: Final = "lost"
"""Characters killed by a fire: kept apart from ``characters`` (they score nothing), shown in the record."""
TOKEN_FIELDS: Final = {"fish": "fish", "pipe": "pipes", "tobacco": "tobacco"}
FIELD_LABELS: Final = {
    "characters": "Characters",
    "retirement_tokens": "Retirement tokens",
    "fish": "Fish",
    "pipes": "Pipes",
    "tobacco": "Tobacco",
    "buildings": "Buildings",
    "boats": "Boats",
    "personalities": "Personalities met",
    LOST: "Lost in a fire",
}
_NAMES: Final[Mapping[str, Mapping[str, Any]]] = {
    "characters": CHARACTER_BY_ID,
    "retirement_tokens": RETIREMENT_TOKEN_BY_ID,
    "fish": TOKEN_BY_ID,
    "pipes": TOKEN_BY_ID,
    "tobacco": TOKEN_BY_ID,
    "buildings": BUILDING_BY_ID,
    "boats": BOAT_BY_ID,
    "personalities": PERSONALITY_BY_ID,
    LOST: CHARACTER_BY_ID,
}


class RecordRefused(ValueError):
    """An entry that names no component of its kind; the message is for a person. Nothing was changed."""


def field_of(kind: str, item: str) -> str:
    """The record field an entry of ``kind`` (a form's ``field``: a list field, or ``tokens`` for fish, pipes and
    tobacco, which the token's printed kind decides) goes to; RecordRefused if ``item`` is not of that kind."""
    if kind == "tokens":
        token = TOKEN_BY_ID.get(item)
        if token is None:
            raise RecordRefused("Choose a fish, pipe or tobacco token.")
        return TOKEN_FIELDS[token.kind.value]
    names = _NAMES.get(kind) if kind in LIST_FIELDS else None
    if names is None:
        raise RecordRefused("Choose what to record.")
    if item not in names or (
        kind in TOKEN_FIELDS.values() and TOKEN_FIELDS[TOKEN_BY_ID[item].kind.value] != kind
    ):
        raise RecordRefused(f"Choose one of the {FIELD_LABELS[kind].lower()}.")
    return kind


def name_of(field: str, item: str) -> str:
    found = _NAMES[field].get(item)
    return str(found.name) if found is not None else item


def entries(seat: Seat) -> dict[str, list[str]]:
    record = seat.record if isinstance(seat.record, dict) else {}
    return {f: [str(i) for i in record.get(f, [])] for f in (*LIST_FIELDS, LOST) if record.get(f)}


def add(seat: Seat, seats: Sequence[Seat], *, kind: str, item: str, akebono: bool) -> str:
    """Record ``item``; a hire (or a pipe) moves the firefighting and trade markers by its printed gains
    (catalogue FIREFIGHTING_GAIN/TRADE_GAIN, RULINGS R13); a starting character is drafted, not hired: no gain."""
    field = field_of(kind, item)
    record = dict(seat.record) if isinstance(seat.record, dict) else {}
    record[field] = [*record.get(field, []), item]
    seat.record = record
    what = name_of(field, item)
    moved = []
    gain = 0 if item in STARTING_IDS else FIREFIGHTING_GAIN.get(item, 0)
    if gain:
        target = min(TRACK_MAX, seat.firefighting + gain)
        markers = {m.seat: m for m in move_marker([x.marker for x in seats], seat.seat, target)}
        seat.firefighting, seat.stack = markers[seat.seat].position, markers[seat.seat].stack
        moved.append(f"firefighting {seat.firefighting}")
    trade = 0 if item in STARTING_IDS or not akebono else TRADE_GAIN.get(item, 0)
    if trade:
        seat.trade = min(TRACK_MAX, seat.trade + trade)
        moved.append(f"trade {seat.trade}")
    verb = {
        "characters": "hired" if item not in STARTING_IDS else "drafted",
        "retirement_tokens": "retired for",
        "buildings": "built",
        "boats": "built",
        "personalities": "met",
    }.get(field, "bought")
    return f"{seat.name} {verb} {what}" + (f" (now {', '.join(moved)})" if moved else "")


def remove(seat: Seat, *, field: str, item: str) -> str:
    """Remove one entry, any of them (not only the last); the markers stay where the table put them."""
    held = entries(seat).get(field, [])
    if item not in held:
        raise RecordRefused("That entry is no longer there: another phone removed it.")
    record = dict(seat.record)
    rest = list(held)
    rest.remove(item)
    record[field] = rest
    seat.record = record
    return f"Removed from {seat.name}: {name_of(field, item)} ({FIELD_LABELS[field].lower()})"


def lose(seat: Seat, *, item: str) -> str:
    """A character of the player killed by a fire: it leaves the player's characters."""
    remove(seat, field="characters", item=item)
    record = dict(seat.record)
    record[LOST] = [*record.get(LOST, []), item]
    seat.record = record
    return f"{seat.name} lost {name_of(LOST, item)} in a fire"


def resources(seat: Seat, values: Mapping[str, int | None]) -> str:
    record = dict(seat.record) if isinstance(seat.record, dict) else {}
    for key in RESOURCES:
        value = values.get(key)
        if value is None or not 0 <= value <= RESOURCE_MAX:
            raise RecordRefused(f"{key.capitalize()} must be a whole number from 0 to {RESOURCE_MAX}.")
        record[key] = value
    seat.record = record
    return f"{seat.name}'s resources: " + ", ".join(f"{record[k]} {k}" for k in RESOURCES)


def resources_seen(seat: Seat) -> str:
    """What a resources form is made against (its ``was``)."""
    record = seat.record if isinstance(seat.record, dict) else {}
    return ",".join(str(record.get(k, 0)) for k in RESOURCES)


def scoring_fields(seat: Seat) -> dict[str, Any]:
    """The seat's record as the scoring table's player fields (LIST_FIELDS and the resources)."""
    record = seat.record if isinstance(seat.record, dict) else {}
    fields: dict[str, Any] = {f: list(v) for f, v in entries(seat).items() if f != LOST}
    fields.update({k: record[k] for k in RESOURCES if isinstance(record.get(k), int)})
    return fields


@dataclass(frozen=True, slots=True)
class Flag:
    """One problem the validator found in a player's record: ``level`` is ``error`` or ``warning``."""

    level: str
    code: str
    field: str
    message: str

    @classmethod
    def of(cls, problem: Problem) -> Flag:
        return cls(problem.severity.value, problem.code.value, problem.field, problem.message)


def problems(seats: Sequence[Seat], *, akebono: bool, setup: Mapping[str, Any]) -> dict[str, list[Flag]]:
    """Every problem the rules validator finds in what was recorded, by player name ("" for the table), the
    incomplete ones (a wild type, a stack order: only the end can answer them) left out."""
    players = [
        {"name": s.name, "score_track": s.score, "firefighting": s.firefighting, "trade": s.trade}
        | scoring_fields(s)
        for s in seats
    ]
    data = {"expansions": ["akebono"] if akebono else [], "players": players, "setup": dict(setup)}
    try:
        report = validate(read_table(data))
    except InputError as exc:
        return {"": [Flag("error", exc.code, exc.field, exc.message)]}
    found: dict[str, list[Flag]] = {}
    for p in (*report.errors, *report.warnings):
        if p.code not in INCOMPLETE_CODES:
            found.setdefault(p.player or "", []).append(Flag.of(p))
    return found
