"""What a score pad says and takes: each line's label and reminder, the reference printed under the grid, the
players' columns (checked), dates and places as the pad prints them. Every number in the reminders comes from the
rules core (scoring/score.py constants and the catalogue), never retyped here."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter

from scoring import catalogue as cat
from scoring.components import (
    BuildingRule,
    Expansion,
    PersonalityRule,
    Season,
    TobaccoRule,
    Token,
    TokenKind,
)
from scoring.reminders import expansions, line_reminders

# The pads page offers the same player counts: re-exported.
from scoring.rules import MAX_PLAYERS as MAX_PLAYERS
from scoring.rules import MIN_PLAYERS as MIN_PLAYERS
from scoring.score import LINE_LABELS, MON_PER_POINT, lines_for

#: Page sizes by the lower-cased name callers pass ("A4", "letter"), in points (portrait).
PAGE_SIZES: Final[Mapping[str, tuple[float, float]]] = {"a4": A4, "letter": letter}
MONTH_NAMES: Final = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

INK: Final = colors.HexColor("#1d1b19")
MUTED: Final = colors.HexColor("#5f5a53")
RULE: Final = colors.HexColor("#8c8275")
SHADE: Final = colors.HexColor("#f3eee6")
TOTAL_SHADE: Final = colors.HexColor("#e6ddcf")


@dataclass(frozen=True)
class PadPlayer:
    """One player's column of a filled pad: ``lines`` maps every line id of the pad to its points."""

    name: str
    colour: str | None  # a colour name ("red") or #rrggbb; None or "" for no swatch
    lines: Mapping[str, int]
    total: int
    rank: int


# --- what the pad says: reminders and reference, made from the rules core -----------------------------------------


def _tobacco_value(token: Token) -> str:
    rule = token.tobacco_rule
    return {
        TobaccoRule.FIXED: str(token.points),
        TobaccoRule.HALF_FIREFIGHTING: "firefighting ÷ 2",
        TobaccoRule.DISTINCT_TYPES: "character types",
        TobaccoRule.LARGEST_COLUMN: "largest type column",
        TobaccoRule.QUARTER_MON: f"mon ÷ {MON_PER_POINT}",
        TobaccoRule.PERSONALITIES: "personalities met",
        TobaccoRule.HALF_TRADE: "trade ÷ 2",
        TobaccoRule.KOBANS: "kobans",
        TobaccoRule.SPECIAL_CHARACTERS: "special characters",
    }[rule or TobaccoRule.FIXED]


def _tobacco_reference(akebono: bool) -> str:
    """RULINGS R7: every pouch of the game, by season."""
    tobacco = [t for t in cat.TOKENS if t.kind is TokenKind.TOBACCO]
    base = [t for t in tobacco if t.expansion is Expansion.BASE]
    parts = []
    for season in Season:
        values = [_tobacco_value(t) for t in base if t.season is season]
        parts.append(f"{season.value} {' or '.join(values)}")
    out = " · ".join(parts)
    if akebono:
        extra = [t for t in tobacco if t.expansion is Expansion.AKEBONO]
        seasonal = [f"{t.season.value} {_tobacco_value(t)}" for t in extra if t.season]
        special = [
            f"{t.name.removesuffix(' token')} token {_tobacco_value(t)}" for t in extra if not t.season
        ]
        out += ". Akebono: " + " · ".join([*seasonal, *special])
    return out + ". Halves and quarters round down; a pipe doubles them all."


_UNIT: Final = {
    BuildingRule.PER_SANDAL: "sandal",
    BuildingRule.PER_RICE: "rice",
    BuildingRule.PER_FIREFIGHTING: "firefighting space",
    BuildingRule.PER_BOAT: "boat",
    BuildingRule.PER_TYPE: "character type",
    BuildingRule.PER_TOKEN: "fish/pipe/tobacco token",
    BuildingRule.PER_LARGEST_COLUMN: "card of your largest type",
    BuildingRule.PER_PERSONALITY: "personality",
    BuildingRule.PER_TRADE: "trade space",
}


def _building_value(building_id: str) -> str:
    """RULINGS R8, in a few words: "Inn 12", "Storehouse 4 per rice (max 32)", "Restaurant = fish line"."""
    b = cat.BUILDING_BY_ID[building_id]
    if b.rule is BuildingRule.FIXED:
        return f"{b.name} {b.points}"
    if b.rule is BuildingRule.FISH_LINE:
        return f"{b.name} = your fish line"
    cap = f" (max {b.cap})" if b.cap is not None else ""
    return f"{b.name} {b.points} per {_UNIT[b.rule]}{cap}"


def _buildings_reference(akebono: bool) -> str:
    in_play = expansions(akebono)
    return " · ".join(_building_value(b.id) for b in cat.BUILDINGS if cat.in_play(b.expansion, in_play))


def _personality_value(personality_id: str) -> str:
    """RULINGS R10, in a few words: "Hiroshige Utagawa 7 with ≥3 artisans"."""
    p = cat.PERSONALITY_BY_ID[personality_id]
    condition = {
        PersonalityRule.ARTISANS_AT_LEAST: f"with ≥{p.threshold} artisans",
        PersonalityRule.MON_AT_MOST: f"with ≤{p.threshold} mon",
        PersonalityRule.LAST_IN_FIREFIGHTING: "if last in firefighting order",
        PersonalityRule.CHARACTERS_AT_LEAST: f"with ≥{p.threshold} characters",
        PersonalityRule.PIPES_AT_LEAST: f"with ≥{p.threshold} pipes",
        PersonalityRule.NEW_CHARACTERS_AT_LEAST: f"with ≥{p.threshold} New Characters",
        PersonalityRule.FULL_SET: "with a pipe, a tobacco pouch, a fish and a boat",
    }
    if p.rule is PersonalityRule.BOATS_AND_BUILDINGS:
        return f"{p.name} {p.points} per boat and per building"
    return f"{p.name} {p.points} {condition[p.rule]}"


def _personalities_reference() -> str:
    scoring = [p for p in cat.PERSONALITIES if p.rule is not PersonalityRule.NONE]
    return " · ".join(_personality_value(p.id) for p in scoring) + ". All other personalities: 0."


def _boats_and_trade_reference() -> str:
    """Where Akebono's boats and trade track score at the end (RULINGS R7, R8, R10): nowhere else."""
    boats = [_building_value(b.id) for b in cat.BUILDINGS if b.rule is BuildingRule.PER_BOAT]
    boats += [
        _personality_value(p.id) for p in cat.PERSONALITIES if p.rule is PersonalityRule.BOATS_AND_BUILDINGS
    ]
    boats += [_personality_value(p.id) for p in cat.PERSONALITIES if p.rule is PersonalityRule.FULL_SET]
    trade = [_building_value(b.id) for b in cat.BUILDINGS if b.rule is BuildingRule.PER_TRADE]
    trade += [
        f"Akebono {t.season.value} tobacco {_tobacco_value(t)}"
        for t in cat.TOKENS
        if t.tobacco_rule is TobaccoRule.HALF_TRADE and t.season
    ]
    return (
        f"boats score only through {', '.join(boats)}; the trade track only through {' and '.join(trade)}. "
        "IKI gained during the game from boats and the trade track's income is already on the score track."
    )


TIE_RULE: Final = (
    "most IKI wins. A tie goes to the higher firefighting position, then to the marker higher in that space's "
    "stack; players still tied share the place."
)


@cache
def reference(akebono: bool) -> tuple[tuple[str, str], ...]:
    """The notes printed under the grid, as (heading, text), in the order the pad prints them."""
    notes = [
        ("Tobacco pouches", _tobacco_reference(akebono)),
        ("Buildings", _buildings_reference(akebono)),
    ]
    if akebono:
        notes += [
            ("Personalities at the end", _personalities_reference()),
            ("Boats and trade track", _boats_and_trade_reference()),
        ]
    notes.append(("Ties", TIE_RULE))
    return tuple(notes)


@cache
def pad_lines(akebono: bool) -> tuple[tuple[str, str, str], ...]:
    """(line id, label, reminder) for every line of the pad, in the pad's order (RULINGS R3)."""
    reminders = line_reminders(akebono)
    return tuple((line, LINE_LABELS[line], reminders[line]) for line in lines_for(akebono))


# --- arguments ------------------------------------------------------------------------------------------------


def page_size(name: object) -> tuple[float, float]:
    """The (width, height) of "A4" or "letter" (any case); ValueError for any other name."""
    size = PAGE_SIZES.get(name.lower()) if isinstance(name, str) else None
    if size is None:
        raise ValueError(f"unknown page size {name!r}: use 'A4' or 'letter'")
    return size


def check_count(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(
            f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}"
        )
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a score pad has {MIN_PLAYERS} to {MAX_PLAYERS} player columns, not {players}")
    return players


@cache
def colour_of(value: str) -> colors.Color:
    try:
        return colors.toColor(value)
    except ValueError:
        raise ValueError(f"unknown colour {value!r}: use a colour name or #rrggbb") from None


def check_players(players: Sequence[PadPlayer], akebono: bool) -> None:
    check_count(len(players))
    wanted = set(lines_for(akebono))
    for player in players:
        if not isinstance(player, PadPlayer):
            raise ValueError(f"players must be PadPlayer values, not {type(player).__name__}")
        if not player.name.strip():
            raise ValueError("every player needs a name")
        missing = [line for line in lines_for(akebono) if line not in player.lines]
        extra = sorted(set(player.lines) - wanted)
        if missing:
            raise ValueError(f"{player.name} has no value for the line(s) {', '.join(missing)}")
        if extra:
            pad = "an Akebono" if akebono else "a base-game"
            raise ValueError(f"{player.name}: {', '.join(extra)} is not a line of {pad} pad")
        if sum(player.lines.values()) != player.total:
            raise ValueError(
                f"{player.name}'s total {player.total} is not the sum of the lines ({sum(player.lines.values())})"
            )
        if not 1 <= player.rank <= len(players):
            raise ValueError(f"{player.name}'s rank {player.rank} is not 1-{len(players)}")
        colour = swatch(player)
        if colour is not None:
            colour_of(colour)


def swatch(player: PadPlayer) -> str | None:
    """The player's colour, or None when none was given (None or an empty string: no swatch)."""
    return player.colour.strip() if player.colour and player.colour.strip() else None


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def long_date(date: datetime.date) -> str:
    """22 November 2026, whatever the locale."""
    return f"{date.day} {MONTH_NAMES[date.month - 1]} {date.year}"
