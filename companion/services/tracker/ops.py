"""What each change of a tracked game does to its rows (issue 5; called by :func:`companion.services.tracker.changes.
apply_change` inside its transaction, the game's row held): the tracks, a record, a reveal, a setup tick, the next
step (undo is companion.services.tracker.undo). Each returns the log's sentence and what undoing it takes; each
refusal is raised before the first write."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from companion.errors import Refused
from companion.models.games import QUICK_SCORES, SCORE_MAX, SUMMARY_MAX, Game, Seat
from companion.services.tracker import new_year, record_add, record_removals
from companion.services.tracker.games import setup_steps
from companion.services.tracker.inverse import seat_entry
from scoring.calendar import NEW_YEAR, TRACK_MAX, Phase, due_reveals, move_marker, next_step, reveal_name


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
WHOM: Final = "whom"
"""The key of a record change's data naming the player it happened to (issue 23: the answer names who did what
from the facts stored, not by reading the log's line back)."""
TITLE: Final = "title"
"""The key of a tick's data naming the step's title (issue 23, as :data:`WHOM`)."""

TrackOp = Literal["score-add", "score-set", "fire-add", "fire-set", "fire-top", "trade-add", "trade-set"]
"""A change of one seat's tracks (:func:`track`)."""
RecordOp = Literal["record-add", "record-remove", "lost", "resources"]
"""A change of one seat's record (:func:`record`)."""
Op = Literal[
    TrackOp, RecordOp, "next", "reveal-next", "reveal", "tick", "untick", "undo", "undo-mine", "undo-entry"
]
"""A change a phone can ask of a tracked game (companion.services.tracker.changes sorts them by kind)."""


def record(
    game: Game,
    op: RecordOp,
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
    if op == "record-add":
        setup = game.setup if isinstance(game.setup, dict) else {}
        done = record_add.add(
            s,
            seats,
            kind=field,
            item=item,
            akebono=game.akebono,
            setup=setup,
            month=game.month,
            revealed=game.revealed,
            paid=paid,
            move=move,
        )
        summary, others = done.summary, done.others
        game.warned = done.warning
    elif op == "record-remove":
        summary = record_removals.remove(s, field=field, item=item)
    elif op == "lost":
        summary = record_removals.lose(s, item=item, how=field or "fire")
    else:
        summary = new_year.resources(s, numbers)
    s.save(update_fields=SEAT_FIELDS)  # a gain moved only this seat's marker (on top of its new space)
    for other in others:
        other.save(update_fields=SEAT_FIELDS)
    undo = seat_entry(s.seat, before[s.seat], _before(s))
    if op == "record-remove":  # where the entry stood, so its list keeps the place (issue 23)
        undo["at"] = [field, item, before[s.seat]["record"].get(field, []).index(item)]
    if others:
        undo["others"] = [seat_entry(o.seat, before[o.seat], _before(o)) for o in others]
    undo[WHOM] = s.name  # whom it happened to, for the answer that names who did it (issue 23)
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
    where = month_name(game.month)
    # The log names what was revealed, not the secret: an undo hides it again everywhere.
    summary = f"Revealed {revealed_names(new)} (by {who} in {where})"
    if len(summary) > SUMMARY_MAX:
        summary = f"Revealed the {len(new)} draws that were due (by {who} in {where})"
    return summary, {"revealed": new[0] if len(new) == 1 else new}


def month_name(month: int) -> str:
    """A month as the log and the answers name it: "month 3", "New Year's Day"."""
    return "New Year's Day" if month == NEW_YEAR else f"month {month}"


def step_name(month: int, phase: Phase) -> str:
    """A step of the game as the log and the answers name it: "month 2, Phase A · Way of Life", "New Year's Day"."""
    return month_name(month) + ("" if month == NEW_YEAR else f", {phase.label}")


def revealed_names(keys: Sequence[str]) -> str:
    """The draws ``keys`` as the log names them (never their secret): "the New Character of month 1; …"."""
    return "; ".join(reveal_name(k)[0].replace("The ", "the ", 1) for k in keys)


TICK_SUMMARY: Final = "Setup: {title} {verb}"
"""The log's line of a setup tick (``verb``: "ticked" or "unticked"); :func:`tick_title` reads the title back."""


def tick_title(summary: str, verb: str) -> str:
    """The step title a tick's log line names (:data:`TICK_SUMMARY`), for the answer that names who ticked it: a
    tick saved before its data held the title (:data:`TITLE`)."""
    head, _, tail = TICK_SUMMARY.partition("{title}")
    return summary.removeprefix(head).removesuffix(tail.format(verb=verb))


def tick(game: Game, step: str, done: bool) -> tuple[str, dict[str, Any]]:
    steps = setup_steps(game)
    if step not in steps:
        raise Refused("This game's setup has no such step.")
    ticked = set(game.ticks)
    if (step in ticked) == done:
        raise Refused("Already ticked." if done else "Already not ticked.")
    game.ticks = sorted(ticked | {step} if done else ticked - {step})
    verb = "ticked" if done else "unticked"
    data = {"tick": step, "done": not done, TITLE: steps[step]}
    return TICK_SUMMARY.format(title=steps[step], verb=verb), data


def _at_end(op: TrackOp, s: Seat, seats: Sequence[Seat]) -> str | None:
    """Why a +1 on a track would change nothing (the marker is already at the track's end, RULINGS R11), as the
    player reads it; None when it moves. A firefighting marker at the end that is not on top of its stack still
    moves (to the top: base "Fire tower"), so only the top marker there is refused. The tapping phone showed the
    +1 at once: refused, it takes it back (docs/sync.md), where a do-nothing 200 left 11 on its screen."""
    if op == "trade-add" and s.trade >= TRACK_MAX:
        return f"{s.name}'s trade marker is already at {TRACK_MAX}, the end of the track."
    if op == "fire-add" and s.firefighting >= TRACK_MAX:
        others = [x.stack for x in seats if x.seat != s.seat and x.firefighting == s.firefighting]
        if all(stack < s.stack for stack in others):
            return f"{s.name}'s firefighting marker is already at {TRACK_MAX}, on top: it goes no higher."
    return None


def track(op: TrackOp, s: Seat, seats: Sequence[Seat], value: int | None) -> tuple[str, dict[str, Any]]:
    """Move one player's marker or score. A +N that would change nothing (already at the end) is refused before
    any write, so nothing is logged; one that would pass the end stops there (+5 from 997 lands on 999)."""
    before = _before(s)
    at_end = _at_end(op, s, seats)
    if at_end is not None:
        raise Refused(at_end)
    if op == "score-add":
        delta = value if value in QUICK_SCORES else None
        if delta is None:
            raise Refused("Choose +1, +2, +3, +5 or -1.")
        if s.score + delta < 0:
            raise Refused(f"{s.name}'s score cannot go below 0.")
        if delta > 0 and s.score >= SCORE_MAX:
            raise Refused(f"{s.name}'s score cannot go above {SCORE_MAX}.")
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
        summary = f"{month_name(game.month)}: {phase.label}"
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
