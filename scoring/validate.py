"""The rules validator: every problem of a table at once (RULINGS R13 errors, R14 warnings).

Each problem has a stable code, the player it concerns (or None), the request field that caused it and a
plain-English message naming the cards involved. Scores are computed only for tables with no error.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from types import MappingProxyType
from typing import Final

from scoring import catalogue as cat
from scoring import rules
from scoring.components import SEASONS, Expansion, Wild
from scoring.errors import quote
from scoring.score import MAX_FISH, firefighting_groups, wild_kind
from scoring.table import LIST_FIELDS, NUMBER_FIELDS, PlayerState, Setup, Table

MAX_BOATS: Final = 2  # RULINGS R13 (Akebono "A player cannot build more than 2 boats")
MAX_BUILDINGS: Final = 4  # RULINGS R13: each building holds one of the 4 Kobuns for good
TRACK_MAX: Final = {"firefighting": rules.TRACK_MAX, "trade": rules.TRACK_MAX}  # RULINGS R11
SCORE_TRACK_WARNING: Final = 150  # RULINGS R14
MONTHS: Final = 12
#: RULINGS R14 (inferred bound, catalogue INFERRED["character-limit"]): the starting character plus one hire a
#: month; Akebono adds the Owner token and Nanpo Ota, and the Ferry boat's side A can hire once more each month.
BASE_CHARACTER_LIMIT: Final = 1 + MONTHS
AKEBONO_EXTRA_HIRES: Final = 2
FERRY_A_EXTRA_HIRES: Final = MONTHS


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
    WILD_TYPE_MISSING = "wild-type-missing"
    NEGATIVE = "negative-number"
    TRACK_RANGE = "track-out-of-range"
    FIREFIGHTING_ORDER = "firefighting-order"
    FIREFIGHTING_ORDER_NEEDED = "firefighting-order-needed"
    # warnings
    NEW_CHARACTER_PAIR = "new-character-pair"
    TOO_MANY_CHARACTERS = "too-many-characters"
    HIGH_SCORE_TRACK = "high-score-track"


WARNING_CODES: Final = frozenset({Code.NEW_CHARACTER_PAIR, Code.TOO_MANY_CHARACTERS, Code.HIGH_SCORE_TRACK})


@dataclass(frozen=True, slots=True)
class Problem:
    code: Code
    player: str | None
    field: str
    message: str

    @property
    def severity(self) -> Severity:
        return Severity.WARNING if self.code in WARNING_CODES else Severity.ERROR

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code.value, "player": self.player, "field": self.field, "message": self.message}


@dataclass(frozen=True, slots=True)
class Report:
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.errors


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


def _join(names: Iterable[str]) -> str:
    items = list(names)
    if len(items) < 2:
        return items[0] if items else "none"
    return ", ".join(items[:-1]) + " and " + items[-1]


class _Checker:
    """Collects the problems of one table; each ``check_*`` method enforces one ruling."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.problems: list[Problem] = []

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
        for i, p in enumerate(t.players):
            self.problems.extend(self.own_problems(p, i))
        self.check_firefighting_order()
        self.check_new_character_pairs()
        errors = tuple(p for p in self.problems if p.severity is Severity.ERROR)
        warnings = tuple(p for p in self.problems if p.severity is Severity.WARNING)
        return Report(errors, warnings)

    def own_problems(self, p: PlayerState, i: int) -> tuple[Problem, ...]:
        """The problems of the checks that read one player (and the table's editions and setup)."""
        start = len(self.problems)
        where = f"players[{i}]"
        self.check_numbers(p, where)
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
            key = p.name.casefold()
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
                    f"A game has {rules.BUILDINGS_IN_PLAY} different buildings in play (RULINGS R15); "
                    f"the setup lists {len(b)} ({len(set(b))} different).",
                )
            ongoing = [x for x in dict.fromkeys(b) if cat.BUILDING_BY_ID[x].ongoing]
            if self.table.akebono and len(ongoing) > rules.MAX_ONGOING_BUILDINGS:
                self.add(
                    Code.SETUP_ONGOING,
                    None,
                    "setup.buildings",
                    f"With Akebono at most {rules.MAX_ONGOING_BUILDINGS} buildings with an ongoing ability are in "
                    f"play (RULINGS R18); the setup has {len(ongoing)}: "
                    f"{_join(_name(x) for x in ongoing)}.",
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
                    "A game has 2 different personalities of each season (RULINGS R18); the setup's "
                    + (f"{_join(wrong)} count is off." if wrong else "list repeats a personality."),
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
                    f"The {boat.name} has no random side: its wave is the players' choice (RULINGS R18).",
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
                    msg = f"{_name(item, key)} is held by {_join(dict.fromkeys(who))}; there is only one."
                self.add(Code.DUPLICATE_COMPONENT, name, field, msg)
            else:
                self.add(
                    Code.OVER_SUPPLY,
                    name,
                    field,
                    f"{len(held)} {_name(item, key)} tokens are listed ({_join(who)}); the game has {supply}.",
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
                    f"The {key} track runs 0-{top} (RULINGS R11); {p.name} is at {value}.",
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
                        f"({_join(_name(x) for x in setup.buildings)}).",
                    )
        ferry_b = setup.boat_sides.get("ferry-boat") == "B"
        if setup.personalities is not None and not ferry_b:
            for i, x in enumerate(p.personalities):
                if x not in setup.personalities:
                    self.add(
                        Code.NOT_IN_SETUP,
                        p.name,
                        f"{where}.personalities[{i}]",
                        f"{_name(x)} was not on the Nihonbashi bridge in this game, and the Ferry boat is not "
                        "on side B (RULINGS R13).",
                    )

    def check_fish(self, p: PlayerState, where: str) -> None:
        seasons: dict[str, str] = {}
        for i, f in enumerate(p.fish):
            season = cat.TOKEN_BY_ID[f].season
            if season is None:
                continue
            if season in seasons:
                first = _name(seasons[season])
                self.add(
                    Code.FISH_SAME_SEASON,
                    p.name,
                    f"{where}.fish[{i}]",
                    f"{p.name} has two {season.value} fish ({first} and {_name(f)}): at most "
                    "one fish can be bought each season (RULINGS R6).",
                )
            seasons.setdefault(season, f)
        if len(p.fish) > MAX_FISH:
            self.add(
                Code.TOO_MANY_FISH,
                p.name,
                f"{where}.fish",
                f"{p.name} lists {len(p.fish)} fish; a player board has {MAX_FISH} fish spaces "
                "(the Fisherman token counts as a fish, RULINGS R6).",
            )

    def check_boats(self, p: PlayerState, where: str) -> None:
        if len(p.boats) > MAX_BOATS:
            self.add(
                Code.TOO_MANY_BOATS,
                p.name,
                f"{where}.boats",
                f"{p.name} lists {len(p.boats)} boats ({_join(_name(b) for b in p.boats)}); a player builds "
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
                f"{p.name} holds {len(starting)} starting characters ({_join(_name(c) for c in starting)}); "
                "each player drafts exactly one (RULINGS R15).",
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
                sources = _join(_name(s) for s in token.sources)
                need = "each needs its own" if counts[token_id] > 1 else "it needs"
                self.add(
                    Code.TOKEN_WITHOUT_SOURCE,
                    p.name,
                    f"{where}.retirement_tokens[{i}]",
                    f"{p.name} holds {counts[token_id]} {token.name} token(s) but {need} source among the "
                    f"player's cards ({sources}).",
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
                    f"{_name(card)} cannot take a chosen type: {why} (RULINGS R5).",
                )
        for i, card in enumerate(p.characters):
            if card in cat.WILD_IDS and card not in p.wild_types and wild_kind(card, p) is not Wild.NO:
                self.add(
                    Code.WILD_TYPE_MISSING,
                    p.name,
                    f"{where}.characters[{i}]",
                    f"{_name(card)} counts as the type {p.name} chooses: choose one (RULINGS R5).",
                )

    def check_character_count(self, p: PlayerState, where: str) -> None:
        limit = BASE_CHARACTER_LIMIT
        if self.table.akebono:
            limit += AKEBONO_EXTRA_HIRES
            sides = self.table.setup.boat_sides if self.table.setup else {}
            if sides.get("ferry-boat", "A") == "A":
                limit += FERRY_A_EXTRA_HIRES
        if len(p.characters) > limit:
            self.add(
                Code.TOO_MANY_CHARACTERS,
                p.name,
                f"{where}.characters",
                f"{p.name} lists {len(p.characters)} characters; one player can keep about {limit} "
                "(a starting character and one hire a month).",
            )

    # -- order and pairs --

    def check_firefighting_order(self) -> None:
        """RULINGS R12: the order lists every player once, highest position first."""
        t = self.table
        names = [p.name for p in t.players]
        order = t.firefighting_order
        if order is not None:
            position = {p.name: p.firefighting for p in t.players}
            unknown = [n for n in order if n not in position]
            if unknown or sorted(order) != sorted(names):
                missing = [n for n in names if n not in order]
                detail = []
                if unknown:
                    detail.append(
                        f"{_join(repr(n) for n in unknown)} {'is' if len(unknown) == 1 else 'are'} "
                        "not a player"
                    )
                if missing:
                    detail.append(f"{_join(missing)} {'is' if len(missing) == 1 else 'are'} missing")
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
                        f"(space {position[below]}): higher positions come first (RULINGS R12).",
                    )
                    return
            return
        if not t.akebono:
            return
        last_group = firefighting_groups(t)[-1] if t.players else []
        if len(last_group) > 1:
            for p in t.players:
                if p.name in last_group and "ryokan" in p.personalities:
                    self.add(
                        Code.FIREFIGHTING_ORDER_NEEDED,
                        p.name,
                        "firefighting_order",
                        f"Ryōkan scores if {p.name} is last on the firefighting track, but "
                        f"{_join(last_group)} share the last space: give the firefighting order "
                        "(who is at the bottom of the stack).",
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
                    f"Both New Characters of month {month} are held ({_join(c.name for c in pair)}), but one "
                    "of each month's pair leaves the game at setup (pairing inferred, RULINGS R2).",
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


__all__ = ["Code", "Problem", "Report", "Severity", "validate"]
