"""The setup generator on a phone and on paper (issue 3), and ``GET /api/v1/setup`` (docs/api.md "Setup").

Thin views: parse the query string, call :mod:`setupgen`, render. Every address carries the options and the seed
in its query string, so a link reproduces its setup (RULINGS R19). The pages and the PDF sheet keep the tracker's
rule (issue 20): they show the open checklist only and name no hidden draw (a fire's Nagaya, a later season's
Personalities or River tokens, a New Character, a Blocking tile); where those were, they say the game tracker
reveals them when due, and "Track this game" carries the whole setup there (:func:`track_url`). Only
``GET /api/v1/setup`` shows everything (docs/api.md says so).

The checklist's ticks are kept on the server (companion/models/setup_progress.py), keyed by :func:`ticks_key`, so a
reload, a phone that slept or a second phone with the share link sees them: ``POST /setup/ticks?...`` saves one
step (htmx, on each tap) or the whole form (without JavaScript, "Save ticks", then back to the page), and an open
page polls ``GET /setup/ticks/state?...`` for the other phones' ticks (204 while nothing changed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_POST, require_safe

from companion.links import share_url
from companion.models.setup_progress import change_ticks, tick, ticked
from companion.pdf.setup_sheet import PAGE_SIZES, setup_sheet_pdf
from companion.tokens import is_token, new_token
from companion.views.errors import json_error
from scoring.errors import quote
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
from setupgen import (
    SEED_LENGTH,
    Options,
    OptionsError,
    SeedError,
    Setup,
    checklist,
    generate,
    new_seed,
)
from setupgen.checklist import Section, Step

TRUE_WORDS = frozenset({"1", "true", "on", "yes"})
FALSE_WORDS = frozenset({"", "0", "false", "off", "no"})
PLAYER_CHOICES = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
DEFAULT_PLAYERS = 4


@dataclass(frozen=True)
class QueryError(Exception):
    """Bad input in the query string: ``field`` names it, ``message`` says what is wrong, for a person."""

    field: str
    message: str
    code: str = "invalid"

    def __str__(self) -> str:
        return self.message


def _flag(query: Mapping[str, str], name: str) -> bool:
    value = query.get(name, "").strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise QueryError(name, f"{name} must be 1 or 0 (or true/false), not {quote(query.get(name, ''))}")


def parse_options(query: Mapping[str, str]) -> Options:
    """``players``, ``akebono``, ``grand_master`` from a query string; :class:`QueryError` if anything is wrong."""
    raw = query.get("players", "").strip()
    if not raw:
        raise QueryError(
            "players", f"say how many players: players={MIN_PLAYERS} to {MAX_PLAYERS}", "missing"
        )
    try:
        players = int(raw)
    except ValueError:
        raise QueryError(
            "players", f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {quote(raw)}"
        ) from None
    akebono, grand_master = _flag(query, "akebono"), _flag(query, "grand_master")
    try:
        return Options(players=players, akebono=akebono, grand_master=grand_master)
    except OptionsError as exc:
        field = "grand_master" if grand_master and MIN_PLAYERS <= players <= MAX_PLAYERS else "players"
        raise QueryError(field, str(exc)) from None


def parse_request(query: Mapping[str, str], *, seed_required: bool = False) -> tuple[Options, str | None]:
    """Options and the seed (None when absent) from a query string."""
    options = parse_options(query)
    seed = query.get("seed", "").strip() or None
    if seed is None and seed_required:
        raise QueryError("seed", f"give the setup code: seed= and its {SEED_LENGTH} characters", "missing")
    return options, seed


def options_query(options: Options, seed: str | None = None, **extra: str) -> str:
    params: dict[str, str] = {"players": str(options.players)}
    if options.akebono:
        params["akebono"] = "1"
    if options.grand_master:
        params["grand_master"] = "1"
    if seed is not None:
        params["seed"] = seed
    params.update(extra)
    return urlencode(params)


def game_url(options: Options, seed: str | None = None, **extra: str) -> str:
    return f"{reverse('setup-game')}?{options_query(options, seed, **extra)}"


def ticks_key(table: str, setup: Setup) -> str:
    """What a table's ticks are saved under: the table's own unguessable token, then what reproduces the setup
    (the generator's version, the normalized options and the seed, RULINGS R19), e.g.
    ``Xc2…|v1?players=2&akebono=1&seed=K7MX2QPA``. Never the seed alone: whoever saw a seed could tick, and two
    tables playing one seed would tick each other's boxes. A new generator version starts the ticks afresh."""
    return f"{table}|v{setup.generator_version}?{options_query(setup.options, setup.seed)}"


def ticks_url(options: Options, seed: str, table: str) -> str:
    return f"{reverse('setup-ticks')}?{options_query(options, seed, table=table)}"


NO_TABLE = (
    "This link cannot save ticks: it has no table code of this setup page (table=). Open the setup from its "
    "share link. Nothing was saved."
)
_TABLE_SIGNER = signing.Signer(salt="companion.setup.table", sep=".")


def new_table() -> str:
    """A table's own token for its ticks: 144 random bits and their signature, so a token made anywhere else (a
    game's view link, a guess) is refused without the server storing anything when a page is opened."""
    return _TABLE_SIGNER.sign(new_token())


def is_table(text: str) -> bool:
    if len(text) > 120:
        return False
    try:
        return is_token(_TABLE_SIGNER.unsign(text))
    except signing.BadSignature:
        return False


def sentence(message: str) -> str:
    """A message from the core as a sentence for a page: capital first letter, full stop."""
    message = message.strip()
    if not message:
        return message
    return message[0].upper() + message[1:] + ("" if message.endswith((".", "!", "?")) else ".")


def spaced_seed(seed: str) -> str:
    """``K7MX 2QPA``: easier to read aloud."""
    half = len(seed) // 2
    return f"{seed[:half]} {seed[half:]}"


# --- the options page -----------------------------------------------------------------------------------------


def _form_context(query: Mapping[str, str], error: str = "", error_field: str = "") -> dict[str, Any]:
    """The options form filled from ``query``, leniently: what cannot be read falls back to the defaults."""
    try:
        players = int(query.get("players", "").strip())
    except ValueError:
        players = DEFAULT_PLAYERS
    if players not in PLAYER_CHOICES:
        players = DEFAULT_PLAYERS
    akebono = query.get("akebono", "").strip().lower() in TRUE_WORDS
    grand_master = query.get("grand_master", "").strip().lower() in TRUE_WORDS
    gm_allowed = players == 2 and akebono
    warning = ""
    if grand_master and not gm_allowed and not error:
        warning = "The Grand Master variant needs 2 players and Akebono."
    return {
        "player_choices": PLAYER_CHOICES,
        "players": players,
        "akebono": akebono,
        "grand_master": grand_master,
        "seed": query.get("seed", "").strip()[:40],
        "error": error,
        "error_field": error_field,
        "warning": warning,
        "seed_length": SEED_LENGTH,
    }


@require_safe
def setup_options(request: HttpRequest) -> HttpResponse:
    """``GET /setup/``: pick the options and generate. htmx (on any change of the form): just its warning."""
    context = _form_context(request.GET)
    if request.htmx:
        return render(request, "setup.html#options-warning", context)
    return render(request, "setup.html", context)


def _options_error(request: HttpRequest, exc: QueryError | SeedError) -> HttpResponse:
    field = exc.field if isinstance(exc, QueryError) else "seed"
    context = _form_context(request.GET, error=sentence(str(exc)), error_field=field)
    template = "setup.html#options-form" if request.htmx else "setup.html"
    return render(request, template, context, status=400)


# --- the setup as a checklist ---------------------------------------------------------------------------------

NOT_HERE = "This page shows no hidden draw: the game tracker reveals each one when it is due. Open “Track this game”."
"""An old address asking this page to reveal a hidden item (``show=`` or ``hide=``) gets the page and this line."""
POLL_MS = 2000
"""How often (ms) an open setup page asks for other phones' ticks (htmx ``every``): "within a poll"."""


def _sections(steps: tuple[Step, ...], done: frozenset[str]) -> list[dict[str, Any]]:
    groups: dict[Section, list[dict[str, Any]]] = {}
    for step in steps:
        groups.setdefault(step.section, []).append(
            {
                "step": step,
                "done": step.id in done,
            }
        )
    return [{"section": section, "steps": steps} for section, steps in groups.items()]


def _progress(
    steps: tuple[Step, ...], done: frozenset[str], message: str = "", level: str = "ok"
) -> dict[str, Any]:
    """The tick count line (``#setup-progress``): how many steps are ticked, and what the last save did."""
    return {
        "done_count": sum(1 for step in steps if step.id in done),
        "total": len(steps),
        "message": message,
        "level": level,
    }


def options_summary(options: Options) -> str:
    parts = [f"{options.players} players"]
    if options.akebono:
        parts.append("IKI Akebono")
    if options.grand_master:
        parts.append("Grand Master variant")
    return " · ".join(parts) if options.akebono else parts[0] + " · base game"


def track_url(options: Options, seed: str, table: str) -> str:
    """ "Track this game": the new-game form with every option of the setup, its seed and the table code (the
    ticks made on the setup page move into the game). The form then has exactly that many players."""
    return f"{reverse('games-new')}?{options_query(options, seed, table=table)}"


@require_safe
def setup_game(request: HttpRequest) -> HttpResponse:
    """``GET /setup/game?players=N[&akebono=1][&grand_master=1]&seed=CODE&table=CODE``: the open checklist.

    Without a seed or the table's code: a redirect that adds them (the address is the share link, and its table
    code keys the ticks). The page names no hidden draw: the game tracker reveals each when it is due. An address
    with ``show=`` or ``hide=`` (from when this page revealed items) gets the page and a line saying so.
    """
    try:
        options, seed = parse_request(request.GET)
        setup = generate(options, seed or new_seed())
    except (QueryError, SeedError) as exc:
        return _options_error(request, exc)
    table = request.GET.get("table", "")
    if seed is None or not is_table(table):
        # The address is the share link: it gets the seed and the table's own token for its ticks.
        return HttpResponseRedirect(game_url(options, setup.seed, table=new_table()))
    done = ticked(ticks_key(table, setup))
    steps = checklist(setup)
    ticks = ticks_url(options, setup.seed, table)
    context = {
        "setup": setup,
        "seed_spaced": spaced_seed(setup.seed),
        "summary": options_summary(options),
        "sections": _sections(steps, done),
        "done": sorted(done),
        "hidden_count": sum(1 for step in steps if step.hidden),
        "not_here": NOT_HERE if request.GET.get("show") or request.GET.get("hide") else "",
        "progress": _progress(steps, done, "Ticks saved." if request.GET.get("saved") == "1" else ""),
        "ticks_url": ticks,
        "poll_url": f"{reverse('setup-ticks-state')}?{ticks.partition('?')[2]}",
        "poll_ms": POLL_MS,
        "share_url": share_url(request, game_url(options, setup.seed, table=table)),
        "reroll_url": game_url(options),
        "options_url": f"{reverse('setup-options')}?{options_query(options)}",
        "sheet_urls": [
            (label, f"{reverse('setup-sheet')}?{options_query(options, setup.seed, size=size)}")
            for size, label in (("a4", "A4"), ("letter", "Letter"))
        ],
        "track_url": track_url(options, setup.seed, table),
    }
    response = render(request, "setup_game.html#setup" if request.htmx else "setup_game.html", context)
    if request.htmx:
        response["HX-Push-Url"] = game_url(options, setup.seed, table=table)
    if request.htmx and context["not_here"]:
        # An old page's reveal button targets one item: the answer is the whole checklist.
        response["HX-Retarget"] = "#setup"
        response["HX-Reswap"] = "outerHTML"
    add_never_cache_headers(response)  # the ticks change: a reload must ask again
    return response


def _ticks_error(
    request: HttpRequest, message: str, key: str = "", setup: Setup | None = None, status: int = 400
) -> HttpResponse:
    """400 (403 without the table's code): nothing was saved. htmx gets the tick count line with the message; a
    form, the error page."""
    if request.htmx:
        if setup is None:
            progress: dict[str, Any] = {"total": None, "message": message, "level": "error"}
        else:
            progress = _progress(checklist(setup), ticked(key), message, "error")
        return render(request, "setup_game.html#progress", {"progress": progress}, status=status)
    return render(request, "error.html", {"status": status, "message": message}, status=status)


def _table_setup(request: HttpRequest, outcome: str) -> tuple[Options, Setup, str] | HttpResponse:
    """The options, the setup and the ticks key of a ticks address (``?players=N&...&seed=CODE&table=TOKEN``); or
    the refusal: 403 without a valid table code, 400 for bad options or seed (``outcome`` ends its message)."""
    table = request.GET.get("table", "")
    if not is_table(table):
        return _ticks_error(request, NO_TABLE.replace("Nothing was saved.", outcome), status=403)
    try:
        options, seed = parse_request(request.GET, seed_required=True)
        assert seed is not None
        setup = generate(options, seed)
    except (QueryError, SeedError) as exc:
        return _ticks_error(request, f"{sentence(str(exc))} {outcome}")
    return options, setup, ticks_key(table, setup)


@require_POST
def setup_ticks(request: HttpRequest) -> HttpResponse:
    """``POST /setup/ticks?players=N[&akebono=1][&grand_master=1]&seed=CODE&table=TOKEN``: save the ticks.

    ``step=ID`` (htmx on each tap): tick that one step if ``done=ID`` is posted too, else untick it; htmx gets the
    tick count line. Without ``step`` (the no-JavaScript "Save ticks" form): ``done`` lists the ticked boxes and
    ``seen`` the ticks the page showed, so only what this phone changed is saved and another phone's ticks made
    meanwhile stay. Then 303 back to the page. Bad options, a bad seed, no table token or an unknown step id: 400,
    nothing saved.
    """
    table_setup = _table_setup(request, "Nothing was saved.")
    if isinstance(table_setup, HttpResponse):
        return table_setup
    options, setup, key = table_setup
    all_steps = checklist(setup)
    steps = {step.id: step for step in all_steps}
    posted = [value.strip() for value in request.POST.getlist("done")]
    seen = [value.strip() for value in request.POST.getlist("seen")]
    step_id = request.POST["step"].strip() if "step" in request.POST else None
    unknown = [
        value for value in (*posted, *seen, *([step_id] if step_id is not None else [])) if value not in steps
    ]
    if unknown:
        message = f"This setup has no step {quote(unknown[0])}; nothing was saved."
        return _ticks_error(request, message, key, setup)
    table = request.GET["table"]
    back = game_url(options, setup.seed, table=table)
    if step_id is not None:
        step = steps[step_id]
        now = step.id in posted
        done = tick(key, step.id, now)
        message = f"Saved: “{step.title}” {'ticked' if now else 'unticked'}."
        anchor = f"#step-{step.id}"
    else:
        done = change_ticks(key, add=set(posted) - set(seen), remove=set(seen) - set(posted))
        message = "Ticks saved."
        back = game_url(options, setup.seed, table=table, saved="1")
        anchor = "#setup-progress"
    if request.htmx:
        return render(request, "setup_game.html#progress", {"progress": _progress(all_steps, done, message)})
    response = HttpResponseRedirect(back + anchor)
    response.status_code = 303
    return response


@require_safe
def setup_ticks_state(request: HttpRequest) -> HttpResponse:
    """``GET /setup/ticks/state?players=N&...&seed=CODE&table=TOKEN[&done=ID...]``: the poll of an open page.

    ``done`` lists the steps ticked on the phone asking. 204 when the saved ticks are the same; else 200 with only
    what differs, as htmx out-of-band swaps: each changed box and the tick count line. It never names a hidden
    draw: a tick is a step id. Bad options or seed: 400; no valid table code: 403; an unknown step id: 400."""
    table_setup = _table_setup(request, "Reload the page.")
    if isinstance(table_setup, HttpResponse):
        return table_setup
    options, setup, key = table_setup
    shown = {value.strip() for value in request.GET.getlist("done")}
    done = ticked(key)
    if done == shown:  # saved ticks are known steps: a 204 needs no checklist
        response = HttpResponse(status=204)
        add_never_cache_headers(response)
        return response
    steps = checklist(setup)
    unknown = sorted(shown - {step.id for step in steps})
    if unknown:
        message = f"This setup has no step {quote(unknown[0])}. Reload the page."
        return _ticks_error(request, message, key, setup)
    ticks = ticks_url(options, setup.seed, request.GET["table"])
    changed = [
        {"step": step, "done": step.id in done, "ticks_url": ticks, "oob": True}
        for step in steps
        if (step.id in done) != (step.id in shown)
    ]
    # No message: a new line above the list would move the steps under a thumb (the count keeps its height).
    context = {"changed": changed, "progress": _progress(steps, done)}
    response = render(request, "setup_game.html#poll", context)
    add_never_cache_headers(response)
    return response


@require_safe
def setup_sheet(request: HttpRequest) -> HttpResponse:
    """``GET /setup/sheet.pdf?players=N&...&seed=CODE[&size=a4|letter]``: the printable sheet, public draws only."""
    size = request.GET.get("size", "a4").strip().lower() or "a4"
    try:
        options, seed = parse_request(request.GET, seed_required=True)
        assert seed is not None
        setup = generate(options, seed)
        if size not in PAGE_SIZES:
            raise QueryError("size", f"size must be a4 or letter, not {quote(size)}")
    except (QueryError, SeedError) as exc:
        return render(request, "error.html", {"status": 400, "message": sentence(str(exc))}, status=400)
    response = HttpResponse(setup_sheet_pdf(setup, size=size), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="iki-setup-{setup.seed}-{size}.pdf"'
    return response


# --- the JSON API ---------------------------------------------------------------------------------------------


def api_setup(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/setup?players=N&akebono=1&grand_master=1&seed=CODE``: 200 the setup, 400 bad options."""
    if request.method not in ("GET", "HEAD"):
        response = json_error(
            405, "method-not-allowed", "GET this address with the options in the query string."
        )
        response["Allow"] = "GET, HEAD"
        return response
    try:
        options, seed = parse_request(request.GET)
        setup = generate(options, seed)
    except QueryError as exc:
        return json_error(400, exc.code, exc.message, exc.field)
    except SeedError as exc:
        return json_error(400, "invalid", str(exc), "seed")
    response = JsonResponse(setup.to_json(), json_dumps_params={"ensure_ascii": False})
    # A given seed always answers the same; a new seed must not be cached.
    response["Cache-Control"] = "public, max-age=86400" if seed is not None else "no-store"
    return response


urlpatterns = [
    path("setup/", setup_options, name="setup-options"),
    path("setup/game", setup_game, name="setup-game"),
    path("setup/ticks", setup_ticks, name="setup-ticks"),
    path("setup/ticks/state", setup_ticks_state, name="setup-ticks-state"),
    path("setup/sheet.pdf", setup_sheet, name="setup-sheet"),
    path("api/v1/setup", api_setup, name="api-setup"),
]
