"""The setup generator's addresses (issue 3): what a setup page's query string says, and the links made from it.

Every address carries the options and the seed in its query string, so a link reproduces its setup (RULINGS R19);
the table's own code (``table=``, :func:`new_table`) keys the shared ticks (:func:`ticks_key`). A floor below the
views, so every feature reading a setup's query (the tracker's new game, the pad check, the walk-through's start)
imports it without importing another feature's views. The setup's views, one module a job:

- :mod:`companion.views.setup_options`: the options page (``GET /setup/``);
- :mod:`companion.views.setup_page`: the open checklist (``GET /setup/game``);
- :mod:`companion.views.setup_ticks`: the shared ticks, on the live-table engine (docs/sync.md);
- :mod:`companion.views.setup_files`: the QR code, the PDF sheet and ``GET /api/v1/setup``.

The pages and the PDF sheet keep the tracker's rule (issue 20): they show the open checklist only and name no
hidden draw (a fire's Nagaya, a later season's Personalities or River tokens, a New Character, a Blocking tile);
where those were, they say the game tracker reveals them when due. Only ``GET /api/v1/setup`` shows everything
(docs/api.md says so).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlencode

from django.core import signing
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.crypto import constant_time_compare

from companion.errors import UserError
from companion.forms import clean_text
from companion.models.scoresheets import NAME_MAX
from companion.models.setup_progress import stream_of
from companion.tokens import is_token, new_token
from scoring.catalogue import (
    BUILDINGS,
    PERSONALITIES,
)
from scoring.errors import quote
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
from setupgen import (
    HouseRuleError,
    HouseRules,
    Options,
    OptionsError,
    SeedError,
    Setup,
    generate,
    house_rules,
    new_seed,
)

TRUE_WORDS = frozenset({"1", "true", "on", "yes"})
FALSE_WORDS = frozenset({"", "0", "false", "off", "no"})
PLAYER_CHOICES = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
DEFAULT_PLAYERS = 4


def query_error(field: str, message: str, code: str = "invalid") -> UserError:
    """Bad input in the query string: ``field`` names it, ``message`` says what is wrong, for a person (a
    fragment: the pages make it a sentence with :func:`sentence`, the API answers it as it is)."""
    return UserError(message, field=field, code=code)


def _flag(query: Mapping[str, str], name: str) -> bool:
    value = query.get(name, "").strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise query_error(name, f"{name} must be 1 or 0 (or true/false), not {quote(query.get(name, ''))}")


def parse_options(query: Mapping[str, str]) -> Options:
    """``players``, ``akebono``, ``grand_master`` from a query string; :class:`~companion.errors.UserError` if anything is wrong."""
    raw = query.get("players", "").strip()
    if not raw:
        raise query_error(
            "players", f"say how many players: players={MIN_PLAYERS} to {MAX_PLAYERS}", "missing"
        )
    try:
        players = int(raw)
    except ValueError:
        raise query_error(
            "players", f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {quote(raw)}"
        ) from None
    akebono, grand_master = _flag(query, "akebono"), _flag(query, "grand_master")
    try:
        return Options(players=players, akebono=akebono, grand_master=grand_master)
    except OptionsError as exc:
        field = "grand_master" if grand_master and MIN_PLAYERS <= players <= MAX_PLAYERS else "players"
        raise query_error(field, str(exc)) from None


def parse_request(query: Mapping[str, str], *, seed_required: bool = False) -> tuple[Options, str | None]:
    """Options and the setup code (None when absent) from a query string."""
    options = parse_options(query)
    seed = query.get("seed", "").strip() or None
    if seed is None and seed_required:
        raise query_error("seed", "give the setup code: seed= and the code (such as K7MX2QPA)", "missing")
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
    :class:`~companion.errors.UserError` naming the field for an unknown card."""
    try:
        return house_rules(_getlist(query, "ban")[:60], _getlist(query, "require")[:60])
    except HouseRuleError as exc:
        raise query_error(exc.field, str(exc)) from None


NOT_A_CODE = (
    "that is a link, not a setup code: open the link itself (paste it in the address bar), or type only the "
    "8 characters after “seed=” (such as K7MX2QPA)"
)
"""A share link pasted where the setup code goes (the code field keeps its first 64 characters)."""


def load_setup(query: Mapping[str, str], *, seed_required: bool = False) -> tuple[Options, Setup, bool]:
    """The options, the setup and whether the query gave a code, from ``?players=N[&akebono=1][&grand_master=1]
    [&seed=CODE][&ban=ID...][&require=ID...]``: the house rules of ``ban``/``require`` are added to the code's.
    :class:`~companion.errors.UserError` naming the field (``seed``, ``ban``, ``require``, ...) for anything wrong."""
    options, seed = parse_request(query, seed_required=seed_required)
    house = parse_house(query)
    try:
        setup = generate(options, seed or new_seed(), house)
    except HouseRuleError as exc:
        raise query_error(exc.field, str(exc)) from None
    except (SeedError, OptionsError) as exc:
        raise query_error("seed", NOT_A_CODE if seed and "://" in seed else str(exc)) from None
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


_WATCH_SIGNER = signing.Signer(salt="companion.setup.watch")
WATCH_RE = re.compile(r"[0-9a-f]{16}")


def watch_code(setup: Setup, table: str) -> str:
    """The setup's view-only code (``watch=``): the number that names its ticks to the live engine
    (companion.models.setup_progress.stream_of, a digest that does not give the table code back) and a signature
    binding it to this setup. A page opened with it shows the ticks as they are made and can save none."""
    number = f"{stream_of(ticks_key(table, setup)):016x}"
    return f"{number}.{_watch_signature(number, setup)}"


def _watch_signature(number: str, setup: Setup) -> str:
    return _WATCH_SIGNER.signature(f"{number}|{ticks_key('', setup)}")


def watched(text: str, setup: Setup) -> int | None:
    """The ticks' number of a view-only code of ``setup``; None when ``text`` is not one."""
    number, _, signature = text.partition(".")
    if not WATCH_RE.fullmatch(number) or not constant_time_compare(
        signature, _watch_signature(number, setup)
    ):
        return None
    return int(number, 16)


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


def setup_names(query: Mapping[str, str]) -> list[str]:
    """The table's names typed on the setup page (``name=``, at most 4, each as a name field keeps it); a blank
    name (a seat left empty) or one that cannot be kept is dropped (the tracker's form asks for it again)."""
    getlist = getattr(query, "getlist", None)
    raw: list[str] = getlist("name") if getlist is not None else []
    names = []
    for value in raw[:MAX_PLAYERS]:
        try:
            name = clean_text(value)[:NAME_MAX]
        except ValidationError:
            continue
        if name:
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


def options_summary(options: Options) -> str:
    parts = [f"{options.players} players"]
    if options.akebono:
        parts.append("IKI Akebono")
    if options.grand_master:
        parts.append("Grand Master variant")
    return " · ".join(parts) if options.akebono else parts[0] + " · base game"
