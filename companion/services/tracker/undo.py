"""Undo of a tracked game's changes (issue 23): the last change, this phone's own, or any line of the history
(another phone's after a confirmation), each by its own inverse (companion.services.tracker.inverse); what a later
change standing depends on is refused by name. Called by companion.services.tracker.changes.apply_change inside its
transaction, the game's row held."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from companion.errors import Refused
from companion.models.games import SCORE_MAX, Change, Game, Seat
from companion.services.tracker import records
from companion.services.tracker.errors import Asked
from companion.services.tracker.inverse import items_of
from companion.services.tracker.ops import SEAT_FIELDS, seat_in
from scoring.calendar import TRACK_MAX
from scoring.table import LIST_FIELDS

UNDOABLE_EXCLUDED = ("undo", "create")
"""Changes that are never undone themselves (an undo of any kind is logged as "undo"; the game's creation)."""


UNDID: Final = "Undid: "
"""The head of an undo's log line, before the line of the change it undid (:func:`undo_change`)."""
UNDID_LINE: Final = "line"
"""The key of an undo's data holding the line of the change it undid (issue 23: the answer reads it there)."""


def _seat_entries(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return ([data] if "seat" in data else []) + list(data.get("others", []))


def _marks(change: Change) -> dict[str, str]:
    """What a change touched, each mark with how: ``add`` (a number it added to, an entry it added or took),
    ``set`` (a number it set, a marker it moved, the resources typed), ``all`` (a change logged before undo
    carried its own inverse: its whole seat)."""
    data = change.undo if isinstance(change.undo, dict) else {}
    marks: dict[str, str] = {}
    for each in _seat_entries(data):
        n = each["seat"]
        if "delta" not in each:
            marks[f"{n}:*"] = "all"
            continue
        delta = each["delta"]
        for field in ("score", "trade"):
            if field in delta:
                marks[f"{n}:{field}"] = "set" if field in each.get("set", []) else "add"
        for key in ("fire", "res"):
            if key in delta:
                marks[f"{n}:{key}"] = "set"
        for field, item, *_ in [*delta.get("+", []), *delta.get("-", [])]:
            marks[f"{n}:list:{field}:{item}"] = "add"
    if "game" in data:
        marks["game"] = "set"
    if "revealed" in data:
        shown = data["revealed"] if isinstance(data["revealed"], list) else [data["revealed"]]
        marks.update({f"reveal:{k}": "set" for k in shown})
    if "tick" in data:
        marks[f"tick:{data['tick']}"] = "set"
    return marks


class _Later:
    """The changes standing after the one undone, oldest first, with what each touched (:func:`_marks`)."""

    def __init__(self, changes: Sequence[Change]) -> None:
        self.changes = [(c, _marks(c)) for c in changes]

    def first(self, *keys: str, how: frozenset[str] = frozenset({"add", "set", "all"})) -> Change | None:
        """The newest later change that touched one of ``keys`` in one of the ways ``how``."""
        return next(
            (c for c, marks in reversed(self.changes) if any(marks.get(k) in how for k in keys)), None
        )


_BLOCKING: Final = frozenset({"set", "all"})


def _undo_seat(s: Seat, each: Mapping[str, Any], later: _Later) -> tuple[dict[str, Any], list[list[str]]]:
    """One seat's side of an undo: the fields to write back, and the entries put back (for the supply check).

    The choice, per kind of field, as a careful player expects (issue 23):

    - The score and the trade track are sums of moves: the undo takes back exactly what the change moved (an
      undo of +3 is -3 even after a later +2; a score set from 10 to 20 is taken back as -10), unless a later
      change still standing *set* that number (the table said what it is since), or the result would leave the
      track: then it is refused, naming that change.
    - The firefighting marker is a place (a space and a place in its stack, RULINGS R11/R12): it goes back exactly
      where it stood (a later arrival on that space stays above it, as if it had never left) unless a later change
      moved the same marker; then it is refused, naming that change (the stack would otherwise be a guess).
    - Record entries are taken out or put back one by one (another entry in the same list is no obstacle): refused
      when the entry is no longer where the change put it, or when putting one back would exceed its supply.
    - The resources are typed numbers (a set): refused when they were saved again later.
    """
    n, delta = s.seat, each["delta"]
    later_all = later.first(f"{n}:*")
    if later_all is not None:
        raise Refused(f"A later change touched {s.name}: undo “{later_all.summary}” first.")
    fields: dict[str, Any] = {}
    for field, low, high, words in (
        ("score", 0, SCORE_MAX, "score"),
        ("trade", 0, TRACK_MAX, "trade marker"),
    ):
        if field not in delta:
            continue
        blocking = later.first(f"{n}:{field}", how=_BLOCKING)
        if blocking is not None:
            raise Refused(f"{s.name}'s {words} was set later (“{blocking.summary}”): undo that first.")
        was, now = delta[field]
        value = getattr(s, field) - (now - was)
        if not low <= value <= high:
            since = later.first(f"{n}:{field}")
            raise Refused(
                f"Undoing it would put {s.name}'s {words} at {value}"
                + (f": undo “{since.summary}” first." if since else ".")
            )
        fields[field] = value
    if "fire" in delta:
        moved = later.first(f"{n}:fire")
        if moved is not None:
            raise Refused(
                f"{s.name}'s firefighting marker moved later (“{moved.summary}”): undo that first, so the "
                "stack comes back right."
            )
        fields["firefighting"], fields["stack"] = delta["fire"][0]
    record = dict(s.record) if isinstance(s.record, dict) else {}
    if "res" in delta:
        saved = later.first(f"{n}:res")
        if saved is not None:
            raise Refused(
                f"{s.name}'s resources were saved again later (“{saved.summary}”): undo that first."
            )
        for key, value in delta["res"][0].items():
            if value is None:
                record.pop(key, None)
            else:
                record[key] = value
    for field, item in delta.get("+", []):
        held = items_of(record, field)
        if item not in held:
            since = later.first(f"{n}:list:{field}:{item}")
            where = records.FIELD_LABELS.get(field, field).lower()
            raise Refused(
                f"{records.name_of(field, item)} is no longer in {s.name}'s {where}"
                + (f" (“{since.summary}”): undo that first." if since else ".")
            )
        del held[len(held) - 1 - held[::-1].index(item)]  # the newest copy: a change adds at the end
        record[field] = held
        if not held:
            del record[field]
    back = [[str(f), str(i)] for f, i, *_ in delta.get("-", [])]
    # An entry taken out goes back where it stood (a removed entry's line kept the place meanwhile).
    for field, item, *where in sorted(delta.get("-", []), key=lambda e: e[2] if len(e) > 2 else 0):
        items = items_of(record, field)
        index = int(where[0]) if where else len(items)
        items.insert(min(index, len(items)), str(item))
        record[field] = items
    if "+" in delta or "-" in delta or "res" in delta:
        fields["record"] = record
    return fields, back


def _supply_after(
    seats: Sequence[Seat], changed: Mapping[int, Mapping[str, Any]], back: list[list[str]]
) -> None:
    """An entry put back must not exceed its component's supply (RULINGS R1, R22): another player may have
    recorded the one copy since it left."""
    for field, item in back:
        if field not in LIST_FIELDS:
            continue
        places = (field, *records.LEFT_FROM.get(field, ()))
        holders = [
            s
            for s in seats
            for place in places
            for i in items_of(changed.get(s.seat, {}).get("record", s.record) or {}, place)
            if i == item
        ]
        if len(holders) > records.supply_of(field, item):
            others = ", ".join(dict.fromkeys(h.name for h, _ in records.takers(seats, field, item)))
            raise Refused(
                f"{records.name_of(field, item)} is taken ({others}): there is only one to put back."
            )


def undo_target(game: Game, op: str, who: str, key: str, *, sure: bool = False) -> Change:
    """The change an undo names (issue 23): ``undo-mine`` this phone's newest change standing; ``undo-entry`` the
    change of version ``key`` (a record's Undo, or any line of the history). Another phone's change is undone
    only when the phone confirmed (``sure``): else :class:`Asked` with the question, nothing changed."""
    if op == "undo-mine":
        last = (
            game.changes.filter(who=who, undone=False)
            .exclude(op__in=UNDOABLE_EXCLUDED)
            .order_by("-version")
            .first()
        )
        if last is None:
            raise Refused(f"{who} has nothing to undo.")
        return last
    found = game.changes.filter(version=int(key)).first() if key.isdigit() and len(key) <= 9 else None
    if found is None:
        raise Refused("There is no such change to undo.")
    if found.op in UNDOABLE_EXCLUDED:
        raise Refused("That line is not a change that can be undone.")
    if found.undone:
        raise Refused(f"Already undone: {found.summary}.")
    if found.who != who and not sure:
        raise Asked(
            game,
            records.Question(
                f"Undo {found.who}'s change “{found.summary}”?",
                [("Undo it", {"sure": "1"})],
            ),
        )
    return found


def undo_change(
    game: Game, seats: Sequence[Seat], target: Change | None = None
) -> tuple[str, dict[str, Any]]:
    """Undo ``target`` (any change of the history, issue 23), else the table's last change standing. Each change
    carries its own inverse (:func:`seat_entry`, what it moved field by field; the game's step, its reveals, its
    ticks as they were), so undoing an older change never undoes what came after it: what a later change
    standing depends on is decided per kind of field in :func:`_undo_seat` (taken back exactly, or refused
    naming that later change). A change logged before it carried its inverse holds its seats as they were: it
    is undone only when no later change standing touched those seats."""
    last = (
        target
        or game.changes.filter(undone=False).exclude(op__in=UNDOABLE_EXCLUDED).order_by("-version").first()
    )
    if last is None or last.undone or last.op in UNDOABLE_EXCLUDED:
        raise Refused("There is nothing to undo.")
    data = last.undo
    later = _Later(
        list(
            game.changes.filter(undone=False, version__gt=last.version)
            .exclude(op__in=UNDOABLE_EXCLUDED)
            .order_by("version")
        )
        if target is not None
        else []
    )
    for mark in _marks(last):
        if mark.endswith(":*"):  # logged before changes carried their inverse: its whole seat
            seat = mark[: -len("*")]
            blocking = next(
                (c for c, marks in reversed(later.changes) if any(m.startswith(seat) for m in marks)), None
            )
        elif not mark[0].isdigit():  # the game's step, a reveal, a tick
            blocking = later.first(mark)
        else:
            continue
        if blocking is not None:
            raise Refused(f"A later change touched the same thing: undo “{blocking.summary}” first.")
    changed: dict[int, dict[str, Any]] = {}
    back: list[list[str]] = []
    for each in _seat_entries(data):
        s = seat_in(seats, each["seat"])
        if "delta" in each:
            changed[s.seat], put = _undo_seat(s, each, later)
            back += put
        else:
            changed[s.seat] = dict(each["before"])
    _supply_after(seats, changed, back)
    # Every refusal is above: now write.
    if "game" in data:
        for field in ("month", "phase", "finished"):
            setattr(game, field, data["game"][field])
    for number, fields in changed.items():
        s = seat_in(seats, number)
        for field, value in fields.items():
            setattr(s, field, value)
        if fields:
            s.save(update_fields=[f for f in SEAT_FIELDS if f in fields])
    if "revealed" in data:
        hidden = data["revealed"] if isinstance(data["revealed"], list) else [data["revealed"]]
        game.revealed = [k for k in game.revealed if k not in hidden]
    if "tick" in data:
        ticked = set(game.ticks)
        game.ticks = sorted(ticked | {data["tick"]} if data["done"] else ticked - {data["tick"]})
    last.undone = True
    last.save(update_fields=["undone"])
    return f"{UNDID}{last.summary}", {"undid": last.version, UNDID_LINE: last.summary}
