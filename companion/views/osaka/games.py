"""Track a Traders of Osaka game at the table (issue 15): create, share, follow, enter paydays, undo any of them.

Routes (docs/api.md "Traders of Osaka", docs/sync.md); the payday form is in game_payday.py, the links, log and
sheet in game_links.py:

- ``/osaka/games/new/`` (``osaka-games-new``): the players and their Trader colours; POST creates.
- ``/osaka/games/<token>/`` (``osaka-game``): the game. The edit token changes it; the view token only looks;
  each player's own token (their private link) changes it too and shows that player's VP count (RULINGS O6).
- ``/osaka/games/<token>/state?v=N`` (``osaka-game-state``): the polled partial; 204 while still at version N.
- ``/osaka/games/<token>/change`` (POST): a token, the first hands, an undo or restore.
- ``/osaka/games/<token>/payday`` (GET: the payday form with its preview; POST: record it).
- ``/osaka/games/<token>/share``, ``/renew`` (POST: a new private link), ``/log``, ``/sheet.pdf``.

A view-only link never leads to a write: every POST with it answers 403 with a sentence saying so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Final

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import path, reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from companion.errors import Conflict, Refused
from companion.forms import messages_of
from companion.http import HtmxHttpRequest
from companion.live.engine import (
    PULL_SINCE_MAX,
    Answer,
    MutationId,
    Pieces,
    held,
    is_live,
    mutation_id,
    once,
    pull_response,
)
from companion.live.query import pulled_version
from companion.models.osaka import OsakaEvent, OsakaGame
from companion.presenters.osaka import (
    LOG_ON_PAGE,
    START_PIECES,
    answered_lines,
    events_of,
    state_context,
    token_of,
)
from companion.services.osaka import create_game, record
from companion.services.osaka_access import Opened, mark_opened, version_of
from companion.tokens import TOKEN_RE
from companion.views.answers import page_or_partial
from companion.views.osaka.access import error, opened_by_token
from companion.views.osaka.answers import DidForm, answered_url, undo_answer, with_answer
from companion.views.osaka.forms_games import (
    NewOsakaGameForm,
    StartForm,
    TokenForm,
    UndoForm,
)
from companion.views.osaka.game_links import game_log, game_renew, game_share, game_sheet
from companion.views.osaka.game_payday import game_payday

#: The named pieces of osaka_game.html a token change can alter, beside its seat's (``seat-N``) and its log line:
#: the payday shown until the next change, and the message. The others show the start, the end, VP counts, links.
AFTER_TOKEN: Final = frozenset({"state-msg", "latest-box"})
#: Every named piece of osaka_game.html but the log and its lines, beside each seat's two (:data:`SEAT_PIECES`):
#: what any other change may alter (tests/companion/osaka/test_pieces.py checks it against a whole render).
PAGE_PIECES: Final = AFTER_TOKEN | START_PIECES | {"final-box", "mine", "payday-box"}
SEAT_PIECES: Final = ("seat", "seat-change")
#: The log's wrapper (companion.live.engine.Pieces ``through``): its own markup (the heading, the list, the links)
#: no change alters, so a write's answer and a pull name the log's lines (``event-<version>``) they alter instead;
#: live.js puts a line the page lacks into the list by version and drops those older than the last LOG_ON_PAGE.
THROUGH: Final = frozenset({"log"})


# --- what the game page shows -------------------------------------------------------------------------------------


def _state_response(
    request: HttpRequest,
    opened: Opened,
    *,
    status: int = 200,
    message: str = "",
    level: str = "",
    **said: Any,
) -> HttpResponse:
    """The page or (htmx) the state partial; ``said``: an undo's answer (companion.views.osaka.answers)."""
    context = with_answer(state_context(request, opened, message, level), said)
    response = page_or_partial(request, "osaka_game.html", "state", context, status=status)
    add_never_cache_headers(response)
    return response


# --- creating -----------------------------------------------------------------------------------------------------


def games_new(request: HtmxHttpRequest) -> HttpResponse:
    """``/osaka/games/new/``: the players in seating order and their Trader colours; POST creates the game."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    form = NewOsakaGameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        game = create_game(players=form.players)
        share = reverse("osaka-game-share", args=[game.edit_token])
        if request.htmx:
            return HttpResponse(status=204, headers={"HX-Redirect": share})
        return redirect(share)
    return page_or_partial(
        request, "osaka_game_new.html", "form", {"form": form}, status=400 if form.is_bound else 200
    )


# --- the game -----------------------------------------------------------------------------------------------------


@require_safe
@opened_by_token(edit=False)
def game_page(request: HttpRequest, opened: Opened) -> HttpResponse:
    """The game; ``?did=V`` (after a plain form's undo): saying what the undo of version V did (issue 23)."""
    if opened.seat is not None:
        mark_opened(opened.seat)
    said: dict[str, Any] = {}
    if "did" in request.GET:
        query = DidForm(request.GET)
        if not query.is_valid():
            return error(request, 400, "The answer's address (?did=) must be a version number.")
        said = undo_answer(opened.game, query.cleaned_data["did"])
    return _state_response(request, opened, **said)


@require_safe
@never_cache
def game_state(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The polled partial. ``?v=N``: 204 (no body) while the game is at version N, else the fresh partial."""
    seen = pulled_version(request)
    if seen is not None and TOKEN_RE.fullmatch(token) and version_of(token) == seen:
        return HttpResponse(status=204)
    return _fresh_state(request, token)


@opened_by_token(edit=False)
def _fresh_state(request: HttpRequest, opened: Opened) -> HttpResponse:
    if is_live(request):
        since = (
            pulled_version(request) if request.GET.get("h") else None
        )  # a page holding no piece gets them all
        only, events = _changed_since(opened.game, since)
        pieces = _pieces(request, opened, only=only, events=events)
        return pull_response(request, f"osaka:{opened.game.pk}", pieces, opened.game.version)
    return render(request, "osaka_game.html#state", state_context(request, opened))


def _changed_since(
    game: OsakaGame, seen: int | None
) -> tuple[frozenset[str] | None, list[OsakaEvent] | None]:
    """The pieces the changes after version ``seen`` can alter (:func:`_alters`) and the last events read to
    know them (those changes, and at least the log's: the render shows them); None (every piece, the log whole)
    for a page holding no piece, a game over, or a page further behind than PULL_SINCE_MAX."""
    if seen is None or game.finished or not 0 <= game.version - seen <= PULL_SINCE_MAX:
        return None, None
    events = events_of(game, max(LOG_ON_PAGE, game.version - seen))
    return _alters(game, [(e.kind, e.data) for e in events if e.version > seen], seen), events


def _alters(game: OsakaGame, changes: Collection[tuple[str, object]], seen: int) -> frozenset[str]:
    """The named pieces that ``changes`` (each its kind and data), made after version ``seen``, can alter, the
    game now at its version: a token change (added at the end of the log, applied to the kept state) its seat and
    :data:`AFTER_TOKEN`; any other change every piece of the page (:data:`PAGE_PIECES`). Of the log, passed
    through (:data:`THROUGH`): the lines of the versions after ``seen``, since a change never alters an older
    entry's line (a write replays the log from its own entry, companion/services/osaka.py ``record``), but an
    undo, which replays it from the entry it undoes or restores and marks that entry: every line shown."""
    only = set(AFTER_TOKEN)
    lines = range(seen + 1, game.version + 1)
    for kind, data in changes:
        seat = data.get("seat") if kind == "token" and isinstance(data, dict) else None
        if isinstance(seat, int):
            only.add(f"seat-{seat + 1}")
            continue
        only |= PAGE_PIECES | {f"{name}-{n}" for name in SEAT_PIECES for n in range(1, game.players + 1)}
        if kind == "undo":
            lines = range(game.version - LOG_ON_PAGE + 1, game.version + 1)
    return frozenset(only | {f"event-{v}" for v in lines})


def _answer_write(
    request: HtmxHttpRequest,
    opened: Opened,
    write: Callable[[], OsakaGame],
    change: tuple[str, object],
    *,
    mid: MutationId | None = None,
    looked_up: bool = False,
    undo: bool = False,
) -> HttpResponse:
    """Run a write once per write id (``lc``/``ln``, companion.live): the live script gets the pieces that
    changed (400 refused, 409 stale, with the message; of those ``change``, its kind and data, can alter:
    :func:`_alters`), htmx the fresh state, a plain form a redirect back. ``looked_up``: ``write`` looks ``mid``
    up itself (record's ``mid``); else the id is read from the form. ``undo``: the write is an undo or a restore,
    answered with who did it to which line (issue 23), beside that line; a plain form is sent back to the page
    saying so."""
    if not looked_up:
        mid = mutation_id(request.POST)

    def answer() -> Answer:
        try:
            fresh = Opened(write(), opened.access, opened.seat)
        except Conflict as exc:
            # the live page's note says it, with its buttons: the top of the page does not say it again
            words = "" if is_live(request) else str(exc)
            return _answer(request, _refresh(opened), status=409, message=words, level="warning")
        except Refused as exc:
            game = _refresh(opened).game  # nothing changed: no new line
            at = refused_at(change)
            only = _alters(game, [change], game.version) | at.get("pieces", set())
            return _answer(request, opened, status=400, message=str(exc), level="error", only=only, at=at)
        said = undo_answer(fresh.game, fresh.game.version) if undo else {}
        if request.htmx or is_live(request):
            return _answer(
                request, fresh, only=_alters(fresh.game, [change], fresh.game.version - 1), said=said
            )
        url = reverse("osaka-game", args=[token_of(opened)])
        if said:
            url = answered_url(url, fresh.game, said["said_at"])
        elif (seat := _seat_tapped(change)) is not None:
            url += f"#seat-{seat}"  # back at the seat tapped, not at the top of the page
        return Answer.of(redirect(url), fresh.game.version)

    done, replay = once(f"osaka:{opened.game.pk}", mid, answer, looked_up=looked_up)
    return done.response(replay=replay)


def refused_at(change: tuple[str, object]) -> dict[str, Any]:
    """Where the live page says why a tap was refused: under the control tapped (the start's "Who starts?", a
    seat's token buttons), where the thumb is, not in the message at the top of the page, off the screen."""
    if change[0] == "start":
        return {"refused_at": "start"}
    seat = _seat_tapped(change)
    if seat is None:
        return {}
    # its seat's fold, which a token change leaves: only the answer in it is sent (the fold stays open)
    return {"refused_at": "seat", "refused_seat": seat, "pieces": {f"seat-change-{seat}"}}


def _seat_tapped(change: tuple[str, object]) -> int | None:
    """The seat (from 1) whose token button made ``change``; None for another change."""
    kind, data = change
    seat = data.get("seat") if kind == "token" and isinstance(data, dict) else None
    return seat + 1 if isinstance(seat, int) else None


def _answer(
    request: HttpRequest,
    opened: Opened,
    *,
    status: int = 200,
    message: str = "",
    level: str = "",
    only: Collection[str] | None = None,
    said: dict[str, Any] | None = None,
    at: dict[str, Any] | None = None,
) -> Answer:
    """A write's answer: a plain form's page (a refusal at its top, where the page opens), or the live script's
    pieces (a refusal ``at`` the control tapped, :func:`refused_at`)."""
    if not is_live(request):
        response = _state_response(
            request, opened, status=status, message=message, level=level, **(said or {})
        )
        return Answer.of(response, opened.game.version)
    pieces = _pieces(
        request, opened, message, level, only=only if request.POST.get("h") else None, said=said, at=at
    )
    body = "".join(p.html for p in pieces.missing(held(request.POST.get("h", ""))))
    return Answer(status, body, opened.game.version)


def _pieces(
    request: HttpRequest,
    opened: Opened,
    message: str = "",
    level: str = "",
    *,
    only: Collection[str] | None = None,
    said: dict[str, Any] | None = None,
    events: list[OsakaEvent] | None = None,
    at: dict[str, Any] | None = None,
) -> Pieces:
    pieces = Pieces(only=only, through=THROUGH)
    context = state_context(request, opened, message, level, only=only, events=events)
    context = {**context, **(at or {}), "live_pieces": pieces}
    if only is not None:  # an undo's answer, faded, still beside its line on the phone that undid
        pieces.only = {*only, *answered_lines(context["events"])}
    context = with_answer(context, said or {})
    get_template("osaka_game.html#state").render(context, request)
    return pieces


def _refresh(opened: Opened) -> Opened:
    opened.game.refresh_from_db()
    return opened


@require_POST
@opened_by_token(edit=True)
def game_change(request: HtmxHttpRequest, opened: Opened) -> HttpResponse:
    """One change: ``op`` = ``token`` (seat, colour, delta), ``start`` (each seat's total and cards, v), ``undo``
    (target: the version of the entry to undo or restore)."""
    op = request.POST.get("op", "")
    game = opened.game
    form: TokenForm | StartForm | UndoForm
    if op == "token":
        form = TokenForm(request.POST)
    elif op == "start":
        form = StartForm(request.POST, seats=game.players)
    elif op == "undo":
        form = UndoForm(request.POST)
    else:
        return _state_response(request, opened, status=400, message="Unknown change.", level="error")
    if not form.is_valid():
        message = f"Check the form: {' '.join(messages_of(form, named=True))}"
        return _state_response(request, opened, status=400, message=message, level="error")
    got = form.cleaned_data
    seen: int | None = None
    if isinstance(form, TokenForm):
        data: dict[str, Any] = {"seat": got["seat"] - 1, "colour": got["colour"], "delta": got["delta"]}
    elif isinstance(form, StartForm):
        data, seen = {"draws": form.draws()}, got["v"]
    else:
        data = {"target": got["target"]}

    mid = mutation_id(request.POST)

    def write() -> OsakaGame:
        return record(game.pk, kind=op, data=data, who=opened.who, cid=got["cid"], seen=seen, mid=mid)

    return _answer_write(request, opened, write, (op, data), mid=mid, looked_up=True, undo=op == "undo")


urlpatterns = [
    path("osaka/games/new/", games_new, name="osaka-games-new"),
    path("osaka/games/<str:token>/", game_page, name="osaka-game"),
    path("osaka/games/<str:token>/state", game_state, name="osaka-game-state"),
    path("osaka/games/<str:token>/change", game_change, name="osaka-game-change"),
    path("osaka/games/<str:token>/payday", game_payday, name="osaka-game-payday"),
    path("osaka/games/<str:token>/share", game_share, name="osaka-game-share"),
    path("osaka/games/<str:token>/renew", game_renew, name="osaka-game-renew"),
    path("osaka/games/<str:token>/log", game_log, name="osaka-game-log"),
    path("osaka/games/<str:token>/sheet.pdf", game_sheet, name="osaka-game-sheet"),
]
