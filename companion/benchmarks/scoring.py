"""The rules core: median CPU time to validate and score one 4-player Akebono table (target < 200 µs), through the
pure core and through ``POST /api/v1/score`` with the Django test client, beside ``GET /healthz``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from django.test import Client

from companion.benchmarks import Report, median_seconds
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
    cpu = time.process_time  # the core runs entirely in this process: CPU time is steady under load

    def explained() -> None:
        for s in score_table(table):
            for line in s.lines.values():
                _ = line.explanation

    def measure(name: str, fn: Callable[[], object], note: str = "") -> float:
        median = median_seconds(fn, clock=cpu, repeat=21) * 1e6
        best = median_seconds(fn, clock=cpu, repeat=21, best=True) * 1e6
        report(name, median, "µs", f"best {best:.0f} µs{'; ' + note if note else ''}")
        return median

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

    client = Client()
    body = json.dumps(data)
    api = median_seconds(
        lambda: client.post("/api/v1/score", body, content_type="application/json"), repeat=5
    )
    health = median_seconds(lambda: client.get("/healthz"), repeat=5)
    report("POST /api/v1/score through the test client", api * 1e6, "µs")
    report(
        "GET /healthz (minimal view, baseline)", health * 1e6, "µs", f"API / baseline = {api / health:.1f}x"
    )
    size = len(client.post("/api/v1/score", body, content_type="application/json").content)
    report("answer size", size, "bytes")
