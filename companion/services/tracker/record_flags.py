"""What the rules validator says of a tracked game's records (issue 13, item 5): every problem at once, by player,
and the firefighting and trade floors of what left the game (RULINGS R26)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from companion.models.games import Seat
from companion.services.tracker.records import LOST, SPENT, UNFED, entries, field_of, scoring_fields
from scoring.calendar import TRACK_MAX
from scoring.catalogue import FIREFIGHTING_GAIN, STARTING_IDS, TOKEN_BY_ID, TRADE_GAIN
from scoring.errors import InputError
from scoring.table import read_table
from scoring.validate import INCOMPLETE_CODES, Problem, validate


@dataclass(frozen=True, slots=True)
class Flag:
    """One problem the validator found in a player's record: ``level`` is ``error`` or ``warning``."""

    level: str
    code: str
    field: str
    message: str

    @classmethod
    def of(cls, problem: Problem) -> Flag:
        return cls(problem.severity.value, problem.code.value, problem.field, problem.message)


def problems(seats: Sequence[Seat], *, akebono: bool, setup: Mapping[str, Any]) -> dict[str, list[Flag]]:
    """Every problem the rules validator finds in what was recorded, by player name ("" for the table), the
    incomplete ones (a wild type, a stack order: only the end can answer them) left out."""
    players = [
        {"name": s.name, "score_track": s.score, "firefighting": s.firefighting, "trade": s.trade}
        | scoring_fields(s)
        for s in seats
    ]
    data = {"expansions": ["akebono"] if akebono else [], "players": players, "setup": dict(setup)}
    try:
        report = validate(read_table(data))
    except InputError as exc:
        return {"": [Flag("error", exc.code, exc.field, exc.message)]}
    found: dict[str, list[Flag]] = {s.name: _floors(s, akebono) for s in seats}
    for p in (*report.errors, *report.warnings):
        if p.code in INCOMPLETE_CODES or any(f.code == p.code.value for f in found.get(p.player or "", [])):
            continue
        found.setdefault(p.player or "", []).append(Flag.of(p))
    return {name: flags for name, flags in found.items() if flags}


_FLOORS: Final = (
    ("firefighting", FIREFIGHTING_GAIN, "firefighting-below-gains"),
    ("trade", TRADE_GAIN, "trade-below-gains"),
)


def _floors(seat: Seat, akebono: bool) -> list[Flag]:
    """RULINGS R26: a character that left the game (unfed or burnt) keeps its firefighting gain, and a spent
    pipe its gains: the markers stand at least at the gains of all the player hired and bought, gone included.
    The scoring table does not carry what left, so the tracker checks this floor itself (only when something
    left; otherwise the validator's own check, RULINGS R13, says the same)."""
    held = entries(seat)
    pipes = [i for i in held.get(SPENT, []) if i in TOKEN_BY_ID and field_of("tokens", i) == "pipes"]
    gone = [*held.get(LOST, []), *held.get(UNFED, []), *pipes]
    if not gone:
        return []
    every = [i for i in (*held.get("characters", []), *held.get("pipes", []), *gone) if i not in STARTING_IDS]
    flags = []
    for key, gains, code in _FLOORS:
        if key == "trade" and not akebono:
            continue
        need = min(TRACK_MAX, sum(gains.get(i, 0) for i in every))
        value = int(getattr(seat, key))
        if value < need:
            flags.append(
                Flag(
                    "error",
                    code,
                    key,
                    f"{seat.name}'s {key} marker is on space {value}, but the hiring bonuses and pipes of what "
                    f"{seat.name} took, lost characters and spent pipes included, moved it up to {need}, and it "
                    "never moves down.",
                )
            )
    return flags
