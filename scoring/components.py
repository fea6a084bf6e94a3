"""The kinds of components of IKI and IKI Akebono, as typed constants and frozen dataclasses.

The data itself lives in :mod:`scoring.data`; :mod:`scoring.catalogue` indexes it. Ids follow RULINGS R1.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Expansion(StrEnum):
    """Where a component comes from. ``BASE`` is the 2022 edition of IKI."""

    BASE = "base"
    AKEBONO = "akebono"


class Season(StrEnum):
    """RULINGS R1: spring (months 1-3), summer (4-6), autumn (7-9), winter (10-12)."""

    SPRING = "spring"
    SUMMER = "summer"
    AUTUMN = "autumn"
    WINTER = "winter"

    @property
    def months(self) -> tuple[int, int, int]:
        first = 1 + 3 * SEASONS.index(self)
        return (first, first + 1, first + 2)

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @staticmethod
    def of_month(month: int) -> Season:
        if not 1 <= month <= 12:
            raise ValueError(f"month {month} is not 1-12")
        return SEASONS[(month - 1) // 3]


SEASONS: tuple[Season, ...] = tuple(Season)


class CharType(StrEnum):
    """The five character types (columns of the player board), RULINGS R1/R2, in the player board's order."""

    STREET_PEDDLER = "street-peddler"
    ARTISAN = "artisan"
    SPECIAL = "special"
    MASTER_CRAFTSMAN = "master-craftsman"
    SHOP_SELLER = "shop-seller"

    @property
    def label(self) -> str:
        return _TYPE_LABELS[self]  # a StrEnum member is its value: no slow `.value` lookup

    @property
    def plural(self) -> str:
        return _TYPE_PLURALS[self]


CHAR_TYPES: tuple[CharType, ...] = tuple(CharType)
_TYPE_LABELS: dict[str, str] = {t.value: t.value.replace("-", " ").title() for t in CharType}
_TYPE_PLURALS: dict[str, str] = {
    **{t.value: label + "s" for t, label in zip(CharType, _TYPE_LABELS.values(), strict=True)},
    "master-craftsman": "Master Craftsmen",
    "special": "Special characters",
}


class Wild(StrEnum):
    """How a card picks its type (RULINGS R5)."""

    NO = "no"
    WHEN_RETIRED = "when-retired"  # Puppeteer: the owner's choice once retired (holds the `puppeteer` token)
    ALWAYS = "always"  # Mounted Samurai, Rice Broker: always the owner's choice


@dataclass(frozen=True, slots=True)
class Character:
    """A character card. ``season`` is None for starting characters; ``month`` is set for New Characters.

    ``type`` is the printed type (RULINGS R2); it is None for the two month-12 New Characters, whose type is
    always chosen by their owner (RULINGS R5). ``experience`` is the salary track from the lowest level up, as
    printed; it is empty where the rulebook text only shows a retirement token. ``firefighting_gain`` and
    ``trade_gain`` are the spaces its printed hiring bonus moves the hirer's markers up (RULINGS R13: a marker
    never moves down, so a player's position is at least the sum over the cards they hired).
    """

    id: str
    name: str
    expansion: Expansion
    type: CharType | None
    season: Season | None
    month: int | None
    starting: bool
    hiring_bonus: str | None
    skill: str
    experience: tuple[str, ...]
    retirement_token: str | None
    wild: Wild = Wild.NO
    firefighting_gain: int = 0
    trade_gain: int = 0

    @property
    def new_character(self) -> bool:
        return self.month is not None

    @property
    def group(self) -> str:
        """'starting', a season, or 'month N' for New Characters: how the rulebook appendix groups cards."""
        if self.starting:
            return "starting"
        if self.month is not None:
            return f"month {self.month}"
        assert self.season is not None
        return self.season.value


class BuildingRule(StrEnum):
    """How a building scores at the end of the game (RULINGS R8)."""

    FIXED = "fixed"
    PER_SANDAL = "per-sandal"
    PER_RICE = "per-rice"
    PER_FIREFIGHTING = "per-firefighting"
    FISH_LINE = "fish-line"
    PER_BOAT = "per-boat"
    PER_TYPE = "per-type"
    PER_TOKEN = "per-token"
    PER_LARGEST_COLUMN = "per-largest-column"
    PER_PERSONALITY = "per-personality"
    PER_TRADE = "per-trade"


@dataclass(frozen=True, slots=True)
class Building:
    """A building card: ``points`` is the fixed value or the value per unit, ``cap`` the printed maximum."""

    id: str
    name: str
    expansion: Expansion
    rule: BuildingRule
    points: int
    cap: int | None
    ongoing: bool
    cost: str | None
    ability: str | None
    scoring: str


class TokenKind(StrEnum):
    FISH = "fish"
    PIPE = "pipe"
    TOBACCO = "tobacco"


class TobaccoRule(StrEnum):
    """The end-game value of a tobacco pouch (RULINGS R7), before the pipe doubling."""

    FIXED = "fixed"
    HALF_FIREFIGHTING = "half-firefighting"
    DISTINCT_TYPES = "distinct-types"
    LARGEST_COLUMN = "largest-column"
    QUARTER_MON = "quarter-mon"
    PERSONALITIES = "personalities"
    HALF_TRADE = "half-trade"
    KOBANS = "kobans"
    SPECIAL_CHARACTERS = "special-characters"


@dataclass(frozen=True, slots=True)
class Token:
    """A fish, pipe or tobacco token (RULINGS R1 ids).

    ``season`` is None for the two special tokens earned by retiring the Fisherman / Policeman. For fish,
    ``points`` is the end-game bonus (RULINGS R6); for tobacco it is the fixed value when ``tobacco_rule`` is
    FIXED (RULINGS R7); pipes score nothing themselves. ``firefighting_gain`` and ``trade_gain`` are the spaces
    a pipe's printed immediate effect moves the buyer's markers up (RULINGS R13).
    """

    id: str
    name: str
    kind: TokenKind
    season: Season | None
    expansion: Expansion
    effect: str
    points: int = 0
    tobacco_rule: TobaccoRule | None = None
    source: str | None = None  # character whose retirement gives the token
    firefighting_gain: int = 0
    trade_gain: int = 0


@dataclass(frozen=True, slots=True)
class RetirementToken:
    """A special token a player may hold (RULINGS R1). ``sources`` are the ids that give it; one suffices."""

    id: str
    name: str
    expansion: Expansion
    sources: tuple[str, ...]
    supply: int
    effect: str


@dataclass(frozen=True, slots=True)
class BoatToken:
    """An Akebono Boat token (Appendix 5, "7 Boat tokens (x3)"), gained from the Carrying ship's side A and
    returned when spent: catalogue only, it scores nothing and is not part of a player's entry (RULINGS R1)."""

    id: str
    name: str
    effect: str


@dataclass(frozen=True, slots=True)
class StartingTile:
    """Akebono starting tile (Appendix 5 order)."""

    id: str
    name: str
    effect: str


class PersonalityRule(StrEnum):
    """End-game condition of a personality (RULINGS R10); NONE for personalities scoring nothing at the end."""

    NONE = "none"
    ARTISANS_AT_LEAST = "artisans-at-least"
    MON_AT_MOST = "mon-at-most"
    LAST_IN_FIREFIGHTING = "last-in-firefighting"
    CHARACTERS_AT_LEAST = "characters-at-least"
    PIPES_AT_LEAST = "pipes-at-least"
    NEW_CHARACTERS_AT_LEAST = "new-characters-at-least"
    BOATS_AND_BUILDINGS = "boats-and-buildings"
    FULL_SET = "pipe-tobacco-fish-boat"


@dataclass(frozen=True, slots=True)
class Personality:
    id: str
    name: str
    season: Season
    role: str  # as printed: "Publisher", "Thief", ...
    timing: str  # "ongoing", "immediate" or "end game"
    effect: str
    rule: PersonalityRule = PersonalityRule.NONE
    points: int = 0
    threshold: int = 0


@dataclass(frozen=True, slots=True)
class Boat:
    """An Akebono boat tile. ``number`` 1-6 for the buildable boats; the Tea Boat has none and is never built."""

    id: str
    name: str
    number: int | None
    cost: str | None
    trade_bonus: int
    side_a: str
    side_b: str | None

    @property
    def buildable(self) -> bool:
        return self.number is not None

    @property
    def two_sided(self) -> bool:
        return self.side_b is not None
