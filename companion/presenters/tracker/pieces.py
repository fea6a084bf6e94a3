"""Which pieces of a tracked game's ``#state`` (games.html) a change can alter, so that a render names those alone
(companion.live.engine.Pieces ``only``/``through``; docs/sync.md): the answer to a track tap
(companion.views.tracker.writes) and a pull after track taps (companion.views.tracker.pages)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Final

from companion.live.engine import PULL_SINCE_MAX
from companion.models.games import Change, Game, Seat
from companion.presenters.tracker.record_picker import flags_of
from companion.presenters.tracker.state import trade_income_shown
from companion.services.tracker.games import seats_of

#: The taps that add to a seat's track (+N IKI, F+1, T+1): their answer renders only what they can change.
TRACK_ADDS: Final = frozenset({"score-add", "fire-add", "trade-add"})
#: The wrappers of #state whose pieces a track tap names one by one (companion.live.engine.Pieces ``through``):
#: the exact values, whose own markup (each player's name and colour) no track tap changes, and the log, whose
#: one new line is sent alone (live.js puts it first in its list, ``data-live-in``, and drops the line that is no
#: longer among the last LOG_ON_PAGE versions): the lines before it do not change with a track tap.
THROUGH: Final = frozenset({"part-exact", "part-log"})
#: The set form of the exact values a track tap moves (games.html, ``part-set-<track>-<seat>``).
_SET_FORM: Final = {"score-add": "part-set-score", "fire-add": "part-set-fire", "trade-add": "part-set-trade"}


def after_track(game: Game, op: str, seat: int, version: int, seats: Sequence[Seat]) -> set[str]:
    """The named pieces a +N on ``seat``'s track (change ``version``) can change, whatever the page shows: the
    seat's row, "Undo last" waking, the seat's set form of that track (the exact values' wrapper is passed
    through, :data:`THROUGH`: the other players' forms are not rendered; the answer slots in it always are), after
    F+1 every player's "On top" (the stacks of the space left and the space reached) and the order of play, after
    T+1 the month while it lists the trade income, and the log's new line."""
    only = {f"part-row-{seat}", "part-controls", f"{_SET_FORM[op]}-{seat}", f"change-{version}"}
    if op == "fire-add":
        only |= {"part-order", *(f"part-top-{s.seat}" for s in seats)}
    if op == "trade-add" and trade_income_shown(game):
        only.add("part-month")
    return only


def changed_since(game: Game, seen: int | None) -> frozenset[str] | None:
    """For a pull of a page showing version ``seen``: the named pieces the changes after it can alter (each of
    them a track tap: :func:`after_track`; the record section when its flags, which read the tracks, differ from
    those of the tracks the page shows); None (every piece) when the page holds none, is too far behind, the game is over, or any change since is of another kind
    (an undo, a record, the next phase...): those render everything, as before."""
    if seen is None or game.finished or not 0 < game.version - seen <= PULL_SINCE_MAX:
        return None
    changes = list(
        Change.objects.filter(game=game, version__gt=seen).order_by().values_list("version", "op", "undo")
    )
    if len(changes) != game.version - seen:
        return None
    only: set[str] = set()
    seats = seats_of(game)
    for version, op, undo in changes:
        seat = undo.get("seat") if isinstance(undo, dict) else None
        if op not in TRACK_ADDS or not isinstance(seat, int):
            return None
        only |= after_track(game, op, seat, version, seats)
    shown = _tracks_before(seats, [undo for _, _, undo in changes])
    if game.scoresheet_id is None and flags_of(game, shown) != flags_of(game, seats):
        only.add("part-records")
    return frozenset(only)


def _tracks_before(seats: Sequence[Seat], undos: Sequence[dict[str, Any]]) -> list[Seat]:
    """The seats with their tracks as they stood before the track taps whose undo data are ``undos`` (each
    change's own inverse, companion.services.tracker.inverse.seat_entry): what the page's record flags read."""
    then = {s.seat: copy.copy(s) for s in seats}
    for undo in reversed(undos):
        seat, delta = then[undo["seat"]], undo.get("delta", {})
        if "score" in delta:
            seat.score = delta["score"][0]
        if "trade" in delta:
            seat.trade = delta["trade"][0]
        if "fire" in delta:
            seat.firefighting = delta["fire"][0][0]
    return list(then.values())
