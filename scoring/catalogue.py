"""The catalogue: every component of IKI (2022) and IKI Akebono, indexed by id (RULINGS R1).

Facts deduced rather than printed live in :data:`INFERRED`, each with the ruling it rests on, so a correction is
a one-line change here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from types import MappingProxyType
from typing import Final, Protocol, TypeVar

from scoring.components import (
    CHAR_TYPES,
    SEASONS,
    Character,
    CharType,
    Expansion,
    Personality,
    Season,
    Token,
    TokenKind,
    Wild,
)
from scoring.data.characters import CHARACTERS
from scoring.data.components import (
    BOAT_TOKENS,
    BOATS,
    BUILDINGS,
    PERSONALITIES,
    RETIREMENT_TOKENS,
    STARTING_TILES,
    TOKENS,
)

EXPANSIONS: Final = ("akebono",)
ANY_PREFIX: Final = "any-"


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


_T = TypeVar("_T", bound=_HasId)


def _index(items: Iterable[_T]) -> Mapping[str, _T]:
    out: dict[str, _T] = {}
    for item in items:
        if item.id in out:
            raise ValueError(f"duplicate id {item.id!r} in the catalogue")
        out[item.id] = item
    return MappingProxyType(out)


CHARACTER_BY_ID: Final = _index(CHARACTERS)
BUILDING_BY_ID: Final = _index(BUILDINGS)
TOKEN_BY_ID: Final = _index(TOKENS)
RETIREMENT_TOKEN_BY_ID: Final = _index(RETIREMENT_TOKENS)
STARTING_TILE_BY_ID: Final = _index(STARTING_TILES)
PERSONALITY_BY_ID: Final = _index(PERSONALITIES)
BOAT_BY_ID: Final = _index(BOATS)
BOAT_TOKEN_BY_ID: Final = _index(BOAT_TOKENS)

#: Placeholder ids for a character a player holds but does not name (RULINGS R1): ``any-artisan``...
ANY_CHARACTER_IDS: Final = tuple(ANY_PREFIX + t.value for t in CHAR_TYPES)

STARTING_CHARACTERS: Final = tuple(c for c in CHARACTERS if c.starting)
NEW_CHARACTERS: Final = tuple(c for c in CHARACTERS if c.new_character)
STARTING_IDS: Final = frozenset(c.id for c in STARTING_CHARACTERS)
NEW_CHARACTER_IDS: Final = frozenset(c.id for c in NEW_CHARACTERS)
#: Cards whose type may be their owner's choice (RULINGS R5): the Puppeteer once retired, the two month-12 cards.
WILD_IDS: Final = frozenset(c.id for c in CHARACTERS if c.wild is not Wild.NO)
BUILDABLE_BOATS: Final = tuple(b for b in BOATS if b.buildable)
TWO_SIDED_BOATS: Final = tuple(b for b in BUILDABLE_BOATS if b.two_sided)


def any_type(character_id: str) -> CharType | None:
    """The type of an ``any-{type}`` placeholder, or None for any other id."""
    if not character_id.startswith(ANY_PREFIX):
        return None
    try:
        return CharType(character_id[len(ANY_PREFIX) :])
    except ValueError:
        return None


def expansions_of(names: Iterable[str]) -> frozenset[Expansion]:
    """The set of expansions in play for a list of expansion names (the base game is always in play)."""
    return frozenset({Expansion.BASE, *(Expansion(n) for n in names)})


def in_play(expansion: Expansion, expansions: frozenset[Expansion]) -> bool:
    return expansion in expansions


def new_characters_of_month(month: int) -> tuple[Character, ...]:
    return tuple(c for c in NEW_CHARACTERS if c.month == month)


def personalities_of_season(season: Season) -> tuple[Personality, ...]:
    return tuple(p for p in PERSONALITIES if p.season is season)


def tokens_of(kind: TokenKind, season: Season | None, expansions: frozenset[Expansion]) -> tuple[Token, ...]:
    return tuple(t for t in TOKENS if t.kind is kind and t.season is season and t.expansion in expansions)


@cache
def type_supply(expansions: frozenset[Expansion]) -> Mapping[CharType, int]:
    """How many printed cards of each type exist in the selected game (RULINGS R2; R13 supply check)."""
    counts = dict.fromkeys(CHAR_TYPES, 0)
    for c in CHARACTERS:
        if c.type is not None and c.expansion in expansions:
            counts[c.type] += 1
    return MappingProxyType(counts)


#: Every fact or reading the product uses that the rulebooks imply without printing, in one place (RULINGS
#: "Inferred"), each with the ruling or the lines it rests on. The code that uses one cites its key.
INFERRED: Final[Mapping[str, str]] = MappingProxyType(
    {
        "character-types": "RULINGS R2: each base character's type, from Appendix 1 order and the totals "
        "17/15/12/9/7.",
        "new-character-pairs": "RULINGS R2: the two New Characters of a month share a type; month 12's are wild.",
        "token-ids": "RULINGS R1: fish/pipe/tobacco tokens have no printed names; their ids and order are fixed "
        "there.",
        "fish-bonus": "RULINGS R6: the dearer fish of each season carries the +1/+7/+1/+7 bonus.",
        "trade-track-length": "RULINGS R11: the trade track runs 0-10; space 10 is its last bonus space.",
        "trade-never-down": 'RULINGS R13: the trade marker never moves down: Akebono "Progressing on the Trade '
        "track\" gives only two ways to move it, both up, and nothing spends trade spaces; so a player's trade "
        "is at least the printed trade gains of the cards and pipes they hold.",
        "printed-gains": "RULINGS R13: a marker's lower bound counts only gains that surely happened: hiring "
        "bonuses and pipes' immediate effects. A boat's building bonus (trade OR activate), a starting tile (not "
        "recorded), Ryotaku Maeno (depends on the order of hires), skills and boat actions count 0.",
        "blocking-tiles": "RULINGS R17: the 12 blocking tiles are 1, 2, 3, 4 three times each.",
        "neutral-placer": "RULINGS R17: the Sun's holder (who starts) places the neutral card on odd months, the "
        'Moon\'s on even months (the icons of "RULES FOR 2 PLAYERS: Neutral characters" were lost; the 2015 '
        "text gives the odd months to the starting player).",
        "neutral-before-season-end": "RULINGS R17: in months 3, 6, 9 and 12 the neutral card is placed before "
        "the season's unhired cards leave the game.",
        "neutral-before-new-character-discard": "RULINGS R17: with Akebono the neutral card is placed before "
        "the month's unhired New Character is discarded, so the Grand Master's option to place it instead "
        '(Akebono "GRAND MASTER" VARIANT) can apply.',
        "phase-b-order": "Phase B is played 1-4 space first, then 1, 2, 3, 4: the number on a space is the turn "
        'order (iki-rulebook.txt "PHASE A": "The number on the spaces indicates the turn order"; condensed '
        'rules "Phase B": "1-4 first, then 1, 2, 3, and 4"). The rulebook\'s "starting with the player '
        'whose Ikizama meeple is on the rightmost space" contradicts its own next line (the leftmost 1-4 '
        "space plays first); RULINGS R26 rules it a slip.",
        "season-end-buildings": "The Imperial Villa's income and the Farmhouse's IKI (\"At the end of each "
        "season\", iki-rulebook.txt Appendix 2) come after Payday's food step: the Farmhouse counts the Kobuns "
        "fed; the rulebook gives the Villa no step of its own. RULINGS is silent.",
        "inn-cost": "The Inn's cost (1 koban + 1 wood) is printed only in two examples of iki-rulebook.txt "
        '("13TH ROUND: NEW YEAR\'S DAY" and "Construction site"); the card\'s icons were lost.',
        "doctor-tokens": "Two Doctor tokens exist: the Doctor's retirement and Genpaku Sugita (Akebono "
        "Appendix 3) both give one; the Akebono box lists 4 special tokens for 3 kinds.",
        "character-limit": "RULINGS R14: an estimate of the characters one player can keep: the starting "
        "character and one hire a month, plus one with Nanpo Ota met, one with the Nagaya Owner's Owner token, "
        "and one more a month once someone built the Ferry boat and its side is A or unknown.",
    }
)


def _kinds() -> Mapping[str, tuple[str, ...]]:
    pairs: list[tuple[str, str]] = [
        *((i, "character") for i in (*CHARACTER_BY_ID, *ANY_CHARACTER_IDS)),
        *((i, "building") for i in BUILDING_BY_ID),
        *((i, t.kind.value) for i, t in TOKEN_BY_ID.items()),
        *((i, "retirement-token") for i in RETIREMENT_TOKEN_BY_ID),
        *((i, "starting-tile") for i in STARTING_TILE_BY_ID),
        *((i, "personality") for i in PERSONALITY_BY_ID),
        *((i, "boat") for i in BOAT_BY_ID),
        *((i, "boat-token") for i in BOAT_TOKEN_BY_ID),
    ]
    out: dict[str, tuple[str, ...]] = {}
    for i, kind in pairs:
        out[i] = (*out.get(i, ()), kind)
    return MappingProxyType(out)


#: The kinds each id names (``puppeteer`` is both a character and a retirement token, RULINGS R1).
KINDS_OF_ID: Final = _kinds()

# Flat lookup tables for the hot paths of reading, validating and scoring (one dict lookup per question).
IDS_BY_KIND: Final[Mapping[str, frozenset[str]]] = MappingProxyType(
    {
        kind: frozenset(i for i, kinds in KINDS_OF_ID.items() if kind in kinds)
        for kind in {k for kinds in KINDS_OF_ID.values() for k in kinds}
    }
)
#: The expansion each id comes from (personalities and boats are Akebono's; ``any-*`` placeholders the base game's).
EXPANSION_OF: Final[Mapping[str, Expansion]] = MappingProxyType(
    {
        **dict.fromkeys(ANY_CHARACTER_IDS, Expansion.BASE),
        **{i: x.expansion for i, x in CHARACTER_BY_ID.items()},
        **{i: x.expansion for i, x in BUILDING_BY_ID.items()},
        **{i: x.expansion for i, x in TOKEN_BY_ID.items()},
        **{i: x.expansion for i, x in RETIREMENT_TOKEN_BY_ID.items()},
        **dict.fromkeys(PERSONALITY_BY_ID, Expansion.AKEBONO),
        **dict.fromkeys(BOAT_BY_ID, Expansion.AKEBONO),
        **dict.fromkeys(BOAT_TOKEN_BY_ID, Expansion.AKEBONO),
    }
)
#: The printed type of each character id, ``any-*`` placeholders included (None: the owner always chooses).
PRINTED_TYPE: Final[Mapping[str, CharType | None]] = MappingProxyType(
    {
        **dict(zip(ANY_CHARACTER_IDS, CHAR_TYPES, strict=True)),
        **{i: c.type for i, c in CHARACTER_BY_ID.items()},
    }
)
ALL_EXPANSIONS: Final = frozenset(Expansion)
#: The printed firefighting / trade gain of each character and pipe that has one (RULINGS R13).
_GAINING: Final[tuple[Character | Token, ...]] = (*CHARACTERS, *TOKENS)
FIREFIGHTING_GAIN: Final[Mapping[str, int]] = MappingProxyType(
    {x.id: x.firefighting_gain for x in _GAINING if x.firefighting_gain}
)
TRADE_GAIN: Final[Mapping[str, int]] = MappingProxyType(
    {x.id: x.trade_gain for x in _GAINING if x.trade_gain}
)


__all__ = [
    "ANY_CHARACTER_IDS",
    "BOATS",
    "BOAT_BY_ID",
    "BOAT_TOKENS",
    "BOAT_TOKEN_BY_ID",
    "BUILDABLE_BOATS",
    "BUILDINGS",
    "BUILDING_BY_ID",
    "CHARACTERS",
    "CHARACTER_BY_ID",
    "CHAR_TYPES",
    "INFERRED",
    "KINDS_OF_ID",
    "NEW_CHARACTERS",
    "PERSONALITIES",
    "PERSONALITY_BY_ID",
    "RETIREMENT_TOKENS",
    "RETIREMENT_TOKEN_BY_ID",
    "SEASONS",
    "STARTING_CHARACTERS",
    "STARTING_TILES",
    "STARTING_TILE_BY_ID",
    "TOKENS",
    "TOKEN_BY_ID",
    "TWO_SIDED_BOATS",
]
