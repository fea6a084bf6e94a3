"""What undoing a change of a tracked game takes (issue 23): each change carries its own inverse, field by field,
never a snapshot of the seat (:func:`seat_entry`, made by the ops of companion.services.tracker.ops and applied by
companion.services.tracker.undo)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from companion.services.tracker import records
from scoring.table import LIST_FIELDS

SET_FIELDS: Final[Mapping[str, str]] = {"score-set": "score", "trade-set": "trade"}
"""The track changes that set a number rather than add to it: a later one blocks the undo of an earlier change
of that number (the table then said what the number is)."""


def seat_entry(
    number: int, before: Mapping[str, Any], after: Mapping[str, Any], op: str = ""
) -> dict[str, Any]:
    """What undoing one change takes on one seat (issue 23): the change's own inverse, field by field, never a
    snapshot of the seat. ``score``/``trade`` [before, after]; ``fire`` [[position, stack] before, after];
    ``res`` the resources [before, after]; ``+``/``-`` the record entries ([field, item]) it added and took away;
    ``set`` the numbers it set rather than added to (:data:`SET_FIELDS`)."""
    delta: dict[str, Any] = {}
    for field in ("score", "trade"):
        if before[field] != after[field]:
            delta[field] = [before[field], after[field]]
    if (before["firefighting"], before["stack"]) != (after["firefighting"], after["stack"]):
        delta["fire"] = [[before["firefighting"], before["stack"]], [after["firefighting"], after["stack"]]]
    old, new = record_of(before), record_of(after)
    res = [{k: old.get(k) for k in records.RESOURCES}, {k: new.get(k) for k in records.RESOURCES}]
    if res[0] != res[1]:
        delta["res"] = res
    fields = (*LIST_FIELDS, *records.LEFT_FIELDS)
    added = [
        [field, item]
        for field in fields
        for item, n in (Counter(items_of(new, field)) - Counter(items_of(old, field))).items()
        for _ in range(n)
    ]
    removed = [
        [field, item, index]
        for field in fields
        for item, index in _gone(items_of(old, field), items_of(new, field))
    ]
    if added:
        delta["+"] = added
    if removed:
        delta["-"] = removed
    entry: dict[str, Any] = {"seat": number, "delta": delta}
    if op in SET_FIELDS:
        entry["set"] = [SET_FIELDS[op]]
    return entry


def _gone(old: list[str], new: list[str]) -> list[tuple[str, int]]:
    """The entries of ``old`` that ``new`` no longer holds, with their places in ``old`` (a change takes entries
    out and adds at the end, so what is left keeps its order)."""
    left = Counter(new)
    gone = []
    for index, item in enumerate(old):
        if left[item]:
            left[item] -= 1
        else:
            gone.append((item, index))
    return gone


def record_of(state: Mapping[str, Any]) -> Mapping[str, Any]:
    record = state.get("record")
    return record if isinstance(record, dict) else {}


def items_of(record: Mapping[str, Any], field: str) -> list[str]:
    items = record.get(field)
    return [str(i) for i in items] if isinstance(items, list) else []
