"""What every view of a tracked game shares (issue 5): the token's game (404, 403 for the view-only link), the
name this phone signs with (a cookie; read by the presenter, companion.presenters.tracker.state.who_of), the error
page, whether a request is the live script's, the state answered as a page or its partial."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, NoReturn
from urllib.parse import quote

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers

from companion.errors import UserError
from companion.http import HtmxHttpRequest
from companion.models.games import Game
from companion.presenters.tracker.state import WHO_COOKIE, page_context, state_context
from companion.services.tracker.games import (
    game_by_token,
)
from companion.tokens import is_token
from companion.views.answers import page_or_partial


def error_page(request: HttpRequest, status: int, message: str) -> NoReturn:
    """Refuse with ``message`` and ``status``: handler400 answers the error page (companion/errors.py)."""
    raise UserError(message, status=status)


NO_GAME = "There is no game at this address. Check the link you were given."


VIEW_ONLY = "This is the view-only link: it cannot change the game. Ask the table for the edit link."


GameView = Callable[[HtmxHttpRequest, Game, bool], HttpResponse]


def opened_game(request: HttpRequest, token: str, *, edit: bool) -> tuple[Game, bool]:
    """The game ``token`` opens and whether it may change it: 404 for no such game; with ``edit``, 403 for the
    view-only token."""
    found = game_by_token(token) if is_token(token) else None
    if found is None:
        return error_page(request, 404, NO_GAME)
    if edit and not found[1]:
        return error_page(request, 403, VIEW_ONLY)
    return found


def game_view(*, edit: bool) -> Callable[[GameView], Callable[[HtmxHttpRequest, str], HttpResponse]]:
    """A view of the game a token opens (:func:`opened_game`), called as ``view(request, game, can_edit)``."""

    def decorate(view: GameView) -> Callable[[HtmxHttpRequest, str], HttpResponse]:
        @wraps(view)
        def wrapper(request: HtmxHttpRequest, token: str) -> HttpResponse:
            return view(request, *opened_game(request, token, edit=edit))

        return wrapper

    return decorate


def remember_who(response: HttpResponse, who: str) -> HttpResponse:
    """This phone signs its changes as ``who`` (a cookie kept for a month)."""
    response.set_cookie(
        WHO_COOKIE,
        quote(who),
        max_age=60 * 60 * 24 * 30,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


def state_response(
    request: HtmxHttpRequest,
    game: Game,
    can_edit: bool,
    *,
    status: int = 200,
    message: str = "",
    level: str = "",
    ask: dict[str, Any] | None = None,
    question: Mapping[str, Any] | None = None,
    answer_at: str = "",
    undo_entry: int | None = None,
    record_seat: int | None = None,
) -> HttpResponse:
    context = state_context(request, game, can_edit, message, level, ask)
    context |= {"question": question, "answer_at": answer_at, "undo_entry": undo_entry}
    if record_seat is not None:
        context["record_seat"] = record_seat
    if not request.htmx:
        context.update(page_context(request, game, can_edit))
    response = page_or_partial(request, "games.html", "state", context, status=status)
    add_never_cache_headers(response)
    return response
