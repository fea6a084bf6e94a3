"""``/games/new/`` (``games-new``): the form creating a tracked game with a generated setup (issue 5), fixed to
the setup a "Track this game" link brings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from companion.errors import UserError
from companion.forms import NewGameForm, whole_number
from companion.http import HtmxHttpRequest
from companion.models.scoresheets import NAME_MAX
from companion.models.setup_progress import stream_of, tracked_game
from companion.services.tracker.games import (
    NewPlayer,
    create_game,
)
from companion.setup_query import (
    house_query,
    house_summary,
    is_table,
    options_query,
    options_summary,
    parse_request,
    sentence,
    setup_names,
    spaced_seed,
    ticks_key,
)
from companion.views.answers import page_or_partial
from companion.views.tracker.common import (
    remember_who,
)
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
from setupgen import CODE_MAX, HouseRules, Options, OptionsError, SeedError, generate, parse_code


def _table_code(request: HttpRequest) -> str:
    """The setup page's table code (``table=``) a new game takes its setup ticks from; "" when not a valid one."""
    table = request.POST.get("table") or request.GET.get("table") or ""
    return table if is_table(table) else ""


def _tracked(request: HttpRequest, options: Options, seed: str) -> str | None:
    """The edit token of the game "Track this game" already made of this setup page (its ``table=``), or None."""
    table = _table_code(request)
    if not table:
        return None
    try:
        setup = generate(options, seed)
    except OptionsError:
        return None
    return tracked_game(stream_of(ticks_key(table, setup)))


def _fixed_setup(form: NewGameForm, players: int | None) -> dict[str, Any] | None:
    """The setup a "Track this game" link brought (``players`` is the number it was made for), as the form shows it
    (the seed, the options, a link to change them); None for the plain form or options no game is set up with."""
    seed = str(form["seed"].value() or "").strip()
    if players is None or not seed:
        return None
    try:
        options = Options(
            players=players,
            akebono=bool(form["akebono"].value()),
            grand_master=bool(form["grand_master"].value()),
        )
    except OptionsError:
        return None
    try:
        rules = parse_code(seed).house
    except SeedError:
        rules = HouseRules()
    house = house_summary(rules)
    names = [typed for _, name, _ in form.rows() if (typed := str(name.value() or "").strip())]
    return {
        "players": players,
        "seed": seed,
        "seed_spaced": spaced_seed(seed),
        "summary": options_summary(options),
        "house_line": house,
        "akebono": options.akebono,
        "grand_master": options.grand_master,
        # The names typed so far go with it: changing the number of players keeps them.
        "change_url": f"{reverse('setup-options')}?{options_query(options, None, **house_query(rules), name=names)}",
    }


def _new_form(
    request: HttpRequest, form: NewGameForm, status: int = 200, *, fixed: int | None = None, error: str = ""
) -> HttpResponse:
    setup = _fixed_setup(form, fixed)
    context = {
        "form": form,
        "players": form,
        "fixed": setup,
        "required_rows": setup["players"] if setup else 2,
        "table": _table_code(request),
        "name_max": NAME_MAX,
        "errors": [error] if error else form.messages() if form.is_bound else [],
    }
    return page_or_partial(request, "games_new.html", "form", context, status=status)


def _made_for(data: Mapping[str, str]) -> int | None:
    """The number of players a posted setup was made for (``setup_players``, with a seed); None when not given."""
    players = whole_number(data.get("setup_players") or "")
    if players is None or not (data.get("seed") or "").strip():
        return None
    return players if MIN_PLAYERS <= players <= MAX_PLAYERS else None


def made_for_message(made_for: int, given: int) -> str:
    """The refusal when a setup's code meets another number of players (RULINGS R19: options + seed = setup)."""
    return (
        f"This setup code was made for {made_for} players: with {given} it gives another setup. Fill in "
        f"{made_for} names, or change the setup for {given} players on the Setup page."
    )


@require_http_methods(["GET", "HEAD", "POST"])
def games_new(request: HtmxHttpRequest) -> HttpResponse:
    """``/games/new/``: players (names, colours, seats), base or Akebono, Grand Master, seed; POST creates.

    "Track this game" on the setup page links here with the whole setup,
    ``?players=N[&akebono=1][&grand_master=1]&seed=CODE&table=CODE[&name=...]``: the form then shows that setup
    as fixed (its house rules too: the code carries them) and exactly N name rows, filled with the names typed on
    the setup page, and refuses another number of players (the same code would give another setup)."""
    if request.method != "POST":
        # A link from the setup page carries its options: ?players=3&seed=K7MX2QPA&akebono=1&grand_master=1
        initial: dict[str, Any] = {
            "seed": request.GET.get("seed", "")[:CODE_MAX],
            **{f"name-{i}": name for i, name in enumerate(setup_names(request.GET))},
            "akebono": request.GET.get("akebono") == "1",
            "grand_master": request.GET.get("grand_master") == "1",
        }
        if not (request.GET.get("players") and initial["seed"]):
            return _new_form(request, NewGameForm(initial=initial))
        try:
            options, _ = parse_request(request.GET)
            seed = str(parse_code(initial["seed"]))
        except (UserError, SeedError) as exc:
            message = f"This link to a setup cannot be used: {sentence(str(exc))} Fill in the game below."
            return _new_form(request, NewGameForm(initial=initial), status=400, error=message)
        tracked = _tracked(request, options, seed)
        if tracked is not None:
            # Another phone of the table made this setup's game: this phone joins it.
            return redirect("game", tracked)
        initial.update(
            seed=seed,
            akebono=options.akebono,
            grand_master=options.grand_master,
            setup_players=options.players,
        )
        form = NewGameForm(initial=initial, rows=options.players)
        return _new_form(request, form, fixed=options.players)
    made_for = _made_for(request.POST)
    form = NewGameForm(request.POST, rows=made_for or MAX_PLAYERS)
    if not form.is_valid():
        return _new_form(request, form, status=400, fixed=made_for)
    data = form.cleaned_data
    players = [NewPlayer(name, colour) for name, colour in form.players]
    if made_for is not None and len(players) != made_for:
        form.add_error(None, ValidationError(made_for_message(made_for, len(players))))
        return _new_form(request, form, status=400, fixed=made_for)
    try:
        options = Options(players=len(players), akebono=data["akebono"], grand_master=data["grand_master"])
        generated = generate(options, seed=data["seed"].strip() or None)
        setup = generated.to_json()
    except (OptionsError, SeedError) as exc:
        form.add_error("seed" if isinstance(exc, SeedError) else None, ValidationError(str(exc)))
        return _new_form(request, form, status=400, fixed=made_for)
    who = players[0].name
    table = _table_code(request)
    game = create_game(
        players=players,
        akebono=data["akebono"],
        grand_master=data["grand_master"],
        setup=setup,
        who=who,
        setup_key=ticks_key(table, generated) if table else "",
    )
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("game-share", args=[game.edit_token])
    else:
        response = redirect("game-share", game.edit_token)
    return remember_who(response, who)
