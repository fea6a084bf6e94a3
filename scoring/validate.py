"""The rules validator: every problem of a table at once (RULINGS R13 errors, R14 warnings).

Each problem has a stable code, the player it concerns (or None), the request field that caused it and a
plain-English message naming the cards involved. Scores are computed only for tables with no error.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from types import MappingProxyType
from typing import Final

from scoring import catalogue as cat
from scoring import rules
from scoring.components import SEASONS, Expansion, Season, Wild
from scoring.errors import quote
from scoring.names import name_key
from scoring.problems import Problem as BaseProblem
from scoring.problems import Report as BaseReport
from scoring.problems import join
from scoring.score import (
    MAX_FISH,
    firefighting_groups,
    last_group,
    score_player,
    spaces_of,
    usable_order,
    wild_kind,
)
from scoring.table import LIST_FIELDS, NUMBER_FIELDS, PlayerState, Setup, StackPlace, Table

MAX_BOATS: Final = 2  # RULINGS R13 (Akebono "A player cannot build more than 2 boats")
MAX_BUILDINGS: Final = 4  # RULINGS R13: each building holds one of the 4 Kobuns for good
TRACK_MAX: Final = {"firefighting": rules.TRACK_MAX, "trade": rules.TRACK_MAX}  # RULINGS R11
SCORE_TRACK_WARNING: Final = 150  # RULINGS R14
PLAYED_MONTHS: Final = 12
#: RULINGS R14, an estimate (catalogue INFERRED["character-limit"]): each allowance with the hires it adds.
CHARACTER_ALLOWANCES: Final = (
    ("the starting character", 1),
    ("one hire a month", PLAYED_MONTHS),
    ("Nanpo Ōta's hire", 1),
    ("the Owner token's hire", 1),
    ("the Ferry boat's side A, one more a month", PLAYED_MONTHS),
)
_COUNT_WORDS: Final = {2: "two", 3: "three", 4: "four"}
#: RULINGS R14: up to 2 winter fish (one bought in winter, one on New Year's Day); a third is an error.
MAX_WINTER_FISH: Final = 2


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Code(StrEnum):
    """Stable problem codes. Errors (RULINGS R13) first, then warnings (R14)."""

    PLAYER_COUNT = "player-count"
    DUPLICATE_NAME = "duplicate-name"
    NOT_IN_GAME = "not-in-game"
    DUPLICATE_COMPONENT = "duplicate-component"
    OVER_SUPPLY = "over-supply"
    NOT_IN_SETUP = "not-in-setup"
    SETUP_BUILDINGS = "setup-buildings"
    SETUP_ONGOING = "setup-ongoing-buildings"
    SETUP_PERSONALITIES = "setup-personalities"
    SETUP_BOAT_SIDE = "setup-boat-side"
    FISH_SAME_SEASON = "fish-same-season"
    TOO_MANY_FISH = "too-many-fish"
    TOO_MANY_BOATS = "too-many-boats"
    BOAT_NOT_BUILDABLE = "boat-not-buildable"
    TOO_MANY_BUILDINGS = "too-many-buildings"
    STARTING_CHARACTERS = "starting-characters"
    TOKEN_WITHOUT_SOURCE = "token-without-source"
    WILD_TYPE_NOT_WILD = "wild-type-not-wild"
    WILD_TYPE_NOT_HELD = "wild-type-not-held"
    NEGATIVE = "negative-number"
    TRACK_RANGE = "track-out-of-range"
    FIREFIGHTING_BELOW_GAINS = "firefighting-below-gains"
    TRADE_BELOW_GAINS = "trade-below-gains"
    BUILDINGS_IN_PLAY = "buildings-in-play"
    ONGOING_BUILDINGS_IN_PLAY = "ongoing-buildings-in-play"
    PERSONALITIES_IN_PLAY = "personalities-in-play"
    FIREFIGHTING_ORDER = "firefighting-order"
    STACK_ORDER = "stack-order"
    STACK_PLACE_TAKEN = "stack-place-taken"
    # warnings: what is missing (the table is incomplete, RULINGS R13), then what is worth a second look (R14)
    WILD_TYPE_MISSING = "wild-type-missing"
    FIREFIGHTING_ORDER_NEEDED = "firefighting-order-needed"
    STACK_INCOMPLETE = "stack-incomplete"
    TWO_WINTER_FISH = "two-winter-fish"
    NEW_CHARACTER_PAIR = "new-character-pair"
    TOO_MANY_CHARACTERS = "too-many-characters"
    HIGH_SCORE_TRACK = "high-score-track"


#: RULINGS R13 as amended: what makes a table incomplete, not impossible; scored with what is known.
INCOMPLETE_CODES: Final = frozenset(
    {Code.WILD_TYPE_MISSING, Code.FIREFIGHTING_ORDER_NEEDED, Code.STACK_INCOMPLETE}
)
WARNING_CODES: Final = INCOMPLETE_CODES | {
    Code.TWO_WINTER_FISH,
    Code.NEW_CHARACTER_PAIR,
    Code.TOO_MANY_CHARACTERS,
    Code.HIGH_SCORE_TRACK,
}


@dataclass(frozen=True, slots=True)
class Problem(BaseProblem[Code]):
    @property
    def severity(self) -> Severity:
        return Severity.WARNING if self.code in WARNING_CODES else Severity.ERROR

    @property
    def incomplete(self) -> bool:
        """Whether the problem says what is missing (scored with what is known), not what to check again."""
        return self.code in INCOMPLETE_CODES


@dataclass(frozen=True, slots=True)
class Report(BaseReport[Problem]):
    """A table's errors (RULINGS R13) and warnings (R14)."""


def _name(component_id: str, key: str = "") -> str:
    """A component's printed name, for messages (``key``: the list it is in, where an id names two kinds)."""
    if key == "retirement_tokens":
        return cat.RETIREMENT_TOKEN_BY_ID[component_id].name
    for index in (
        cat.CHARACTER_BY_ID,
        cat.BUILDING_BY_ID,
        cat.TOKEN_BY_ID,
        cat.RETIREMENT_TOKEN_BY_ID,
        cat.PERSONALITY_BY_ID,
        cat.BOAT_BY_ID,
    ):
        item = index.get(component_id)
        if item is not None:
            return item.name
    placeholder = cat.any_type(component_id)
    return f"an unnamed {placeholder.label}" if placeholder else component_id


SOURCED_TOKENS: Final = frozenset(t.id for t in cat.TOKENS if t.source)
_GAIN_TRACKS: Final = (
    ("firefighting", cat.FIREFIGHTING_GAIN, Code.FIREFIGHTING_BELOW_GAINS),
    ("trade", cat.TRADE_GAIN, Code.TRADE_BELOW_GAINS),
)
NEW_CHARACTER_PAIRS: Final = tuple((m, cat.new_characters_of_month(m)) for m in range(1, 13))


_LISTS: Final = LIST_FIELDS
_NUMBERS_OF: Final = attrgetter(*NUMBER_FIELDS)


def _held(player: PlayerState) -> Iterator[tuple[str, str, str]]:
    """(list name, field path suffix, component id) for every component in a player's lists."""
    for key in _LISTS:
        for i, item in enumerate(getattr(player, key)):
            yield key, f"{key}[{i}]", item


def _supply(component_id: str) -> int:
    token = cat.RETIREMENT_TOKEN_BY_ID.get(component_id)
    return token.supply if token else 1


def ferry_built(table: Table) -> bool:
    return any("ferry-boat" in p.boats for p in table.players)


def ferry_opens_the_pool(table: Table) -> bool:
    """RULINGS R13: any player may activate any built Boat (Akebono "Activate a Boat"), so once someone at the
    table built the Ferry boat and its side is B or not known, a personality met off the Nihonbashi bridge
    (side B: "choose a Personality from the current season that is not on the Nihonbashi bridge") is legal for
    every player. Nobody built it ("You cannot activate a Boat on the riverbank"), or side A: the bridge only."""
    sides = table.setup.boat_sides if table.setup else {}
    return sides.get("ferry-boat") != "A" and ferry_built(table)


def _total(p: PlayerState, akebono: bool, last: tuple[str, ...]) -> int:
    """The player's total as scored (a tie needing a stack order, RULINGS R12)."""
    return sum(line.points for line in score_player(p, akebono, last).values())


class _Checker:
    """Collects the problems of one table; each ``check_*`` method enforces one ruling."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.problems: list[Problem] = []
        self.ferry_built = table.akebono and ferry_built(table)
        sides = table.setup.boat_sides if table.setup else {}
        self.ferry_side = sides.get("ferry-boat")

    def add(self, code: Code, player: str | None, field: str, message: str) -> None:
        self.problems.append(Problem(code, player, field, message))

    def run(self) -> Report:
        t = self.table
        self.check_players()
        if t.setup is not None:
            key = (t.setup.buildings, t.setup.personalities, tuple(sorted(t.setup.boat_sides.items())))
            self.problems.extend(_setup_problems(key, t.expansions))
        self.check_components_across_table()
        self.check_type_supply()
        self.check_buildings_in_play()
        self.check_personalities_in_play()
        for i, p in enumerate(t.players):
            self.problems.extend(self.own_problems(p, i))
        self.check_firefighting_order()
        self.check_stacks()
        self.check_order_needed()
        self.check_new_character_pairs()
        return Report.of(self.problems, WARNING_CODES)

    def own_problems(self, p: PlayerState, i: int) -> tuple[Problem, ...]:
        """The problems of the checks that read one player (and the table's editions and setup)."""
        start = len(self.problems)
        where = f"players[{i}]"
        self.check_numbers(p, where)
        self.check_gains(p, where)
        self.check_edition(p, where)
        self.check_in_setup(p, where)
        self.check_fish(p, where)
        self.check_boats(p, where)
        self.check_buildings(p, where)
        self.check_starting(p, where)
        self.check_token_sources(p, where)
        self.check_wild_types(p, where)
        self.check_character_count(p, where)
        own = tuple(self.problems[start:])
        del self.problems[start:]
        return own

    # -- the table as a whole --

    def check_players(self) -> None:
        n = len(self.table.players)
        if not rules.MIN_PLAYERS <= n <= rules.MAX_PLAYERS:
            self.add(Code.PLAYER_COUNT, None, "players", f"IKI is played by 2 to 4 players, not {n}.")
        seen: dict[str, int] = {}
        for i, p in enumerate(self.table.players):
            key = name_key(p.name)
            if key in seen:
                self.add(
                    Code.DUPLICATE_NAME,
                    p.name,
                    f"players[{i}].name",
                    f"Two players are called {quote(p.name)}: give each player a different name.",
                )
            seen[key] = i

    def check_setup(self) -> None:
        setup = self.table.setup
        if setup is None:
            return
        if setup.buildings is not None:
            b = setup.buildings
            if len(b) != rules.BUILDINGS_IN_PLAY or len(set(b)) != len(b):
                self.add(
                    Code.SETUP_BUILDINGS,
                    None,
                    "setup.buildings",
                    f"A game has {rules.BUILDINGS_IN_PLAY} different buildings in play; "
                    f"the setup lists {len(b)} ({len(set(b))} different).",
                )
            ongoing = [x for x in dict.fromkeys(b) if cat.BUILDING_BY_ID[x].ongoing]
            if self.table.akebono and len(ongoing) > rules.MAX_ONGOING_BUILDINGS:
                self.add(
                    Code.SETUP_ONGOING,
                    None,
                    "setup.buildings",
                    f"With Akebono at most {rules.MAX_ONGOING_BUILDINGS} buildings with an ongoing ability are in "
                    f"play; the setup has {len(ongoing)}: "
                    f"{join(_name(x) for x in ongoing)}.",
                )
            for i, x in enumerate(b):
                self._edition(x, None, f"setup.buildings[{i}]", "the setup")
        if setup.personalities is not None:
            ps = setup.personalities
            counts = Counter(cat.PERSONALITY_BY_ID[x].season for x in ps)
            wrong = [s.label for s in SEASONS if counts[s] != rules.PERSONALITIES_PER_SEASON]
            if wrong or len(set(ps)) != len(ps):
                self.add(
                    Code.SETUP_PERSONALITIES,
                    None,
                    "setup.personalities",
                    "A game has 2 different personalities of each season; the setup's "
                    + (f"{join(wrong)} count is off." if wrong else "list repeats a personality."),
                )
            for i, x in enumerate(ps):
                self._edition(x, None, f"setup.personalities[{i}]", "the setup")
        for boat_id in setup.boat_sides:
            boat = cat.BOAT_BY_ID[boat_id]
            if not boat.buildable:
                self.add(
                    Code.SETUP_BOAT_SIDE,
                    None,
                    f"setup.boat_sides.{boat_id}",
                    f"The {boat.name} has no random side: its wave is the players' choice.",
                )
            else:
                self._edition(boat_id, None, f"setup.boat_sides.{boat_id}", "the setup")

    def check_components_across_table(self) -> None:
        """RULINGS R13: a component held by two players (or twice), or more tokens than exist."""
        players = self.table.players
        repeated: set[str] = set()  # the lists in which some id appears more than once across the table
        for key in _LISTS:
            items = [item for p in players for item in getattr(p, key)]
            if len(set(items)) != len(items) and any(
                n > 1 and not item.startswith(cat.ANY_PREFIX) for item, n in Counter(items).items()
            ):
                repeated.add(key)
        if not repeated:  # the usual case: nothing to report
            return
        holders: dict[tuple[str, str], list[tuple[str, int, int]]] = {}
        for i, p in enumerate(players):
            for key in _LISTS:
                if key not in repeated:
                    continue
                for j, item in enumerate(getattr(p, key)):
                    if not item.startswith(cat.ANY_PREFIX):
                        holders.setdefault((key, item), []).append((p.name, i, j))
        for (key, item), places in holders.items():
            if len(places) == 1:
                continue
            held = [(name, f"players[{i}].{key}[{j}]") for name, i, j in places]
            supply = _supply(item) if key == "retirement_tokens" else 1
            if len(held) <= supply:
                continue
            who = [name for name, _ in held]
            name, field = held[supply]
            if supply == 1:
                if len(set(who)) == 1:
                    msg = f"{name} lists {_name(item, key)} {len(held)} times; there is only one."
                else:
                    msg = f"{_name(item, key)} is held by {join(dict.fromkeys(who))}; there is only one."
                self.add(Code.DUPLICATE_COMPONENT, name, field, msg)
            else:
                self.add(
                    Code.OVER_SUPPLY,
                    name,
                    field,
                    f"{len(held)} {_name(item, key)} tokens are listed ({join(who)}); the game has {supply}.",
                )

    def check_type_supply(self) -> None:
        """RULINGS R13: more cards of a printed type than the game's supply (unnamed cards included)."""
        supply = cat.type_supply(self.table.expansions)
        printed_types = cat.PRINTED_TYPE
        totals = Counter([printed_types[c] for p in self.table.players for c in p.characters])
        if all(totals[t] <= n for t, n in supply.items()):  # the usual case
            return
        used: Counter[str] = Counter()
        first: dict[str, tuple[str, str]] = {}
        for i, p in enumerate(self.table.players):
            for j, card in enumerate(p.characters):
                printed = cat.PRINTED_TYPE[card]
                if printed is None:
                    continue
                used[printed] += 1
                if used[printed] > supply[printed]:
                    first.setdefault(printed.value, (p.name, f"players[{i}].characters[{j}]"))
        for t in supply:
            if used[t] > supply[t]:
                name, field = first[t.value]
                self.add(
                    Code.OVER_SUPPLY,
                    name,
                    field,
                    f"The table holds {used[t]} {t.plural}; the game has only {supply[t]} such cards.",
                )

    # -- one player --

    def check_numbers(self, p: PlayerState, where: str) -> None:
        if (
            min(_NUMBERS_OF(p)) >= 0
            and p.firefighting <= TRACK_MAX["firefighting"]
            and p.trade <= TRACK_MAX["trade"]
            and (self.table.akebono or not p.trade)
            and p.score_track <= SCORE_TRACK_WARNING
        ):
            return  # the usual case: every number in range
        for key in NUMBER_FIELDS:
            value = getattr(p, key)
            if value < 0:
                self.add(
                    Code.NEGATIVE,
                    p.name,
                    f"{where}.{key}",
                    f"{p.name}'s {key.replace('_', ' ')} cannot be negative ({value}).",
                )
        for key, top in TRACK_MAX.items():
            value = getattr(p, key)
            if value > top:
                self.add(
                    Code.TRACK_RANGE,
                    p.name,
                    f"{where}.{key}",
                    f"The {key} track runs 0-{top}; {p.name} is at {value}.",
                )
        if not self.table.akebono and p.trade:
            self.add(
                Code.NOT_IN_GAME,
                p.name,
                f"{where}.trade",
                f"The trade track belongs to Akebono, which is not in this game; {p.name}'s trade must be 0.",
            )
        if p.score_track > SCORE_TRACK_WARNING:
            self.add(
                Code.HIGH_SCORE_TRACK,
                p.name,
                f"{where}.score_track",
                f"{p.name} scored {p.score_track} IKI during the game: over {SCORE_TRACK_WARNING}, "
                "worth a second look at the 30/60 token.",
            )

    def _edition(self, item: str, player: str | None, field: str, owner: str) -> None:
        if cat.EXPANSION_OF[item] not in self.table.expansions:
            self.add(
                Code.NOT_IN_GAME,
                player,
                field,
                f"{_name(item)} comes from IKI Akebono, which is not in this game ({owner}).",
            )

    def check_edition(self, p: PlayerState, where: str) -> None:
        if self.table.expansions == cat.ALL_EXPANSIONS:
            return  # everything is in play
        for _key, field, item in _held(p):
            self._edition(item, p.name, f"{where}.{field}", p.name)

    def check_in_setup(self, p: PlayerState, where: str) -> None:
        setup = self.table.setup
        if setup is None:
            return
        if setup.buildings is not None:
            for i, b in enumerate(p.buildings):
                if b not in setup.buildings:
                    self.add(
                        Code.NOT_IN_SETUP,
                        p.name,
                        f"{where}.buildings[{i}]",
                        f"{_name(b)} is not one of this game's buildings "
                        f"({join(_name(x) for x in setup.buildings)}).",
                    )
        if setup.personalities is not None and not self.pool_open:
            for i, x in enumerate(p.personalities):
                if x not in setup.personalities:
                    self.add(
                        Code.NOT_IN_SETUP,
                        p.name,
                        f"{where}.personalities[{i}]",
                        f"{_name(x)} was not on the Nihonbashi bridge in this game, and {self._no_ferry_b()}.",
                    )

    @property
    def pool_open(self) -> bool:
        """:func:`ferry_opens_the_pool`."""
        return self.ferry_built and self.ferry_side != "A"

    def _no_ferry_b(self) -> str:
        """Why no personality off the bridge could be met (RULINGS R13)."""
        if self.ferry_built:
            return "the Ferry boat is on side A"
        return "nobody built the Ferry boat, whose side B meets others"

    def check_fish(self, p: PlayerState, where: str) -> None:
        """RULINGS R13: one fish a season; R14: a second winter fish (New Year's Day) is only worth a look."""
        seasons: dict[Season, list[str]] = {}
        for i, f in enumerate(p.fish):
            season = cat.TOKEN_BY_ID[f].season
            if season is None:
                continue
            held = seasons.setdefault(season, [])
            held.append(f)
            if len(held) == 1:
                continue
            names = join(_name(x) for x in held)
            if season is Season.WINTER and len(held) <= MAX_WINTER_FISH:
                self.add(
                    Code.TWO_WINTER_FISH,
                    p.name,
                    f"{where}.fish[{i}]",
                    f"{p.name} has two winter fish ({names}): legal only if one was bought on New Year's Day, "
                    "when the winter tokens stay on sale; they score one season in the set, each its own bonus.",
                )
                continue
            more = (
                "the winter fish stay on sale only until New Year's Day, " if season is Season.WINTER else ""
            )
            self.add(
                Code.FISH_SAME_SEASON,
                p.name,
                f"{where}.fish[{i}]",
                f"{p.name} has {_COUNT_WORDS.get(len(held), len(held))} {season.value} fish ({names}): {more}at "
                "most one fish can be "
                "bought each season.",
            )
        if len(p.fish) > MAX_FISH:
            self.add(
                Code.TOO_MANY_FISH,
                p.name,
                f"{where}.fish",
                f"{p.name} lists {len(p.fish)} fish; a player board has {MAX_FISH} fish spaces "
                "(the Fisherman token counts as a fish).",
            )

    def check_boats(self, p: PlayerState, where: str) -> None:
        if len(p.boats) > MAX_BOATS:
            self.add(
                Code.TOO_MANY_BOATS,
                p.name,
                f"{where}.boats",
                f"{p.name} lists {len(p.boats)} boats ({join(_name(b) for b in p.boats)}); a player builds "
                f"at most {MAX_BOATS}.",
            )
        for i, b in enumerate(p.boats):
            if not cat.BOAT_BY_ID[b].buildable:
                self.add(
                    Code.BOAT_NOT_BUILDABLE,
                    p.name,
                    f"{where}.boats[{i}]",
                    f"The {_name(b)} is never built by a player: it belongs to the river.",
                )

    def check_buildings(self, p: PlayerState, where: str) -> None:
        if len(p.buildings) > MAX_BUILDINGS:
            self.add(
                Code.TOO_MANY_BUILDINGS,
                p.name,
                f"{where}.buildings",
                f"{p.name} lists {len(p.buildings)} buildings; each holds one of the player's "
                f"{MAX_BUILDINGS} Kobuns for good, so {MAX_BUILDINGS} at most.",
            )

    def check_starting(self, p: PlayerState, where: str) -> None:
        starting = [c for c in p.characters if c in cat.STARTING_IDS]
        if len(starting) > 1:
            self.add(
                Code.STARTING_CHARACTERS,
                p.name,
                f"{where}.characters",
                f"{p.name} holds {len(starting)} starting characters ({join(_name(c) for c in starting)}); "
                "each player drafts exactly one.",
            )

    def check_token_sources(self, p: PlayerState, where: str) -> None:
        """RULINGS R13: a retirement token needs the character whose retirement gives it."""
        if not p.retirement_tokens and not SOURCED_TOKENS.intersection(p.fish + p.tobacco):
            return
        owned = set(p.characters) | set(p.personalities)
        counts = Counter(p.retirement_tokens)
        for i, token_id in enumerate(p.retirement_tokens):
            token = cat.RETIREMENT_TOKEN_BY_ID[token_id]
            have = [s for s in token.sources if s in owned]
            if counts[token_id] > len(have):
                cards = [f"the {_name(s)}" for s in token.sources]
                if counts[token_id] == 1:
                    need = (
                        f"one {token.name} token, but it needs {' or '.join(cards)} among the player's cards"
                    )
                else:
                    need = (
                        f"{counts[token_id]} {token.name} tokens, but each needs its own card among the player's "
                        f"cards: {join(cards)}"
                    )
                self.add(
                    Code.TOKEN_WITHOUT_SOURCE,
                    p.name,
                    f"{where}.retirement_tokens[{i}]",
                    f"{p.name} holds {need}.",
                )
                counts[token_id] = 0  # say it once
        for key in ("fish", "tobacco"):
            for i, token_id in enumerate(getattr(p, key)):
                source = cat.TOKEN_BY_ID[token_id].source
                if source is not None and source not in owned:
                    self.add(
                        Code.TOKEN_WITHOUT_SOURCE,
                        p.name,
                        f"{where}.{key}[{i}]",
                        f"{p.name} holds the {_name(token_id)} without the {_name(source)}, whose retirement "
                        "gives it.",
                    )

    def check_wild_types(self, p: PlayerState, where: str) -> None:
        """RULINGS R5: only wild cards take a chosen type, and every wild card needs one."""
        for card in p.wild_types:
            field = f"{where}.wild_types.{card}"
            if card not in p.characters:
                self.add(
                    Code.WILD_TYPE_NOT_HELD,
                    p.name,
                    field,
                    f"A type is chosen for {_name(card)}, which {p.name} does not hold.",
                )
            elif wild_kind(card, p) is Wild.NO:
                why = (
                    "an unretired Puppeteer (no Joker token) is a Special character"
                    if card == "puppeteer"
                    else "its type is printed on the card"
                )
                self.add(
                    Code.WILD_TYPE_NOT_WILD,
                    p.name,
                    field,
                    f"{_name(card)} cannot take a chosen type: {why}.",
                )
        for i, card in enumerate(p.characters):
            if card in cat.WILD_IDS and card not in p.wild_types and wild_kind(card, p) is not Wild.NO:
                self.add(
                    Code.WILD_TYPE_MISSING,
                    p.name,
                    f"{where}.characters[{i}]",
                    f"{_name(card)} counts as the type {p.name} chooses: choose one.",
                )

    def character_allowances(self, p: PlayerState) -> list[tuple[str, int]]:
        """RULINGS R14, an estimate (INFERRED["character-limit"]): the allowances that apply to this player."""
        start, monthly, nanpo, owner, ferry = CHARACTER_ALLOWANCES
        out = [start, monthly]
        if self.table.akebono:
            if "nanpo-ota" in p.personalities:
                out.append(nanpo)
            if "nagaya-owner" in p.characters or "owner" in p.retirement_tokens:
                out.append(owner)
            if self.ferry_built and self.ferry_side != "B":
                out.append(ferry)
        return out

    def check_character_count(self, p: PlayerState, where: str) -> None:
        if len(p.characters) <= 1 + PLAYED_MONTHS:  # the usual case: within every estimate
            return
        allowances = self.character_allowances(p)
        limit = sum(n for _, n in allowances)
        if len(p.characters) > limit:
            counted = " + ".join(f"{n} ({what})" for what, n in allowances)
            self.add(
                Code.TOO_MANY_CHARACTERS,
                p.name,
                f"{where}.characters",
                f"{p.name} lists {len(p.characters)} characters; by an estimate, one player can keep at most "
                f"{limit}: {counted}.",
            )

    def check_gains(self, p: PlayerState, where: str) -> None:
        """RULINGS R13: the firefighting marker never moves down (iki-rulebook.txt: it "remains where it stands"
        when a character leaves), nor the trade marker (INFERRED["trade-never-down"]): a position is at least
        the printed gains of the player's hired cards and pipes, up to the track's top (INFERRED
        ["printed-gains"]). Starting characters and ``any-*`` cards gain nothing."""
        for key, gains, code in _GAIN_TRACKS:
            if key == "trade" and not self.table.akebono:
                continue  # the trade track is Akebono's (its cards are then not in the game)
            held = [x for x in (*p.characters, *p.pipes) if x in gains]
            if not held:
                continue
            gained = sum(gains[x] for x in held)
            value = getattr(p, key)
            need = min(rules.TRACK_MAX, gained)
            if 0 <= value < need:
                detail = ", ".join(f"{_name(x)} +{gains[x]}" for x in held)
                self.add(
                    code,
                    p.name,
                    f"{where}.{key}",
                    f"{p.name}'s {key} marker is on space {value}, but the hiring bonuses and pipes of what "
                    f"{p.name} holds moved it up {gained} ({detail}) and it never moves down: it stands on space "
                    f"{need} or higher.",
                )

    # -- order and pairs --

    def check_firefighting_order(self) -> None:
        """RULINGS R12: the order lists every player once, highest position first."""
        t = self.table
        names = [p.name for p in t.players]
        order = t.firefighting_order
        if order is None:
            return
        position = {p.name: p.firefighting for p in t.players}
        unknown = [n for n in order if n not in position]
        if unknown or sorted(order) != sorted(names):
            missing = [n for n in names if n not in order]
            detail = []
            if unknown:
                detail.append(
                    f"{join(repr(n[:40]) for n in unknown)} {'is' if len(unknown) == 1 else 'are'} not a player"
                )
            if missing:
                detail.append(f"{join(missing)} {'is' if len(missing) == 1 else 'are'} missing")
            if not detail:
                detail.append("a player is listed twice")
            self.add(
                Code.FIREFIGHTING_ORDER,
                None,
                "firefighting_order",
                f"The firefighting order must list every player once: {'; '.join(detail)}.",
            )
            return
        for above, below in itertools.pairwise(order):
            if position[above] < position[below]:
                self.add(
                    Code.FIREFIGHTING_ORDER,
                    None,
                    "firefighting_order",
                    f"The firefighting order puts {above} (space {position[above]}) before {below} "
                    f"(space {position[below]}): higher positions come first.",
                )
                return

    def check_stacks(self) -> None:
        """RULINGS R12/R13: each place given in a stack names a player on that space, once; two markers never
        share a place; the stacks agree with the firefighting order. A space whose places are partly given is
        incomplete: its players share (a warning names the missing places)."""
        t = self.table
        if not t.stacks:
            return
        players = {p.name: p for p in t.players}
        on_space = spaces_of(t)
        placed: dict[int, dict[int, str]] = {}  # space -> place -> name, the entries that hold
        bad: set[int] = set()
        seen: set[str] = set()
        index: Counter[int] = Counter()
        for sp in t.stacks:
            field = f"stacks.{sp.space}[{index[sp.space]}]"
            index[sp.space] += 1
            where = f"the stack on firefighting space {sp.space}"
            problem = self._stack_entry_problem(
                sp, players.get(sp.name), len(on_space.get(sp.space, ())), seen
            )
            seen.add(sp.name)
            if problem is not None:
                bad.add(sp.space)
                self.add(Code.STACK_ORDER, sp.name if sp.name in players else None, field, problem)
                continue
            other = placed.setdefault(sp.space, {}).get(sp.place)
            if other is not None:
                bad.add(sp.space)
                self.add(
                    Code.STACK_PLACE_TAKEN,
                    sp.name,
                    field,
                    f"{other} and {sp.name} are both given place {sp.place} in {where}: each marker has a place "
                    "of its own.",
                )
                continue
            placed[sp.space][sp.place] = sp.name
        given = usable_order(t)
        for space, places in placed.items():
            if space in bad:
                continue
            ranked = [places[k] for k in sorted(places)]
            if given is not None:
                if [given[n] for n in ranked] != sorted(given[n] for n in ranked):
                    first = min(ranked, key=given.__getitem__)
                    self.add(
                        Code.STACK_ORDER,
                        None,
                        f"stacks.{space}",
                        f"The stack on space {space} puts {' above '.join(ranked)}, but the firefighting order "
                        f"puts {first} first among them.",
                    )
                continue
            missing = [n for n in on_space[space] if n not in ranked]
            if missing:
                have = ", ".join(f"{name} {place}" for place, name in sorted(places.items()))
                self.add(
                    Code.STACK_INCOMPLETE,
                    None,
                    f"stacks.{space}",
                    f"The stack on firefighting space {space} gives no place to {join(missing)} ({have}): its "
                    "players share the place until each has one.",
                )

    @staticmethod
    def _stack_entry_problem(sp: StackPlace, p: PlayerState | None, size: int, seen: set[str]) -> str | None:
        where = f"the stack on firefighting space {sp.space}"
        if p is None:
            return f"{sp.name[:40]!r} in {where} is not a player."
        if sp.name in seen:
            return f"{sp.name} is given two places in the stacks; a marker has one."
        if p.firefighting != sp.space:
            return f"{sp.name} is on firefighting space {p.firefighting}, not in {where}."
        if not 1 <= sp.place <= size:
            return f"{sp.name} is given place {sp.place} in {where}, where {size} marker(s) stand."
        return None

    def check_order_needed(self) -> None:
        """RULINGS R13 as amended: a tie or Ryōkan that needs a stack order not given makes the table incomplete,
        not impossible: tied players share the place and Ryōkan is not scored until it is given."""
        t = self.table
        if usable_order(t) is not None or len({p.name for p in t.players}) != len(t.players):
            return
        groups = firefighting_groups(t)
        shared = [g for g in groups if len(g) > 1]
        if not shared:
            return
        last = last_group(t)
        if t.akebono and len(last) > 1:
            for p in t.players:
                if p.name in last and "ryokan" in p.personalities:
                    self.add(
                        Code.FIREFIGHTING_ORDER_NEEDED,
                        p.name,
                        "firefighting_order",
                        f"Ryōkan scores if {p.name} is last on the firefighting track, but {join(last)} share "
                        "the last space: give their places in the stack (who is at the bottom); until then "
                        "Ryōkan is not scored.",
                    )
        by_name = {p.name: p for p in t.players}
        entered = {
            sp.space for sp in t.stacks
        }  # a stack partly or wrongly given: check_stacks says what is wrong
        for group in shared:
            space = by_name[group[0]].firefighting
            if space in entered:
                continue
            totals: dict[int, list[str]] = {}
            for name in group:
                totals.setdefault(_total(by_name[name], t.akebono, last), []).append(name)
            for total, tied in totals.items():
                if len(tied) > 1:
                    self.add(
                        Code.FIREFIGHTING_ORDER_NEEDED,
                        None,
                        f"stacks.{space}",
                        f"{join(tied)} tie on {total} IKI on firefighting space {space}, and their places in "
                        "its stack are not given: they share the place until they are.",
                    )

    def check_buildings_in_play(self) -> None:
        """RULINGS R13, without a setup listing the buildings: at most 6 different buildings across the table
        (iki-rulebook.txt "Randomly pick 6 Building cards"), with Akebono at most 2 with an ongoing ability
        (Akebono setup: "There cannot be more than 2 Buildings with an Ongoing ability")."""
        t = self.table
        if t.setup is not None and t.setup.buildings is not None:
            return  # each held building is checked against the setup's
        first: dict[str, tuple[str, str]] = {}  # building -> (holder, field) of its first holder
        for i, p in enumerate(t.players):
            for j, b in enumerate(p.buildings):
                first.setdefault(b, (p.name, f"players[{i}].buildings[{j}]"))
        held = list(first)
        if len(held) > rules.BUILDINGS_IN_PLAY:
            name, field = first[held[rules.BUILDINGS_IN_PLAY]]
            self.add(
                Code.BUILDINGS_IN_PLAY,
                name,
                field,
                f"The table holds {len(held)} different buildings ({join(_name(b) for b in held)}); a game has "
                f"{rules.BUILDINGS_IN_PLAY} in play.",
            )
        ongoing = [b for b in held if cat.BUILDING_BY_ID[b].ongoing]
        if t.akebono and len(ongoing) > rules.MAX_ONGOING_BUILDINGS:
            name, field = first[ongoing[rules.MAX_ONGOING_BUILDINGS]]
            self.add(
                Code.ONGOING_BUILDINGS_IN_PLAY,
                name,
                field,
                f"The table holds {len(ongoing)} buildings with an ongoing ability "
                f"({join(_name(b) for b in ongoing)}); with Akebono at most {rules.MAX_ONGOING_BUILDINGS} are in "
                "play.",
            )

    def check_personalities_in_play(self) -> None:
        """RULINGS R13, without a setup listing the personalities: at most 2 of one season met across the table
        (Akebono "Only 2 Personalities are available on the bridge each season"), unless the Ferry boat opens
        the season's pool (:func:`ferry_opens_the_pool`)."""
        t = self.table
        if not t.akebono or (t.setup is not None and t.setup.personalities is not None) or self.pool_open:
            return
        first: dict[Season, dict[str, tuple[str, str]]] = {}
        for i, p in enumerate(t.players):
            for j, x in enumerate(p.personalities):
                season = cat.PERSONALITY_BY_ID[x].season
                first.setdefault(season, {}).setdefault(x, (p.name, f"players[{i}].personalities[{j}]"))
        for season in SEASONS:
            met = list(first.get(season, {}))
            if len(met) > rules.PERSONALITIES_PER_SEASON:
                name, field = first[season][met[rules.PERSONALITIES_PER_SEASON]]
                self.add(
                    Code.PERSONALITIES_IN_PLAY,
                    name,
                    field,
                    f"{len(met)} {season.label} personalities were met ({join(_name(x) for x in met)}); the "
                    f"Nihonbashi bridge shows {rules.PERSONALITIES_PER_SEASON} a season, and {self._no_ferry_b()}.",
                )

    def check_new_character_pairs(self) -> None:
        """RULINGS R14: both New Characters of one month at the table (one of each pair is removed at setup)."""
        holder: dict[str, tuple[int, str]] = {}
        for i, p in enumerate(self.table.players):
            for c in cat.NEW_CHARACTER_IDS.intersection(p.characters):
                holder.setdefault(c, (i, p.name))
        if len(holder) < 2:
            return
        for month, pair in NEW_CHARACTER_PAIRS:
            if pair[0].id in holder and pair[1].id in holder:
                i, name = holder[pair[1].id]
                self.add(
                    Code.NEW_CHARACTER_PAIR,
                    name,
                    f"players[{i}].characters",
                    f"Both New Characters of month {month} are held ({join(c.name for c in pair)}), but one "
                    "of each month's pair leaves the game at setup.",
                )


SetupKey = tuple[tuple[str, ...] | None, tuple[str, ...] | None, tuple[tuple[str, str], ...]]


def _setup_problems(key: SetupKey, expansions: frozenset[Expansion]) -> tuple[Problem, ...]:
    """The setup's own problems."""
    buildings, personalities, sides = key
    setup = Setup(buildings, personalities, MappingProxyType(dict(sides)))
    checker = _Checker(Table(players=(), expansions=expansions, setup=setup))
    checker.check_setup()
    return tuple(checker.problems)


def validate(table: Table) -> Report:
    """Every error (RULINGS R13) and warning (R14) of a table, in a stable order."""
    return _Checker(table).run()


__all__ = [
    "INCOMPLETE_CODES",
    "Code",
    "Problem",
    "Report",
    "Severity",
    "ferry_opens_the_pool",
    "validate",
]
