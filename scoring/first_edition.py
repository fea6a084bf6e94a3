"""The 2015 first edition's score pad (cite as "2015"; RULINGS E1-E3), apart from the 2022 rules.

The 2015 text (``iki-original-edition-rules.txt``, "End of the Game") prints no value for the bonus fish, the
tobacco pouches or the construction cards: the table types the values printed on its tokens and cards, and this
module does the rest of the arithmetic and the checks. Its numbers are its own constants: nothing here feeds the
2022 scoring, and nothing of the 2022 catalogue is read. Ties are broken as in 2022 (E3), by the one ranking
function both editions share (:func:`scoring.score.rank_totals`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from scoring.padcheck import (
    Edition,
    Pad,
    PadCheck,
    PadCode,
    PadPlayer,
    PadProblem,
    Possible,
    check_pad,
    conflict_problem,
    first_conflict,
    minimal_sets,
    or_list,
)
from scoring.problems import Problem
from scoring.rules import TRACK_MAX
from scoring.score import POWER, rank_totals
from scoring.table import PlayerState, StackPlace, Table

#: 2015 "Set Collection Bonus of Occupation Cards": 1/4/9/16/25 IKI for 1-5 types (E1; the text's "Q" is 9).
VARIETY_2015: Final = (0, 1, 4, 9, 16, 25)
#: 2015 "Fish Bonus": 3/6/10/15 IKI for fish of 1-4 different seasons (E1).
FISH_2015: Final = (0, 3, 6, 10, 15)
#: 2015 "Resources": Koban 3, Lumber 1, every five mon 1; rice bales and sandals 0 (E1).
KOBAN_2015: Final = 3
LUMBER_2015: Final = 1
MON_PER_POINT_2015: Final = 5
#: 2015 "Components": 4 pipe tokens, 4 tobacco pouch tokens, 6 construction cards, 8 fish tokens (2 a season).
PIPES_2015: Final = 4
POUCHES_2015: Final = 4
CONSTRUCTIONS_2015: Final = 6
FISH_PER_SEASON_2015: Final = 2
SEASONS_2015: Final = 4
TYPES_2015: Final = 5

LINES_2015: Final = ("score_track", "variety", "fish", "tobacco", "buildings", "resources")
LINE_LABELS_2015: Final = {
    "score_track": "IKI gained during play",
    "variety": "Set collection (occupation types)",
    "fish": "Fish bonus",
    "tobacco": "Tobacco pouches",
    "buildings": "Construction cards",
    "resources": "Resources",
}


class Code2015(StrEnum):
    NEGATIVE = "negative-number"
    TOO_MANY_TYPES = "too-many-types"
    TOO_MANY_SEASONS = "too-many-seasons"
    BONUS_FISH_WITHOUT_SEASON = "bonus-fish-without-season"
    BONUS_FISH_TWICE = "bonus-fish-twice"
    SUPPLY = "more-than-the-supply"
    TRACK = "track-out-of-range"
    STACK = "stack-place-twice"
    TIE_NEEDS_FIREFIGHTING = "tie-needs-firefighting"
    MANY_CONSTRUCTIONS = "many-construction-cards"


#: 2015 E5: legal but worth a second look, or a fact missing; the pad is still added up.
WARNING_CODES_2015: Final = frozenset({Code2015.TIE_NEEDS_FIREFIGHTING, Code2015.MANY_CONSTRUCTIONS})
#: 2015 E5: 4 Kobuns are implied, so more construction cards than this for one player is worth a second look.
CONSTRUCTIONS_EACH_2015: Final = 4


@dataclass(frozen=True, slots=True)
class Player2015:
    """One column of the 2015 pad, as the table reads it off the board. ``bonito`` and ``sea_bream`` are the
    printed values of the bonus summer and winter fish when the player holds them (None when not); ``pouches``
    and ``constructions`` the printed values of each pouch and construction card held."""

    name: str
    score_track: int = 0
    types: int = 0
    fish_seasons: int = 0
    bonito: int | None = None
    sea_bream: int | None = None
    pouches: tuple[int, ...] = ()
    pipes: int = 0
    constructions: tuple[int, ...] = ()
    koban: int = 0
    lumber: int = 0
    mon: int = 0
    firefighting: int | None = None  # None: not typed (E5), unknown
    stack_place: int | None = None  # 1 = top of the player's firefighting space (E3)


@dataclass(frozen=True, slots=True)
class Problem2015(Problem[Code2015]):
    """A problem of a 2015 pad (E1-E5), shaped as every validator's (scoring.problems)."""

    @property
    def warning(self) -> bool:
        return self.code in WARNING_CODES_2015


@dataclass(frozen=True, slots=True)
class Score2015:
    name: str
    lines: dict[str, int]
    explanations: dict[str, str]
    total: int
    rank: int
    tie_break: str | None


def _player_problems(p: Player2015) -> list[Problem2015]:
    out = []
    numbers = {
        "score_track": p.score_track, "types": p.types, "fish_seasons": p.fish_seasons, "pipes": p.pipes,
        "koban": p.koban, "lumber": p.lumber, "mon": p.mon, "firefighting": p.firefighting or 0,
        "bonito": p.bonito or 0, "sea_bream": p.sea_bream or 0,
        **{f"pouches[{i}]": v for i, v in enumerate(p.pouches)},
        **{f"constructions[{i}]": v for i, v in enumerate(p.constructions)},
    }  # fmt: skip
    for name, value in numbers.items():
        if value < 0:
            out.append(Problem2015(Code2015.NEGATIVE, p.name, name, f"{p.name}: {name} {value} is negative."))
    if p.types > TYPES_2015:
        out.append(Problem2015(Code2015.TOO_MANY_TYPES, p.name, "types",
                               f"{p.name}: {p.types} types, but there are {TYPES_2015} (2015, E1)."))  # fmt: skip
    if p.fish_seasons > SEASONS_2015:
        out.append(Problem2015(Code2015.TOO_MANY_SEASONS, p.name, "fish_seasons",
                               f"{p.name}: fish of {p.fish_seasons} seasons, but there are 4 (2015, E1)."))  # fmt: skip
    bonus = (p.bonito is not None) + (p.sea_bream is not None)
    if bonus > p.fish_seasons:
        out.append(Problem2015(
            Code2015.BONUS_FISH_WITHOUT_SEASON, p.name, "fish_seasons",
            f"{p.name}: a bonus summer or winter fish is a fish of its season; fish of {p.fish_seasons} "
            f"season(s) cannot hold {bonus} bonus fish (2015, E1).",
        ))  # fmt: skip
    if len(p.constructions) > CONSTRUCTIONS_EACH_2015:
        out.append(Problem2015(
            Code2015.MANY_CONSTRUCTIONS, p.name, "constructions",
            f"{p.name}: {len(p.constructions)} construction cards, but each needs a Kobun and a player has 4: "
            "legal as printed, worth a second look.",
        ))  # fmt: skip
    if p.firefighting is not None and not 0 <= p.firefighting <= TRACK_MAX:
        out.append(Problem2015(Code2015.TRACK, p.name, "firefighting",
                               f"{p.name}: firefighting {p.firefighting} is off the 0-10 track."))  # fmt: skip
    return out


def _supply(label: str, field: str, held: int, supply: int) -> list[Problem2015]:
    if held <= supply:
        return []
    return [Problem2015(Code2015.SUPPLY, None, field,
                        f"The table holds {held} {label}; the 2015 box has {supply}.")]  # fmt: skip


def check_2015(players: Sequence[Player2015]) -> list[Problem2015]:
    """Every problem of a 2015 pad at once: negative numbers, more types or seasons than exist, a bonus fish
    without a fish of its season, more pouches, pipes, construction cards or fish of a season than the box
    holds, a bonus fish held twice. No one-fish-per-season check: the 2015 text states none (E2)."""
    out = [problem for p in players for problem in _player_problems(p)]
    out += _supply("tobacco pouches", "pouches", sum(len(p.pouches) for p in players), POUCHES_2015)
    out += _supply("pipes", "pipes", sum(p.pipes for p in players), PIPES_2015)
    out += _supply("construction cards", "constructions", sum(len(p.constructions) for p in players),
                   CONSTRUCTIONS_2015)  # fmt: skip
    out += _supply("fish seasons", "fish_seasons", sum(p.fish_seasons for p in players),
                   FISH_PER_SEASON_2015 * SEASONS_2015)  # fmt: skip
    for fish, label in (("bonito", "summer bonito"), ("sea_bream", "winter sea bream")):
        holders = [p.name for p in players if getattr(p, fish) is not None]
        if len(holders) > 1:
            out.append(Problem2015(Code2015.BONUS_FISH_TWICE, None, fish,
                                   f"One {label} exists (2015 \"Fish Bonus\"); {', '.join(holders)} both hold it."))  # fmt: skip
    out += _tie_warnings(players)
    places: dict[tuple[int | None, int], str] = {}
    for p in players:
        if p.stack_place is None or p.firefighting is None:
            continue
        key = (p.firefighting, p.stack_place)
        if key in places:
            out.append(Problem2015(Code2015.STACK, p.name, "stack_place",
                                   f"{p.name} and {places[key]} cannot both be place {p.stack_place} in the stack "
                                   f"on space {p.firefighting}."))  # fmt: skip
        places[key] = p.name
    return out


def _tie_warnings(players: Sequence[Player2015]) -> list[Problem2015]:
    """E5: a blank firefighting power is unknown; a tie it would break is warned about (they share the place)."""
    totals = {p.name: sum(lines_2015(p)[0].values()) for p in players}
    out = []
    for p in players:
        tied = [q for q in players if q is not p and totals[q.name] == totals[p.name]]
        if tied and p.firefighting is None:
            out.append(Problem2015(
                Code2015.TIE_NEEDS_FIREFIGHTING, p.name, "firefighting",
                f"{p.name} ties on {totals[p.name]} IKI: type every tied player's firefighting power to break "
                "the tie; until then they share the place.",
            ))  # fmt: skip
    return out


def lines_2015(p: Player2015) -> tuple[dict[str, int], dict[str, str]]:
    """One player's lines and how each was made (E1)."""
    fish_bonus = (p.bonito or 0) + (p.sea_bream or 0)
    fish = FISH_2015[min(p.fish_seasons, SEASONS_2015)] + fish_bonus
    pouches = sum(p.pouches)
    tobacco = pouches * 2 if p.pipes else pouches
    resources = p.koban * KOBAN_2015 + p.lumber * LUMBER_2015 + p.mon // MON_PER_POINT_2015
    lines = {
        "score_track": p.score_track,
        "variety": VARIETY_2015[min(p.types, TYPES_2015)],
        "fish": fish,
        "tobacco": tobacco,
        "buildings": sum(p.constructions),
        "resources": resources,
    }
    bonus_words = "".join(
        f" + {label} {value}" for label, value in (("bonito", p.bonito), ("sea bream", p.sea_bream))
        if value is not None
    )  # fmt: skip
    pouch_words = " + ".join(str(v) for v in p.pouches) or "no pouch"
    words = {
        "score_track": f"{p.score_track} IKI gained during play",
        "variety": f"{p.types} type(s) = {lines['variety']}",
        "fish": f"fish of {p.fish_seasons} season(s) {FISH_2015[min(p.fish_seasons, SEASONS_2015)]}"
        f"{bonus_words} = {fish}",
        "tobacco": "no pouch = 0"
        if not p.pouches
        else f"{pouch_words} = {pouches}" + (f", doubled by a pipe = {tobacco}" if p.pipes else " (no pipe)"),
        "buildings": (" + ".join(str(v) for v in p.constructions) or "no construction card")
        + f" = {lines['buildings']}",
        "resources": f"{p.koban} koban × 3 + {p.lumber} lumber + {p.mon} mon ÷ 5 = {resources}",
    }
    return lines, words


def _space(p: Player2015, players: Sequence[Player2015], totals: dict[str, int]) -> int:
    """The space the tie-break reads: a tie with a blank power among its players shares the place (E5): they
    sit together on a space of their own below the track."""
    tied = [q for q in players if totals[q.name] == totals[p.name]]
    if len(tied) > 1 and any(q.firefighting is None for q in tied):
        return -1 - sorted(set(totals.values())).index(totals[p.name])
    return p.firefighting if p.firefighting is not None else 0


def score_2015(players: Sequence[Player2015]) -> list[Score2015]:
    """The 2015 pad of a table :func:`check_2015` accepts: each line, the total and the rank, ties broken by
    firefighting power, then the higher marker (E3, as RULINGS R12)."""
    scored = [(p, *lines_2015(p)) for p in players]
    totals = {p.name: sum(lines.values()) for p, lines, _ in scored}
    spaces = {p.name: _space(p, players, totals) for p in players}
    table = Table(
        players=tuple(PlayerState(name=p.name, firefighting=spaces[p.name]) for p in players),
        stacks=tuple(StackPlace(p.name, spaces[p.name], p.stack_place) for p in players
                     if p.stack_place and spaces[p.name] >= 0),
    )  # fmt: skip
    places = rank_totals(table, totals, POWER)
    return [Score2015(p.name, lines, words, totals[p.name], *places[p.name]) for p, lines, words in scored]


# --- checking a typed 2015 pad (RULINGS E1-E5, R20-R22) ----------------------------------------------------------

#: The words a message uses for each 2015 line.
WORDS_2015: Final = MappingProxyType(
    {
        "score_track": "score track",
        "variety": "variety",
        "fish": "fish",
        "tobacco": "tobacco",
        "buildings": "construction cards",
        "resources": "resources",
    }
)
#: 2015 "Components": the 8 fish tokens, 2 a season (id, season); one summer fish is the bonus bonito and one
#: winter fish the bonus sea bream (RULINGS E4), the only fish with a printed value.
FISH_TOKENS_2015: Final = (
    ("spring-1", "spring"), ("spring-2", "spring"), ("summer", "summer"), ("bonito", "summer"),
    ("autumn-1", "autumn"), ("autumn-2", "autumn"), ("winter", "winter"), ("sea-bream", "winter"),
)  # fmt: skip
#: A printed value nobody typed stands for any whole number from this up ("extra IKI points", 2015 "Fish Bonus").
BONUS_LEAST_2015: Final = 1
#: Above every line a pad can hold (the form refuses more): an open-ended set of values is listed up to here.
LINE_TOP_2015: Final = 1000


@dataclass(frozen=True, slots=True)
class Counts2015:
    """What a player ends with that the resources line is made of (2015 "Resources"); None: not typed."""

    koban: int | None = None
    lumber: int | None = None
    mon: int | None = None


@dataclass(frozen=True, slots=True)
class Facts2015:
    """The printed values the 2015 text does not give, typed once for the table (None: not typed, unknown,
    RULINGS E1 and R20): the bonus bonito and sea bream, the 4 tobacco pouches and the 6 construction cards; and
    each player's koban, lumber and mon, by name."""

    bonito: int | None = None
    sea_bream: int | None = None
    pouches: tuple[int, ...] | None = None
    constructions: tuple[int, ...] | None = None
    counts: Mapping[str, Counts2015] = field(default_factory=lambda: MappingProxyType({}))


def _from(line: str, low: int, rule: str) -> Possible:
    """Every whole number from ``low`` (listed up to :data:`LINE_TOP_2015`)."""
    if low <= 0:
        return Possible(line, None, rule)
    return Possible(line, frozenset(range(low, LINE_TOP_2015)), rule)


def _bonus(facts: Facts2015) -> dict[str, int | None]:
    return {"bonito": facts.bonito, "sea-bream": facts.sea_bream}


def _fish_made(bonito: int | None, sea_bream: int | None) -> tuple[tuple[frozenset[str], int, bool], ...]:
    """Every set of fish tokens one player can hold, with its fish line (3/6/10/15 for 1-4 seasons plus the
    bonus fish held, RULINGS E1) and whether that is only the least it makes (a bonus nobody typed: any more).
    No one-fish-per-season rule (RULINGS E2): both fish of a season may be one player's."""
    bonus = {"bonito": bonito, "sea-bream": sea_bream}
    out = []
    for n in range(len(FISH_TOKENS_2015) + 1):
        for held in itertools.combinations(FISH_TOKENS_2015, n):
            seasons = len({season for _, season in held})
            ids = frozenset(token for token, _ in held)
            values = [bonus[t] for t in ids if t in bonus]
            least = FISH_2015[seasons] + sum(v if v is not None else BONUS_LEAST_2015 for v in values)
            out.append((ids, least, None in values))
    return tuple(out)


def _makes(value: int, least: int, open_ended: bool) -> bool:
    return value == least or (open_ended and value > least)


def _subset_sums(values: Sequence[int]) -> dict[int, list[frozenset[str]]]:
    """Every sum of some of the cards or tokens of printed ``values`` (ids are their places), with the sets."""
    out: dict[int, list[frozenset[str]]] = {}
    for n in range(len(values) + 1):
        for picked in itertools.combinations(range(len(values)), n):
            out.setdefault(sum(values[i] for i in picked), []).append(frozenset(str(i) for i in picked))
    return out


def _tobacco_made(pouches: Sequence[int], pipe: bool | None) -> dict[int, list[frozenset[str]]]:
    """Each tobacco line with the pouches that make it: their printed values, doubled with a pipe (2015
    "Tobacco Pouches"); with the pipe not said, either."""
    out: dict[int, list[frozenset[str]]] = {}
    for total, sets in _subset_sums(pouches).items():
        for factor in {True: (2,), False: (1,), None: (1, 2)}[pipe]:
            out.setdefault(total * factor, []).extend(sets)
    return out


def _values_words(values: Sequence[int]) -> str:
    return or_list(values).replace(" or ", " and ")


def _fish_rule(facts: Facts2015) -> str:
    said = [
        f"the bonus {name} ({value if value is not None else 'its printed value'})"
        for name, value in (("bonito", facts.bonito), ("sea bream", facts.sea_bream))
    ]
    return f"3, 6, 10 or 15 for fish of 1-4 seasons, plus {said[0]} and {said[1]} when held"


def possible_2015(facts: Facts2015, player: PadPlayer) -> dict[str, Possible]:
    """Each 2015 line's values for one player (RULINGS E1): variety 0/1/4/9/16/25; fish from the seasons and the
    bonus fish; tobacco from the typed pouches, doubled with a pipe; construction cards from the typed cards;
    resources from the koban, lumber and mon typed. A printed value not typed leaves its line open (R20)."""
    made = _fish_made(facts.bonito, facts.sea_bream)
    fish = {least for _, least, open_ended in made if not open_ended}
    open_from = min((least for _, least, open_ended in made if open_ended), default=LINE_TOP_2015)
    fish |= set(range(open_from, LINE_TOP_2015))
    out = {
        "score_track": Possible("score_track", None, "the IKI gained during play: any whole number from 0"),
        "variety": Possible("variety", frozenset(VARIETY_2015), "1, 4, 9, 16 or 25 for 1-5 occupation types, 0 with none"),
        "fish": Possible("fish", frozenset(fish), _fish_rule(facts)),
    }  # fmt: skip
    if facts.pouches is None:
        out["tobacco"] = Possible(
            "tobacco", None, "the pouches' printed values, doubled with a pipe (so even)" if player.pipe
            else "the pouches' printed values, doubled with a pipe", even=bool(player.pipe),
        )  # fmt: skip
    else:
        doubled = {
            True: ", doubled by the pipe",
            False: ", not doubled (no pipe)",
            None: ", doubled with a pipe",
        }[player.pipe]
        out["tobacco"] = Possible(
            "tobacco", frozenset(_tobacco_made(facts.pouches, player.pipe)),
            f"the sum of the pouches held (of {_values_words(facts.pouches)}){doubled}",
        )  # fmt: skip
    if facts.constructions is None:
        out["buildings"] = Possible("buildings", None, "the construction cards' printed values")
    else:
        out["buildings"] = Possible(
            "buildings", frozenset(_subset_sums(facts.constructions)),
            f"the sum of the construction cards held (of {_values_words(facts.constructions)})",
        )  # fmt: skip
    out["resources"] = _resources(facts.counts.get(player.name, Counts2015()))
    return out


def _resources(counts: Counts2015) -> Possible:
    """2015 "Resources": koban 3, lumber 1, every five mon 1; with a count not typed, at least the rest's."""
    parts = [(counts.koban, KOBAN_2015, "koban × 3"), (counts.lumber, LUMBER_2015, "lumber"),
             (counts.mon, None, "mon ÷ 5")]  # fmt: skip
    least = sum((n * unit if unit else n // MON_PER_POINT_2015) for n, unit, _ in parts if n is not None)
    said = " + ".join(f"{n} {words}" for n, _, words in parts if n is not None)
    if all(n is not None for n, _, _ in parts):
        return Possible("resources", frozenset({least}), f"{said} = {least}")
    if said:
        return _from("resources", least, f"{said} = {least}, plus what was not typed: at least {least}")
    return Possible("resources", None, "koban 3, lumber 1, every five mon 1: any whole number from 0")


def _candidates_2015(facts: Facts2015, player: PadPlayer, line: str) -> list[frozenset[str]] | None:
    """The sets of fish tokens, pouches or construction cards one player's typed line can be made of; None when
    the printed values are not typed (the supply binds nothing then)."""
    value = player.lines[line]
    if line == "fish":
        return [ids for ids, least, open_ended in _fish_made(facts.bonito, facts.sea_bream)
                if _makes(value, least, open_ended)]  # fmt: skip
    if line == "tobacco" and facts.pouches is not None:
        return _tobacco_made(facts.pouches, player.pipe).get(value, [])
    if line == "buildings" and facts.constructions is not None:
        return _subset_sums(facts.constructions).get(value, [])
    return None


#: What each line binds across the table, in the words a message uses (2015 "Components").
SUPPLY_WORDS_2015: Final = MappingProxyType(
    {
        "fish": "fish tokens (2 a season, one bonus bonito and one bonus sea bream)",
        "tobacco": f"tobacco pouches ({POUCHES_2015}, each once)",
        "buildings": f"construction cards ({CONSTRUCTIONS_2015}, each once)",
    }
)


def table_2015(facts: Facts2015, pad: Pad, flagged: set[tuple[str, str]]) -> list[PadProblem]:
    """RULINGS R22 for 2015: each fish token, pouch and construction card exists once, so the smallest group of
    players whose typed lines cannot all be made of different ones is an error; one player's construction cards
    that need more than 4 cards is a warning (RULINGS E5)."""
    problems = []
    for line in ("fish", "tobacco", "buildings"):
        candidates: dict[str, list[frozenset[str]]] = {}
        for p in pad.players:
            if line not in p.lines or (p.name, line) in flagged or p.lines[line] < 0:
                continue
            found = _candidates_2015(facts, p, line)
            if found:
                candidates[p.name] = list(minimal_sets(found))
        if line == "buildings":
            for name, sets in candidates.items():
                if min(len(s) for s in sets) > CONSTRUCTIONS_EACH_2015:
                    problems.append(PadProblem(
                        PadCode.MANY_CONSTRUCTIONS, name, line,
                        f"{name}'s construction cards {pad_line(pad, name, line)} need {min(len(s) for s in sets)} cards, "
                        f"but each needs a Kobun and a player has {CONSTRUCTIONS_EACH_2015}: worth a second look.",
                    ))  # fmt: skip
        conflict = first_conflict(candidates)
        if conflict is not None:
            problems.append(conflict_problem(pad, line, conflict, WORDS_2015, SUPPLY_WORDS_2015[line]))
    return problems


def pad_line(pad: Pad, name: str, line: str) -> int:
    return next(p.lines[line] for p in pad.players if p.name == name)


def edition_2015(facts: Facts2015) -> Edition:
    """The 2015 pad's rules for :func:`scoring.padcheck.check_pad`, with the table's printed values."""
    return Edition(
        words=WORDS_2015,
        possible=lambda _pad, player: possible_2015(facts, player),
        table=functools.partial(table_2015, facts),
    )


def check_pad_2015(pad: Pad, facts: Facts2015) -> PadCheck:
    """Every number of a typed 2015 pad that cannot be right and why, all at once (RULINGS E1-E5, R20-R22): each
    line against its possible values, each total whose lines are all typed against their sum, the places by the
    totals and the tie-break (E3), and the fish, pouches and construction cards across the table."""
    return check_pad(pad, edition_2015(facts))


__all__ = [
    "FISH_TOKENS_2015",
    "LINES_2015",
    "WARNING_CODES_2015",
    "WORDS_2015",
    "Code2015",
    "Counts2015",
    "Facts2015",
    "Player2015",
    "Problem2015",
    "Score2015",
    "check_2015",
    "check_pad_2015",
    "edition_2015",
    "possible_2015",
    "score_2015",
]
