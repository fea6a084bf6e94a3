"""New Year's Day in the tracker's record (issue 23): the resources each player is asked, one number each, and
setting them (companion.services.tracker.ops, op ``resources``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from companion.errors import Refused
from companion.models.games import Seat
from companion.services.tracker.records import RESOURCE_MAX, RESOURCES, entries
from scoring.catalogue import BUILDING_BY_ID
from scoring.components import BuildingRule

SCORED_RESOURCES: Final = ("mon", "koban", "wood")
"""The resources worth IKI at the end (iki-rulebook.txt "Resources": koban 3, wood 1, 4 mon 1; RULINGS R9): asked
of every player on New Year's Day."""
RESOURCE_BUILDINGS: Final[Mapping[BuildingRule, str]] = {
    BuildingRule.PER_RICE: "rice",
    BuildingRule.PER_SANDAL: "sandals",
}
"""Rice and sandals are worth nothing ("Rice and Sandals are worth nothing") except to the owner of a building that
scores them (the Storehouse per rice, the Merchant House per sandal, Appendix 2): asked only of that owner."""


def resources_asked(seat: Seat) -> tuple[str, ...]:
    """The resources New Year's Day asks of this player (issue 23: one number each, nothing the scoring ignores):
    mon, koban and wood, and rice or sandals when a building they built scores them."""
    built = [BUILDING_BY_ID[b] for b in entries(seat).get("buildings", []) if b in BUILDING_BY_ID]
    extra = {RESOURCE_BUILDINGS[b.rule] for b in built if b.rule in RESOURCE_BUILDINGS}
    return tuple(k for k in RESOURCES if k in SCORED_RESOURCES or k in extra)


RESOURCES_WORDS: Final = "'s resources: "
"""The log's words of a player's resources saved, between the player and the numbers (:func:`resources`)."""


def resources(seat: Seat, values: Mapping[str, int | None]) -> str:
    """Set the player's resources at the end. A resource ``values`` leaves out keeps what was recorded (0 when
    nothing was): New Year's Day asks only those that score for this player (:func:`resources_asked`)."""
    record = dict(seat.record) if isinstance(seat.record, dict) else {}
    if not any(key in values for key in RESOURCES):
        raise Refused("Enter the player's resources.")
    for key in RESOURCES:
        value = values[key] if key in values else record.get(key, 0)
        if not isinstance(value, int) or not 0 <= value <= RESOURCE_MAX:
            raise Refused(f"{key.capitalize()} must be a whole number from 0 to {RESOURCE_MAX}.")
        record[key] = value
    seat.record = record
    shown = [k for k in RESOURCES if k in SCORED_RESOURCES or record[k]]  # no "0 rice" nobody was asked
    return seat.name + RESOURCES_WORDS + ", ".join(f"{record[k]} {k}" for k in shown)


def resources_seen(seat: Seat) -> str:
    """What a resources form is made against (its ``was``)."""
    record = seat.record if isinstance(seat.record, dict) else {}
    return ",".join(str(record.get(k, 0)) for k in RESOURCES)


def resources_of(summary: str) -> str | None:
    """The player a resources log line (:func:`resources`) names; None when the line does not read so."""
    holder, found, _ = summary.rpartition(RESOURCES_WORDS)  # the numbers never hold these words
    return holder if found and holder else None
