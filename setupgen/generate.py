"""The seeded setup generator: every random element of an IKI / IKI Akebono setup (RULINGS R15-R19).

:func:`generate_with` is the pure core: randomness comes in as a :class:`random.Random`, and the draws are made
the way the table would make them (rulebook "General setup", "Player setup", "Rules for 2 players"; Akebono
"Setup" steps 4-10). :func:`generate` derives that generator from the seed, the options and
:data:`GENERATOR_VERSION` (SHA-256), so the same seed and options give the same setup, always (RULINGS R19).

Changing the order or the way of any draw changes the setups of existing seeds: bump :data:`GENERATOR_VERSION`.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal, TypeVar

from scoring.catalogue import (
    BUILDABLE_BOATS,
    BUILDINGS,
    PERSONALITIES,
    STARTING_CHARACTERS,
    STARTING_TILES,
    new_characters_of_month,
    personalities_of_season,
    tokens_of,
)
from scoring.components import SEASONS, Building, Expansion, TokenKind
from scoring.errors import quote
from scoring.rules import (
    BUILDINGS_IN_PLAY,
    FIRE_MONTHS,
    FIRE_STRENGTH,
    MAX_ONGOING_BUILDINGS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PERSONALITIES_PER_SEASON,
)
from setupgen.code import PART_BY_KEY, PARTS, SEASON_PART, HouseRules, SetupCode, parse_code
from setupgen.seed import SeedError, new_seed, normalize_seed

#: Part of what is stored with a setup: a seed reproduces its setup only under the same version.
GENERATOR_VERSION: Final = 1

GRAND_MASTER: Final = "grand-master"

#: Months at whose end a fire breaks out, and its strength with 3-4 / 2 players (RULINGS R16).
#: The 4 Fire tiles name the 4 Nagayas (rulebook "Months 5, 8 and 11: Fire").
NAGAYAS: Final = (1, 2, 3, 4)
#: The 12 blocking tiles: 1, 2, 3, 4 three times each (RULINGS R17, inferred; catalogue INFERRED["blocking-tiles"]).
BLOCKING_TILES: Final = (1, 2, 3, 4) * 3
#: At most this many buildings with an ongoing ability on display with Akebono (Akebono "Setup" step 8, R18).
TOKEN_KINDS: Final = (TokenKind.FISH, TokenKind.PIPE, TokenKind.TOBACCO)

Side = Literal["A", "B"]
_T = TypeVar("_T")

_BOTH: Final = frozenset({Expansion.BASE, Expansion.AKEBONO})
#: Lookup tables built once from the catalogue (never retyped).
_BASE_BUILDINGS: Final = tuple(b for b in BUILDINGS if b.expansion is Expansion.BASE)
_BASE_STARTING: Final = tuple(c for c in STARTING_CHARACTERS if c.expansion is Expansion.BASE)
_PERSONALITY_ORDER: Final = {p.id: i for i, p in enumerate(PERSONALITIES)}
_PERSONALITIES_OF: Final = {s.value: personalities_of_season(s) for s in SEASONS}
_NEW_CHARACTERS_OF: Final = {m: tuple(c.id for c in new_characters_of_month(m)) for m in range(1, 13)}
_SEASON_TOKENS: Final = {
    (s.value, k.value): tuple(t.id for t in tokens_of(k, s, _BOTH)) for s in SEASONS for k in TokenKind
}


class OptionsError(ValueError):
    """Options no game can be set up with; the message says why, for a person."""


class HouseRuleError(OptionsError):
    """House rules the draw cannot meet (issue 26); ``field`` is ``ban`` or ``require``: which choice to change."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class Options:
    """What the table asks for: 2-4 players, Akebono or not, the Grand Master variant (2 players + Akebono)."""

    players: int
    akebono: bool = False
    grand_master: bool = False

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        players: object = self.players
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionsError(
                f"the number of players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise OptionsError(f"IKI is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        for name in ("akebono", "grand_master"):
            if not isinstance(getattr(self, name), bool):
                raise OptionsError(f"{name} must be true or false")
        if self.grand_master and players != 2:
            raise OptionsError(f"the Grand Master variant is for 2 players, not {players}")
        if self.grand_master and not self.akebono:
            raise OptionsError(
                "the Grand Master variant needs the Akebono expansion (its rulebook brings it)"
            )

    @property
    def two_player(self) -> bool:
        return self.players == 2

    @property
    def expansions(self) -> tuple[str, ...]:
        return (Expansion.AKEBONO.value,) if self.akebono else ()

    @property
    def variant(self) -> str | None:
        return GRAND_MASTER if self.grand_master else None


@dataclass(frozen=True, slots=True)
class Fire:
    """The fire at the end of ``month``: its ``strength`` (public) and the Nagaya it hits (hidden until then)."""

    month: int
    strength: int
    nagaya: int


@dataclass(frozen=True, slots=True)
class StartingChoice:
    """A starting character on offer; with Akebono the starting tile placed above it (RULINGS R18)."""

    card: str
    tile: str | None = None


@dataclass(frozen=True, slots=True)
class TwoPlayer:
    """Two players (RULINGS R17): the blocking tile of each month (index 0 = month 1) and the Sun's seat."""

    blocking_tiles: tuple[int, ...]
    sun: int

    @property
    def moon(self) -> int:
        return 3 - self.sun


@dataclass(frozen=True, slots=True)
class AkebonoSetup:
    """The Akebono draws (RULINGS R18). ``river_tokens`` maps season -> kind -> the one token put in the river;
    the other two of that season and kind go to the main board."""

    boat_sides: Mapping[str, Side]
    personalities: Mapping[str, tuple[str, str]]
    new_characters: Mapping[int, str]
    river_tokens: Mapping[str, Mapping[str, str]]

    def board_tokens(self, season: str, kind: str) -> tuple[str, str]:
        """The two tokens of ``season`` and ``kind`` that go to the main board (catalogue order)."""
        river = self.river_tokens[season][kind]
        ids = [t for t in _SEASON_TOKENS[(season, kind)] if t != river]
        return (ids[0], ids[1])


@dataclass(frozen=True, slots=True)
class Setup:
    """One game's setup. Seats are numbered 1..N clockwise."""

    seed: str
    options: Options
    first_player: int
    draft_order: tuple[int, ...]
    buildings: tuple[str, ...]
    fires: tuple[Fire, ...]
    starting_characters: tuple[StartingChoice, ...]
    two_player: TwoPlayer | None
    akebono: AkebonoSetup | None
    generator_version: int = field(default=GENERATOR_VERSION)

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def code(self) -> SetupCode:
        """The parsed setup code (``seed`` is its canonical text): its re-rolls and house rules."""
        return parse_code(self.seed)

    def to_json(self) -> dict[str, Any]:
        """The JSON of docs/api.md "Setup": ``two_player`` and ``akebono`` are null when not in play."""
        ake = self.akebono
        return {
            "seed": self.seed,
            "generator_version": self.generator_version,
            "players": self.options.players,
            "expansions": list(self.options.expansions),
            "variant": self.options.variant,
            "first_player": self.first_player,
            "draft_order": list(self.draft_order),
            "buildings": list(self.buildings),
            "fires": [{"month": f.month, "strength": f.strength, "nagaya": f.nagaya} for f in self.fires],
            "starting_characters": [{"card": s.card, "tile": s.tile} for s in self.starting_characters],
            "two_player": None
            if self.two_player is None
            else {"blocking_tiles": list(self.two_player.blocking_tiles), "sun": self.two_player.sun},
            "akebono": None
            if ake is None
            else {
                "boat_sides": dict(ake.boat_sides),
                "personalities": {s: list(p) for s, p in ake.personalities.items()},
                "new_characters": {str(m): c for m, c in ake.new_characters.items()},
                "river_tokens": {s: dict(k) for s, k in ake.river_tokens.items()},
            },
            "redrawn": sorted(self.code.rerolls),
            "house_rules": {
                "banned_buildings": list(self.code.house.banned_buildings),
                "required_buildings": list(self.code.house.required_buildings),
                "banned_personalities": list(self.code.house.banned_personalities),
                "required_personalities": list(self.code.house.required_personalities),
            },
        }


# --- the draws ------------------------------------------------------------------------------------------------


def _shuffled(rng: random.Random, items: Sequence[_T]) -> list[_T]:
    """A uniformly shuffled copy (Fisher-Yates with ``rng.randrange``: stable across Python versions)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _pick(rng: random.Random, items: Sequence[_T]) -> _T:
    return items[rng.randrange(len(items))]


def draft_order(first_player: int, players: int) -> tuple[int, ...]:
    """Starting characters are drafted counterclockwise from the last player in turn order (RULINGS R15)."""
    return tuple((first_player - 2 - i) % players + 1 for i in range(players))


def draw_base_buildings(rng: random.Random) -> tuple[str, ...]:
    """6 of the 10 base buildings at random (RULINGS R15)."""
    return tuple(b.id for b in _shuffled(rng, _BASE_BUILDINGS)[:BUILDINGS_IN_PLAY])


def display_buildings(deck: Sequence[Building], placed: Sequence[Building] = ()) -> tuple[str, ...]:
    """Akebono "Setup" step 8 (RULINGS R18) on a shuffled ``deck``: buildings are shown one at a time; a third
    building with an ongoing ability is discarded and the next one drawn, until 6 are shown. ``placed``: the
    house's required buildings, shown first and counted like any other (issue 26)."""
    shown: list[Building] = list(placed)
    for building in deck:
        if building.ongoing and sum(b.ongoing for b in shown) >= MAX_ONGOING_BUILDINGS:
            continue
        shown.append(building)
        if len(shown) == BUILDINGS_IN_PLAY:
            break
    return tuple(b.id for b in shown)


def draw_akebono_buildings(rng: random.Random) -> tuple[str, ...]:
    """The 20 buildings (base and Akebono) shuffled, then shown as :func:`display_buildings` says: the physical
    draw, not a uniform pick among the allowed sets (RULINGS R18)."""
    return display_buildings(_shuffled(rng, BUILDINGS))


def draw_fires(rng: random.Random, players: int) -> tuple[Fire, ...]:
    """Three independent draws of the 4 Fire tiles, reshuffled after each fire (RULINGS R16)."""
    strengths = FIRE_STRENGTH[players]
    return tuple(
        Fire(month, strength, _pick(rng, NAGAYAS))
        for month, strength in zip(FIRE_MONTHS, strengths, strict=True)
    )


def draw_starting_characters(rng: random.Random, options: Options) -> tuple[StartingChoice, ...]:
    """Base: the 4 starting characters, all on offer (RULINGS R15). Akebono: players + 1 of the 5, each with one
    of the 5 starting tiles (RULINGS R18)."""
    if not options.akebono:
        return tuple(StartingChoice(c.id) for c in _BASE_STARTING)
    cards = _shuffled(rng, STARTING_CHARACTERS)[: options.players + 1]
    tiles = _shuffled(rng, STARTING_TILES)
    return tuple(StartingChoice(c.id, t.id) for c, t in zip(cards, tiles, strict=False))


def draw_boat_sides(rng: random.Random) -> Mapping[str, Side]:
    """Akebono "Setup" step 4B: each buildable boat on a random side (RULINGS R18)."""
    return MappingProxyType({b.id: _pick(rng, ("A", "B")) for b in BUILDABLE_BOATS})


def draw_season_personalities(
    rng: random.Random, season: str, house: HouseRules | None = None
) -> tuple[str, str]:
    """2 of the season's 5 personalities (RULINGS R18), in catalogue order. With house rules (issue 26): the
    required ones first, the rest drawn the same way from the season's cards neither banned nor required."""
    cards = _PERSONALITIES_OF[season]
    required = [p.id for p in cards if house is not None and p.id in house.required_personalities]
    allowed = [p for p in cards if house is None or p.id not in (*house.banned_personalities, *required)]
    drawn = required + [p.id for p in _shuffled(rng, allowed)[: PERSONALITIES_PER_SEASON - len(required)]]
    first, second = sorted(drawn, key=_PERSONALITY_ORDER.__getitem__)
    return (first, second)


def draw_new_characters(rng: random.Random) -> Mapping[int, str]:
    """One New Character of each month's pair kept (RULINGS R18)."""
    return MappingProxyType({month: _pick(rng, pair) for month, pair in _NEW_CHARACTERS_OF.items()})


def draw_river_tokens(rng: random.Random) -> Mapping[str, Mapping[str, str]]:
    """Each season's one token of each kind put in the river (RULINGS R18)."""
    return MappingProxyType(
        {
            season.value: MappingProxyType(
                {kind.value: _pick(rng, _SEASON_TOKENS[(season.value, kind.value)]) for kind in TOKEN_KINDS}
            )
            for season in SEASONS
        }
    )


def draw_akebono(rng: random.Random) -> AkebonoSetup:
    """Akebono "Setup" steps 4B, 5, 6 and 7 (RULINGS R18), in this order of draws."""
    sides = draw_boat_sides(rng)
    personalities = {season.value: draw_season_personalities(rng, season.value) for season in SEASONS}
    new_characters = draw_new_characters(rng)
    return AkebonoSetup(
        boat_sides=sides,
        personalities=MappingProxyType(personalities),
        new_characters=new_characters,
        river_tokens=draw_river_tokens(rng),
    )


def generate_with(options: Options, rng: random.Random, seed: str) -> Setup:
    """The pure core: every draw of the setup from ``rng``, in a fixed order. ``seed`` is recorded as given
    (normalized); it does not influence the draws here."""
    options.validate()
    seed = normalize_seed(seed)
    players = options.players
    first = rng.randrange(players) + 1
    buildings = draw_akebono_buildings(rng) if options.akebono else draw_base_buildings(rng)
    fires = draw_fires(rng, players)
    starting = draw_starting_characters(rng, options)
    two_player = None
    if options.two_player:
        # RULINGS R17: Sun and Moon dealt at random and the Sun starts, so the Sun goes to the first player.
        two_player = TwoPlayer(blocking_tiles=tuple(_shuffled(rng, BLOCKING_TILES)), sun=first)
    akebono = draw_akebono(rng) if options.akebono else None
    return Setup(
        seed=seed,
        options=options,
        first_player=first,
        draft_order=draft_order(first, players),
        buildings=buildings,
        fires=fires,
        starting_characters=starting,
        two_player=two_player,
        akebono=akebono,
    )


def rng_for(options: Options, seed: str) -> random.Random:
    """The generator for ``seed`` and ``options``: SHA-256 of the version, the seed and the options (RULINGS R19)."""
    return _rng(f"iki-setup|v{GENERATOR_VERSION}|{normalize_seed(seed)}|p{options.players}", options)


def _rng(key: str, options: Options) -> random.Random:
    key += f"|akebono={int(options.akebono)}|grand_master={int(options.grand_master)}"
    return random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest(), "big"))


def part_rng(options: Options, code: SetupCode, part: str) -> random.Random:
    """The generator of one part drawn on its own (issue 26): re-rolled (its salt) or under house rules (the
    code's house sections). Keyed by the seed, the options, the part, its salt and the house rules, so the part
    is drawn the same way from the same code, always, and no other part moves."""
    salt = code.rerolls.get(part, "")
    house = str(SetupCode(code.seed, house=code.house)).partition(".")[2]
    key = f"iki-setup|v{GENERATOR_VERSION}|{code.seed}|p{options.players}"
    return _rng(f"{key}|part={part}|salt={salt}|house={house}", options)


def _names(ids: Sequence[str], names: Mapping[str, str]) -> str:
    return ", ".join(names[i] for i in ids)


_BUILDING_BY_ID: Final = {b.id: b for b in BUILDINGS}
_BUILDING_NAMES: Final = {b.id: b.name for b in BUILDINGS}
_PERSONALITY_NAMES: Final = {p.id: p.name for p in PERSONALITIES}


def house_rules(ban: Sequence[str] = (), require: Sequence[str] = ()) -> HouseRules:
    """House rules from card ids (buildings or personalities, in any case); :class:`HouseRuleError` naming the
    field (``ban`` or ``require``) for an id that is neither. The API, the pages and the command read them so."""
    chosen: dict[str, list[str]] = {}
    for which, ids, (buildings, personalities) in (
        ("ban", ban, ("banned_buildings", "banned_personalities")),
        ("require", require, ("required_buildings", "required_personalities")),
    ):
        for card in (i.strip().lower() for i in ids):
            if card in _BUILDING_BY_ID:
                chosen.setdefault(buildings, []).append(card)
            elif card in _PERSONALITY_NAMES:
                chosen.setdefault(personalities, []).append(card)
            else:
                raise HouseRuleError(
                    which, f"{which}: {quote(card)} is not a building or a personality of IKI"
                )
    return HouseRules(**{name: tuple(ids) for name, ids in chosen.items()})


def check_house_rules(options: Options, house: HouseRules) -> None:
    """:class:`HouseRuleError` if the draw cannot meet ``house`` with ``options`` (issue 26): a card both banned
    and required, a card not in this game, more required than are in play, more ongoing-ability buildings
    required than Akebono keeps (RULINGS R18), or too few cards left for the draw."""
    both = set(house.banned_buildings) & set(house.required_buildings)
    both |= set(house.banned_personalities) & set(house.required_personalities)
    if both:
        names = {**_BUILDING_NAMES, **_PERSONALITY_NAMES}
        raise HouseRuleError("require", f"{_names(sorted(both), names)} cannot be both banned and required")
    if not options.akebono:
        for field, ids in (("ban", house.banned_buildings), ("require", house.required_buildings)):
            foreign = [i for i in ids if _BUILDING_BY_ID[i].expansion is not Expansion.BASE]
            if foreign:
                raise HouseRuleError(field, f"{_names(foreign, _BUILDING_NAMES)}: only in play with Akebono")
        for field, ids in (("ban", house.banned_personalities), ("require", house.required_personalities)):
            if ids:
                raise HouseRuleError(field, "personalities are only in play with Akebono")
    pool = BUILDINGS if options.akebono else _BASE_BUILDINGS
    if len(house.required_buildings) > BUILDINGS_IN_PLAY:
        raise HouseRuleError(
            "require",
            f"{len(house.required_buildings)} buildings are required, but only {BUILDINGS_IN_PLAY} are in play",
        )
    left = [b for b in pool if b.id not in house.banned_buildings]
    if options.akebono:
        ongoing = [i for i in house.required_buildings if _BUILDING_BY_ID[i].ongoing]
        if len(ongoing) > MAX_ONGOING_BUILDINGS:
            raise HouseRuleError(
                "require",
                f"{len(ongoing)} buildings with an ongoing ability are required "
                f"({_names(ongoing, _BUILDING_NAMES)}), but at most {MAX_ONGOING_BUILDINGS} stay in play "
                "with Akebono",
            )
        can_show = sum(not b.ongoing for b in left) + min(MAX_ONGOING_BUILDINGS, sum(b.ongoing for b in left))
    else:
        can_show = len(left)
    if can_show < BUILDINGS_IN_PLAY:
        raise HouseRuleError(
            "ban",
            f"too few buildings left: with these bans only {can_show} can be shown, and {BUILDINGS_IN_PLAY} "
            "are in play",
        )
    for season in SEASONS:
        cards = [p.id for p in _PERSONALITIES_OF[season.value]]
        required = [p for p in cards if p in house.required_personalities]
        if len(required) > PERSONALITIES_PER_SEASON:
            raise HouseRuleError(
                "require",
                f"{len(required)} {season.value} personalities are required "
                f"({_names(required, _PERSONALITY_NAMES)}), but only {PERSONALITIES_PER_SEASON} are in play",
            )
        if sum(p not in house.banned_personalities for p in cards) < PERSONALITIES_PER_SEASON:
            raise HouseRuleError(
                "ban",
                f"too few {season.value} personalities left: {PERSONALITIES_PER_SEASON} of the season's "
                f"{len(cards)} are in play",
            )


def draw_buildings(rng: random.Random, options: Options, house: HouseRules | None = None) -> tuple[str, ...]:
    """The buildings (RULINGS R15, R18); with house rules (issue 26) the required ones are placed first and the
    rest drawn by the same procedure from the cards neither banned nor required."""
    if house is None or not house.buildings:
        return draw_akebono_buildings(rng) if options.akebono else draw_base_buildings(rng)
    placed = [_BUILDING_BY_ID[i] for i in house.required_buildings]
    pool = BUILDINGS if options.akebono else _BASE_BUILDINGS
    deck = _shuffled(
        rng, [b for b in pool if b.id not in (*house.banned_buildings, *house.required_buildings)]
    )
    if options.akebono:
        return display_buildings(deck, placed)
    return tuple(b.id for b in placed) + tuple(b.id for b in deck[: BUILDINGS_IN_PLAY - len(placed)])


def _redrawn(setup: Setup, code: SetupCode) -> Setup:
    """``setup`` (the seed's draws) with each part the code re-rolls or its house rules touch drawn on its own."""
    options, house = setup.options, code.house

    def touched(part: str) -> random.Random | None:
        return part_rng(options, code, part) if part in code.rerolls else None

    first = setup.first_player
    if (rng := touched("first-player")) is not None:
        first = rng.randrange(options.players) + 1
    buildings = setup.buildings
    if "buildings" in code.rerolls or house.buildings:
        buildings = draw_buildings(part_rng(options, code, "buildings"), options, house)
    fires = setup.fires
    if (rng := touched("fires")) is not None:
        fires = draw_fires(rng, options.players)
    starting = setup.starting_characters
    if options.akebono and (rng := touched("starting-characters")) is not None:
        starting = draw_starting_characters(rng, options)
    two_player = setup.two_player
    if two_player is not None:
        tiles = two_player.blocking_tiles
        if (rng := touched("blocking-tiles")) is not None:
            tiles = tuple(_shuffled(rng, BLOCKING_TILES))
        two_player = TwoPlayer(blocking_tiles=tiles, sun=first)  # RULINGS R17: the Sun starts
    akebono = setup.akebono
    if akebono is not None:
        sides = akebono.boat_sides
        if (rng := touched("boat-sides")) is not None:
            sides = draw_boat_sides(rng)
        personalities = dict(akebono.personalities)
        for season in SEASONS:
            part = SEASON_PART[season.value]
            ruled = house.season_ruled(p.id for p in _PERSONALITIES_OF[season.value])
            if part in code.rerolls or ruled:
                rng = part_rng(options, code, part)
                personalities[season.value] = draw_season_personalities(rng, season.value, house)
        new_characters = akebono.new_characters
        if (rng := touched("new-characters")) is not None:
            new_characters = draw_new_characters(rng)
        river = akebono.river_tokens
        if (rng := touched("river-tokens")) is not None:
            river = draw_river_tokens(rng)
        akebono = AkebonoSetup(sides, MappingProxyType(personalities), new_characters, river)
    return Setup(
        seed=str(code),
        options=options,
        first_player=first,
        draft_order=draft_order(first, options.players),
        buildings=buildings,
        fires=fires,
        starting_characters=starting,
        two_player=two_player,
        akebono=akebono,
    )


def applicable_parts(options: Options) -> tuple[str, ...]:
    """The keys of the parts that are random with ``options`` (what the setup page offers to draw again)."""
    return tuple(
        p.key
        for p in PARTS
        if (options.akebono or not p.akebono) and (options.two_player or not p.two_player)
    )


def generate(options: Options, seed: str | SetupCode | None = None, house: HouseRules | None = None) -> Setup:
    """The setup for the setup code ``seed`` (:func:`setupgen.code.parse_code`; :class:`SeedError` if malformed;
    a new seed from :mod:`secrets` when None) and ``options``; ``house``: house rules added to the code's. The
    same code and options give the same setup, always; an 8-character code gives what it always gave.
    :class:`HouseRuleError` when the draw cannot meet the house rules."""
    if seed is None:
        code = SetupCode(new_seed())
    elif isinstance(seed, SetupCode):
        code = seed
    else:
        code = parse_code(seed)
    if house:
        code = code.with_house(code.house.merged(house))
    foreign = [PART_BY_KEY[k].label for k in code.rerolls if k not in applicable_parts(options)]
    if foreign:
        raise OptionsError(f"this setup code draws again a part not in this game: {', '.join(foreign)}")
    check_house_rules(options, code.house)
    setup = generate_with(options, rng_for(options, code.seed), code.seed)
    return setup if code.plain else _redrawn(setup, code)


__all__ = [
    "FIRE_MONTHS",
    "GENERATOR_VERSION",
    "AkebonoSetup",
    "Fire",
    "HouseRuleError",
    "Options",
    "OptionsError",
    "SeedError",
    "Setup",
    "StartingChoice",
    "TwoPlayer",
    "applicable_parts",
    "check_house_rules",
    "generate",
    "generate_with",
    "house_rules",
    "rng_for",
]
