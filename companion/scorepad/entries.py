"""Every entry of the walk-through has one typed name, :class:`EntryKey`: the one place its html id is made and
parsed, and where a validator problem's ``field`` (``players[1].fish[0]``) is turned into the entry it names.

:func:`parse_entries` reads a step's form into :class:`EntryChange` s, or raises
:class:`BadEntry` with a message for a request no page of ours sends (answered 400, nothing saved).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from companion.errors import UserError
from companion.forms import whole_number
from companion.models.scoresheets import MAX_NUMBER
from scoring.components import CHAR_TYPES
from scoring.errors import InputError, quote
from scoring.table import LIST_FIELDS, LIST_KIND, NUMBER_FIELDS, check_id

#: A player's number fields as the pad names them.
NUMBER_LABELS: Final = {
    "score_track": "IKI on the score track",
    "mon": "Mon",
    "koban": "Koban",
    "wood": "Wood",
    "rice": "Rice",
    "sandals": "Sandals",
    "firefighting": "Firefighting space",
    "trade": "Trade space",
}
WILD: Final = "wild_types"
STACK: Final = "stack"
NAME: Final = "name"

_NUMBER_ID: Final = re.compile(r"^p(\d)-([a-z_]+)$")
_LIST_ID: Final = re.compile(rf"^p(\d)-({'|'.join(LIST_FIELDS)})-([a-z0-9-]+)$")
_WILD_ID: Final = re.compile(r"^wild-p(\d)-([a-z0-9-]+)$")
_STACK_ID: Final = re.compile(r"^stack-p(\d)$")
_PROBLEM_FIELD: Final = re.compile(r"^players\[(\d+)\]\.([a-z_]+)(?:\[(\d+)\]|\.([A-Za-z0-9-]+))?$")


@dataclass(frozen=True, slots=True, order=True)
class EntryKey:
    """One entry of one player: a number (``field``), one component of a list (``field``, ``item``), the chosen
    type of a wild card (``wild_types``, card), the player's stack place (``stack``), or the player as a whole
    (``name``: problems of the whole column)."""

    player: int
    field: str
    item: str = ""

    @property
    def html_id(self) -> str:
        if self.field == WILD:
            return f"wild-p{self.player}-{self.item}"
        if self.field == STACK:
            return f"stack-p{self.player}"
        if self.item:
            return f"p{self.player}-{self.field}-{self.item}"
        return f"p{self.player}-{self.field}"

    @classmethod
    def parse(cls, html_id: str) -> EntryKey | None:
        """The entry an html id names; None for anything else."""
        if m := _LIST_ID.match(html_id):
            return cls(int(m[1]), m[2], m[3])
        if m := _WILD_ID.match(html_id):
            return cls(int(m[1]), WILD, m[2])
        if m := _STACK_ID.match(html_id):
            return cls(int(m[1]), STACK)
        if m := _NUMBER_ID.match(html_id):
            return cls(int(m[1]), m[2])
        return None

    @classmethod
    def of_problem(cls, field: str, players: Sequence[Mapping[str, Any]]) -> EntryKey | None:
        """The entry a validator problem's ``field`` names (``players[1].fish[0]`` -> the 2nd player's first
        fish, as stored in ``players``); None for a field of the table (the setup, the stack order)."""
        m = _PROBLEM_FIELD.match(field)
        if not m:
            return None
        i, key, index, sub = int(m[1]), m[2], m[3], m[4]
        if key == WILD and sub:
            return cls(i, WILD, sub)
        if index is not None and key in LIST_FIELDS:
            items = players[i].get(key, []) if i < len(players) else []
            if int(index) < len(items):
                return cls(i, key, str(items[int(index)]))
        return cls(i, key)


EntryOp = Literal["set", "bump", "add", "remove", "wild", "stack"]
"""What an :class:`EntryChange` does (its docstring says each)."""


@dataclass(frozen=True, slots=True)
class EntryChange:
    """One entry made on a step.

    ``op`` is one of: ``set`` (a number field to ``value``), ``bump`` (a number field by ``value``), ``add`` /
    ``remove`` (one ``item`` of a list field), ``wild`` (the chosen type ``item`` of the card ``field``, "" to
    clear), ``stack`` (the player's firefighting stack rank ``value``, -1 to clear).
    """

    op: EntryOp
    player: int
    field: str = ""
    item: str = ""
    value: int = 0


class BadEntry(UserError):
    """A request no form of these pages sends: answered 400 with the message, nothing saved."""


def _player(raw: str, count: int) -> int:
    index = whole_number(raw)
    if index is None or not 0 <= index < count:
        raise BadEntry(f"There is no player number {quote(raw)} on this sheet.")
    return index


def _int(raw: str, what: str) -> int:
    if not raw.strip():
        return 0
    value = whole_number(raw)
    if value is None:
        raise BadEntry(f"{what}: enter a whole number, not {quote(raw)}.")
    if abs(value) > MAX_NUMBER:
        raise BadEntry(f"{what}: {value} is far beyond anything a game of IKI reaches.")
    return value


def _check_item(list_name: str, item: str) -> None:
    if list_name not in LIST_KIND:
        raise BadEntry(f"{quote(list_name)} is not something a player holds.")
    try:
        check_id(item, LIST_KIND[list_name], list_name)
    except InputError as exc:
        raise BadEntry(exc.message) from None


def _changed(key: str, value: str, names: Sequence[str]) -> EntryChange | None:
    """The change a number or a choice of the form makes (its ``was-`` twin says what the page showed)."""
    entry = EntryKey.parse(key)
    if entry is None:
        return None
    i = _player(str(entry.player), len(names))
    if entry.field == WILD:
        _check_item("characters", entry.item)
        if value and value not in {t.value for t in CHAR_TYPES}:
            raise BadEntry(f"{quote(value)} is not a character type.")
        return EntryChange("wild", i, entry.item, item=value)
    if entry.field == STACK:
        rank = _int(value, f"{names[i]}'s place in the stack") - 1 if value else -1
        return EntryChange("stack", i, value=max(rank, -1))
    if entry.item:
        return None
    if entry.field not in NUMBER_FIELDS:
        raise BadEntry(f"{quote(entry.field)} is not a number on the score pad.")
    return EntryChange("set", i, entry.field, value=_int(value, f"{names[i]}'s {NUMBER_LABELS[entry.field]}"))


def parse_entries(post: Mapping[str, str], names: Sequence[str]) -> list[EntryChange]:
    """The entries a step's form carries: the numbers and choices changed since the page showed them (only what
    this person changed, so two phones never write back each other's stale values), then the pressed button.

    A −/+ is never refused for the number in its own box: a typed number there that cannot be saved (refused when
    it was typed, and still shown) is let go, and the tap counts from the saved number."""
    pressed = parse_op(op, post, names) if (op := post.get("op", "")) else None
    bumped = EntryKey(pressed.player, pressed.field).html_id if pressed and pressed.op == "bump" else None
    changes = []
    for key, value in post.items():
        was = post.get(f"was-{key}")
        if key.startswith("was-") or was is None or was == value:
            continue
        try:
            change = _changed(key, value, names)
        except BadEntry:
            if key == bumped:
                continue
            raise
        if change is not None:
            changes.append(change)
    return [*changes, pressed] if pressed else changes


def parse_op(op: str, post: Mapping[str, str], names: Sequence[str]) -> EntryChange:
    """A pressed button: ``add|i|list|item``, ``remove|i|list|item``, ``bump|i|field|step``, ``pick|i|group``
    (the card chosen in the group's list)."""
    kind, *parts = op.split("|")
    if kind in {"add", "remove"} and len(parts) == 3:
        i = _player(parts[0], len(names))
        _check_item(parts[1], parts[2])
        return EntryChange("add" if kind == "add" else "remove", i, parts[1], item=parts[2])
    if kind == "pick" and len(parts) == 2:
        i = _player(parts[0], len(names))
        item = post.get(f"pick-p{i}-{parts[1]}", "")
        if not item:
            raise BadEntry("Choose a card in the list first, then press Add.")
        _check_item("characters", item)
        return EntryChange("add", i, "characters", item=item)
    if kind == "bump" and len(parts) == 3:
        i = _player(parts[0], len(names))
        if parts[1] not in NUMBER_FIELDS:
            raise BadEntry(f"{quote(parts[1])} is not a number on the score pad.")
        return EntryChange("bump", i, parts[1], value=_int(parts[2], "step"))
    raise BadEntry("This button is not one of the score pad's.")


def entries_of(changes: Sequence[EntryChange]) -> list[EntryKey]:
    """The entries a set of changes touched (an unnamed character or a retirement token is a counter)."""
    out = []
    for ch in changes:
        if ch.op in ("set", "bump"):
            out.append(EntryKey(ch.player, ch.field))
        elif ch.op in ("add", "remove"):
            out.append(EntryKey(ch.player, ch.field, ch.item))
        elif ch.op == "wild":
            out.append(EntryKey(ch.player, WILD, ch.field))
        elif ch.op == "stack":
            out.append(EntryKey(ch.player, STACK))
    return out
