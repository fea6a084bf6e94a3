"""The end-game scoring walk-through (issue 4): quick score, one step per score-pad line, the result, the PDF.

Views parse the form, hand entries to :func:`companion.models.scoresheets.apply_changes`, and render what the rules
core (:mod:`scoring`) says about the stored table: every problem of :func:`scoring.validate.validate` is shown next
to the entry its ``field`` names. With htmx a step is swapped in place (the ``step`` partial); without JavaScript
the same forms post and redirect back. Every choice comes from :mod:`scoring.catalogue`; nothing takes a typed id.

Forms carry, beside each number and choice, the value the page showed (``was-…``): only what the person changed is
applied, so two phones on one sheet never write back each other's stale values.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from html import escape
from typing import Any, Final
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, register_converter, reverse
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from companion.models.scoresheets import (
    COLOURS,
    MAX_NAME_LENGTH,
    MAX_NUMBER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Change,
    ScoreSheet,
    SheetError,
    apply_changes,
    start_sheet,
)
from scoring import catalogue as cat
from scoring.components import CHAR_TYPES, SEASONS, Character, CharType, Expansion, TokenKind, Wild
from scoring.errors import InputError
from scoring.score import (
    LINE_LABELS,
    board_of,
    effective_type,
    last_in_firefighting,
    score_player,
    wild_kind,
)
from scoring.table import LIST_FIELDS, NUMBER_FIELDS, PlayerState, Table, check_id
from scoring.validate import Problem, Report, validate

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
    Step("fish", "Fish", "fish", intro="3/6/10/15 IKI for 1-4 fish, plus each token's printed bonus; at most one "
         "fish a season (RULINGS R6)."),
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
#: The kind of id each player list holds (scoring.table's contract).
LIST_KIND: Final = {
    "characters": "character",
    "retirement_tokens": "retirement-token",
    "buildings": "building",
    "fish": "fish",
    "pipes": "pipe",
    "tobacco": "tobacco",
    "boats": "boat",
    "personalities": "personality",
}
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
#: Column headings of the player board where the type's own plural reads oddly.
RESOURCE_FIELDS: Final = ("mon", "koban", "wood", "rice", "sandals")
PAD_SIZES: Final = {"a4": "A4", "letter": "letter"}
#: Only malformed requests get their answer swapped in by htmx: its default leaves 4xx pages unswapped.
HTMX_CONFIG: Final = (
    '{"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},'
    '{"code":"400","swap":true,"error":false},{"code":"...","swap":false,"error":true}]}'
)


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


def _sheet(token: str) -> ScoreSheet:
    try:
        return ScoreSheet.objects.get(token=token)
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
    if problem_field.startswith("firefighting_order"):
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
    """The validator's problems by entry; ``take`` hands out those of one entry, ``rest`` the ones left over."""

    def __init__(self, report: Report, data: Mapping[str, Any], slugs: Iterable[str]) -> None:
        known = set(slugs)
        self.all: list[Shown] = []
        for problem, error in [*((p, True) for p in report.errors), *((p, False) for p in report.warnings)]:
            step, anchor = locate(problem.field, data)
            self.all.append(Shown(problem, step if step in known else "track", anchor, error))
        self._taken: set[int] = set()
        self._by_anchor: dict[str, list[Shown]] = {}
        for shown in self.all:
            self._by_anchor.setdefault(shown.anchor, []).append(shown)

    def take(self, anchor: str) -> list[Shown]:
        found = self._by_anchor.pop(anchor, None)
        if not found:
            return []
        self._taken.update(id(s) for s in found)
        return found

    def rest(self, step: str) -> list[Shown]:
        return [s for s in self.all if s.step == step and id(s) not in self._taken]

    def errors_by_step(self) -> Counter[str]:
        return Counter(s.step for s in self.all if s.error)


# --- parsing a step's POST ---------------------------------------------------------------------------------------

_NUMBER_NAME: Final = re.compile(r"^p(\d)-([a-z_]+)$")
_WILD_NAME: Final = re.compile(r"^wild-p(\d)-([a-z0-9-]+)$")
_STACK_NAME: Final = re.compile(r"^stack-p(\d)$")


def _player_index(raw: str, count: int) -> int:
    if not raw.isdigit() or int(raw) >= count:
        raise BadInput(f"There is no player number {raw!r} on this sheet.")
    return int(raw)


def _int(raw: str, what: str) -> int:
    text = raw.strip()
    if not text:
        return 0
    try:
        value = int(text)
    except ValueError:
        raise BadInput(f"{what}: enter a whole number, not {raw[:20]!r}.") from None
    if abs(value) > MAX_NUMBER:
        raise BadInput(f"{what}: {value} is far beyond anything a game of IKI reaches.")
    return value


def _check_item(list_name: str, item: str) -> None:
    if list_name not in LIST_KIND:
        raise BadInput(f"{list_name!r} is not something a player holds.")
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
        if m := _NUMBER_NAME.match(key):
            i, fld = _player_index(m[1], count), m[2]
            if fld not in NUMBER_FIELDS:
                raise BadInput(f"{fld!r} is not a number on the score pad.")
            changes.append(Change("set", i, fld, value=_int(value, f"{names[i]}'s {NUMBER_LABELS[fld]}")))
        elif m := _WILD_NAME.match(key):
            i, card = _player_index(m[1], count), m[2]
            _check_item("characters", card)
            if value and value not in {t.value for t in CHAR_TYPES}:
                raise BadInput(f"{value[:30]!r} is not a character type.")
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
            raise BadInput(f"{parts[2]!r} is not a number on the score pad.")
        return Change("bump", i, parts[2], value=_int(parts[3], "step"))
    raise BadInput("This button is not one of the score pad's.")


# --- what a step shows -------------------------------------------------------------------------------------------


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

    @property
    def counter(self) -> SafeString:
        return SafeString(_counter_html(self))


# --- the HTML of the repeated entries --------------------------------------------------------------------------
# A step shows up to 4 x 85 card toggles: built here with plain string formatting (names escaped once, cached),
# since a template partial per toggle made the characters step many times slower (docs/benchmarks.md).


@cache
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


def _chip_html(e: Entry) -> str:
    desc, msgs = _msgs(e.html_id, e.problems)
    note = f'<span class="sp-note">{_esc(e.note)}</span>' if e.note else ""
    held = f'<span class="sp-held">{_esc(e.held_by)} has it</span>' if e.held_by and not e.pressed else ""
    return (
        f'<div class="sp-entry{" sp-has-problem" if e.problems else ""}">'
        f'<button type="submit" name="op" value="{e.op}" id="{e.html_id}" class="sp-chip" '
        f'aria-pressed="{"true" if e.pressed else "false"}"{desc}>'
        f'<span class="sp-name">{_esc(e.name)}<span class="visually-hidden"> for {_esc(e.who)}</span></span>'
        f"{note}{held}</button>{msgs}</div>"
    )


def _counter_html(e: Entry) -> str:
    desc, msgs = _msgs(e.html_id, e.problems, "sp-counter-msg")
    name, who = _esc(e.name), _esc(e.who)
    note = f'<span class="sp-note">{_esc(e.note)}</span>' if e.note else ""
    return (
        f'<div class="sp-counter{" sp-has-problem" if e.problems else ""}" id="{e.html_id}">'
        f'<div class="sp-counter-text"><span class="sp-name">{name}</span>{note}</div><div class="stepper">'
        f'<button type="submit" name="op" value="{e.remove_op}" id="{e.html_id}-less" '
        f'aria-label="One less {name} for {who}"{"" if e.count else " disabled"}>−</button>'
        f'<output class="sp-count" aria-live="polite" aria-label="{name} held by {who}">{e.count}</output>'
        f'<button type="submit" name="op" value="{e.add_op}" id="{e.html_id}-more" '
        f'aria-label="One more {name} for {who}"{desc}>+</button></div>{msgs}</div>'
    )


def _number_html(
    i: int, fld: str, value: int, who: str, post_url: str, problems: list[Shown], top: int | None
) -> str:
    html_id = f"p{i}-{fld}"
    label, who = _esc(NUMBER_LABELS[fld]), _esc(who)
    desc, msgs = _msgs(html_id, problems)
    limit = f'<span class="small muted">0–{top}</span>' if top else ""
    return (
        f'<div class="sp-number{" sp-has-problem" if problems else ""}">'
        f'<label for="{html_id}">{label}<span class="visually-hidden"> for {who}</span></label><div class="stepper">'
        f'<button type="submit" name="op" value="bump|{i}|{fld}|-1" id="{html_id}-less" '
        f'aria-label="One less: {label} for {who}">−</button>'
        f'<input type="number" id="{html_id}" name="{html_id}" value="{value}" inputmode="numeric" step="1" '
        f'hx-post="{post_url}" hx-trigger="change" hx-target="#step" hx-swap="outerHTML"{desc}>'
        f'<input type="hidden" name="was-{html_id}" value="{value}">'
        f'<button type="submit" name="op" value="bump|{i}|{fld}|1" id="{html_id}-more" '
        f'aria-label="One more: {label} for {who}">+</button>{limit}</div>{msgs}</div>'
    )


def chips(entries: Iterable[Entry]) -> SafeString:
    return SafeString("".join(_chip_html(e) for e in entries))


def _toggle(i: int, player: Mapping[str, Any], list_name: str, item: str, name: str, note: str,
            idx: ProblemIndex, holders: Mapping[tuple[str, str], list[str]]) -> Entry:  # fmt: skip
    pressed = item in player.get(list_name, [])
    others = [n for n in holders.get((list_name, item), []) if n != player["name"]]
    verb = "remove" if pressed else "add"
    return Entry(
        html_id=f"p{i}-{list_name}-{item}",
        name=name,
        note=note,
        pressed=pressed,
        op=f"{verb}|{i}|{list_name}|{item}",
        problems=idx.take(f"p{i}-{list_name}-{item}"),
        held_by=", ".join(others),
        who=player["name"],
    )


def _number(
    i: int, player: Mapping[str, Any], fld: str, idx: ProblemIndex, post_url: str, top: int | None = None
) -> SafeString:
    value = player.get(fld, 0)
    problems = idx.take(f"p{i}-{fld}")
    return SafeString(_number_html(i, fld, int(value), player["name"], post_url, problems, top))


def _season_tokens(i: int, player: Mapping[str, Any], kind: TokenKind, expansions: frozenset[Expansion],
                   idx: ProblemIndex, holders: Mapping[tuple[str, str], list[str]]) -> list[dict[str, Any]]:  # fmt: skip
    list_name = {"fish": "fish", "pipe": "pipes", "tobacco": "tobacco"}[kind.value]
    groups = []
    for season in (*SEASONS, None):
        tokens = cat.tokens_of(kind, season, expansions)
        entries = [_toggle(i, player, list_name, t.id, t.name, t.effect, idx, holders) for t in tokens]
        if tokens:
            groups.append(
                {
                    "label": season.label if season else "Special tokens",
                    "chips": chips(entries),
                    "problems": any(e.problems for e in entries),
                }
            )
    return groups


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


def _card_group_label(c: Character) -> str:
    if c.starting:
        return "Starting"
    if c.month is not None:
        return f"Month {c.month} (New Characters)"
    assert c.season is not None
    return c.season.label


CARD_GROUP_LABEL: Final = {c.id: _card_group_label(c) for c in cat.CHARACTERS}


def _characters(i: int, player: Mapping[str, Any], table: Table, idx: ProblemIndex,
                holders: Mapping[tuple[str, str], list[str]], open_group: str) -> dict[str, Any]:  # fmt: skip
    state = table.players[i]
    board = board_of(state)
    expansions = table.expansions
    held = Counter(player.get("characters", []))
    groups = []
    for key, label, ctype, cards in _card_groups(expansions):
        entries = [
            _toggle(i, player, "characters", c.id, c.name, CARD_GROUP_LABEL[c.id], idx, holders)
            for c in cards
        ]
        unnamed = None
        if ctype is not None:
            any_id = cat.ANY_PREFIX + ctype.value
            unnamed = Entry(
                html_id=f"p{i}-characters-{any_id}",
                name=f"Unnamed {ctype.label}",
                note="One more of this type, without naming the card.",
                pressed=held[any_id] > 0,
                op="",
                problems=idx.take(f"p{i}-characters-{any_id}"),
                count=held[any_id],
                add_op=f"add|{i}|characters|{any_id}",
                remove_op=f"remove|{i}|characters|{any_id}",
                who=player["name"],
            )
        chosen = _held_names(state, ctype)
        groups.append(
            {
                "key": key,
                "html_id": f"p{i}-group-{key}",
                "label": label,
                "count": board.counts[ctype] if ctype else len(chosen),
                "held": chosen,
                "chips": chips(entries),
                "unnamed": unnamed,
                "open": open_group == f"p{i}-group-{key}"
                or any(e.problems for e in entries)
                or bool(unnamed and unnamed.problems),
            }
        )
    wild = []
    for card in dict.fromkeys(player.get("characters", [])):
        if card in cat.CHARACTER_BY_ID and wild_kind(card, state) is not Wild.NO:
            chosen_type = player.get("wild_types", {}).get(card, "")
            wild.append(
                {
                    "html_id": f"wild-p{i}-{card}",
                    "name": cat.CHARACTER_BY_ID[card].name,
                    "value": chosen_type,
                    "problems": idx.take(f"wild-p{i}-{card}"),
                }
            )
    for card in player.get("wild_types", {}):  # chosen types the rules refuse: shown so they can be cleared
        if not any(w["html_id"] == f"wild-p{i}-{card}" for w in wild) and card in cat.CHARACTER_BY_ID:
            wild.append(
                {
                    "html_id": f"wild-p{i}-{card}",
                    "name": cat.CHARACTER_BY_ID[card].name,
                    "value": player["wild_types"][card],
                    "problems": idx.take(f"wild-p{i}-{card}"),
                }
            )
    tokens = []
    held_tokens = Counter(player.get("retirement_tokens", []))
    for t in cat.RETIREMENT_TOKENS:
        if t.expansion in expansions or held_tokens[t.id]:
            tokens.append(
                Entry(
                    html_id=f"p{i}-retirement_tokens-{t.id}",
                    name=t.name,
                    note=t.effect,
                    pressed=held_tokens[t.id] > 0,
                    op="",
                    problems=idx.take(f"p{i}-retirement_tokens-{t.id}"),
                    count=held_tokens[t.id],
                    add_op=f"add|{i}|retirement_tokens|{t.id}",
                    remove_op=f"remove|{i}|retirement_tokens|{t.id}",
                    who=player["name"],
                )
            )
    return {
        "groups": groups,
        "wild": wild,
        "tokens": SafeString("".join(_counter_html(t) for t in tokens)),
        "tokens_open": open_group == f"p{i}-group-tokens" or any(t.problems for t in tokens),
        "tokens_held": [f"{t.name} ×{t.count}" if t.count > 1 else t.name for t in tokens if t.count],
        "list_problems": idx.take(f"p{i}-characters") + idx.take(f"p{i}-retirement_tokens"),
    }


def _held_names(state: PlayerState, ctype: CharType | None) -> list[str]:
    """The cards a player's board shows in one type column (RULINGS R4/R5: wild cards in their chosen column);
    ``ctype`` None lists the wild cards still waiting for a type."""
    names: list[str] = []
    unnamed = 0
    for card in state.characters:
        if effective_type(card, state) is not ctype:
            continue
        if cat.any_type(card) is not None:
            unnamed += 1
        elif wild_kind(card, state) is not Wild.NO:
            names.append(f"{cat.CHARACTER_BY_ID[card].name} (chosen)")
        else:
            names.append(cat.CHARACTER_BY_ID[card].name)
    if unnamed:
        names.append(f"{unnamed} unnamed")
    return names


def _holders(data: Mapping[str, Any]) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for p in data["players"]:
        for key in LIST_FIELDS:
            for item in p.get(key, []):
                out.setdefault((key, item), []).append(p["name"])
    return out


def _provisional(table: Table) -> list[dict[str, Any]]:
    """Every player's lines so far (the core's scoring; a final result needs a valid table)."""
    last = last_in_firefighting(table)
    out = []
    for p in table.players:
        lines = score_player(p, table.akebono, last)
        out.append({"lines": lines, "total": sum(line.points for line in lines.values())})
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


def step_context(sheet: ScoreSheet, step: Step, open_group: str = "", bad: str = "") -> dict[str, Any]:
    data = sheet.table
    table = sheet.read()
    steps = steps_for(table.akebono)
    report = validate(table)
    idx = ProblemIndex(report, data, (s.slug for s in steps))
    holders = _holders(data)
    scores = _provisional(table)
    expansions = table.expansions
    setup = table.setup
    post_url = step_url(sheet, step.slug)
    players = []
    for i, player in enumerate(data["players"]):
        colour = sheet.colours[i] if i < len(sheet.colours) else ""
        line = scores[i]["lines"].get(step.line) if step.line else None
        p: dict[str, Any] = {
            "index": i,
            "name": player["name"],
            "colour": colour,
            "line": line,
            "total": scores[i]["total"],
            "problems": idx.take(f"p{i}-name"),
        }
        if step.slug == "track":
            p["numbers"] = [_number(i, player, "score_track", idx, post_url)]
        elif step.slug == "characters":
            p.update(_characters(i, player, table, idx, holders, open_group))
        elif step.slug == "fish":
            p["token_groups"] = _season_tokens(i, player, TokenKind.FISH, expansions, idx, holders)
            p["list_problems"] = idx.take(f"p{i}-fish")
        elif step.slug == "tobacco":
            p["pipe_groups"] = _season_tokens(i, player, TokenKind.PIPE, expansions, idx, holders)
            p["pipes_held"] = [cat.TOKEN_BY_ID[t].name for t in player.get("pipes", [])]
            p["pipes_open"] = open_group == f"p{i}-group-pipes" or any(
                g["problems"] for g in p["pipe_groups"]
            )
            p["tobacco_groups"] = _season_tokens(i, player, TokenKind.TOBACCO, expansions, idx, holders)
            p["list_problems"] = idx.take(f"p{i}-pipes") + idx.take(f"p{i}-tobacco")
        elif step.slug == "buildings":
            shown = [b for b in cat.BUILDINGS if b.expansion in expansions]
            if setup and setup.buildings is not None:
                shown = [b for b in shown if b.id in setup.buildings]
            extra = [b for b in player.get("buildings", []) if b not in {x.id for x in shown}]
            shown += [cat.BUILDING_BY_ID[b] for b in extra]
            p["chips"] = chips(
                _toggle(i, player, "buildings", b.id, b.name, b.scoring, idx, holders) for b in shown
            )
            p["list_problems"] = idx.take(f"p{i}-buildings")
        elif step.slug == "boats":
            sides = setup.boat_sides if setup else {}
            entries = []
            for b in cat.BUILDABLE_BOATS:
                side = sides.get(b.id)
                text = (b.side_b if side == "B" and b.side_b else b.side_a) if side else b.side_a
                note = f"Side {side}: {text}" if side else f"Boat {b.number}, costs {b.cost}"
                entries.append(_toggle(i, player, "boats", b.id, b.name, note, idx, holders))
            p["chips"] = chips(entries)
            p["list_problems"] = idx.take(f"p{i}-boats")
        elif step.slug == "personalities":
            groups = []
            for season in SEASONS:
                ps = cat.personalities_of_season(season)
                if (
                    setup
                    and setup.personalities is not None
                    and sheet.table.get("setup", {}).get("boat_sides", {}).get("ferry-boat") != "B"
                ):
                    ps = tuple(
                        x for x in ps if x.id in setup.personalities or x.id in player["personalities"]
                    )
                groups.append(
                    {
                        "label": season.label,
                        "chips": chips(
                            _toggle(
                                i,
                                player,
                                "personalities",
                                x.id,
                                x.name,
                                f"{x.timing}: {x.effect}",
                                idx,
                                holders,
                            )
                            for x in ps
                        ),
                    }
                )
            p["token_groups"] = groups
            p["list_problems"] = idx.take(f"p{i}-personalities")
            p["numbers"] = [_number(i, player, "trade", idx, post_url, 10)]
        elif step.slug == "resources":
            p["numbers"] = [_number(i, player, f, idx, post_url) for f in RESOURCE_FIELDS]
        elif step.slug == "firefighting":
            p["numbers"] = [_number(i, player, "firefighting", idx, post_url, 10)]
        players.append(p)
    shared = []
    if step.slug == "firefighting":
        by_space: dict[int, list[int]] = {}
        for i, player in enumerate(data["players"]):
            by_space.setdefault(int(player.get("firefighting", 0)), []).append(i)
        for space in sorted(by_space, reverse=True):
            members = by_space[space]
            if len(members) > 1:
                shared.append(
                    {
                        "space": space,
                        "players": [
                            {
                                "index": i,
                                "name": data["players"][i]["name"],
                                "html_id": f"stack-p{i}",
                                "value": _place(sheet.stack.get(data["players"][i]["name"]), len(members)),
                            }
                            for i in members
                        ],
                        "places": list(range(1, len(members) + 1)),
                    }
                )
    position = [s.slug for s in steps].index(step.slug)
    by_step = idx.errors_by_step()
    nav = [
        {
            "slug": s.slug,
            "title": s.title,
            "url": step_url(sheet, s.slug),
            "current": s is step,
            "errors": by_step.get(s.slug, 0),
            "number": n + 1,
        }
        for n, s in enumerate(steps)
    ]
    return {
        "sheet": sheet,
        "step": step,
        "nav": nav,
        "number": position + 1,
        "count": len(steps),
        "players": players,
        "prev_url": step_url(sheet, steps[position - 1].slug) if position else None,
        "next_url": step_url(sheet, steps[position + 1].slug) if position + 1 < len(steps) else None,
        "result_url": reverse("scorepad-result", args=[sheet.token]),
        "post_url": post_url,
        "order_problems": idx.take("firefighting-order"),
        "shared": shared,
        "top_problems": idx.rest(step.slug),
        "other_errors": [n for n in nav if n["errors"] and not n["current"]],
        "error_count": len(report.errors),
        "line_label": LINE_LABELS.get(step.line or "", ""),
        "types": [(t.value, t.label) for t in CHAR_TYPES],
        "setup_note": _setup_note(table),
        "bad": bad,
        "htmx_config": HTMX_CONFIG,
    }


def _place(rank: int | None, size: int) -> int | str:
    """The 1-based stack place shown for a stored rank, "" when none is stored for this group size."""
    return rank + 1 if rank is not None and 0 <= rank < size else ""


def step_url(sheet: ScoreSheet, slug: str) -> str:
    return reverse("scorepad-step", args=[sheet.token, slug])


# --- views -------------------------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD"])
def sheet_start(request: HttpRequest, token: str) -> HttpResponse:
    sheet = _sheet(token)
    return HttpResponseRedirect(step_url(sheet, STEPS[0].slug))


def _render_step(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    name = "scorepad_step.html#step" if request.htmx else "scorepad_step.html"
    return render(request, name, context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def step_view(request: HttpRequest, token: str, slug: str) -> HttpResponse:
    step = STEP_BY_SLUG.get(slug)
    if step is None:
        raise Http404("no such step")
    if request.method != "POST":
        sheet = _sheet(token)
        if step not in steps_for(sheet.akebono):
            raise Http404("no such step")
        return _render_step(request, step_context(sheet, step, request.GET.get("open", "")[:60]))
    post = {k: request.POST.get(k, "") for k in request.POST}

    def changes(locked: ScoreSheet) -> list[Change]:
        if step not in steps_for(locked.akebono):
            raise Http404("no such step")
        return parse_changes(post, locked.names)

    try:
        sheet = apply_changes(token, changes)  # one locked read, the form read against it, one write
    except ScoreSheet.DoesNotExist:
        raise Http404("no such score sheet") from None
    except BadInput as exc:
        return _render_step(request, step_context(_sheet(token), step, bad=exc.message), status=400)
    open_group = _group_of(post.get("op", ""))
    steps = steps_for(sheet.akebono)
    where = [s.slug for s in steps].index(step.slug)
    go = post.get("go", "")
    target = None
    if go == "next":
        target = step_url(sheet, steps[where + 1].slug) if where + 1 < len(steps) else _result_url(sheet)
    elif go == "prev" and where:
        target = step_url(sheet, steps[where - 1].slug)
    elif go == "result":
        target = _result_url(sheet)
    if target is not None:
        return HttpResponseClientRedirect(target) if request.htmx else HttpResponseRedirect(target)
    if request.htmx:
        return _render_step(request, step_context(sheet, step, open_group))
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


@require_GET
def result(request: HttpRequest, token: str) -> HttpResponse:
    sheet = _sheet(token)
    table = sheet.read()
    steps = steps_for(table.akebono)
    report = validate(table)
    idx = ProblemIndex(report, sheet.table, (s.slug for s in steps))
    titles = {s.slug: s.title for s in steps}
    fixes = [
        {"message": s.problem.message, "url": f"{step_url(sheet, s.step)}#{s.anchor}", "step": titles[s.step]}
        for s in idx.all
        if s.error
    ]
    warnings = [
        {"message": s.problem.message, "url": f"{step_url(sheet, s.step)}#{s.anchor}", "step": titles[s.step]}
        for s in idx.all
        if not s.error
    ]
    ranking = []
    if report.valid:
        from scoring.score import lines_for, score_table

        labels = [(key, LINE_LABELS[key]) for key in lines_for(table.akebono)]
        for i, s in enumerate(score_table(table)):
            ranking.append(
                {
                    "name": s.name,
                    "colour": sheet.colours[i] if i < len(sheet.colours) else "",
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
    return render(
        request,
        "scorepad_result.html",
        {
            "sheet": sheet,
            "valid": report.valid,
            "fixes": fixes,
            "warnings": warnings,
            "ranking": ranking,
            "tie_breaks": tie_breaks,
            "first_step": step_url(sheet, steps[0].slug),
            "last_step": step_url(sheet, steps[-1].slug),
            "pad_a4": reverse("scorepad-pdf", args=[sheet.token]) + "?size=a4",
            "pad_letter": reverse("scorepad-pdf", args=[sheet.token]) + "?size=letter",
        },
    )


def _error_page(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(request, "error.html", {"status": status, "message": message}, status=status)


@require_GET
def pad_pdf(request: HttpRequest, token: str) -> HttpResponse:
    """The filled score pad of a scored sheet (the other helper's ``filled_pad`` draws it)."""
    sheet = _sheet(token)
    size = request.GET.get("size", "a4").lower()
    if size not in PAD_SIZES:
        return _error_page(request, 400, "The score pad comes in size=a4 or size=letter.")
    table = sheet.read()
    report = validate(table)
    if not report.valid:
        return _error_page(
            request,
            409,
            "This game still has entries the rules refuse: fix them first (see the result page).",
        )
    pdf = filled_pad_for(sheet, table, PAD_SIZES[size])
    response = HttpResponse(pdf, content_type="application/pdf")
    names = "-".join(re.sub(r"[^A-Za-z0-9]+", "", n) or "player" for n in sheet.names)
    response["Content-Disposition"] = f'inline; filename="iki-score-{names}.pdf"'
    return response


def filled_pad_for(sheet: ScoreSheet, table: Table, pagesize: str) -> bytes:
    from companion.pdf.scorepad import PadPlayer, filled_pad
    from scoring.score import score_table

    scores = score_table(table)
    players = [
        PadPlayer(
            name=s.name,
            colour=sheet.colours[i] if i < len(sheet.colours) else None,
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


def start_form_context(post: Mapping[str, Any] | None = None) -> dict[str, Any]:
    post = post or {}
    rows = []
    for i in range(MAX_PLAYERS):
        rows.append(
            {
                "index": i,
                "name": post.get(f"name-{i}", ""),
                "colour": post.get(f"colour-{i}", COLOURS[i]),
            }
        )
    picked_b = set(post.get("buildings", []))
    picked_p = set(post.get("personalities", []))
    return {
        "rows": rows,
        "colours": COLOURS,
        "akebono": post.get("edition") == "akebono",
        "seed": post.get("seed", ""),
        "grand_master": bool(post.get("grand_master")),
        "setup_kind": post.get("setup_kind", "none"),
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
        "max_name": MAX_NAME_LENGTH,
    }


def _start_input(request: HttpRequest) -> dict[str, Any]:
    data: dict[str, Any] = {k: request.POST.get(k, "") for k in request.POST}
    data["buildings"] = request.POST.getlist("buildings")
    data["personalities"] = request.POST.getlist("personalities")
    return data


@require_http_methods(["GET", "HEAD", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """``/score/``: quick score. 2-4 names and colours, base or Akebono, and optionally what was in play."""
    if request.method != "POST":
        return render(request, "scorepad_start.html", start_form_context())
    data = _start_input(request)
    names, colours = [], []
    for i in range(MAX_PLAYERS):
        name = str(data.get(f"name-{i}", "")).strip()
        if name:
            names.append(name)
            colours.append(str(data.get(f"colour-{i}", "")))
    akebono = data.get("edition") == "akebono"
    kind = data.get("setup_kind", "none")
    try:
        if data.get("edition", "base") not in {"base", "akebono"}:
            raise SheetError("edition", "Choose the base game or Akebono.")
        if len(names) < MIN_PLAYERS:
            raise SheetError("names", "Write the names of 2 to 4 players.")
        seed = None
        setup: dict[str, Any] | None = None
        if kind == "seed":
            setup, seed = _setup_from_seed(
                str(data.get("seed", "")), len(names), akebono, bool(data.get("grand_master")) and akebono
            )
        elif kind == "pick":  # either list may be left empty: only what is ticked is known
            setup = {"buildings": data["buildings"]} if data["buildings"] else {}
            if akebono and data["personalities"]:
                setup["personalities"] = data["personalities"]
            if not setup:
                raise SheetError(
                    "setup_kind", "Tick the buildings or personalities in play, or choose Not given."
                )
        elif kind != "none":
            raise SheetError(
                "setup_kind", "Choose how to give the setup: none, a seed code, or what was in play."
            )
        sheet = start_sheet(names=names, colours=colours, akebono=akebono, setup=setup, seed=seed)
    except SheetError as exc:
        context = start_form_context(data)
        context["error"] = exc.message
        context["error_field"] = exc.field
        return render(request, "scorepad_start.html", context, status=400)
    return HttpResponseRedirect(sheet.get_absolute_url())


urlpatterns = [
    path("score/", new, name="scorepad-new"),
    path("score/<sheet:token>/", sheet_start, name="scorepad-sheet"),
    path("score/<sheet:token>/result/", result, name="scorepad-result"),
    path("score/<sheet:token>/pad.pdf", pad_pdf, name="scorepad-pdf"),
    path("score/<sheet:token>/<slug:slug>/", step_view, name="scorepad-step"),
]
