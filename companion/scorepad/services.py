"""What the walk-through writes and makes, as keyword-only functions (the HackSoft styleguide's services).

The versioned write itself is :func:`companion.models.scoresheets.apply_changes` (the ORM's
``filter(pk=..., version=read).update(..., version=F("version") + 1)``, read and applied again on a conflict).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.models.scoresheets import Change, ScoreSheet, SheetError, apply_changes, start_sheet
from companion.pdf.scorepad import PadPlayer, filled_pad
from companion.scorepad.presenter import read_sheet
from scoring.score import LINE_LABELS, lines_for, score_table
from scoring.validate import Report, validate


def record_entries(*, token: str, changes: Callable[[ScoreSheet], Iterable[Change]]) -> ScoreSheet:
    """Apply a step's entries (a function of the freshly read sheet: its form is read against its players) and
    save them with a version-checked write; returns the saved sheet. Raises ``ScoreSheet.DoesNotExist``,
    :class:`~companion.models.scoresheets.SheetBusy`, or whatever ``changes`` raises (nothing saved)."""
    return apply_changes(token, changes)


def sheet_from_seed(
    *, code: str, players: int, akebono: bool, grand_master: bool
) -> tuple[dict[str, Any], str]:
    """The setup a seed code made (what the start page's "seed" option knows was in play), and the seed."""
    from setupgen import Options, OptionsError, SeedError, generate

    try:
        setup = generate(Options(players=players, akebono=akebono, grand_master=grand_master), seed=code)
    except (SeedError, OptionsError) as exc:
        raise SheetError("seed", f"Seed code: {exc}.") from None
    out: dict[str, Any] = {"buildings": list(setup.buildings)}
    if setup.akebono is not None:
        out["personalities"] = [p for pair in setup.akebono.personalities.values() for p in pair]
        out["boat_sides"] = dict(setup.akebono.boat_sides)
    return out, setup.seed


@dataclass(frozen=True, slots=True)
class Ranked:
    name: str
    colour: str
    rank: int
    total: int
    tie_break: str
    lines: list[tuple[str, int, str]]


@dataclass(frozen=True, slots=True)
class Result:
    """A sheet judged by the rules core: the report, and the ranking when the rules accept the table."""

    report: Report
    ranking: list[Ranked]

    @property
    def tie_breaks(self) -> list[str]:
        return list(dict.fromkeys(r.tie_break for r in self.ranking if r.tie_break))

    @property
    def missing(self) -> list[str]:
        """RULINGS R13 as amended: what an incomplete table still lacks (scored with what is known)."""
        return [p.message for p in self.report.warnings if p.incomplete]


def result_of(*, sheet: ScoreSheet) -> Result:
    """The ranking and each line's explanation (RULINGS R3-R12), or only the report while the rules refuse."""
    table = read_sheet(sheet)
    report = validate(table)
    ranking = []
    if report.valid:
        labels = [(key, LINE_LABELS[key]) for key in lines_for(table.akebono)]
        for i, s in enumerate(score_table(table)):
            lines = [(label, s.lines[key].points, s.lines[key].explanation) for key, label in labels]
            ranking.append(Ranked(s.name, sheet.colour(i), s.rank, s.total, s.tie_break or "", lines))
        ranking.sort(key=lambda r: (r.rank, r.name))
    return Result(report, ranking)


def pad_pdf(*, sheet: ScoreSheet, result: Result, pagesize: str) -> bytes:
    """The filled score pad of a scored sheet (RULINGS R3), saying what is missing (R13 as amended)."""
    players = [
        PadPlayer(
            name=r.name,
            colour=r.colour or None,
            lines={
                key: points
                for key, (_label, points, _why) in zip(lines_for(sheet.akebono), r.lines, strict=True)
            },
            total=r.total,
            rank=r.rank,
        )
        for r in sorted(result.ranking, key=lambda r: sheet.names.index(r.name))
    ]
    return filled_pad(
        akebono=sheet.akebono,
        players=players,
        pagesize=pagesize,
        date=sheet.created.date() if sheet.created else datetime.date.today(),
        seed=sheet.seed or None,
        tie_breaks=result.tie_breaks,
        missing=result.missing,
    )


def pad_filename(names: Sequence[str]) -> str:
    return "iki-score-" + "-".join(re.sub(r"[^A-Za-z0-9]+", "", n) or "player" for n in names) + ".pdf"


__all__ = [
    "SheetError",
    "pad_filename",
    "pad_pdf",
    "record_entries",
    "result_of",
    "sheet_from_seed",
    "start_sheet",
]
