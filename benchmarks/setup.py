"""Setups generated per second (issue 3): through the pure core (seed -> SHA-256 -> draws), the checklist, and
the API view, the checklist page and its poll through the Django test client, beside the /healthz baseline."""

from __future__ import annotations

import functools
import itertools

from django.test import Client

from benchmarks import Report, median_seconds
from companion.setup_query import new_table
from setupgen import ALPHABET, SEED_LENGTH, Options, checklist, generate

CASES = (
    ("base 4p", Options(4), "players=4"),
    ("Akebono 4p", Options(4, akebono=True), "players=4&akebono=1"),
    ("Grand Master", Options(2, akebono=True, grand_master=True), "players=2&akebono=1&grand_master=1"),
)


def seed_of(number: int) -> str:
    """A different valid seed for each ``number`` (base 30 in the seed alphabet), so nothing is cached."""
    digits = []
    for _ in range(SEED_LENGTH):
        number, digit = divmod(number, len(ALPHABET))
        digits.append(ALPHABET[digit])
    return "".join(digits)


def run(report: Report) -> None:
    counter = itertools.count()
    for label, options, _ in CASES:
        seconds = median_seconds(functools.partial(lambda o: generate(o, seed_of(next(counter))), options))
        report(f"generate() {label}", 1 / seconds, "setups/s", f"{seconds * 1e6:.0f} µs each")
    gm = generate(CASES[2][1], "K7MX2QPA")
    seconds = median_seconds(lambda: checklist(gm))
    report("checklist() Grand Master", 1 / seconds, "lists/s", f"{seconds * 1e6:.0f} µs each")

    client = Client()
    baseline = median_seconds(lambda: client.get("/healthz"))
    for label, _, query in CASES:
        seconds = median_seconds(
            functools.partial(lambda q: client.get(f"/api/v1/setup?{q}&seed={seed_of(next(counter))}"), query)
        )
        report(f"GET /api/v1/setup {label}", 1 / seconds, "setups/s", f"{seconds / baseline:.1f}x /healthz")
    query = CASES[2][2]
    table = new_table()
    seconds = median_seconds(
        lambda: client.get(f"/setup/game?{query}&seed={seed_of(next(counter))}&table={table}")
    )
    report(
        "GET /setup/game Grand Master (page)", 1 / seconds, "pages/s", f"{seconds / baseline:.1f}x /healthz"
    )
    # The poll of an open page (issue 20): 204 while the saved ticks are those the phone shows.
    seconds = median_seconds(
        lambda: client.get(f"/setup/ticks/state?{query}&seed=K7MX2QPA&table={table}", HTTP_HX_REQUEST="true")
    )
    report("GET /setup/ticks/state 204", 1 / seconds, "polls/s", f"{seconds / baseline:.1f}x /healthz")
    seconds = median_seconds(
        lambda: client.get(
            f"/setup/ticks/state?{query}&seed=K7MX2QPA&table={table}&done=general-board",
            HTTP_HX_REQUEST="true",
        )
    )
    report("GET /setup/ticks/state 1 change", 1 / seconds, "polls/s", f"{seconds / baseline:.1f}x /healthz")
    report("GET /healthz baseline", 1 / baseline, "req/s")
