"""A game tracked at the table (issue 5): one shared game on every phone, month by month, nothing lost.

The rules live in the pure :mod:`scoring.calendar`; this module keeps the state and applies changes:

- ``Game``: options, the generated setup (its JSON and the generator's version, so the game never depends on
  regenerating), the month and phase, a ``version`` bumped by every change, and two unguessable tokens (edit and
  view-only, >= 128 random bits each).
- ``Seat``: a player's name, colour, score track, firefighting position and stack height, Akebono trade track.
- ``Change``: the log: who (the name the phone chose), when, what, and what it takes to undo it.

Concurrency (docs/sync.md): every change runs in one transaction holding the game row (``select_for_update`` on
PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` serialises writers, see companion/settings.py). Additive changes (+3 IKI)
are applied to the value read under that lock, so two simultaneous taps both land. "Set" changes (a position, the
next phase, undo) carry the version the phone saw; a stale version raises :class:`Conflict` and nothing changes.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

from django.db import connection, models, transaction
from django.db.models import OuterRef, Subquery
from django.db.models.functions import JSONObject
from django.urls import reverse
from django.utils import timezone

from companion.models import game_records as records
from companion.tokens import new_token
from scoring.calendar import (
    NEW_YEAR,
    TRACK_MAX,
    CalendarOptions,
    Marker,
    Phase,
    due_reveals,
    firefighting_order,
    initial_markers,
    move_marker,
    next_step,
    phase_a_order,
    reveal_name,
)

NAME_COLUMN = 40
"""The width of a stored name: games made before one limit served every start page hold names up to 40."""
SCORE_MAX = 999
CLIENT_ID_MAX = 40
CLIENT_ID_RE = re.compile(rf"[A-Za-z0-9_-]{{1,{CLIENT_ID_MAX}}}")
"""A write's client-made id (the older tracker script made 24 hex digits; the live engine's writes carry lc/ln
instead): ASCII only, so every database stores it."""
QUICK_SCORES = (1, 2, 3, 5, -1)
"""Colours a player may pick (the same as the scoring walk-through offers), used for a swatch only."""
SUMMARY_MAX = 200
"""The longest line of the log (a change's summary)."""


class Game(models.Model):
    edit_token = models.CharField(max_length=64, unique=True, default=new_token)
    view_token = models.CharField(max_length=64, unique=True, default=new_token)
    created = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)
    players = models.PositiveSmallIntegerField()
    akebono = models.BooleanField(default=False)
    grand_master = models.BooleanField(default=False)
    setup = models.JSONField()
    generator_version = models.CharField(max_length=20)
    month = models.PositiveSmallIntegerField(default=1)
    phase = models.CharField(max_length=10, default=Phase.A.value)
    finished = models.BooleanField(default=False)
    #: The reveal keys the table has revealed (scoring.calendar ``Event.reveal``), seen by every phone (issue 13).
    revealed = models.JSONField(default=list)
    #: The setup checklist's ticked step ids (setupgen.checklist), shared by every phone behind the edit token.
    ticks = models.JSONField(default=list)
    #: Set by a change whose answer deserves a warning (a record's immediate IKI below 0); not stored.
    warned = False
    #: The seats as a change left them (apply_change), so its answer reads them again from no query; not stored.
    seat_list: list[Seat] | None = None
    #: The newest changes, newest first, as a write read them (hold) and left them; not stored.
    recent: list[Change] | None = None
    #: The score sheet made from this game ("Score the game"); the game page links its edit or view-only page.
    scoresheet = models.OneToOneField(
        "companion.ScoreSheet", null=True, blank=True, on_delete=models.SET_NULL, related_name="game"
    )

    seats: models.Manager[Seat]
    changes: models.Manager[Change]

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(condition=models.Q(month__gte=1, month__lte=13), name="game_month_1_13"),
            models.CheckConstraint(
                condition=models.Q(players__gte=2, players__lte=4), name="game_players_2_4"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} (month {self.month}, {self.phase})"

    @property
    def options(self) -> CalendarOptions:
        return CalendarOptions(players=self.players, akebono=self.akebono, grand_master=self.grand_master)

    @property
    def phase_enum(self) -> Phase:
        return Phase(self.phase)

    @property
    def seed(self) -> str:
        seed = self.setup.get("seed") if isinstance(self.setup, dict) else None
        return seed if isinstance(seed, str) else ""

    @property
    def first_player(self) -> int:
        first = self.setup.get("first_player") if isinstance(self.setup, dict) else None
        return first if isinstance(first, int) and 1 <= first <= self.players else 1

    def edit_url(self) -> str:
        return reverse("game", args=[self.edit_token])

    def view_url(self) -> str:
        return reverse("game", args=[self.view_token])


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_COLUMN)
    colour = models.CharField(max_length=20)
    score = models.PositiveIntegerField(default=0)
    firefighting = models.PositiveSmallIntegerField(default=0)
    stack = models.IntegerField(default=0)
    trade = models.PositiveSmallIntegerField(default=0)
    #: What the table recorded of this player for the end-game scoring (companion.models.game_records).
    record = models.JSONField(default=dict)

    class Meta:
        ordering = ("seat",)
        constraints: ClassVar = [
            models.UniqueConstraint(fields=("game", "seat"), name="seat_unique_seat"),
            models.UniqueConstraint(fields=("game", "name"), name="seat_unique_name"),
            models.CheckConstraint(
                condition=models.Q(firefighting__lte=TRACK_MAX), name="seat_firefighting_0_10"
            ),
            models.CheckConstraint(condition=models.Q(trade__lte=TRACK_MAX), name="seat_trade_0_10"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat})"

    @property
    def marker(self) -> Marker:
        return Marker(self.seat, self.firefighting, self.stack)


class Change(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    version = models.PositiveIntegerField()
    at = models.DateTimeField(default=timezone.now)
    who = models.CharField(max_length=NAME_COLUMN)
    op = models.CharField(max_length=20)
    summary = models.CharField(max_length=SUMMARY_MAX)
    undo = models.JSONField(default=dict)
    undone = models.BooleanField(default=False)
    #: The id the phone made for this write (issue 13, item 3): a replay of it is answered, never applied again.
    client_id = models.CharField(max_length=CLIENT_ID_MAX, blank=True, default="")

    class Meta:
        ordering = ("-version",)
        constraints: ClassVar = [
            models.UniqueConstraint(fields=("game", "version"), name="change_unique_version"),
            models.UniqueConstraint(
                fields=("game", "client_id"),
                condition=~models.Q(client_id=""),
                name="change_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version}: {self.summary}"


# --- operations -------------------------------------------------------------------------------------------------


class Refused(ValueError):
    """A change the rules or the form do not allow; the message is for a person. Nothing was changed."""


class Conflict(Exception):
    """The phone's version is stale: someone changed the game first. Nothing was changed."""

    def __init__(self, game: Game) -> None:
        super().__init__("Someone else changed this first; here is the fresh state. Nothing was changed.")
        self.game = game


class Asked(Exception):
    """A record needs one more answer (companion.models.game_records.Question): nothing was changed."""

    def __init__(self, game: Game, question: records.Question) -> None:
        super().__init__(question.text)
        self.game = game
        self.question = question


class Replayed(Exception):
    """The phone sent a write whose client id was already applied (a retry after a lost answer): nothing was
    applied again; ``game`` is the current state (issue 13, item 3)."""

    def __init__(self, game: Game) -> None:
        super().__init__("Already saved.")
        self.game = game


ADDITIVE_OPS = frozenset({"score-add", "fire-add", "trade-add", "record-add"})
"""Changes applied to the values read under the lock: a replayed one lands as it is."""
SET_OPS = frozenset({"score-set", "fire-set", "fire-top", "trade-set", "next", "undo", "resources"})
TABLE_OPS = frozenset({"reveal", "tick", "untick", "record-remove", "lost"})
"""Changes that are the same whoever makes them first (a reveal, a tick, removing one named entry); no version is
needed: made twice, the second is refused with a sentence."""
OPS = ADDITIVE_OPS | SET_OPS | TABLE_OPS
SEAT_OPS = frozenset({"score-add", "score-set", "fire-add", "fire-set", "fire-top", "trade-add", "trade-set"})
RECORD_OPS = frozenset({"record-add", "record-remove", "lost", "resources"})


def seen_value(game: Game, op: str, seat: Seat | None) -> str | None:
    """What a set change is made against (the phone sends it back as ``was``): the value it replaces. A stale
    version with the same ``was`` is no conflict (another player's +1 meanwhile does not stop a Set); a different
    ``was`` is one. Undo has none: it undoes the change the phone saw, so only the version counts."""
    if op == "next":
        return f"{game.month}{game.phase}"
    if seat is None:
        return None
    return {
        "score-set": str(seat.score),
        "fire-set": str(seat.firefighting),
        "fire-top": f"{seat.firefighting}.{seat.stack}",
        "trade-set": str(seat.trade),
        "resources": records.resources_seen(seat),
    }.get(op)


@dataclass(frozen=True)
class NewPlayer:
    name: str
    colour: str


def create_game(
    *,
    players: Sequence[NewPlayer],
    akebono: bool,
    grand_master: bool,
    setup: Mapping[str, Any],
    who: str,
    ticks: Sequence[str] = (),
) -> Game:
    """A new game at month 1, phase A: markers stacked as the base "PLAYER SETUP" says (first player on top).
    ``ticks``: the setup checklist's steps already ticked on the setup page of this table."""
    n = len(players)
    options = CalendarOptions(players=n, akebono=akebono, grand_master=grand_master)
    with transaction.atomic():
        game = Game.objects.create(
            players=options.players,
            akebono=akebono,
            grand_master=grand_master,
            setup=dict(setup),
            generator_version=str(setup.get("generator_version", "")),
            ticks=sorted(set(ticks)),
        )
        stacks = {m.seat: m.stack for m in initial_markers(n, game.first_player)}
        Seat.objects.bulk_create(
            Seat(game=game, seat=i + 1, name=p.name, colour=p.colour, stack=stacks[i + 1])
            for i, p in enumerate(players)
        )
        Change.objects.create(game=game, version=game.version, who=who, op="create", summary="Game created")
    return game


def _seat(seats: Sequence[Seat], number: int | None) -> Seat:
    for s in seats:
        if s.seat == number:
            return s
    raise Refused("Choose one of the game's players.")


def _int(value: int | None, what: str, low: int, high: int) -> int:
    if value is None or not low <= value <= high:
        raise Refused(f"{what} must be a whole number from {low} to {high}.")
    return value


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
    rows = rows.annotate(**{f"log{i}": _nth_change(i) for i in range(log)})
    seats = list(rows.annotate(stored=stored) if stored is not None else rows)
    if not seats:
        return None
    game = seats[0].game
    for s in seats:
        s.game = game
    game.seat_list = seats
    if log:
        game.recent = [_change_of(game, row) for i in range(log) if (row := getattr(seats[0], f"log{i}"))]
    found = getattr(seats[0], "stored", None)
    return Held(game, seats, secrets.compare_digest(game.edit_token, token), found)


_CHANGE_FIELDS = ("id", "version", "at", "who", "op", "summary", "undo", "undone", "client_id")


def _nth_change(n: int) -> Subquery:
    """The game's ``n``-th newest change as one JSON object: a column of the write's one read (:func:`hold`)."""
    rows = Change.objects.filter(game_id=OuterRef("game_id")).order_by("-version")
    return Subquery(rows.values(row=JSONObject(**{f: f for f in _CHANGE_FIELDS}))[n : n + 1])


def _change_of(game: Game, row: Mapping[str, Any]) -> Change:
    """A change read as JSON (:func:`_nth_change`): SQLite gives its time as naive UTC text, its undo as text and
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
    game_id: int,
    *,
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
) -> Game:
    """Apply one change in one transaction; returns the fresh game. ``held``: the game and seats the caller's
    transaction already read and locked (:func:`hold`), else those of ``game_id`` are. Raises Refused, Conflict, Replayed or Asked
    (nothing saved). ``client_id``: the phone's id of this write, applied once (a replay raises Replayed).
    ``paid``/``move``: a record's answers to the question it asked (Asked). A record's warning (immediate IKI
    below 0) is left on ``game.warned``."""
    if op not in OPS:
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
        if op in SET_OPS and seen != game.version:
            target = next((s for s in seats if s.seat == seat), None)
            if was is None or was != seen_value(game, op, target) or op == "undo":
                raise Conflict(game)
        if op == "undo":
            summary, undo = _undo(game, seats)
        elif op == "next":
            summary, undo = _next(game)
        elif op == "reveal":
            summary, undo = _reveal(game, key or "", who)
        elif op in ("tick", "untick"):
            summary, undo = _tick(game, key or "", op == "tick")
        elif op in RECORD_OPS:
            try:
                summary, undo = _record(
                    game, op, _seat(seats, seat), seats, field, key or "", numbers or {}, paid, move
                )
            except records.Question as question:
                raise Asked(game, question) from None
        else:
            if game.finished:
                raise Refused("The game is over: the tracks are closed.")
            summary, undo = _track(op, _seat(seats, seat), seats, value)
        game.version += 1
        game.save(update_fields=["version", "month", "phase", "finished", "revealed", "ticks"])
        made = Change.objects.create(
            game=game,
            version=game.version,
            who=who,
            op=op,
            summary=summary,
            undo=undo,
            client_id=client_id or "",
        )
    game.seat_list = seats
    # An undo marks an older change undone: its answer reads the log again.
    game.recent = [made, *game.recent] if game.recent is not None and op != "undo" else None
    return game


def recent_changes(game: Game, count: int) -> list[Change]:
    """The game's ``count`` newest changes, newest first: those a write read and made, else one query."""
    if game.recent is not None and (len(game.recent) >= count or game.recent[-1].op == "create"):
        return game.recent[:count]
    return list(game.changes.all()[:count])


def seats_of(game: Game) -> list[Seat]:
    """The game's seats, in seat order: those a change just stored, else one query."""
    if game.seat_list is None:
        game.seat_list = list(game.seats.all())
    return game.seat_list


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


def _record(
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
    undo: dict[str, Any] = {"seat": s.seat, "before": before[s.seat]}
    if others:
        undo["others"] = [{"seat": o.seat, "before": before[o.seat]} for o in others]
    return summary[:200], undo


def _reveal(game: Game, key: str, who: str) -> tuple[str, dict[str, Any]]:
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


def _tick(game: Game, step: str, done: bool) -> tuple[str, dict[str, Any]]:
    steps = setup_steps(game)
    if step not in steps:
        raise Refused("This game's setup has no such step.")
    ticked = set(game.ticks)
    if (step in ticked) == done:
        raise Refused("Already ticked." if done else "Already not ticked.")
    game.ticks = sorted(ticked | {step} if done else ticked - {step})
    verb = "ticked" if done else "unticked"
    return f"Setup: {steps[step]} {verb}", {"tick": step, "done": not done}


def setup_steps(game: Game) -> dict[str, str]:
    """The setup checklist's step ids and titles (setupgen.checklist), regenerated from the game's seed and
    options (RULINGS R19); none when the stored setup was made by another generator version."""
    from setupgen import Options, OptionsError, SeedError, checklist, generate

    try:
        setup = generate(
            Options(players=game.players, akebono=game.akebono, grand_master=game.grand_master),
            seed=game.seed or None,
        )
    except (OptionsError, SeedError):
        return {}
    if not game.seed or str(setup.generator_version) != game.generator_version:
        return {}
    return {step.id: step.title for step in checklist(setup)}


def _track(op: str, s: Seat, seats: Sequence[Seat], value: int | None) -> tuple[str, dict[str, Any]]:
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
    return summary, {"seat": s.seat, "before": before}


def _next(game: Game) -> tuple[str, dict[str, Any]]:
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


def _undo(game: Game, seats: Sequence[Seat]) -> tuple[str, dict[str, Any]]:
    last = game.changes.filter(undone=False).exclude(op__in=("undo", "create")).first()
    if last is None:
        raise Refused("There is nothing to undo.")
    data = last.undo
    if "game" in data:
        for field in ("month", "phase", "finished"):
            setattr(game, field, data["game"][field])
    for each in ([data] if "seat" in data else []) + list(data.get("others", [])):
        s = _seat(seats, each["seat"])
        for field, old in each["before"].items():
            setattr(s, field, old)
        s.save(update_fields=[f for f in SEAT_FIELDS if f in each["before"]])
    if "revealed" in data:
        hidden = data["revealed"] if isinstance(data["revealed"], list) else [data["revealed"]]
        game.revealed = [k for k in game.revealed if k not in hidden]
    if "tick" in data:
        ticked = set(game.ticks)
        game.ticks = sorted(ticked | {data["tick"]} if data["done"] else ticked - {data["tick"]})
    last.undone = True
    last.save(update_fields=["undone"])
    return f"Undid: {last.summary}", {}


# --- reading ----------------------------------------------------------------------------------------------------


def game_by_token(token: str) -> tuple[Game, bool] | None:
    """The game of an edit or view token and whether the token may edit; None when there is no such game."""
    game = Game.objects.filter(models.Q(edit_token=token) | models.Q(view_token=token)).first()
    if game is None:
        return None
    return game, secrets.compare_digest(game.edit_token, token)


def scoring_setup(game: Game) -> dict[str, Any]:
    """What the scoring JSON's ``setup`` holds of a tracked game's setup: its buildings, and with Akebono its
    personalities and boat sides (docs/api.md)."""
    setup = game.setup if isinstance(game.setup, dict) else {}
    ake = setup.get("akebono") or {}
    personalities = [p for pair in (ake.get("personalities") or {}).values() for p in pair]
    data: dict[str, Any] = {"buildings": list(setup.get("buildings") or [])}
    if game.akebono:
        data["personalities"] = personalities
        data["boat_sides"] = dict(ake.get("boat_sides") or {})
    return data


def version_of(token: str) -> int | None:
    """The current version of a token's game: the polling endpoint's fast path (docs/sync.md), one indexed query
    on the thread's persistent connection (CONN_MAX_AGE, companion/settings.py)."""
    return (
        Game.objects.filter(models.Q(edit_token=token) | models.Q(view_token=token))
        .values_list("version", flat=True)
        .first()
    )


def turn_order(game: Game, seats: Sequence[Seat]) -> tuple[int, ...] | None:
    """Seats in the order the phase on is played (issue 19): phase A of month 1 clockwise from the first player;
    phase B in the order of the Ikizama spaces (RULINGS R26), which the tracker does not know: None; else (phase C,
    the next phase A, New Year's Day) the firefighting order ("From month 2 on, players take turns in descending
    order of firefighting power")."""
    markers = [s.marker for s in seats]
    if game.month < NEW_YEAR and game.phase_enum is Phase.B:
        return None
    if game.phase_enum is Phase.A:
        return phase_a_order(game.month, markers, game.first_player)
    return firefighting_order(markers)
