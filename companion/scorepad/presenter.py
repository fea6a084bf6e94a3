"""What a step of the walk-through shows, as plain dataclasses the templates render (``templates/scorepad_*``).

One player's entries at a time (issue 12): tabs for every player (name, colour, running total, this step's
problem count), the shown player's head (this line's points and explanation) and entries
(:mod:`~companion.scorepad.player_entries`), the validator's problems placed beside the entries they name
(:mod:`~companion.scorepad.problems`), the totals, and the steps bar (:mod:`~companion.scorepad.steps`).
Everything is read from the stored table by the rules core on every request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.models.scoresheets import ScoreSheet
from companion.scorepad.entries import NAME, STACK, EntryKey
from companion.scorepad.player_entries import PlayerEntries
from companion.scorepad.problems import Problems, Shown
from companion.scorepad.steps import (
    FIELD_STEP,
    ORDER_ANCHOR,
    STEP_LISTS,
    STEP_NUMBERS,
    Step,
    intro,
    read_sheet,
    steps_for,
)
from scoring import catalogue as cat
from scoring.names import short_labels
from scoring.score import LINE_LABELS, last_group, score_player
from scoring.validate import validate


@dataclass
class Tab:
    index: int
    name: str
    short: str  # the first letters that tell the name from the others' (what a narrow tab shows)
    colour: str
    total: int
    problems: int
    current: bool


@dataclass
class StackChoice:
    key: EntryKey
    name: str
    value: int | str
    places: range
    problems: list[Shown]


@dataclass
class Space:
    """A firefighting space shared by several markers: who is on top (RULINGS R12)."""

    space: int
    problems: list[Shown]
    choices: list[StackChoice]


class StepView(PlayerEntries):
    """One step of a stored sheet for one player, as the rules core sees it."""

    def __init__(
        self, sheet: ScoreSheet, step: Step, player: int = 0, opened: Iterable[str] = (), bad: str = ""
    ) -> None:
        self.sheet, self.step, self.bad = sheet, step, bad
        self.players = sheet.table["players"]
        self.player = player if 0 <= player < len(self.players) else 0
        self.opened = frozenset(opened)
        self.table = read_sheet(sheet)
        self.expansions = self.table.expansions
        self.setup = self.table.setup
        self.steps = steps_for(self.table.akebono)
        self.report = validate(self.table)
        self.problems = Problems(self.report, self.players, (s.slug for s in self.steps))
        last = last_group(self.table)
        self.lines = [score_player(p, self.table.akebono, last) for p in self.table.players]

    # --- around the entries ---

    @cached_property
    def intro(self) -> str:
        return intro(self.step, self.table.akebono)

    @property
    def colour(self) -> str:
        return self.sheet.colour(self.player)

    @cached_property
    def totals(self) -> list[Tab]:
        """Every player's tab: name, colour, running total, and the problems of this step in their entries."""
        mine = Counter(
            s.player for s in self.problems.all if s.step == self.step.slug and s.player is not None
        )
        shorts = short_labels([p["name"] for p in self.players])
        return [
            Tab(
                i,
                p["name"],
                shorts[i],
                self.sheet.colour(i),
                sum(x.points for x in self.lines[i].values()),
                mine[i],
                i == self.player,
            )
            for i, p in enumerate(self.players)
        ]

    @cached_property
    def _told(self) -> Counter[str]:
        """The errors this step tells of, by step: all but those on a number of a later step still at its starting
        0 (the sheet cannot tell a typed 0 from one not typed yet), such as the firefighting space below the gains
        of the cards just entered (RULINGS R13): the player is told there, once they come to it."""
        later = {s.slug for s in self.steps[self.steps.index(self.step) + 1 :]}
        return Counter(
            s.step
            for s in self.problems.all
            if s.error and not (s.step in later and self._unreached(s.anchor))
        )

    def _unreached(self, anchor: str) -> bool:
        key = EntryKey.parse(anchor)
        return (
            key is not None
            and key.field in STEP_NUMBERS.get(FIELD_STEP.get(key.field, ""), ())
            and not self.players[key.player].get(key.field)
        )

    @property
    def errors(self) -> int:
        return sum(self._told.values())

    def nav(self) -> list[tuple[int, Step, int]]:
        """(number, step, errors) of every step."""
        return [(n, s, self._told.get(s.slug, 0)) for n, s in enumerate(self.steps, 1)]

    @property
    def position(self) -> int:
        return self.steps.index(self.step) + 1

    def elsewhere(self) -> list[tuple[Step, int]]:
        return [(s, self._told[s.slug]) for s in self.steps if self._told.get(s.slug) and s is not self.step]

    def top_problems(self) -> list[Shown]:
        """This step's problems no entry of the shown player, no player's tab and no stack shows: above the
        entries."""
        return [
            s
            for s in self.problems.all
            if s.step == self.step.slug
            and s.player is None
            and not (s.anchor == ORDER_ANCHOR and self.step.slug == "firefighting")
        ]

    def head(self) -> dict[str, Any]:
        """The shown player's points on this line, its explanation, and the problems of the whole column."""
        line = self.lines[self.player].get(self.step.line) if self.step.line else None
        i = self.player
        at = self.problems.at
        problems = at(f"p{i}-{NAME}") + [
            s for key in STEP_LISTS.get(self.step.slug, ()) for s in at(f"p{i}-{key}")
        ]
        return {
            "line": line,
            "label": LINE_LABELS.get(self.step.line or "", ""),
            "problems": problems,
        }

    def marked(self) -> set[EntryKey]:
        """The shown player's entries on this step that show messages."""
        return {
            key for a, shown in self.problems.by_anchor.items() if (key := self._shows(a, shown)) is not None
        }

    def _shows(self, anchor: str, shown: list[Shown]) -> EntryKey | None:
        key = EntryKey.parse(anchor)
        if key is None or key.player != self.player or shown[0].step != self.step.slug:
            return None
        return (
            key
            if key.item or key.field in STEP_NUMBERS.get(self.step.slug, ()) or key.field == STACK
            else None
        )

    # --- the firefighting stack (every player: a stack spans players) ---

    def order(self) -> tuple[list[Shown], list[Space]]:
        """Problems of the stack order no space shows, and each shared space's question (RULINGS R12/R13)."""
        by_space: dict[int, list[int]] = {}
        for i, player in enumerate(self.players):
            by_space.setdefault(int(player.get("firefighting", 0)), []).append(i)
        shown = self.problems.at(ORDER_ANCHOR) + [
            s for i in range(len(self.players)) for s in self.problems.at(f"stack-p{i}")
        ]
        spaces, placed = [], set[int]()
        for space in sorted(by_space, reverse=True):
            members = by_space[space]
            if len(members) < 2:
                continue
            here = [s for s in shown if s.problem.field.split("[")[0] == f"stacks.{space}"]
            names = {self.players[i]["name"] for i in members}
            choices = []
            for i in members:
                name = self.players[i]["name"]
                mine = [s for s in here if s.problem.player == name]
                rank = self.sheet.stack.get(name)
                value: int | str = rank + 1 if rank is not None and 0 <= rank < len(members) else ""
                choices.append(StackChoice(EntryKey(i, STACK), name, value, range(1, len(members) + 1), mine))
            placed.update(id(s) for s in here)
            spaces.append(Space(space, [s for s in here if s.problem.player not in names], choices))
        return [s for s in shown if id(s) not in placed], spaces

    # --- where Next and Back go: player by player, then step by step ---

    def neighbour(self, go: str) -> tuple[Step, int] | None:
        """The (step, player) Next or Back shows; None past the last step (the result) or before the first."""
        count, where = len(self.players), self.steps.index(self.step)
        if go == "next":
            if self.player + 1 < count:
                return self.step, self.player + 1
            return (self.steps[where + 1], 0) if where + 1 < len(self.steps) else None
        if self.player > 0:
            return self.step, self.player - 1
        return (self.steps[where - 1], count - 1) if where else None

    def setup_note(self) -> list[str]:
        setup = self.setup
        if self.step.slug == "buildings" and setup and setup.buildings:
            return [cat.BUILDING_BY_ID[b].name for b in setup.buildings]
        if self.step.slug == "personalities" and setup and setup.personalities:
            return [cat.PERSONALITY_BY_ID[p].name for p in setup.personalities]
        return []
