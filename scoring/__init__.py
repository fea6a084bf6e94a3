"""The rules core of the IKI companion: catalogue, end-game scoring and validator. Pure Python, no Django.

:func:`evaluate` is the whole contract of ``POST /api/v1/score`` and ``manage.py score``: decoded JSON in, the
answer out (``docs/api.md``). Malformed input raises :class:`~scoring.errors.InputError`.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import InputError
from scoring.score import LINE_LABELS, PlayerScore, lines_for, score_table
from scoring.table import PlayerState, Setup, Table, read_json, read_table
from scoring.validate import Code, Problem, Report, validate


def answer(table: Table, report: Report, scores: list[PlayerScore] | None) -> dict[str, Any]:
    """The JSON answer for a table, its validation report and (when valid) its scores."""
    out: dict[str, Any] = {
        "valid": report.valid,
        "errors": [p.as_dict() for p in report.errors],
        "warnings": [p.as_dict() for p in report.warnings],
    }
    if scores is not None:
        out["players"] = [
            {
                "name": s.name,
                "lines": {k: line.points for k, line in s.lines.items()},
                "total": s.total,
                "rank": s.rank,
                "explanations": {k: line.explanation for k, line in s.lines.items()},
                "tie_break": s.tie_break,
            }
            for s in scores
        ]
    return out


def evaluate_table(table: Table) -> tuple[Report, list[PlayerScore] | None]:
    """Validate a table and, when it has no error, score it."""
    report = validate(table)
    return report, (score_table(table) if report.valid else None)


def evaluate(data: object) -> dict[str, Any]:
    """Decoded JSON in, the scoring answer out. Raises :class:`InputError` for malformed input."""
    table = read_table(data)
    report, scores = evaluate_table(table)
    return answer(table, report, scores)


__all__ = [
    "LINE_LABELS",
    "Code",
    "InputError",
    "PlayerScore",
    "PlayerState",
    "Problem",
    "Report",
    "Setup",
    "Table",
    "answer",
    "evaluate",
    "evaluate_table",
    "lines_for",
    "read_json",
    "read_table",
    "score_table",
    "validate",
]
