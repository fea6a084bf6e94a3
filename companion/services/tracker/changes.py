"""A change of a tracked game (issue 5, docs/sync.md): one transaction holding the game's row (``select_for_update``
on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` serialises writers, see companion/settings.py). Additive changes (+3 IKI)
are applied to the value read under that lock, so two simultaneous taps both land. "Set" changes (a position, the
next phase, undo) carry the version the phone saw; a stale version raises :class:`Conflict` and nothing changes.

:func:`hold` is a write's one read (the game, its seats, its stored answer, its last changes); :func:`apply_change`
applies the change (companion.services.tracker.ops) and logs it."""

from __future__ import annotations

import contextlib
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.db import connection, models, transaction
from django.db.models import Aggregate, JSONField, OuterRef, Subquery
from django.db.models.functions import JSONObject

from companion.errors import Conflict, Refused
from companion.models.games import CLIENT_ID_RE, Change, Game, Seat
from companion.services.tracker import new_year, ops, records
from companion.services.tracker.errors import Asked, Replayed
from companion.services.tracker.ops import Op, RecordOp, TrackOp
from companion.services.tracker.undo import undo_change, undo_target
from scoring.calendar import Phase, next_step

if TYPE_CHECKING:
    from typing_extensions import TypeIs  # typing's own from Python 3.13

ADDITIVE_OPS: frozenset[Op] = frozenset({"score-add", "fire-add", "trade-add", "record-add"})
"""Changes applied to the values read under the lock: a replayed one lands as it is."""
SET_OPS: frozenset[Op] = frozenset(
    {"score-set", "fire-set", "fire-top", "trade-set", "next", "reveal-next", "undo", "resources"}
)
STEP_OPS: tuple[Op, ...] = ("next", "reveal-next")
"""The changes that move the table to its next step (``reveal-next`` reveals what is due first)."""
TABLE_OPS: frozenset[Op] = frozenset(
    {"reveal", "tick", "untick", "record-remove", "lost", "undo-mine", "undo-entry"}
)
"""Changes that are the same whoever makes them first (a reveal, a tick, removing one named entry); no version is
needed: made twice, the second is refused with a sentence."""
OPS = ADDITIVE_OPS | SET_OPS | TABLE_OPS
SEAT_OPS: frozenset[TrackOp] = frozenset(
    {"score-add", "score-set", "fire-add", "fire-set", "fire-top", "trade-add", "trade-set"}
)
RECORD_OPS: frozenset[RecordOp] = frozenset({"record-add", "record-remove", "lost", "resources"})
OWN_UNDO_OPS: frozenset[Op] = frozenset({"undo-mine", "undo-entry"})
"""A phone's own undo (issue 23): ``undo-mine`` its newest change standing, ``undo-entry`` the change of version
``key`` (the Undo beside a record's answer, or any line of the history; another phone's only with ``sure``). No
version is needed: what it undoes is named, and refused when a later change standing depends on it
(companion.services.tracker.undo.undo_change)."""
UNDO_OPS = OWN_UNDO_OPS | {"undo"}


def is_op(op: str) -> TypeIs[Op]:
    """Whether ``op`` is one of the changes :func:`apply_change` makes (narrowing a form's text to :data:`Op`)."""
    return op in OPS


def _step(month: int, phase: str) -> str:
    """A step as a step change is made against ("1A", "13new-year"): :func:`seen_value` and :func:`moved_on`."""
    return f"{month}{phase}"


def seen_value(game: Game, op: str, seat: Seat | None) -> str | None:
    """What a set change is made against (the phone sends it back as ``was``): the value it replaces. A stale
    version with the same ``was`` is no conflict (another player's +1 meanwhile does not stop a Set); a different
    ``was`` is one. Undo has none: it undoes the change the phone saw, so only the version counts."""
    if op in STEP_OPS:
        return _step(game.month, game.phase)
    if seat is None:
        return None
    return {
        "score-set": str(seat.score),
        "fire-set": str(seat.firefighting),
        "fire-top": f"{seat.firefighting}.{seat.stack}",
        "trade-set": str(seat.trade),
        "resources": new_year.resources_seen(seat),
    }.get(op)


SCORED = "The game is being scored: change the numbers on the score sheet."


def moved_on(game: Game, was: str | None) -> bool:
    """Whether a step change made from ``was`` ("1A") came after more than the one step another phone took: "Apply
    it anyway" after a conflict applies a Next on top of that step (skipping a phase, as it says), never on a game
    that has gone further since (a note answered months later would skip whatever phase the table is playing)."""
    now = seen_value(game, "next", None)
    m = re.fullmatch(r"(\d+)(\D.*)", was or "")
    if m is None or was == now:
        return False
    try:
        after = next_step(int(m[1]), Phase(m[2]))
    except ValueError:  # not a step of the game
        return True
    return after is None or _step(after[0], after[1].value) != now


@dataclass
class Held:
    """A game and its seats read and locked by a write's first query (:func:`hold`), with the id of the write's
    stored answer when it is a replay (companion.live.engine.stored_id)."""

    game: Game
    seats: list[Seat]
    can_edit: bool
    stored: int | None


def hold(token: str, *, stored: Any = None, log: int = 0) -> Held | None:
    """Inside a write's transaction: the game of an edit or view token, its seats, (``stored``, an annotation
    naming ``game_id``) the write's stored answer and its ``log`` last changes (left on ``game.recent``), in one
    query holding the game's row until the write is stored; None when there is no such game."""
    rows = Seat.objects.select_related("game").select_for_update()
    rows = rows.filter(models.Q(game__edit_token=token) | models.Q(game__view_token=token))
    if log:
        rows = rows.annotate(log=_last_changes(log))
    seats = list(rows.annotate(stored=stored) if stored is not None else rows)
    if not seats:
        return None
    game = seats[0].game
    for s in seats:
        s.game = game
    game.seat_list = seats
    if log:
        last = sorted(
            (_change_of(game, row) for row in getattr(seats[0], "log", None) or []), key=lambda c: -c.version
        )
        # The newest change is the game's version, unless the read waited for another write's lock (PostgreSQL:
        # the row is then as that write left it, its subquery from before): then the log is read again when shown.
        game.recent = last if last and last[0].version == game.version else None
    found = getattr(seats[0], "stored", None)
    return Held(game, seats, secrets.compare_digest(game.edit_token, token), found)


_CHANGE_FIELDS = ("id", "version", "at", "who", "op", "summary", "undo", "undone", "client_id")


class _JSONRows(Aggregate):
    """Its rows' JSON objects as one JSON array, in no particular order."""

    function = "JSON_GROUP_ARRAY"  # SQLite
    output_field = JSONField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_AGG", **extra)


def _last_changes(n: int) -> Subquery:
    """The changes of the game's last ``n`` versions (a change per version, numbered from its creation) as one JSON
    array: a column of the write's one read (:func:`hold`). One subquery, where one per change cost the ORM
    about 0.7 ms each to build and compile per tap (the database's own work is a fraction of that)."""
    rows = Change.objects.filter(game_id=OuterRef("game_id"), version__gt=OuterRef("game__version") - n)
    listed = (
        rows.order_by()
        .values("game_id")
        .annotate(rows=_JSONRows(JSONObject(**{f: f for f in _CHANGE_FIELDS})))
    )
    return Subquery(listed.values("rows"), output_field=JSONField())


def _change_of(game: Game, row: Mapping[str, Any]) -> Change:
    """A change read as JSON (:func:`_last_changes`): SQLite gives its time as naive UTC text, its undo as text and
    its flag as 0/1; PostgreSQL an ISO time with its offset, the undo as an object and a boolean."""
    at = datetime.fromisoformat(str(row["at"]))
    undo = json.loads(row["undo"]) if isinstance(row["undo"], str) else row["undo"]
    return Change(
        id=row["id"],
        game=game,
        version=row["version"],
        at=at if at.tzinfo is not None else at.replace(tzinfo=UTC),
        who=row["who"],
        op=row["op"],
        summary=row["summary"],
        undo=undo,
        undone=bool(row["undone"]),
        client_id=row["client_id"],
    )


def apply_change(
    *,
    game_id: int,
    held: Held | None = None,
    op: str,
    who: str,
    seat: int | None = None,
    value: int | None = None,
    seen: int | None = None,
    was: str | None = None,
    key: str | None = None,
    field: str = "",
    numbers: Mapping[str, int | None] | None = None,
    client_id: str | None = None,
    paid: str = "",
    move: bool = False,
    sure: bool = False,
) -> Game:
    """Apply one change in one transaction; returns the fresh game. ``held``: the game and seats the caller's
    transaction already read and locked (:func:`hold`), else those of ``game_id`` are. Raises Refused, Conflict, Replayed or Asked
    (nothing saved). ``client_id``: the phone's id of this write, applied once (a replay raises Replayed).
    ``paid``/``move``: a record's answers to the question it asked (Asked). A record's warning (immediate IKI
    below 0) is left on ``game.warned``."""
    if not is_op(op):
        raise Refused("Unknown change.")
    if client_id is not None and not CLIENT_ID_RE.fullmatch(client_id):
        raise Refused("The change's id is not one this app makes.")
    # Inside a write's transaction (companion.live.engine.once) the change joins it, with no savepoint of its own:
    # every refusal below is raised before the first write, so nothing is left half done.
    joined = connection.in_atomic_block
    with contextlib.nullcontext() if joined else transaction.atomic():
        # The game's row and its seats in one query, held until the change is stored (or read so by the caller).
        if held is None:
            seats = list(Seat.objects.select_related("game").select_for_update().filter(game_id=game_id))
            if not seats:
                raise Refused("There is no such game.")
            game = seats[0].game
            for s in seats:
                s.game = game
        else:
            game, seats = held.game, held.seats
        if client_id and game.changes.filter(client_id=client_id).exists():
            raise Replayed(game)
        if game.scoresheet_id is not None:
            # The score sheet took the tracks and records when it was opened: a change here (an undo reopening the
            # game, then a track moved) would never reach it.
            raise Refused(SCORED)
        if op in SET_OPS and seen != game.version:
            target = next((s for s in seats if s.seat == seat), None)
            if was is None or was != seen_value(game, op, target) or op == "undo":
                raise Conflict()
        if op in STEP_OPS and moved_on(game, was):
            raise Refused(
                "The game has moved on since that tap: it is "
                f"{ops.step_name(game.month, game.phase_enum)} now. Nothing was changed."
            )
        if op == "undo":
            summary, undo = undo_change(game, seats)
        elif op in OWN_UNDO_OPS:
            # ``sure``: the phone confirmed undoing another phone's change (issue 23).
            summary, undo = undo_change(game, seats, undo_target(game, op, who, key or "", sure=sure))
        elif op == "next":
            summary, undo = ops.advance(game)
        elif op == "reveal-next":
            summary, undo = ops.reveal_and_advance(game, key or "", who)
        elif op == "reveal":
            summary, undo = ops.reveal(game, key or "", who)
        elif op in ("tick", "untick"):
            summary, undo = ops.tick(game, key or "", op == "tick")
        elif op in RECORD_OPS:
            try:
                summary, undo = ops.record(
                    game, op, ops.seat_in(seats, seat), seats, field, key or "", numbers or {}, paid, move
                )
            except records.Question as question:
                raise Asked(game, question) from None
        else:
            assert op in SEAT_OPS, op  # every other op has its branch above
            if game.finished:
                raise Refused("The game is over: the tracks are closed.")
            summary, undo = ops.track(op, ops.seat_in(seats, seat), seats, value)
        game.version += 1
        game.save(update_fields=["version", "month", "phase", "finished", "revealed", "ticks"])
        made = Change.objects.create(
            game=game,
            version=game.version,
            who=who,
            op="undo" if op in OWN_UNDO_OPS else op,
            summary=summary,
            undo=undo,
            client_id=client_id or "",
        )
    game.seat_list = seats
    # An undo marks an older change undone: its answer reads the log again.
    game.recent = [made, *game.recent] if game.recent is not None and op not in UNDO_OPS else None
    return game
