"""Checking a paper score pad: the values each pad line can take under the rules, and a checker of a typed pad.

The table types the numbers it wrote (RULINGS R3: score track, variety, fish, tobacco, buildings, resources, with
Akebono personalities; then the total) and the few facts the pad does not show: whether the player held a pipe,
the firefighting position and, when a tie needs it, the place in the stack (RULINGS R12). From the catalogue alone
:func:`possible_lines` knows each line's set of values (variety only 0/1/4/9/16/25, fish only the sums the fish
tokens can make, tobacco even whenever a pipe was held...), narrowed by the facts and by the game's setup when it
is given; :func:`check_pad` reports every number that cannot be right and why, a total that is not the sum of
its lines, and a typed rank the tie-break contradicts, all at once (as :func:`scoring.validate.validate` does).

"Possible" means the rules can produce it for some table: a number the check lets pass may still be wrong for
this table; the walk-through then scores it from the components.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from scoring import catalogue as cat
from scoring.components import (
    SEASONS,
    Building,
    BuildingRule,
    CharType,
    Expansion,
    Personality,
    PersonalityRule,
    Season,
    TobaccoRule,
    Token,
    TokenKind,
)
from scoring.problems import join
from scoring.rules import BUILDINGS_IN_PLAY, MAX_ONGOING_BUILDINGS, TRACK_MAX
from scoring.score import AKEBONO_LINES, BASE_LINES, FISH_POINTS, MAX_FISH, VARIETY_POINTS, rank_totals
from scoring.table import PlayerState, Setup, StackPlace, Table

#: The words a message uses for each pad line (RULINGS R3 order).
LINE_WORDS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "score_track": "score track",
        "variety": "variety",
        "fish": "fish",
        "tobacco": "tobacco",
        "buildings": "buildings",
        "resources": "resources",
        "personalities": "personalities",
    }
)
#: RULINGS R13: a player's buildings each hold a Kobun for good; at most 4. R8: boats at most 2.
MAX_BUILDINGS: Final = 4
MAX_BOATS: Final = 2
#: RULINGS R14: a score track over this is legal but worth a second look.
HIGH_SCORE_TRACK: Final = 150
#: RULINGS R18: the Ferry boat (boat 5) on side B lets a player meet personalities off the bridge.
FERRY: Final = "ferry-boat"


class PadCode(StrEnum):
    """What a check of a typed pad can say (stable codes, as :class:`scoring.validate.Code`)."""

    IMPOSSIBLE = "line-impossible"
    NEGATIVE = "negative-number"
    TOTAL = "total-not-sum"
    RANK = "rank-wrong"
    STACK_TWICE = "stack-place-twice"
    STACK_TOO_LOW = "stack-place-too-low"
    TIE_NEEDS_FIREFIGHTING = "tie-needs-firefighting"
    TIE_NEEDS_STACK = "tie-needs-stack-order"
    HIGH_SCORE_TRACK = "score-track-high"
    TABLE = "table-conflict"
    MANY_CONSTRUCTIONS = "many-construction-cards"
    TOTAL_WITH_BLANKS = "total-unlikely-with-blank-lines"


#: Codes that are warnings (legal, or a fact missing), not errors.
WARNING_CODES: Final = frozenset(
    {
        PadCode.TIE_NEEDS_FIREFIGHTING,
        PadCode.TIE_NEEDS_STACK,
        PadCode.HIGH_SCORE_TRACK,
        PadCode.MANY_CONSTRUCTIONS,
        PadCode.TOTAL_WITH_BLANKS,
    }
)


@dataclass(frozen=True, slots=True)
class Possible:
    """The values one pad line can take. ``values`` lists them when they are few; None means every whole number
    from 0 up (every even one when ``even``). ``rule`` says why, in the words of the rules."""

    line: str
    values: frozenset[int] | None
    rule: str
    even: bool = False

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int) or value < 0:
            return False
        if self.values is not None:
            return value in self.values
        return not (self.even and value % 2)

    def nearest(self, value: int) -> tuple[int, ...]:
        """The possible values closest to ``value`` below and above it (one or two)."""
        if self.values is None:
            below, above = (value - 1, value + 1) if self.even else (value, value)
            return tuple(v for v in dict.fromkeys((max(below, 0), above)) if v in self)
        lower = [v for v in self.values if v < value]
        higher = [v for v in self.values if v > value]
        return (*([max(lower)] if lower else []), *([min(higher)] if higher else []))


@dataclass(frozen=True, slots=True)
class PadFacts:
    """What narrows a player's lines beyond the catalogue: the edition, the setup when given, whether the player
    held a pipe, the firefighting position, and whether they were last in firefighting order (Ryōkan, R10)."""

    akebono: bool = False
    setup: Setup | None = None
    pipe: bool | None = None
    firefighting: int | None = None
    last_in_firefighting: bool | None = None
    #: The player's typed fish line: what their Restaurant scores (RULINGS R22), when it is a possible one.
    fish: int | None = None

    @property
    def expansions(self) -> frozenset[Expansion]:
        return cat.expansions_of(["akebono"] if self.akebono else [])


def or_list(values: Iterable[int]) -> str:
    """``1, 4, 9 or 16``."""
    shown = [str(v) for v in sorted(values)]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _sums(options: Sequence[frozenset[int]], at_most: int) -> frozenset[int]:
    """Every total of picking at most ``at_most`` of the ``options`` (each at most once), one value from each."""
    by_count: list[set[int]] = [{0}] + [set() for _ in range(at_most)]
    for values in options:
        for n in range(at_most, 0, -1):
            by_count[n] |= {s + v for s in by_count[n - 1] for v in values}
    return frozenset().union(*by_count)


# --- each line's values ----------------------------------------------------------------------------------------


def score_track_values() -> Possible:
    """RULINGS R3: the IKI scored during the game, never negative."""
    return Possible("score_track", None, "the IKI scored during the game: any whole number from 0")


def variety_values() -> Possible:
    """RULINGS R4: 1/4/9/16/25 for 1-5 types; 0 only without a counted character."""
    return Possible(
        "variety",
        frozenset(VARIETY_POINTS),
        f"{or_list(VARIETY_POINTS[1:])} for 1-5 types, 0 with no character",
    )


def _fish_holdings(akebono: bool) -> Mapping[int, tuple[frozenset[str], ...]]:
    """Every fish line value with each set of fish tokens (ids) that makes it (RULINGS R6, R14): each season gives
    at most one fish (winter two, the second on New Year's Day), at most 4 fish, the Fisherman token counting as
    one; 3/6/10/15 for 1-4 seasons plus every token's own bonus. Each token exists once (RULINGS R22)."""
    expansions = cat.expansions_of(["akebono"] if akebono else [])
    seasonal = {s: cat.tokens_of(TokenKind.FISH, s, expansions) for s in SEASONS}
    fisherman = list(cat.tokens_of(TokenKind.FISH, None, expansions))
    out: dict[int, list[frozenset[str]]] = {}
    choices = [
        [(), *([(t,) for t in tokens]), *(itertools.combinations(tokens, 2) if s is Season.WINTER else [])]
        for s, tokens in seasonal.items()
    ]
    for picked in itertools.product(*choices, [(), *[(t,) for t in fisherman]]):
        held = [t for group in picked for t in group]
        if len(held) > MAX_FISH:
            continue
        count = sum(1 for group in picked if group)  # a season (or the Fisherman token) counts once
        value = FISH_POINTS[count] + sum(t.points for t in held)
        out.setdefault(value, []).append(frozenset(t.id for t in held))
    return MappingProxyType({v: tuple(sets) for v, sets in out.items()})


#: :func:`_fish_holdings` of each edition, worked out once (the code alone decides them).
_FISH_HOLDINGS: Final = {akebono: _fish_holdings(akebono) for akebono in (False, True)}


def fish_holdings(akebono: bool) -> Mapping[int, tuple[frozenset[str], ...]]:
    """Every fish line value with each set of fish tokens that makes it (see :func:`_fish_holdings`)."""
    return _FISH_HOLDINGS[akebono]


def fish_values(facts: PadFacts) -> Possible:
    """RULINGS R6 and R14: the values :func:`fish_holdings` can make."""
    expansions = facts.expansions
    bonuses = ", ".join(
        f"{t.points:+d} {t.season.value if t.season else 'Fisherman'}" for t in cat.TOKENS
        if t.kind is TokenKind.FISH and t.points and t.expansion in expansions
    )  # fmt: skip
    return Possible(
        "fish",
        frozenset(fish_holdings(facts.akebono)),
        f"3/6/10/15 for fish of 1-4 seasons, plus each bonus fish ({bonuses})",
    )


def tobacco_values(facts: PadFacts) -> Possible:
    """RULINGS R7: the pouches' values, doubled when the player holds a pipe: then the line is even."""
    if facts.pipe:
        return Possible("tobacco", None, "with a pipe the pouches' sum is doubled: an even number", even=True)
    return Possible("tobacco", None, "the pouches' values: any whole number from 0")


#: RULINGS R7: the pouches whose value has no bound (every 4 mon, every koban held): one of them alone makes any
#: tobacco line.
UNBOUNDED_POUCHES: Final = frozenset({TobaccoRule.QUARTER_MON, TobaccoRule.KOBANS})
#: The most sets of the other pouches weighed for one player's tobacco line: a line more sets can make takes no part
#: in the table's check (small lines; those that collide need a pouch with no bound, which a few sets make).
TOBACCO_SETS_MOST: Final = 40


def pouch_options(token: Token, facts: PadFacts) -> frozenset[int]:
    """The values one pouch with a bound can score before the pipe doubles it (RULINGS R7), narrowed by the
    typed firefighting position."""
    rule = token.tobacco_rule
    if rule is TobaccoRule.FIXED:
        return frozenset({token.points})
    if rule is TobaccoRule.HALF_FIREFIGHTING:
        spaces = [facts.firefighting] if facts.firefighting is not None else range(TRACK_MAX + 1)
        return frozenset(n // 2 for n in spaces)
    if rule is TobaccoRule.HALF_TRADE:
        return frozenset(n // 2 for n in range(TRACK_MAX + 1))
    if rule is TobaccoRule.DISTINCT_TYPES:
        return frozenset(range(len(VARIETY_POINTS)))
    if rule is TobaccoRule.LARGEST_COLUMN:
        return frozenset(range(_column_most(facts.expansions) + 1))
    if rule is TobaccoRule.PERSONALITIES:
        return frozenset(range(len(cat.PERSONALITIES) + 1))
    supply = cat.type_supply(facts.expansions)[CharType.SPECIAL]
    return frozenset(range(supply + _wild_cards(facts.expansions) + 1))  # SPECIAL_CHARACTERS


def tobacco_holdings(facts: PadFacts, value: int) -> tuple[frozenset[str], ...] | None:
    """The sets of pouches that can make a tobacco line of ``value`` (RULINGS R7, R22): a pouch with no bound
    alone, or pouches with a bound adding up to it (halved when a pipe was or may have been held); None when the
    latter are more than :data:`TOBACCO_SETS_MOST`."""
    pouches = [t for t in cat.TOKENS if t.kind is TokenKind.TOBACCO and t.expansion in facts.expansions]
    bounded = [(t.id, pouch_options(t, facts)) for t in pouches if t.tobacco_rule not in UNBOUNDED_POUCHES]
    sums = [value] if facts.pipe is False else [value // 2] if facts.pipe else [value, value // 2]
    found: list[frozenset[str]] = []
    for target in dict.fromkeys(sums):
        if target * 2 != value and target != value:
            continue  # an odd line is not doubled
        if target > 0:
            found += [frozenset({t.id}) for t in pouches if t.tobacco_rule in UNBOUNDED_POUCHES]
        made = _holdings(bounded, target, len(bounded), TOBACCO_SETS_MOST)
        if made is None:
            return None
        found += made
    return minimal_sets(found)


def _wild_cards(expansions: frozenset[Expansion]) -> int:
    """The wild cards of the game, each of the type its holder chooses (RULINGS R2, R5)."""
    return sum(1 for c in cat.CHARACTERS if c.id in cat.WILD_IDS and c.expansion in expansions)


def _column_most(expansions: frozenset[Expansion]) -> int:
    """The most cards one type column can hold: the largest supply, plus every wild card (RULINGS R2, R5)."""
    return max(cat.type_supply(expansions).values()) + _wild_cards(expansions)


def _tokens_most(facts: PadFacts) -> int:
    """The most fish, pipe and tobacco tokens one player can hold (RULINGS R6, R13 supply)."""
    pipes = 0 if facts.pipe is False else len([t for t in cat.TOKENS if t.kind is TokenKind.PIPE
                                                and t.expansion in facts.expansions])  # fmt: skip
    tobacco = len([t for t in cat.TOKENS if t.kind is TokenKind.TOBACCO and t.expansion in facts.expansions])
    return MAX_FISH + pipes + tobacco


def building_options(building: Building, facts: PadFacts) -> frozenset[int]:
    """The values one building can score for a player (RULINGS R8), narrowed by the facts."""
    rule, unit, cap = building.rule, building.points, building.cap

    def times(counts: Iterable[int]) -> frozenset[int]:
        return frozenset(min(unit * n, cap) if cap is not None else unit * n for n in counts)

    if rule is BuildingRule.FIXED:
        return frozenset({unit})
    if rule is BuildingRule.FISH_LINE:  # RULINGS R22: exactly the player's fish line
        fish = fish_values(facts).values or frozenset()
        return frozenset({facts.fish}) if facts.fish in fish else fish
    if rule in (BuildingRule.PER_SANDAL, BuildingRule.PER_RICE, BuildingRule.PER_PERSONALITY):
        assert cap is not None
        return times(range(cap // unit + 1))
    if rule is BuildingRule.PER_FIREFIGHTING:
        return times([facts.firefighting] if facts.firefighting is not None else range(TRACK_MAX + 1))
    if rule is BuildingRule.PER_TRADE:
        return times(range(TRACK_MAX + 1))
    if rule is BuildingRule.PER_BOAT:
        return times(range(MAX_BOATS + 1))
    if rule is BuildingRule.PER_TYPE:
        return times(range(len(VARIETY_POINTS)))
    if rule is BuildingRule.PER_LARGEST_COLUMN:
        return times(range(_column_most(facts.expansions) + 1))
    return times(range(_tokens_most(facts) + 1))  # PER_TOKEN


def buildings_values(facts: PadFacts) -> Possible:
    """RULINGS R8/R13: at most 4 buildings, from the setup's 6 when it is given, with Akebono at most 2 with an
    ongoing ability; each scoring one of its values."""
    known = facts.setup.buildings if facts.setup is not None else None
    pool = building_pool(facts)
    plain = [building_options(b, facts) for b in pool if not (facts.akebono and b.ongoing)]
    ongoing = [building_options(b, facts) for b in pool if facts.akebono and b.ongoing]
    values: set[int] = set()
    for n in range(min(MAX_ONGOING_BUILDINGS, len(ongoing)) + 1):
        for with_ongoing in _sums_exactly(ongoing, n):
            values |= {with_ongoing + s for s in _sums(plain, MAX_BUILDINGS - n)}
    # Named when the setup gives them, so a table can see the check judges another game's (a code mistyped).
    where = f"of the setup's buildings ({', '.join(sorted(b.name for b in pool))})" if known else "buildings"
    restaurant = any(b.rule is BuildingRule.FISH_LINE for b in pool)
    tail = ", the Restaurant scoring the fish line" if restaurant and facts.fish is not None else ""
    return Possible("buildings", frozenset(values), f"the values of at most 4 {where}{tail}")


def building_pool(facts: PadFacts) -> list[Building]:
    """The buildings a player may hold: the setup's when it is given, else the edition's."""
    known = facts.setup.buildings if facts.setup is not None else None
    return [b for b in cat.BUILDINGS if b.expansion in facts.expansions and (not known or b.id in known)]


def _sums_exactly(options: Sequence[frozenset[int]], n: int) -> frozenset[int]:
    """Every total of picking exactly ``n`` of the ``options``."""
    return frozenset(
        sum(values) for picked in itertools.combinations(options, n) for values in itertools.product(*picked)
    )


def resources_values() -> Possible:
    """RULINGS R9: 3 per koban, 1 per wood, 1 per full 4 mon: any whole number from 0."""
    return Possible("resources", None, "3 per koban, 1 per wood, 1 per 4 mon: any whole number from 0")


def personality_options(personality: Personality, facts: PadFacts) -> frozenset[int]:
    """What one personality met can score at the end (RULINGS R10), narrowed by the facts."""
    rule, points = personality.rule, personality.points
    if rule is PersonalityRule.NONE:
        return frozenset({0})
    if rule is PersonalityRule.BOATS_AND_BUILDINGS:
        return frozenset(points * n for n in range(MAX_BOATS + MAX_BUILDINGS + 1))
    if rule in (PersonalityRule.PIPES_AT_LEAST, PersonalityRule.FULL_SET) and facts.pipe is False:
        return frozenset({0})
    if rule is PersonalityRule.LAST_IN_FIREFIGHTING and facts.last_in_firefighting is False:
        return frozenset({0})
    return frozenset({0, points})


def _bridge(facts: PadFacts) -> tuple[tuple[str, ...] | None, bool]:
    setup = facts.setup
    bridge = setup.personalities if setup is not None else None
    return bridge, setup is None or setup.boat_sides.get(FERRY) != "A"


def personality_pool(facts: PadFacts) -> list[Personality]:
    """The end-game personalities a player may have met (RULINGS R10, R13): the setup's when it is given and the
    Ferry boat's side is known to be A; otherwise any (side B opens the season's pool)."""
    bridge, ferry_b_possible = _bridge(facts)
    pool = [p for p in cat.PERSONALITIES if not bridge or ferry_b_possible or p.id in bridge]
    return [p for p in pool if p.rule is not PersonalityRule.NONE]


def personalities_values(facts: PadFacts) -> Possible:
    """RULINGS R10/R13: the end-game personalities the player may have met: the setup's when it is given and the
    Ferry boat's side is known to be A; otherwise any (side B opens the season's pool)."""
    scoring = personality_pool(facts)
    bridge, ferry_b_possible = _bridge(facts)
    values = _sums([personality_options(p, facts) for p in scoring], len(scoring))
    names = ", ".join(f"{p.name} {p.points if p.rule is not PersonalityRule.BOATS_AND_BUILDINGS else '2 × …'}"
                      for p in scoring)  # fmt: skip
    where = "met on the bridge" if bridge and not ferry_b_possible else "met"
    last = [p.name for p in scoring if p.rule is PersonalityRule.LAST_IN_FIREFIGHTING]
    pipes = [p.name for p in scoring if p.rule in (PersonalityRule.PIPES_AT_LEAST, PersonalityRule.FULL_SET)]
    why = "".join(
        f"; {join(names)} {'scores' if len(names) == 1 else 'score'} nothing ({reason})"
        for names, reason, out in ((last, "another player is below on the firefighting track",
                                    facts.last_in_firefighting is False),
                                   (pipes, "no pipe", facts.pipe is False))
        if names and out
    )  # fmt: skip
    return Possible("personalities", frozenset(values), f"the end-game personalities {where}: {names}{why}")


def possible_lines(facts: PadFacts) -> dict[str, Possible]:
    """Every line of the pad with the values it can take, in the pad's order (RULINGS R3)."""
    out = {
        "score_track": score_track_values(),
        "variety": variety_values(),
        "fish": fish_values(facts),
        "tobacco": tobacco_values(facts),
        "buildings": buildings_values(facts),
        "resources": resources_values(),
    }
    if facts.akebono:
        out["personalities"] = personalities_values(facts)
    return out


# --- checking a typed pad ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PadPlayer:
    """One column of a typed pad. ``lines`` holds the numbers typed, by line key (a line left blank is unknown,
    RULINGS R20); ``total`` and ``rank`` as written, when typed. ``stack_place``: 1 = top of the player's space."""

    name: str
    lines: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    total: int | None = None
    rank: int | None = None
    pipe: bool | None = None
    firefighting: int | None = None
    stack_place: int | None = None


@dataclass(frozen=True, slots=True)
class Pad:
    players: tuple[PadPlayer, ...]
    akebono: bool = False
    setup: Setup | None = None


@dataclass(frozen=True, slots=True)
class PadProblem:
    """One thing the check says. ``root`` names the flagged number this one only follows from ("Anaïs's fish"):
    such a problem is a consequence, shown with its root and not counted as one more mistake."""

    code: PadCode
    player: str
    line: str  # a line key, "total", "rank" or "stack" (the place in the stack typed)
    message: str
    root: str = ""

    @property
    def error(self) -> bool:
        return self.code not in WARNING_CODES and not self.root

    @property
    def consequence(self) -> bool:
        return bool(self.root)

    def as_dict(self) -> dict[str, str]:
        out = {"code": self.code.value, "player": self.player, "line": self.line, "message": self.message}
        return {**out, "follows_from": self.root} if self.root else out


@dataclass(frozen=True, slots=True)
class PlayerCheck:
    """One player's place. ``sum``: the total the place is judged on (the typed total, else the typed lines'
    sum); ``known`` is False while neither the total nor every line is typed (RULINGS R20): then ``sum`` is
    only the typed lines' and ``rank`` is 0."""

    name: str
    sum: int
    rank: int  # by the judged totals, with the tie-break (RULINGS R12)
    tie_break: str | None
    known: bool = True
    #: The places the player can hold with what is typed (RULINGS R21), first and last; (0, 0) while not known.
    places: tuple[int, int] = (0, 0)

    @property
    def place(self) -> str:
        """The place as the check can tell it: ``2``, or ``1-3`` while the typed facts leave the tie open."""
        low, high = self.places
        return str(low) if low == high else f"{low}\u2013{high}"


@dataclass(frozen=True, slots=True)
class PadCheck:
    players: tuple[PlayerCheck, ...]
    problems: tuple[PadProblem, ...]
    #: Whether any number (a line, a total, a place) is typed: before that there is nothing to judge.
    typed: bool = True

    @property
    def errors(self) -> tuple[PadProblem, ...]:
        return tuple(p for p in self.problems if p.error)

    @property
    def consequences(self) -> tuple[PadProblem, ...]:
        return tuple(p for p in self.problems if p.consequence)

    @property
    def warnings(self) -> tuple[PadProblem, ...]:
        return tuple(p for p in self.problems if p.code in WARNING_CODES and not p.root)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def complete(self) -> bool:
        """Every player's total is known: the pad can be kept as a result."""
        return all(p.known for p in self.players)

    def in_doubt(self, player: str) -> dict[str, PadProblem]:
        """The first error of each line of one player, by line key."""
        out: dict[str, PadProblem] = {}
        for p in self.errors:
            if p.player == player:
                out.setdefault(p.line, p)
        return out


def lines_of(pad: Pad) -> tuple[str, ...]:
    return AKEBONO_LINES if pad.akebono else BASE_LINES


def _last_in_firefighting(pad: Pad, player: PadPlayer) -> bool | None:
    """RULINGS R23: certainly not last once another known position is lower, or on the same space with a lower
    stack place; certainly last only when every position (and a shared last space's stack) is known."""
    me = player.firefighting
    if me is None:
        return None
    others = [p for p in pad.players if p is not player]
    for q in others:
        if q.firefighting is not None and q.firefighting < me:
            return False
        lower_in_stack = (q.stack_place or 0) > (player.stack_place or 0)
        if q.firefighting == me and None not in (q.stack_place, player.stack_place) and lower_in_stack:
            return False
    if any(q.firefighting is None for q in others):
        return None
    sharing = [q for q in others if q.firefighting == me]
    if (player.stack_place is None and sharing) or any(q.stack_place is None for q in sharing):
        return None
    return True


def facts_of(pad: Pad, player: PadPlayer) -> PadFacts:
    """The facts of one column: its own pipe, position and fish line (the Restaurant's value, RULINGS R22), and
    whether it is last in firefighting order (Ryōkan, RULINGS R23)."""
    return PadFacts(
        akebono=pad.akebono,
        setup=pad.setup,
        pipe=player.pipe,
        firefighting=player.firefighting,
        last_in_firefighting=_last_in_firefighting(pad, player),
        fish=player.lines.get("fish"),
    )


def impossible_message(possible: Possible, value: int, words: Mapping[str, str] = LINE_WORDS) -> str:
    """``variety 12 is impossible: 1, 4, 9, 16 or 25 for 1-5 types, 0 with no character; nearest: 9 or 16``."""
    near = possible.nearest(value)
    tail = (
        f"; nearest possible: {or_list(near)}"
        if near and (possible.values is not None or possible.even)
        else ""
    )
    return f"{words[possible.line]} {value} is impossible: {possible.rule}{tail}."


def _reachable(possible: Sequence[Possible], target: int) -> bool:
    """Whether some values of these lines, one each, add up to ``target``. A line of any whole number takes what
    the others leave; lines of any even number, an even rest."""
    if target < 0:
        return False
    sums = {0}
    for line in possible:
        if line.values is not None:
            sums = {s + v for s in sums for v in line.values if v in line and s + v <= target}
    free = [line for line in possible if line.values is None]
    if any(not line.even for line in free):
        return bool(sums)
    if free:
        return any((target - s) % 2 == 0 for s in sums)
    return target in sums


#: How far above a total the nearest possible one is looked for, when the blank lines cannot make it up.
TOTAL_NEAREST_LOOKED: Final = 60


def _total_problem(player: PadPlayer, possible: Mapping[str, Possible], lines: Sequence[str],
                   flagged: Sequence[str], words: Mapping[str, str]) -> PadProblem | None:  # fmt: skip
    """A typed total its typed lines cannot add up to, the blank ones taking any of their values; named as
    following from a flagged line when a possible value of it would make it add up. With a line left blank it is a
    warning (:data:`PadCode.TOTAL_WITH_BLANKS`), however sure the sum: RULINGS R20 checks a total only when every
    line of it is typed, what rests on which lines were left blank being at most a warning."""
    total = player.total
    blank = [possible[line] for line in lines if line not in player.lines]
    added = sum(player.lines[line] for line in lines if line in player.lines)
    if total is None or _reachable(blank, total - added):
        return None
    if not blank:
        message = f"total {total} is not the sum of the lines: they add up to {added}."
    elif total < added:
        message = f"total {total} is less than the lines typed: they already add up to {added}. Worth a second look."
    else:
        left = join(words[line] for line in lines if line not in player.lines)
        below = (t for t in range(total - 1, added - 1, -1) if _reachable(blank, t - added))
        above = (t for t in range(total + 1, total + TOTAL_NEAREST_LOOKED) if _reachable(blank, t - added))
        near = [t for t in (next(below, None), next(above, None)) if t is not None]
        tail = f"; nearest possible total: {or_list(near)}" if near else ""
        message = (f"total {total}: the lines typed add up to {added}, and the {left} left blank cannot add "
                   f"{total - added}{tail}. Worth a second look.")  # fmt: skip
    root = ""
    free = [*blank, *(possible[line] for line in flagged)]
    if flagged and _reachable(free, total - added + sum(player.lines[line] for line in flagged)):
        root = _root(player.name, flagged[0], words)
        message += f" It follows from {root}: with a possible {words[flagged[0]]} it can add up."
    return PadProblem(
        PadCode.TOTAL_WITH_BLANKS if blank else PadCode.TOTAL, player.name, "total", message, root
    )


def _root(player: str, line: str, words: Mapping[str, str] = LINE_WORDS) -> str:
    return f"{player}'s {words.get(line, line)}"


@dataclass(frozen=True, slots=True)
class Edition:
    """What a check reads of one edition's pad: the words of its lines, each column's possible values, the
    problems across the table (the components that exist once), and the score track worth a second look (None:
    no such warning). :data:`EDITION_2022` is the 2022 pad's; ``scoring.first_edition`` has the 2015 one's."""

    words: Mapping[str, str]
    possible: Callable[[Pad, PadPlayer], Mapping[str, Possible]]
    table: Callable[[Pad, set[tuple[str, str]]], list[PadProblem]]
    high_track: int | None = None


def _check_player(pad: Pad, player: PadPlayer, edition: Edition) -> list[PadProblem]:
    problems: list[PadProblem] = []
    possible = edition.possible(pad, player)
    words = edition.words
    for line in lines_of(pad):
        value = player.lines.get(line)
        if value is None:
            continue
        if value < 0:
            problems.append(
                PadProblem(
                    PadCode.NEGATIVE, player.name, line, f"{words[line]} {value}: no line is negative."
                )
            )
        elif value not in possible[line]:
            problems.append(
                PadProblem(
                    PadCode.IMPOSSIBLE, player.name, line, impossible_message(possible[line], value, words)
                )
            )
    track = player.lines.get("score_track")
    if track is not None and edition.high_track is not None and track > edition.high_track:
        problems.append(
            PadProblem(
                PadCode.HIGH_SCORE_TRACK,
                player.name,
                "score_track",
                f"{player.name}'s score track {track} is over {edition.high_track}: legal, but worth a second look.",
            )
        )
    flagged = [p.line for p in problems if p.error]
    total = _total_problem(player, possible, lines_of(pad), flagged, words)
    return [*problems, *([total] if total else [])]


# --- the whole table (RULINGS R22) --------------------------------------------------------------------------------

#: What each line binds across the table, in the words a message uses.
TABLE_WORDS: Final = {
    "fish": "fish tokens (each exists once)",
    "tobacco": "tobacco pouches (each exists once)",
    "buildings": f"buildings ({BUILDINGS_IN_PLAY} are in play, each once)",
    "buildings-akebono": f"buildings ({BUILDINGS_IN_PLAY} are in play, each once, at most {MAX_ONGOING_BUILDINGS} of them"
    " with an ongoing ability)",
    "personalities": "personalities (each exists once)",
}


def minimal_sets(sets: Iterable[frozenset[str]]) -> tuple[frozenset[str], ...]:
    """The sets no other set is inside: holding more never helps the others (RULINGS R22)."""
    ordered = sorted(set(sets), key=len)
    kept: list[frozenset[str]] = []
    for s in ordered:
        if not any(k <= s for k in kept):
            kept.append(s)
    return tuple(kept)


class _TooMany(Exception):
    """More sets than a caller will weigh (:func:`_holdings`' ``limit``)."""


def _holdings(
    ids_options: Sequence[tuple[str, frozenset[int]]], value: int, most: int, limit: int | None = None
) -> list[frozenset[str]] | None:
    """The sets of at most ``most`` components whose values can add up to ``value`` with each component scoring
    more than 0: every minimal set among them (a component scoring 0 is never needed), grown in catalogue order
    and never past a set that already makes ``value``. None when there are more than ``limit``."""
    options = [(id_, frozenset(v for v in values if v > 0)) for id_, values in ids_options]
    tops = [max(values, default=0) for _, values in options]
    out: list[frozenset[str]] = []

    def grow(start: int, picked: tuple[str, ...], sums: set[int]) -> None:
        if value in sums:
            out.append(frozenset(picked))
            if limit is not None and len(out) > limit:
                raise _TooMany
            return
        room = most - len(picked)
        if not room or max(sums) + sum(sorted(tops[start:], reverse=True)[:room]) < value:
            return
        for i in range(start, len(options)):
            id_, values = options[i]
            more = {s + v for s in sums for v in values if s + v <= value}
            if more:
                grow(i + 1, (*picked, id_), more)

    try:
        grow(0, (), {0})
    except _TooMany:
        return None
    return out


def building_holdings(
    facts: PadFacts, value: int, limit: int | None = None
) -> tuple[frozenset[str], ...] | None:
    """The sets of the setup's buildings that can make a buildings line of ``value`` (RULINGS R8, R13, R22); None
    when there are more than ``limit``."""
    pool = building_pool(facts)
    found = _holdings([(b.id, building_options(b, facts)) for b in pool], value, MAX_BUILDINGS, limit)
    if found is None:
        return None
    ongoing = {b.id for b in pool if b.ongoing}
    return minimal_sets(s for s in found if not facts.akebono or len(s & ongoing) <= MAX_ONGOING_BUILDINGS)


def personality_holdings(facts: PadFacts, value: int) -> tuple[frozenset[str], ...]:
    """The sets of end-game personalities that can make a personalities line of ``value`` (RULINGS R10, R22)."""
    pool = personality_pool(facts)
    found = _holdings([(p.id, personality_options(p, facts)) for p in pool], value, len(pool))
    assert found is not None  # no limit
    return minimal_sets(found)


#: The most sets of buildings weighed for one player's line in an Akebono game without its setup: a line that more
#: sets can make (most lines from 6 up, of its 20 buildings) takes part only in the count of buildings it needs
#: (:func:`_fewest_buildings`). Lines that few sets make are the ones that collide (RULINGS R22); never weighing a
#: line can only miss an error, never make one.
AKEBONO_SETS_MOST: Final = 40


def _candidates(pad: Pad, player: PadPlayer, line: str) -> tuple[frozenset[str], ...] | None:
    """The sets of components a player's line can be made of, or None when they are too many to weigh (the
    buildings of an Akebono game without its setup: :data:`AKEBONO_SETS_MOST`)."""
    value = player.lines[line]
    facts = facts_of(pad, player)
    if line == "fish":
        return minimal_sets(fish_holdings(pad.akebono).get(value, ()))
    if line == "buildings":
        return building_holdings(facts, value, AKEBONO_SETS_MOST if _counted(pad, line) else None)
    if line == "tobacco":
        return tobacco_holdings(facts, value)
    return personality_holdings(facts, value)


def _fewest_table(facts: PadFacts, most: int) -> Callable[[int], int]:
    """The fewest different buildings that can make each buildings line up to ``most`` (RULINGS R8), worked out
    once: 0 for a value none can make."""
    by_count: list[set[int]] = [{0}] + [set() for _ in range(MAX_BUILDINGS)]
    for building in building_pool(facts):
        options = building_options(building, facts)
        for n in range(MAX_BUILDINGS, 0, -1):
            by_count[n] |= {s + v for s in by_count[n - 1] for v in options if s + v <= most}
    return lambda value: next((n for n, sums in enumerate(by_count) if value in sums), 0)


def _fewest_buildings(facts: PadFacts, value: int) -> int:
    """The fewest different buildings that can make a buildings line of ``value`` (RULINGS R8)."""
    return _fewest_table(facts, value)(value)


def can_share(
    candidates: Sequence[Sequence[frozenset[str]]], fits: Callable[[frozenset[str]], bool] | None = None
) -> bool:
    """Whether each player can hold one of their sets with no component held twice (and, with ``fits``, with all
    the components held together passing it: no more different buildings than are in play)."""

    @functools.cache
    def go(i: int, used: frozenset[str]) -> bool:
        if fits is not None and not fits(used):
            return False
        if i == len(candidates):
            return True
        return any(go(i + 1, used | c) for c in candidates[i] if not c & used)

    return go(0, frozenset())


def in_play(akebono: bool) -> Callable[[frozenset[str]], bool]:
    """Whether buildings held across a table whose setup is unknown can all be in play: at most 6, with Akebono at
    most 2 of them with an ongoing ability (RULINGS R13, R15, R18)."""
    ongoing = frozenset(b.id for b in cat.BUILDINGS if b.ongoing)

    def fits(used: frozenset[str]) -> bool:
        return len(used) <= BUILDINGS_IN_PLAY and (
            not akebono or len(used & ongoing) <= MAX_ONGOING_BUILDINGS
        )

    return fits


def _typed(pad: Pad, line: str, flagged: set[tuple[str, str]]) -> list[PadPlayer]:
    """The players whose ``line`` is typed, not negative and not already flagged: the ones that bind the table."""
    return [
        p for p in pad.players if line in p.lines and (p.name, line) not in flagged and p.lines[line] >= 0
    ]


def _buildings_known(pad: Pad) -> bool:
    """Whether the pad's setup names its buildings in play (typed by its seed)."""
    return pad.setup is not None and bool(pad.setup.buildings)


def _fits(pad: Pad, line: str) -> Callable[[frozenset[str]], bool] | None:
    """What all the components held together must pass: the buildings in play when the setup is not known."""
    return in_play(pad.akebono) if line == "buildings" and not _buildings_known(pad) else None


def _counted(pad: Pad, line: str) -> bool:
    """Whether the line is weighed by the count of buildings each value needs (:data:`AKEBONO_SETS_MOST`)."""
    return line == "buildings" and pad.akebono and not _buildings_known(pad)


def _conflict(pad: Pad, line: str, flagged: set[tuple[str, str]]) -> tuple[str, ...] | None:
    """The smallest group of players whose typed ``line`` cannot all be right together (RULINGS R22)."""
    typed = _typed(pad, line, flagged)
    if _counted(pad, line):
        fewest = {p.name: _fewest_buildings(facts_of(pad, p), p.lines[line]) for p in typed}
        if sum(fewest.values()) > BUILDINGS_IN_PLAY:
            needed, group = 0, []
            for name in sorted(fewest, key=lambda n: -fewest[n]):
                needed += fewest[name]
                group.append(name)
                if needed > BUILDINGS_IN_PLAY:
                    break
            return tuple(p.name for p in typed if p.name in group)
    candidates: dict[str, tuple[frozenset[str], ...]] = {}
    for p in typed:
        found = _candidates(pad, p, line)
        if found is not None and all(found):
            candidates[p.name] = found
    return first_conflict(candidates, _fits(pad, line))


def nearest_beside(
    pad: Pad, line: str, conflict: Sequence[str], flagged: set[tuple[str, str]]
) -> tuple[int, ...]:
    """The possible values of the last player's ``line`` closest to the typed one (below and above, at most one
    each) that the other players of ``conflict`` leave room for, their lines as typed (RULINGS R22)."""
    typed = {p.name: p for p in _typed(pad, line, flagged)}
    player, others = typed[conflict[-1]], [typed[name] for name in conflict[:-1]]
    facts = facts_of(pad, player)
    wanted = player.lines[line]
    possible = possible_lines(facts)[line]
    values = possible.values or frozenset(v for v in range(2 * wanted + 1) if v in possible)
    theirs = [_candidates(pad, q, line) for q in others]
    below = sorted((v for v in values if v < wanted), reverse=True)
    above = sorted(v for v in values if v > wanted)
    counted = _counted(pad, line)
    fewest = _fewest_table(facts, max(above, default=wanted)) if counted else None
    room = (
        BUILDINGS_IN_PLAY - sum(_fewest_buildings(facts_of(pad, q), q.lines[line]) for q in others)
        if counted
        else 0
    )

    def fits(value: int) -> bool:
        if fewest is not None and fewest(value) > room:
            return False
        mine = _candidates(pad, dataclasses.replace(player, lines={**player.lines, line: value}), line)
        sets = [c for c in (*theirs, mine) if c is not None and all(c)]
        return can_share(sets, _fits(pad, line))

    found = (next((v for v in side if fits(v)), None) for side in (below, above))
    return tuple(v for v in found if v is not None)


def first_conflict(
    candidates: Mapping[str, Sequence[frozenset[str]]], fits: Callable[[frozenset[str]], bool] | None = None
) -> tuple[str, ...] | None:
    """The smallest group of players (in seating order) who cannot each hold one of their sets of components
    with none held twice (RULINGS R22), or None."""
    return next(
        (group for n in range(2, len(candidates) + 1) for group in itertools.combinations(candidates, n)
         if not can_share([candidates[name] for name in group], fits)),
        None,
    )  # fmt: skip


def table_problems(pad: Pad, flagged: set[tuple[str, str]]) -> list[PadProblem]:
    """RULINGS R22: the components that exist once bind the table. For the fish, the buildings and the
    personalities, the smallest group of players whose typed lines cannot all be made with one of each
    component (and, for the buildings, with the 6 in play, RULINGS R15); the problem goes to the last of them
    (the entry that made it)."""
    problems = []
    for line in ("fish", "tobacco", "buildings", "personalities"):
        if line not in lines_of(pad):
            continue
        conflict = _conflict(pad, line, flagged)
        if conflict is not None:
            words = TABLE_WORDS["buildings-akebono" if line == "buildings" and pad.akebono else line]
            nearest = nearest_beside(pad, line, conflict, flagged)
            problems.append(conflict_problem(pad, line, conflict, LINE_WORDS, words, nearest))
    return problems


def conflict_problem(
    pad: Pad,
    line: str,
    conflict: Sequence[str],
    words: Mapping[str, str],
    needs: str,
    nearest: Sequence[int] | None = None,
) -> PadProblem:
    """The problem of a group of players whose typed ``line`` cannot all be right together, given to the last of
    them (the entry that made it); ``needs`` names what they need more of than the game has, ``nearest`` the
    values the last one's line could take beside the others' as typed (None: not searched)."""
    values = {p.name: p.lines.get(line) for p in pad.players}
    said = join(f"{name}'s {words[line]} {values[name]}" for name in conflict)
    both = "both" if len(conflict) == 2 else "all"
    last, others = conflict[-1], join(f"{name}'s" for name in conflict[:-1])
    tail = ""
    if nearest is not None:  # searched (the 2015 pad does not)
        tail = (
            f" With {others} {words[line]} as typed, {last}'s {words[line]} could be {or_list(nearest)} (the nearest"
            " possible)."
            if nearest
            else f" With {others} {words[line]} as typed, no {words[line]} of {last}'s is possible."
        )
    return PadProblem(
        PadCode.TABLE,
        last,
        line,
        f"{said} cannot {both} be right: together they need more {needs} than the game has.{tail}",
    )


# --- places (RULINGS R12, R20, R21) -------------------------------------------------------------------------------


def _judged(pad: Pad, player: PadPlayer) -> int | None:
    """The total a place is judged on (RULINGS R20): the typed total, else the lines' sum once all are typed."""
    if player.total is not None:
        return player.total
    if all(line in player.lines for line in lines_of(pad)):
        return sum(player.lines[line] for line in lines_of(pad))
    return None


def _above(pad: Pad, a: PadPlayer, b: PadPlayer) -> bool | None:
    """Whether the tie-break puts ``a`` above ``b``; None while the typed facts do not say (RULINGS R12, R21)."""
    if a.firefighting is None or b.firefighting is None:
        return None
    if a.firefighting != b.firefighting:
        return a.firefighting > b.firefighting
    on = [p.stack_place for p in pad.players if p.firefighting == a.firefighting]
    if None in on or a.stack_place == b.stack_place:
        return None
    return (a.stack_place or 0) < (b.stack_place or 0)


def _ranking_table(pad: Pad, sums: Mapping[str, int]) -> tuple[Table, list[PadProblem]]:
    """The positions and stacks the tie-break reads (RULINGS R12), for the players whose total is known. A tied
    player whose position is not given shares the place: such players sit together on a space of their own, and
    a warning asks for the positions (RULINGS R21: the order written at the table may stand)."""
    problems = []
    unknown_space = {total: -1 - i for i, total in enumerate(sorted(set(sums.values())))}
    known = [p for p in pad.players if p.name in sums]
    players = []
    for p in known:
        tied = [q for q in known if sums[q.name] == sums[p.name] and q is not p]
        if tied and any(q.firefighting is None for q in (p, *tied)):
            space = unknown_space[sums[p.name]]
            if p.firefighting is None:
                together = join(q.name for q in known if sums[q.name] == sums[p.name])
                problems.append(
                    PadProblem(
                        PadCode.TIE_NEEDS_FIREFIGHTING,
                        p.name,
                        "rank",
                        f"{together} tie on {sums[p.name]} IKI: give every tied player's firefighting position "
                        "(and, on a shared space, the places in its stack) to check the order you wrote; until "
                        "then any order of the tied players can be right.",
                    )
                )
        else:
            space = p.firefighting if p.firefighting is not None else unknown_space[sums[p.name]]
        players.append(PlayerState(name=p.name, firefighting=space))
    stacks = tuple(
        StackPlace(p.name, q.firefighting, p.stack_place)
        for p, q in zip(known, players, strict=True)
        if p.stack_place is not None and q.firefighting >= 0
    )
    return Table(players=tuple(players), stacks=stacks), problems + _stack_problems(pad, sums)


def _stack_problems(pad: Pad, sums: Mapping[str, int]) -> list[PadProblem]:
    """RULINGS R12/R13 on each shared space: two players in one stack place is an error, and so is a place below
    the players who are or may be on the space (those whose position is not given may be); a tie on the space
    whose stack places are not all given is shared, with a warning asking for them."""
    problems = []
    spaces = {p.firefighting for p in pad.players if p.firefighting is not None}
    unplaced = sum(1 for p in pad.players if p.firefighting is None)
    for space in sorted(spaces, reverse=True):
        on = [p for p in pad.players if p.firefighting == space]
        most = len(on) + unplaced  # the players who are or may be on the space
        seen: dict[int, str] = {}
        for p in on:
            if p.stack_place is None:
                continue
            if p.stack_place > most:
                problems.append(PadProblem(PadCode.STACK_TOO_LOW, p.name, "stack",
                                           f"{p.name} cannot be place {p.stack_place} in the stack on space {space}: "
                                           + (f"{p.name} is alone on it." if most == 1 else
                                              f"only {most} players are on it.")))  # fmt: skip
            if p.stack_place in seen:
                problems.append(PadProblem(PadCode.STACK_TWICE, p.name, "stack",
                                           f"{seen[p.stack_place]} and {p.name} cannot both be place "
                                           f"{p.stack_place} in the stack on space {space}."))  # fmt: skip
            seen[p.stack_place] = p.name
        for p in on:
            tied = [q for q in on if q is not p and p.name in sums and sums.get(q.name) == sums[p.name]]
            if tied and p.stack_place is None:
                together = join(q.name for q in on if sums.get(q.name) == sums[p.name])
                problems.append(PadProblem(PadCode.TIE_NEEDS_STACK, p.name, "rank",
                                           f"{together} tie on {sums[p.name]} IKI on firefighting space {space}: give "
                                           "the places in that stack (1 = top) to check the order you wrote; until "
                                           "then any order of the tied players can be right."))  # fmt: skip
    return problems


def _place_bounds(pad: Pad, sums: Mapping[str, int], player: PadPlayer) -> tuple[int, int]:
    """The places the player can hold, first and last (RULINGS R20, R21): players surely ahead (more IKI, or
    a tie the typed facts break) against those who may be (an unknown total, or a tie the facts leave open)."""
    others = [q for q in pad.players if q is not player]
    if player.name not in sums:
        return 1, len(pad.players)
    mine = sums[player.name]
    ahead = maybe = 0
    for q in others:
        if q.name not in sums:
            maybe += 1
        elif sums[q.name] > mine:
            ahead += 1
        elif sums[q.name] == mine:
            above = _above(pad, q, player)
            ahead += above is True
            maybe += above is None
    return 1 + ahead, 1 + ahead + maybe


def _in_doubt(problems: Sequence[PadProblem], name: str, words: Mapping[str, str]) -> str:
    """The root a player's judged total rests on, when one of their numbers is flagged."""
    for p in problems:
        if p.player == name and p.line not in ("rank", "stack") and (p.error or p.root):
            return p.root or _root(p.player, p.line, words)
    return ""


def _place_root(pad: Pad, sums: Mapping[str, int], roots: Mapping[str, str], player: PadPlayer) -> str:
    """The flagged number a wrong place follows from: the place is possible once the totals resting on flagged
    numbers are set free (their own, or another player's); "" when no such correction can explain it."""
    free = {name: total for name, total in sums.items() if not roots.get(name)}
    low, high = _place_bounds(pad, free, player)
    if player.rank is None or not low <= player.rank <= high:
        return ""
    return roots.get(player.name) or next(r for r in roots.values() if r)


def check_pad(pad: Pad, edition: Edition | None = None) -> PadCheck:
    """Every number of the pad that cannot be right, the totals against their lines (blank ones free), what
    the lines imply across the table, and the places by the typed totals with the tie-break (RULINGS R12,
    R20-R23) against any typed place, all at once. A total or a place that only follows from a flagged number
    names it as its root (one mistake, one error). ``edition``: the 2022 pad's rules unless given."""
    edition = edition or EDITION_2022
    problems: list[PadProblem] = []
    for player in pad.players:
        problems.extend(_check_player(pad, player, edition))
    flagged = {(p.player, p.line) for p in problems if p.error}
    problems.extend(edition.table(pad, flagged))
    judged = {p.name: _judged(pad, p) for p in pad.players}
    sums = {name: total for name, total in judged.items() if total is not None}
    table, tie_problems = _ranking_table(pad, sums)
    problems.extend(tie_problems)
    places = rank_totals(table, sums)
    roots = {p.name: _in_doubt(problems, p.name, edition.words) for p in pad.players if p.name in sums}
    checks = []
    # a wrong place whose right one is sure: (right, written, why)
    certain: dict[str, tuple[int, int, str]] = {}
    for p in pad.players:
        rank, words = places.get(p.name, (0, None))
        if any(q.code is PadCode.TIE_NEEDS_FIREFIGHTING and q.player == p.name for q in tie_problems):
            words = None
        low, high = _place_bounds(pad, sums, p)
        if p.rank is not None and not low <= p.rank <= high:
            if low == high == rank:
                message = f"{p.name} is placed {rank}, not {p.rank}" + (
                    f": {words}." if words else f", with {sums[p.name]} IKI."
                )
            elif p.name in sums:
                message = f"{p.name} cannot be placed {p.rank}: with {sums[p.name]} IKI the place is {low} to {high}."
            else:
                message = f"{p.name} cannot be placed {p.rank}: {len(pad.players)} players played."
            root = _place_root(pad, sums, roots, p)
            if root:
                message += f" It follows from {root}."
            problems.append(PadProblem(PadCode.RANK, p.name, "rank", message, root))
            if low == high and not root:
                certain[p.name] = (low, p.rank, words or f"{p.name} has {sums[p.name]} IKI")
        typed_sum = sum(v for line, v in p.lines.items() if line in lines_of(pad))
        known = p.name in sums
        checks.append(
            PlayerCheck(
                p.name, sums.get(p.name, typed_sum), rank, words, known, (low, high) if known else (0, 0)
            )
        )
    typed = any(p.lines or p.total is not None or p.rank is not None for p in pad.players)
    return PadCheck(tuple(checks), tuple(_swapped(problems, certain)), typed)


def _swapped(problems: list[PadProblem], certain: Mapping[str, tuple[int, int, str]]) -> list[PadProblem]:
    """Two players whose written places are each other's (a tie written the wrong way round, RULINGS R12, R21)
    are one mistake: said once on the first, the second's place named as following from it."""
    names = list(certain)
    pairs = {}
    for a, b in itertools.combinations(names, 2):
        (right_a, wrote_a, why_a), (right_b, wrote_b, why_b) = certain[a], certain[b]
        if a not in pairs and b not in pairs and (wrote_a, wrote_b) == (right_b, right_a):
            why = why_a if why_a == why_b else f"{why_a}, {why_b}"  # a tie's words name both
            pairs[a] = pairs[b] = (a, b, right_a, right_b, why)
    out = []
    for p in problems:
        if p.code is not PadCode.RANK or p.player not in pairs:
            out.append(p)
            continue
        a, b, right_a, right_b, why = pairs[p.player]
        if p.player == a:
            message = f"{a}'s and {b}'s places are the wrong way round: {a} is placed {right_a} and {b} {right_b}. {why}."
            out.append(PadProblem(PadCode.RANK, a, "rank", message))
        else:
            message = f"{b} is placed {right_b}, not {right_a}: the wrong way round with {a}."
            out.append(PadProblem(PadCode.RANK, b, "rank", message, f"{a}'s place"))
    return out


#: The 2022 pad (RULINGS R3-R14, R20-R23): the catalogue's values, narrowed by each column's facts.
EDITION_2022: Final = Edition(
    words=LINE_WORDS,
    possible=lambda pad, player: possible_lines(facts_of(pad, player)),
    table=table_problems,
    high_track=HIGH_SCORE_TRACK,
)


__all__ = [
    "EDITION_2022",
    "LINE_WORDS",
    "Edition",
    "Pad",
    "PadCheck",
    "PadCode",
    "PadFacts",
    "PadPlayer",
    "PadProblem",
    "Possible",
    "can_share",
    "check_pad",
    "conflict_problem",
    "first_conflict",
    "fish_holdings",
    "in_play",
    "minimal_sets",
    "possible_lines",
    "table_problems",
]
