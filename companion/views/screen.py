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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from companion.errors import UserError
from companion.links import shared
from companion.live.engine import Pieces, is_live, pull_response
from companion.live.kinds import key
from companion.live.query import pulled_version
from companion.presenters.osaka import state_context as osaka_state_context
from companion.presenters.tracker.state import state_context as game_state_context
from companion.services.osaka_access import Access, Opened, open_token
from companion.services.osaka_access import version_of as osaka_version
from companion.services.tracker.games import game_by_token
from companion.services.tracker.games import version_of as game_version
from companion.tokens import is_token
from scoring.calendar import reveal_names

NO_GAME = "There is no game at this address. Check the link you were given."


@dataclass(frozen=True)
class Shown:
    """A tracked game as the screen shows it: always as its view link (nothing hidden before it is revealed, never
    a player's own VP count), whichever of its links opened it."""

    view_token: str
    pk: int
    version: int
    state: Callable[[HttpRequest], dict[str, Any]]
    """The game's own view-only state context (its presenter's, as the view link's page shows it)."""


@dataclass(frozen=True)
class Screen:
    """One kind of tracked game on the screen. ``kind`` is the live engine's (companion/live/kinds.py) and names the
    template (``screen_<kind>.html``) and the stream (``live-stream-<kind>``); ``page`` is the URL name of the
    game's page, and of the screen's (``<page>-screen``) and its pull's (``<page>-screen-state``)."""

    kind: str
    page: str
    open: Callable[[str], Shown | None]
    """The game a (well-formed) token opens."""
    version_of: Callable[[str], int | None]

    def find(self, token: str) -> Shown:
        shown = self.open(token) if is_token(token) else None
        if shown is None:
            raise UserError(NO_GAME, status=404)
        return shown

    def context(self, request: HttpRequest, shown: Shown) -> dict[str, Any]:
        """The game's state and the screen's addresses, all on the view token."""
        token = shown.view_token
        return shown.state(request) | {
            "token": token,
            "stream_url": reverse(f"live-stream-{self.kind}", args=[token]),
            "pull_url": reverse(f"{self.page}-screen-state", args=[token]),
            "back_url": reverse(self.page, args=[token]),
        }


def _sentence(names: list[str]) -> str:
    """Names (each "The …") as one line: "The New Characters of months 1 and 2; the fire tile of month 5"."""
    return "; ".join(name if i == 0 else name[0].lower() + name[1:] for i, name in enumerate(names))


def _on_screen(state: dict[str, Any]) -> dict[str, Any]:
    """The tracker's view-only state, with what the screen gathers on one line each, as no one scrolls a TV: the
    reveals due and still hidden (a table revealing on the board alone gathers one every month), and the players
    whose trade track brings nothing yet."""
    return state | {
        "overdue_hidden": _sentence(
            reveal_names(o["event"].reveal for o in state["overdue"] if o["event"].hidden)
        ),
        "income_nothing": [seat for seat, gains in state["income"] if not gains],
    }


def _iki(token: str) -> Shown | None:
    found = game_by_token(token)
    if found is None:
        return None
    game = found[0]
    return Shown(
        game.view_token,
        game.pk,
        game.version,
        lambda request: _on_screen(game_state_context(request, game, False)),
    )


def _osaka(token: str) -> Shown | None:
    opened = open_token(token)
    if opened is None:
        return None
    game = opened.game
    view = Opened(game, Access.VIEW, None)  # a player's own link shows nothing more here
    return Shown(game.view_token, game.pk, game.version, lambda request: osaka_state_context(request, view))


IKI = Screen("game", "game", _iki, game_version)
OSAKA = Screen("osaka", "osaka-game", _osaka, osaka_version)


def _page(request: HttpRequest, screen: Screen, token: str) -> HttpResponse:
    """The screen; opened with another link of the game, a redirect to the view link's screen."""
    shown = screen.find(token)
    if token != shown.view_token:
        return redirect(f"{screen.page}-screen", shown.view_token)
    join = shared(request, reverse(screen.page, args=[shown.view_token]))
    return render(request, f"screen_{screen.kind}.html", screen.context(request, shown) | {"join": join})


def _pull(request: HttpRequest, screen: Screen, token: str) -> HttpResponse:
    """A pull's answer: 204 at the version the screen has, else the pieces it lacks (live script), else the whole
    partial."""
    seen = pulled_version(request)
    if seen is not None and is_token(token) and screen.version_of(token) == seen:
        return HttpResponse(status=204)
    shown = screen.find(token)
    pieces = Pieces()
    context = screen.context(request, shown) | {"live_pieces": pieces}
    html = get_template(f"screen_{screen.kind}.html#screen").render(context, request)
    if is_live(request):
        return pull_response(request, key(screen.kind, shown.pk), pieces, shown.version)
    return HttpResponse(html)


@require_safe
@never_cache
def game_screen(request: HttpRequest, token: str) -> HttpResponse:
    return _page(request, IKI, token)


@require_safe
@never_cache
def game_screen_state(request: HttpRequest, token: str) -> HttpResponse:
    return _pull(request, IKI, token)


@require_safe
@never_cache
def osaka_screen(request: HttpRequest, token: str) -> HttpResponse:
    return _page(request, OSAKA, token)


@require_safe
@never_cache
def osaka_screen_state(request: HttpRequest, token: str) -> HttpResponse:
    return _pull(request, OSAKA, token)


urlpatterns = [
    path("games/<str:token>/screen", game_screen, name="game-screen"),
    path("games/<str:token>/screen/state", game_screen_state, name="game-screen-state"),
    path("osaka/games/<str:token>/screen", osaka_screen, name="osaka-game-screen"),
    path("osaka/games/<str:token>/screen/state", osaka_screen_state, name="osaka-game-screen-state"),
]
