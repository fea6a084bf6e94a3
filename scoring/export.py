"""The catalogue as JSON (``GET /api/v1/catalogue``): every component with its id, so no client guesses one.

Characters and tokens carry ``firefighting_gain`` and ``trade_gain``: the spaces their printed hiring bonus or
immediate effect moves a marker up, the lower bound the validator holds positions to (RULINGS R13).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from scoring import catalogue as cat
from scoring.components import CHAR_TYPES, SEASONS


def _character(c: Any) -> dict[str, Any]:
    return {
        "id": c.id,
        "name": c.name,
        "kind": "character",
        "expansion": c.expansion.value,
        "group": c.group,
        "season": c.season.value if c.season else None,
        "month": c.month,
        "starting": c.starting,
        "type": c.type.value if c.type else None,
        "wild": c.wild.value,
        "hiring_bonus": c.hiring_bonus,
        "firefighting_gain": c.firefighting_gain,
        "trade_gain": c.trade_gain,
        "skill": c.skill,
        "experience": list(c.experience),
        "retirement_token": c.retirement_token,
        "scoring": "Counts for its type: variety, tobacco, Pub, Kimono Shop, Hiroshige, Policeman.",
    }


@cache
def catalogue_json() -> dict[str, Any]:
    """Every component, grouped by kind, plus the types, seasons and inferred facts."""
    return {
        "types": [{"id": t.value, "name": t.label} for t in CHAR_TYPES],
        "seasons": [{"id": s.value, "name": s.label, "months": list(s.months)} for s in SEASONS],
        "characters": [_character(c) for c in cat.CHARACTERS],
        "unnamed_characters": [
            {"id": i, "name": f"Any {t.label}", "kind": "character", "type": t.value, "expansion": "base"}
            for i, t in zip(cat.ANY_CHARACTER_IDS, CHAR_TYPES, strict=True)
        ],
        "buildings": [
            {
                "id": b.id,
                "name": b.name,
                "kind": "building",
                "expansion": b.expansion.value,
                "ongoing": b.ongoing,
                "cost": b.cost,
                "ability": b.ability,
                "scoring": b.scoring,
                "rule": b.rule.value,
                "points": b.points,
                "cap": b.cap,
            }
            for b in cat.BUILDINGS
        ],
        "tokens": [
            {
                "id": t.id,
                "name": t.name,
                "kind": t.kind.value,
                "expansion": t.expansion.value,
                "season": t.season.value if t.season else None,
                "effect": t.effect,
                "scoring": _token_scoring(t),
                "source": t.source,
                "firefighting_gain": t.firefighting_gain,
                "trade_gain": t.trade_gain,
            }
            for t in cat.TOKENS
        ],
        "retirement_tokens": [
            {
                "id": t.id,
                "name": t.name,
                "kind": "retirement-token",
                "expansion": t.expansion.value,
                "sources": list(t.sources),
                "supply": t.supply,
                "effect": t.effect,
                "scoring": "None; the Joker (puppeteer) lets the retired Puppeteer count as a chosen type.",
            }
            for t in cat.RETIREMENT_TOKENS
        ],
        "starting_tiles": [
            {"id": t.id, "name": t.name, "kind": "starting-tile", "expansion": "akebono", "effect": t.effect}
            for t in cat.STARTING_TILES
        ],
        "personalities": [
            {
                "id": p.id,
                "name": p.name,
                "kind": "personality",
                "expansion": "akebono",
                "season": p.season.value,
                "role": p.role,
                "timing": p.timing,
                "effect": p.effect,
                "scoring": p.effect if p.timing == "end game" else "No end-game IKI.",
                "rule": p.rule.value,
            }
            for p in cat.PERSONALITIES
        ],
        "boats": [
            {
                "id": b.id,
                "name": b.name,
                "kind": "boat",
                "expansion": "akebono",
                "number": b.number,
                "cost": b.cost,
                "trade_bonus": b.trade_bonus,
                "side_a": b.side_a,
                "side_b": b.side_b,
                "buildable": b.buildable,
                "scoring": "Counted by Inn for Sailors, Kazan Watanabe and Kokan Shiba.",
            }
            for b in cat.BOATS
        ],
        "boat_tokens": [
            {
                "id": t.id,
                "name": t.name,
                "kind": "boat-token",
                "expansion": "akebono",
                "effect": t.effect,
                "scoring": "None: spent during the game; not part of a player's entry.",
            }
            for t in cat.BOAT_TOKENS
        ],
        "inferred": dict(cat.INFERRED),
    }


def _token_scoring(t: Any) -> str:
    if t.kind.value == "fish":
        bonus = f"; {t.points:+d} IKI" if t.points else ""
        return f"Counts toward the fish set (3/6/10/15){bonus}."
    if t.kind.value == "pipe":
        return "Doubles the tobacco line when the player holds at least one pipe."
    return f"{t.effect} Doubled with a pipe."
