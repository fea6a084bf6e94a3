"""What a tracked game recorded of each player (issue 13, item 5): cards hired, tokens bought, buildings, boats,
personalities met, retirements, what left the game (characters lost in a fire or not fed, buildings burnt, tokens
spent), and the resources at the end.

Kept on the seat as the scoring table's own fields (``scoring.table.LIST_FIELDS`` and the resources), so "Score
the game" hands them to the walk-through as they are. Each entry is checked against the catalogue when it is made
(an id of the wrong kind is refused) and the whole table goes through the rules validator on every render: an
entry the rules refuse is kept and flagged, as the walk-through does, so the order of entries never deadlocks.

This module holds the record's fields and what reads them; :mod:`~companion.services.tracker.record_add` adds an
entry, :mod:`~companion.services.tracker.record_removals` takes one out (a removal, a loss).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from companion.errors import Refused
from companion.models.games import Seat
from scoring.catalogue import (
    BOAT_BY_ID,
    BUILDING_BY_ID,
    CHARACTER_BY_ID,
    PERSONALITY_BY_ID,
    RETIREMENT_TOKEN_BY_ID,
    TOKEN_BY_ID,
)
from scoring.table import LIST_FIELDS

RESOURCES: Final = ("mon", "koban", "wood", "rice", "sandals")
RESOURCE_MAX: Final = 999
LOST: Final = "lost"
"""Characters killed by a fire: kept apart from ``characters`` (they score nothing), shown in the record."""
UNFED: Final = "unfed"
"""Characters that could not be fed at a Payday and left the game (RULINGS R26): they score nothing."""
BURNT: Final = "burnt"
"""Buildings destroyed by a fire (iki-rulebook.txt "Construction site": "remove the Building card from the
game"): they score nothing and cannot be built again."""
SPENT: Final = "spent"
"""Tokens a cost took out (RULINGS R25) and discarded Doctor tokens (RULINGS R29): out of the player's tokens."""
LEFT_FIELDS: Final = (LOST, UNFED, BURNT, SPENT)
"""What left the game: shown in the record, never scored, still taken from the supply."""
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
    UNFED: "Lost (not fed)",
    BURNT: "Burnt in a fire",
    SPENT: "Spent",
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
    UNFED: CHARACTER_BY_ID,
    BURNT: BUILDING_BY_ID,
    SPENT: {**TOKEN_BY_ID, **RETIREMENT_TOKEN_BY_ID},
}
LEFT_FROM: Final[Mapping[str, tuple[str, ...]]] = {
    "characters": (LOST, UNFED),
    "buildings": (BURNT,),
    "fish": (SPENT,),
    "pipes": (SPENT,),
    "tobacco": (SPENT,),
    "retirement_tokens": (SPENT,),
}
"""Where an entry of a list field goes when it leaves the game: one copy of a component, held or gone."""


class Question(Exception):
    """An entry that needs one more answer (which token paid, whether to move a component held by another
    player): nothing was changed. ``choices``: (button label, the form fields that answer with it)."""

    def __init__(self, text: str, choices: Sequence[tuple[str, Mapping[str, str]]]) -> None:
        super().__init__(text)
        self.text = text
        self.choices = [(label, dict(fields)) for label, fields in choices]


def field_of(kind: str, item: str) -> str:
    """The record field an entry of ``kind`` (a form's ``field``: a list field, or ``tokens`` for fish, pipes and
    tobacco, which the token's printed kind decides) goes to; Refused if ``item`` is not of that kind."""
    if kind == "tokens":
        token = TOKEN_BY_ID.get(item)
        if token is None:
            raise Refused("Choose a fish, pipe or tobacco token.")
        return TOKEN_FIELDS[token.kind.value]
    names = _NAMES.get(kind) if kind in LIST_FIELDS else None
    if names is None:
        raise Refused("Choose what to record.")
    if item not in names or (
        kind in TOKEN_FIELDS.values() and TOKEN_FIELDS[TOKEN_BY_ID[item].kind.value] != kind
    ):
        raise Refused(f"Choose one of the {FIELD_LABELS[kind].lower()}.")
    return kind


def name_of(field: str, item: str) -> str:
    found = _NAMES[field].get(item)
    return str(found.name) if found is not None else item


def entries(seat: Seat) -> dict[str, list[str]]:
    record = seat.record if isinstance(seat.record, dict) else {}
    return {f: [str(i) for i in record.get(f, [])] for f in (*LIST_FIELDS, *LEFT_FIELDS) if record.get(f)}


def supply_of(field: str, item: str) -> int:
    """How many of a component exist (RULINGS R1): two of some retirement tokens, one of everything else."""
    token = RETIREMENT_TOKEN_BY_ID.get(item) if field == "retirement_tokens" else None
    return token.supply if token is not None else 1


def takers(seats: Sequence[Seat], field: str, item: str) -> list[tuple[Seat, str]]:
    """Every copy of ``item`` the table took, held or gone (lost, burnt, spent): (seat, the field it is in)."""
    places = (field, *LEFT_FROM.get(field, ()))
    return [(s, f) for s in seats for f in places for i in entries(s).get(f, []) if i == item]


def available(seats: Sequence[Seat], field: str, item: str) -> bool:
    """Whether one more ``item`` can be recorded: what a picker offers."""
    return len(takers(seats, field, item)) < supply_of(field, item)


def take_out(seat: Seat, field: str, item: str, into: str = "") -> None:
    """Take one ``item`` out of the seat's ``field`` (into ``into``, a field of what left, when given)."""
    record = dict(seat.record)
    rest = list(record.get(field, []))
    rest.remove(item)
    record[field] = rest
    if into:
        record[into] = [*record.get(into, []), item]
    seat.record = record


def scoring_fields(seat: Seat) -> dict[str, Any]:
    """The seat's record as the scoring table's player fields (LIST_FIELDS and the resources)."""
    record = seat.record if isinstance(seat.record, dict) else {}
    fields: dict[str, Any] = {f: list(v) for f, v in entries(seat).items() if f not in LEFT_FIELDS}
    fields.update({k: record[k] for k in RESOURCES if isinstance(record.get(k), int)})
    return fields
