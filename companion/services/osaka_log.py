"""The log of a tracked Traders of Osaka game (companion/models/osaka.py): the entry each event holds, the
replay of the entries (:func:`scoring.osaka.track.replay`), what each did as the log keeps it, and its public line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from companion.models.osaka import OsakaEvent, OsakaGame
from scoring.errors import InputError
from scoring.osaka.components import ByColour
from scoring.osaka.read import colour as read_colour
from scoring.osaka.read import read_moment
from scoring.osaka.rules import Draw, PaydayResult
from scoring.osaka.track import (
    UNDONE,
    Cards,
    Entry,
    Outcome,
    PaydayEntry,
    StartDraws,
    TableState,
    TokenChange,
    replay,
)
from scoring.problems import join

#: What the table enters; "undo" and "link" are about entries and links, not the game's state.
ENTRY_KINDS: Final = frozenset({"token", "start", "payday"})
#: The key of an undone payday's result holding the paydays it held when last played (:func:`result_json`).
HELD: Final = "held"


# --- entries from the log -----------------------------------------------------------------------------------------


def payday_data(moment_json: Mapping[str, Any]) -> dict[str, Any]:
    """A payday as the log keeps it: the ships and each seat's cards (names and tokens come from the game)."""
    return {
        "arrived": list(moment_json["arrived"]),
        "sunk": list(moment_json.get("sunk", [])),
        "players": [
            {k: p.get(k, {}) for k in ("goods", "insured", "insurance")} for p in moment_json["players"]
        ],
    }


def entry_of(event: OsakaEvent, seats: int) -> Entry | None:
    """The entry an event holds, or None when undone or unreadable (then it has no effect)."""
    if event.undone or event.kind not in ENTRY_KINDS:
        return None
    data = event.data if isinstance(event.data, dict) else {}
    try:
        if event.kind == "token":
            return TokenChange(int(data["seat"]), read_colour(data["colour"], "colour"), int(data["delta"]))
        if event.kind == "start":
            return StartDraws(tuple(Draw(int(t), int(c)) for t, c in data["draws"]))
        players = [{"name": f"seat {i + 1}", **p} for i, p in enumerate(data["players"])]
        moment = read_moment({"arrived": data["arrived"], "sunk": data["sunk"], "players": players})
    except (KeyError, TypeError, ValueError, InputError):
        return None
    if len(moment.players) != seats:
        return None
    return PaydayEntry(
        moment.arrived, moment.sunk, tuple(Cards(h.goods, h.insured, h.insurance) for h in moment.players)
    )


def _tokens_json(tokens: ByColour[int]) -> dict[str, int]:
    return {c.value: n for c, n in tokens.items() if n}


def _payday_result(result: PaydayResult) -> dict[str, Any]:
    return {
        "held": [c.value for c in result.held],
        "skipped": [c.value for c in result.skipped],
        "sank": [c.value for c in result.sank],
        "ended": result.game_over,
        "end": result.end_sentence,
        "players": [
            {
                "name": p.name,
                "vp": p.vp,
                "take": [
                    {"colour": s.colour.value, "vp_cards": list(s.vp_cards), "from_pile": s.from_pile}
                    for s in p.sales
                ],
                "tokens_gained": _tokens_json(p.tokens_gained),
                "lost": {s.colour.value: len(s.lost) for s in p.sinkings if s.lost},
                "explanations": list(p.explanations),
            }
            for p in result.players
        ],
    }


def summary_of(event: OsakaEvent, outcome: Outcome | None, names: Sequence[str]) -> str:
    """The event's line in the log, public: never a VP count (RULINGS O6). A payday that did nothing (undone, or
    after the end) is named by its ships; an undone one by the paydays it held when last played, since the ships
    after a payday that ended the game had none (RULINGS O7)."""
    data = event.data if isinstance(event.data, dict) else {}
    if event.kind == "token":
        seat = data.get("seat")
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        text = f"{name} {'took' if data.get('delta') == 1 else 'gave back'} a {data.get('colour')} token"
    elif event.kind == "start":
        draws = [Draw(int(t), int(c)) for t, c in data.get("draws", [])]
        start = outcome.start if outcome else None
        text = start.explain(names, draws) if start else "The first hands were entered"
    elif event.kind == "payday":
        result = outcome.payday if outcome else None
        ships = held_before(event.result) or list(data.get("arrived", []))
        text = payday_summary(result) if result else f"Payday: {join(ships)}"
    else:
        return event.summary
    if outcome is not None and not outcome.applied and outcome.note != UNDONE:
        text += f" ({outcome.note})"
    return text


def payday_summary(result: PaydayResult) -> str:
    """A payday in public words: the ships, the tokens gained, the goods lost, the end."""
    text = "Payday: " + ", then ".join(c.value for c in result.held)
    if result.sank:
        text += f"; sunk: {join([c.value for c in result.sank])}"
    gains = [f"{p.name} +{n} {c.value}" for p in result.players for c, n in p.tokens_gained.items() if n]
    if gains:
        text += f". Tokens: {', '.join(gains)}"
    lost = [f"{p.name} {s.colour.value} {len(s.lost)}" for p in result.players for s in p.sinkings if s.lost]
    if lost:
        text += f". Lost to the Black Tide: {', '.join(lost)}"
    if result.game_over:
        text += ". The game ends here"
    return text + "."


def replayed(
    game: OsakaGame, events: Sequence[OsakaEvent], names: Sequence[str]
) -> tuple[TableState, list[Outcome | None]]:
    """Replay the entries of ``events``; the outcome of each event (None for events that are not entries)."""
    entries = [e for e in events if e.kind in ENTRY_KINDS]
    state, outcomes = replay(names, [entry_of(e, len(names)) for e in entries], game.seed)
    by_event = dict(zip((id(e) for e in entries), outcomes, strict=True))
    return state, [by_event.get(id(e)) for e in events]


def result_json(outcome: Outcome | None, before: object = None) -> dict[str, Any]:
    """What an entry did, as its event keeps it; ``before``: what it kept until now, so that an undone payday
    keeps the paydays it held (:func:`held_before`), which its line names."""
    if outcome is None:
        return {}
    out: dict[str, Any] = {"applied": outcome.applied, "note": outcome.note}
    if outcome.payday is not None:
        out["payday"] = _payday_result(outcome.payday)
    elif outcome.note == UNDONE and (held := held_before(before)):
        out[HELD] = held
    if outcome.start is not None:
        out["start"] = outcome.start.index + 1
    return out


def held_before(result: object) -> list[str]:
    """The paydays a payday entry held when last played, as its event keeps them (:func:`result_json`), or []."""
    if not isinstance(result, dict):
        return []
    payday = result.get("payday")
    held = payday.get("held") if isinstance(payday, dict) else result.get(HELD)
    return [str(c) for c in held] if isinstance(held, list) else []
