"""Benchmarks, run by ``python manage.py bench`` (docs/benchmarks.md). Speed is measured here, never in tests.

Each module of this package defines ``run(report)``; ``report(name, value, unit, note="")`` prints one figure.
Modules run in name order.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

Report = Callable[..., None]


def median_seconds(fn: Callable[[], object], *, repeat: int = 7, number: int | None = None) -> float:
    """Median time of one call of ``fn`` over ``repeat`` batches of ``number`` calls (auto-sized to ~0.2 s)."""
    if number is None:
        number = 1
        while True:
            start = time.perf_counter()
            for _ in range(number):
                fn()
            if time.perf_counter() - start > 0.2 or number >= 1 << 20:
                break
            number *= 2
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)
