"""The components of Traders of Osaka as typed constants (traders-of-osaka-rulebook.txt "COMPONENTS", RULINGS O1).

Every number the rules use is stated once here, with the line of the rulebook it comes from; the payday
(:mod:`scoring.osaka.rules`), the validator, the pages and the tally sheet read them from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Final, Generic, TypeVar


class Colour(StrEnum):
    """The colour of goods, cards, ships and achievement tokens ("COMPONENTS": red, blue, yellow and green)."""

    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"
    GREEN = "green"

    @property
    def label(self) -> str:
        return self.value.capitalize()


COLOURS: Final[tuple[Colour, ...]] = tuple(Colour)


class Trader(StrEnum):
    """A player's colour: Trader and Reservation pieces in white, pink, gray and tan (RULINGS O1)."""

    WHITE = "white"
    PINK = "pink"
    GRAY = "gray"
    TAN = "tan"

    @property
    def label(self) -> str:
        return self.value.capitalize()


TRADERS: Final[tuple[Trader, ...]] = tuple(Trader)

#: RULINGS O1: 2-4 players.
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4

#: "COMPONENTS": 27 cards per colour, 11 x "2", 9 x "3", 7 x "5".
CARD_VALUES: Final[tuple[int, ...]] = (2, 3, 5)
COPIES: Final[Mapping[int, int]] = MappingProxyType({2: 11, 3: 9, 5: 7})
#: "INSURANCE": value "2" cards have 2 insurance icons, "3" cards have 1, "5" cards none (RULINGS O3).
ICONS: Final[Mapping[int, int]] = MappingProxyType({2: 2, 3: 1, 5: 0})
#: "COMPONENTS": 48 achievement tokens, 12 per colour; "If a shortage of Achievement tokens occurs, use some other
#: substitute", so a table may hold more than 12 of a colour.
TOKENS_PER_COLOUR: Final = 12
#: "After Step 2 of a Payday ... the game ends immediately if at least one player has 8 or more Achievement tokens."
END_TOKENS: Final = 8
#: "For every five points, you take one card from the set as a VP"; the value is "rounded up to the nearest 5 or 10"
#: (RULINGS O4).
VP_STEP: Final = 5
#: "ADVANCING SHIPS": "If only one good was bought for that color, the corresponding ship advances one step. If two
#: or more goods were bought for that color, the corresponding ship advances two steps."
SHIP_STEP_ONE: Final = 1
SHIP_STEP_MANY: Final = 2
#: "PREPARATION": each player draws "until the sum of their cards' values is 8 or higher".
START_HAND: Final = 8


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a good when bought, a coin in the hand, a VP when scored ("COMPONENTS")."""

    colour: Colour
    value: int

    @property
    def icons(self) -> int:
        return ICONS[self.value]


#: The 108 cards of the game, by colour and value.
DECK: Final[tuple[Card, ...]] = tuple(
    Card(colour, value) for colour in COLOURS for value in CARD_VALUES for _ in range(COPIES[value])
)
CARDS_PER_COLOUR: Final = sum(COPIES.values())

T = TypeVar("T")
U = TypeVar("U")


@dataclass(frozen=True, slots=True)
class ByColour(Generic[T]):
    """One value per goods colour (a player's tokens, the values of their goods of each colour): immutable and
    hashable, read as ``tokens[Colour.RED]``."""

    red: T
    blue: T
    yellow: T
    green: T

    def __getitem__(self, colour: Colour) -> T:
        value: T = getattr(self, colour)  # a StrEnum member is its value: no slow `.value` lookup
        return value

    def items(self) -> Iterator[tuple[Colour, T]]:
        for colour in COLOURS:
            yield colour, self[colour]

    def values(self) -> Iterator[T]:
        for colour in COLOURS:
            yield self[colour]

    def set(self, colour: Colour, value: T) -> ByColour[T]:
        """A copy with ``colour`` set to ``value``."""
        changed: ByColour[T] = replace(self, **{colour.value: value})
        return changed

    def map(self, fn: Callable[[T], U]) -> ByColour[U]:
        return ByColour(fn(self.red), fn(self.blue), fn(self.yellow), fn(self.green))

    @staticmethod
    def of(values: Mapping[Colour, T], default: T) -> ByColour[T]:
        """The values of a mapping, ``default`` for the colours it does not name."""
        return ByColour(*(values.get(colour, default) for colour in COLOURS))


def no_tokens() -> ByColour[int]:
    return ByColour(0, 0, 0, 0)


def no_cards() -> ByColour[tuple[int, ...]]:
    return ByColour((), (), (), ())
