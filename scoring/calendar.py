"""The calendar of a game, month by month: what each phase asks of the table, and the tracks' rules.

Pure and typed (no Django). :func:`month_events` turns a month (1-12, or 13 for New Year's Day), the game's options
and its generated setup (the issue-3 JSON of ``setupgen``; see docs/api.md) into the list of phases and events, in
the order the table resolves them, each citing the rulebook section it comes from:

- base game: iki-rulebook.txt, "HOW TO PLAY" (Revealing Character cards, PHASE A - WAY OF LIFE, PHASE B - ACTIONS,
  PHASE C - EVENT: months 1/2/4/7/10, Payday 3/6/9/12, Fire 5/8/11) and "13TH ROUND: NEW YEAR'S DAY";
- two players: iki-rulebook.txt, "RULES FOR 2 PLAYERS" (Blocking tiles, Neutral characters), RULINGS R17;
- Akebono: iki-akebono-rulebook.txt, "City board", "New Characters", "Trade track income", "END OF A SEASON",
  and the "GRAND MASTER" VARIANT FOR 2 PLAYERS.

Hidden information (RULINGS R16-R18) stays hidden: an event's ``secret`` (a fire's Nagaya, next season's
Personalities and river tokens, the month's New Character, the month's blocking tile) is only filled in when the
table has reached the event's phase; before that the event says ``hidden=True`` and carries no secret at all, so
a page rendering the events cannot leak it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final

from scoring.catalogue import BUILDING_BY_ID, CHARACTER_BY_ID, PERSONALITY_BY_ID, TOKEN_BY_ID
from scoring.components import SEASONS, Season
from scoring.problems import join

# FIRE_MONTHS and TRACK_MAX are the tracker's too: re-exported (mypy strict sees them as this module's).
from scoring.rules import FIRE_MONTHS as FIRE_MONTHS
from scoring.rules import FIRE_STRENGTH, PAYDAY_MONTHS, nagaya_name
from scoring.rules import TRACK_MAX as TRACK_MAX

MONTHS: Final = 13
"""Months 1-12, then month 13: New Year's Day (base rulebook, "GENERAL SETUP": "The 13th month represents New
Year's Day")."""
NEW_YEAR: Final = 13
TRADE_BONUSES: Final = ((2, "1 mon"), (4, "1 sandal"), (6, "1 rice"), (8, "1 Koban"), (10, "5 IKI"))
"""Akebono "Trade track income": the bonus spaces, cumulative (RULINGS R11: space 10 is the last bonus)."""
NEUTRAL_PLACER_ON_ODD_MONTHS: Final = "sun"
"""Who places the neutral card on odd months (two players): catalogue INFERRED["neutral-placer"], RULINGS R17."""
NEUTRAL_BEFORE_SEASON_END: Final = True
"""The neutral card before the season's cards leave: INFERRED["neutral-before-season-end"], RULINGS R17."""
NEUTRAL_BEFORE_NEW_CHARACTER_DISCARD: Final = True
"""The neutral card before the month's New Character is discarded (two players, Akebono), so the Grand Master's
option to place it can apply: INFERRED["neutral-before-new-character-discard"], RULINGS R17."""
FIRE_DRAW: Final = "The player with the most firefighting power shuffles the 4 fire tiles and draws one."
"""What the table does when the companion has not drawn the fire tile (a setup without its fires)."""
FIRE_DRAWN: Final = (
    "The companion drew this fire's tile at setup: reveal it here instead of shuffling and drawing."
)
"""The fire step when the setup drew the tile: the table does not draw again (issue 13, item 7)."""
PHASE_B_ORDER: Final = ("1-4", "1", "2", "3", "4")
"""The Ikizama spaces in the order phase B plays them: INFERRED["phase-b-order"]."""
#: Buildings with an effect at the end of each season, resolved after food (iki-rulebook.txt Appendix 2: Imperial
#: Villa, Farmhouse "for each Kobun you fed"): INFERRED["season-end-buildings"].
SEASON_END_BUILDINGS: Final = ("imperial-villa", "farmhouse")
#: Akebono month-12 New Characters that count in nobody's group at the end of Winter (Akebono Appendix 1,
#: "Special"; RULINGS R26).
NO_WINTER_HARMONY: Final = ("mounted-samurai", "rice-broker")


class Phase(StrEnum):
    """The steps of a month, in order. ``START`` is the month's beginning (reveals), ``NEW_YEAR`` is month 13."""

    START = "start"
    A = "A"
    B = "B"
    C = "C"
    NEW_YEAR = "new-year"

    @property
    def label(self) -> str:
        return _PHASE_LABELS[self]

    @property
    def short_label(self) -> str:
        """The label without the word "Phase" ("A · Way of Life"), for a row of steps on a phone."""
        return _PHASE_LABELS[self].removeprefix("Phase ")


_PHASE_LABELS: Final = {
    Phase.START: "Start of the month",
    Phase.A: "Phase A · Way of Life",
    Phase.B: "Phase B · Actions",
    Phase.C: "Phase C · Event",
    Phase.NEW_YEAR: "New Year's Day",
}
_PHASE_RANK: Final = {Phase.START: 0, Phase.A: 1, Phase.B: 2, Phase.C: 3, Phase.NEW_YEAR: 4}


def table_phases(month: int) -> tuple[Phase, ...]:
    """The phases the table steps through in ``month``: A, B, C for months 1-12 (the month's start is shown with
    phase A), New Year's Day for month 13."""
    check_month(month)
    return (Phase.NEW_YEAR,) if month == NEW_YEAR else (Phase.A, Phase.B, Phase.C)


def next_step(month: int, phase: Phase) -> tuple[int, Phase] | None:
    """The step after (month, phase); None after New Year's Day (the game is over)."""
    phases = table_phases(month)
    if phase not in phases:
        raise ValueError(f"phase {phase} is not a phase of month {month}")
    index = phases.index(phase)
    if index + 1 < len(phases):
        return month, phases[index + 1]
    if month == NEW_YEAR:
        return None
    return month + 1, table_phases(month + 1)[0]


def check_month(month: int) -> None:
    if isinstance(month, bool) or not 1 <= month <= MONTHS:
        raise ValueError(f"month {month!r} is not 1-13")


@dataclass(frozen=True, slots=True)
class CalendarOptions:
    """The options the calendar depends on. Grand Master needs 2 players and Akebono (Akebono rulebook)."""

    players: int
    akebono: bool = False
    grand_master: bool = False

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"IKI is played by 2-4 players, not {self.players}")
        if self.grand_master and not (self.players == 2 and self.akebono):
            raise ValueError("the Grand Master variant needs 2 players and Akebono")


@dataclass(frozen=True, slots=True)
class Event:
    """One thing the table does. ``asks`` is what it asks of the table; ``source`` the rulebook section.

    ``details`` are public facts (a fire's strength); ``secret`` are facts hidden until the event's phase is
    reached (then ``hidden`` is False); before that ``secret`` is empty and ``hidden`` True.
    """

    key: str
    phase: Phase
    title: str
    asks: str
    source: str
    details: tuple[str, ...] = ()
    secret: tuple[str, ...] = ()
    hidden: bool = False
    reveal: str = ""
    """The key of the reveal that shows ``secret`` to the table (``fire-5``, ``new-character-3``,
    ``season-summer``, ``blocking-tile-4``); empty for an event with nothing hidden."""
    due: bool = True
    """Whether the table has reached the event's phase, so its reveal may be offered (RULINGS R16-R18)."""


def season_of(month: int) -> Season:
    return Season.of_month(month)


def _next_season(month: int) -> Season | None:
    index = SEASONS.index(Season.of_month(month))
    return SEASONS[index + 1] if index + 1 < len(SEASONS) else None


def _get(setup: Mapping[str, Any] | None, *path: str | int) -> Any:
    value: Any = setup
    for key in path:
        if isinstance(value, Mapping):
            value = value.get(str(key)) if isinstance(key, int) else value.get(key)
        elif isinstance(value, Sequence) and not isinstance(value, str) and isinstance(key, int):
            value = value[key] if 0 <= key < len(value) else None
        else:
            return None
    return value


def fire_of(month: int, options: CalendarOptions, setup: Mapping[str, Any] | None) -> tuple[int, int | None]:
    """The (strength, Nagaya) of the fire at the end of ``month`` (5, 8 or 11): RULINGS R16. The Nagaya is None
    when the setup does not give it."""
    if month not in FIRE_MONTHS:
        raise ValueError(f"no fire breaks out in month {month}")
    strength = FIRE_STRENGTH[options.players][FIRE_MONTHS.index(month)]
    nagaya: int | None = None
    fires = _get(setup, "fires")
    if isinstance(fires, Sequence):
        for fire in fires:
            if isinstance(fire, Mapping) and fire.get("month") == month:
                if isinstance(fire.get("strength"), int):
                    strength = fire["strength"]
                if isinstance(fire.get("nagaya"), int):
                    nagaya = fire["nagaya"]
    return strength, nagaya


def blocking_tile(month: int, setup: Mapping[str, Any] | None) -> int | None:
    """The value of month ``month``'s blocking tile (two players, RULINGS R17), None when unknown."""
    if not 1 <= month <= 12:
        return None
    value = _get(setup, "two_player", "blocking_tiles", month - 1)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def sun_seat(setup: Mapping[str, Any] | None) -> int | None:
    value = _get(setup, "two_player", "sun")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def neutral_placer(month: int, setup: Mapping[str, Any] | None) -> tuple[str, int | None]:
    """Who places the neutral character at the end of ``month`` (two players): ("Sun"|"Moon", seat or None)."""
    sun = sun_seat(setup)
    odd = month % 2 == 1
    by_sun = odd == (NEUTRAL_PLACER_ON_ODD_MONTHS == "sun")
    if by_sun:
        return "Sun", sun
    return "Moon", (None if sun is None else 3 - sun)


def new_character_name(month: int, setup: Mapping[str, Any] | None) -> str | None:
    card = _get(setup, "akebono", "new_characters", month)
    if isinstance(card, str) and card in CHARACTER_BY_ID:
        return CHARACTER_BY_ID[card].name
    return None


def personality_names(season: Season, setup: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The two Personalities of ``season`` drawn at setup (RULINGS R18), by name."""
    ids = _get(setup, "akebono", "personalities", season.value)
    if not isinstance(ids, Sequence) or isinstance(ids, str):
        return ()
    return tuple(PERSONALITY_BY_ID[i].name for i in ids if isinstance(i, str) and i in PERSONALITY_BY_ID)


def river_token_names(season: Season, setup: Mapping[str, Any] | None) -> tuple[str, ...]:
    tokens = _get(setup, "akebono", "river_tokens", season.value)
    if not isinstance(tokens, Mapping):
        return ()
    names = []
    for kind in ("fish", "pipe", "tobacco"):
        token = tokens.get(kind)
        if isinstance(token, str) and token in TOKEN_BY_ID:
            names.append(f"{kind}: {TOKEN_BY_ID[token].name}")
    return tuple(names)


_BASE = "Base rulebook"  # iki-rulebook.txt; a player reads the source line
_AKEBONO = "Akebono rulebook"  # iki-akebono-rulebook.txt


def _start_events(month: int, o: CalendarOptions, setup: Mapping[str, Any] | None) -> list[Event]:
    season = season_of(month)
    events: list[Event] = []
    if o.players == 2:
        tile = blocking_tile(month, setup)
        events.append(
            Event(
                "blocking-tile",
                Phase.START,
                "Reveal the blocking tile of the month",
                "Before revealing the characters, reveal the next blocking tile and put it on its space of the "
                "Ikizama track: no Ikizama meeple may go there this month.",
                f'{_BASE}, "RULES FOR 2 PLAYERS: Blocking tiles"',
                secret=() if tile is None else (f"Ikizama space {tile} is blocked",),
                reveal=f"blocking-tile-{month}",
            )
        )
    if o.akebono:
        events.append(
            Event(
                "reveal-characters",
                Phase.START,
                f"Reveal 4 {season.label} Characters",
                f"Reveal 4 cards of the {season.label} deck to fill the 4 spots left of the arrow on the City "
                "board.",
                f'{_AKEBONO}, "City board"',
            )
        )
        name = new_character_name(month, setup)
        events.append(
            Event(
                "new-character",
                Phase.START,
                f"Reveal the New Character of month {month}",
                "Reveal the top card of the New Character deck (its back shows this month). Whoever hires may "
                "take it instead of a base Character.",
                f'{_AKEBONO}, "New Characters"',
                secret=() if name is None else (name,),
                reveal=new_character_reveal(month),
            )
        )
    else:
        # A season's first month has no cards left beside the board: the season's end removed them (base rulebook
        # "Months 3, 6, 9 and 12: Payday"), and month 1 has none yet.
        beside = (
            ""
            if month == 1 or season_of(month - 1) is not season
            else ", beside the cards left from earlier months"
        )
        events.append(
            Event(
                "reveal-characters",
                Phase.START,
                f"Reveal 4 {season.label} Characters",
                f"Reveal the first 4 cards of the {season.label} deck next to the main board{beside}.",
                f'{_BASE}, "HOW TO PLAY: Revealing Character cards"',
            )
        )
    return events


def _phase_a_b(month: int, o: CalendarOptions) -> list[Event]:
    order = (
        "clockwise from the first player (the firefighting stack at setup)"
        if month == 1
        else "by firefighting power, highest first; on a shared space the marker on top first"
    )
    blocked = " The space under the blocking tile is closed." if o.players == 2 else ""
    bridge = (
        " The main street has 9 spaces: the Nihonbashi bridge (meet a Personality and/or activate a Boat) "
        "sits between the Construction site and the Fish market."
        if o.akebono
        else ""
    )
    return [
        Event(
            "way-of-life",
            Phase.A,
            "Place the Ikizama meeples",
            f"Players place their Ikizama meeple on a free space of the Ikizama track, {order}.{blocked}",
            f'{_BASE}, "PHASE A - WAY OF LIFE"',
        ),
        Event(
            "actions",
            Phase.B,
            "Actions",
            f"In Ikizama order, {', then '.join(PHASE_B_ORDER)} (the number on a space is the turn order; the "
            "1-4 space gains 1 mon and may not take income or hire): income (4 mon) or hire, move the Oyakata and "
            f"do business, take back the Ikizama meeple.{bridge}",
            f'{_BASE}, "PHASE A - WAY OF LIFE" and "PHASE B - ACTIONS"; condensed rules, "Phase B"',
        ),
    ]


def _season_end(month: int, o: CalendarOptions, setup: Mapping[str, Any] | None) -> list[Event]:
    season = season_of(month)
    nxt = _next_season(month)
    if nxt is None:
        asks = (
            "Remove all Winter cards from the game. The Winter fish, pipe and tobacco tokens stay for New Year's "
            "Day. Each player takes back their Oyakata."
        )
        if o.akebono:
            asks += " The New Character leaves too; tokens and Personalities stay on the boards."
        source = f'{_BASE}, "Months 3, 6, 9 and 12: Payday"' + (
            f'; {_AKEBONO}, "END OF A SEASON"' if o.akebono else ""
        )
        return [Event("season-end", Phase.C, "End of Winter", asks, source)]
    asks = (
        f"Remove the {season.label} fish, pipe and tobacco tokens left and put out the {nxt.label} ones. Remove "
        f"all unhired {season.label} cards (their mon go back to the reserve); from next month on, use the "
        f"{nxt.label} deck."
    )
    secret: tuple[str, ...] = ()
    reveal = ""
    if o.akebono:
        reveal = season_reveal(nxt)
        asks += (
            f" The {season.label} river tokens, New Character and Personalities leave the game too. Put the "
            f"{nxt.label} river tokens in the river and reveal the two {nxt.label} Personalities on the bridge."
        )
        people = personality_names(nxt, setup)
        river = river_token_names(nxt, setup)
        secret = tuple(f"Personality: {p}" for p in people) + tuple(f"River {r}" for r in river)
    source = f'{_BASE}, "Months 3, 6, 9 and 12: Payday"' + (
        f'; {_AKEBONO}, "END OF A SEASON"' if o.akebono else ""
    )
    return [
        Event("season-end", Phase.C, f"End of {season.label}", asks, source, secret=secret, reveal=reveal)
    ]


def buildings_in_play(setup: Mapping[str, Any] | None) -> tuple[str, ...] | None:
    """The setup's buildings (ids known to the catalogue), None when the setup does not give them."""
    ids = _get(setup, "buildings")
    if not isinstance(ids, Sequence) or isinstance(ids, str):
        return None
    return tuple(i for i in ids if isinstance(i, str) and i in BUILDING_BY_ID)


def _in_play(building: str, o: CalendarOptions, setup: Mapping[str, Any] | None) -> bool:
    """Whether a building may be in this game: in the setup, or of its editions when the setup is unknown."""
    shown = buildings_in_play(setup)
    if shown is not None:
        return building in shown
    return o.akebono or BUILDING_BY_ID[building].expansion.value == "base"


def _harmony(month: int, o: CalendarOptions, setup: Mapping[str, Any] | None) -> str:
    """iki-rulebook.txt "Nagaya Harmony Bonus" and its example (a player's Shop Seller and Artisan score
    nothing; two players with one Master Craftsman each score 1 × 2): per type, a player's Kobuns on cards of
    that type × the cards of that type in the group."""
    groups = (
        "4 Nagayas (no 5th group with 2 players)"
        if o.players == 2
        else "the 4 Nagayas, and the 4 corner spaces as one 5th group"
    )
    asks = (
        f"In each group ({groups}), for each type with at least 2 characters there (whoever controls them), each "
        "player scores their Kobuns on cards of that type × the cards of that type in the group."
    )
    if o.players == 2:
        asks += " Neutral characters count."
    if _in_play("public-bathhouse", o, setup):
        asks += " The Public Bathhouse's owner doubles the IKI they gain."
    if o.akebono and month == 12:
        # RULINGS R26: both named whatever was drawn (naming the drawn one would give away month 12's New
        # Character before it is revealed, issue 20).
        names = " and the ".join(CHARACTER_BY_ID[c].name for c in NO_WINTER_HARMONY)
        asks += (
            f" The {names} count in nobody's group at the end of Winter: they have no colour until they retire "
            "or the game ends."
        )
    return asks


def _payday(month: int, o: CalendarOptions, setup: Mapping[str, Any] | None) -> list[Event]:
    src = f'{_BASE}, "Months 3, 6, 9 and 12: Payday"'
    harmony_src = src + ("; RULES FOR 2 PLAYERS" if o.players == 2 else "")
    if o.akebono:
        harmony_src += f"; {_AKEBONO}, Appendix 1 and 2"
    events = [
        Event(
            "salary",
            Phase.C,
            "Payday: salary",
            "Each player collects the salary of every character: on the board the space just above the Kobun, "
            "retired ones the circled top salary.",
            src,
        ),
        Event("harmony", Phase.C, "Payday: Nagaya harmony", _harmony(month, o, setup), harmony_src),
        Event(
            "food",
            Phase.C,
            "Payday: food",
            "Each player pays 1 rice per character on the main board (not retired ones, not Kobuns on "
            "buildings); characters that cannot be fed leave the game.",
            src,
        ),
    ]
    effects = {
        "imperial-villa": "the Imperial Villa's owner gains 2 mons for each character of the type they recruited "
        "the most (retired ones included)",
        "farmhouse": "the Farmhouse's owner gains 2 IKI for each Kobun they fed",
    }
    shown = [effects[b] for b in SEASON_END_BUILDINGS if _in_play(b, o, setup)]
    if shown:
        text = "; ".join(shown)
        events.append(
            Event(
                "season-end-buildings",
                Phase.C,
                "Buildings at the end of the season",
                f"After food: {text}.",
                f'{_BASE}, "APPENDIX 2 - BUILDINGS"',
            )
        )
    return events


def _neutral(month: int, o: CalendarOptions, setup: Mapping[str, Any] | None) -> Event:
    # the holder of the Sun or Moon token, as the table calls them, not a seat number
    who, _ = neutral_placer(month, setup)
    extra = (
        " Under the Grand Master variant, the month's New Character may be placed instead."
        if o.grand_master
        else ""
    )
    return Event(
        "neutral-character",
        Phase.C,
        "Place a neutral character",
        f"The {who} player places a character from the card row on a free space of the board, without a "
        "Kobun and without the extra cost; its mon go back to the bank. No free space: the card leaves the "
        f"game.{extra}",
        f'{_BASE}, "RULES FOR 2 PLAYERS: Neutral characters"'
        + (f'; {_AKEBONO}, "GRAND MASTER" VARIANT' if o.grand_master else ""),
        details=(f"{who} places",),
    )


def _event_c(month: int, o: CalendarOptions, setup: Mapping[str, Any] | None) -> list[Event]:
    events: list[Event] = []
    two = o.players == 2
    if month in PAYDAY_MONTHS:
        if two and NEUTRAL_BEFORE_SEASON_END:
            events.append(_neutral(month, o, setup))
        events += _season_end(month, o, setup)
        events += _payday(month, o, setup)
    else:
        if month in FIRE_MONTHS:
            strength, nagaya = fire_of(month, o, setup)
            events.append(
                Event(
                    "fire",
                    Phase.C,
                    f"Fire! Strength {strength}",
                    (FIRE_DRAWN if nagaya is not None else FIRE_DRAW) + " The "
                    "fire starts at the edge of that Nagaya: a character whose owner's firefighting power is at "
                    "least the strength stops it; otherwise the character is killed and the fire moves on, "
                    "1 weaker per stall, dying out at the crossroads."
                    + (" A neutral character it reaches is killed." if two else ""),
                    f'{_BASE}, "Months 5, 8 and 11: Fire"',
                    details=(f"Strength {strength}",),
                    secret=() if nagaya is None else (f"The fire burns {nagaya_name(nagaya)}",),
                    reveal=f"fire-{month}",
                )
            )
            if o.akebono:
                events.append(
                    Event(
                        "trade-income",
                        Phase.C,
                        "Trade track income",
                        "Each player gains every bonus their Trade marker has reached: "
                        + ", ".join(f"space {s}: {g}" for s, g in TRADE_BONUSES)
                        + ".",
                        f'{_AKEBONO}, "Trade track income"',
                    )
                )
        if two and o.akebono and NEUTRAL_BEFORE_NEW_CHARACTER_DISCARD:
            events.append(_neutral(month, o, setup))
        if o.akebono:
            events.append(
                Event(
                    "character-row",
                    Phase.C,
                    "Move the character row",
                    "Discard the Character on the X space and the New Character if nobody hired it; move the "
                    "others right until the two spaces right of the arrow are full; discard any left of the "
                    "arrow; then put 1 mon on each Character on a mon space.",
                    f'{_AKEBONO}, "City board"',
                )
            )
        else:
            events.append(
                Event(
                    "mon-on-cards",
                    Phase.C,
                    "1 mon on each unhired card",
                    "Place 1 mon from the bank on each Character card still next to the main board.",
                    f'{_BASE}, "PHASE C - EVENT"',
                )
            )
        if two and not (o.akebono and NEUTRAL_BEFORE_NEW_CHARACTER_DISCARD):
            events.append(_neutral(month, o, setup))
    if o.grand_master:
        tile = blocking_tile(month, setup)
        events.append(
            Event(
                "grand-master",
                Phase.C,
                "The Grand Master moves",
                "The Grand Master moves as many spaces as this month's blocking tile shows, the opposite way to the "
                "Oyakatas. Characters in the shops where it stops gain 1 experience (neutral ones do not); on the "
                "Nihonbashi bridge, each player with a boat moves up 1 on the Trade track.",
                f'{_AKEBONO}, "GRAND MASTER" VARIANT FOR 2 PLAYERS',
                # The tile's value is the month's blocking tile: shown once the table revealed that (RULINGS R17).
                secret=() if tile is None else (f"The Grand Master moves {tile} space(s)",),
                reveal=f"blocking-tile-{month}",
            )
        )
    following = "New Year's Day" if month == 12 else f"month {month + 1}"
    events.append(
        Event(
            "calendar",
            Phase.C,
            f"Move the Calendar to {following}",
            f"Move the Calendar marker to {following}." + (" Discard the blocking tile." if two else ""),
            f'{_BASE}, "PHASE C - EVENT"',
        )
    )
    return events


def _new_year(o: CalendarOptions) -> list[Event]:
    where = "any space of the main street" + (", the Nihonbashi bridge included," if o.akebono else "")
    return [
        Event(
            "new-year",
            Phase.NEW_YEAR,
            "New Year's Day",
            f"In firefighting order (highest first), each player places their Oyakata directly on {where} and may "
            "do business with the shop and/or one character, as usual.",
            f'{_BASE}, "13TH ROUND: NEW YEAR\'S DAY"',
        ),
        Event(
            "game-end",
            Phase.NEW_YEAR,
            "End of the game",
            "Players take back their Character cards still on the main board and tally the final score.",
            f'{_BASE}, "END OF THE GAME AND SCORING"',
        ),
    ]


def season_reveal(season: Season) -> str:
    """The reveal key of ``season``'s Personalities and river tokens (Akebono, shown at the previous season's end)."""
    return f"season-{season.value}"


def season_shown(season: Season, revealed: Collection[str]) -> bool:
    """Whether ``season``'s Personalities are out: Spring's from the setup, a later season's once revealed."""
    return season is SEASONS[0] or season_reveal(season) in revealed


def new_character_reveal(month: int | str) -> str:
    """The reveal key of ``month``'s New Character (Akebono, shown at the month's start, RULINGS R17); ``month``
    as a number or as a setup's JSON keys it."""
    return f"new-character-{month}"


def month_events(
    month: int,
    options: CalendarOptions,
    setup: Mapping[str, Any] | None,
    *,
    reached: Phase | None = None,
    revealed: frozenset[str] | None = None,
) -> tuple[Event, ...]:
    """The events of ``month`` in the order the table resolves them.

    ``reached`` is the phase the table is in during this month: an event in a later phase is not ``due`` and its
    secret is withheld (``hidden=True``). ``reached=None`` means the whole month is over. ``revealed``: the reveal
    keys the table has revealed (a tracked game, issue 13): then a secret is shown only once its reveal is in it,
    due or not, so one phone's reveal shows on every phone and an undo hides it again.
    """
    check_month(month)
    if month == NEW_YEAR:
        events = _new_year(options)
    else:
        events = [
            *_start_events(month, options, setup),
            *_phase_a_b(month, options),
            *_event_c(month, options, setup),
        ]
    return tuple(_gate(e, reached, revealed) for e in events)


def _gate(event: Event, reached: Phase | None, revealed: frozenset[str] | None) -> Event:
    due = reached is None or _PHASE_RANK[event.phase] <= _PHASE_RANK[reached]
    if not event.secret:
        return event if due else replace(event, due=False)
    shown = due if revealed is None else event.reveal in revealed
    if shown:
        return event if due else replace(event, due=False)
    return replace(event, secret=(), hidden=True, due=due)


def due_reveals(
    month: int, phase: Phase, options: CalendarOptions, setup: Mapping[str, Any] | None
) -> dict[str, Event]:
    """Every reveal the table may make at (``month``, ``phase``), by key, with its (ungated) event: those of earlier
    months and those of this month whose phase is reached (RULINGS R16-R18: a fire's Nagaya when it breaks out, a
    season's Personalities and river tokens at the previous season's end, the New Character and the blocking tile
    at their month's start). Events whose setup gives nothing to reveal are left out."""
    return {key: event for key, (_, event) in _due_since(month, phase, options, setup).items()}


def _due_since(
    month: int,
    phase: Phase,
    options: CalendarOptions,
    setup: Mapping[str, Any] | None,
    current: tuple[Event, ...] | None = None,
) -> dict[str, tuple[int, Event]]:
    """:func:`due_reveals` with the month each reveal fell due. ``current``: ``month``'s events up to ``phase``
    (``month_events(month, ..., reached=phase)``), when the caller has them already."""
    due: dict[str, tuple[int, Event]] = {}
    for m in range(1, month + 1):
        if m == month and current is not None:
            events = current
        else:
            events = month_events(m, options, setup, reached=phase if m == month else None)
        for event in events:
            if event.reveal and event.secret and event.due:
                due.setdefault(event.reveal, (m, event))  # the first event of a key names the reveal
    return due


def step_events(events: Iterable[Event], phase: Phase) -> tuple[Event, ...]:
    """The events of ``phase`` among a month's ``events``: what "Now" lists (phase A shows the month's start)."""
    return tuple(e for e in events if e.phase is phase or (phase is Phase.A and e.phase is Phase.START))


@dataclass(frozen=True, slots=True)
class Overdue:
    """A reveal that fell due before the table's step and that nobody revealed then (RULINGS R16-R18): it stays
    offered under "Now" in every later phase and month until someone reveals it. ``event`` is gated like
    :func:`month_events`' (no secret unless revealed) as :func:`overdue_reveals` and :func:`still_overdue` give it;
    :func:`reveals_before_step` gives it ungated, for them to gate."""

    since: int
    event: Event


def overdue_reveals(
    month: int,
    phase: Phase,
    options: CalendarOptions,
    setup: Mapping[str, Any] | None,
    *,
    revealed: frozenset[str],
    keep: frozenset[str] = frozenset(),
) -> tuple[Overdue, ...]:
    """The reveals due before (``month``, ``phase``) that are not revealed, oldest first, and those in ``keep``
    (revealed during this step: shown where they were tapped). A reveal an event of this step also offers (a
    blocking tile, which the Grand Master's move of phase C shows again) is left to that event."""
    return still_overdue(reveals_before_step(month, phase, options, setup), revealed=revealed, keep=keep)


def reveals_before_step(
    month: int, phase: Phase, options: CalendarOptions, setup: Mapping[str, Any] | None
) -> tuple[Overdue, ...]:
    """Every reveal due before (``month``, ``phase``), made or not, oldest first, that no event of this step
    offers: what :func:`overdue_reveals` chooses from. Its events are **ungated** (their secrets in them, whatever
    the table revealed): :func:`still_overdue` gates them. A caller that needs both the keys (was any of them
    revealed?) and the overdue ones works the calendar out once."""
    current = month_events(month, options, setup, reached=phase)
    now = {e.reveal for e in step_events(current, phase)}
    return tuple(
        Overdue(since, event)
        for key, (since, event) in _due_since(month, phase, options, setup, current).items()
        if key not in now
    )


def still_overdue(
    before: Iterable[Overdue], *, revealed: frozenset[str], keep: frozenset[str] = frozenset()
) -> tuple[Overdue, ...]:
    """Of ``before`` (:func:`reveals_before_step`), those not revealed, their secrets withheld, and those in ``keep``
    (revealed during this step), shown."""
    return tuple(
        o if o.event.reveal in revealed else Overdue(o.since, replace(o.event, secret=(), hidden=True))
        for o in before
        if o.event.reveal not in revealed or o.event.reveal in keep
    )


REVEAL_NAMES: Final = {
    "season": ("The {season} personalities and river tokens", True),
    "new-character": ("The New Character of month {month}", False),
    "fire": ("The fire tile of month {month}", False),
    "blocking-tile": ("The blocking tile of month {month}", False),
}
"""How "Next" names a reveal not made yet (text, plural), by the kind of its key (``fire-5``, ``season-summer``)."""


def reveal_name(key: str) -> tuple[str, bool]:
    """The words naming reveal ``key`` for a player (never its secret), and whether they are plural."""
    kind, _, rest = key.rpartition("-")
    text, plural = REVEAL_NAMES[kind]
    if kind == "season":
        return text.format(season=Season(rest).label), plural
    return text.format(month=rest), plural


#: How several reveals of one kind are named together (:func:`reveal_names`), by kind: ``{each}`` lists their months
#: or seasons.
REVEAL_GROUP_NAMES: Final = {
    "season": "The {each} personalities and river tokens",
    "new-character": "The New Characters of months {each}",
    "fire": "The fire tiles of months {each}",
    "blocking-tile": "The blocking tiles of months {each}",
}


def reveal_names(keys: Iterable[str]) -> list[str]:
    """Reveals ``keys`` named a kind at a time, in the order their kinds first come ("The New Characters of months
    1, 2 and 5"), where one name each would run long: the reveals a table left hidden month after month."""
    by_kind: dict[str, list[str]] = {}
    for key in keys:
        kind, _, rest = key.rpartition("-")
        by_kind.setdefault(kind, []).append(rest)
    return [
        reveal_name(f"{kind}-{each[0]}")[0]
        if len(each) == 1
        else REVEAL_GROUP_NAMES[kind].format(
            each=join([Season(r).label for r in each] if kind == "season" else each)
        )
        for kind, each in by_kind.items()
    ]


# --- tracks --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Marker:
    """A firefighting marker: ``seat`` 1..N, ``position`` 0-10, ``stack`` higher = higher in the stack."""

    seat: int
    position: int
    stack: int


def initial_markers(players: int, first_player: int) -> tuple[Marker, ...]:
    """Base "PLAYER SETUP": all markers on 0, the first player's on top, then clockwise down to the bottom."""
    if players not in (2, 3, 4) or not 1 <= first_player <= players:
        raise ValueError(f"first player {first_player} is not a seat of {players}")
    order = clockwise_from(first_player, players)
    return tuple(Marker(seat, 0, players - i) for i, seat in enumerate(order))


def clockwise_from(first: int, players: int) -> tuple[int, ...]:
    """Seats 1..N are numbered clockwise (issue 3); the seats clockwise starting at ``first``."""
    return tuple((first - 1 + i) % players + 1 for i in range(players))


def firefighting_seats(markers: Iterable[Marker]) -> tuple[int, ...]:
    """RULINGS R12: seats by position, highest first, the marker higher in the stack first within a space."""
    return tuple(m.seat for m in sorted(markers, key=lambda m: (-m.position, -m.stack, m.seat)))


def phase_a_order(month: int, markers: Sequence[Marker], first_player: int) -> tuple[int, ...]:
    """Turn order of phase A (and of New Year's Day): month 1 clockwise from the first player, later months the
    firefighting order (base "PHASE A - WAY OF LIFE"; "13TH ROUND: NEW YEAR'S DAY")."""
    check_month(month)
    if month == 1:
        return clockwise_from(first_player, len(markers))
    return firefighting_seats(markers)


def move_marker(markers: Sequence[Marker], seat: int, position: int) -> tuple[Marker, ...]:
    """Move ``seat``'s marker to ``position`` (0-10). Moving onto a space (the same one included, as at space 10)
    puts the marker on top of the stack there (base "SHOP ACTIONS: Fire tower"; RULINGS R11/R12)."""
    if not 0 <= position <= TRACK_MAX:
        raise ValueError(f"firefighting position {position} is not 0-{TRACK_MAX}")
    if seat not in {m.seat for m in markers}:
        raise ValueError(f"no marker for seat {seat}")
    top = max(m.stack for m in markers) + 1
    return tuple(Marker(m.seat, position, top) if m.seat == seat else m for m in markers)


def trade_income(position: int) -> tuple[str, ...]:
    """What a Trade marker on ``position`` gains after a fire: every bonus reached (Akebono "Trade track income")."""
    if not 0 <= position <= TRACK_MAX:
        raise ValueError(f"trade position {position} is not 0-{TRACK_MAX}")
    return tuple(gain for space, gain in TRADE_BONUSES if position >= space)
