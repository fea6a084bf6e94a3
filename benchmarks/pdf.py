"""PDF score pads (companion/pdf/scorepad.py): build time of a filled 4-player Akebono pad and of a blank pad
(target: median under 50 ms), their sizes, and the blank-pad URL against the /healthz baseline."""

from __future__ import annotations

import datetime
import time

from django.test import Client

from benchmarks import Report, median_seconds
from companion.pdf.scorepad import PadPlayer, blank_pad, filled_pad
from scoring import evaluate

TARGET_MS = 50.0
DATE = datetime.date(2026, 11, 22)


def _akebono_players() -> tuple[list[PadPlayer], list[str]]:
    """Four scored Akebono players (through the rules core, as the walk-through does), two of them tied."""
    table = {
        "expansions": ["akebono"],
        "players": [
            {
                "name": "Anaïs",
                "score_track": 58,
                "characters": ["wood-seller", "dice-maker", "carpenter"],
                "personalities": ["ryokan"],
                "koban": 2,
                "firefighting": 6,
            },
            {"name": "Bertrand", "score_track": 61, "wood": 4, "firefighting": 7},
            {"name": "Chloé", "score_track": 44, "mon": 9, "firefighting": 5},
            {"name": "Jūzaburō", "score_track": 46, "firefighting": 3},
        ],
    }
    answer = evaluate(table)
    assert answer["valid"], answer["errors"]
    colours = ["red", "blue", "green", "yellow"]
    players = [
        PadPlayer(p["name"], colour, p["lines"], p["total"], p["rank"])
        for p, colour in zip(answer["players"], colours, strict=True)
    ]
    ties = list(dict.fromkeys(p["tie_break"] for p in answer["players"] if p["tie_break"]))
    return players, ties


def _verdict(ms: float) -> str:
    return f"target < {TARGET_MS:.0f} ms: {'ok' if ms < TARGET_MS else 'MISSED'}"


def run(report: Report) -> None:
    players, ties = _akebono_players()

    def filled() -> bytes:
        return filled_pad(akebono=True, players=players, date=DATE, seed="K7Q2-9XZ", tie_breaks=ties)

    def blank() -> bytes:
        return blank_pad(akebono=True, players=4)

    start = time.perf_counter()
    filled()
    cold = (time.perf_counter() - start) * 1000
    report(
        "filled 4-player Akebono pad, first after start",
        cold,
        "ms",
        "the first in this process: fonts registered on first use",
    )

    ms = median_seconds(filled, repeat=7) * 1000
    report("filled 4-player Akebono pad (median)", ms, "ms", _verdict(ms))
    ms = median_seconds(blank, repeat=7) * 1000
    report("blank 4-player Akebono pad (median)", ms, "ms", _verdict(ms))
    report("filled 4-player Akebono pad size", len(filled()), "bytes", "DejaVu subsets embedded")
    report("blank 4-player Akebono pad size", len(blank()), "bytes")
    report("blank 2-player base pad size", len(blank_pad(akebono=False, players=2)), "bytes")

    client = Client()
    assert client.get("/score/pads/blank.pdf?akebono=1&players=4&size=a4").status_code == 200
    served = median_seconds(lambda: client.get("/score/pads/blank.pdf?akebono=1&players=4&size=a4")) * 1000
    baseline = median_seconds(lambda: client.get("/healthz")) * 1000
    report(
        "GET /score/pads/blank.pdf (median, cached pad)", served, "ms", f"{served / baseline:.1f}x /healthz"
    )
    report("GET /healthz baseline (median)", baseline, "ms")
    page = client.get("/score/pads/")
    report("GET /score/pads/ bytes", len(page.content), "bytes")
    partial = client.get("/score/pads/?akebono=1&players=3&size=letter", headers={"HX-Request": "true"})
    report("htmx summary swap bytes", len(partial.content), "bytes")
