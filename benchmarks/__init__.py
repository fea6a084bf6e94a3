"""Benchmarks, run by ``python manage.py bench`` (docs/benchmarks.md). Speed is measured here, never in tests.

Each module of this package defines ``run(report)``; ``report(name, value, unit, note="")`` prints one figure.
Modules run in name order; those named with a leading underscore are helpers, not benchmarks.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

Report = Callable[..., None]


def median_seconds(
    fn: Callable[[], object],
    *,
    repeat: int = 7,
    number: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
    best: bool = False,
) -> float:
    """Median time of one call of ``fn`` over ``repeat`` batches of ``number`` calls (auto-sized to ~0.2 s).

    ``clock=time.process_time`` measures the CPU time of this process instead of the wall clock: steadier on a
    shared 2-core machine, for code that runs entirely in this process. ``best=True`` gives the fastest batch
    instead of the median: the cost of the code itself, with the least interference from other processes.
    """
    if number is None:
        number = 1
        while True:
            start = clock()
            for _ in range(number):
                fn()
            if clock() - start > 0.2 or number >= 1 << 20:
                break
            number *= 2
    samples = []
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            fn()
        samples.append((clock() - start) / number)
    return min(samples) if best else statistics.median(samples)


def cpu_figure(report: Report, name: str, fn: Callable[[], object], note: str = "") -> float:
    """Report the median CPU time of ``fn`` in µs (21 batches), with the fastest batch beside it; return the median.
    For code that runs entirely in this process, where CPU time is steady under load."""
    median = median_seconds(fn, clock=time.process_time, repeat=21) * 1e6
    best = median_seconds(fn, clock=time.process_time, repeat=21, best=True) * 1e6
    report(name, median, "µs", f"best {best:.0f} µs{'; ' + note if note else ''}")
    return median


def api_beside_healthz(report: Report, path: str, body: str) -> float:
    """Report ``POST path`` (a JSON body) through the Django test client beside ``GET /healthz``, and the answer's
    size; return the seconds of one ``/healthz``, the baseline."""
    from django.test import Client

    client = Client()
    api = median_seconds(lambda: client.post(path, body, content_type="application/json"), repeat=5)
    health = median_seconds(lambda: client.get("/healthz"), repeat=5)
    report(f"POST {path} through the test client", api * 1e6, "µs")
    report(
        "GET /healthz (minimal view, baseline)", health * 1e6, "µs", f"API / baseline = {api / health:.1f}x"
    )
    size = len(client.post(path, body, content_type="application/json").content)
    report("answer size", size, "bytes")
    return health
