"""The tracked game's pages (issue 5; docs/api.md "Games"): the game page, the polled or pulled state
(docs/sync.md), share links, the log, this phone's name, and the end (the scoring walk-through, prefilled)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from companion.forms import PlayersForm, WhoForm
from companion.http import HtmxHttpRequest
from companion.links import shared
from companion.live.engine import (
    is_live,
    pull_response,
)
from companion.live.query import pulled_version
from companion.models.games import Game, Seat
from companion.models.scoresheets import NAME_MAX
from companion.presenters.tracker.pieces import THROUGH, changed_since
from companion.presenters.tracker.state import (
    state_context,
    state_pieces,
)
from companion.scorepad.services import SheetError, sheet_for_game
from companion.services.tracker.games import (
    version_of,
)
from companion.tokens import is_token
from companion.views.tracker.common import (
    error_page,
    game_view,
    opened_game,
    remember_who,
    state_response,
)
from companion.views.tracker.history import said_on_page


@require_safe
@game_view(edit=False)
def game_page(request: HtmxHttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    said = said_on_page(request, game, can_edit)  # after a plain form's write (issue 23)
    if said is None:
        return error_page(request, 400, "This address names no change of the game (?did=, ?at=).")
    return state_response(request, game, can_edit, **said)


@require_safe
@never_cache
def game_state(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The polled partial. ``?v=N``: 204 (no body) while the game is at version N, else the fresh partial."""
    seen = pulled_version(request)
    if seen is not None and is_token(token) and version_of(token) == seen:
        return HttpResponse(status=204)  # the fast path of every poll: one indexed query, no game loaded
    game, can_edit = opened_game(request, token, edit=False)
    if is_live(request):
        # A page holding pieces (h), behind by track taps only, gets what those can alter (one render of those).
        only = changed_since(game, seen if request.GET.get("h") else None)
        pieces = state_pieces(request, game, can_edit, {}, only, THROUGH if only is not None else ())
        return pull_response(request, f"game:{game.pk}", pieces, game.version)
    context = state_context(request, game, can_edit)
    return render(request, "games.html#state", context)


@require_POST
@game_view(edit=True)
def game_who(request: HttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    """Remember the name this phone signs its changes with (a cookie; changes nothing in the game)."""
    form = WhoForm(request.POST)
    if not form.is_valid():
        message = " ".join(map(str, form.errors["who"]))
        return error_page(request, 400, f"This phone's name: {message}.")
    return remember_who(redirect("game", game.edit_token), form.cleaned_data["who"])


@require_safe
@game_view(edit=False)
def game_share(request: HttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    links = []
    if can_edit:
        links.append(
            {"title": "Players: this link can change the game", **shared(request, game.edit_url()).item}
        )
    links.append({"title": "Onlookers: view only", **shared(request, game.view_url()).item})
    token_back = game.edit_token if can_edit else game.view_token
    return render(
        request, "games_share.html", {"game": game, "links": links, "token": token_back, "can_edit": can_edit}
    )


@require_safe
@game_view(edit=False)
def game_log(request: HttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    token_back = game.edit_token if can_edit else game.view_token
    return render(
        request, "games_log.html", {"game": game, "changes": game.changes.all(), "token": token_back}
    )


@require_POST
@game_view(edit=True)
def game_end(request: HttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    """After New Year's Day: open the scoring walk-through with score track, firefighting, trade and setup.

    The players' names go through the start pages' one form (:class:`companion.forms.PlayersForm`). A game
    whose stored names that form refuses (a game made when names could be longer) shows them filled in and
    editable, then scores with the names the table confirms: never a dead end.
    """
    if game.scoresheet is not None:
        return redirect(game.scoresheet)
    if not game.finished:
        return error_page(request, 400, "The game is not over yet: play New Year's Day first.")
    seats: list[Seat] = list(game.seats.all())
    confirmed = "confirm-names" in request.POST
    if confirmed:
        form = PlayersForm(request.POST, rows=len(seats))
    else:
        stored = {f"name-{i}": s.name for i, s in enumerate(seats)} | {
            f"colour-{i}": s.colour for i, s in enumerate(seats)
        }
        form = PlayersForm(stored, rows=len(seats))
    if form.is_valid() and len(form.players) != len(seats):
        form.add_error(
            None, ValidationError(f"This game has {len(seats)} players: give each of them a name.")
        )
    if not form.is_valid():
        context = {
            "game": game,
            "token": game.edit_token,
            "players": form,
            "name_max": NAME_MAX,
            "errors": form.messages(),
        }
        return render(request, "games_end.html", context, status=400 if confirmed else 200)
    try:
        sheet = sheet_for_game(
            game=game,
            names=[name for name, _ in form.players],
            colours=[colour for _, colour in form.players],
        )
    except SheetError as exc:
        return error_page(request, 400, f"The scoring walk-through refused this game: {exc.message}")
    return redirect(sheet)
