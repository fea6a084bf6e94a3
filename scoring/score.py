"""End-game scoring: the score pad lines of RULINGS R3-R10, totals, and the ranking of R12.

Every line comes with a one-line explanation that shows how its number was made, in the words of the score pad
("3 fish 10 + summer bonus 7 + spring bonus 1 = 18"). Scoring assumes a table the validator accepted
(:func:`scoring.validate.validate` reports no error); :func:`scoring.evaluate` enforces that.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from scoring import catalogue as cat
from scoring.components import (
    CHAR_TYPES,
    BuildingRule,
    CharType,
    Expansion,
    PersonalityRule,
    TobaccoRule,
    Wild,
)
from scoring.problems import join
from scoring.table import PlayerState, Table

#: RULINGS R4: 1/4/9/16/25 IKI for 1..5 distinct types.
VARIETY_POINTS: Final = (0, 1, 4, 9, 16, 25)
#: RULINGS R6: 3/6/10/15 IKI for 1..4 fish.
FISH_POINTS: Final = (0, 3, 6, 10, 15)
MAX_FISH: Final = 4
#: RULINGS R9: koban 3, wood 1, 1 per full 4 mon.
KOBAN_POINTS: Final = 3
MON_PER_POINT: Final = 4

#: Score pad lines in the pad's order (RULINGS R3); Akebono adds ``personalities``.
BASE_LINES: Final = ("score_track", "variety", "fish", "tobacco", "buildings", "resources")
AKEBONO_LINES: Final = (*BASE_LINES, "personalities")
LINE_LABELS: Final = {
    "score_track": "Score track",
    "variety": "Characters variety",
    "fish": "Fish",
    "tobacco": "Tobacco pouches",
    "buildings": "Buildings",
    "resources": "Resources",
    "personalities": "Personalities",
}


def lines_for(akebono: bool) -> tuple[str, ...]:
    return AKEBONO_LINES if akebono else BASE_LINES


# --- what a player's board holds -------------------------------------------------------------------------------


def wild_kind(card_id: str, player: PlayerState) -> Wild:
    """Whether this card's type is its owner's choice for this player (RULINGS R5)."""
    card = cat.CHARACTER_BY_ID.get(card_id)
    if card is None or card.wild is Wild.NO:
        return Wild.NO
    if card.wild is Wild.WHEN_RETIRED and "puppeteer" not in player.retirement_tokens:
        return Wild.NO  # an unretired Puppeteer is a Special character
    return card.wild


def effective_type(card_id: str, player: PlayerState) -> CharType | None:
    """The type a card counts as on this player's board; None for a wild card whose type was not chosen."""
    if card_id in cat.WILD_IDS and wild_kind(card_id, player) is not Wild.NO:
        return player.wild_types.get(card_id)
    return cat.PRINTED_TYPE[card_id]


class Board(NamedTuple):
    """The type columns of a player's board at game end (RULINGS R4/R5), with the facts scoring asks of them."""

    counts: Mapping[CharType, int]
    distinct: int
    largest: int


def board_of(player: PlayerState) -> Board:
    counts = dict.fromkeys(CHAR_TYPES, 0)
    for card in player.characters:
        t = effective_type(card, player)
        if t is not None:
            counts[t] += 1
    values = counts.values()
    return Board(counts, len(values) - list(values).count(0), max(values))


def new_character_count(player: PlayerState) -> int:
    return sum(1 for c in player.characters if c in cat.NEW_CHARACTER_IDS)


# --- firefighting order (RULINGS R12) --------------------------------------------------------------------------


def usable_order(table: Table) -> Mapping[str, int] | None:
    """Each player's index in ``firefighting_order`` when it lists every player once, highest position first
    (RULINGS R12); None when it is not given or the validator refuses it."""
    order = table.firefighting_order
    if order is None:
        return None
    position = {p.name: p.firefighting for p in table.players}
    if len(position) != len(table.players) or sorted(order) != sorted(position):
        return None
    if any(position[a] < position[b] for a, b in itertools.pairwise(order)):
        return None
    return {name: i for i, name in enumerate(order)}


def stack_order(table: Table, space: int, names: Sequence[str]) -> list[str] | None:
    """The players on ``space`` top first, or None when their places are not all known (RULINGS R12): a
    space's stack counts only when every player on it has one place, all different."""
    if len(names) == 1:
        return list(names)
    given = usable_order(table)
    if given is not None:
        return sorted(names, key=given.__getitem__)
    place: dict[str, int] = {}
    for sp in table.stacks:
        if sp.space == space and sp.name in names:
            if sp.name in place:
                return None
            place[sp.name] = sp.place
    if sorted(place.values()) != list(range(1, len(names) + 1)) or len(place) != len(names):
        return None
    return sorted(names, key=place.__getitem__)


def spaces_of(table: Table) -> dict[int, list[str]]:
    """The players on each firefighting space, highest space first."""
    by_space: dict[int, list[str]] = {}
    for p in sorted(table.players, key=lambda p: -p.firefighting):
        by_space.setdefault(p.firefighting, []).append(p.name)
    return by_space


def firefighting_groups(table: Table) -> list[list[str]]:
    """Players from first to last in firefighting order, grouped where the order cannot separate them.

    RULINGS R12, space by space: a space whose stack is known (``firefighting_order``, or every player on it
    placed in ``stacks``) gives one group per player, top first; the players of any other space share a group.
    """
    groups: list[list[str]] = []
    for space, names in spaces_of(table).items():
        ordered = stack_order(table, space, names)
        if ordered is None:
            groups.append(names)
        else:
            groups.extend([name] for name in ordered)
    return groups


def last_group(table: Table) -> tuple[str, ...]:
    """The players who may be last in firefighting order: one when known, several sharing the last space
    unordered (Ryōkan, RULINGS R10/R12), none for a table without players."""
    groups = firefighting_groups(table)
    return tuple(groups[-1]) if groups else ()


# --- lines -----------------------------------------------------------------------------------------------------


class Line(NamedTuple):
    """A score pad line: its points, and a function making the one-line explanation of how they were made, so
    callers that need only the points (running totals) never pay for the text."""

    points: int
    explain: Callable[[], str]

    @property
    def explanation(self) -> str:
        return self.explain()

    def __repr__(self) -> str:
        return f"Line({self.points}, {self.explanation!r})"


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _sum_text(parts: Sequence[tuple[str, int]], total: int, empty: str) -> str:
    if not parts:
        return f"{empty} = 0"
    body = " + ".join([f"{label} {points}" for label, points in parts])
    if "+ -" in body:
        body = body.replace("+ -", "- ")
    return f"{body} = {total}"


def variety_line(board: Board, player: PlayerState) -> Line:
    n = board.distinct
    points = VARIETY_POINTS[n]
    if not n:
        unset = [cat.CHARACTER_BY_ID[c].name for c in player.characters if effective_type(c, player) is None]
        if unset:  # RULINGS R13 as amended: a wild card without its type counts as no type
            return Line(0, lambda: f"no type yet ({', '.join(unset)}: type not chosen) = 0")
        return Line(0, lambda: "no characters = 0")

    def explain() -> str:
        names = ", ".join(t.label for t in CHAR_TYPES if board.counts[t])
        chosen = "".join(
            f"; {cat.CHARACTER_BY_ID[card].name} as {t.label}" for card, t in player.wild_types.items()
        ) + "".join(
            f"; {cat.CHARACTER_BY_ID[c].name}: type not chosen"
            for c in player.characters
            if c in cat.WILD_IDS and effective_type(c, player) is None
        )
        return f"{_plural(n, 'type')} ({names}{chosen}) = {points}"

    return Line(points, explain)


_FISH_BONUS_LABEL: Final = {
    t.id: (f"Akebono {t.season} fish" if t.expansion is Expansion.AKEBONO else f"{t.season} bonus")
    if t.season
    else "Fisherman bonus"
    for t in cat.TOKENS
    if t.points
}


def fish_count(player: PlayerState) -> int:
    """RULINGS R6 via R14: the different seasons among the seasonal fish ("Depending on **different** seasons'
    fishes"), plus one for the Fisherman token; two winter fish count once."""
    seasons = {cat.TOKEN_BY_ID[f].season for f in player.fish}
    return len(seasons) - (None in seasons) + player.fish.count("fish-fisherman")


def fish_line(player: PlayerState) -> Line:
    """RULINGS R6: set value for the number of fish plus each token's end-game bonus (every token's own)."""
    if not player.fish:
        return Line(0, lambda: "no fish = 0")
    k = fish_count(player)
    base = FISH_POINTS[min(k, MAX_FISH)]
    held = len(player.fish)
    counted = _plural(k, "fish", "fish") + (f" (of {held}: two winter fish count once)" if k != held else "")
    parts: list[tuple[str, int]] = [(counted, base)]
    for token_id in player.fish:
        token = cat.TOKEN_BY_ID[token_id]
        if token.points:
            label = _FISH_BONUS_LABEL[token_id]
            parts.append((label, token.points))
    total = sum([p for _, p in parts])
    return Line(total, lambda: _sum_text(parts, total, "no fish"))


def tobacco_value(rule: TobaccoRule, fixed: int, player: PlayerState, board: Board) -> tuple[int, str]:
    """One pouch's value before doubling (RULINGS R7), with what it counted."""
    if rule is TobaccoRule.FIXED:
        return fixed, ""
    if rule is TobaccoRule.HALF_FIREFIGHTING:
        return player.firefighting // 2, f"firefighting {player.firefighting} ÷ 2"
    if rule is TobaccoRule.DISTINCT_TYPES:
        return board.distinct, _plural(board.distinct, "type")
    if rule is TobaccoRule.LARGEST_COLUMN:
        return board.largest, f"largest type column {board.largest}"
    if rule is TobaccoRule.QUARTER_MON:
        return player.mon // MON_PER_POINT, f"{player.mon} mon ÷ 4"
    if rule is TobaccoRule.PERSONALITIES:
        n = len(player.personalities)
        return n, _plural(n, "personality", "personalities")
    if rule is TobaccoRule.HALF_TRADE:
        return player.trade // 2, f"trade {player.trade} ÷ 2"
    if rule is TobaccoRule.KOBANS:
        return player.koban, _plural(player.koban, "koban")
    specials = board.counts[CharType.SPECIAL]
    return specials, _plural(specials, "special character")


def tobacco_line(player: PlayerState, board: Board) -> Line:
    if not player.tobacco:
        return Line(0, lambda: "no tobacco pouch = 0")
    parts: list[tuple[str, int]] = []
    for token_id in player.tobacco:
        token = cat.TOKEN_BY_ID[token_id]
        assert token.tobacco_rule is not None
        value, counted = tobacco_value(token.tobacco_rule, token.points, player, board)
        name = token.name if not counted else f"{token.name.split(' (')[0]} ({counted})"
        parts.append((name, value))
    subtotal = sum([p for _, p in parts])
    pipes = len(player.pipes)
    if pipes:
        return Line(
            subtotal * 2,
            lambda: f"{_sum_text(parts, subtotal, '')}, doubled by {_plural(pipes, 'pipe')} = {subtotal * 2}",
        )
    return Line(subtotal, lambda: f"{_sum_text(parts, subtotal, '')} (no pipe: not doubled)")


#: What a per-unit building counts (RULINGS R8), and the words for one unit and for several.
_BUILDING_UNITS: Final[dict[BuildingRule, tuple[Callable[[PlayerState, Board], int], str, str]]] = {
    BuildingRule.PER_SANDAL: (lambda p, b: p.sandals, "sandal", "sandals"),
    BuildingRule.PER_RICE: (lambda p, b: p.rice, "rice", "rice"),
    BuildingRule.PER_FIREFIGHTING: (lambda p, b: p.firefighting, "firefighting space", "firefighting spaces"),
    BuildingRule.PER_BOAT: (lambda p, b: len(p.boats), "boat", "boats"),
    BuildingRule.PER_TYPE: (lambda p, b: b.distinct, "type", "types"),
    BuildingRule.PER_TOKEN: (lambda p, b: len(p.fish) + len(p.pipes) + len(p.tobacco), "token", "tokens"),
    BuildingRule.PER_LARGEST_COLUMN: (
        lambda p, b: b.largest,
        "card in the largest column",
        "cards in the largest column",
    ),
    BuildingRule.PER_PERSONALITY: (lambda p, b: len(p.personalities), "personality", "personalities"),
    BuildingRule.PER_TRADE: (lambda p, b: p.trade, "trade space", "trade spaces"),
}


def building_value(building_id: str, player: PlayerState, board: Board, fish: int) -> tuple[int, str]:
    """RULINGS R8. ``fish`` is the player's fish line (Restaurant)."""
    b = cat.BUILDING_BY_ID[building_id]
    rule = b.rule
    if rule is BuildingRule.FIXED:
        return b.points, ""
    if rule is BuildingRule.FISH_LINE:
        return fish, "= fish line"
    count, one, several = _BUILDING_UNITS[rule]
    unit = count(player, board)
    value = b.points * unit
    counted = f"{b.points} × {_plural(unit, one, several)}"
    if b.cap is not None and value > b.cap:
        return b.cap, f"{counted}, max {b.cap}"
    return value, counted


def buildings_line(player: PlayerState, board: Board, fish: int) -> Line:
    parts = []
    for building_id in player.buildings:
        value, counted = building_value(building_id, player, board, fish)
        name = cat.BUILDING_BY_ID[building_id].name
        parts.append((f"{name} ({counted})" if counted else name, value))
    total = sum([p for _, p in parts])
    return Line(total, lambda: _sum_text(parts, total, "no building"))


def resources_line(player: PlayerState) -> Line:
    """RULINGS R9: 3 per koban, 1 per wood, 1 per full 4 mon; rice and sandals score nothing."""
    parts = []
    if player.koban:
        parts.append((_plural(player.koban, "koban"), player.koban * KOBAN_POINTS))
    if player.wood:
        parts.append((_plural(player.wood, "wood", "wood"), player.wood))
    if player.mon:
        parts.append((f"{player.mon} mon", player.mon // MON_PER_POINT))
    total = sum([p for _, p in parts])
    return Line(total, lambda: _sum_text(parts, total, "no koban, wood or mon"))


#: What a threshold personality counts (RULINGS R10), the word for it, and whether it is a minimum.
_PERSONALITY_COUNTS: Final[dict[PersonalityRule, tuple[Callable[[PlayerState, Board], int], str, bool]]] = {
    PersonalityRule.ARTISANS_AT_LEAST: (lambda p, b: b.counts[CharType.ARTISAN], "artisan", True),
    PersonalityRule.MON_AT_MOST: (lambda p, b: p.mon, "mon", False),
    PersonalityRule.CHARACTERS_AT_LEAST: (lambda p, b: len(p.characters), "character", True),
    PersonalityRule.PIPES_AT_LEAST: (lambda p, b: len(p.pipes), "pipe", True),
    PersonalityRule.NEW_CHARACTERS_AT_LEAST: (lambda p, b: new_character_count(p), "New Character", True),
}


def personality_value(
    personality_id: str, player: PlayerState, board: Board, last: tuple[str, ...]
) -> tuple[int, str]:
    """RULINGS R10: the end-game personalities; all others score 0. ``last``: :func:`last_group`."""
    p = cat.PERSONALITY_BY_ID[personality_id]
    rule = p.rule
    if rule is PersonalityRule.NONE:
        return 0, "no end-game scoring"
    if rule is PersonalityRule.BOATS_AND_BUILDINGS:
        boats, buildings = len(player.boats), len(player.buildings)
        return p.points * (
            boats + buildings
        ), f"2 × ({_plural(boats, 'boat')} + {_plural(buildings, 'building')})"
    if rule is PersonalityRule.FULL_SET:
        ok = all((player.pipes, player.tobacco, player.fish, player.boats))
        return (p.points if ok else 0), (
            "pipe, tobacco, fish and boat" if ok else "needs a pipe, tobacco, fish and boat"
        )
    if rule is PersonalityRule.LAST_IN_FIREFIGHTING:
        if player.name not in last:
            return 0, "not last in firefighting"
        if len(last) > 1:  # RULINGS R13: incomplete, not impossible
            return 0, f"not scored until the stack order of space {player.firefighting} is given"
        return p.points, "last in firefighting"
    count, word, at_least = _PERSONALITY_COUNTS[rule]
    have = count(player, board)
    ok = have >= p.threshold if at_least else have <= p.threshold
    counted = f"{have} {word}" if word == "mon" else _plural(have, word)
    need = f"needs {'≥' if at_least else '≤'}{p.threshold}"
    return (p.points if ok else 0), (counted if ok else f"{counted}, {need}")


def personalities_line(player: PlayerState, board: Board, last: tuple[str, ...]) -> Line:
    parts = []
    for personality_id in player.personalities:
        value, why = personality_value(personality_id, player, board, last)
        parts.append((f"{cat.PERSONALITY_BY_ID[personality_id].name} ({why})", value))
    total = sum([p for _, p in parts])
    return Line(total, lambda: _sum_text(parts, total, "no personality"))


# --- the whole table -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerScore:
    name: str
    lines: Mapping[str, Line]
    total: int
    rank: int
    tie_break: str | None


def score_player(player: PlayerState, akebono: bool, last: tuple[str, ...]) -> dict[str, Line]:
    """Every line of one player's pad. ``last``: the players who may be last in firefighting order
    (:func:`last_group`)."""
    board = board_of(player)
    fish = fish_line(player)
    lines = {
        "score_track": Line(player.score_track, lambda: f"{player.score_track} IKI scored during the game"),
        "variety": variety_line(board, player),
        "fish": fish,
        "tobacco": tobacco_line(player, board),
        "buildings": buildings_line(player, board, fish.points),
        "resources": resources_line(player),
    }
    if akebono:
        lines["personalities"] = personalities_line(player, board, last)
    return lines


def _tie_words(
    names: Sequence[str], total: int, groups: list[list[str]], positions: Mapping[str, int], marker: str
) -> str:
    """How a tie on ``total`` is broken (RULINGS R12), each space's players spoken of separately. A space below 0
    stands for positions not given (the pad check's tied players, RULINGS R21): their order is open. ``marker``
    is what the pad calls the firefighting marker's place (:data:`POSITION`, the 2015 pad's :data:`POWER`)."""
    group_of = {name: i for i, g in enumerate(groups) for name in g}
    ordered = sorted(names, key=group_of.__getitem__)
    head = f"{join(ordered)} tie on {total} IKI"
    by_space: dict[int, list[str]] = {}
    for name in ordered:
        by_space.setdefault(positions[name], []).append(name)
    if len(by_space) == len(names):
        detail = ", ".join(f"{n} {positions[n]}" for n in ordered)
        return f"{head}; broken by firefighting {marker} ({detail})"

    def shared(members: list[str]) -> bool:
        return len({group_of[n] for n in members}) == 1

    if len(by_space) == 1:
        ((space, members),) = by_space.items()
        if space < 0:
            return f"{head}; not every firefighting {marker} is given, so their order is open"
        if shared(members):
            return f"{head}; same firefighting space ({space}) and no stack order between them: they share the place"
        return f"{head}; same firefighting space ({space}), broken by its stack ({' above '.join(members)})"
    parts = []
    for space, members in by_space.items():
        if space < 0:
            parts.append(f"{join(members)}: firefighting {marker} not given, order open")
        elif len(members) == 1:
            parts.append(f"{members[0]} on space {space}")
        elif shared(members):
            parts.append(f"{join(members)} share the place: same space, no stack order (space {space})")
        else:
            parts.append(f"{' above '.join(members)} in the stack on space {space}")
    return f"{head}; by firefighting {marker}, then the stack: {'; '.join(parts)}"


def score_table(table: Table) -> list[PlayerScore]:
    """Score a validated table: the lines, totals, ranks and tie-breaks of every player, in input order."""
    last = last_group(table)
    scored = []
    for player in table.players:
        lines = score_player(player, table.akebono, last)
        scored.append((player, lines, sum([line.points for line in lines.values()])))
    places = rank_totals(table, {player.name: total for player, _, total in scored})
    return [PlayerScore(player.name, lines, total, *places[player.name]) for player, lines, total in scored]


#: What the 2022 pad calls the firefighting marker's place, and what the 2015 pad calls it ("Firefighting power").
POSITION: Final = "position"
POWER: Final = "power"


def rank_totals(
    table: Table, totals: Mapping[str, int], marker: str = POSITION
) -> dict[str, tuple[int, str | None]]:
    """Each player's rank and tie-break words for these totals (RULINGS R12): most IKI first, ties to the higher
    firefighting position, then the stack; players the order cannot separate share the place (1, 1, 3).
    ``table`` gives only the positions and the stacks; the 2015 pad ranks the same way ("2015" E3)."""
    groups = firefighting_groups(table)
    group_of = {name: i for i, g in enumerate(groups) for name in g}
    keyed = sorted(totals, key=lambda name: (-totals[name], group_of[name]))
    ranks: dict[str, int] = {}
    previous: tuple[int, int] | None = None
    for i, name in enumerate(keyed):
        key = (totals[name], group_of[name])
        ranks[name] = ranks[keyed[i - 1]] if key == previous else i + 1
        previous = key
    positions = {p.name: p.firefighting for p in table.players}
    by_total: dict[int, list[str]] = {}
    for name, total in totals.items():
        by_total.setdefault(total, []).append(name)
    out: dict[str, tuple[int, str | None]] = {}
    for name, total in totals.items():
        tied = by_total[total]
        out[name] = (
            ranks[name],
            _tie_words(tied, total, groups, positions, marker) if len(tied) > 1 else None,
        )
    return out
