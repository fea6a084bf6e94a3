"""Track a Traders of Osaka game at the table (issue 15): create, share, follow, enter paydays, undo any of them.

Routes (docs/api.md "Traders of Osaka", docs/sync.md):

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

import re
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any, Final

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from companion.forms import messages_of
from companion.links import shared
from companion.live.engine import Answer, Pieces, held, mutation_id, once, pull_response
from companion.models.osaka import OsakaEvent, OsakaGame, OsakaSeat
from companion.pdf.osaka_sheet import PAGE_SIZES, Tally, TallyPayday, TallyPlayer, tally_sheet
from companion.services.osaka import (
    ENTRY_KINDS,
    Conflict,
    Opened,
    Refused,
    create_game,
    mark_opened,
    open_token,
    payday_data,
    record,
    renew_link,
    version_of,
)
from companion.views.osaka.calculator import RESULT_TARGET, form_context, work_out
from companion.views.osaka.forms import ShipsForm, holding_forms, moment_data
from companion.views.osaka.forms_games import (
    CARD_COUNTS,
    TOTALS,
    NewGameForm,
    RenewForm,
    StartForm,
    TokenForm,
    UndoForm,
    VersionedForm,
)
from companion.views.pads import pdf_response
from scoring.osaka.components import COLOURS, END_TOKENS
from scoring.osaka.rules import Standing, rank

TOKEN_RE: Final = re.compile(r"[A-Za-z0-9_-]{22,64}")
LOG_ON_PAGE: Final = 8
NO_GAME: Final = "There is no game at this address. Check the link you were given."
VIEW_ONLY: Final = "This is the view-only link: it cannot change the game. Ask the table for the edit link."

GameView = Callable[[HttpRequest, Opened], HttpResponse]


def _error(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(request, "error.html", {"status": status, "message": message}, status=status)


def _opened(*, edit: bool) -> Callable[[GameView], Callable[[HttpRequest, str], HttpResponse]]:
    """A view of the game a token opens: 404 for no such game; with ``edit``, 403 for the view-only token."""

    def decorate(view: GameView) -> Callable[[HttpRequest, str], HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, token: str) -> HttpResponse:
            opened = open_token(token) if TOKEN_RE.fullmatch(token) else None
            if opened is None:
                return _error(request, 404, NO_GAME)
            if edit and not opened.can_edit:
                return _error(request, 403, VIEW_ONLY)
            return view(request, opened)

        return wrapper

    return decorate


def _token(opened: Opened) -> str:
    """The token this phone came with: the links on its pages keep it."""
    if opened.seat is not None:
        return opened.seat.private_token
    return opened.game.edit_token if opened.can_edit else opened.game.view_token


def new_cid() -> str:
    """A client id for a write rendered into a form (a no-JavaScript resubmission carries it again)."""
    return secrets.token_urlsafe(12)


# --- what the game page shows -------------------------------------------------------------------------------------


def _latest_payday(events: list[OsakaEvent]) -> OsakaEvent | None:
    """The payday just entered, while it is the latest entry: the table takes its VP cards now."""
    for e in events:
        if e.kind in ENTRY_KINDS and not e.undone:
            applied = isinstance(e.result, dict) and e.result.get("applied")
            return e if e.kind == "payday" and applied else None
    return None


def _ranking(seats: list[OsakaSeat]) -> list[tuple[OsakaSeat, Any]]:
    ranked = rank([Standing(s.name, s.vp, s.tokens) for s in seats])
    return sorted(zip(seats, ranked, strict=True), key=lambda pair: (pair[1].rank, pair[0].seat))


def _state_context(
    request: HttpRequest, opened: Opened, message: str = "", level: str = ""
) -> dict[str, Any]:
    game = opened.game
    seats = list(game.seats.all())
    events = list(game.events.all()[: LOG_ON_PAGE * 4])
    latest = _latest_payday(events)
    start_seat = next((s for s in seats if s.seat == game.start_seat), None)
    start_event = next((e for e in events if e.kind == "start" and not e.undone), None)
    me = next((s for s in seats if opened.seat and s.pk == opened.seat.pk), None)
    return {
        "game": game,
        "opened": opened,
        "token": _token(opened),
        "can_edit": opened.can_edit,
        "me": me,
        "seats": seats,
        "colours": COLOURS,
        "end_tokens": END_TOKENS,
        "start_seat": start_seat,
        "start_text": start_event.summary if start_event and start_seat else "",
        "order": _clockwise(seats, start_seat),
        "latest": latest,
        "latest_players": list(zip(seats, latest.result["payday"]["players"], strict=False))
        if latest
        else [],
        "ranking": _ranking(seats) if game.finished else [],
        "events": events[:LOG_ON_PAGE],
        "entry_kinds": ENTRY_KINDS,
        "start_form": StartForm(seats=len(seats)) if start_seat is None else None,
        "totals": TOTALS,
        "card_counts": CARD_COUNTS,
        "cid": new_cid(),
        "message": message,
        "level": level,
    }


def _clockwise(seats: list[OsakaSeat], first: OsakaSeat | None) -> list[OsakaSeat]:
    if first is None:
        return seats
    i = seats.index(first)
    return seats[i:] + seats[:i]


def _state_response(
    request: HttpRequest, opened: Opened, *, status: int = 200, message: str = "", level: str = ""
) -> HttpResponse:
    context = _state_context(request, opened, message, level)
    template = "osaka_game.html#state" if request.htmx else "osaka_game.html"
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "no-store"
    return response


# --- creating -----------------------------------------------------------------------------------------------------


def games_new(request: HttpRequest) -> HttpResponse:
    """``/osaka/games/new/``: the players in seating order and their Trader colours; POST creates the game."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    form = NewGameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        game = create_game(players=form.players)
        share = reverse("osaka-game-share", args=[game.edit_token])
        if request.htmx:
            return HttpResponse(status=204, headers={"HX-Redirect": share})
        return redirect(share)
    template = "osaka_game_new.html#form" if request.htmx else "osaka_game_new.html"
    return render(request, template, {"form": form}, status=400 if form.is_bound else 200)


# --- the game -----------------------------------------------------------------------------------------------------


@require_safe
@_opened(edit=False)
def game_page(request: HttpRequest, opened: Opened) -> HttpResponse:
    if opened.seat is not None:
        mark_opened(opened.seat)
    return _state_response(request, opened)


@require_safe
def game_state(request: HttpRequest, token: str) -> HttpResponse:
    """The polled partial. ``?v=N``: 204 (no body) while the game is at version N, else the fresh partial."""
    raw = request.GET.get("v")
    seen = int(raw) if raw is not None and raw.isascii() and raw.isdigit() and len(raw) < 10 else None
    if raw is not None and seen is None:
        return _error(request, 400, "The version (?v=) must be a whole number.")
    if seen is not None and TOKEN_RE.fullmatch(token) and version_of(token) == seen:
        return HttpResponse(status=204, headers={"Cache-Control": "no-store"})
    return _fresh_state(request, token)


@_opened(edit=False)
def _fresh_state(request: HttpRequest, opened: Opened) -> HttpResponse:
    if _is_live(request):
        pieces = _pieces(request, opened)
        return pull_response(request, f"osaka:{opened.game.pk}", pieces, opened.game.version)
    response = render(request, "osaka_game.html#state", _state_context(request, opened))
    response["Cache-Control"] = "no-store"
    return response


def _answer_write(request: HttpRequest, opened: Opened, write: Callable[[], OsakaGame]) -> HttpResponse:
    """Run a write once per write id (``lc``/``ln``, companion.live): the live script gets the pieces that
    changed (400 refused, 409 stale, with the message), htmx the fresh state, a plain form a redirect back."""

    def answer() -> Answer:
        try:
            write()
        except Conflict as exc:
            return _answer(request, _refresh(opened), status=409, message=str(exc), level="warning")
        except Refused as exc:
            return _answer(request, _refresh(opened), status=400, message=str(exc), level="error")
        if request.htmx or _is_live(request):
            return _answer(request, _refresh(opened))
        return Answer.of(redirect("osaka-game", _token(opened)), opened.game.version)

    done, replay = once(f"osaka:{opened.game.pk}", mutation_id(request.POST), answer)
    return done.response(replay=replay)


def _is_live(request: HttpRequest) -> bool:
    """A request of the live script (companion/static/companion/live.js): answered with pieces only."""
    return request.headers.get("X-Live") == "1"


def _answer(
    request: HttpRequest, opened: Opened, *, status: int = 200, message: str = "", level: str = ""
) -> Answer:
    if not _is_live(request):
        return Answer.of(
            _state_response(request, opened, status=status, message=message, level=level), opened.game.version
        )
    pieces = _pieces(request, opened, message, level)
    body = "".join(p.html for p in pieces.missing(held(request.POST.get("h", ""))))
    return Answer(status, body, opened.game.version)


def _pieces(request: HttpRequest, opened: Opened, message: str = "", level: str = "") -> Pieces:
    pieces = Pieces()
    context = {**_state_context(request, opened, message, level), "live_pieces": pieces}
    get_template("osaka_game.html#state").render(context, request)
    return pieces


def _refresh(opened: Opened) -> Opened:
    opened.game.refresh_from_db()
    return opened


@require_POST
@_opened(edit=True)
def game_change(request: HttpRequest, opened: Opened) -> HttpResponse:
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

    def write() -> OsakaGame:
        return record(game.pk, kind=op, data=data, who=opened.who, cid=got["cid"], seen=seen)

    return _answer_write(request, opened, write)


# --- a payday in the game -----------------------------------------------------------------------------------------


def _payday_context(
    opened: Opened, data: Any, message: str = "", cid: str = ""
) -> tuple[dict[str, Any], Any]:
    game = opened.game
    seats = list(game.seats.all())
    ships = ShipsForm(data, with_players=False)
    forms_ = holding_forms(data, ships, len(seats), with_name=False, with_tokens=False)
    tokens = [{c.value: n for c, n in s.tokens.items()} for s in seats]
    worked = work_out(ships, forms_, names=[s.name for s in seats], tokens=tokens)
    url = reverse("osaka-game-payday", args=[_token(opened)])
    context = form_context(worked)
    context.update(
        {
            "game": game,
            "token": _token(opened),
            "seats": seats,
            "calc_url": url,
            "submit_url": url,
            "submit_method": "post",
            "submit_label": "Record this payday",
            "hidden": {"v": game.version, "cid": cid or new_cid()},
            "message": message,
        }
    )
    return context, worked


@_opened(edit=True)
def game_payday(request: HttpRequest, opened: Opened) -> HttpResponse:
    """GET: the payday form with its preview (htmx: the preview or the form); POST: record the payday."""
    if request.method in ("GET", "HEAD"):
        data = request.GET if request.GET else None
        context, worked = _payday_context(opened, data)
        return _payday_response(request, context, worked)
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    meta = VersionedForm(request.POST)
    context, worked = _payday_context(opened, request.POST, cid=request.POST.get("cid", ""))
    if opened.game.finished:
        return _payday_response(
            request, {**context, "message": "The game is over: no more paydays."}, worked, 400
        )
    if worked.result is not None and not any(p.sales or p.lost for p in worked.result.players):
        message = "No one sells or loses anything in this payday: enter the goods first."
        return _payday_response(request, {**context, "message": message}, worked, 400)
    if not meta.is_valid() or worked.result is None:
        message = (
            "Check the payday: the rules or the numbers say no." if meta.is_valid() else "Reload the page."
        )
        return _payday_response(request, {**context, "message": message}, worked, 400)
    players = [
        p.form.player_data(name=s.name, tokens={})
        for p, s in zip(worked.players, context["seats"], strict=True)
    ]
    data = payday_data(moment_data(worked.ships, players))
    try:
        record(
            opened.game.pk,
            kind="payday",
            data=data,
            who=opened.who,
            cid=meta.cleaned_data["cid"],
            seen=meta.cleaned_data["v"],
        )
    except Conflict as exc:
        opened.game.refresh_from_db()
        context, worked = _payday_context(opened, request.POST)
        return _payday_response(request, {**context, "message": str(exc)}, worked, 409)
    except Refused as exc:
        return _payday_response(request, {**context, "message": str(exc)}, worked, 400)
    back = reverse("osaka-game", args=[_token(opened)]) + "#latest"
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": back})
    return redirect(back)


def _payday_response(
    request: HttpRequest, context: dict[str, Any], worked: Any, status: int = 200
) -> HttpResponse:
    template = "osaka_game_payday.html"
    if request.htmx:
        template = (
            "osaka_payday.html#result-oob"
            if request.htmx.target == RESULT_TARGET
            else "osaka_payday.html#calc"
        )
    bad = any(f.errors for f in (worked.ships, *[p.form for p in worked.players]))
    response = render(request, template, context, status=400 if bad and status == 200 else status)
    response["Cache-Control"] = "no-store"
    return response


# --- sharing, the log, the sheet ----------------------------------------------------------------------------------


@require_safe
@_opened(edit=False)
def game_share(request: HttpRequest, opened: Opened) -> HttpResponse:
    """Links with QR codes: the edit link, the view-only link, and each player's own link until it is opened."""
    game = opened.game
    links = []
    if opened.access.value == "edit":
        links.append(
            {"title": "The table: this link can change the game", **shared(request, game.edit_url()).item}
        )
    links.append({"title": "Onlookers: view only", **shared(request, game.view_url()).item})
    private = []
    if opened.access.value == "edit":
        for seat in game.seats.all():
            own = (
                shared(request, seat.private_url()).item
                if seat.private_opened is None
                else {"url": "", "qr": ""}
            )
            private.append({"seat": seat, **own})
    return render(
        request,
        "osaka_game_share.html",
        {"game": game, "links": links, "private": private, "token": _token(opened), "cid": new_cid()},
    )


@require_POST
@_opened(edit=True)
def game_renew(request: HttpRequest, opened: Opened) -> HttpResponse:
    """A new private link for a seat: the table's phone for any player, a player's own phone for theirs."""
    form = RenewForm(request.POST)
    if not form.is_valid():
        return _error(
            request, 400, f"Choose one of the game's players. {' '.join(messages_of(form, named=True))}"
        )
    seat = form.cleaned_data["seat"]
    if opened.seat is not None and opened.seat.seat != seat:
        return _error(request, 403, "A player's own link can only replace that player's link.")
    try:
        renew_link(opened.game.pk, seat=seat, who=opened.who, cid=form.cleaned_data["cid"])
    except Refused as exc:
        return _error(request, 400, str(exc))
    if opened.seat is not None:  # the phone's own link has just changed: show the new one
        return redirect("osaka-game", OsakaSeat.objects.get(pk=opened.seat.pk).private_token)
    return redirect("osaka-game-share", _token(opened))


@require_safe
@_opened(edit=False)
def game_log(request: HttpRequest, opened: Opened) -> HttpResponse:
    return render(
        request,
        "osaka_game_log.html",
        {
            "game": opened.game,
            "events": opened.game.events.all(),
            "token": _token(opened),
            "can_edit": opened.can_edit,
            "entry_kinds": ENTRY_KINDS,
            "cid": new_cid(),
        },
    )


@require_safe
@_opened(edit=False)
def game_sheet(request: HttpRequest, opened: Opened) -> HttpResponse:
    """The filled tally sheet: tokens and paydays; VP cards only once the game is over (RULINGS O6)."""
    size = request.GET.get("size", "a4")
    if size not in PAGE_SIZES:
        return HttpResponse(
            "No such tally sheet: size is a4 or letter.\n",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    game = opened.game
    seats = list(game.seats.all())
    ranked = {s.pk: r for s, r in _ranking(seats)} if game.finished else {}
    paydays = []
    for e in game.events.filter(kind="payday", undone=False).order_by("version"):
        result = e.result.get("payday") if isinstance(e.result, dict) and e.result.get("applied") else None
        if result is None:
            continue
        for i, colour in enumerate(result["held"]):
            sold = tuple(_vp_of(p, colour) if game.finished else None for p in result["players"])
            sank = tuple(result["sank"]) if i == 0 else ()
            last = result["ended"] and i == len(result["held"]) - 1
            paydays.append(TallyPayday(colour, sank, sold, ended=last))
    tally = Tally(
        players=tuple(
            TallyPlayer(
                s.name,
                s.trader,
                s.tokens,
                s.vp if game.finished else None,
                ranked[s.pk].rank if ranked else None,
            )
            for s in seats
        ),
        paydays=tuple(paydays),
        subtitle=f"Game of {timezone.localdate(game.created):%d %B %Y} · {len(seats)} players",
        vp_secret=not game.finished,
        end=game.end,
        tie_breaks=tuple(dict.fromkeys(r.tie_break for r in ranked.values() if r.tie_break)),
    )
    return pdf_response(tally_sheet(tally, size=size), f"traders-of-osaka-game-{size}.pdf")


def _vp_of(player: dict[str, Any], colour: str) -> int:
    """The VP cards one payday of ``colour`` gave a player (their set's cards taken plus the draw pile)."""
    for take in player.get("take", []):
        if take["colour"] == colour:
            return len(take["vp_cards"]) + int(take["from_pile"])
    return 0


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
