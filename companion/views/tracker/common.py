"""What every view of a tracked game shares (issue 5): the token's game (404, 403 for the view-only link), the
name this phone signs with (a cookie), the error page, whether a request is the live script's."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import NoReturn
from urllib.parse import quote, unquote

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from companion.errors import UserError
from companion.forms import clean_text
from companion.http import HtmxHttpRequest
from companion.models.games import Game
from companion.models.scoresheets import NAME_MAX
from companion.services.tracker.games import (
    game_by_token,
)
from companion.tokens import is_token

WHO_COOKIE = "iki_who"


WHO_DEFAULT = "a phone"


LOG_ON_PAGE = 8


def error_page(request: HttpRequest, status: int, message: str) -> NoReturn:
    """Refuse with ``message`` and ``status``: handler400 answers the error page (companion/errors.py)."""
    raise UserError(message, status=status)


NO_GAME = "There is no game at this address. Check the link you were given."


VIEW_ONLY = "This is the view-only link: it cannot change the game. Ask the table for the edit link."


GameView = Callable[[HtmxHttpRequest, Game, bool], HttpResponse]


def game_view(*, edit: bool) -> Callable[[GameView], Callable[[HtmxHttpRequest, str], HttpResponse]]:
    """A view of the game a token opens: 404 for no such game; with ``edit``, 403 for the view-only token.

    The view is called as ``view(request, game, can_edit)``.
    """

    def decorate(view: GameView) -> Callable[[HtmxHttpRequest, str], HttpResponse]:
        @wraps(view)
        def wrapper(request: HtmxHttpRequest, token: str) -> HttpResponse:
            found = game_by_token(token) if is_token(token) else None
            if found is None:
                return error_page(request, 404, NO_GAME)
            game, can_edit = found
            if edit and not can_edit:
                return error_page(request, 403, VIEW_ONLY)
            return view(request, game, can_edit)

        return wrapper

    return decorate


def who_of(request: HttpRequest) -> str:
    """The name this phone signs its changes with; a cookie that is not a valid name is dropped (ignored)."""
    try:
        name = clean_text(unquote(request.COOKIES.get(WHO_COOKIE, "")))
    except ValidationError:
        return WHO_DEFAULT
    return name if 0 < len(name) <= NAME_MAX else WHO_DEFAULT


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


def is_live(request: HttpRequest) -> bool:
    """A request of the live script (companion/static/companion/live.js): answered with pieces only."""
    return request.headers.get("X-Live") == "1"
