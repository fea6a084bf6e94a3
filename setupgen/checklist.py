"""The setup as a checklist: every step in rulebook order with the draws written in (RULINGS R15-R19).

Sections follow the rulebooks: "General setup" and "Player setup" (IKI rulebook), the Akebono "Setup" steps 1-10
(which replace the base steps they change: tokens, buildings, character decks, starting characters), then the
"Rules for 2 players" setup steps and the Grand Master variant.

Hidden information (each fire's Nagaya, later seasons' Personalities and River tokens, with them how that season's
tokens are shared between the board and the River, each month's New Character, each month's blocking tile) is
not in a step's text or details: it is a :class:`Hidden` item of its step, and the step's ``hidden_note`` names
what is kept back without naming any draw. The game tracker reveals each item when it is due (scoring/calendar.py,
the same draws); the setup page and its sheet show only the open checklist and say so. The companion stands in for
the face-down stack the table would otherwise draw from, so the steps tell the table to keep those components
aside unseen. Step and item ids are stable: pages, the PDF and the game tracker refer to them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from scoring.catalogue import (
    BUILDABLE_BOATS,
    BUILDING_BY_ID,
    CHARACTER_BY_ID,
    PERSONALITY_BY_ID,
    STARTING_TILE_BY_ID,
    TOKEN_BY_ID,
)
from scoring.components import SEASONS, Season
from scoring.problems import join
from scoring.rules import NAGAYA_SHOPS, nagaya_name
from setupgen.generate import TOKEN_KINDS, Setup


class Section(StrEnum):
    GENERAL = "general"
    PLAYER = "player"
    AKEBONO = "akebono"
    TWO_PLAYER = "two-player"

    @property
    def label(self) -> str:
        return {
            "general": "General setup",
            "player": "Player setup",
            "akebono": "Akebono setup",
            "two-player": "Two-player setup",
        }[self.value]


TRACKER_NOTE = "Hidden until due: the game tracker reveals {what} when due."
"""What the setup page and the PDF sheet say where a step's hidden draws would be (issue 20: they show none)."""


@dataclass(frozen=True, slots=True)
class Hidden:
    """A piece of hidden information. ``label`` and ``due`` may be shown; ``text`` only when the table asks.

    ``month`` is the month in which it is due (the fire's month: it breaks out at that month's end); ``short``
    is ``label`` for a list under its step ("Month 3", "Summer").
    """

    id: str
    label: str
    due: str
    month: int
    text: str
    short: str = ""


@dataclass(frozen=True, slots=True)
class Step:
    """One setup step: ``text`` says what to do, ``details`` lists the public draws, ``hidden`` the rest, and
    ``hidden_note`` says what of it is hidden ("each fire's Nagaya"), naming no draw."""

    id: str
    section: Section
    title: str
    text: str
    details: tuple[str, ...] = ()
    hidden: tuple[Hidden, ...] = ()
    hidden_note: str = ""

    @property
    def tracker_note(self) -> str:
        """Where the hidden draws would be (the setup page, the PDF sheet): the tracker reveals them; "" if none."""
        return TRACKER_NOTE.format(what=self.hidden_note) if self.hidden else ""


def seat_list(seats: tuple[int, ...] | list[int]) -> str:
    """``seat 2, seat 1, seat 4 and seat 3``."""
    return join(f"seat {s}" for s in seats)


def _names(ids: tuple[str, ...] | list[str], index: dict[str, str]) -> str:
    return " and ".join(index[i] for i in ids)


def _building(building_id: str) -> str:
    b = BUILDING_BY_ID[building_id]
    return f"{b.name} (ongoing ability)" if b.ongoing else b.name


def _season_hidden(prefix: str, noun: str, season: Season, text: str) -> Hidden:
    """A later season's draw (its Personalities, its River tokens), due at the end of the season before it
    (Akebono "END OF A SEASON"; the tracker's season-end event, scoring/calendar.py)."""
    before, month = SEASONS[SEASONS.index(season) - 1], season.months[0] - 1
    return Hidden(
        f"{prefix}-{season.value}",
        f"{season.label} {noun}",
        f"at the end of {before.label.lower()} (month {month})",
        month,
        text,
        f"{season.label} (month {month})",
    )


def _general(setup: Setup) -> Iterator[Step]:
    n = setup.players
    g = Section.GENERAL
    akebono = setup.akebono is not None
    yield Step(
        "general-board",
        g,
        "Main board",
        f"Place the main board in the middle of the table, on its {'2' if n == 2 else '3-4'}-player side.",
    )
    yield Step(
        "general-calendar",
        g,
        "Calendar",
        "Put the Calendar token on the 1st space of the Calendar (month 1).",
    )
    yield Step(
        "general-iki-tokens",
        g,
        "30/60 IKI tokens",
        f"Put {n} “30/60 IKI” tokens at the end of the IKI track.",
    )
    yield Step(
        "general-fire",
        g,
        "Fire tiles",
        "Keep the 4 Fire tiles aside: the companion has drawn each fire. When a fire breaks out at the end of "
        "months 5, 8 and 11, the game tracker reveals its Nagaya: nobody draws a tile.",
        details=(
            *(f"End of month {f.month}: a fire of strength {f.strength}." for f in setup.fires),
            "The fire tiles number the Nagayas from the market entry: "
            + "; ".join(f"{n} behind {shops}" for n, shops in NAGAYA_SHOPS.items())
            + ".",
        ),
        hidden=tuple(
            Hidden(
                f"fire-{f.month}",
                f"Fire at the end of month {f.month} (strength {f.strength})",
                f"when the fire breaks out at the end of month {f.month}",
                f.month,
                f"The fire of month {f.month} breaks out in {nagaya_name(f.nagaya)}.",
                f"Month {f.month} fire (strength {f.strength})",
            )
            for f in setup.fires
        ),
        hidden_note="each fire's Nagaya",
    )
    if not akebono:
        yield Step(
            "general-tokens",
            g,
            "Fish, pipe and tobacco tokens",
            "Sort the Fish, Pipe and Tobacco Pouch tokens by season. Put the Spring tokens face up on their "
            "spaces of the main board, and the Summer, Autumn and Winter tokens face down on their spaces of "
            "the Calendar.",
        )
        yield Step(
            "general-buildings",
            g,
            "Buildings",
            "Place these 6 Building cards near the board; return the other 4 to the box.",
            details=tuple(_building(b) for b in setup.buildings),
        )
    yield Step(
        "general-reserve",
        g,
        "Reserve",
        "Put the mons, sandals, rice, wood, Kobans and special tokens next to the board: the reserve.",
    )
    if not akebono:
        yield Step(
            "general-character-decks",
            g,
            "Character decks",
            "Sort the Character cards by season into 4 decks (Spring, Summer, Autumn, Winter) next to the "
            "main board.",
        )


def _player(setup: Setup) -> Iterator[Step]:
    n = setup.players
    p = Section.PLAYER
    first = setup.first_player
    stack = [(first - 1 + i) % n + 1 for i in range(n)]
    yield Step(
        "player-components",
        p,
        "Player components",
        f"Each player chooses a color and takes its player board (on the {'2' if n == 2 else '3-4'}-player "
        "side), 1 Ikizama, 1 Oyakata, 4 Kobuns and 2 markers, plus 1 Sandal token, 1 Rice token and 8 mons. "
        "Put the Sandal token, the Ikizama and the 4 Kobuns on their spaces of the player board.",
    )
    yield Step(
        "player-first-player",
        p,
        "Seats and first player",
        f"Number the seats 1 to {n} clockwise. Seat {first} is the first player"
        + (" (the Sun player)" if setup.two_player is not None else "")
        + ". Each player puts their Oyakata on a dotted space of the starting area.",
    )
    yield Step(
        "player-firefighting",
        p,
        "Firefighting track",
        f"Stack the Firefighting markers on space 0, from the top: {seat_list(stack)}.",
    )
    yield Step("player-score", p, "IKI track", "Put every score marker on space 0 of the IKI track.")
    if setup.akebono is None:
        names = [CHARACTER_BY_ID[s.card].name for s in setup.starting_characters]
        leftover = " With 2 or 3 players, return the cards nobody took to the box." if n < len(names) else ""
        yield Step(
            "player-starting-characters",
            p,
            "Starting characters",
            f"Lay out the {len(names)} Starting Characters. Counterclockwise, {seat_list(setup.draft_order)} "
            "each take one and put it on the outer space of a Nagaya of their choice, with a Kobun on its "
            "first Experience space." + leftover,
            details=tuple(names),
        )


def _akebono(setup: Setup) -> Iterator[Step]:
    ake = setup.akebono
    if ake is None:
        return
    a = Section.AKEBONO
    personality_name = {k: v.name for k, v in PERSONALITY_BY_ID.items()}
    yield Step(
        "akebono-boards",
        a,
        "City and River boards",
        "Place the City board next to the Rice shop and the River board at the other end, next to the Fish "
        "Market. Put the covering tile on its space.",
    )
    yield Step(
        "akebono-trade", a, "Trade track", "Put every player's Trade marker on space 0 of the Trade track."
    )
    yield Step(
        "akebono-sailors",
        a,
        "Sailors",
        "Put both Sailor meeples of each player on their space of the River board.",
    )
    yield Step(
        "akebono-tea-boat",
        a,
        "Tea Boat",
        "Put the Tea Boat on any wave of the river you like, except the Shop boat's wave (the players' choice).",
    )
    boat_lines = []
    for boat in BUILDABLE_BOATS:
        side = ake.boat_sides[boat.id]
        same = " (both sides have the same action)" if not boat.two_sided else ""
        boat_lines.append(f"{boat.number}. {boat.name}: side {side}{same}")
    yield Step(
        "akebono-boats",
        a,
        "Boats",
        "Put the 6 boats on their numbered spaces, on these sides. Put the 3 Boat tokens next to the Carrying "
        "ship.",
        details=tuple(boat_lines),
    )
    ferry_b = ake.boat_sides.get("ferry-boat") == "B"
    spring = ake.personalities[Season.SPRING.value]
    later = [s for s in SEASONS if s is not Season.SPRING]
    yield Step(
        "akebono-personalities",
        a,
        "Personalities",
        f"Put the 2 Spring Personalities face up on the Nihonbashi bridge: {_names(spring, personality_name)}. "
        "Keep the Summer, Autumn and Winter Personality cards aside without looking: when a season ends, the "
        "game tracker reveals the next season's 2 Personalities; put them face up on the bridge."
        + (
            " The Ferry boat is on side B: keep the unused Personalities as a face-down deck sorted by season "
            "(Spring on top) next to the River board."
            if ferry_b
            else " The unused Personalities go back to the box."
        ),
        details=tuple(f"Spring: {personality_name[p]}" for p in spring),
        hidden=tuple(
            _season_hidden(
                "personalities",
                "Personalities",
                season,
                f"{season.label}: {_names(ake.personalities[season.value], personality_name)}.",
            )
            for season in later
        ),
        hidden_note="the Summer, Autumn and Winter Personalities",
    )
    yield Step(
        "akebono-new-characters",
        a,
        "New Characters",
        "Sort the 24 New Characters by the month on their backs, face down, and keep them aside without "
        "looking. At the start of each month, the game tracker reveals which of that month's two is in play: "
        "put it face up on its space of the City board and return the other to the box.",
        hidden=tuple(
            Hidden(
                f"new-character-{month}",
                f"New Character of month {month}",
                f"at the start of month {month}",
                month,
                f"Month {month}: {CHARACTER_BY_ID[card].name}.",
                f"Month {month}",
            )
            for month, card in sorted(ake.new_characters.items())
        ),
        hidden_note="each month's New Character",
    )

    def token_lines(season: Season) -> list[str]:
        lines = []
        for kind in TOKEN_KINDS:
            river = ake.river_tokens[season.value][kind.value]
            board = ake.board_tokens(season.value, kind.value)
            lines.append(
                f"{season.label} {kind.value}: board {TOKEN_BY_ID[board[0]].name}, {TOKEN_BY_ID[board[1]].name}; "
                f"river {TOKEN_BY_ID[river].name}"
            )
        return lines

    yield Step(
        "akebono-tokens",
        a,
        "Fish, pipe and tobacco tokens",
        "Sort the tokens by season, the new ones with the others. Put 2 Spring tokens of each kind on their "
        "spaces of the main board and the third in the River, as listed. The Summer, Autumn and Winter tokens "
        "go face down on their spaces of the Calendar: when a season ends, the game tracker reveals which "
        "token of each kind of the next season goes in the River.",
        details=tuple(token_lines(Season.SPRING)),
        # The River tokens are revealed with the next season's Personalities (scoring/calendar.py, season end).
        hidden=tuple(
            _season_hidden("tokens", "River tokens", season, "; ".join(token_lines(season)) + ".")
            for season in later
        ),
        hidden_note="which Summer, Autumn and Winter tokens go in the River",
    )
    yield Step(
        "akebono-buildings",
        a,
        "Buildings",
        "Place these 6 Buildings on the City board, in this order (never more than 2 with an ongoing ability); "
        "return the other 14 to the box.",
        details=tuple(_building(b) for b in setup.buildings),
    )
    yield Step(
        "akebono-character-decks",
        a,
        "Character deck",
        "Remove 2 Characters from each season without looking and return them to the box. Then stack the "
        "remaining 48 face down on the City board: 12 Winter at the bottom, then 12 Autumn, 12 Summer, and "
        "12 Spring on top.",
    )
    tile_name = {k: v.name for k, v in STARTING_TILE_BY_ID.items()}
    yield Step(
        "akebono-starting-characters",
        a,
        "Starting characters and tiles",
        f"Reveal these {len(setup.starting_characters)} Starting Characters, each with its Starting tile "
        f"above it. Counterclockwise, {seat_list(setup.draft_order)} each take a card and its tile, resolve "
        "the tile at once, and put the card on an outer space of a Nagaya with a Kobun on its first "
        "Experience space. Return the rest to the box.",
        details=tuple(
            f"{CHARACTER_BY_ID[s.card].name} + {tile_name[s.tile] if s.tile else 'no tile'}"
            for s in setup.starting_characters
        ),
    )


def _two_player(setup: Setup) -> Iterator[Step]:
    two = setup.two_player
    if two is None:
        return
    t = Section.TWO_PLAYER
    yield Step(
        "two-player-boards",
        t,
        "Two-player sides",
        "Play on the 2-player side of the main board and of the player boards: each Nagaya has 3 stalls.",
    )
    yield Step(
        "two-player-blocking-tiles",
        t,
        "Blocking tiles",
        "Keep the 12 Blocking tiles aside: each month, before the Characters are revealed, the game tracker "
        "reveals the month's Blocking tile; put that tile on its space of the Ikizama track.",
        hidden=tuple(
            Hidden(
                f"blocking-{month}",
                f"Blocking tile of month {month}",
                f"at the start of month {month}",
                month,
                f"Month {month}: Blocking tile {value}.",
                f"Month {month}",
            )
            for month, value in enumerate(two.blocking_tiles, start=1)
        ),
        hidden_note="each month's Blocking tile",
    )
    yield Step(
        "two-player-sun-moon",
        t,
        "Sun and Moon",
        f"Seat {two.sun} takes the Sun token and starts; seat {two.moon} takes the Moon token.",
    )
    if setup.options.grand_master:
        yield Step(
            "two-player-grand-master",
            t,
            "Grand Master",
            "Grand Master variant: put the Grand Master meeple on the starting space with both Oyakatas. At "
            "the end of each month it moves against the Oyakatas as many spaces as that month's Blocking tile.",
        )


def checklist(setup: Setup) -> tuple[Step, ...]:
    """Every setup step in rulebook order, with the draws of ``setup`` written in."""
    return (*_general(setup), *_player(setup), *_akebono(setup), *_two_player(setup))


def hidden_items(setup: Setup) -> tuple[Hidden, ...]:
    """Every hidden item of the setup, in checklist order."""
    return tuple(h for step in checklist(setup) for h in step.hidden)


def hidden_item(setup: Setup, item_id: str) -> Hidden:
    """The hidden item ``item_id`` (e.g. ``fire-5``, ``personalities-summer``, ``new-character-3``,
    ``blocking-7``); :class:`KeyError` if this setup has none by that id."""
    for item in hidden_items(setup):
        if item.id == item_id:
            return item
    raise KeyError(item_id)


__all__ = [
    "TRACKER_NOTE",
    "Hidden",
    "Section",
    "Step",
    "checklist",
    "hidden_item",
    "hidden_items",
    "seat_list",
]
