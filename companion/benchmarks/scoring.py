"""The rules core: median CPU time to validate and score one 4-player Akebono table (target < 200 µs), through the
pure core and through ``POST /api/v1/score`` with the Django test client, beside ``GET /healthz``."""

from __future__ import annotations

import json
import time

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

    read = median_seconds(lambda: read_table(data), clock=cpu) * 1e6
    check = median_seconds(lambda: validate(table), clock=cpu) * 1e6
    score = median_seconds(lambda: score_table(table), clock=cpu) * 1e6
    texts = median_seconds(explained, clock=cpu) * 1e6
    core = median_seconds(lambda: evaluate_table(read_table(data)), clock=cpu) * 1e6
    whole = median_seconds(lambda: evaluate(data), clock=cpu) * 1e6
    report("read JSON -> Table (4 players, Akebono)", read, "µs")
    report("validate", check, "µs")
    report("score: lines, totals, ranks (texts on demand)", score, "µs", "what running totals pay")
    report("score with every explanation built", texts, "µs")
    report("read + validate + score (texts on demand)", core, "µs")
    verdict = "ok" if whole <= TARGET_US else "MISSED"
    report(
        "evaluate(): all of it, explanations, JSON answer",
        whole,
        "µs",
        f"target < {TARGET_US:.0f} µs: {verdict} ({whole / TARGET_US:.2f}x)",
    )

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
