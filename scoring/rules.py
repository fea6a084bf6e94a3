"""The numbers of the rules that several parts of the companion use, each stated once (RULINGS cited)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

#: IKI is played by 2 to 4 players (rulebook cover; "RULES FOR 2 PLAYERS").
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
#: Payday ends months 3, 6, 9 and 12; a fire breaks out at the end of months 5, 8 and 11 (rulebook "PHASE C").
PAYDAY_MONTHS: Final = (3, 6, 9, 12)
FIRE_MONTHS: Final = (5, 8, 11)
#: RULINGS R16: fire strength 5/8/10 with 3-4 players, 4/7/9 with 2 (printed on the calendar), by player count.
FIRE_STRENGTH: Final[Mapping[int, tuple[int, int, int]]] = MappingProxyType(
    {2: (4, 7, 9), 3: (5, 8, 10), 4: (5, 8, 10)}
)
#: RULINGS R28: the four Nagayas numbered by the two shops in front of each, in the order the condensed rules give
#: "from the market entry"; a fire always names its Nagaya with them, as :func:`nagaya_name` words it.
NAGAYA_SHOPS: Final[Mapping[int, str]] = MappingProxyType(
    {
        1: "the sandal and rice shops",
        2: "the firefighting and tobacco shops",
        3: "the exchange and building shops",
        4: "the fish market and the money changer",
    }
)


def nagaya_name(nagaya: int) -> str:
    """A Nagaya as the table finds it on the board: ``Nagaya 2, behind the firefighting and tobacco shops``."""
    return f"Nagaya {nagaya}, behind {NAGAYA_SHOPS[nagaya]}"


#: RULINGS R11: the firefighting and trade tracks run 0-10.
TRACK_MAX: Final = 10
#: RULINGS R15/R18: 6 buildings in play; with Akebono at most 2 of them with an ongoing ability.
BUILDINGS_IN_PLAY: Final = 6
MAX_ONGOING_BUILDINGS: Final = 2
#: RULINGS R18: 2 personalities of each season on the Nihonbashi bridge.
PERSONALITIES_PER_SEASON: Final = 2
