"""What a tap on a tracked game writes and sends back (issue 5; issue 21, docs/sync.md): ``/games/<token>/change``
(POST), one change at most once, answered with the pieces it changed (the live script), the state partial (htmx)
or a redirect (a plain form)."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from django.db.models import CharField, OuterRef, Value
from django.db.models.functions import Cast, Concat
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import get_template
from django.views.decorators.http import require_POST

from companion.errors import Conflict, Refused
from companion.http import HtmxHttpRequest
from companion.live.engine import (
    Answer,
    Stored,
    held,
    is_live,
    mutation_id,
    once,
    stored_id,
)
from companion.models.games import Game
from companion.presenters.tracker.pieces import THROUGH, TRACK_ADDS, after_track
from companion.presenters.tracker.record_picker import AKEBONO_FORMS, BASE_FORMS, flags_of, form_shown
from companion.presenters.tracker.state import (
    LOG_ON_PAGE,
    next_question,
    state_pieces,
    who_of,
)
from companion.services.tracker import records
from companion.services.tracker.changes import (
    OWN_UNDO_OPS,
    SEAT_OPS,
    UNDO_OPS,
    Held,
    apply_change,
    hold,
    seen_value,
)
from companion.services.tracker.errors import Asked, Replayed
from companion.services.tracker.games import (
    recent_changes,
    seats_of,
)
from companion.tokens import is_token
from companion.views.tracker.common import (
    NO_GAME,
    VIEW_ONLY,
    error_page,
    state_response,
)
from companion.views.tracker.forms import ChangeForm
from companion.views.tracker.history import HISTORY, UNDOABLE_ANSWERS, answered_url, said_of, undo_slot
from scoring.calendar import NEW_YEAR


class _NotHere(Exception):
    """No game at this token (404) or the view-only token (403): nothing written, nothing stored."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


#: The engine's name of the game a seat row belongs to (companion.live.kinds.key), for the stored-write lookup.
_THING = Concat(Value("game:"), Cast(OuterRef("game_id"), output_field=CharField()))


@require_POST
def game_change(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """One change, applied at most once per write id (``lc``/``ln``, companion.live; docs/sync.md). ``cid``: the
    older per-write id (applied once; a replay answers the current state); ``v``/``was``: what a set change was
    made against (409 when it changed meanwhile). The live script gets the pieces that changed, htmx the state
    partial, a plain form a redirect back. One query reads the game, its seats and the write's stored answer
    (companion.live.engine.stored_id), holding the game until the change is stored."""
    if not is_token(token):
        return error_page(request, 404, NO_GAME)
    mid = mutation_id(request.POST)
    found: list[Game] = []

    def write() -> Answer:
        held_game = hold(token, stored=stored_id(_THING, mid), log=LOG_ON_PAGE)
        if held_game is None:
            raise _NotHere(404, NO_GAME)
        if not held_game.can_edit:
            raise _NotHere(403, VIEW_ONLY)
        if held_game.stored is not None:
            raise Stored(held_game.stored)
        found.append(held_game.game)
        return _change(request, held_game)

    try:
        answer, replay = once(lambda: f"game:{found[0].pk}", mid, write, looked_up=True)
    except _NotHere as exc:
        return error_page(request, exc.status, exc.message)
    return answer.response(replay=replay)


def _change(request: HtmxHttpRequest, held_game: Held) -> Answer:
    game = held_game.game
    form = ChangeForm(request.POST)
    if not form.is_valid():
        seat = form.cleaned_data.get("seat")
        at = _answer_at(game, str(request.POST.get("op", "")), seat, str(request.POST.get("field", "")))
        return _answer(request, game, status=400, message=form.message(), level="error", at=at)
    data = form.cleaned_data
    op, seat, value, seen, was, key, field = (
        data[k] for k in ("op", "seat", "value", "v", "was", "key", "field")
    )
    at = _answer_at(game, op, seat, field)
    if op == "next" and data["ask"] and not data["force"] and not game.finished:
        # The Next button asks first (the "Go on without" answer posts without ``ask``, "Apply it anyway" after a
        # conflict with ``force``); a stale tap is left to apply_change, which answers 409. Asking writes nothing.
        ask = next_question(game) if seen == game.version or was == seen_value(game, "next", None) else None
        if ask is not None:
            return _answer(request, game, ask=ask)
    held_seat = (
        next((s for s in held_game.seats if s.seat == seat), None)
        if op == "record-remove" and data["ask"]
        else None
    )
    if held_seat is not None and key in records.entries(held_seat).get(field, []):
        # The × of a recorded entry asks once (issue 20); its answer "Remove" posts without ``ask``. An entry
        # already gone is left to apply_change, which says so.
        return _answer(request, game, ask={"remove": True, "seat": seat, "field": field, "key": key})
    if op in SEAT_OPS and op not in ("fire-add", "trade-add", "fire-top") and value is None:
        return _answer(request, game, status=400, message="Enter a whole number.", level="error", at=at)
    # A +N on a track answers only the pieces it can change (_after_track); the record's flags read the tracks.
    flags = flags_of(game, held_game.seats) if op in TRACK_ADDS and is_live(request) else None
    try:
        game = apply_change(
            game_id=game.pk,
            held=held_game,
            op=op,
            who=who_of(request),
            seat=seat,
            value=value,
            seen=seen,
            was=was,
            key=key,
            field=field,
            numbers=data["numbers"],
            client_id=data["cid"],
            paid=data["paid"],
            move=data["move"],
            sure=data["sure"],
        )
    except Asked as exc:
        # Nothing saved: the answer is a question with its choices next to the record's forms (issue 19).
        question = {
            "text": exc.question.text,
            "fields": {"op": op, "seat": seat, "field": field, "key": key},
            "choices": exc.question.choices,
        }
        exc.game.seat_list = None  # a question may leave a seat changed in memory: read them again
        # An Undo's question opens over the line it was asked from, words included (issue 23).
        said = "" if undo_slot(field) else exc.question.text
        return _answer(request, exc.game, message=said, level="warning", question=question, at=at)
    except Replayed as exc:
        return _answer(request, exc.game, message=str(exc), level="ok", at=at)
    except (Conflict, Refused) as exc:
        game.refresh_from_db()
        game.seat_list = None  # a refusal may leave a seat changed in memory: read them again
        level = "warning" if isinstance(exc, Conflict) else "error"
        return _answer(request, game, status=exc.status, message=str(exc), level=level, at=at)
    if request.htmx or is_live(request):
        plain = not is_live(request)  # htmx: the answer names what was done, with its Undo (issue 23)
        # Every answer says who did what in the log's words (the change just made is on game.recent: no query),
        # a record's its immediate IKI included, an undo what it undid (issues 19, 23).
        last = next(iter(recent_changes(game, 1)), None)
        saved = "Saved." if last is None else said_of(last)
        # Its Undo: beside a record's form (the live path), else at the top of the state (htmx: every change).
        beside = op in UNDOABLE_ANSWERS and (not at or at.startswith("record-add-"))
        undoable = last is not None and op not in UNDO_OPS and (plain or beside)
        undo_entry = last.version if last is not None and undoable else None
        level = "warning" if game.warned else "ok"
        record_seat = seat if op == "record-add" else None  # the record's forms stay on this player
        only = _after_track(request, game, op, seat, flags) if flags is not None and seat else None
        return _answer(
            request,
            game,
            message=saved,
            level=level,
            at=at,
            undo_entry=undo_entry,
            seat=record_seat,
            only=only,
        )
    # A plain form: the page again, saying what was done beside the control tapped, with its Undo (issue 23).
    return Answer.of(redirect(answered_url(game, at)), game.version)


def _answer_at(game: Game, op: str, seat: int | None, field: str = "") -> str:
    """The answer slot beside the control a change was made with (``answer-<slot>`` in games.html): the answer
    is written where the thumb is (a record's under the form tapped, issue 23). "" (the top of the state) when the
    page shows no such slot."""
    if seat is None or not 1 <= seat <= game.players:
        seat = None
    records_shown = game.scoresheet_id is None
    if op == "undo-entry" and undo_slot(field):
        return field if field == HISTORY or records_shown else ""
    if op in ("record-add", "undo-entry") and form_shown(game, field):
        return f"record-add-{field}"
    if op in OWN_UNDO_OPS:
        return "controls"
    if op in ("score-add", "fire-add", "trade-add"):
        return f"row-{seat}" if seat else ""
    if op in ("score-set", "fire-set", "trade-set", "fire-top"):
        return f"exact-{seat}" if seat and not game.finished else ""
    if op == "resources":  # New Year's Day's row of that player
        return f"res-{seat}" if seat and records_shown and game.month == NEW_YEAR else ""
    if op in ("record-remove", "lost"):
        return f"record-{seat}" if seat and records_shown else ""
    if op == "record-add" and not records_shown:
        return ""
    return {
        "next": "controls",
        "reveal-next": "controls",
        "undo": "controls",
        "reveal": "month",
        "record-add": "record-add",
    }.get(op, "ticks" if op in ("tick", "untick") else "")


def _answer(
    request: HtmxHttpRequest,
    game: Game,
    *,
    status: int = 200,
    message: str = "",
    level: str = "",
    ask: dict[str, Any] | None = None,
    question: Mapping[str, Any] | None = None,
    at: str = "",
    undo_entry: int | None = None,
    seat: int | None = None,
    only: Collection[str] | None = None,
) -> Answer:
    """A change's answer: for the live script only the pieces the page lacks (``h``), else the state.
    ``undo_entry``: the version of the record just made (its answer offers its Undo); ``seat``: the player the
    record's forms stay on; ``only``: the named pieces the change can alter (all when None)."""
    said: dict[str, Any] = {
        "message": message,
        "level": level,
        "ask": ask,
        "question": question,
        "undo_entry": undo_entry,
        "record_seat": seat,
    }
    said["answer_at"] = at
    # htmx: the state partial, the answer beside the control (its Undo too, issue 23).
    if not is_live(request):
        return Answer.of(state_response(request, game, True, status=status, **said), game.version)
    pieces = state_pieces(request, game, True, said, only, THROUGH if only is not None else ())
    body = "".join(p.html for p in pieces.missing(held(request.POST.get("h", ""))))
    return Answer(status, body, game.version)


def _after_track(request: HttpRequest, game: Game, op: str, seat: int, flags: Mapping[str, Any]) -> set[str]:
    """The named pieces of ``#state`` a +N on ``seat``'s track can change (companion.presenters.tracker.pieces
    ``after_track``); the others are as the page shows them, so they are not rendered (the unnamed ones, the
    answer slots beside the rows and controls, always are). Besides: the record section when its flags (which
    read the tracks: ``flags`` were those before the change) changed, or when the page shows there something an
    earlier tap of this phone left, which any answer clears: an answer or a question in a slot of the section
    (the page does not hold that slot's empty digest), a player's record open (where "Remove?" asks). The
    checklist likewise for its answer."""
    seats = seats_of(game)
    only = after_track(game, op, seat, game.version, seats)
    page = held(request.POST.get("h", ""))
    opened = str(request.POST.get("open", "")).split()
    if game.scoresheet_id is None and (
        flags_of(game, seats) != flags
        or any(d.startswith("record-seat-") for d in opened)
        or not _empty_answers_held(page, _record_slots(game, seats))
    ):
        only.add("part-records")
    if not _empty_answers_held(page, ["ticks"]):
        only.add("part-steps")
    return only


def _record_slots(game: Game, seats: list[Any]) -> list[str]:
    """The answer slots of the record section (games.html): under each form (``record-add-<field>``: the pipe
    spent answers in the section's own, ``record-add``) and under each player's record (``record-<seat>``)."""
    forms = AKEBONO_FORMS if game.akebono else BASE_FORMS
    return [*(f"record-add-{f}" for f in forms), "record-add", *(f"record-{s.seat}" for s in seats)]


def _empty_answers_held(page: set[str], slots: list[str]) -> bool:
    """Whether the page holds each of these answer slots empty (the digest of the empty slot, rendered alone: no
    request, as an empty slot shows no form). A dozen tiny renders, about 0.36 ms of a tap's 12 ms: not kept
    between taps, as no player would feel it."""
    for slot in slots:
        name = "record-answer" if slot.startswith("record-add-") else "answer"
        html = get_template(f"games.html#{name}").render({"slot": slot, "answer_at": ""})
        found = re.search(r'data-h="([0-9a-f]+)"', html)
        if found is None or found.group(1) not in page:
            return False
    return True
