"""The short reminder of how each score-pad line scores (RULINGS R3-R10), made from the rules core's constants.

One place for the walk-through's steps, the PDF score pads and the pads page, so the three never drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring import catalogue as cat
from scoring.components import Expansion, TokenKind, Wild
from scoring.score import FISH_POINTS, KOBAN_POINTS, MAX_FISH, MON_PER_POINT, VARIETY_POINTS, lines_for


def slash(values: Sequence[int]) -> str:
    """``3/6/10/15``: a line's points for 1, 2, 3... as the pad prints them."""
    return "/".join(str(v) for v in values)


def signed(n: int) -> str:
    """``+7`` or ``−2`` (a real minus sign reads better on paper)."""
    return f"+{n}" if n > 0 else f"−{-n}"


def expansions(akebono: bool) -> frozenset[Expansion]:
    return cat.expansions_of(["akebono"] if akebono else [])


def _fish_bonuses(akebono: bool) -> str:
    """The end-game values of the fish tokens that have one (RULINGS R6), grouped as the pad prints them."""
    base = [t for t in cat.TOKENS if t.kind is TokenKind.FISH and t.points and t.expansion is Expansion.BASE]
    parts = [f"{t.season.value} {signed(t.points)}" for t in base if t.season]
    text = "bonus fish " + ", ".join(parts)
    if akebono:
        extra = [
            t
            for t in cat.TOKENS
            if t.kind is TokenKind.FISH and t.points and t.expansion is Expansion.AKEBONO
        ]
        seasonal = [f"{t.season.value} {signed(t.points)}" for t in extra if t.season]
        special = [f"{t.name.removesuffix(' token')} {signed(t.points)}" for t in extra if not t.season]
        text += "; Akebono fish " + ", ".join(seasonal) + "; " + ", ".join(special)
    return text


def _wild_names(akebono: bool) -> list[str]:
    shown = expansions(akebono)
    return [c.name for c in cat.CHARACTERS if c.wild is Wild.ALWAYS and cat.in_play(c.expansion, shown)]


def _puppeteer() -> str:
    return next(c.name for c in cat.CHARACTERS if c.wild is Wild.WHEN_RETIRED)


def line_reminders(akebono: bool) -> dict[str, str]:
    """The short reminder of each line of the pad (RULINGS R3-R10), by line id, in the pad's order."""
    types = len(VARIETY_POINTS) - 1
    variety = (
        f"{slash(VARIETY_POINTS[1:])} IKI for 1-{types} character types. Buildings are not a type; "
        f"a retired {_puppeteer()} is the type you choose"
    )
    wild = _wild_names(akebono)
    variety += f", and so are {' and '.join(wild)}." if wild else "."
    reminders = {
        "score_track": "IKI scored during the game: the score marker, plus the 30/60 token.",
        "variety": variety,
        "fish": f"{slash(FISH_POINTS[1:])} IKI for 1-{MAX_FISH} fish, plus {_fish_bonuses(akebono)}.",
        "tobacco": "Each pouch's value (list below), all doubled if you hold at least one pipe.",
        "buildings": "Each of your buildings scores its value (list below).",
        "resources": (
            f"{KOBAN_POINTS} per koban, 1 per wood, 1 per full {MON_PER_POINT} mon. Rice and sandals: 0."
        ),
        "personalities": "Personalities that score at the end of the game (list below); all others 0.",
    }
    return {line: reminders[line] for line in lines_for(akebono)}
