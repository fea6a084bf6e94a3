"""What each change of a tracked game does to its rows (issue 5; called by :func:`companion.services.tracker.changes.
apply_change` inside its transaction, the game's row held): the tracks, a record, a reveal, a setup tick, the next
step and undo. Each returns the log's sentence and what undoing it takes; each refusal is raised before the first
write."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from companion.models.games import QUICK_SCORES, SCORE_MAX, SUMMARY_MAX, Change, Game, Seat
from companion.services.tracker import records
from companion.services.tracker.errors import Asked, Refused
from companion.services.tracker.games import setup_steps
from scoring.calendar import NEW_YEAR, TRACK_MAX, due_reveals, move_marker, next_step, reveal_name
from scoring.table import LIST_FIELDS


def seat_in(seats: Sequence[Seat], number: int | None) -> Seat:
    for s in seats:
        if s.seat == number:
            return s
    raise Refused("Choose one of the game's players.")


def _int(value: int | None, what: str, low: int, high: int) -> int:
    if value is None or not low <= value <= high:
        raise Refused(f"{what} must be a whole number from {low} to {high}.")
    return value


def _before(s: Seat) -> dict[str, Any]:
    """A seat's state before a change, for its undo."""
    return {
        "score": s.score,
        "firefighting": s.firefighting,
        "stack": s.stack,
        "trade": s.trade,
        "record": s.record,
    }


SEAT_FIELDS = ["score", "firefighting", "stack", "trade", "record"]


def record(
    game: Game,
    op: str,
    s: Seat,
    seats: Sequence[Seat],
    field: str,
    item: str,
    numbers: Mapping[str, int | None],
    paid: str = "",
    move: bool = False,
) -> tuple[str, dict[str, Any]]:
    """Record what happened to a player (issue 13, item 5); the validator judges it on the next render. A move
    of a component from another player (issue 19) changes that seat too: its undo restores both."""
    before = {x.seat: _before(x) for x in seats}
    others: tuple[Seat, ...] = ()
    try:
        if op == "record-add":
            setup = game.setup if isinstance(game.setup, dict) else {}
            done = records.add(
                s, seats, kind=field, item=item, akebono=game.akebono, setup=setup, paid=paid, move=move
            )
            summary, others = done.summary, done.others
            game.warned = done.warning
        elif op == "record-remove":
            summary = records.remove(s, field=field, item=item)
        elif op == "lost":
            summary = records.lose(s, item=item, how=field or "fire")
        else:
            summary = records.resources(s, numbers)
    except records.RecordRefused as exc:
        raise Refused(str(exc)) from None
    s.save(update_fields=SEAT_FIELDS)  # a gain moved only this seat's marker (on top of its new space)
    for other in others:
        other.save(update_fields=SEAT_FIELDS)
    undo = seat_entry(s.seat, before[s.seat], _before(s))
    if op == "record-remove":  # where the entry stood, so its list keeps the place (issue 23)
        undo["at"] = [field, item, before[s.seat]["record"].get(field, []).index(item)]
    if others:
        undo["others"] = [seat_entry(o.seat, before[o.seat], _before(o)) for o in others]
    return summary[:200], undo


def reveal(game: Game, key: str, who: str) -> tuple[str, dict[str, Any]]:
    """Reveal hidden draws for the table, when the rules say they are due (RULINGS R16-R18), never before; a due
    reveal stays due in every later step until someone reveals it. ``key``: one reveal key, or several separated
    by spaces ("Next" asks to reveal all those not made yet); those another phone revealed meanwhile are skipped."""
    due = due_reveals(game.month, game.phase_enum, game.options, game.setup)
    keys = list(dict.fromkeys(key.split())) or [""]
    if any(k not in due and k not in game.revealed for k in keys):
        raise Refused("That is not revealed yet: the rules reveal it later.")
    new = [k for k in keys if k not in game.revealed]
    if not new:
        raise Refused("Already revealed: every phone shows it.")
    game.revealed = [*game.revealed, *new]
    where = "New Year's Day" if game.month == NEW_YEAR else f"month {game.month}"
    # The log names what was revealed, not the secret: an undo hides it again everywhere.
    summary = f"Revealed {'; '.join(reveal_name(k)[0].replace('The ', 'the ', 1) for k in new)} (by {who} in {where})"
    if len(summary) > SUMMARY_MAX:
        summary = f"Revealed the {len(new)} draws that were due (by {who} in {where})"
    return summary, {"revealed": new[0] if len(new) == 1 else new}


def tick(game: Game, step: str, done: bool) -> tuple[str, dict[str, Any]]:
    steps = setup_steps(game)
    if step not in steps:
        raise Refused("This game's setup has no such step.")
    ticked = set(game.ticks)
    if (step in ticked) == done:
        raise Refused("Already ticked." if done else "Already not ticked.")
    game.ticks = sorted(ticked | {step} if done else ticked - {step})
    verb = "ticked" if done else "unticked"
    return f"Setup: {steps[step]} {verb}", {"tick": step, "done": not done}


def track(op: str, s: Seat, seats: Sequence[Seat], value: int | None) -> tuple[str, dict[str, Any]]:
    before = _before(s)
    if op == "score-add":
        delta = value if value in QUICK_SCORES else None
        if delta is None:
            raise Refused("Choose +1, +2, +3, +5 or -1.")
        if s.score + delta < 0:
            raise Refused(f"{s.name}'s score cannot go below 0.")
        s.score = min(SCORE_MAX, s.score + delta)
        summary = f"{'+' if delta > 0 else ''}{delta} IKI for {s.name} (now {s.score})"
    elif op == "score-set":
        s.score = _int(value, "The score", 0, SCORE_MAX)
        summary = f"{s.name}'s score set to {s.score}"
    elif op in ("fire-add", "fire-set", "fire-top"):
        if op == "fire-add":
            position = min(TRACK_MAX, s.firefighting + 1)
        elif op == "fire-top":
            position = s.firefighting
        else:
            position = _int(value, "The firefighting position", 0, TRACK_MAX)
        moved = {m.seat: m for m in move_marker([x.marker for x in seats], s.seat, position)}
        s.firefighting, s.stack = moved[s.seat].position, moved[s.seat].stack
        summary = {
            "fire-add": f"{s.name} +1 firefighting (now {s.firefighting}, on top)",
            "fire-top": f"{s.name}'s firefighting marker put on top of space {s.firefighting}",
            "fire-set": f"{s.name}'s firefighting marker moved to {s.firefighting} (on top)",
        }[op]
    elif op == "trade-add":
        s.trade = min(TRACK_MAX, s.trade + 1)
        summary = f"{s.name} +1 trade (now {s.trade})"
    else:
        s.trade = _int(value, "The trade position", 0, TRACK_MAX)
        summary = f"{s.name}'s trade marker moved to {s.trade}"
    s.save(update_fields=SEAT_FIELDS)
    return summary, seat_entry(s.seat, before, _before(s), op)


def advance(game: Game) -> tuple[str, dict[str, Any]]:
    before = {"month": game.month, "phase": game.phase, "finished": game.finished}
    if game.finished:
        raise Refused("The game is over: score it.")
    step = next_step(game.month, game.phase_enum)
    if step is None:
        game.finished = True
        summary = "New Year's Day over: the game has ended"
    else:
        game.month, phase = step
        game.phase = phase.value
        where = "New Year's Day" if game.month == 13 else f"month {game.month}"
        summary = f"{where}: {phase.label}"
    return summary, {"game": before}


def reveal_and_advance(game: Game, key: str, who: str) -> tuple[str, dict[str, Any]]:
    """ "Reveal and go on", the answer to what "Next" asks (issue 23: one tap fewer a reveal): reveal the draws
    due (those another phone revealed meanwhile are skipped, RULINGS R16-R18) and move to the next step, as one
    change whose undo hides them again and puts the step back."""
    if game.finished:
        raise Refused("The game is over: score it.")
    if (
        game.month == NEW_YEAR
    ):  # "Next" there ends the game: it stays a change of its own (services/play_time)
        raise Refused("On New Year's Day, reveal first, then end the game.")
    keys = [k for k in dict.fromkeys(key.split()) if k not in game.revealed]
    shown, hidden = reveal(game, " ".join(keys), who) if keys else ("", {})
    moved, back = advance(game)
    summary = f"{shown}; {moved}" if shown else moved
    if len(summary) > SUMMARY_MAX:
        summary = moved if not shown else f"Revealed what was due; {moved}"
    return summary, {**hidden, **back}


UNDOABLE_EXCLUDED = ("undo", "create")
"""Changes that are never undone themselves (an undo of any kind is logged as "undo"; the game's creation)."""

SET_FIELDS: Final[Mapping[str, str]] = {"score-set": "score", "trade-set": "trade"}
"""The track changes that set a number rather than add to it: a later one blocks the undo of an earlier change
of that number (the table then said what the number is)."""
HISTORY_OPS: Final = frozenset({"undo-entry"})


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
    old, new = _record(before), _record(after)
    res = [{k: old.get(k) for k in records.RESOURCES}, {k: new.get(k) for k in records.RESOURCES}]
    if res[0] != res[1]:
        delta["res"] = res
    fields = (*LIST_FIELDS, *records.LEFT_FIELDS)
    added = [
        [field, item]
        for field in fields
        for item, n in (Counter(_items(new, field)) - Counter(_items(old, field))).items()
        for _ in range(n)
    ]
    removed = [
        [field, item, index]
        for field in fields
        for item, index in _gone(_items(old, field), _items(new, field))
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


def _record(state: Mapping[str, Any]) -> Mapping[str, Any]:
    record = state.get("record")
    return record if isinstance(record, dict) else {}


def _items(record: Mapping[str, Any], field: str) -> list[str]:
    items = record.get(field)
    return [str(i) for i in items] if isinstance(items, list) else []


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
        held = _items(record, field)
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
        items = _items(record, field)
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
            for i in _items(changed.get(s.seat, {}).get("record", s.record) or {}, place)
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


def undo(game: Game, seats: Sequence[Seat], target: Change | None = None) -> tuple[str, dict[str, Any]]:
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
    return f"Undid: {last.summary}", {"undid": last.version}
