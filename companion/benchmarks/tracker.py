"""A tracked game over a whole evening (issue 13, docs/benchmarks.md "Tracker").

Under gunicorn on loopback (as :mod:`companion.benchmarks.polling`), through HTTP only:

- the game page, the fresh state partial and one write (+1 IKI) at 30 log entries and again at 3,000: the cost
  must not grow with the log (a render reads a bounded number of rows);
- the bytes of the tracker's first load, gzip: the page (as the server sends it) plus its CSS and scripts
  (compressed here as a gzip-serving static server would), against the 30 KiB budget of issue 12.

Each time is the median of 5 runs of ``SAMPLES`` requests. Figures only; nothing is asserted.
"""

from __future__ import annotations

import gzip
import re
import statistics
import time
from collections.abc import Callable

from companion.benchmarks import Report
from companion.benchmarks.polling import Browserless, served

SAMPLES = 20
RUNS = 5
SMALL, LARGE = 30, 3000
BUDGET_KIB = 30


def _median_ms(fn: Callable[[], object]) -> float:
    runs = []
    for _ in range(RUNS):
        start = time.perf_counter()
        for _ in range(SAMPLES):
            fn()
        runs.append((time.perf_counter() - start) / SAMPLES * 1000)
    return statistics.median(runs)


def _costs(client: Browserless, token: str) -> dict[str, float]:
    for _ in range(SAMPLES):  # warm up: templates compiled, connections open
        client.request("GET", f"/games/{token}/")

    def page() -> None:
        assert client.request("GET", f"/games/{token}/")[0] == 200

    def state() -> None:
        assert client.request("GET", f"/games/{token}/state?v=0", headers={"HX-Request": "true"})[0] == 200

    def write() -> None:
        form = {"op": "score-add", "seat": "1", "value": "1"}
        assert client.request("POST", f"/games/{token}/change", form, {"HX-Request": "true"})[0] == 200

    return {"page": _median_ms(page), "state partial": _median_ms(state), "write (+1)": _median_ms(write)}


def _grow(client: Browserless, token: str, entries: int) -> None:
    """Add changes until the log holds ``entries`` lines (+1 and -1 taps, as a table makes them)."""
    _, _, body = client.request("GET", f"/games/{token}/log")
    have = body.count(b"<li")
    for i in range(max(0, entries - have)):
        form = {"op": "score-add", "seat": "2", "value": "1" if i % 2 == 0 else "-1"}
        client.request("POST", f"/games/{token}/change", form, {"HX-Request": "true"})


def _first_load(client: Browserless, token: str) -> dict[str, int]:
    """Bytes, gzip, of the game page and every stylesheet and script it loads."""
    _, headers, body = client.request("GET", f"/games/{token}/", headers={"Accept-Encoding": "gzip"})
    sent = {"page": len(body)}
    html = gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body
    for url in re.findall(rb'(?:href|src)="(/static/[^"]+\.(?:css|js))"', html):
        _, _, asset = client.request("GET", url.decode())
        sent[url.decode().rsplit("/", 1)[-1]] = len(gzip.compress(asset, compresslevel=9))
    return sent


def run(report: Report) -> None:
    with served() as (host, port):
        client = Browserless(host, port)
        token = client.new_game(("Anaïs", "David", "Dominique"))
        _grow(client, token, SMALL)
        small = _costs(client, token)
        _grow(client, token, LARGE)
        large = _costs(client, token)
        for what in small:
            report(f"{what} at {SMALL} log entries", small[what], "ms")
            report(f"{what} at {LARGE} log entries", large[what], "ms", f"x{large[what] / small[what]:.2f}")
        sizes = _first_load(client, token)
        for name, size in sizes.items():
            report(f"first load: {name} (gzip)", size / 1024, "KiB")
        report(
            "first load of the tracker (gzip)", sum(sizes.values()) / 1024, "KiB", f"budget {BUDGET_KIB} KiB"
        )
