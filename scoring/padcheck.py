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

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from scoring import catalogue as cat
from scoring.components import (
    SEASONS,
    Building,
    BuildingRule,
    Expansion,
    Personality,
    PersonalityRule,
    Season,
    TokenKind,
)
from scoring.rules import TRACK_MAX
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
    TIE_NEEDS_FIREFIGHTING = "tie-needs-firefighting"
    TIE_NEEDS_STACK = "tie-needs-stack-order"
    HIGH_SCORE_TRACK = "score-track-high"


#: Codes that are warnings (legal, or a fact missing), not errors.
WARNING_CODES: Final = frozenset(
    {PadCode.TIE_NEEDS_FIREFIGHTING, PadCode.TIE_NEEDS_STACK, PadCode.HIGH_SCORE_TRACK}
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
    return Possible(
        "score_track", None, "the IKI scored during the game: any whole number from 0 (RULINGS R3)"
    )


def variety_values() -> Possible:
    """RULINGS R4: 1/4/9/16/25 for 1-5 types; 0 only without a counted character."""
    return Possible(
        "variety",
        frozenset(VARIETY_POINTS),
        f"{or_list(VARIETY_POINTS[1:])} for 1-5 types, 0 with no character (RULINGS R4)",
    )


def fish_values(facts: PadFacts) -> Possible:
    """RULINGS R6 and R14: each season gives at most one fish (winter two, the second on New Year's Day), at most
    4 fish, the Fisherman token counting as one; 3/6/10/15 for 1-4 seasons plus every token's own bonus."""
    expansions = facts.expansions
    seasonal = {s: cat.tokens_of(TokenKind.FISH, s, expansions) for s in SEASONS}
    fisherman = list(cat.tokens_of(TokenKind.FISH, None, expansions))
    values: set[int] = set()
    choices = [
        [(), *([(t,) for t in tokens]), *(itertools.combinations(tokens, 2) if s is Season.WINTER else [])]
        for s, tokens in seasonal.items()
    ]
    for picked in itertools.product(*choices, [(), *[(t,) for t in fisherman]]):
        held = [t for group in picked for t in group]
        if len(held) > MAX_FISH:
            continue
        count = sum(1 for group in picked if group)  # a season (or the Fisherman token) counts once
        values.add(FISH_POINTS[count] + sum(t.points for t in held))
    bonuses = ", ".join(
        f"{t.points:+d} {t.season.value if t.season else 'Fisherman'}" for t in cat.TOKENS
        if t.kind is TokenKind.FISH and t.points and t.expansion in expansions
    )  # fmt: skip
    return Possible(
        "fish",
        frozenset(values),
        f"3/6/10/15 for fish of 1-4 seasons, plus each bonus fish ({bonuses}) (RULINGS R6)",
    )


def tobacco_values(facts: PadFacts) -> Possible:
    """RULINGS R7: the pouches' values, doubled when the player holds a pipe: then the line is even."""
    if facts.pipe:
        return Possible(
            "tobacco", None, "with a pipe the pouches' sum is doubled: an even number (RULINGS R7)", even=True
        )
    return Possible("tobacco", None, "the pouches' values: any whole number from 0 (RULINGS R7)")


def _column_most(expansions: frozenset[Expansion]) -> int:
    """The most cards one type column can hold: the largest supply, plus every wild card (RULINGS R2, R5)."""
    wild = sum(1 for c in cat.CHARACTERS if c.id in cat.WILD_IDS and c.expansion in expansions)
    return max(cat.type_supply(expansions).values()) + wild


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
    if rule is BuildingRule.FISH_LINE:
        assert fish_values(facts).values is not None
        return fish_values(facts).values or frozenset()
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
    expansions = facts.expansions
    known = facts.setup.buildings if facts.setup is not None else None
    pool = [b for b in cat.BUILDINGS if b.expansion in expansions and (not known or b.id in known)]
    plain = [building_options(b, facts) for b in pool if not (facts.akebono and b.ongoing)]
    ongoing = [building_options(b, facts) for b in pool if facts.akebono and b.ongoing]
    values: set[int] = set()
    for n in range(min(2, len(ongoing)) + 1):
        for with_ongoing in _sums_exactly(ongoing, n):
            values |= {with_ongoing + s for s in _sums(plain, MAX_BUILDINGS - n)}
    where = "of the setup's buildings" if known else "buildings"
    return Possible("buildings", frozenset(values), f"the values of at most 4 {where} (RULINGS R8, R13)")


def _sums_exactly(options: Sequence[frozenset[int]], n: int) -> frozenset[int]:
    """Every total of picking exactly ``n`` of the ``options``."""
    return frozenset(
        sum(values) for picked in itertools.combinations(options, n) for values in itertools.product(*picked)
    )


def resources_values() -> Possible:
    """RULINGS R9: 3 per koban, 1 per wood, 1 per full 4 mon: any whole number from 0."""
    return Possible(
        "resources", None, "3 per koban, 1 per wood, 1 per 4 mon: any whole number from 0 (RULINGS R9)"
    )


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


def personalities_values(facts: PadFacts) -> Possible:
    """RULINGS R10/R13: the end-game personalities the player may have met: the setup's when it is given and the
    Ferry boat's side is known to be A; otherwise any (side B opens the season's pool)."""
    setup = facts.setup
    bridge = setup.personalities if setup is not None else None
    ferry_b_possible = setup is None or setup.boat_sides.get(FERRY) != "A"
    pool = [p for p in cat.PERSONALITIES if not bridge or ferry_b_possible or p.id in bridge]
    scoring = [p for p in pool if p.rule is not PersonalityRule.NONE]
    values = _sums([personality_options(p, facts) for p in scoring], len(scoring))
    names = ", ".join(f"{p.name} {p.points if p.rule is not PersonalityRule.BOATS_AND_BUILDINGS else '2 × …'}"
                      for p in scoring)  # fmt: skip
    where = "met on the bridge" if bridge and not ferry_b_possible else "met"
    return Possible(
        "personalities", frozenset(values), f"the end-game personalities {where}: {names} (RULINGS R10)"
    )


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
    """One column of a typed pad. ``lines`` holds the numbers typed, by line key (a line left blank is not
    checked); ``total`` and ``rank`` as written, when typed. ``stack_place``: 1 = top of the player's space."""

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
    code: PadCode
    player: str
    line: str  # a line key, "total" or "rank"
    message: str

    @property
    def error(self) -> bool:
        return self.code not in WARNING_CODES

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code.value, "player": self.player, "line": self.line, "message": self.message}


@dataclass(frozen=True, slots=True)
class PlayerCheck:
    name: str
    sum: int  # the typed lines added up
    rank: int  # by that sum, with the tie-break (RULINGS R12)
    tie_break: str | None


@dataclass(frozen=True, slots=True)
class PadCheck:
    players: tuple[PlayerCheck, ...]
    problems: tuple[PadProblem, ...]

    @property
    def errors(self) -> tuple[PadProblem, ...]:
        return tuple(p for p in self.problems if p.error)

    @property
    def ok(self) -> bool:
        return not self.errors

    def in_doubt(self, player: str) -> dict[str, PadProblem]:
        """The first error of each line of one player, by line key."""
        out: dict[str, PadProblem] = {}
        for p in self.errors:
            if p.player == player:
                out.setdefault(p.line, p)
        return out


def lines_of(pad: Pad) -> tuple[str, ...]:
    return AKEBONO_LINES if pad.akebono else BASE_LINES


def facts_of(pad: Pad, player: PadPlayer) -> PadFacts:
    """The facts of one column: its own pipe and position, and whether it is last in firefighting (known only
    when every position is given and the stack settles a shared last space, RULINGS R12)."""
    positions = [p.firefighting for p in pad.players]
    last: bool | None = None
    if player.firefighting is not None and all(f is not None for f in positions):
        lowest = min(f for f in positions if f is not None)
        sharing = [p for p in pad.players if p.firefighting == lowest]
        if player.firefighting != lowest:
            last = False
        elif len(sharing) == 1:
            last = True
        elif all(p.stack_place is not None for p in sharing):
            last = player.stack_place == max(p.stack_place or 0 for p in sharing)
    return PadFacts(
        akebono=pad.akebono,
        setup=pad.setup,
        pipe=player.pipe,
        firefighting=player.firefighting,
        last_in_firefighting=last,
    )


def impossible_message(possible: Possible, value: int) -> str:
    """``variety 12 is impossible: 1, 4, 9, 16 or 25 for 1-5 types, 0 with no character (RULINGS R4); nearest: 9
    or 16``."""
    near = possible.nearest(value)
    tail = f"; nearest possible: {or_list(near)}" if near and possible.values is not None else ""
    return f"{LINE_WORDS[possible.line]} {value} is impossible: {possible.rule}{tail}."


def _check_player(pad: Pad, player: PadPlayer) -> list[PadProblem]:
    problems: list[PadProblem] = []
    possible = possible_lines(facts_of(pad, player))
    for line in lines_of(pad):
        value = player.lines.get(line)
        if value is None:
            continue
        if value < 0:
            words = LINE_WORDS[line]
            problems.append(
                PadProblem(PadCode.NEGATIVE, player.name, line, f"{words} {value}: no line is negative.")
            )
        elif value not in possible[line]:
            problems.append(
                PadProblem(PadCode.IMPOSSIBLE, player.name, line, impossible_message(possible[line], value))
            )
    track = player.lines.get("score_track")
    if track is not None and track > HIGH_SCORE_TRACK:
        problems.append(
            PadProblem(
                PadCode.HIGH_SCORE_TRACK,
                player.name,
                "score_track",
                f"score track {track}: over {HIGH_SCORE_TRACK}, legal but worth a second look (RULINGS R14).",
            )
        )
    added = sum(player.lines.get(line, 0) for line in lines_of(pad))
    if player.total is not None and player.total != added:
        problems.append(
            PadProblem(
                PadCode.TOTAL,
                player.name,
                "total",
                f"total {player.total} is not the sum of the lines: they add up to {added}.",
            )
        )
    return problems


def _ranking_table(pad: Pad, sums: Mapping[str, int]) -> tuple[Table, list[PadProblem]]:
    """The positions and stacks the tie-break reads (RULINGS R12). A tied player whose position is not given
    shares the place: such players sit together on a space of their own, and a warning asks for the positions."""
    problems = []
    unknown_space = {total: -1 - i for i, total in enumerate(sorted(set(sums.values())))}
    players = []
    for p in pad.players:
        tied = [q for q in pad.players if sums[q.name] == sums[p.name] and q is not p]
        if tied and any(q.firefighting is None for q in (p, *tied)):
            space = unknown_space[sums[p.name]]
            if p.firefighting is None:
                problems.append(
                    PadProblem(
                        PadCode.TIE_NEEDS_FIREFIGHTING,
                        p.name,
                        "rank",
                        f"{p.name} ties on {sums[p.name]} IKI: give every tied player's firefighting position "
                        "to break the tie (RULINGS R12); until then they share the place.",
                    )
                )
        else:
            space = p.firefighting if p.firefighting is not None else unknown_space[sums[p.name]]
        players.append(PlayerState(name=p.name, firefighting=space))
    stacks = tuple(
        StackPlace(p.name, q.firefighting, p.stack_place)
        for p, q in zip(pad.players, players, strict=True)
        if p.stack_place is not None and q.firefighting >= 0
    )
    return Table(players=tuple(players), stacks=stacks), problems + _stack_problems(pad, sums)


def _stack_problems(pad: Pad, sums: Mapping[str, int]) -> list[PadProblem]:
    """RULINGS R12/R13 on each shared space: two players in one stack place is an error; a tie on the space
    whose stack places are not all given is shared, with a warning asking for them."""
    problems = []
    spaces = {p.firefighting for p in pad.players if p.firefighting is not None}
    for space in sorted(spaces, reverse=True):
        on = [p for p in pad.players if p.firefighting == space]
        seen: dict[int, str] = {}
        for p in on:
            if p.stack_place is None:
                continue
            if p.stack_place in seen:
                problems.append(PadProblem(PadCode.STACK_TWICE, p.name, "rank",
                                           f"{seen[p.stack_place]} and {p.name} cannot both be place "
                                           f"{p.stack_place} in the stack on space {space} (RULINGS R13)."))  # fmt: skip
            seen[p.stack_place] = p.name
        for p in on:
            tied = [q for q in on if q is not p and sums[q.name] == sums[p.name]]
            if tied and p.stack_place is None:
                problems.append(PadProblem(PadCode.TIE_NEEDS_STACK, p.name, "rank",
                                           f"{p.name} ties on {sums[p.name]} IKI on firefighting space {space}: give "
                                           "the places in that stack (1 = top) to break the tie (RULINGS R12); "
                                           "until then they share the place."))  # fmt: skip
    return problems


def check_pad(pad: Pad) -> PadCheck:
    """Every number of the pad that cannot be right, the totals against their lines, and the ranking by the
    lines' sums with the tie-break (RULINGS R12) against any typed rank, all at once."""
    problems: list[PadProblem] = []
    for player in pad.players:
        problems.extend(_check_player(pad, player))
    sums = {p.name: sum(p.lines.get(line, 0) for line in lines_of(pad)) for p in pad.players}
    table, tie_problems = _ranking_table(pad, sums)
    problems.extend(tie_problems)
    places = rank_totals(table, sums)
    checks = []
    for p in pad.players:
        rank, words = places[p.name]
        if any(q.code is PadCode.TIE_NEEDS_FIREFIGHTING and q.player == p.name for q in tie_problems):
            words = None
        if p.rank is not None and p.rank != rank:
            problems.append(
                PadProblem(
                    PadCode.RANK,
                    p.name,
                    "rank",
                    f"{p.name} is placed {rank}, not {p.rank}"
                    + (f": {words}." if words else f", with {sums[p.name]} IKI (RULINGS R12)."),
                )
            )
        checks.append(PlayerCheck(p.name, sums[p.name], rank, words))
    return PadCheck(tuple(checks), tuple(problems))


__all__ = [
    "LINE_WORDS",
    "Pad",
    "PadCheck",
    "PadCode",
    "PadFacts",
    "PadPlayer",
    "PadProblem",
    "Possible",
    "check_pad",
    "possible_lines",
]
