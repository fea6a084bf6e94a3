"""The rules core: median CPU time to validate and score one 4-player Akebono table (target < 200 µs), through the
pure core and through ``POST /api/v1/score`` with the Django test client, beside ``GET /healthz``."""

from __future__ import annotations

import json
from collections.abc import Callable

from benchmarks import Report, api_beside_healthz, cpu_figure
from scoring import evaluate, evaluate_table
from scoring.examples import AKEBONO_FOUR_PLAYERS
from scoring.score import score_table
from scoring.table import read_table
from scoring.validate import validate

TARGET_US = 200.0


def run(report: Report) -> None:
    data = AKEBONO_FOUR_PLAYERS
    answer = evaluate(data)
    assert answer["valid"], answer["errors"]
    table = read_table(data)

    def explained() -> None:
        for s in score_table(table):
            for line in s.lines.values():
                _ = line.explanation

    def measure(name: str, fn: Callable[[], object], note: str = "") -> float:
        return cpu_figure(report, name, fn, note)

    measure("read JSON -> Table (4 players, Akebono)", lambda: read_table(data))

    measure("validate", lambda: validate(table))
    measure(
        "score: lines, totals, ranks (texts on demand)", lambda: score_table(table), "what running totals pay"
    )
    core = measure("validate + score", lambda: evaluate_table(table))
    verdict = "ok" if core <= TARGET_US else "MISSED"
    report("  target: validate + score", TARGET_US, "µs", f"{verdict} ({core / TARGET_US:.2f}x)")
    measure("score with every explanation built", explained)
    measure("evaluate(): read, validate, score, texts, JSON answer", lambda: evaluate(data))

    api_beside_healthz(report, "/api/v1/score", json.dumps(data))
