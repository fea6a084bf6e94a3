"""Track a game at the table (issue 5): create, share, follow month by month, change the tracks, undo, score.

Routes (docs/api.md "Games", docs/sync.md):

- ``/games/new/`` (``games-new``): the form creating a game with a generated setup.
- ``/games/<token>/`` (``game``): the game page; the edit token may change the game, the view token only look.
- ``/games/<token>/state?v=N`` (``game-state``): the polled partial: 204 while the game is still at version N.
- ``/games/<token>/change`` (``game-change``, POST): one change; 403 with the view token, 409 when stale.
- ``/games/<token>/share`` (``game-share``): links and QR codes; ``/games/<token>/log`` (``game-log``).
- ``/games/<token>/who`` (``game-who``, POST): the name this phone signs its changes with (a cookie).
- ``/games/<token>/end`` (``game-end``, POST): after New Year's Day, open the scoring walk-through prefilled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import wraps
from typing import Any
from urllib.parse import quote, unquote

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import CharField, OuterRef, Value
from django.db.models.functions import Cast, Concat
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import path, reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from companion.forms import NewGameForm, PlayersForm, WhoForm, clean_text, whole_number
from companion.links import shared
from companion.live.engine import (
    Answer,
    Pieces,
    Stored,
    held,
    mutation_id,
    once,
    pull_response,
    stored_id,
)
from companion.models.games import QUICK_SCORES, SCORE_MAX, Change, Game, Seat
from companion.models.scoresheets import NAME_MAX
from companion.models.setup_progress import ticked
from companion.scorepad.services import SheetError, sheet_for_game
from companion.services.tracker import record_flags, records
from companion.services.tracker.changes import RECORD_OPS, SEAT_OPS, Held, apply_change, hold, seen_value
from companion.services.tracker.errors import Asked, Conflict, Refused, Replayed
from companion.services.tracker.games import (
    NewPlayer,
    create_game,
    game_by_token,
    recent_changes,
    scoring_setup,
    seats_of,
    setup_steps,
    turn_order,
    version_of,
)
from companion.tokens import is_token
from companion.views.setup import (
    QueryError,
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
from scoring.calendar import (
    FIRE_MONTHS,
    NEW_YEAR,
    TRACK_MAX,
    Phase,
    due_reveals,
    firefighting_order,
    month_events,
    overdue_reveals,
    personality_names,
    reveal_name,
    season_of,
    season_reveal,
    step_events,
    table_phases,
    trade_income,
)
from scoring.catalogue import (
    BOAT_BY_ID,
    BOATS,
    BUILDING_BY_ID,
    CHARACTER_BY_ID,
    CHARACTERS,
    PERSONALITY_BY_ID,
    RETIREMENT_TOKEN_BY_ID,
    RETIREMENT_TOKENS,
    STARTING_TILE_BY_ID,
    TOKEN_BY_ID,
    TOKENS,
    personalities_of_season,
)
from scoring.components import SEASONS, Expansion, Season
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
from setupgen import CODE_MAX, HouseRules, Options, OptionsError, SeedError, generate, parse_code

WHO_COOKIE = "iki_who"
WHO_DEFAULT = "a phone"
LOG_ON_PAGE = 8


# --- helpers ----------------------------------------------------------------------------------------------------


def _error(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(request, "error.html", {"status": status, "message": message}, status=status)


NO_GAME = "There is no game at this address. Check the link you were given."
VIEW_ONLY = "This is the view-only link: it cannot change the game. Ask the table for the edit link."

GameView = Callable[[HttpRequest, Game, bool], HttpResponse]


def _game_view(*, edit: bool) -> Callable[[GameView], Callable[[HttpRequest, str], HttpResponse]]:
    """A view of the game a token opens: 404 for no such game; with ``edit``, 403 for the view-only token.

    The view is called as ``view(request, game, can_edit)``.
    """

    def decorate(view: GameView) -> Callable[[HttpRequest, str], HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, token: str) -> HttpResponse:
            found = game_by_token(token) if is_token(token) else None
            if found is None:
                return _error(request, 404, NO_GAME)
            game, can_edit = found
            if edit and not can_edit:
                return _error(request, 403, VIEW_ONLY)
            return view(request, game, can_edit)

        return wrapper

    return decorate


def _who(request: HttpRequest) -> str:
    """The name this phone signs its changes with; a cookie that is not a valid name is dropped (ignored)."""
    try:
        name = clean_text(unquote(request.COOKIES.get(WHO_COOKIE, "")))
    except ValidationError:
        return WHO_DEFAULT
    return name if 0 < len(name) <= NAME_MAX else WHO_DEFAULT


def _int_or_none(raw: str | None) -> int | None:
    """A whole number of at most 6 digits (a seat, a score, a version), else None."""
    value = None if raw is None else whole_number(raw)
    return value if value is not None and abs(value) < 10**6 else None


#: The most reveals one step can hold (every hidden draw of a game is fewer), with the "Next" before them.
STEP_CHANGES = 40


def _revealed_this_step(game: Game, last: list[Change]) -> frozenset[str]:
    """The reveals made since the table reached its current step (after the last "Next" not undone): an overdue
    reveal tapped now stays shown under "Now" until the table moves on. Read from the last changes when they
    reach back to that "Next", else one indexed query."""
    rows: Iterable[tuple[str, Any]] = [(c.op, c.undo) for c in last if not c.undone]
    if not any(op == "next" for op, _ in rows) and len(last) >= LOG_ON_PAGE:
        rows = game.changes.filter(undone=False, op__in=("next", "reveal")).values_list("op", "undo")[
            :STEP_CHANGES
        ]
    keys: set[str] = set()
    for op, undo in rows:
        if op == "next":
            break
        made = undo.get("revealed") if op == "reveal" and isinstance(undo, dict) else None
        keys.update([made] if isinstance(made, str) else made or [])
    return frozenset(keys)


def _overdue(game: Game, revealed: frozenset[str], last: list[Change]) -> list[dict[str, Any]]:
    """The reveals due before this step that nobody made (and those made during it), for "Now". The changes
    are read only when a reveal due before this step was made (it may have been made during it)."""
    if game.finished:
        return []
    made = {
        o.event.reveal
        for o in overdue_reveals(game.month, game.phase_enum, game.options, game.setup, revealed=frozenset())
    }
    overdue = overdue_reveals(
        game.month,
        game.phase_enum,
        game.options,
        game.setup,
        revealed=revealed,
        keep=_revealed_this_step(game, last) if made & revealed else frozenset(),
    )
    return [{"since": o.since, "event": o.event, "name": reveal_name(o.event.reveal)[0]} for o in overdue]


def _ask(game: Game) -> dict[str, Any] | None:
    """What "Next" asks before it moves on (issue 20): the reveals due and not made yet, and at New Year's Day
    whether to end the game. None when there is nothing to ask."""
    due = due_reveals(game.month, game.phase_enum, game.options, game.setup)
    keys = [k for k in due if k not in game.revealed]
    end = game.month == NEW_YEAR
    if not keys and not end:
        return None
    names = [reveal_name(k) for k in keys]
    if len(names) == 1:
        text, plural = names[0]
        question = (
            f"{text} {'are' if plural else 'is'} not revealed yet: reveal {'them' if plural else 'it'} now?"
        )
    elif names:
        listed = [text[0].lower() + text[1:] for text, _ in names]
        question = f"Not revealed yet: {', '.join(listed[:-1])} and {listed[-1]}. Reveal them now?"
    else:
        question = ""
    if end:
        question += (" " if question else "") + END_QUESTION
    return {"question": question, "keys": " ".join(keys), "end": end}


END_QUESTION = 'End the game now? The tracks close for the scoring; "Undo last" reopens the game.'


def _state_context(
    request: HttpRequest,
    game: Game,
    can_edit: bool,
    message: str = "",
    level: str = "",
    ask: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything the state partial shows. Hidden setup information is only what the table revealed (issue 13,
    item 4). Reads a bounded number of rows whatever the log's length: the last changes and one ``exists``.
    ``ask``: the question "Next" asks first (:func:`_ask`)."""
    seats = seats_of(game)
    by_seat = {s.seat: s for s in seats}
    phase = game.phase_enum
    revealed = frozenset(game.revealed)
    events = month_events(game.month, game.options, game.setup, reached=phase, revealed=revealed)
    played = turn_order(game, seats)
    order = [by_seat[n] for n in played] if played is not None else []
    fire_order = [by_seat[n] for n in firefighting_order(s.marker for s in seats)]
    shared = {s.firefighting for s in seats if sum(1 for t in seats if t.firefighting == s.firefighting) > 1}
    season = season_of(game.month) if game.month < NEW_YEAR else None
    bridge: tuple[str, ...] = ()
    bridge_hidden = False  # this season's Personalities are drawn but not revealed yet (shown as such)
    if game.akebono:
        current = season or SEASONS[-1]
        if current is SEASONS[0] or season_reveal(current) in revealed:
            bridge = personality_names(current, game.setup)
        else:
            bridge_hidden = bool(personality_names(current, game.setup))
    income = []
    if game.akebono and game.month in FIRE_MONTHS and phase is Phase.C:
        income = [(s, trade_income(s.trade)) for s in seats]
    token = game.edit_token if can_edit else game.view_token
    changes = recent_changes(game, LOG_ON_PAGE)
    # Anything to undo: seen in the last changes, else (all of them undone or undos) one query.
    can_undo = any(not c.undone and c.op not in ("create", "undo") for c in changes) or (
        len(changes) >= LOG_ON_PAGE
        and game.changes.filter(undone=False).exclude(op__in=("create", "undo")).exists()
    )
    steps = setup_steps(game) if can_edit else {}
    return {
        "game": game,
        "token": token,
        "change_url": reverse("game-change", args=[token]),
        "can_edit": can_edit,
        "seats": [(s, _was(game, s)) for s in seats],
        "phase": phase,
        "phases": table_phases(game.month),
        "events": events,
        "current_events": step_events(events, phase),
        "overdue": _overdue(game, revealed, changes),
        "bridge_hidden": bridge_hidden,
        "ask": ask if can_edit else None,
        "order": order,
        "order_title": _order_title(game),
        "fire_order": fire_order,
        "shared": shared,
        "season": season,
        "bridge": bridge,
        "income": income,
        "changes": changes,
        "can_undo": can_undo,
        "next_was": seen_value(game, "next", None),
        "steps": [(step, title, step in game.ticks) for step, title in steps.items()],
        **(_record_context(game, seats, season) if can_edit and game.scoresheet_id is None else {}),
        "ticked": len(game.ticks),
        "quick": QUICK_SCORES,
        "track": [str(n) for n in range(TRACK_MAX + 1)],  # text: compared with ``was``, never localized
        "score_max": SCORE_MAX,
        "message": message,
        "level": level,
        "who": _who(request),
        # Every render collects its pieces: a nested piece counts in its parent's digest by its id alone, on the
        # first load as in an answer (companion.live.engine).
        "live_pieces": Pieces(),
    }


def _choices(ids: Iterable[str], names: Mapping[str, Any], held: set[str]) -> list[tuple[str, str]]:
    return [(i, names[i].name) for i in ids if i in names and i not in held]


def _record_context(game: Game, seats: list[Seat], season: Season | None) -> dict[str, Any]:
    """What the record section offers (what the rules put in front of the table first) and what each player
    has, with the validator's flags (issue 13, item 5). Nothing beyond its supply is offered, nor anything hidden
    before the table revealed it (issues 19 and 20)."""
    editions = {Expansion.BASE, Expansion.AKEBONO} if game.akebono else {Expansion.BASE}
    held = {
        i
        for s in seats
        for f, items in records.entries(s).items()
        if f not in ("retirement_tokens", records.SPENT)
        for i in items
    } | {i for s in seats for i in records.entries(s).get(records.SPENT, []) if i in TOKEN_BY_ID}
    setup = game.setup if isinstance(game.setup, dict) else {}
    revealed = frozenset(game.revealed)
    now: list[str] = [
        c.id for c in CHARACTERS if season is not None and c.season is season and not c.new_character
    ]
    month_new = (setup.get("akebono") or {}).get("new_characters", {}).get(str(game.month))
    if game.akebono and f"new-character-{game.month}" in revealed and isinstance(month_new, str):
        now.insert(0, month_new)
    starting = [str(c.get("card")) for c in setup.get("starting_characters") or [] if isinstance(c, dict)]
    shown_new = _revealed_new_characters(game, setup)
    others = [
        c.id
        for c in CHARACTERS
        if c.expansion in editions
        and c.id not in now
        and c.id not in starting
        and (not c.new_character or c.id in shown_new)
    ]
    token_now = [t.id for t in TOKENS if t.season is (season or SEASONS[-1]) and t.expansion in editions]
    token_rest = [t.id for t in TOKENS if t.expansion in editions and t.id not in token_now]
    met_pool = _met_pool(game, seats, setup, season)
    retirement = [
        t.id
        for t in RETIREMENT_TOKENS
        if t.expansion in editions and records.available(seats, "retirement_tokens", t.id)
    ]
    flags = (
        record_flags.problems(seats, akebono=game.akebono, setup=scoring_setup(game))
        if any(s.record for s in seats)
        else {}
    )
    groups: list[tuple[str, str, list[tuple[str, list[tuple[str, str]]]]]] = [
        (
            "characters",
            "Hired or drafted",
            [
                ("Offered now", _choices(now, CHARACTER_BY_ID, held)),
                ("Starting characters (drafted)", _choices(starting, CHARACTER_BY_ID, held)),
                ("Other characters", _choices(others, CHARACTER_BY_ID, held)),
            ],
        ),
        (
            "tokens",
            "Fish, pipe or tobacco bought",
            [
                ("This season", _choices(token_now, TOKEN_BY_ID, held)),
                ("Other seasons", _choices(token_rest, TOKEN_BY_ID, held)),
            ],
        ),
        (
            "retirement_tokens",
            "Retired (its token)",
            [
                (
                    "Tokens",
                    _choices(retirement, RETIREMENT_TOKEN_BY_ID, set()),
                )
            ],
        ),
        (
            "buildings",
            "Built",
            [("In this game", _choices(setup.get("buildings") or [], BUILDING_BY_ID, held))],
        ),
    ] + (
        [
            (
                "boats",
                "Boat built",
                [("Boats", _choices((b.id for b in BOATS if b.buildable), BOAT_BY_ID, held))],
            ),
            (
                "personalities",
                "Met",
                [("Revealed so far", _choices(met_pool, PERSONALITY_BY_ID, held))],
            ),
        ]
        + [
            (records.SPEND_PIPE, "Spent a pipe", [("Activated", spenders)])
            for spenders in [records.pipe_spenders(seats, setup)]
            if spenders
        ]
        if game.akebono
        else []
    )
    return {
        # Each picker's first choice is marked selected: a picker nobody touched is not unsaved input (live.js).
        "record_groups": [
            (field, label, options, next((i for _, choices in options for i, _ in choices), ""))
            for field, label, options in groups
        ],
        "record_labels": records.FIELD_LABELS,
        "losses": records.LOSSES,
        "resources": records.RESOURCES,
        "records": [
            {
                "seat": s,
                "entries": [
                    (field, records.FIELD_LABELS[field], [(i, records.name_of(field, i)) for i in items])
                    for field, items in records.entries(s).items()
                ],
                "numbers": [(k, (s.record or {}).get(k, 0)) for k in records.RESOURCES],
                "was": records.resources_seen(s),
                "doctor": records.DOCTOR in records.entries(s).get("retirement_tokens", []),
                "flags": flags.get(s.name, []),
            }
            for s in seats
        ],
        "table_flags": flags.get("", []),
        "flagged": [s.name for s in seats if flags.get(s.name)],
    }


def _revealed_new_characters(game: Game, setup: Mapping[str, Any]) -> set[str]:
    """The New Characters the table has revealed (issue 20: none is named before its month's reveal)."""
    drawn = (setup.get("akebono") or {}).get("new_characters") or {}
    revealed = set(game.revealed)
    return {
        str(card)
        for month, card in drawn.items()
        if game.akebono and f"new-character-{month}" in revealed and isinstance(card, str)
    }


def _met_pool(game: Game, seats: list[Seat], setup: Mapping[str, Any], season: Season | None) -> list[str]:
    """The Personalities a player may have met by now (issue 20, item 1): those on the bridge of every season
    the table revealed (Spring's are out from the setup, RULINGS R18); once someone built the Ferry boat and its
    side is B or unknown, every Personality of those seasons (RULINGS R13: side B meets one "from the current
    season that is not on the Nihonbashi bridge"). A later season's are never named before its reveal."""
    if not game.akebono:
        return []
    drawn = (setup.get("akebono") or {}).get("personalities") or {}
    revealed = set(game.revealed)
    seasons = [s for s in SEASONS if s is SEASONS[0] or season_reveal(s) in revealed]
    pool = [p for s in seasons for p in drawn.get(s.value) or [] if isinstance(p, str)]
    side = ((setup.get("akebono") or {}).get("boat_sides") or {}).get("ferry-boat")
    ferry = side != "A" and any("ferry-boat" in records.entries(s).get("boats", []) for s in seats)
    if ferry:
        pool += [p.id for s in seasons for p in personalities_of_season(s) if p.id not in pool]
    return pool


def _was(game: Game, seat: Seat) -> dict[str, str | None]:
    """The values a seat's set forms are made against (``was``, see companion.services.tracker.changes.seen_value)."""
    return {
        op.replace("-", "_"): seen_value(game, op, seat)
        for op in ("score-set", "fire-set", "fire-top", "trade-set")
    }


def _order_title(game: Game) -> str:
    """The heading of the order of play, naming the phase that is on (issue 13, item 7)."""
    if game.month == NEW_YEAR:
        return "Order of play on New Year's Day"
    if game.phase_enum is Phase.A:
        return "Order for phase A"
    if game.phase_enum is Phase.B:
        return "Order for phase B"
    return f"Firefighting order (phase {game.phase}); next month's phase A follows it"


def _state_response(
    request: HttpRequest,
    game: Game,
    can_edit: bool,
    *,
    status: int = 200,
    message: str = "",
    level: str = "",
    ask: dict[str, Any] | None = None,
    question: Mapping[str, Any] | None = None,
    answer_at: str = "",
) -> HttpResponse:
    context = _state_context(request, game, can_edit, message, level, ask)
    context |= {"question": question, "answer_at": answer_at}
    template = "games.html#state" if request.htmx else "games.html"
    if not request.htmx:
        context.update(_page_context(request, game, can_edit))
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _page_context(request: HttpRequest, game: Game, can_edit: bool) -> dict[str, Any]:
    setup = game.setup if isinstance(game.setup, dict) else {}
    seats = seats_of(game)
    by_seat = {s.seat: s.name for s in seats}
    starting = []
    for choice in setup.get("starting_characters") or []:
        card = CHARACTER_BY_ID.get(str(choice.get("card")))
        tile = STARTING_TILE_BY_ID.get(str(choice.get("tile"))) if choice.get("tile") else None
        if card:
            starting.append(card.name + (f" + {tile.name}" if tile else ""))
    boats = []
    for boat_id, side in ((setup.get("akebono") or {}).get("boat_sides") or {}).items():
        if boat_id in BOAT_BY_ID:
            boats.append(f"{BOAT_BY_ID[boat_id].name}: side {side}")
    sun = (setup.get("two_player") or {}).get("sun")
    return {
        "buildings": [BUILDING_BY_ID[b].name for b in setup.get("buildings") or [] if b in BUILDING_BY_ID],
        "starting": starting,
        "boats": boats,
        "first_name": by_seat.get(game.first_player, ""),
        "draft_names": [by_seat.get(n, "") for n in setup.get("draft_order") or []],
        "sun_name": by_seat.get(sun, "") if isinstance(sun, int) else "",
        "moon_name": by_seat.get(3 - sun, "") if isinstance(sun, int) and game.players == 2 else "",
        "who_choices": [s.name for s in seats],
        # The seed regenerates every hidden draw: only the edit link shows it before the game ends (issue 20).
        "show_seed": bool(game.seed) and (can_edit or game.finished),
    }


# --- creating a game ----------------------------------------------------------------------------------------------


def _table_code(request: HttpRequest) -> str:
    """The setup page's table code (``table=``) a new game takes its setup ticks from; "" when not a valid one."""
    table = request.POST.get("table") or request.GET.get("table") or ""
    return table if is_table(table) else ""


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
    return {
        "players": players,
        "seed": seed,
        "seed_spaced": spaced_seed(seed),
        "summary": options_summary(options),
        "house_line": house,
        "akebono": options.akebono,
        "grand_master": options.grand_master,
        "change_url": f"{reverse('setup-options')}?{options_query(options, None, **house_query(rules))}",
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
    template = "games_new.html#form" if request.htmx else "games_new.html"
    return render(request, template, context, status=status)


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
def games_new(request: HttpRequest) -> HttpResponse:
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
        except (QueryError, SeedError) as exc:
            message = f"This link to a setup cannot be used: {sentence(str(exc))} Fill in the game below."
            return _new_form(request, NewGameForm(initial=initial), status=400, error=message)
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
    ticks = ticked(ticks_key(table, generated)) if table else frozenset()
    game = create_game(
        players=players,
        akebono=data["akebono"],
        grand_master=data["grand_master"],
        setup=setup,
        who=who,
        ticks=sorted(ticks),
    )
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("game-share", args=[game.edit_token])
    else:
        response = redirect("game-share", game.edit_token)
    return _remember_who(response, who)


def _remember_who(response: HttpResponse, who: str) -> HttpResponse:
    """This phone signs its changes as ``who`` (a cookie kept for a month)."""
    response.set_cookie(
        WHO_COOKIE,
        quote(who),
        max_age=60 * 60 * 24 * 30,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


# --- the game ---------------------------------------------------------------------------------------------------


@require_safe
@_game_view(edit=False)
def game_page(request: HttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    return _state_response(request, game, can_edit)


@require_safe
def game_state(request: HttpRequest, token: str) -> HttpResponse:
    """The polled partial. ``?v=N``: 204 (no body) while the game is at version N, else the fresh partial."""
    raw = request.GET.get("v")
    seen = _int_or_none(raw) if raw is not None else None
    if raw is not None and seen is None:
        return _error(request, 400, "The version (?v=) must be a whole number.")
    if seen is not None and is_token(token) and version_of(token) == seen:
        response = HttpResponse(status=204)  # the fast path of every poll: one indexed query, no game loaded
        response["Cache-Control"] = "no-store"
        return response
    return _fresh_state(request, token)


@_game_view(edit=False)
def _fresh_state(request: HttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    if _is_live(request):
        return pull_response(request, f"game:{game.pk}", _pieces(request, game, can_edit, {}), game.version)
    context = _state_context(request, game, can_edit)
    response = render(request, "games.html#state", context)
    response["Cache-Control"] = "no-store"
    return response


class _NotHere(Exception):
    """No game at this token (404) or the view-only token (403): nothing written, nothing stored."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


#: The engine's name of the game a seat row belongs to (companion.live.kinds.key), for the stored-write lookup.
_THING = Concat(Value("game:"), Cast(OuterRef("game_id"), output_field=CharField()))


@require_POST
def game_change(request: HttpRequest, token: str) -> HttpResponse:
    """One change, applied at most once per write id (``lc``/``ln``, companion.live; docs/sync.md). ``cid``: the
    older per-write id (applied once; a replay answers the current state); ``v``/``was``: what a set change was
    made against (409 when it changed meanwhile). The live script gets the pieces that changed, htmx the state
    partial, a plain form a redirect back. One query reads the game, its seats and the write's stored answer
    (companion.live.engine.stored_id), holding the game until the change is stored."""
    if not is_token(token):
        return _error(request, 404, NO_GAME)
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
        return _error(request, exc.status, exc.message)
    return answer.response(replay=replay)


def _change(request: HttpRequest, held_game: Held) -> Answer:
    game = held_game.game
    op = request.POST.get("op", "")
    seat = _int_or_none(request.POST.get("seat"))
    value = _int_or_none(request.POST.get("value"))
    seen = _int_or_none(request.POST.get("v"))
    was = request.POST.get("was") or None
    key = request.POST.get("key", "")[:80]
    field = request.POST.get("field", "")[:40]
    numbers = {k: _int_or_none(request.POST.get(k)) for k in records.RESOURCES}
    client_id = request.POST.get("cid") or None
    paid = request.POST.get("paid", "")[:80]
    move = request.POST.get("move") == "1"
    at = _answer_at(game, op, seat)
    if op == "reveal":  # "Next" asks to reveal every reveal not made yet in one tap
        key = " ".join(request.POST.getlist("key"))[:400]
    if op == "next" and request.POST.get("ask") and not request.POST.get("force") and not game.finished:
        # The Next button asks first (the "Go on without" answer posts without ``ask``, "Apply it anyway" after a
        # conflict with ``force``); a stale tap is left to apply_change, which answers 409. Asking writes nothing.
        ask = _ask(game) if seen == game.version or was == seen_value(game, "next", None) else None
        if ask is not None:
            return _answer(request, game, ask=ask)
    held_seat = (
        next((s for s in held_game.seats if s.seat == seat), None)
        if op == "record-remove" and request.POST.get("ask")
        else None
    )
    if held_seat is not None and key in records.entries(held_seat).get(field, []):
        # The × of a recorded entry asks once (issue 20); its answer "Remove" posts without ``ask``. An entry
        # already gone is left to apply_change, which says so.
        return _answer(request, game, ask={"remove": True, "seat": seat, "field": field, "key": key})
    if op in SEAT_OPS and op not in ("fire-add", "trade-add", "fire-top") and value is None:
        return _answer(request, game, status=400, message="Enter a whole number.", level="error", at=at)
    try:
        game = apply_change(
            game_id=game.pk,
            held=held_game,
            op=op,
            who=_who(request),
            seat=seat,
            value=value,
            seen=seen,
            was=was,
            key=key,
            field=field,
            numbers=numbers,
            client_id=client_id,
            paid=paid,
            move=move,
        )
    except Asked as exc:
        # Nothing saved: the answer is a question with its choices next to the record's forms (issue 19).
        question = {
            "text": exc.question.text,
            "fields": {"op": op, "seat": seat, "field": field, "key": key},
            "choices": exc.question.choices,
        }
        exc.game.seat_list = None  # a question may leave a seat changed in memory: read them again
        return _answer(
            request, exc.game, message=exc.question.text, level="warning", question=question, at=at
        )
    except Conflict as exc:
        return _answer(request, exc.game, status=409, message=str(exc), level="warning", at=at)
    except Replayed as exc:
        return _answer(request, exc.game, message=str(exc), level="ok", at=at)
    except Refused as exc:
        game.refresh_from_db()
        game.seat_list = None  # a refusal may leave a seat changed in memory: read them again
        return _answer(request, game, status=400, message=str(exc), level="error", at=at)
    if request.htmx or _is_live(request):
        saved = "Saved."
        if op in RECORD_OPS:  # what a record did, its immediate IKI included (issue 19)
            last = next(iter(recent_changes(game, 1)), None)
            saved = f"Saved: {last.summary}." if last is not None else saved
        return _answer(request, game, message=saved, level="warning" if game.warned else "ok", at=at)
    return Answer.of(redirect("game", game.edit_token), game.version)


def _answer_at(game: Game, op: str, seat: int | None) -> str:
    """The answer slot beside the control a change was made with (``answer-<slot>`` in games.html): the answer
    is written where the thumb is. "" (the top of the state) when the page shows no such slot."""
    if seat is None or not 1 <= seat <= game.players:
        seat = None
    records_shown = game.scoresheet_id is None
    if op in ("score-add", "fire-add", "trade-add"):
        return f"row-{seat}" if seat else ""
    if op in ("score-set", "fire-set", "trade-set", "fire-top"):
        return f"exact-{seat}" if seat and not game.finished else ""
    if op in ("record-remove", "lost", "resources"):
        return f"record-{seat}" if seat and records_shown else ""
    if op == "record-add" and not records_shown:
        return ""
    return {"next": "controls", "undo": "controls", "reveal": "month", "record-add": "record-add"}.get(
        op, "ticks" if op in ("tick", "untick") else ""
    )


def _is_live(request: HttpRequest) -> bool:
    """A request of the live script (companion/static/companion/live.js): answered with pieces only."""
    return request.headers.get("X-Live") == "1"


def _answer(
    request: HttpRequest,
    game: Game,
    *,
    status: int = 200,
    message: str = "",
    level: str = "",
    ask: dict[str, Any] | None = None,
    question: Mapping[str, Any] | None = None,
    at: str = "",
) -> Answer:
    """A change's answer: for the live script only the pieces the page lacks (``h``), else the state."""
    said: dict[str, Any] = {"message": message, "level": level, "ask": ask, "question": question}
    if not _is_live(request):  # htmx: the state partial, the answer at its top
        return Answer.of(_state_response(request, game, True, status=status, **said), game.version)
    said["answer_at"] = at
    pieces = _pieces(request, game, True, said)
    body = "".join(p.html for p in pieces.missing(held(request.POST.get("h", ""))))
    return Answer(status, body, game.version)


def _pieces(request: HttpRequest, game: Game, can_edit: bool, said: Mapping[str, Any]) -> Pieces:
    pieces = Pieces()
    context = _state_context(
        request, game, can_edit, said.get("message", ""), said.get("level", ""), said.get("ask")
    )
    context |= {
        "question": said.get("question"),
        "answer_at": said.get("answer_at", ""),
        "live_pieces": pieces,
    }
    get_template("games.html#state").render(context, request)
    return pieces


@require_POST
@_game_view(edit=True)
def game_who(request: HttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    """Remember the name this phone signs its changes with (a cookie; changes nothing in the game)."""
    form = WhoForm(request.POST)
    if not form.is_valid():
        message = " ".join(form.errors["who"])
        return _error(request, 400, f"This phone's name: {message}.")
    return _remember_who(redirect("game", game.edit_token), form.cleaned_data["who"])


@require_safe
@_game_view(edit=False)
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
@_game_view(edit=False)
def game_log(request: HttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    token_back = game.edit_token if can_edit else game.view_token
    return render(
        request, "games_log.html", {"game": game, "changes": game.changes.all(), "token": token_back}
    )


@require_POST
@_game_view(edit=True)
def game_end(request: HttpRequest, game: Game, can_edit: bool) -> HttpResponse:
    """After New Year's Day: open the scoring walk-through with score track, firefighting, trade and setup.

    The players' names go through the start pages' one form (:class:`companion.forms.PlayersForm`). A game
    whose stored names that form refuses (a game made when names could be longer) shows them filled in and
    editable, then scores with the names the table confirms: never a dead end.
    """
    if game.scoresheet is not None:
        return redirect(game.scoresheet)
    if not game.finished:
        return _error(request, 400, "The game is not over yet: play New Year's Day first.")
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
        return _error(request, 400, f"The scoring walk-through refused this game: {exc.message}")
    return redirect(sheet)


urlpatterns = [
    path("games/new/", games_new, name="games-new"),
    path("games/<str:token>/", game_page, name="game"),
    path("games/<str:token>/state", game_state, name="game-state"),
    path("games/<str:token>/change", game_change, name="game-change"),
    path("games/<str:token>/share", game_share, name="game-share"),
    path("games/<str:token>/log", game_log, name="game-log"),
    path("games/<str:token>/who", game_who, name="game-who"),
    path("games/<str:token>/end", game_end, name="game-end"),
]
