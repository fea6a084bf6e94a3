"""What a step of the walk-through shows, as plain dataclasses the templates render (``templates/scorepad_*``).

One player's entries at a time (issue 12): tabs for every player (name, colour, running total, this step's
problem count), the shown player's head (this line's points and explanation) and entries, the validator's
problems placed beside the entries they name (:class:`~companion.scorepad.entries.EntryKey`), the totals, and
the steps bar. Everything is read from the stored table by the rules core on every request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import Any, Final

from companion.models.scoresheets import ScoreSheet
from companion.scorepad.entries import NAME, NUMBER_LABELS, STACK, WILD, EntryKey
from scoring import catalogue as cat
from scoring.components import CHAR_TYPES, SEASONS, Character, CharType, Expansion, TokenKind, Wild
from scoring.reminders import line_reminders
from scoring.score import LINE_LABELS, Board, board_of, effective_type, last_group, score_player, wild_kind
from scoring.table import Table, stack_places
from scoring.validate import Problem, Report, ferry_opens_the_pool, validate


@dataclass(frozen=True, slots=True)
class Step:
    slug: str
    title: str
    line: str | None  # the score-pad line this step fills (RULINGS R3), if any
    akebono_only: bool = False
    rule: str = ""  # what the line's reminder (scoring.reminders) leaves out, with its ruling


STEPS: Final = (
    Step("track", "Score track", "score_track", rule=""),
    Step(
        "characters",
        "Characters",
        "variety",
        rule="Every character on the player board: retired cards and the ones taken back from the Nagayas.",
    ),
    Step(
        "fish",
        "Fish",
        "fish",
        rule="One fish a season, a second winter one only on New Year's Day.",
    ),
    Step("tobacco", "Pipes and tobacco", "tobacco", rule=""),
    Step("buildings", "Buildings", "buildings", rule=""),
    Step(
        "boats",
        "Boats",
        None,
        akebono_only=True,
        rule="The boats each player built (at most 2); they count "
        "for the Inn for Sailors, Kazan Watanabe and Kōkan Shiba.",
    ),
    Step(
        "personalities",
        "Personalities and trade",
        "personalities",
        akebono_only=True,
        rule="The trade track runs 0-10.",
    ),
    Step("resources", "Resources", "resources", rule="Rice and sandals count for some buildings."),
    Step(
        "firefighting",
        "Firefighting",
        None,
        rule="The firefighting track breaks ties: the higher marker "
        "wins, then the marker higher in the stack on a shared space.",
    ),
)
STEP_BY_SLUG: Final = {s.slug: s for s in STEPS}

#: Which step shows each player field (problems on it link there).
FIELD_STEP: Final = {
    NAME: "track",
    "score_track": "track",
    "characters": "characters",
    WILD: "characters",
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
    STACK: "firefighting",
}
SETUP_STEP: Final = {"buildings": "buildings", "personalities": "personalities", "boat_sides": "boats"}
#: The number fields each step shows, and the printed top of a track (RULINGS R11).
STEP_NUMBERS: Final[Mapping[str, tuple[str, ...]]] = {
    "track": ("score_track",),
    "personalities": ("trade",),
    "resources": ("mon", "koban", "wood", "rice", "sandals"),
    "firefighting": ("firefighting",),
}
NUMBER_TOP: Final = {"trade": 10, "firefighting": 10}
#: The lists each step shows as entries; their problems without a single entry (``players[0].fish``) show in
#: the player's head.
STEP_LISTS: Final[Mapping[str, tuple[str, ...]]] = {
    "characters": ("characters", "retirement_tokens"),
    "fish": ("fish",),
    "tobacco": ("pipes", "tobacco"),
    "buildings": ("buildings",),
    "boats": ("boats",),
    "personalities": ("personalities",),
}
ORDER_ANCHOR: Final = "firefighting-order"


@cache
def steps_for(akebono: bool) -> tuple[Step, ...]:
    return tuple(s for s in STEPS if akebono or not s.akebono_only)


def intro(step: Step, akebono: bool) -> str:
    """The step's line reminder, the same words as the PDF pad and the pads page (scoring.reminders)."""
    reminder = line_reminders(akebono).get(step.line or "", "")
    return " ".join(part for part in (reminder, step.rule) if part)


def read_sheet(sheet: ScoreSheet) -> Table:
    """The stored table with the stack places entered on the firefighting step, which decide ties space by
    space (RULINGS R12); the full order the sheet derives from them says nothing more."""
    table = sheet.read()
    return replace(table, firefighting_order=None, stacks=stack_places(table.players, sheet.stack))


# --- problems, placed --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """A problem with where it is shown: its step, and the entry (html id) or the part of the page."""

    problem: Problem
    step: str
    anchor: str
    player: int | None
    error: bool

    @property
    def message(self) -> str:
        return self.problem.message


def place(problem: Problem, players: Sequence[Mapping[str, Any]]) -> tuple[str, str, int | None]:
    """(step slug, anchor, player index) of a problem's ``field``."""
    key = EntryKey.of_problem(problem.field, players)
    if key is not None:
        if key.field in STEP_LISTS.get(FIELD_STEP.get(key.field, ""), ()) and not key.item:
            return FIELD_STEP[key.field], f"p{key.player}-{key.field}", key.player
        return FIELD_STEP.get(key.field, "track"), key.html_id, key.player
    if problem.field.startswith(("firefighting_order", "stacks")):
        return "firefighting", ORDER_ANCHOR, None
    if problem.field.startswith("setup."):
        part = problem.field.split(".")[1].split("[")[0]
        return SETUP_STEP.get(part, "track"), "setup", None
    return "track", "step-top", None


class Problems:
    """The validator's problems with where each is shown, by anchor."""

    def __init__(self, report: Report, players: Sequence[Mapping[str, Any]], slugs: Iterable[str]) -> None:
        known = set(slugs)
        self.all: list[Shown] = []
        for problem, error in [*((p, True) for p in report.errors), *((p, False) for p in report.warnings)]:
            step, anchor, player = place(problem, players)
            self.all.append(Shown(problem, step if step in known else "track", anchor, player, error))
        self.by_anchor: dict[str, list[Shown]] = {}
        for shown in self.all:
            self.by_anchor.setdefault(shown.anchor, []).append(shown)
        self.errors_by_step = Counter(s.step for s in self.all if s.error)

    def at(self, anchor: str) -> list[Shown]:
        return self.by_anchor.get(anchor, [])


# --- what the catalogue offers -----------------------------------------------------------------------------------

CardGroup = tuple[str, str, CharType | None, tuple[Character, ...]]


@cache
def card_groups(expansions: frozenset[Expansion]) -> tuple[CardGroup, ...]:
    """The player board's columns with the catalogue's cards of each printed type (RULINGS R2), then the cards
    whose type their owner always chooses (RULINGS R5)."""
    groups: list[CardGroup] = [
        (t.value, t.plural, t, tuple(c for c in cat.CHARACTERS if c.type is t and c.expansion in expansions))
        for t in CHAR_TYPES
    ]
    wild_cards = tuple(c for c in cat.CHARACTERS if c.type is None and c.expansion in expansions)
    if wild_cards:
        groups.append(("wild", "Cards whose type you choose", None, wild_cards))
    return tuple(groups)


@cache
def token_groups(
    kind: TokenKind, expansions: frozenset[Expansion]
) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The tokens of one kind by season (then the special ones), as the step lists them."""
    out = []
    for season in (*SEASONS, None):
        tokens = cat.tokens_of(kind, season, expansions)
        if tokens:
            out.append((season.label if season else "Special tokens", tokens))
    return tuple(out)


def _card_label(c: Character) -> str:
    if c.starting:
        return "Starting"
    if c.month is not None:
        return f"Month {c.month} (New Characters)"
    assert c.season is not None
    return c.season.label


CARD_LABEL: Final = {c.id: _card_label(c) for c in cat.CHARACTERS}
TYPE_CHOICES: Final = tuple((t.value, t.label) for t in CHAR_TYPES)
UNNAMED_NOTE: Final = "One more of this type, without naming the card."


def group_of(key: EntryKey) -> str | None:
    """The html id of the folding group an entry sits in, if any."""
    if key.field == "characters":
        any_type = cat.any_type(key.item)
        card = cat.CHARACTER_BY_ID.get(key.item)
        column = any_type.value if any_type else (card.type.value if card and card.type else "wild")
        return f"p{key.player}-group-{column}"
    if key.field == "retirement_tokens":
        return f"p{key.player}-group-tokens"
    if key.field == "pipes":
        return f"p{key.player}-group-pipes"
    return None


# --- what the templates render ------------------------------------------------------------------------------------


@dataclass
class Entry:
    """One entry: a toggle (``chip``), a -/+ counter of a repeatable component (``counter``), a number
    (``number``) or a "counts as" choice (``wild``)."""

    key: EntryKey
    kind: str
    name: str
    who: str
    note: str = ""
    pressed: bool = False
    count: int = 0
    top: int | None = None
    value: str = ""
    held_by: str = ""
    problems: list[Shown] = field(default_factory=list)

    @property
    def html_id(self) -> str:
        return self.key.html_id

    @property
    def op(self) -> str:
        return f"{'remove' if self.pressed else 'add'}|{self.key.player}|{self.key.field}|{self.key.item}"

    @property
    def add_op(self) -> str:
        return f"add|{self.key.player}|{self.key.field}|{self.key.item}"

    @property
    def remove_op(self) -> str:
        return f"remove|{self.key.player}|{self.key.field}|{self.key.item}"

    @property
    def bump(self) -> str:
        return f"bump|{self.key.player}|{self.key.field}|"


@dataclass
class Block:
    """Entries under an optional heading: toggles in a grid, counters and numbers one a row."""

    heading: str
    entries: list[Entry]
    chips: bool = True


@dataclass
class Group:
    """A folding group (``<details>``): a type column of the player board, the retirement tokens, the pipes."""

    html_id: str
    label: str
    count: int
    held: str
    open: bool
    blocks: list[Block]


@dataclass
class Tab:
    index: int
    name: str
    colour: str
    total: int
    problems: int
    current: bool


@dataclass
class StackChoice:
    key: EntryKey
    name: str
    value: int | str
    places: range
    problems: list[Shown]


@dataclass
class Space:
    """A firefighting space shared by several markers: who is on top (RULINGS R12)."""

    space: int
    problems: list[Shown]
    choices: list[StackChoice]


class StepView:
    """One step of a stored sheet for one player, as the rules core sees it."""

    def __init__(
        self, sheet: ScoreSheet, step: Step, player: int = 0, opened: Iterable[str] = (), bad: str = ""
    ) -> None:
        self.sheet, self.step, self.bad = sheet, step, bad
        self.players: list[dict[str, Any]] = sheet.table["players"]
        self.player = player if 0 <= player < len(self.players) else 0
        self.opened = frozenset(opened)
        self.table = read_sheet(sheet)
        self.expansions = self.table.expansions
        self.setup = self.table.setup
        self.steps = steps_for(self.table.akebono)
        self.report = validate(self.table)
        self.problems = Problems(self.report, self.players, (s.slug for s in self.steps))
        last = last_group(self.table)
        self.lines = [score_player(p, self.table.akebono, last) for p in self.table.players]

    # --- around the entries ---

    @cached_property
    def intro(self) -> str:
        return intro(self.step, self.table.akebono)

    @property
    def name(self) -> str:
        return str(self.players[self.player]["name"])

    @property
    def colour(self) -> str:
        return self.sheet.colour(self.player)

    @cached_property
    def totals(self) -> list[Tab]:
        """Every player's tab: name, colour, running total, and the problems of this step in their entries."""
        mine = Counter(
            s.player for s in self.problems.all if s.step == self.step.slug and s.player is not None
        )
        return [
            Tab(
                i,
                p["name"],
                self.sheet.colour(i),
                sum(x.points for x in self.lines[i].values()),
                mine[i],
                i == self.player,
            )
            for i, p in enumerate(self.players)
        ]

    @property
    def errors(self) -> int:
        return len(self.report.errors)

    def nav(self) -> list[tuple[int, Step, int]]:
        """(number, step, errors) of every step."""
        by_step = self.problems.errors_by_step
        return [(n, s, by_step.get(s.slug, 0)) for n, s in enumerate(self.steps, 1)]

    @property
    def position(self) -> int:
        return self.steps.index(self.step) + 1

    def elsewhere(self) -> list[tuple[Step, int]]:
        by_step = self.problems.errors_by_step
        return [(s, by_step[s.slug]) for s in self.steps if by_step.get(s.slug) and s is not self.step]

    def top_problems(self) -> list[Shown]:
        """This step's problems no entry of the shown player, no player's tab and no stack shows: above the
        entries."""
        return [
            s
            for s in self.problems.all
            if s.step == self.step.slug
            and s.player is None
            and not (s.anchor == ORDER_ANCHOR and self.step.slug == "firefighting")
        ]

    def head(self) -> dict[str, Any]:
        """The shown player's points on this line, its explanation, and the problems of the whole column."""
        line = self.lines[self.player].get(self.step.line) if self.step.line else None
        i = self.player
        at = self.problems.at
        problems = at(f"p{i}-{NAME}") + [
            s for key in STEP_LISTS.get(self.step.slug, ()) for s in at(f"p{i}-{key}")
        ]
        return {
            "line": line,
            "label": LINE_LABELS.get(self.step.line or "", ""),
            "problems": problems,
        }

    def marked(self) -> set[EntryKey]:
        """The shown player's entries on this step that show messages."""
        return {
            key for a, shown in self.problems.by_anchor.items() if (key := self._shows(a, shown)) is not None
        }

    def _shows(self, anchor: str, shown: list[Shown]) -> EntryKey | None:
        key = EntryKey.parse(anchor)
        if key is None or key.player != self.player or shown[0].step != self.step.slug:
            return None
        return (
            key
            if key.item or key.field in STEP_NUMBERS.get(self.step.slug, ()) or key.field == STACK
            else None
        )

    # --- entries ---

    def _holders(self, list_name: str, item: str) -> str:
        me = self.players[self.player]
        return ", ".join(p["name"] for p in self.players if p is not me and item in p.get(list_name, ()))

    def chip(self, list_name: str, item: str, name: str, note: str) -> Entry:
        key = EntryKey(self.player, list_name, item)
        return Entry(
            key,
            "chip",
            name,
            self.name,
            note=note,
            pressed=item in self.players[self.player].get(list_name, ()),
            held_by=self._holders(list_name, item),
            problems=self.problems.at(key.html_id),
        )

    def counter(self, list_name: str, item: str, name: str, note: str) -> Entry:
        key = EntryKey(self.player, list_name, item)
        count = self.players[self.player].get(list_name, []).count(item)
        return Entry(
            key, "counter", name, self.name, note=note, count=count, problems=self.problems.at(key.html_id)
        )

    def number(self, fld: str) -> Entry:
        key = EntryKey(self.player, fld)
        value = str(int(self.players[self.player].get(fld, 0)))
        return Entry(
            key,
            "number",
            NUMBER_LABELS[fld],
            self.name,
            value=value,
            top=NUMBER_TOP.get(fld),
            problems=self.problems.at(key.html_id),
        )

    def item_text(self, list_name: str, item: str) -> tuple[str, str]:
        """A toggle's name and printed note."""
        if list_name == "characters":
            return cat.CHARACTER_BY_ID[item].name, CARD_LABEL[item]
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

    def entry(self, key: EntryKey) -> Entry | None:
        """The entry ``key`` names, as the shown step offers it; None when the step does not show it."""
        if key.player != self.player:
            return None
        if not key.item:
            return self.number(key.field) if key.field in STEP_NUMBERS.get(self.step.slug, ()) else None
        if key.field not in STEP_LISTS.get(self.step.slug, ()) or key.item not in self._offered(key.field):
            return None
        if key.field == "retirement_tokens":
            t = cat.RETIREMENT_TOKEN_BY_ID[key.item]
            return self.counter(key.field, key.item, t.name, t.effect)
        if (ctype := cat.any_type(key.item)) is not None:
            return self.counter(key.field, key.item, f"Unnamed {ctype.label}", UNNAMED_NOTE)
        return self.chip(key.field, key.item, *self.item_text(key.field, key.item))

    def _offered(self, list_name: str) -> set[str]:
        held = self.players[self.player].get(list_name, [])
        if list_name == "characters":
            return {c.id for *_, cards in card_groups(self.expansions) for c in cards} | {
                cat.ANY_PREFIX + t.value for t in CHAR_TYPES
            }
        if list_name == "retirement_tokens":
            return set(self._retirement_shown())
        if list_name in ("fish", "pipes", "tobacco"):
            kind = {"fish": TokenKind.FISH, "pipes": TokenKind.PIPE, "tobacco": TokenKind.TOBACCO}[list_name]
            return {t.id for _label, ts in token_groups(kind, self.expansions) for t in ts}
        if list_name == "buildings":
            return {b.id for b in self.buildings()}
        if list_name == "boats":
            return {b.id for b in cat.BUILDABLE_BOATS}
        return {x.id for _label, ps in self.personalities() for x in ps} | set(held)

    def _retirement_shown(self) -> list[str]:
        held = self.players[self.player].get("retirement_tokens", [])
        return [t.id for t in cat.RETIREMENT_TOKENS if t.expansion in self.expansions or t.id in held]

    def buildings(self) -> list[Any]:
        """The buildings in play (all of the edition when the setup is not known), then any others held."""
        known = self.setup.buildings if self.setup else None
        shown = [
            b for b in cat.BUILDINGS if b.expansion in self.expansions and (known is None or b.id in known)
        ]
        ids = {b.id for b in shown}
        held = self.players[self.player].get("buildings", [])
        return [*shown, *(cat.BUILDING_BY_ID[b] for b in held if b not in ids)]

    def personalities(self) -> list[tuple[str, tuple[Any, ...]]]:
        """The personalities by season: those on the bridge this game when known (all of them once someone built
        the Ferry boat and its side is B or not known, RULINGS R13), and any others held."""
        held = self.players[self.player].get("personalities", [])
        setup = self.setup
        pool = setup.personalities if setup is not None and not ferry_opens_the_pool(self.table) else None
        out = []
        for season in SEASONS:
            ps = cat.personalities_of_season(season)
            if pool is not None:
                ps = tuple(x for x in ps if x.id in pool or x.id in held)
            out.append((season.label, ps))
        return out

    def wilds(self) -> list[Entry]:
        """The shown player's "counts as" choices, one per card whose type is chosen (RULINGS R5), and chosen types
        the rules refuse (shown so they can be cleared)."""
        player, state = self.players[self.player], self.table.players[self.player]
        cards = [
            c
            for c in dict.fromkeys(player.get("characters", []))
            if c in cat.CHARACTER_BY_ID and wild_kind(c, state) is not Wild.NO
        ]
        cards += [c for c in player.get(WILD, {}) if c not in cards and c in cat.CHARACTER_BY_ID]
        chosen = player.get(WILD, {})
        return [
            Entry(
                key,
                "wild",
                cat.CHARACTER_BY_ID[card].name,
                self.name,
                value=str(chosen.get(card, "")),
                problems=self.problems.at(key.html_id),
            )
            for card in cards
            for key in [EntryKey(self.player, WILD, card)]
        ]

    # --- the shown player's entries ---

    def body(self) -> list[Group | Block]:
        slug = self.step.slug
        if slug == "characters":
            return [*(self.card_group(key) for key, *_ in card_groups(self.expansions)), self.tokens_group()]
        if slug in ("fish", "tobacco"):
            kind = TokenKind.FISH if slug == "fish" else TokenKind.TOBACCO
            out: list[Group | Block] = [self.pipes_group()] if slug == "tobacco" else []
            return out + self._token_blocks(kind)
        if slug == "buildings":
            return [
                Block(
                    "",
                    [
                        self.chip("buildings", b.id, *self.item_text("buildings", b.id))
                        for b in self.buildings()
                    ],
                )
            ]
        if slug == "boats":
            return [
                Block(
                    "",
                    [self.chip("boats", b.id, *self.item_text("boats", b.id)) for b in cat.BUILDABLE_BOATS],
                )
            ]
        out = []
        if slug == "personalities":
            out = [
                Block(
                    label,
                    [self.chip("personalities", x.id, *self.item_text("personalities", x.id)) for x in ps],
                )
                for label, ps in self.personalities()
            ]
        numbers = [self.number(fld) for fld in STEP_NUMBERS.get(slug, ())]
        return [*out, Block("", numbers, chips=False)] if numbers else out

    def _token_blocks(self, kind: TokenKind) -> list[Group | Block]:
        name = {TokenKind.FISH: "fish", TokenKind.PIPE: "pipes", TokenKind.TOBACCO: "tobacco"}[kind]
        return [
            Block(label, [self.chip(name, t.id, *self.item_text(name, t.id)) for t in tokens])
            for label, tokens in token_groups(kind, self.expansions)
        ]

    def _opened(self, html_id: str, entries: Iterable[Entry]) -> bool:
        return html_id in self.opened or any(e.problems for e in entries)

    def card_group(self, key: str, *, entries: bool = True) -> Group:
        """A type column of the player board (RULINGS R4, R5); without ``entries``, only its summary."""
        _key, label, ctype, cards = next(g for g in card_groups(self.expansions) if g[0] == key)
        html_id = f"p{self.player}-group-{key}"
        blocks = []
        if entries:
            blocks = [Block("", [self.chip("characters", c.id, c.name, CARD_LABEL[c.id]) for c in cards])]
            if ctype is not None:
                unnamed = self.entry(EntryKey(self.player, "characters", cat.ANY_PREFIX + ctype.value))
                assert unnamed is not None
                blocks.insert(0, Block("", [unnamed], chips=False))
        held = self._held_by_type.get(ctype, [])
        count = self._board.counts[ctype] if ctype else len(held)
        every = [e for b in blocks for e in b.entries]
        return Group(html_id, label, count, ", ".join(held), self._opened(html_id, every), blocks)

    def summaries(self) -> list[Group]:
        """The characters step's folding groups, their summaries only (what a board change alters)."""
        groups = [self.card_group(key, entries=False) for key, *_ in card_groups(self.expansions)]
        return [*groups, self.tokens_group(entries=False)]

    def tokens_group(self, *, entries: bool = True) -> Group:
        """The retirement tokens the player may hold (RULINGS R5); without ``entries``, only its summary."""
        shown = self._retirement_shown()
        held = Counter(self.players[self.player].get("retirement_tokens", []))
        names = [
            f"{t.name} ×{held[t.id]}" if held[t.id] > 1 else t.name
            for t in cat.RETIREMENT_TOKENS
            if held[t.id] and t.id in shown
        ]
        every = [
            e
            for t in (shown if entries else ())
            if (e := self.entry(EntryKey(self.player, "retirement_tokens", t)))
        ]
        html_id = f"p{self.player}-group-tokens"
        blocks = [Block("", every, chips=False)] if entries else []
        return Group(
            html_id, "Retirement tokens", len(names), ", ".join(names), self._opened(html_id, every), blocks
        )

    def pipes_group(self, *, entries: bool = True) -> Group:
        held = [cat.TOKEN_BY_ID[t].name for t in self.players[self.player].get("pipes", [])]
        blocks = [b for b in self._token_blocks(TokenKind.PIPE) if isinstance(b, Block)] if entries else []
        html_id = f"p{self.player}-group-pipes"
        every = [e for b in blocks for e in b.entries]
        return Group(html_id, "Pipes", len(held), ", ".join(held), self._opened(html_id, every), blocks)

    def group(self, html_id: str) -> Group | None:
        """The folding group ``html_id`` of the shown player, if this step shows it."""
        prefix = f"p{self.player}-group-"
        if not html_id.startswith(prefix):
            return None
        key = html_id.removeprefix(prefix)
        if self.step.slug == "tobacco" and key == "pipes":
            return self.pipes_group()
        if self.step.slug != "characters":
            return None
        if key == "tokens":
            return self.tokens_group()
        return self.card_group(key) if any(g[0] == key for g in card_groups(self.expansions)) else None

    @cached_property
    def _board(self) -> Board:
        return board_of(self.table.players[self.player])

    @cached_property
    def _held_by_type(self) -> dict[CharType | None, list[str]]:
        """The cards the player's board shows in each type column (RULINGS R4/R5: wild cards in their chosen
        column); None lists the wild cards still waiting for a type."""
        state = self.table.players[self.player]
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

    # --- the firefighting stack (every player: a stack spans players) ---

    def order(self) -> tuple[list[Shown], list[Space]]:
        """Problems of the stack order no space shows, and each shared space's question (RULINGS R12/R13)."""
        by_space: dict[int, list[int]] = {}
        for i, player in enumerate(self.players):
            by_space.setdefault(int(player.get("firefighting", 0)), []).append(i)
        shown = self.problems.at(ORDER_ANCHOR) + [
            s for i in range(len(self.players)) for s in self.problems.at(f"stack-p{i}")
        ]
        spaces, placed = [], set[int]()
        for space in sorted(by_space, reverse=True):
            members = by_space[space]
            if len(members) < 2:
                continue
            here = [s for s in shown if s.problem.field.split("[")[0] == f"stacks.{space}"]
            names = {self.players[i]["name"] for i in members}
            choices = []
            for i in members:
                name = self.players[i]["name"]
                mine = [s for s in here if s.problem.player == name]
                rank = self.sheet.stack.get(name)
                value: int | str = rank + 1 if rank is not None and 0 <= rank < len(members) else ""
                choices.append(StackChoice(EntryKey(i, STACK), name, value, range(1, len(members) + 1), mine))
            placed.update(id(s) for s in here)
            spaces.append(Space(space, [s for s in here if s.problem.player not in names], choices))
        return [s for s in shown if id(s) not in placed], spaces

    # --- where Next and Back go: player by player, then step by step ---

    def neighbour(self, go: str) -> tuple[Step, int] | None:
        """The (step, player) Next or Back shows; None past the last step (the result) or before the first."""
        count, where = len(self.players), self.steps.index(self.step)
        if go == "next":
            if self.player + 1 < count:
                return self.step, self.player + 1
            return (self.steps[where + 1], 0) if where + 1 < len(self.steps) else None
        if self.player > 0:
            return self.step, self.player - 1
        return (self.steps[where - 1], count - 1) if where else None

    def setup_note(self) -> list[str]:
        setup = self.setup
        if self.step.slug == "buildings" and setup and setup.buildings:
            return [cat.BUILDING_BY_ID[b].name for b in setup.buildings]
        if self.step.slug == "personalities" and setup and setup.personalities:
            return [cat.PERSONALITY_BY_ID[p].name for p in setup.personalities]
        return []
