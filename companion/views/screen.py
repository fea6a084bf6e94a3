"""The table screen (issue 25): a view-only layout of a tracked game for a laptop or a TV across the table.

Routes (docs/api.md "The table screen", docs/sync.md):

- ``/games/<token>/screen`` (``game-screen``): a tracked IKI game's scoreboard, month and phase, what is due now,
  and the QR code a newcomer's phone scans to follow as a viewer. Opened with the edit link it redirects to the
  view link's screen, so the address shown on a TV never carries a link that can change the game.
- ``/games/<token>/screen/state`` (``game-screen-state``): its pull (docs/sync.md): 204 at the same version, else
  the pieces the screen lacks.
- ``/osaka/games/<token>/screen`` and ``.../screen/state`` (``osaka-game-screen``, ``osaka-game-screen-state``): the
  same for Traders of Osaka, public information only (RULINGS O6, O8): the achievement tokens, the start player,
  the payday just played, the VP counts only once the game is over; never a player's own link's VP count.

The screen follows the game through the live-table engine like every phone (the kinds ``game`` and ``osaka``,
``companion/live/kinds.py``): the stream pokes it, it pulls its own pieces. It has no form: it never writes.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from companion.errors import UserError
from companion.links import shared
from companion.live.engine import Pieces, pull_response
from companion.models.games import Game
from companion.services.osaka import Access, Opened, open_token
from companion.services.osaka import version_of as osaka_version
from companion.services.tracker.games import game_by_token
from companion.services.tracker.games import version_of as game_version
from companion.tokens import is_token
from companion.views.osaka.games import _state_context as osaka_state_context
from companion.views.tracker.state import state_context as game_state_context

NO_GAME = "There is no game at this address. Check the link you were given."
BAD_VERSION = "The version (?v=) must be a whole number."
#: The screen's partial (its pieces) in each game's template.
IKI_PARTIAL = "screen_game.html#screen"
OSAKA_PARTIAL = "screen_osaka.html#screen"


def _seen(request: HttpRequest) -> tuple[bool, int | None]:
    """(whether ``?v=`` is valid or absent, the version it names)."""
    raw = request.GET.get("v")
    if raw is None:
        return True, None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        return False, None
    return True, int(raw)


def _pull(
    request: HttpRequest, thing: str, template: str, context: dict[str, Any], version: int
) -> HttpResponse:
    """A pull's answer: the pieces the screen lacks (live script), else the whole partial."""
    pieces = Pieces()
    html = get_template(template).render({**context, "live_pieces": pieces}, request)
    if request.headers.get("X-Live") == "1":
        return pull_response(request, thing, pieces, version)
    return HttpResponse(html)


# --- IKI -----------------------------------------------------------------------------------------------------------


def _game(token: str) -> Game | None:
    found = game_by_token(token) if is_token(token) else None
    return found[0] if found else None


def _iki_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The tracker's own view-only state (what the view link shows: nothing hidden before it is revealed), and
    the screen's addresses, all on the view token."""
    context = game_state_context(request, game, False)
    token = game.view_token
    return context | {
        "token": token,
        "stream_url": reverse("live-stream-game", args=[token]),
        "pull_url": reverse("game-screen-state", args=[token]),
        "back_url": reverse("game", args=[token]),
    }


@require_safe
@never_cache
def game_screen(request: HttpRequest, token: str) -> HttpResponse:
    game = _game(token)
    if game is None:
        raise UserError(NO_GAME, status=404)
    if token != game.view_token:
        return redirect("game-screen", game.view_token)
    context = _iki_context(request, game) | {"join": shared(request, game.view_url())}
    return render(request, "screen_game.html", context)


@require_safe
@never_cache
def game_screen_state(request: HttpRequest, token: str) -> HttpResponse:
    valid, seen = _seen(request)
    if not valid:
        raise UserError(BAD_VERSION)
    if seen is not None and is_token(token) and game_version(token) == seen:
        return HttpResponse(status=204)
    game = _game(token)
    if game is None:
        raise UserError(NO_GAME, status=404)
    return _pull(request, f"game:{game.pk}", IKI_PARTIAL, _iki_context(request, game), game.version)


# --- Traders of Osaka ----------------------------------------------------------------------------------------------


def _osaka(token: str) -> Opened | None:
    """The game a token opens, always as the view link sees it (a player's own link shows nothing more here)."""
    opened = open_token(token) if is_token(token) else None
    return Opened(opened.game, Access.VIEW, None) if opened else None


def _osaka_context(request: HttpRequest, opened: Opened) -> dict[str, Any]:
    token = opened.game.view_token
    return osaka_state_context(request, opened) | {
        "stream_url": reverse("live-stream-osaka", args=[token]),
        "pull_url": reverse("osaka-game-screen-state", args=[token]),
        "back_url": reverse("osaka-game", args=[token]),
    }


@require_safe
@never_cache
def osaka_screen(request: HttpRequest, token: str) -> HttpResponse:
    opened = _osaka(token)
    if opened is None:
        raise UserError(NO_GAME, status=404)
    game = opened.game
    if token != game.view_token:
        return redirect("osaka-game-screen", game.view_token)
    join = shared(request, reverse("osaka-game", args=[game.view_token]))
    return render(request, "screen_osaka.html", _osaka_context(request, opened) | {"join": join})


@require_safe
@never_cache
def osaka_screen_state(request: HttpRequest, token: str) -> HttpResponse:
    valid, seen = _seen(request)
    if not valid:
        raise UserError(BAD_VERSION)
    if seen is not None and is_token(token) and osaka_version(token) == seen:
        return HttpResponse(status=204)
    opened = _osaka(token)
    if opened is None:
        raise UserError(NO_GAME, status=404)
    context = _osaka_context(request, opened)
    return _pull(request, f"osaka:{opened.game.pk}", OSAKA_PARTIAL, context, opened.game.version)


urlpatterns = [
    path("games/<str:token>/screen", game_screen, name="game-screen"),
    path("games/<str:token>/screen/state", game_screen_state, name="game-screen-state"),
    path("osaka/games/<str:token>/screen", osaka_screen, name="osaka-game-screen"),
    path("osaka/games/<str:token>/screen/state", osaka_screen_state, name="osaka-game-screen-state"),
]
