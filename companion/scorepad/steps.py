"""The walk-through's steps: one a score-pad line (RULINGS R3), the fields each shows, where a problem on a field
is shown, and the stored table as the steps read it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Final

from companion.models.scoresheets import ScoreSheet
from companion.scorepad.entries import NAME, STACK, WILD
from scoring.reminders import line_reminders
from scoring.table import Table, stack_places


@dataclass(frozen=True, slots=True)
class Step:
    slug: str
    title: str
    line: str | None  # the score-pad line this step fills (RULINGS R3), if any
    akebono_only: bool = False
    rule: str = ""  # what the line's reminder (scoring.reminders) leaves out, with its ruling


STEPS: Final = (
    Step("track", "Score track", "score_track", rule=""),
    Step(
        "characters",
        "Characters",
        "variety",
        rule="Every character on the player board: retired cards and the ones taken back from the Nagayas.",
    ),
    Step(
        "fish",
        "Fish",
        "fish",
        rule="One fish a season, a second winter one only on New Year's Day.",
    ),
    Step("tobacco", "Pipes and tobacco", "tobacco", rule=""),
    Step("buildings", "Buildings", "buildings", rule=""),
    Step(
        "boats",
        "Boats",
        None,
        akebono_only=True,
        rule="The boats each player built (at most 2); they count "
        "for the Inn for Sailors, Kazan Watanabe and Kōkan Shiba.",
    ),
    Step(
        "personalities",
        "Personalities and trade",
        "personalities",
        akebono_only=True,
        rule="The trade track runs 0-10.",
    ),
    Step("resources", "Resources", "resources", rule="Rice and sandals count for some buildings."),
    Step(
        "firefighting",
        "Firefighting",
        None,
        rule="The firefighting track breaks ties: the higher marker "
        "wins, then the marker higher in the stack on a shared space.",
    ),
)
STEP_BY_SLUG: Final = {s.slug: s for s in STEPS}

#: Which step shows each player field (problems on it link there).
FIELD_STEP: Final = {
    NAME: "track",
    "score_track": "track",
    "characters": "characters",
    WILD: "characters",
    "retirement_tokens": "characters",
    "fish": "fish",
    "pipes": "tobacco",
    "tobacco": "tobacco",
    "buildings": "buildings",
    "boats": "boats",
    "personalities": "personalities",
    "trade": "personalities",
    "mon": "resources",
    "koban": "resources",
    "wood": "resources",
    "rice": "resources",
    "sandals": "resources",
    "firefighting": "firefighting",
    STACK: "firefighting",
}
SETUP_STEP: Final = {"buildings": "buildings", "personalities": "personalities", "boat_sides": "boats"}
#: The number fields each step shows, and the printed top of a track (RULINGS R11).
STEP_NUMBERS: Final[Mapping[str, tuple[str, ...]]] = {
    "track": ("score_track",),
    "personalities": ("trade",),
    "resources": ("mon", "koban", "wood", "rice", "sandals"),
    "firefighting": ("firefighting",),
}
NUMBER_TOP: Final = {"trade": 10, "firefighting": 10}
#: The lists each step shows as entries; their problems without a single entry (``players[0].fish``) show in
#: the player's head.
STEP_LISTS: Final[Mapping[str, tuple[str, ...]]] = {
    "characters": ("characters", "retirement_tokens"),
    "fish": ("fish",),
    "tobacco": ("pipes", "tobacco"),
    "buildings": ("buildings",),
    "boats": ("boats",),
    "personalities": ("personalities",),
}
ORDER_ANCHOR: Final = "firefighting-order"


@cache
def steps_for(akebono: bool) -> tuple[Step, ...]:
    return tuple(s for s in STEPS if akebono or not s.akebono_only)


def intro(step: Step, akebono: bool) -> str:
    """The step's line reminder, the same words as the PDF pad and the pads page (scoring.reminders)."""
    reminder = line_reminders(akebono).get(step.line or "", "")
    return " ".join(part for part in (reminder, step.rule) if part)


def read_sheet(sheet: ScoreSheet) -> Table:
    """The stored table with the stack places entered on the firefighting step, which decide ties space by
    space (RULINGS R12); the full order the sheet derives from them says nothing more."""
    table = sheet.read()
    return replace(table, firefighting_order=None, stacks=stack_places(table.players, sheet.stack))


#: Each step's title by slug: the one place the pad check's words for a step come from.
STEP_TITLES: Final = {s.slug: s.title for s in STEPS}
