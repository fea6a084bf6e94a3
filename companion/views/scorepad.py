"""The end-game scoring walk-through (issue 4): quick score, one step per score-pad line, the result, the PDF.

Views parse the form, hand entries to :func:`companion.models.scoresheets.apply_changes`, and render what the rules
core (:mod:`scoring`) says about the stored table: every problem of :func:`scoring.validate.validate` is shown next
to the entry its ``field`` names. With htmx an entry is answered with only the pieces of the step it changed
(:meth:`StepPage.reply`, out-of-band swaps), or with the whole step (the ``step`` partial) when the page was not
showing the sheet's latest version; without JavaScript the same forms post and redirect back. Every choice comes
from :mod:`scoring.catalogue`; nothing takes a typed id.

Forms carry, beside each number and choice, the value the page showed (``was-…``): only what the person changed is
applied, so two phones on one sheet never write back each other's stale values.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from html import escape
from typing import Any, Final
from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import get_script_prefix, path, register_converter, reverse
from django.utils.safestring import SafeString
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import HttpResponseClientRedirect, reswap

from companion.forms import ScoreStartForm, whole_number
from companion.models.scoresheets import (
    MAX_NUMBER,
    NAME_MAX,
    Change,
    ScoreSheet,
    SheetBusy,
    SheetError,
    apply_changes,
    start_sheet,
)
from companion.qr import qr_svg
from companion.services.results import record_result
from companion.views import is_htmx
from scoring import catalogue as cat
from scoring.components import CHAR_TYPES, SEASONS, Character, CharType, Expansion, TokenKind, Wild
from scoring.errors import InputError, quote
from scoring.score import (
    LINE_LABELS,
    board_of,
    effective_type,
    last_group,
    score_player,
    wild_kind,
)
from scoring.table import LIST_FIELDS, LIST_KIND, NUMBER_FIELDS, PlayerState, Table, check_id, stack_places
from scoring.validate import Problem, Report, ferry_opens_the_pool, validate

# --- steps -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    slug: str
    title: str
    line: str | None  # the score-pad line this step fills (RULINGS R3), if any
    akebono_only: bool = False
    intro: str = ""


STEPS: Final = (
    Step("track", "Score track", "score_track", intro="The IKI each player scored during the game: the "
         "marker's space, plus 30 or 60 for the 30/60 token (RULINGS R3)."),
    Step("characters", "Characters", "variety", intro="Every character on each player board: retired cards and "
         "the ones taken back from the Nagayas. 1/4/9/16/25 IKI for 1-5 types (RULINGS R4)."),
    Step("fish", "Fish", "fish", intro="3/6/10/15 IKI for 1-4 fish of different seasons, plus each token's printed "
         "bonus; one fish a season, a second winter one only on New Year's Day (RULINGS R6, R14)."),
    Step("tobacco", "Pipes and tobacco", "tobacco", intro="Tobacco pouches score their printed value, doubled "
         "when the player has at least one pipe (RULINGS R7)."),
    Step("buildings", "Buildings", "buildings", intro="The buildings each player built (RULINGS R8)."),
    Step("boats", "Boats", None, akebono_only=True, intro="The boats each player built (at most 2); they count "
         "for the Inn for Sailors, Kazan Watanabe and Kōkan Shiba."),
    Step("personalities", "Personalities and trade", "personalities", akebono_only=True,
         intro="The personalities each player met, and the trade track (RULINGS R10, R11)."),
    Step("resources", "Resources", "resources", intro="3 IKI per koban, 1 per wood, 1 per full 4 mon; rice and "
         "sandals score nothing themselves but count for some buildings (RULINGS R9)."),
    Step("firefighting", "Firefighting", None, intro="The firefighting track breaks ties: the higher marker "
         "wins, then the marker higher in the stack on a shared space (RULINGS R12)."),
)  # fmt: skip
STEP_BY_SLUG: Final = {s.slug: s for s in STEPS}

#: Which step shows each player field (problems on it link there).
FIELD_STEP: Final = {
    "name": "track",
    "score_track": "track",
    "characters": "characters",
    "wild_types": "characters",
    "retirement_tokens": "characters",
    "fish": "fish",
    "pipes": "tobacco",
    "tobacco": "tobacco",
    "buildings": "buildings",
    "boats": "boats",
    "personalities": "personalities",
    "trade": "personalities",
    "mon": "resources",
    "koban": "resources",
    "wood": "resources",
    "rice": "resources",
    "sandals": "resources",
    "firefighting": "firefighting",
}
SETUP_STEP: Final = {"buildings": "buildings", "personalities": "personalities", "boat_sides": "boats"}
NUMBER_LABELS: Final = {
    "score_track": "IKI on the score track",
    "mon": "Mon",
    "koban": "Koban",
    "wood": "Wood",
    "rice": "Rice",
    "sandals": "Sandals",
    "firefighting": "Firefighting space",
    "trade": "Trade space",
}
RESOURCE_FIELDS: Final = ("mon", "koban", "wood", "rice", "sandals")
PAD_SIZES: Final = {"a4": "A4", "letter": "letter"}
#: Only malformed requests get their answer swapped in by htmx: its default leaves 4xx pages unswapped.
HTMX_CONFIG: Final = (
    '{"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},'
    '{"code":"400","swap":true,"error":false},{"code":"...","swap":false,"error":true}]}'
)


@cache
def steps_for(akebono: bool) -> tuple[Step, ...]:
    return tuple(s for s in STEPS if akebono or not s.akebono_only)


class TokenConverter:
    regex = r"[A-Za-z0-9_-]{16,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "sheet")


class BadInput(Exception):
    """A request no form of these pages sends: answered 400 with the message, nothing saved."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


VIEW_ONLY: Final = (
    "This is the view-only link of a score sheet: it shows the result but cannot change a score."
)


class ViewOnly(PermissionDenied):
    """A view-only token was used where an entry is made or the entries are shown: 403, nothing written."""


def _missing(token: str) -> Exception:
    """Why no sheet is edited with ``token``: its view-only token (403), or no sheet at all (404)."""
    if ScoreSheet.objects.filter(view_token=token).exists():
        return ViewOnly(VIEW_ONLY)
    return Http404("no such score sheet")


def read_sheet(sheet: ScoreSheet) -> Table:
    """The stored table with the stack places entered on the firefighting step, which decide ties space by
    space (RULINGS R12); the full order the sheet derives from them says nothing more."""
    table = sheet.read()
    return replace(table, firefighting_order=None, stacks=stack_places(table.players, sheet.stack))


def _sheet(token: str) -> ScoreSheet:
    """The sheet a table edits (its edit token); 403 for its view-only token, 404 for no sheet."""
    try:
        return ScoreSheet.objects.get(token=token)
    except ScoreSheet.DoesNotExist:
        raise _missing(token) from None


def _viewed_sheet(token: str) -> ScoreSheet:
    """The sheet a view-only link shows."""
    try:
        return ScoreSheet.objects.get(view_token=token)
    except ScoreSheet.DoesNotExist:
        raise Http404("no such score sheet") from None


# --- problems: where each one is shown ---------------------------------------------------------------------------

_PLAYER_FIELD: Final = re.compile(r"^players\[(\d+)\]\.([a-z_]+)(?:\[(\d+)\]|\.([A-Za-z0-9-]+))?$")


def locate(problem_field: str, data: Mapping[str, Any]) -> tuple[str, str]:
    """(step slug, html id of the entry) for a problem's ``field``: ``players[1].fish[0]`` -> the fish entry of
    the 2nd player's first fish."""
    m = _PLAYER_FIELD.match(problem_field)
    if m:
        i, key, index, sub = int(m[1]), m[2], m[3], m[4]
        step = FIELD_STEP.get(key, "track")
        if key == "wild_types" and sub:
            return step, f"wild-p{i}-{sub}"
        if index is not None and key in LIST_FIELDS:
            items = data["players"][i].get(key, []) if i < len(data["players"]) else []
            j = int(index)
            if j < len(items):
                return step, f"p{i}-{key}-{items[j]}"
        return step, f"p{i}-{key}"
    if problem_field.startswith(("firefighting_order", "stacks")):
        return "firefighting", "firefighting-order"
    if problem_field.startswith("setup."):
        part = problem_field.split(".")[1].split("[")[0]
        return SETUP_STEP.get(part, "track"), "setup"
    return "track", "step-top"


@dataclass
class Shown:
    """A problem with where it is shown."""

    problem: Problem
    step: str
    anchor: str
    error: bool


class ProblemIndex:
    """The validator's problems with where each is shown, by the html id of the entry they name."""

    def __init__(self, report: Report, data: Mapping[str, Any], slugs: Iterable[str]) -> None:
        known = set(slugs)
        self.all: list[Shown] = []
        for problem, error in [*((p, True) for p in report.errors), *((p, False) for p in report.warnings)]:
            step, anchor = locate(problem.field, data)
            self.all.append(Shown(problem, step if step in known else "track", anchor, error))
        self._by_step: Counter[str] | None = None
        self.by_anchor: dict[str, list[Shown]] = {}
        for shown in self.all:
            self.by_anchor.setdefault(shown.anchor, []).append(shown)

    def at(self, anchor: str) -> list[Shown]:
        return self.by_anchor.get(anchor, [])

    def errors_by_step(self) -> Counter[str]:
        if self._by_step is None:
            self._by_step = Counter(s.step for s in self.all if s.error)
        return self._by_step


# --- parsing a step's POST ---------------------------------------------------------------------------------------

#: A number field's and a "counts as" select's form name, which is also the html id its messages are shown by.
_NUMBER_ANCHOR: Final = re.compile(r"^p(\d)-([a-z_]+)$")
_WILD_ANCHOR: Final = re.compile(r"^wild-p(\d)-([a-z0-9-]+)$")
_STACK_NAME: Final = re.compile(r"^stack-p(\d)$")


def _player_index(raw: str, count: int) -> int:
    index = whole_number(raw)
    if index is None or not 0 <= index < count:
        raise BadInput(f"There is no player number {quote(raw)} on this sheet.")
    return index


def _int(raw: str, what: str) -> int:
    if not raw.strip():
        return 0
    value = whole_number(raw)
    if value is None:
        raise BadInput(f"{what}: enter a whole number, not {quote(raw)}.")
    if abs(value) > MAX_NUMBER:
        raise BadInput(f"{what}: {value} is far beyond anything a game of IKI reaches.")
    return value


def _check_item(list_name: str, item: str) -> None:
    if list_name not in LIST_KIND:
        raise BadInput(f"{quote(list_name)} is not something a player holds.")
    try:
        check_id(item, LIST_KIND[list_name], list_name)
    except InputError as exc:
        raise BadInput(exc.message) from None


def parse_changes(post: Mapping[str, str], names: list[str]) -> list[Change]:
    """The entries a step's form carries: changed numbers and choices, then the pressed button's op."""
    count = len(names)
    changes: list[Change] = []
    for key, value in post.items():
        if key.startswith("was-"):
            continue
        was = post.get(f"was-{key}")
        if was is None or was == value:
            continue
        if m := _NUMBER_ANCHOR.match(key):
            i, fld = _player_index(m[1], count), m[2]
            if fld not in NUMBER_FIELDS:
                raise BadInput(f"{quote(fld)} is not a number on the score pad.")
            changes.append(Change("set", i, fld, value=_int(value, f"{names[i]}'s {NUMBER_LABELS[fld]}")))
        elif m := _WILD_ANCHOR.match(key):
            i, card = _player_index(m[1], count), m[2]
            _check_item("characters", card)
            if value and value not in {t.value for t in CHAR_TYPES}:
                raise BadInput(f"{quote(value)} is not a character type.")
            changes.append(Change("wild", i, card, item=value))
        elif m := _STACK_NAME.match(key):
            i = _player_index(m[1], count)
            rank = _int(value, f"{names[i]}'s place in the stack") - 1 if value else -1
            changes.append(Change("stack", i, value=max(rank, -1)))
    op = post.get("op", "")
    if op:
        changes.append(_parse_op(op, post, names))
    return changes


def _parse_op(op: str, post: Mapping[str, str], names: list[str]) -> Change:
    parts = op.split("|")
    kind = parts[0]
    if kind in {"add", "remove"} and len(parts) == 4:
        i = _player_index(parts[1], len(names))
        _check_item(parts[2], parts[3])
        return Change(kind, i, parts[2], item=parts[3])
    if kind == "pick" and len(parts) == 3:
        i = _player_index(parts[1], len(names))
        item = post.get(f"pick-p{i}-{parts[2]}", "")
        if not item:
            raise BadInput("Choose a card in the list first, then press Add.")
        _check_item("characters", item)
        return Change("add", i, "characters", item=item)
    if kind == "bump" and len(parts) == 4:
        i = _player_index(parts[1], len(names))
        if parts[2] not in NUMBER_FIELDS:
            raise BadInput(f"{quote(parts[2])} is not a number on the score pad.")
        return Change("bump", i, parts[2], value=_int(parts[3], "step"))
    raise BadInput("This button is not one of the score pad's.")


# --- what a step shows -------------------------------------------------------------------------------------------
# A step is HTML built here with plain string formatting (names escaped once, cached): the characters step shows up
# to 4 x 85 card toggles, and an htmx entry is answered with only the pieces it changed (:meth:`StepPage.reply`),
# each rendered by the same function as on the full page. A template partial per toggle made the characters step
# many times slower (docs/benchmarks.md).

#: What the page posts beside an entry with htmx (``hx-params``): the sheet version it shows and its entries with
#: messages (:meth:`StepPage.state`). A tap posts these and its button's ``op``, a typed number or a chosen type
#: these and its own field; only Save, Back, Next and the result post the whole form (so do all posts without
#: JavaScript). Parsing every field of a 4-player form took longer than answering the entry.
PAGE_STATE: Final = "v,marked,seen"
#: The root element of an out-of-band fragment of an htmx reply replaces the page's element with its id.
OOB: Final = ' hx-swap-oob="true"'
#: The number fields each step shows, with their printed range where the track has one.
STEP_NUMBERS: Final[Mapping[str, tuple[str, ...]]] = {
    "track": ("score_track",),
    "personalities": ("trade",),
    "resources": RESOURCE_FIELDS,
    "firefighting": ("firefighting",),
}
NUMBER_TOP: Final = {"trade": 10, "firefighting": 10}
#: Which lists each step shows as entries; their problems without a single entry (``players[0].fish``) show
#: under the player's name.
STEP_LISTS: Final[Mapping[str, tuple[str, ...]]] = {
    "characters": ("characters", "retirement_tokens"),
    "fish": ("fish",),
    "tobacco": ("pipes", "tobacco"),
    "buildings": ("buildings",),
    "boats": ("boats",),
    "personalities": ("personalities",),
}
TOKEN_LIST: Final = {TokenKind.FISH: "fish", TokenKind.PIPE: "pipes", TokenKind.TOBACCO: "tobacco"}
_TOKEN_KIND: Final = {name: kind for kind, name in TOKEN_LIST.items()}
_LIST_ANCHOR: Final = re.compile(
    r"^p(\d)-(characters|retirement_tokens|fish|pipes|tobacco|buildings|boats|personalities)-([a-z0-9-]+)$"
)
_ANY_ANCHOR: Final = re.compile(r"^(?:p\d-[a-z_]+(?:-[a-z0-9-]+)?|wild-p\d-[a-z0-9-]+)$")
#: At most this many entries are read from a page's list of entries showing messages (``marked``).
MAX_MARKED: Final = 400


@dataclass
class Entry:
    """One tappable component (a toggle) or a counted one (retirement tokens, unnamed characters)."""

    html_id: str
    name: str
    note: str
    pressed: bool
    op: str
    problems: list[Shown] = field(default_factory=list)
    count: int = 0
    add_op: str = ""
    remove_op: str = ""
    held_by: str = ""
    who: str = ""


def _esc(text: str) -> str:
    return escape(text, quote=True)


def _problems_html(shown: Iterable[Shown]) -> str:
    return "".join(
        f'<p class="message {"error" if s.error else "warning"} sp-msg" role="alert">{_esc(s.problem.message)}</p>'
        for s in shown
    )


def _msgs(html_id: str, problems: list[Shown], cls: str = "") -> tuple[str, str]:
    """(the aria-describedby attribute, the messages block) of an entry."""
    if not problems:
        return "", ""
    extra = f' class="{cls}"' if cls else ""
    return (
        f' aria-describedby="{html_id}-msg"',
        f'<div id="{html_id}-msg"{extra}>{_problems_html(problems)}</div>',
    )


def _chip_html(e: Entry, oob: str = "") -> str:
    desc, msgs = _msgs(e.html_id, e.problems)
    note = f'<span class="sp-note">{_esc(e.note)}</span>' if e.note else ""
    held = f'<span class="sp-held">{_esc(e.held_by)} has it</span>' if e.held_by and not e.pressed else ""
    return (
        f'<div class="sp-entry{" sp-has-problem" if e.problems else ""}" id="e-{e.html_id}"{oob}>'
        f'<button type="submit" name="op" value="{e.op}" id="{e.html_id}" class="sp-chip" '
        f'aria-pressed="{"true" if e.pressed else "false"}"{desc}>'
        f'<span class="sp-name">{_esc(e.name)}<span class="visually-hidden"> for {_esc(e.who)}</span></span>'
        f"{note}{held}</button>{msgs}</div>"
    )


def _counter_html(e: Entry, oob: str = "") -> str:
    desc, msgs = _msgs(e.html_id, e.problems, "sp-counter-msg")
    name, who = _esc(e.name), _esc(e.who)
    note = f'<span class="sp-note">{_esc(e.note)}</span>' if e.note else ""
    return (
        f'<div class="sp-counter{" sp-has-problem" if e.problems else ""}" id="{e.html_id}"{oob}>'
        f'<div class="sp-counter-text"><span class="sp-name">{name}</span>{note}</div><div class="stepper">'
        f'<button type="submit" name="op" value="{e.remove_op}" id="{e.html_id}-less" '
        f'aria-label="One less {name} for {who}"{"" if e.count else " disabled"}>−</button>'
        f'<output class="sp-count" aria-live="polite" aria-label="{name} held by {who}">{e.count}</output>'
        f'<button type="submit" name="op" value="{e.add_op}" id="{e.html_id}-more" '
        f'aria-label="One more {name} for {who}"{desc}>+</button></div>{msgs}</div>'
    )


def _number_html(
    i: int,
    fld: str,
    value: int,
    who: str,
    post_url: str,
    problems: list[Shown],
    top: int | None,
    oob: str = "",
) -> str:
    html_id = f"p{i}-{fld}"
    label, who = _esc(NUMBER_LABELS[fld]), _esc(who)
    desc, msgs = _msgs(html_id, problems)
    limit = f'<span class="small muted">0–{top}</span>' if top else ""
    return (
        f'<div class="sp-number{" sp-has-problem" if problems else ""}" id="e-{html_id}"{oob}>'
        f'<label for="{html_id}">{label}<span class="visually-hidden"> for {who}</span></label><div class="stepper">'
        f'<button type="submit" name="op" value="bump|{i}|{fld}|-1" id="{html_id}-less" '
        f'aria-label="One less: {label} for {who}">−</button>'
        f'<input type="number" id="{html_id}" name="{html_id}" value="{value}" inputmode="numeric" step="1" '
        f'hx-post="{post_url}" hx-trigger="change" hx-target="#step" hx-swap="outerHTML" '
        f'hx-params="{html_id},was-{html_id},{PAGE_STATE}"{desc}>'
        f'<input type="hidden" name="was-{html_id}" value="{value}">'
        f'<button type="submit" name="op" value="bump|{i}|{fld}|1" id="{html_id}-more" '
        f'aria-label="One more: {label} for {who}">+</button>{limit}</div>{msgs}</div>'
    )


@cache
def _card_groups(
    expansions: frozenset[Expansion],
) -> tuple[tuple[str, str, CharType | None, tuple[Character, ...]], ...]:
    """The player board's columns with the catalogue's cards of each printed type (RULINGS R2), then the cards
    whose type their owner always chooses (RULINGS R5)."""
    groups: list[tuple[str, str, CharType | None, tuple[Character, ...]]] = [
        (
            t.value,
            t.plural,
            t,
            tuple(c for c in cat.CHARACTERS if c.type is t and c.expansion in expansions),
        )
        for t in CHAR_TYPES
    ]
    wild_cards = tuple(c for c in cat.CHARACTERS if c.type is None and c.expansion in expansions)
    if wild_cards:
        groups.append(("wild", "Cards whose type you choose", None, wild_cards))
    return tuple(groups)


def _buildings_in_play(
    expansions: frozenset[Expansion], setup: tuple[str, ...] | None
) -> tuple[tuple[Any, ...], frozenset[str]]:
    """The buildings the buildings step offers everyone (:meth:`StepPage.buildings`), and their ids."""
    shown = tuple(b for b in cat.BUILDINGS if b.expansion in expansions and (setup is None or b.id in setup))
    return shown, frozenset(b.id for b in shown)


@cache
def _card_group_by_key(
    expansions: frozenset[Expansion],
) -> Mapping[str, tuple[str, str, CharType | None, tuple[Character, ...]]]:
    return {g[0]: g for g in _card_groups(expansions)}


@cache
def _card_group_of(expansions: frozenset[Expansion]) -> Mapping[str, str]:
    """The group key each card (and each unnamed ``any-{type}``) is shown in."""
    out = {cat.ANY_PREFIX + t.value: t.value for t in CHAR_TYPES}
    for key, _label, _ctype, cards in _card_groups(expansions):
        out.update((c.id, key) for c in cards)
    return out


@cache
def _token_groups(
    kind: TokenKind, expansions: frozenset[Expansion]
) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The tokens of one kind by season (then the special ones), as the step lists them."""
    out = []
    for season in (*SEASONS, None):
        tokens = cat.tokens_of(kind, season, expansions)
        if tokens:
            out.append((season.label if season else "Special tokens", tokens))
    return tuple(out)


@cache
def _token_ids(kind: TokenKind, expansions: frozenset[Expansion]) -> frozenset[str]:
    return frozenset(t.id for _label, tokens in _token_groups(kind, expansions) for t in tokens)


def _card_group_label(c: Character) -> str:
    if c.starting:
        return "Starting"
    if c.month is not None:
        return f"Month {c.month} (New Characters)"
    assert c.season is not None
    return c.season.label


CARD_GROUP_LABEL: Final = {c.id: _card_group_label(c) for c in cat.CHARACTERS}
_TYPE_OPTIONS: Final = tuple((t.value, _esc(t.label)) for t in CHAR_TYPES)


def _held_by_type(state: PlayerState) -> dict[CharType | None, list[str]]:
    """The cards a player's board shows in each type column (RULINGS R4/R5: wild cards in their chosen column);
    the key None lists the wild cards still waiting for a type."""
    names: dict[CharType | None, list[str]] = {}
    unnamed: Counter[CharType | None] = Counter()
    for card in state.characters:
        ctype = effective_type(card, state)
        if cat.any_type(card) is not None:
            unnamed[ctype] += 1
        elif wild_kind(card, state) is not Wild.NO:
            names.setdefault(ctype, []).append(f"{cat.CHARACTER_BY_ID[card].name} (chosen)")
        else:
            names.setdefault(ctype, []).append(cat.CHARACTER_BY_ID[card].name)
    for ctype, n in unnamed.items():
        names.setdefault(ctype, []).append(f"{n} unnamed")
    return names


def _lines(player: PlayerState, akebono: bool, last: tuple[str, ...]) -> tuple[dict[str, Any], int]:
    """:func:`scoring.score.score_player`, and a digest of its lines and their explanations (``seen``: a page
    tells which lines it shows, so an entry's reply sends only those that changed)."""
    lines = score_player(player, akebono, last)
    return lines, hash(tuple((key, line.points, line.explanation) for key, line in lines.items()))


def _provisional(table: Table) -> list[dict[str, Any]]:
    """Every player's lines so far (the core's scoring; a final result needs a valid table)."""
    last = last_group(table)
    out = []
    for p in table.players:
        lines, digest = _lines(p, table.akebono, last)
        out.append({"lines": lines, "total": sum(line.points for line in lines.values()), "digest": digest})
    return out


def _setup_note(table: Table) -> dict[str, Any]:
    setup = table.setup
    return {
        "buildings": [cat.BUILDING_BY_ID[b].name for b in setup.buildings]
        if setup and setup.buildings
        else [],
        "personalities": (
            [cat.PERSONALITY_BY_ID[p].name for p in setup.personalities]
            if setup and setup.personalities
            else []
        ),
    }


def _place(rank: int | None, size: int) -> int | str:
    """The 1-based stack place shown for a stored rank, "" when none is stored for this group size."""
    return rank + 1 if rank is not None and 0 <= rank < size else ""


@cache
def _score_prefix(script_prefix: str) -> str:
    return reverse("scorepad-new")


def parse_seen(raw: str) -> dict[str, str]:
    """The digests a page posted (``key:digest`` pairs; anything else is ignored, and its piece sent)."""
    pairs = (item.partition(":") for item in raw.split()[:MAX_MARKED])
    return {key: value for key, _, value in pairs if value}


def parse_marked(raw: str | None) -> set[str] | None:
    """The entries a page shows messages beside (its hidden ``marked`` field); None when the page sent none."""
    if raw is None:
        return None
    return {a for a in raw.split()[:MAX_MARKED] if _ANY_ANCHOR.match(a)}


class StepPage:
    """One step of a stored sheet as the rules core sees it: the validator's problems placed beside the entries
    they name (RULINGS R16), the provisional scores, and every piece of the page as HTML with a stable id.

    The full page and the htmx reply to an entry (:meth:`reply`) are made of the same pieces.
    """

    def __init__(self, sheet: ScoreSheet, step: Step, open_group: str = "", bad: str = "") -> None:
        self.sheet = sheet
        self.step = step
        self.open_group = open_group
        self.bad = bad
        self.data = sheet.table
        self.players: list[dict[str, Any]] = self.data["players"]
        self.table = read_sheet(sheet)
        self.expansions = self.table.expansions
        self.setup = self.table.setup
        self.steps = steps_for(self.table.akebono)
        self.report = validate(self.table)
        self.problems = ProblemIndex(self.report, self.data, (s.slug for s in self.steps))
        self.scores = _provisional(self.table)
        self.base = f"{_score_prefix(get_script_prefix())}{sheet.token}/"  # not a reverse() per link
        self.post_url = self.url(step.slug)
        self._boards: dict[int, Any] = {}
        self._marked: set[str] | None = None
        self._digests: dict[str, str] | None = None
        self._shown: dict[tuple[int, str], Collection[str]] = {}
        self._held: dict[int, dict[CharType | None, list[str]]] = {}

    def url(self, slug: str) -> str:
        return f"{self.base}{slug}/"

    def board(self, i: int) -> Any:
        if i not in self._boards:
            self._boards[i] = board_of(self.table.players[i])
        return self._boards[i]

    # --- where problems are shown ---

    def shown_items(self, i: int, list_name: str) -> Collection[str]:
        """The ids of one list the step shows as entries in player ``i``'s column."""
        key = (i, list_name)
        if key not in self._shown:
            self._shown[key] = self._shown_items(i, list_name)
        return self._shown[key]

    def _shown_items(self, i: int, list_name: str) -> Collection[str]:
        slug = self.step.slug
        if list_name not in STEP_LISTS.get(slug, ()):
            return ()
        if list_name == "characters":
            return _card_group_of(self.expansions)
        if list_name == "retirement_tokens":
            held = self.players[i].get("retirement_tokens", [])
            return {t.id for t in cat.RETIREMENT_TOKENS if t.expansion in self.expansions or t.id in held}
        if list_name in ("fish", "pipes", "tobacco"):
            return _token_ids(_TOKEN_KIND[list_name], self.expansions)
        if list_name == "buildings":
            in_play = _buildings_in_play(self.expansions, self.setup.buildings if self.setup else None)[1]
            return in_play.union(self.players[i].get("buildings", ()))
        if list_name == "boats":
            return {b.id for b in cat.BUILDABLE_BOATS}
        return {x.id for _label, ps in self.personalities(i) for x in ps}

    def wild_cards(self, i: int) -> list[str]:
        """The cards of player ``i`` whose type is chosen (RULINGS R5), and chosen types the rules refuse (shown
        so they can be cleared)."""
        player, state = self.players[i], self.table.players[i]
        cards = [
            c
            for c in dict.fromkeys(player.get("characters", []))
            if c in cat.CHARACTER_BY_ID and wild_kind(c, state) is not Wild.NO
        ]
        cards += [c for c in player.get("wild_types", {}) if c not in cards and c in cat.CHARACTER_BY_ID]
        return cards

    def is_entry(self, anchor: str) -> bool:
        """Whether ``anchor`` is an entry of this step (its problems are shown beside it)."""
        if m := _LIST_ANCHOR.match(anchor):
            i = int(m[1])
            return i < len(self.players) and m[3] in self.shown_items(i, m[2])
        if m := _WILD_ANCHOR.match(anchor):
            i = int(m[1])
            return self.step.slug == "characters" and i < len(self.players) and m[2] in self.wild_cards(i)
        if m := _NUMBER_ANCHOR.match(anchor):
            return int(m[1]) < len(self.players) and m[2] in STEP_NUMBERS.get(self.step.slug, ())
        return False

    def head_problems(self, i: int) -> list[Shown]:
        if not self.problems.all:  # the usual case
            return []
        at = self.problems.at
        return at(f"p{i}-name") + [s for key in STEP_LISTS.get(self.step.slug, ()) for s in at(f"p{i}-{key}")]

    def _placed(self, anchor: str) -> bool:
        if anchor == "firefighting-order":
            return self.step.slug == "firefighting"
        m = _NUMBER_ANCHOR.match(anchor)
        if (
            m
            and int(m[1]) < len(self.players)
            and (m[2] == "name" or m[2] in STEP_LISTS.get(self.step.slug, ()))
        ):
            return True
        return self.is_entry(anchor)

    def top_problems(self) -> list[Shown]:
        """This step's problems that no entry or column shows: above the form."""
        return [s for s in self.problems.all if s.step == self.step.slug and not self._placed(s.anchor)]

    def marked(self) -> set[str]:
        """The entries of this step shown with messages."""
        if self._marked is None:
            self._marked = {a for a in self.problems.by_anchor if self.is_entry(a)}
        return self._marked

    # --- entries ---

    def toggle(self, i: int, list_name: str, item: str, name: str, note: str, oob: str = "") -> str:
        player = self.players[i]
        pressed = item in player.get(list_name, ())
        others = [p["name"] for p in self.players if p is not player and item in p.get(list_name, ())]
        html_id = f"p{i}-{list_name}-{item}"
        return _chip_html(
            Entry(
                html_id=html_id,
                name=name,
                note=note,
                pressed=pressed,
                op=f"{'remove' if pressed else 'add'}|{i}|{list_name}|{item}",
                problems=self.problems.at(html_id),
                held_by=", ".join(others),
                who=player["name"],
            ),
            oob,
        )

    def item_text(self, list_name: str, item: str) -> tuple[str, str]:
        """A toggle's name and printed note."""
        if list_name == "characters":
            return cat.CHARACTER_BY_ID[item].name, CARD_GROUP_LABEL[item]
        if list_name in ("fish", "pipes", "tobacco"):
            token = cat.TOKEN_BY_ID[item]
            return token.name, token.effect
        if list_name == "buildings":
            building = cat.BUILDING_BY_ID[item]
            return building.name, building.scoring
        if list_name == "boats":
            boat = cat.BOAT_BY_ID[item]
            side = self.setup.boat_sides.get(item) if self.setup else None
            if side:
                return (
                    boat.name,
                    f"Side {side}: {boat.side_b if side == 'B' and boat.side_b else boat.side_a}",
                )
            return boat.name, f"Boat {boat.number}, costs {boat.cost}"
        x = cat.PERSONALITY_BY_ID[item]
        return x.name, f"{x.timing}: {x.effect}"

    def chip(self, i: int, list_name: str, item: str, oob: str = "") -> str:
        name, note = self.item_text(list_name, item)
        return self.toggle(i, list_name, item, name, note, oob)

    def chips(self, i: int, list_name: str, items: Iterable[str]) -> str:
        return "".join(self.chip(i, list_name, item) for item in items)

    def unnamed(self, i: int, ctype: CharType, oob: str = "") -> str:
        any_id = cat.ANY_PREFIX + ctype.value
        note = "One more of this type, without naming the card."
        return self._counter(i, "characters", any_id, f"Unnamed {ctype.label}", note, oob)

    def retirement(self, i: int, token_id: str, oob: str = "") -> str:
        t = cat.RETIREMENT_TOKEN_BY_ID[token_id]
        return self._counter(i, "retirement_tokens", token_id, t.name, t.effect, oob)

    def _counter(self, i: int, list_name: str, item: str, name: str, note: str, oob: str) -> str:
        """A -/+ counter of how many ``item`` a player's ``list_name`` holds."""
        count = self.players[i].get(list_name, []).count(item)
        html_id = f"p{i}-{list_name}-{item}"
        return _counter_html(
            Entry(
                html_id=html_id,
                name=name,
                note=note,
                pressed=count > 0,
                op="",
                problems=self.problems.at(html_id),
                count=count,
                add_op=f"add|{i}|{list_name}|{item}",
                remove_op=f"remove|{i}|{list_name}|{item}",
                who=self.players[i]["name"],
            ),
            oob,
        )

    def number(self, i: int, fld: str, oob: str = "") -> str:
        html_id = f"p{i}-{fld}"
        value = int(self.players[i].get(fld, 0))
        top = NUMBER_TOP.get(fld)
        return _number_html(
            i, fld, value, self.players[i]["name"], self.post_url, self.problems.at(html_id), top, oob
        )

    def wild(self, i: int, oob: str = "") -> str:
        """Player ``i``'s "counts as" choices: one select per card whose type is chosen (RULINGS R5)."""
        out = [f'<div class="sp-wilds" id="p{i}-wild"{oob}>']
        chosen = self.players[i].get("wild_types", {})
        for card in self.wild_cards(i):
            html_id = f"wild-p{i}-{card}"
            value = chosen.get(card, "")
            problems = self.problems.at(html_id)
            desc, msgs = _msgs(html_id, problems)
            options = "".join(
                f'<option value="{v}"{" selected" if v == value else ""}>{label}</option>'
                for v, label in _TYPE_OPTIONS
            )
            out.append(
                f'<div class="sp-wild{" sp-has-problem" if problems else ""}">'
                f'<label for="{html_id}">{_esc(cat.CHARACTER_BY_ID[card].name)} counts as</label>'
                f'<select id="{html_id}" name="{html_id}" hx-post="{self.post_url}" hx-trigger="change" '
                f'hx-target="#step" hx-swap="outerHTML" hx-params="{html_id},was-{html_id},{PAGE_STATE}"{desc}><option value="">Choose a type…</option>{options}'
                f'</select><input type="hidden" name="was-{html_id}" value="{_esc(value)}">{msgs}</div>'
            )
        out.append("</div>")
        return "".join(out)

    # --- the characters step's groups ---

    def _group(self, key: str) -> tuple[str, str, CharType | None, tuple[Character, ...]]:
        return _card_group_by_key(self.expansions)[key]

    def char_summary(self, i: int, key: str, oob: str = "") -> str:
        _key, label, ctype, _cards = self._group(key)
        if i not in self._held:
            self._held[i] = _held_by_type(self.table.players[i])
        held = self._held[i].get(ctype, [])
        count = self.board(i).counts[ctype] if ctype else len(held)
        names = f' <span class="sp-group-held">{_esc(", ".join(held))}</span>' if held else ""
        return (
            f'<summary id="p{i}-group-{key}-sum"{oob}><span class="sp-group-name">{_esc(label)}</span> '
            f'<span class="pill">{count}</span>{names}</summary>'
        )

    def char_group(self, i: int, key: str, force_open: bool = False, oob: str = "") -> str:
        _key, _label, ctype, cards = self._group(key)
        html_id = f"p{i}-group-{key}"
        chips = "".join(self.toggle(i, "characters", c.id, c.name, CARD_GROUP_LABEL[c.id]) for c in cards)
        unnamed = self.unnamed(i, ctype) if ctype is not None else ""
        at = self.problems.by_anchor
        opened = (
            force_open
            or self.open_group == html_id
            or any(f"p{i}-characters-{c.id}" in at for c in cards)
            or (ctype is not None and f"p{i}-characters-{cat.ANY_PREFIX}{ctype.value}" in at)
        )
        return (
            f'<details class="sp-group" id="{html_id}"{" open" if opened else ""}{oob}>'
            f'{self.char_summary(i, key)}{unnamed}<div class="sp-chips">{chips}</div></details>'
        )

    def _retirement_shown(self, i: int) -> list[str]:
        held = self.players[i].get("retirement_tokens", [])
        return [t.id for t in cat.RETIREMENT_TOKENS if t.expansion in self.expansions or t.id in held]

    def tokens_summary(self, i: int, oob: str = "") -> str:
        held = Counter(self.players[i].get("retirement_tokens", []))
        names = [
            f"{t.name} ×{held[t.id]}" if held[t.id] > 1 else t.name
            for t in cat.RETIREMENT_TOKENS
            if held[t.id] and t.id in self._retirement_shown(i)
        ]
        shown = f' <span class="sp-group-held">{_esc(", ".join(names))}</span>' if names else ""
        return (
            f'<summary id="p{i}-group-tokens-sum"{oob}><span class="sp-group-name">Retirement tokens</span> '
            f'<span class="pill">{len(names)}</span>{shown}</summary>'
        )

    def tokens_group(self, i: int, force_open: bool = False, oob: str = "") -> str:
        shown = self._retirement_shown(i)
        opened = (
            force_open
            or self.open_group == f"p{i}-group-tokens"
            or any(f"p{i}-retirement_tokens-{t}" in self.problems.by_anchor for t in shown)
        )
        counters = "".join(self.retirement(i, t) for t in shown)
        return (
            f'<details class="sp-group" id="p{i}-group-tokens"{" open" if opened else ""}{oob}>'
            f"{self.tokens_summary(i)}{counters}</details>"
        )

    def pipes_summary(self, i: int, oob: str = "") -> str:
        held = [cat.TOKEN_BY_ID[t].name for t in self.players[i].get("pipes", [])]
        names = f' <span class="sp-group-held">{_esc(", ".join(held))}</span>' if held else ""
        return (
            f'<summary id="p{i}-group-pipes-sum"{oob}><span class="sp-group-name">Pipes</span> '
            f'<span class="pill">{len(held)}</span>{names}</summary>'
        )

    def pipes_group(self, i: int, force_open: bool = False, oob: str = "") -> str:
        groups = _token_groups(TokenKind.PIPE, self.expansions)
        opened = (
            force_open
            or self.open_group == f"p{i}-group-pipes"
            or any(f"p{i}-pipes-{t.id}" in self.problems.by_anchor for _label, ts in groups for t in ts)
        )
        seasons = "".join(
            f'<h4 class="sp-season">{_esc(label)}</h4>'
            f'<div class="sp-chips">{self.chips(i, "pipes", (t.id for t in tokens))}</div>'
            for label, tokens in groups
        )
        return (
            f'<details class="sp-group" id="p{i}-group-pipes"{" open" if opened else ""}{oob}>'
            f"{self.pipes_summary(i)}{seasons}</details>"
        )

    def group_of(self, anchor: str) -> str | None:
        """The html id of the folding group an entry sits in, if any."""
        m = _LIST_ANCHOR.match(anchor)
        if not m:
            return None
        i, list_name, item = m[1], m[2], m[3]
        if list_name == "characters":
            return f"p{i}-group-{_card_group_of(self.expansions)[item]}"
        if list_name == "retirement_tokens":
            return f"p{i}-group-tokens"
        if list_name == "pipes":
            return f"p{i}-group-pipes"
        return None

    def group(self, group_id: str, oob: str = "") -> str:
        i_text, _, key = group_id[1:].partition("-group-")
        i = int(i_text)
        if key == "tokens":
            return self.tokens_group(i, True, oob)
        if key == "pipes":
            return self.pipes_group(i, True, oob)
        return self.char_group(i, key, True, oob)

    # --- the lists of other steps ---

    def buildings(self, i: int) -> list[Any]:
        """The buildings in play (all of the edition when the setup is not known), then any others held."""
        shown, ids = _buildings_in_play(self.expansions, self.setup.buildings if self.setup else None)
        return [
            *shown,
            *(cat.BUILDING_BY_ID[b] for b in self.players[i].get("buildings", []) if b not in ids),
        ]

    def personalities(self, i: int) -> list[tuple[str, tuple[Any, ...]]]:
        """The personalities by season: those on the bridge this game when known (all of them once someone built
        the Ferry boat and its side is B or not known, RULINGS R13), and any others held."""
        held = self.players[i].get("personalities", [])
        setup = self.setup
        known = setup is not None and setup.personalities is not None and not ferry_opens_the_pool(self.table)
        out = []
        for season in SEASONS:
            ps = cat.personalities_of_season(season)
            if known:
                assert setup is not None and setup.personalities is not None
                ps = tuple(x for x in ps if x.id in setup.personalities or x.id in held)
            out.append((season.label, ps))
        return out

    # --- a player's column ---

    def body(self, i: int) -> str:
        slug = self.step.slug
        if slug == "characters":
            groups = "".join(self.char_group(i, key) for key, *_ in _card_groups(self.expansions))
            return f"{self.wild(i)}{groups}{self.tokens_group(i)}"
        if slug == "fish":
            return "".join(
                f'<h3 class="sp-season">{_esc(label)}</h3>'
                f'<div class="sp-chips">{self.chips(i, "fish", (t.id for t in tokens))}</div>'
                for label, tokens in _token_groups(TokenKind.FISH, self.expansions)
            )
        if slug == "tobacco":
            pouches = "".join(
                f'<h4 class="sp-season">{_esc(label)}</h4>'
                f'<div class="sp-chips">{self.chips(i, "tobacco", (t.id for t in tokens))}</div>'
                for label, tokens in _token_groups(TokenKind.TOBACCO, self.expansions)
            )
            return f"{self.pipes_group(i)}<h3>Tobacco pouches</h3>{pouches}"
        if slug == "buildings":
            items = (b.id for b in self.buildings(i))
            return f'<div class="sp-chips">{self.chips(i, "buildings", items)}</div>'
        if slug == "boats":
            items = (b.id for b in cat.BUILDABLE_BOATS)
            return f'<div class="sp-chips">{self.chips(i, "boats", items)}</div>'
        out = []
        if slug == "personalities":
            out = [
                f'<h3 class="sp-season">{_esc(label)}</h3>'
                f'<div class="sp-chips">{self.chips(i, "personalities", (x.id for x in ps))}</div>'
                for label, ps in self.personalities(i)
            ]
        out += [self.number(i, fld) for fld in STEP_NUMBERS.get(slug, ())]
        return "".join(out)

    def head(self, i: int, oob: str = "") -> str:
        """The player's name, this step's points and explanation, and the problems of the whole column."""
        player = self.players[i]
        colour = self.sheet.colour(i)
        line = self.scores[i]["lines"].get(self.step.line) if self.step.line else None
        points = explain = ""
        if line is not None:
            label = _esc(LINE_LABELS.get(self.step.line or "", ""))
            points = f'<span class="sp-points">{line.points}<span class="visually-hidden"> IKI for {label}</span></span>'
            explain = f'<p class="small muted sp-explain">{_esc(line.explanation)}</p>'
        return (
            f'<div class="sp-top" id="p{i}-top"{oob}><h2 id="p{i}-head" class="sp-head">'
            f'<span class="sp-dot sp-c-{_esc(colour)}" aria-hidden="true"></span> '
            f'<span class="sp-who">{_esc(player["name"])}</span> {points}</h2>{explain}'
            f"{_problems_html(self.head_problems(i))}</div>"
        )

    # --- around the columns ---

    def nav(self, oob: str = "") -> str:
        by_step = self.problems.errors_by_step()
        items = []
        for n, s in enumerate(self.steps, 1):
            title = _esc(s.title)
            current = s is self.step
            text = f". {title}" if current else f'<span class="visually-hidden">. {title}</span>'
            errors = by_step.get(s.slug, 0)
            bad = (
                f' <span class="sp-bad"><span class="visually-hidden">, </span>{errors}'
                f'<span class="visually-hidden"> to fix</span></span>'
                if errors
                else ""
            )
            aria = ' aria-current="step"' if current else ""
            items.append(f'<li><a href="{self.url(s.slug)}" title="{title}"{aria}>{n}{text}{bad}</a></li>')
        return f'<nav class="sp-steps" id="sp-nav" aria-label="Score pad steps"{oob}><ol>{"".join(items)}</ol></nav>'

    def messages(self, oob: str = "") -> str:
        """Above the form: a refused request's message, the step's problems no entry shows, the other steps'."""
        out = [f'<div class="sp-msgs" id="sp-msgs"{oob}>']
        if self.bad:
            out.append(
                f'<p class="message error" role="alert" id="bad-input">{_esc(self.bad)} Nothing was changed.</p>'
            )
        out.append(_problems_html(self.top_problems()))
        by_step = self.problems.errors_by_step()
        others = [
            f'<a href="{self.url(s.slug)}">{_esc(s.title)} ({by_step[s.slug]})</a>'
            for s in self.steps
            if by_step.get(s.slug) and s is not self.step
        ]
        if others:
            out.append(f'<p class="message warning sp-elsewhere">Also to fix: {", ".join(others)}</p>')
        out.append("</div>")
        return "".join(out)

    def totals(self, oob: str = "") -> str:
        """The running totals bar; as an htmx fragment only its content is replaced, so the status is read."""
        parts = []
        for i, player in enumerate(self.players):
            colour = self.sheet.colour(i)
            parts.append(
                f'<span class="sp-total"><span class="sp-dot sp-c-{_esc(colour)}" aria-hidden="true"></span>'
                f"{_esc(player['name'])} <strong>{self.scores[i]['total']}</strong></span>"
            )
        if self.report.errors:
            parts.append(f'<span class="sp-total sp-tofix">{len(self.report.errors)} to fix</span>')
        if oob:
            return f'<div id="sp-totals" hx-swap-oob="innerHTML">{"".join(parts)}</div>'
        return (
            f'<div class="sticky-total sp-totals" id="sp-totals" role="status" aria-label="Running totals">'
            f"{''.join(parts)}</div>"
        )

    def state(self, oob: str = "") -> str:
        """What the page shows, posted back with every entry: the sheet's version, the entries with messages,
        and a digest of what each piece around the entries was made from."""
        marked = " ".join(sorted(self.marked()))
        seen = " ".join(f"{key}:{value}" for key, value in self.digests().items())
        return (
            f'<div id="sp-state"{oob}><input type="hidden" name="v" value="{self.sheet.version}">'
            f'<input type="hidden" name="marked" value="{marked}">'
            f'<input type="hidden" name="seen" value="{seen}"></div>'
        )

    def digests(self) -> dict[str, str]:
        """What the steps bar, the messages, the totals and each column's head are made of, as short digests: a
        reply sends only those whose digest is not the one the page posted (another server process digests
        differently, and then sends them all)."""
        if self._digests is None:
            by_step = tuple(sorted(self.problems.errors_by_step().items()))
            made: dict[str, Any] = {
                "nav": by_step,
                "msgs": (self.bad, by_step, tuple((s.problem.message, s.error) for s in self.top_problems())),
                "totals": (tuple(score["total"] for score in self.scores), len(self.report.errors)),
            }
            for i in range(
                len(self.players)
            ):  # the scored player, not the explanation (made only when shown)
                made[f"p{i}"] = (
                    self.scores[i]["digest"],
                    tuple((s.problem.message, s.error) for s in self.head_problems(i)),
                )
            self._digests = {key: format(hash(value) & 0xFFFFFFFFFFFF, "x") for key, value in made.items()}
        return self._digests

    def order(self, oob: str = "") -> str:
        """The firefighting step's stack order for players sharing a space (RULINGS R12)."""
        by_space: dict[int, list[int]] = {}
        for i, player in enumerate(self.players):
            by_space.setdefault(int(player.get("firefighting", 0)), []).append(i)
        out = [f'<div id="firefighting-order" class="sp-order"{oob}>']
        shown = self.problems.at("firefighting-order")
        # A space's problems show in its fieldset, a player's beside its place (RULINGS R12/R13), others on top.
        here = {
            space: [s for s in shown if s.problem.field.split("[")[0] == f"stacks.{space}"]
            for space in by_space
        }
        placed = {id(s) for v in here.values() for s in v}
        out.append(_problems_html(s for s in shown if id(s) not in placed))
        for space in sorted(by_space, reverse=True):
            members = by_space[space]
            if len(members) < 2:
                continue
            names = {self.players[i]["name"] for i in members}
            out.append(
                f'<fieldset class="card"><legend>Stack on space {space}: who is on top?</legend>'
                '<p class="small muted">These players share a space; the marker higher in the stack ranks first '
                "(RULINGS R12).</p>" + _problems_html(s for s in here[space] if s.problem.player not in names)
            )
            for i in members:
                name = self.players[i]["name"]
                html_id = f"stack-p{i}"
                mine = [s for s in here[space] if s.problem.player == name]
                desc, msgs = _msgs(html_id, mine)
                value = _place(self.sheet.stack.get(name), len(members))
                options = "".join(
                    f'<option value="{place}"{" selected" if place == value else ""}>'
                    f"{'1 (top)' if place == 1 else place}</option>"
                    for place in range(1, len(members) + 1)
                )
                out.append(
                    f'<label for="{html_id}">{_esc(name)}\'s place in the stack</label>'
                    f'<select id="{html_id}" name="{html_id}" hx-post="{self.post_url}" hx-trigger="change" '
                    f'hx-target="#step" hx-swap="outerHTML" hx-params="{html_id},was-{html_id},{PAGE_STATE}"{desc}><option value="">Not given</option>{options}</select>'
                    f'<input type="hidden" name="was-{html_id}" value="{value}">{msgs}'
                )
            out.append("</fieldset>")
        out.append("</div>")
        return "".join(out)

    # --- the whole step, or only what an entry changed ---

    def context(self) -> dict[str, Any]:
        steps = self.steps
        position = steps.index(self.step)
        return {
            "sheet": self.sheet,
            "step": self.step,
            "number": position + 1,
            "count": len(steps),
            "nav": SafeString(self.nav()),
            "messages": SafeString(self.messages()),
            "players": [
                {"head": SafeString(self.head(i)), "body": SafeString(self.body(i)), "index": i}
                for i in range(len(self.players))
            ],
            "order": SafeString(self.order()) if self.step.slug == "firefighting" else "",
            "state": SafeString(self.state()),
            "totals": SafeString(self.totals()),
            "post_url": self.post_url,
            "prev_url": self.url(steps[position - 1].slug) if position else None,
            "next_url": self.url(steps[position + 1].slug) if position + 1 < len(steps) else None,
            "setup_note": _setup_note(self.table),
            "htmx_config": HTMX_CONFIG,
            "page_state": PAGE_STATE,
        }

    def _pieces(self) -> dict[str, Callable[[str], str]]:
        return {"nav": self.nav, "msgs": self.messages, "totals": self.totals}

    def reply(self, changes: Iterable[Change], marked_before: set[str], seen: Mapping[str, str]) -> str:
        """The htmx answer to an entry made on the page this sheet's previous version showed: only the pieces
        that changed, each replacing its own element (hx-swap-oob).

        The page state; the steps bar, the messages above the form, the totals and each column's head (points
        and column problems) when what they show changed (``seen``: the digests the page posted). Then the entries the changes touch (a component in every column, since
        "X has it" shows beside the others' toggles), the entries whose messages come or go, in whichever
        column they are (an entry that gains a message has its folded group sent open), and the summaries of
        a player's character groups when their board changed.
        """
        slug = self.step.slug
        count = len(self.players)
        now = self.digests()
        fresh = {key for key, value in now.items() if seen.get(key) != value}
        parts = [self.state(OOB)]
        parts += [piece(OOB) for key, piece in self._pieces().items() if key in fresh]
        parts += [self.head(i, OOB) for i in range(count) if f"p{i}" in fresh]
        if slug == "firefighting":
            parts.append(self.order(OOB))
        anchors: set[str] = set()
        boards: set[int] = set()
        pipes: set[int] = set()
        # The character groups whose summaries a board change can alter: a card whose type is printed (or an
        # unnamed one) only counts in its own column; anything else (a wild card, a retirement token that
        # makes the Puppeteer wild, a chosen type) may move cards between columns, and all are sent.
        columns: dict[int, set[str] | None] = {}
        group_of_card = _card_group_of(self.expansions)
        for ch in changes:
            if ch.op in ("set", "bump"):
                anchors.add(f"p{ch.player}-{ch.field}")
            elif ch.op in ("add", "remove"):
                if ch.field == "retirement_tokens" or cat.any_type(ch.item) is not None:
                    anchors.add(f"p{ch.player}-{ch.field}-{ch.item}")
                else:
                    anchors.update(f"p{j}-{ch.field}-{ch.item}" for j in range(count))
                if ch.field in ("characters", "retirement_tokens"):
                    boards.add(ch.player)
                    key = group_of_card.get(ch.item) if ch.field == "characters" else None
                    known = columns.get(ch.player, set())
                    columns[ch.player] = (
                        known | {key} if key and known is not None and ch.item not in cat.WILD_IDS else None
                    )
                elif ch.field == "pipes":
                    pipes.add(ch.player)
            elif ch.op == "wild":
                boards.add(ch.player)
                columns[ch.player] = None
        after = self.marked()
        opened = {g for a in after - marked_before if (g := self.group_of(a))}
        anchors |= marked_before | after
        for group_id in sorted(opened):
            parts.append(self.group(group_id, OOB))
        wilds = set()
        for anchor in sorted(anchors):
            if not self.is_entry(anchor) or self.group_of(anchor) in opened:
                continue
            if m := _WILD_ANCHOR.match(anchor):
                wilds.add(int(m[1]))
            elif m := _LIST_ANCHOR.match(anchor):
                i, list_name, item = int(m[1]), m[2], m[3]
                if list_name == "retirement_tokens":
                    parts.append(self.retirement(i, item, OOB))
                elif (ctype := cat.any_type(item)) is not None:
                    parts.append(self.unnamed(i, ctype, OOB))
                else:
                    parts.append(self.chip(i, list_name, item, OOB))
            elif m := _NUMBER_ANCHOR.match(anchor):
                parts.append(self.number(int(m[1]), m[2], OOB))
        if slug == "characters":
            for i in sorted(boards | wilds):
                # A card of printed type leaves the "counts as" choices as they were.
                if i in wilds or columns.get(i) is None:
                    parts.append(self.wild(i, OOB))
            for i in sorted(boards):
                changed = columns.get(i)
                parts += [
                    self.char_summary(i, key, OOB)
                    for key, *_ in _card_groups(self.expansions)
                    if f"p{i}-group-{key}" not in opened and (changed is None or key in changed)
                ]
                if f"p{i}-group-tokens" not in opened and changed is None:
                    parts.append(self.tokens_summary(i, OOB))
        if slug == "tobacco":
            parts += [self.pipes_summary(i, OOB) for i in sorted(pipes) if f"p{i}-group-pipes" not in opened]
        return "".join(parts)


def step_url(sheet: ScoreSheet, slug: str) -> str:
    return reverse("scorepad-step", args=[sheet.token, slug])


# --- views -------------------------------------------------------------------------------------------------------


@require_safe
def sheet_start(request: HttpRequest, token: str) -> HttpResponse:
    sheet = _sheet(token)
    return HttpResponseRedirect(step_url(sheet, STEPS[0].slug))


def _render_step(request: HttpRequest, page: StepPage, status: int = 200) -> HttpResponse:
    name = "scorepad_step.html#step" if is_htmx(request) else "scorepad_step.html"
    return render(request, name, page.context(), status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def step_view(request: HttpRequest, token: str, slug: str) -> HttpResponse:
    step = STEP_BY_SLUG.get(slug)
    if step is None:
        raise Http404("no such step")
    if request.method != "POST":
        sheet = _sheet(token)
        if step not in steps_for(sheet.akebono):
            raise Http404("no such step")
        return _render_step(request, StepPage(sheet, step, request.GET.get("open", "")[:60]))
    post = {k: request.POST.get(k, "") for k in request.POST}
    made: list[Change] = []

    def changes(read: ScoreSheet) -> list[Change]:
        if step not in steps_for(read.akebono):
            raise Http404("no such step")
        made[:] = parse_changes(post, read.names)  # again if another phone wrote meanwhile
        return made

    try:
        sheet = apply_changes(token, changes)  # one read, the form read against it, one write
    except ScoreSheet.DoesNotExist:
        raise _missing(token) from None
    except SheetBusy:
        busy = "Other phones kept changing this sheet at the same moment; make the entry again."
        return _render_step(request, StepPage(_sheet(token), step, bad=busy), status=409)
    except BadInput as exc:
        return _render_step(request, StepPage(_sheet(token), step, bad=exc.message), status=400)
    open_group = _group_of(post.get("op", ""))
    steps = steps_for(sheet.akebono)
    where = steps.index(step)
    go = post.get("go", "")
    target = None
    if go == "next":
        target = step_url(sheet, steps[where + 1].slug) if where + 1 < len(steps) else _result_url(sheet)
    elif go == "prev" and where:
        target = step_url(sheet, steps[where - 1].slug)
    elif go == "result":
        target = _result_url(sheet)
    if target is not None:
        return HttpResponseClientRedirect(target) if is_htmx(request) else HttpResponseRedirect(target)
    if is_htmx(request):
        # The page showed the sheet as it was just before these changes (nobody else wrote in between): answer
        # with only what they changed. Otherwise (another phone wrote, or an older page) the whole step.
        marked = parse_marked(request.POST.get("marked"))
        if marked is not None and post.get("v") == str(sheet.version - (1 if made else 0)):
            seen = parse_seen(request.POST.get("seen", ""))
            return reswap(HttpResponse(StepPage(sheet, step).reply(made, marked, seen)), "none")
        return _render_step(request, StepPage(sheet, step, open_group))
    query = f"?{urlencode({'open': open_group})}" if open_group else ""
    anchor = _anchor_of(post.get("op", ""))
    return HttpResponseRedirect(f"{step_url(sheet, step.slug)}{query}{'#' + anchor if anchor else ''}")


def _group_of(op: str) -> str:
    """The character group whose card was tapped, so it stays open after the page comes back."""
    parts = op.split("|")
    if parts[0] == "pick" and len(parts) == 3:
        return f"p{parts[1]}-group-{parts[2]}"
    if len(parts) == 4 and parts[2] == "retirement_tokens":
        return f"p{parts[1]}-group-tokens"
    if len(parts) == 4 and parts[2] == "pipes":
        return f"p{parts[1]}-group-pipes"
    if len(parts) == 4 and parts[2] == "characters":
        any_type = cat.any_type(parts[3])
        if any_type is not None:
            return f"p{parts[1]}-group-{any_type.value}"
        card = cat.CHARACTER_BY_ID.get(parts[3])
        if card is not None:
            return f"p{parts[1]}-group-{card.type.value if card.type else 'wild'}"
    return ""


def _anchor_of(op: str) -> str:
    parts = op.split("|")
    if len(parts) == 4 and parts[0] in {"add", "remove"}:
        return f"p{parts[1]}-{parts[2]}-{parts[3]}"
    if len(parts) == 4 and parts[0] == "bump":
        return f"p{parts[1]}-{parts[2]}"
    return ""


def _result_url(sheet: ScoreSheet) -> str:
    return reverse("scorepad-result", args=[sheet.token])


def _result_context(request: HttpRequest, sheet: ScoreSheet, *, can_edit: bool) -> dict[str, Any]:
    """What the result page shows: the ranking and each line's explanation, or what the rules still refuse.
    With ``can_edit`` the problems link to their entries and the view-only link is offered with its QR code."""
    table = read_sheet(sheet)
    steps = steps_for(table.akebono)
    report = validate(table)
    idx = ProblemIndex(report, sheet.table, (s.slug for s in steps))
    titles = {s.slug: s.title for s in steps}

    def problem(s: Shown) -> dict[str, str]:
        url = f"{step_url(sheet, s.step)}#{s.anchor}" if can_edit else ""
        return {"message": s.problem.message, "url": url, "step": titles[s.step]}

    fixes = [problem(s) for s in idx.all if s.error]
    warnings = [problem(s) for s in idx.all if not s.error and not s.problem.incomplete]
    # RULINGS R13 as amended: scored with what is known, saying what is not
    missing = [problem(s) for s in idx.all if s.problem.incomplete]
    ranking = []
    if report.valid:
        from scoring.score import lines_for, score_table

        labels = [(key, LINE_LABELS[key]) for key in lines_for(table.akebono)]
        for i, s in enumerate(score_table(table)):
            ranking.append(
                {
                    "name": s.name,
                    "colour": sheet.colour(i),
                    "rank": s.rank,
                    "total": s.total,
                    "tie_break": s.tie_break,
                    "lines": [
                        (label, s.lines[key].points, s.lines[key].explanation) for key, label in labels
                    ],
                }
            )
        ranking.sort(key=lambda r: (r["rank"], r["name"]))
    tie_breaks = list(dict.fromkeys(r["tie_break"] for r in ranking if r["tie_break"]))
    pad = (
        reverse("scorepad-pdf", args=[sheet.token])
        if can_edit
        else reverse("scorepad-view-pdf", args=[sheet.view_token])
    )
    view_url = request.build_absolute_uri(sheet.view_url())
    return {
        "sheet": sheet,
        "can_edit": can_edit,
        "valid": report.valid,
        "fixes": fixes,
        "warnings": warnings,
        "missing": missing,
        "ranking": ranking,
        "tie_breaks": tie_breaks,
        "first_step": step_url(sheet, steps[0].slug) if can_edit else "",
        "pad_a4": pad + "?size=a4",
        "pad_letter": pad + "?size=letter",
        "view_url": view_url,
        "view_qr": qr_svg(view_url) if can_edit and report.valid else "",
    }


@require_safe
def result(request: HttpRequest, token: str) -> HttpResponse:
    """The result page of the table's own (edit) link."""
    sheet = _sheet(token)
    record_result(
        sheet=sheet
    )  # issue 14: a sheet with no error is kept as a result (updated when it changed)
    return render(request, "scorepad_result.html", _result_context(request, sheet, can_edit=True))


@require_safe
def sheet_view(request: HttpRequest, token: str) -> HttpResponse:
    """``/score/view/<token>/``: the view-only link: the result and the PDF, no link to an entry."""
    sheet = _viewed_sheet(token)
    return render(request, "scorepad_result.html", _result_context(request, sheet, can_edit=False))


def _error_page(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(request, "error.html", {"status": status, "message": message}, status=status)


def _pad_response(request: HttpRequest, sheet: ScoreSheet) -> HttpResponse:
    """The filled score pad of a scored sheet (A4 or Letter), 409 while the rules refuse an entry."""
    size = request.GET.get("size", "a4").lower()
    if size not in PAD_SIZES:
        return _error_page(request, 400, "The score pad comes in size=a4 or size=letter.")
    table = read_sheet(sheet)
    report = validate(table)
    if not report.valid:
        return _error_page(
            request,
            409,
            "This game still has entries the rules refuse: fix them first (see the result page).",
        )
    missing = [p.message for p in report.warnings if p.incomplete]
    pdf = filled_pad_for(sheet, table, PAD_SIZES[size], missing)
    response = HttpResponse(pdf, content_type="application/pdf")
    names = "-".join(re.sub(r"[^A-Za-z0-9]+", "", n) or "player" for n in sheet.names)
    response["Content-Disposition"] = f'inline; filename="iki-score-{names}.pdf"'
    return response


@require_safe
def pad_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _pad_response(request, _sheet(token))


@require_safe
def view_pad_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _pad_response(request, _viewed_sheet(token))


def filled_pad_for(sheet: ScoreSheet, table: Table, pagesize: str, missing: Sequence[str] = ()) -> bytes:
    from companion.pdf.scorepad import PadPlayer, filled_pad
    from scoring.score import score_table

    scores = score_table(table)
    players = [
        PadPlayer(
            name=s.name,
            colour=sheet.colour(i) or None,
            lines={k: line.points for k, line in s.lines.items()},
            total=s.total,
            rank=s.rank,
        )
        for i, s in enumerate(scores)
    ]
    tie_breaks = list(dict.fromkeys(s.tie_break for s in scores if s.tie_break))
    return filled_pad(
        akebono=table.akebono,
        players=players,
        pagesize=pagesize,
        date=sheet.created.date() if sheet.created else datetime.date.today(),
        seed=sheet.seed or None,
        tie_breaks=tie_breaks,
        missing=missing,
    )


# --- quick score: the start ------------------------------------------------------------------------------------


def _setup_from_seed(
    code: str, players: int, akebono: bool, grand_master: bool
) -> tuple[dict[str, Any], str]:
    from setupgen import Options, OptionsError, SeedError, generate

    try:
        setup = generate(Options(players=players, akebono=akebono, grand_master=grand_master), seed=code)
    except (SeedError, OptionsError) as exc:
        raise SheetError("seed", f"Seed code: {exc}.") from None
    out: dict[str, Any] = {"buildings": list(setup.buildings)}
    if setup.akebono is not None:
        out["personalities"] = [p for pair in setup.akebono.personalities.values() for p in pair]
        out["boat_sides"] = dict(setup.akebono.boat_sides)
    return out, setup.seed


def _start_page(request: HttpRequest, form: ScoreStartForm, status: int = 200) -> HttpResponse:
    picked_b = set(form["buildings"].value() or [])
    picked_p = set(form["personalities"].value() or [])
    context = {
        "form": form,
        "players": form,
        "name_max": NAME_MAX,
        "errors": form.messages() if form.is_bound else [],
        "akebono": form["edition"].value() == "akebono",
        "buildings": [
            {
                "id": b.id,
                "name": b.name,
                "akebono": b.expansion is Expansion.AKEBONO,
                "checked": b.id in picked_b,
            }
            for b in cat.BUILDINGS
        ],
        "personality_groups": [
            {
                "label": s.label,
                "items": [
                    {"id": x.id, "name": x.name, "checked": x.id in picked_p}
                    for x in cat.personalities_of_season(s)
                ],
            }
            for s in SEASONS
        ],
    }
    return render(request, "scorepad_start.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """``/score/``: quick score. 2-4 names and colours, base or Akebono, and optionally what was in play."""
    if request.method != "POST":
        return _start_page(request, ScoreStartForm())
    form = ScoreStartForm(request.POST)
    if not form.is_valid():
        return _start_page(request, form, status=400)
    data = form.cleaned_data
    names = [name for name, _ in form.players]
    colours = [colour for _, colour in form.players]
    akebono = data["edition"] == "akebono"
    seed = None
    setup: dict[str, Any] | None = None
    try:
        if data["setup_kind"] == "seed":
            setup, seed = _setup_from_seed(
                data["seed"], len(names), akebono, data["grand_master"] and akebono
            )
        elif data["setup_kind"] == "pick":  # either list may be left empty: only what is ticked is known
            setup = {"buildings": data["buildings"]} if data["buildings"] else {}
            if akebono and data["personalities"]:
                setup["personalities"] = data["personalities"]
        sheet = start_sheet(names=names, colours=colours, akebono=akebono, setup=setup, seed=seed)
    except SheetError as exc:
        form.add_error("seed" if exc.field == "seed" else None, ValidationError(exc.message))
        return _start_page(request, form, status=400)
    return HttpResponseRedirect(sheet.get_absolute_url())


urlpatterns = [
    path("score/", new, name="scorepad-new"),
    path("score/view/<sheet:token>/", sheet_view, name="scorepad-view"),
    path("score/view/<sheet:token>/pad.pdf", view_pad_pdf, name="scorepad-view-pdf"),
    path("score/<sheet:token>/", sheet_start, name="scorepad-sheet"),
    path("score/<sheet:token>/result/", result, name="scorepad-result"),
    path("score/<sheet:token>/pad.pdf", pad_pdf, name="scorepad-pdf"),
    path("score/<sheet:token>/<slug:slug>/", step_view, name="scorepad-step"),
]
