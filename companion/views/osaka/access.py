"""What a token of a tracked Traders of Osaka game opens, and the refusals every page of that game shares
(companion/views/osaka/games.py, game_payday.py, game_links.py); what the pages show (the token they keep, a
write's client id, the ranking) is the presenter's, companion/presenters/osaka.py.

A view-only link never leads to a write: every POST with it answers 403 with a sentence saying so.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Final, NoReturn

from django.http import HttpRequest, HttpResponse

from companion.errors import UserError
from companion.http import HtmxHttpRequest
from companion.services.osaka_access import Opened, open_token
from companion.tokens import TOKEN_RE

NO_GAME: Final = "There is no game at this address. Check the link you were given."
VIEW_ONLY: Final = "This is the view-only link: it cannot change the game. Ask the table for the edit link."

GameView = Callable[[HtmxHttpRequest, Opened], HttpResponse]


def error(request: HttpRequest, status: int, message: str) -> NoReturn:
    """Refuse with ``message`` and ``status``: handler400 answers the error page (companion/errors.py)."""
    raise UserError(message, status=status)


def opened_by_token(*, edit: bool) -> Callable[[GameView], Callable[[HtmxHttpRequest, str], HttpResponse]]:
    """A view of the game a token opens: 404 for no such game; with ``edit``, 403 for the view-only token."""

    def decorate(view: GameView) -> Callable[[HtmxHttpRequest, str], HttpResponse]:
        @wraps(view)
        def wrapper(request: HtmxHttpRequest, token: str) -> HttpResponse:
            opened = open_token(token) if TOKEN_RE.fullmatch(token) else None
            if opened is None:
                return error(request, 404, NO_GAME)
            if edit and not opened.can_edit:
                return error(request, 403, VIEW_ONLY)
            return view(request, opened)

        return wrapper

    return decorate
