"""What a tracked game's page shows (its presenter, issue 5): the state partial's context (month, events, tracks,
order of play, the log, what "Next" asks), the page around it, and its render as the live script's pieces
(companion.live.engine). The tracker's views (companion/views/tracker/) and the table screen
(companion/views/screen.py) both build on it; it imports no view."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any, Final
from urllib.parse import unquote

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.template.loader import get_template
from django.urls import reverse

from companion.forms import clean_text
from companion.live.engine import (
    Pieces,
)
from companion.models.games import QUICK_SCORES, SCORE_MAX, Change, Game, Seat
from companion.models.scoresheets import NAME_MAX
from companion.presenters.tracker.record_picker import keep_removed, record_context
from companion.services.tracker.changes import STEP_OPS, seen_value
from companion.services.tracker.games import (
    recent_changes,
    removals_before,
    seats_of,
    setup_steps,
    turn_order,
)
from companion.services.tracker.ops import step_name
from scoring.calendar import (
    FIRE_MONTHS,
    NEW_YEAR,
    TRACK_MAX,
    Phase,
    due_reveals,
    firefighting_seats,
    month_events,
    personality_names,
    reveal_name,
    reveals_before_step,
    season_of,
    season_shown,
    step_events,
    still_overdue,
    table_phases,
    trade_income,
)
from scoring.catalogue import (
    BOAT_BY_ID,
    BUILDING_BY_ID,
    CHARACTER_BY_ID,
    STARTING_TILE_BY_ID,
)
from scoring.components import SEASONS

WHO_COOKIE = "iki_who"
"""The cookie holding the name this phone signs its changes with (set by the ``who`` view)."""
WHO_DEFAULT = "a phone"
LOG_ON_PAGE = 8
"""The changes the page's short history shows (and a write reads with its game)."""

#: The most reveals one step can hold (every hidden draw of a game is fewer), with the "Next" before them.
STEP_CHANGES = 40

#: A player's quick-score buttons: the IKI each adds, its text (+3, -1) and its words (a screen reader reads
#: "plus 3 IKI for Ann").
QUICK_BUTTONS: Final = tuple((q, f"{q:+d}", f"plus {q}" if q > 0 else f"minus {-q}") for q in QUICK_SCORES)


def who_of(request: HttpRequest) -> str:
    """The name this phone signs its changes with; a cookie that is not a valid name is dropped (ignored)."""
    try:
        name = clean_text(unquote(request.COOKIES.get(WHO_COOKIE, "")))
    except ValidationError:
        return WHO_DEFAULT
    return name if 0 < len(name) <= NAME_MAX else WHO_DEFAULT


def _revealed_this_step(game: Game, last: list[Change]) -> frozenset[str]:
    """The reveals made since the table reached its current step (after the last "Next" not undone): an overdue
    reveal tapped now stays shown under "Now" until the table moves on. Read from the last changes when they
    reach back to that "Next", else one indexed query."""
    rows: Iterable[tuple[str, Any]] = [(c.op, c.undo) for c in last if not c.undone]
    if not any(op in STEP_OPS for op, _ in rows) and len(last) >= LOG_ON_PAGE:
        rows = game.changes.filter(undone=False, op__in=(*STEP_OPS, "reveal")).values_list("op", "undo")[
            :STEP_CHANGES
        ]
    keys: set[str] = set()
    for op, undo in rows:
        if op in STEP_OPS:
            break
        made = undo.get("revealed") if op == "reveal" and isinstance(undo, dict) else None
        keys.update([made] if isinstance(made, str) else made or [])
    return frozenset(keys)


def _overdue(game: Game, revealed: frozenset[str], last: list[Change]) -> list[dict[str, Any]]:
    """The reveals due before this step that nobody made (and those made during it), for "Now". The changes
    are read only when a reveal due before this step was made (it may have been made during it)."""
    if game.finished:
        return []
    before = reveals_before_step(game.month, game.phase_enum, game.options, game.setup)
    made = any(o.event.reveal in revealed for o in before)
    overdue = still_overdue(
        before, revealed=revealed, keep=_revealed_this_step(game, last) if made else frozenset()
    )
    return [{"since": o.since, "event": o.event, "name": reveal_name(o.event.reveal)[0]} for o in overdue]


def next_question(game: Game) -> dict[str, Any] | None:
    """What "Next" asks before it moves on (issue 20): the reveals due and not made yet, and at New Year's Day
    whether to end the game. None when there is nothing to ask."""
    due = due_reveals(game.month, game.phase_enum, game.options, game.setup)
    keys = [k for k in due if k not in game.revealed]
    end = game.month == NEW_YEAR
    if not keys and not end:
        return None
    names = [reveal_name(k) for k in keys]
    if len(names) == 1:
        text, plural = names[0]
        question = (
            f"{text} {'are' if plural else 'is'} not revealed yet: reveal {'them' if plural else 'it'} now?"
        )
    elif names:
        listed = [text[0].lower() + text[1:] for text, _ in names]
        question = f"Not revealed yet: {', '.join(listed[:-1])} and {listed[-1]}. Reveal them now?"
    else:
        question = ""
    if end:
        question += (" " if question else "") + END_QUESTION
    return {"question": question, "keys": " ".join(keys), "end": end}


END_QUESTION = 'End the game now? The tracks close for the scoring; "Undo last" reopens the game.'


def state_context(
    request: HttpRequest,
    game: Game,
    can_edit: bool,
    message: str = "",
    level: str = "",
    ask: dict[str, Any] | None = None,
    only: Collection[str] | None = None,
) -> dict[str, Any]:
    """Everything the state partial shows. Hidden setup information is only what the table revealed (issue 13,
    item 4). Reads a bounded number of rows whatever the log's length: the last changes and one ``exists``.
    ``ask``: the question "Next" asks first (:func:`next_question`). ``only``: the named pieces rendered (all when
    None; companion.live.engine.Pieces): the record section and the checklist are built only when shown."""
    seats = seats_of(game)
    by_seat = {s.seat: s for s in seats}
    phase = game.phase_enum
    revealed = frozenset(game.revealed)
    events = month_events(game.month, game.options, game.setup, reached=phase, revealed=revealed)
    played = turn_order(game, seats)
    order = [by_seat[n] for n in played] if played is not None else []
    fire_order = [by_seat[n] for n in firefighting_seats(s.marker for s in seats)]
    shared = {s.firefighting for s in seats if sum(1 for t in seats if t.firefighting == s.firefighting) > 1}
    season = season_of(game.month) if game.month < NEW_YEAR else None
    bridge: tuple[str, ...] = ()
    bridge_hidden = False  # this season's Personalities are drawn but not revealed yet (shown as such)
    if game.akebono:
        current = season or SEASONS[-1]
        if season_shown(current, revealed):
            bridge = personality_names(current, game.setup)
        else:
            bridge_hidden = bool(personality_names(current, game.setup))
    income = []
    if trade_income_shown(game):
        income = [(s, trade_income(s.trade)) for s in seats]
    token = game.edit_token if can_edit else game.view_token
    changes = recent_changes(game, LOG_ON_PAGE)
    # Anything to undo: seen in the last changes, else (all of them undone or undos) one query; nothing once the
    # score sheet is open (it took the game as it was: companion.services.tracker.changes.SCORED).
    can_undo = game.scoresheet_id is None and (
        any(not c.undone and c.op not in ("create", "undo") for c in changes)
        or (
            len(changes) >= LOG_ON_PAGE
            and game.changes.filter(undone=False).exclude(op__in=("create", "undo")).exists()
        )
    )
    steps = setup_steps(game) if can_edit and (only is None or "part-steps" in only) else {}
    records_shown = can_edit and game.scoresheet_id is None and (only is None or "part-records" in only)
    context = {
        "game": game,
        "token": token,
        "change_url": reverse("game-change", args=[token]),
        "can_edit": can_edit,
        "seats": [(s, _was(game, s)) for s in seats],
        "phase": phase,
        "phases": table_phases(game.month),
        "events": events,
        "current_events": step_events(events, phase),
        "overdue": _overdue(game, revealed, changes),
        "bridge_hidden": bridge_hidden,
        "ask": ask if can_edit else None,
        "order": order,
        "order_title": _order_title(game),
        "fire_order": fire_order,
        "shared": shared,
        "season": season,
        "bridge": bridge,
        "income": income,
        "changes": changes,
        "log_on_page": LOG_ON_PAGE,  # the versions the log shows: live.js drops an older line (issue 21)
        "can_undo": can_undo,
        "next_was": seen_value(game, "next", None),
        # Said by live.js when another phone's step takes away the question "Next" asked on this one (docs/sync.md).
        "moved": "Another phone already ended the game."
        if game.finished
        else f"Another phone already moved the game to {step_name(game.month, phase)}.",
        "steps": [(step, title, step in game.ticks) for step, title in steps.items()],
        **(record_context(game, seats, season) if records_shown else {}),
        "ticked": len(game.ticks),
        "quick": QUICK_BUTTONS,
        "track": [str(n) for n in range(TRACK_MAX + 1)],  # text: compared with ``was``, never localized
        "score_max": SCORE_MAX,
        "message": message,
        "level": level,
        "who": who_of(request),
        "who_can_undo": can_edit and who_of(request) != WHO_DEFAULT and not game.finished,
        # The record's player: the one this phone signs as (issue 23), else the first.
        "record_seat": next(
            (s.seat for s in seats if s.name == who_of(request)), seats[0].seat if seats else 1
        ),
        # Every render collects its pieces: a nested piece counts in its parent's digest by its id alone, on the
        # first load as in an answer (companion.live.engine).
        "live_pieces": Pieces(),
    }
    if records_shown:  # a removed entry keeps its place while its removal can be undone (issue 23)
        older = removals_before(game, changes[-1].version) if len(changes) >= LOG_ON_PAGE else []
        keep_removed(context["records"], changes, older)
    return context


def trade_income_shown(game: Game) -> bool:
    """Whether "Now" lists each player's trade track income (Akebono, phase C of a fire month)."""
    return game.akebono and game.month in FIRE_MONTHS and game.phase_enum is Phase.C


def _was(game: Game, seat: Seat) -> dict[str, str | None]:
    """The values a seat's set forms are made against (``was``, see companion.services.tracker.changes.seen_value)."""
    return {
        op.replace("-", "_"): seen_value(game, op, seat)
        for op in ("score-set", "fire-set", "fire-top", "trade-set")
    }


def _order_title(game: Game) -> str:
    """The heading of the order of play, naming the phase that is on (issue 13, item 7)."""
    if game.month == NEW_YEAR:
        return "Order of play on New Year's Day"
    if game.phase_enum is Phase.A:
        return "Order for phase A"
    if game.phase_enum is Phase.B:
        return "Order for phase B"
    return f"Firefighting order (phase {game.phase}); next month's phase A follows it"


def recent_entry(game: Game, can_edit: bool, seats: Iterable[Seat]) -> dict[str, str]:
    """What the phone's "On this phone" list keeps of this game (companion/static/companion/recent.js reads it from
    the page's ``recent-entry``): the players' names as typed, written into the page by ``json_script``, which
    escapes them for JSON inside a script element. Escaped for HTML first, they showed as ``O&#x27;Neil``."""
    if game.finished:
        month = "finished"
    elif game.month == NEW_YEAR:
        month = "New Year"
    else:
        month = f"month {game.month}"
    label = "IKI game" if can_edit else "IKI game (view only)"
    return {"kind": "game", "label": label, "players": ", ".join(s.name for s in seats), "month": month}


def page_context(request: HttpRequest, game: Game, can_edit: bool) -> dict[str, Any]:
    setup = game.setup if isinstance(game.setup, dict) else {}
    seats = seats_of(game)
    by_seat = {s.seat: s.name for s in seats}
    starting = []
    for choice in setup.get("starting_characters") or []:
        card = CHARACTER_BY_ID.get(str(choice.get("card")))
        tile = STARTING_TILE_BY_ID.get(str(choice.get("tile"))) if choice.get("tile") else None
        if card:
            starting.append(card.name + (f" + {tile.name}" if tile else ""))
    boats = []
    for boat_id, side in ((setup.get("akebono") or {}).get("boat_sides") or {}).items():
        if boat_id in BOAT_BY_ID:
            boats.append(f"{BOAT_BY_ID[boat_id].name}: side {side}")
    sun = (setup.get("two_player") or {}).get("sun")
    return {
        "buildings": [BUILDING_BY_ID[b].name for b in setup.get("buildings") or [] if b in BUILDING_BY_ID],
        "starting": starting,
        "boats": boats,
        "first_name": by_seat.get(game.first_player, ""),
        "draft_names": [by_seat.get(n, "") for n in setup.get("draft_order") or []],
        "sun_name": by_seat.get(sun, "") if isinstance(sun, int) else "",
        "moon_name": by_seat.get(3 - sun, "") if isinstance(sun, int) and game.players == 2 else "",
        "who_choices": [s.name for s in seats],
        "recent_entry": recent_entry(game, can_edit, seats),
        # The seed regenerates every hidden draw: only the edit link shows it before the game ends (issue 20).
        "show_seed": bool(game.seed) and (can_edit or game.finished),
    }


def state_pieces(
    request: HttpRequest,
    game: Game,
    can_edit: bool,
    said: Mapping[str, Any],
    only: Collection[str] | None = None,
    through: Collection[str] = (),
) -> Pieces:
    """The pieces of ``#state`` (``only``: those named, with every unnamed one; all when None; ``through``: the
    wrappers whose pieces count on their own, companion.live.engine.Pieces)."""
    pieces = Pieces(only=only, through=through)
    context = state_context(
        request, game, can_edit, said.get("message", ""), said.get("level", ""), said.get("ask"), only
    )
    context |= {
        "question": said.get("question"),
        "answer_at": said.get("answer_at", ""),
        "undo_entry": said.get("undo_entry"),
        "live_pieces": pieces,
    }
    if said.get("record_seat") is not None:  # the record's forms stay on the player just recorded for
        context["record_seat"] = said["record_seat"]
    get_template("games.html#state").render(context, request)
    return pieces
