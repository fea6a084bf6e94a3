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
from urllib.parse import parse_qs, urlencode

from django.core import signing
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_POST, require_safe

from companion.forms import clean_text
from companion.links import share_url
from companion.models.scoresheets import NAME_MAX
from companion.models.setup_progress import change_ticks, tick, ticked
from companion.pdf.setup_sheet import PAGE_SIZES, setup_sheet_pdf
from companion.qr import qr_svg
from companion.tokens import is_token, new_token
from companion.views.errors import json_error
from scoring.catalogue import (
    BUILDINGS,
    PERSONALITIES,
    personalities_of_season,
)
from scoring.components import SEASONS
from scoring.errors import quote
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
from setupgen import (
    CODE_MAX,
    PART_BY_KEY,
    HouseRuleError,
    HouseRules,
    Options,
    OptionsError,
    SeedError,
    Setup,
    SetupCode,
    applicable_parts,
    checklist,
    generate,
    house_rules,
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
    """Options and the setup code (None when absent) from a query string."""
    options = parse_options(query)
    seed = query.get("seed", "").strip() or None
    if seed is None and seed_required:
        raise QueryError("seed", "give the setup code: seed= and the code (such as K7MX2QPA)", "missing")
    return options, seed


def _getlist(query: Mapping[str, str], name: str) -> list[str]:
    """The ids of ``ban=`` or ``require=`` (repeated or comma-separated), and of the options form's
    ``house=ban:ID`` / ``house=require:ID`` selects."""
    getlist = getattr(query, "getlist", None)

    def values(key: str) -> list[str]:
        got: list[str] = getlist(key) if getlist is not None else [query.get(key, "")]
        return [v.strip().lower() for value in got for v in value.split(",") if v.strip()]

    chosen = [v.partition(":")[2] for v in values("house") if v.partition(":")[0] == name]
    return values(name) + chosen


def parse_house(query: Mapping[str, str]) -> HouseRules:
    """``ban=`` and ``require=`` (repeated or comma-separated building or personality ids, docs/api.md);
    :class:`QueryError` naming the field for an unknown card."""
    try:
        return house_rules(_getlist(query, "ban")[:60], _getlist(query, "require")[:60])
    except HouseRuleError as exc:
        raise QueryError(exc.field, str(exc)) from None


def load_setup(query: Mapping[str, str], *, seed_required: bool = False) -> tuple[Options, Setup, bool]:
    """The options, the setup and whether the query gave a code, from ``?players=N[&akebono=1][&grand_master=1]
    [&seed=CODE][&ban=ID...][&require=ID...]``: the house rules of ``ban``/``require`` are added to the code's.
    :class:`QueryError` naming the field (``seed``, ``ban``, ``require``, ...) for anything wrong."""
    options, seed = parse_request(query, seed_required=seed_required)
    house = parse_house(query)
    try:
        setup = generate(options, seed or new_seed(), house)
    except HouseRuleError as exc:
        raise QueryError(exc.field, str(exc)) from None
    except (SeedError, OptionsError) as exc:
        raise QueryError("seed", str(exc)) from None
    return options, setup, seed is not None


def options_query(options: Options, seed: str | None = None, **extra: str | list[str]) -> str:
    params: dict[str, str | list[str]] = {"players": str(options.players)}
    if options.akebono:
        params["akebono"] = "1"
    if options.grand_master:
        params["grand_master"] = "1"
    if seed is not None:
        params["seed"] = seed
    params.update({k: v for k, v in extra.items() if v})
    return urlencode(params, doseq=True)


def game_url(options: Options, seed: str | None = None, **extra: str | list[str]) -> str:
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
    """``K7MX 2QPA`` (``K7MX 2QPA.RB4Q`` with re-rolls or house rules): easier to read aloud."""
    head, dot, rest = seed.partition(".")
    half = len(head) // 2
    return f"{head[:half]} {head[half:]}{dot}{rest}"


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
        # A typed code comes back to be corrected; one longer than any code does not (the message says why).
        "seed": seed if len(seed := query.get("seed", "").strip()) <= CODE_MAX else "",
        "code_max": CODE_MAX,
        "error": error,
        "error_field": error_field,
        "warning": warning,
        "house": _house_choices(query, akebono),
        "names": (setup_names(query) + [""] * MAX_PLAYERS)[:MAX_PLAYERS],
        "name_max": NAME_MAX,
    }


def _house_choices(query: Mapping[str, str], akebono: bool) -> list[dict[str, Any]]:
    """The house-rule rows of the options form: each building (and with Akebono each personality, by season)
    with its choice, "" (drawn as usual), "ban" or "require", read leniently from ``query``."""
    banned, required = set(_getlist(query, "ban")), set(_getlist(query, "require"))

    def row(card_id: str, name: str) -> dict[str, str]:
        state = "ban" if card_id in banned else "require" if card_id in required else ""
        return {"id": card_id, "name": name, "state": state}

    groups = [
        {
            "label": "Buildings",
            "rows": [row(b.id, b.name) for b in BUILDINGS if akebono or b.expansion.value == "base"],
        }
    ]
    if akebono:
        groups += [
            {
                "label": f"{season.label} personalities",
                "rows": [row(p.id, p.name) for p in personalities_of_season(season)],
            }
            for season in SEASONS
        ]
    return groups


def setup_names(query: Mapping[str, str]) -> list[str]:
    """The table's names typed on the setup page (``name=``, at most 4, each as a name field keeps it); a name
    that cannot be kept is dropped (the tracker's form asks for it again)."""
    getlist = getattr(query, "getlist", None)
    raw: list[str] = getlist("name") if getlist is not None else []
    names = []
    for value in raw[:MAX_PLAYERS]:
        try:
            name = clean_text(value)[:NAME_MAX]
        except ValidationError:
            continue
        names.append(name)
    return names


def house_summary(house: HouseRules) -> str:
    """``House rules: no Pub (Izakaya); always the Tea House`` (the page and the printed sheet), or ""."""
    if not house:
        return ""
    names = {**{b.id: b.name for b in BUILDINGS}, **{p.id: p.name for p in PERSONALITIES}}
    parts = [f"no {names[i]}" for i in (*house.banned_buildings, *house.banned_personalities)]
    parts += [f"always {names[i]}" for i in (*house.required_buildings, *house.required_personalities)]
    return "House rules: " + "; ".join(parts)


def house_query(house: HouseRules) -> dict[str, list[str]]:
    return {
        "ban": [*house.banned_buildings, *house.banned_personalities],
        "require": [*house.required_buildings, *house.required_personalities],
    }


@require_safe
def setup_options(request: HttpRequest) -> HttpResponse:
    """``GET /setup/``: pick the options and generate. htmx (on any change of the form): just its warning."""
    context = _form_context(request.GET)
    if request.htmx:  # the warning, and the house-rule lists (the Akebono box changes which cards they offer)
        return render(request, "setup.html#options-warning", {**context, "oob": True})
    return render(request, "setup.html", context)


def _options_error(request: HttpRequest, exc: QueryError) -> HttpResponse:
    context = _form_context(request.GET, error=sentence(str(exc)), error_field=exc.field)
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


def track_url(options: Options, seed: str, table: str, names: list[str] | None = None) -> str:
    """ "Track this game": the new-game form with every option of the setup, its code (re-rolls and house rules
    included), the table code (the ticks made on the setup page move into the game) and the names typed on the
    setup page. The form then has exactly that many players."""
    return f"{reverse('games-new')}?{options_query(options, seed, table=table, name=names or [])}"


def score_url(options: Options, seed: str, names: list[str]) -> str:
    """The quick score's start, with this setup's code and the table's names filled in."""
    edition = "akebono" if options.akebono else "base"
    extra: dict[str, str | list[str]] = {"edition": edition, "setup_kind": "seed", "name": names}
    return f"{reverse('scorepad-new')}?{options_query(options, seed, **extra)}"


def reroll_form(options: Options, setup: Setup, table: str, names: list[str]) -> dict[str, Any]:
    """The "Draw one part again" form (issue 26): the page's address once, as hidden fields, and one "Re-roll"
    button per random part of this game (``reroll=KEY``), each keeping every other part. A GET form: it works
    without JavaScript, and the page stays small (one address, not one link a part)."""
    params = parse_qs(options_query(options, setup.seed, table=table, name=names))
    return {
        "hidden": [(name, value) for name, values in params.items() for value in values],
        "parts": [{"key": key, "label": PART_BY_KEY[key].label} for key in applicable_parts(options)],
    }


def drawn_line(part: str) -> str:
    """What the page says after a part was drawn again: which part, never what a hidden part now holds."""
    found = PART_BY_KEY.get(part)
    if found is None:
        return ""
    if found.hidden:
        return f"{found.label} drawn again, keeping every other part. They stay hidden: the game tracker reveals them when due."
    return f"{found.label} drawn again, keeping every other part."


@require_safe
def setup_game(request: HttpRequest) -> HttpResponse:
    """``GET /setup/game?players=N[&akebono=1][&grand_master=1]&seed=CODE&table=CODE``: the open checklist.

    Without a seed or the table's code: a redirect that adds them (the address is the share link, and its table
    code keys the ticks). The page names no hidden draw: the game tracker reveals each when it is due. An address
    with ``show=`` or ``hide=`` (from when this page revealed items) gets the page and a line saying so.
    """
    try:
        options, setup, given = load_setup(request.GET)
        names = setup_names(request.GET)
        reroll = request.GET.get("reroll", "")
        if reroll and reroll != "all" and reroll not in applicable_parts(options):
            raise QueryError("reroll", f"this game has no part {quote(reroll)} to draw again")
    except QueryError as exc:
        return _options_error(request, exc)
    table = request.GET.get("table", "")
    if reroll:
        # Draw one part again (or the whole setup with the same house rules): a new code, then its page.
        code = setup.code
        new = SetupCode(new_seed(), house=code.house) if reroll == "all" else code.rerolled(reroll)
        drawn = {} if reroll == "all" else {"drawn": reroll}
        table = table if is_table(table) else new_table()
        return HttpResponseRedirect(game_url(options, str(new), table=table, name=names, **drawn))
    if not given or not is_table(table):
        # The address is the share link: it gets the code and the table's own token for its ticks.
        return HttpResponseRedirect(game_url(options, setup.seed, table=new_table(), name=names))
    done = ticked(ticks_key(table, setup))
    steps = checklist(setup)
    ticks = ticks_url(options, setup.seed, table)
    link = share_url(request, game_url(options, setup.seed, table=table))
    house = setup.code.house
    context = {
        "setup": setup,
        "seed_spaced": spaced_seed(setup.seed),
        "summary": options_summary(options),
        "house_line": house_summary(house),
        "drawn_line": drawn_line(request.GET.get("drawn", "")),
        "names": names,
        "sections": _sections(steps, done),
        "done": sorted(done),
        "hidden_count": sum(1 for step in steps if step.hidden),
        "not_here": NOT_HERE if request.GET.get("show") or request.GET.get("hide") else "",
        "progress": _progress(steps, done, "Ticks saved." if request.GET.get("saved") == "1" else ""),
        "ticks_url": ticks,
        "poll_url": f"{reverse('setup-ticks-state')}?{ticks.partition('?')[2]}",
        "poll_ms": POLL_MS,
        "share_url": link,
        "qr_url": f"{reverse('setup-qr')}?{options_query(options, setup.seed, table=table)}",
        "reroll_url": game_url(options, setup.seed, table=table, reroll="all", name=names),
        "reroll_form": reroll_form(options, setup, table, names),
        "options_url": f"{reverse('setup-options')}?{options_query(options, None, **house_query(house), name=names)}",
        "sheet_urls": [
            (label, f"{reverse('setup-sheet')}?{options_query(options, setup.seed, size=size)}")
            for size, label in (("a4", "A4"), ("letter", "Letter"))
        ],
        "track_url": track_url(options, setup.seed, table, names),
        "score_url": score_url(options, setup.seed, names),
    }
    response = render(request, "setup_game.html#setup" if request.htmx else "setup_game.html", context)
    if request.htmx:
        response["HX-Push-Url"] = game_url(options, setup.seed, table=table, name=names)
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
        options, setup, _ = load_setup(request.GET, seed_required=True)
    except QueryError as exc:
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
def setup_qr(request: HttpRequest) -> HttpResponse:
    """``GET /setup/qr.svg?players=N&...&seed=CODE&table=TOKEN``: the QR code of the page's share link (built from
    the LAN address when the page was opened at a loopback address, companion/links.py). An image of its own, shown
    when asked, so the page's first load stays within its budget. 400 for a bad address; 404 for a link too long
    for a QR code (the page still shows the link)."""
    table = request.GET.get("table", "")
    try:
        options, setup, _ = load_setup(request.GET, seed_required=True)
        if not is_table(table):
            raise QueryError("table", "this address has no table code of a setup page (table=)")
    except QueryError as exc:
        return render(request, "error.html", {"status": 400, "message": sentence(str(exc))}, status=400)
    svg = qr_svg(share_url(request, game_url(options, setup.seed, table=table)))
    if not svg:
        return render(
            request,
            "error.html",
            {"status": 404, "message": "This link is too long for a QR code."},
            status=404,
        )
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@require_safe
def setup_sheet(request: HttpRequest) -> HttpResponse:
    """``GET /setup/sheet.pdf?players=N&...&seed=CODE[&size=a4|letter]``: the printable sheet, public draws only."""
    size = request.GET.get("size", "a4").strip().lower() or "a4"
    try:
        _, setup, _ = load_setup(request.GET, seed_required=True)
        if size not in PAGE_SIZES:
            raise QueryError("size", f"size must be a4 or letter, not {quote(size)}")
    except QueryError as exc:
        return render(request, "error.html", {"status": 400, "message": sentence(str(exc))}, status=400)
    pdf = setup_sheet_pdf(setup, size=size, house=house_summary(setup.code.house))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="iki-setup-{setup.seed}-{size}.pdf"'
    return response


# --- the JSON API ---------------------------------------------------------------------------------------------


def api_setup(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/setup?players=N&akebono=1&grand_master=1&seed=CODE&ban=ID&require=ID``: 200 the setup,
    400 bad options naming the field (docs/api.md "Setup")."""
    if request.method not in ("GET", "HEAD"):
        response = json_error(
            405, "method-not-allowed", "GET this address with the options in the query string."
        )
        response["Allow"] = "GET, HEAD"
        return response
    try:
        _, setup, given = load_setup(request.GET)
    except QueryError as exc:
        return json_error(400, exc.code, exc.message, exc.field)
    response = JsonResponse(setup.to_json(), json_dumps_params={"ensure_ascii": False})
    # A given code always answers the same; a new seed must not be cached.
    response["Cache-Control"] = "public, max-age=86400" if given else "no-store"
    return response


urlpatterns = [
    path("setup/", setup_options, name="setup-options"),
    path("setup/game", setup_game, name="setup-game"),
    path("setup/ticks", setup_ticks, name="setup-ticks"),
    path("setup/ticks/state", setup_ticks_state, name="setup-ticks-state"),
    path("setup/sheet.pdf", setup_sheet, name="setup-sheet"),
    path("setup/qr.svg", setup_qr, name="setup-qr"),
    path("api/v1/setup", api_setup, name="api-setup"),
]
