"""The writes of a tracked Traders of Osaka game (companion/models/osaka.py, docs/sync.md).

Every write is :func:`record`: one transaction holding the game's row (``select_for_update``; SQLite's
``BEGIN IMMEDIATE`` serialises writers), which

1. applies a write once: a client id (``cid``) already in the log answers with the game as it is;
2. refuses a stale "set" write (a payday, the start player, entered against version ``seen``) with
   :class:`Conflict`, so two phones entering the same payday record it once;
3. replays the entries not undone with the new one (:func:`scoring.osaka.track.replay`) and refuses it with
   :class:`Refused` when the rules give it no effect;
4. saves the event, the derived state (tokens, VP cards, the start, the end) and what every entry now does.

A token change (the tap of the table) is added at the end of the log, so step 3 for it is the change applied to the
state the game keeps (saved by every write: the replay of the log so far), :func:`scoring.osaka.track.take_token`,
and step 4 saves that seat, the version and the event: a tap costs the same on the first turn and the last.

Nothing is saved when a write is refused. The log's entries, their replay and their lines are in
:mod:`companion.services.osaka_log`; opening a game by its token in :mod:`companion.services.osaka_access`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from django.db import models, transaction

from companion.errors import Conflict, Refused
from companion.live.engine import MutationId, Stored, stored_id
from companion.models.osaka import OsakaEvent, OsakaGame, OsakaSeat
from companion.services.osaka_access import TABLE_PHONE
from companion.services.osaka_log import ENTRY_KINDS, entry_of, replayed, result_json, summary_of
from companion.tokens import new_token
from scoring.osaka.components import COLOURS
from scoring.osaka.track import Outcome, TableState, TokenChange, take_token

#: The key of an undo's data holding the line of the entry it undid or restored (companion.views.osaka.answers).
UNDID_LINE: Final = "line"
#: The head of an undo's log line, before the line it undid or restored, by whether it restored it (the answer
#: reads an older undo's line back with it: companion.views.osaka.answers).
UNDO_HEADS: Final = {False: "Undid: ", True: "Restored: "}
#: Writes carrying the version the phone saw: a payday or a start entered twice must not count twice.
VERSIONED_KINDS: Final = frozenset({"start", "payday"})


# --- creating -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewPlayer:
    name: str
    trader: str


def create_game(*, players: Sequence[NewPlayer]) -> OsakaGame:
    """A new game in seating order (clockwise); the log starts with its creation."""
    with transaction.atomic():
        game = OsakaGame.objects.create(players=len(players))
        OsakaSeat.objects.bulk_create(
            OsakaSeat(game=game, seat=i + 1, name=p.name, trader=p.trader) for i, p in enumerate(players)
        )
        OsakaEvent.objects.create(
            game=game, version=game.version, who=TABLE_PHONE, kind="create", summary="Game created"
        )
    return game


# --- writing ------------------------------------------------------------------------------------------------------


def record(
    game_id: int,
    *,
    kind: str,
    data: Mapping[str, Any],
    who: str,
    cid: str = "",
    seen: int | None = None,
    mid: MutationId | None = None,
) -> OsakaGame:
    """Apply one write in one transaction (see the module); returns the fresh game. Raises Refused or Conflict.
    ``mid``: the live write's id, looked up in the first read (raises companion.live.engine.Stored when its
    answer is stored: ``once(..., looked_up=True)`` answers with it). Inside a transaction already (the live
    write's, companion.live.engine.once) it joins it without a savepoint: every refusal is raised before the
    first write, so the write's answer (a 400, a 409) is stored in that transaction (two statements fewer)."""
    with _joined():
        # One read: the seats with their game (held), whether this write's cid was applied, and the live write's
        # stored answer.
        applied = (
            OsakaEvent.objects.filter(game_id=models.OuterRef("game_id"), cid=cid)
            if cid
            else OsakaEvent.objects.none()
        )
        read = OsakaGame.objects.filter(pk=models.OuterRef("game_id")).values("version")[:1]
        seats = list(
            OsakaSeat.objects.select_related("game")
            .select_for_update()
            .annotate(
                applied=models.Exists(applied),
                stored=stored_id(f"osaka:{game_id}", mid),
                read_version=models.Subquery(read),
            )
            .filter(game_id=game_id)
            .order_by("seat")
        )
        if not seats:
            raise OsakaGame.DoesNotExist(f"no Osaka game {game_id}")
        game, first = seats[0].game, seats[0]
        for seat in seats:
            seat.game = game
        applied_before: bool = first.applied
        stored: int | None = first.stored
        if first.read_version != game.version and cid:
            # PostgreSQL: the read waited for another write's lock and then holds the row as that write left it,
            # but its subqueries saw the game from before it: look again (a stale stored answer is found by
            # once()'s second attempt, after its unique row refuses the copy).
            applied_before = game.events.filter(cid=cid).exists()
        if stored is not None:
            raise Stored(stored)
        if applied_before:
            return game  # a replayed write: applied once already
        if kind in VERSIONED_KINDS and seen != game.version:
            raise Conflict()
        names = [s.name for s in seats]
        event = OsakaEvent(game=game, version=game.version + 1, cid=cid, who=who, kind=kind, data=dict(data))
        entry = entry_of(event, len(names)) if kind == "token" else None
        if isinstance(entry, TokenChange):
            _add_token(game, seats, event, entry, names)
            return game
        events = list(game.events.order_by("version").defer("at", "who", "cid"))
        if kind == "undo":
            target = _undo_target(events, data)
            target.undone = not target.undone
            event.summary = UNDO_HEADS[not target.undone] + target.summary
            # The line it undid, for the answer that names who undid what (issue 23), read back from here.
            event.data = {"target": target.version, "restore": not target.undone, UNDID_LINE: target.summary}
        elif kind == "link":
            event.summary = f"{_seat(seats, data.get('seat')).name}'s own link was replaced"
        elif kind not in ENTRY_KINDS:
            raise Refused("Unknown change.")
        state, outcomes = replayed(game, [*events, event], names)
        outcome = outcomes[-1]
        if kind in ENTRY_KINDS and outcome is not None and not outcome.applied:
            raise _refusal(outcome)
        game.version = event.version
        # The replay of the entries before the first one this write touches is unchanged: only the entries from
        # there on (the new one; for an undo, from its target) can do something else now.
        since = event.data["target"] if kind == "undo" else event.version
        _save(game, seats, [*events, event], outcomes, state, names, since)
    return game


def _joined() -> contextlib.AbstractContextManager[Any]:
    """A transaction of its own, or the one the write runs in (:func:`record`)."""
    return contextlib.nullcontext() if transaction.get_connection().in_atomic_block else transaction.atomic()


def _refusal(outcome: Outcome) -> Refused:
    return Refused(outcome.note[:1].upper() + outcome.note[1:] + ".")


def _add_token(
    game: OsakaGame, seats: Sequence[OsakaSeat], event: OsakaEvent, entry: TokenChange, names: Sequence[str]
) -> None:
    """A token change at the end of the log, applied to the state the game keeps (see the module)."""
    tokens = [s.tokens for s in seats]
    outcome = take_token(entry, names, tokens, ended=game.finished)
    if not outcome.applied:
        raise _refusal(outcome)
    seat = seats[entry.seat]
    seat.tokens = tokens[entry.seat]
    colour = entry.colour.value
    OsakaSeat.objects.filter(pk=seat.pk).update(**{colour: getattr(seat, colour)})
    game.version = event.version
    game.save(update_fields=["version"])
    event.result, event.summary = result_json(outcome), summary_of(event, outcome, names)
    event.save()
    # The answer shows these seats: keep them on the game as if prefetched, so it does not read them again.
    kept = game.seats.all()
    # Django's own prefetch does the same: these private attributes are not in its stubs.
    kept._result_cache, kept._prefetch_done = list(seats), True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {"seats": kept}  # type: ignore[attr-defined]


def _undo_target(events: Sequence[OsakaEvent], data: Mapping[str, Any]) -> OsakaEvent:
    target = data.get("target")
    for e in events:
        if e.version == target and e.kind in ENTRY_KINDS:
            return e
    raise Refused("There is no such payday or change to undo.")


def _seat(seats: Sequence[OsakaSeat], number: object) -> OsakaSeat:
    for s in seats:
        if s.seat == number:
            return s
    raise Refused("Choose one of the game's players.")


def _save(
    game: OsakaGame,
    seats: Sequence[OsakaSeat],
    events: Sequence[OsakaEvent],
    outcomes: Sequence[Outcome | None],
    state: TableState,
    names: Sequence[str],
    since: int,
) -> None:
    for seat, tokens, vp in zip(seats, state.tokens, state.vp, strict=True):
        seat.tokens = tokens
        seat.vp = vp
    OsakaSeat.objects.bulk_update(seats, [c.value for c in COLOURS] + ["vp"])
    game.start_seat = state.start.index + 1 if state.start else None
    game.finished = state.finished
    game.end = state.end or ""
    game.save(update_fields=["version", "start_seat", "finished", "end"])
    changed = []
    for event, outcome in zip(events, outcomes, strict=True):
        if event.version < since:
            continue
        result = result_json(outcome, event.result)
        summary = summary_of(event, outcome, names)
        if event.pk is None:  # a new event, not yet saved (its stubs type the key as always set)
            event.result, event.summary = result, summary  # type: ignore[unreachable]
            event.save()
        elif (event.result, event.summary) != (result, summary) or event.version == since:
            event.result, event.summary = result, summary
            changed.append(event)
    if changed:
        OsakaEvent.objects.bulk_update(changed, ["result", "summary", "undone"])


def renew_link(game_id: int, *, seat: int, who: str, cid: str = "") -> OsakaGame:
    """A new private link for ``seat`` (the old one stops working), logged publicly so the player would notice."""
    with transaction.atomic():
        game = record(game_id, kind="link", data={"seat": seat}, who=who, cid=cid)
        OsakaSeat.objects.filter(game=game, seat=seat).update(private_token=new_token(), private_opened=None)
    return game
