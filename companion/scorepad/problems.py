"""The validator's problems, placed: each beside the entry it names (:class:`~companion.scorepad.entries.EntryKey`),
on its step, or above the entries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.scorepad.entries import EntryKey
from companion.scorepad.steps import FIELD_STEP, ORDER_ANCHOR, SETUP_STEP, STEP_LISTS
from scoring.validate import Problem, Report


@dataclass(frozen=True, slots=True)
class Shown:
    """A problem with where it is shown: its step, and the entry (html id) or the part of the page."""

    problem: Problem
    step: str
    anchor: str
    player: int | None
    error: bool

    @property
    def message(self) -> str:
        return self.problem.message


def place(problem: Problem, players: Sequence[Mapping[str, Any]]) -> tuple[str, str, int | None]:
    """(step slug, anchor, player index) of a problem's ``field``."""
    key = EntryKey.of_problem(problem.field, players)
    if key is not None:
        if key.field in STEP_LISTS.get(FIELD_STEP.get(key.field, ""), ()) and not key.item:
            return FIELD_STEP[key.field], f"p{key.player}-{key.field}", key.player
        return FIELD_STEP.get(key.field, "track"), key.html_id, key.player
    if problem.field.startswith(("firefighting_order", "stacks")):
        return "firefighting", ORDER_ANCHOR, None
    if problem.field.startswith("setup."):
        part = problem.field.split(".")[1].split("[")[0]
        return SETUP_STEP.get(part, "track"), "setup", None
    return "track", "step-top", None


class Problems:
    """The validator's problems with where each is shown, by anchor."""

    def __init__(self, report: Report, players: Sequence[Mapping[str, Any]], slugs: Iterable[str]) -> None:
        known = set(slugs)
        self.all: list[Shown] = []
        for problem, error in [*((p, True) for p in report.errors), *((p, False) for p in report.warnings)]:
            step, anchor, player = place(problem, players)
            self.all.append(Shown(problem, step if step in known else "track", anchor, player, error))
        self.by_anchor: dict[str, list[Shown]] = {}
        for shown in self.all:
            self.by_anchor.setdefault(shown.anchor, []).append(shown)

    def at(self, anchor: str) -> list[Shown]:
        return self.by_anchor.get(anchor, [])
