"""The scoring walk-through (issue 4): median server time of each step's POST (htmx) beside ``GET /healthz`` in the
same run (target: within 3x), bytes per htmx step and for the first page, database queries per request for 2 and 4
players (must not grow with the players), and the filled 4-player pad served from a scored sheet (target < 50 ms).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.benchmarks import Report, median_seconds
from companion.models.scoresheets import ScoreSheet, start_sheet
from companion.views.scorepad import filled_pad_for, steps_for
from scoring.validate import validate

RATIO_TARGET = 3.0
PDF_TARGET_MS = 50.0
HX = {"HTTP_HX_REQUEST": "true"}
NAMES = ["Anaïs", "David", "Chiyo", "Daichi"]
COLOURS = ["red", "blue", "green", "yellow"]

#: One typical entry per step (what a tap or a typed number posts).
ENTRY: dict[str, dict[str, str]] = {
    "track": {"p1-score_track": "41", "was-p1-score_track": "40"},
    "characters": {"op": "add|2|characters|any-artisan"},
    "fish": {"op": "add|3|fish|fish-winter-bonus"},
    "tobacco": {"op": "add|2|tobacco|tobacco-winter-akebono"},
    "buildings": {"op": "add|1|buildings|inn"},
    "boats": {"op": "add|2|boats|houseboat"},
    "personalities": {"op": "bump|3|trade|1"},
    "resources": {"op": "bump|0|mon|1"},
    "firefighting": {"p3-firefighting": "3", "was-p3-firefighting": "2"},
}

#: A 4-player Akebono game near its end: the worked example's Anaïs (iki-rulebook.txt) and three more players.
PREFILL: dict[str, dict[str, Any]] = {
    "Anaïs": {
        "score_track": 28,
        "characters": ["salt-peddler", "book-lender", "sake-peddler", "dice-maker", "carpenter", "puppeteer"],
        "wild_types": {"puppeteer": "shop-seller"},
        "retirement_tokens": ["puppeteer"],
        "buildings": ["restaurant"],
        "fish": ["fish-spring-bonus", "fish-summer-bonus", "fish-autumn"],
        "pipes": ["pipe-spring-1"],
        "tobacco": ["tobacco-autumn-2", "tobacco-winter-1"],
        "mon": 5,
        "koban": 1,
        "firefighting": 6,
    },
    "David": {"score_track": 40, "characters": ["cotton-peddler", "monk"], "firefighting": 3, "trade": 4},
    "Chiyo": {
        "score_track": 35,
        "characters": ["wood-seller"],
        "personalities": ["ryokan"],
        "firefighting": 1,
    },
    "Daichi": {
        "score_track": 52,
        "characters": ["eyeglass-peddler"],
        "boats": ["shop-boat"],
        "firefighting": 2,
    },
}


def _sheet(players: int) -> ScoreSheet:
    names = NAMES[:players]
    return start_sheet(
        names=names,
        colours=COLOURS[:players],
        akebono=True,
        prefill={n: PREFILL[n] for n in names},
        firefighting_order=None,
    )


def _gzip_size(body: bytes) -> int:
    return len(gzip.compress(body, 6))


def run(report: Report) -> None:
    client = Client()
    healthz = median_seconds(lambda: client.get("/healthz"), repeat=7) * 1000
    report("GET /healthz (median, the baseline)", healthz, "ms", "minimal view rendering a template")

    sheet = _sheet(4)
    base = f"/score/{sheet.token}"
    worst = 0.0
    for step in steps_for(True):
        url = f"{base}/{step.slug}/"
        data = ENTRY[step.slug]

        def post(url: str = url, data: dict[str, str] = data) -> object:
            return client.post(url, data, **HX)

        ms = median_seconds(post, repeat=7) * 1000
        worst = max(worst, ms / healthz)
        verdict = "ok" if ms / healthz <= RATIO_TARGET else "MISSED"
        report(
            f"POST {step.slug} (htmx, median)",
            ms,
            "ms",
            f"{ms / healthz:.1f}x /healthz, target <= {RATIO_TARGET:.0f}x: {verdict}",
        )
    report("worst step POST / healthz", worst, "x", f"target <= {RATIO_TARGET:.0f}x")

    first = client.get("/score/")
    report(
        "GET /score/ (first page) bytes",
        len(first.content),
        "bytes",
        f"{_gzip_size(first.content):,} gzipped",
    )
    first_step = client.get(f"{base}/track/")
    report(
        "GET first step (full page) bytes",
        len(first_step.content),
        "bytes",
        f"{_gzip_size(first_step.content):,} gzipped",
    )
    for step in steps_for(True):
        body = client.post(f"{base}/{step.slug}/", ENTRY[step.slug], **HX).content
        report(
            f"htmx step {step.slug} bytes (4 players)", len(body), "bytes", f"{_gzip_size(body):,} gzipped"
        )

    for what, request in _requests().items():
        counts = []
        for players in (2, 4):
            other = _sheet(players)
            with CaptureQueriesContext(connection) as queries:
                request(client, other)
            counts.append(len(queries))
        same = "constant" if counts[0] == counts[1] else "GROWS with players"
        report(
            f"queries: {what}, 2 -> 4 players", counts[1], "queries", f"{counts[0]} with 2 players: {same}"
        )

    scored = _sheet(4)
    table = scored.read()
    if not validate(table).valid:  # pragma: no cover - the benchmark's own data
        raise RuntimeError("the benchmark's 4-player sheet should be valid")
    ms = median_seconds(lambda: filled_pad_for(scored, table, "A4"), repeat=7) * 1000
    verdict = "ok" if ms < PDF_TARGET_MS else "MISSED"
    report(
        "filled 4-player pad from a sheet (median)", ms, "ms", f"target < {PDF_TARGET_MS:.0f} ms: {verdict}"
    )
    pdf = median_seconds(lambda: client.get(f"/score/{scored.token}/pad.pdf?size=a4"), repeat=5) * 1000
    report("GET pad.pdf (median, whole request)", pdf, "ms")
    ScoreSheet.objects.all().delete()


def _requests() -> dict[str, Callable[[Client, ScoreSheet], object]]:
    return {
        "GET a step (htmx)": lambda c, s: c.get(f"/score/{s.token}/characters/", **HX),
        "POST an entry (htmx)": lambda c, s: c.post(
            f"/score/{s.token}/fish/", {"op": "add|1|fish|fish-winter"}, **HX
        ),
        "GET the result": lambda c, s: c.get(f"/score/{s.token}/result/"),
    }
