"""A tracked game over a whole evening (issue 13, docs/benchmarks.md "Tracker").

Under gunicorn on loopback (as :mod:`benchmarks.polling`), through HTTP only:

- the game page, the fresh state partial, one write (+1 IKI, htmx) and the page followed by the live script's
  write (+1 IKI with the page's digests: the answer is its pieces) at 30 log entries and again at 3,000: the cost
  must not grow with the log (a render reads a bounded number of rows);
- the bytes of the tracker's first load, gzip: the page (as the server sends it) plus its CSS and scripts
  (compressed here as a gzip-serving static server would), against the 30 KiB budget of issue 12.

Two games on one server, one with 30 log entries and one with 3,000; each time is the median of 5 batches of
``SAMPLES`` requests, the two games' batches interleaved so both see the same machine load. Figures only.
"""

from __future__ import annotations

import gzip
import re
import statistics
import time
from collections.abc import Callable

from benchmarks import Report
from benchmarks.polling import Browserless, served

SAMPLES = 20
RUNS = 5
SMALL, LARGE = 30, 3000
BUDGET_KIB = 30


def _batch_ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    for _ in range(SAMPLES):
        fn()
    return (time.perf_counter() - start) / SAMPLES * 1000


def _requests(client: Browserless, token: str) -> dict[str, Callable[[], None]]:
    def page() -> None:
        assert client.request("GET", f"/games/{token}/")[0] == 200

    def state() -> None:
        assert client.request("GET", f"/games/{token}/state?v=0", headers={"HX-Request": "true"})[0] == 200

    def write() -> None:
        form = {"op": "score-add", "seat": "1", "value": "1"}
        assert client.request("POST", f"/games/{token}/change", form, {"HX-Request": "true"})[0] == 200

    counter = iter(range(1, 10**6))
    client_id = f"bench{token[:8]}"

    def live() -> None:
        _, _, body = client.request("GET", f"/games/{token}/")
        held = ".".join(re.findall(r'data-h="([0-9a-f]+)"', body.decode()))
        form = {"op": "score-add", "seat": "1", "value": "1", "lc": client_id, "ln": next(counter), "h": held}
        status, _, answer = client.request("POST", f"/games/{token}/change", form, LIVE)
        assert status == 200
        LIVE_SIZES.append(len(gzip.compress(answer)))

    return {"page": page, "state partial": state, "write (+1)": write, "page + live write (+1)": live}


LIVE = {"X-Live": "1"}
#: The gzip size of each live write's answer (its pieces), for the report.
LIVE_SIZES: list[int] = []


def _costs(client: Browserless, small: str, large: str) -> dict[str, tuple[float, float]]:
    """Median of RUNS batches for each request, the two games' batches interleaved so both see the same load."""
    ours, theirs = _requests(client, small), _requests(client, large)
    for fn in (*ours.values(), *theirs.values()):
        fn()  # warm up: templates compiled, connections open
    costs = {}
    for what in ours:
        runs = [(_batch_ms(ours[what]), _batch_ms(theirs[what])) for _ in range(RUNS)]
        costs[what] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
    return costs


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
        small = client.new_game(("Anaïs", "David", "Dominique"))
        large = client.new_game(("Anaïs", "David", "Dominique"))
        _grow(client, small, SMALL)
        _grow(client, large, LARGE)
        for what, (few, many) in _costs(client, small, large).items():
            report(f"{what} at {SMALL} log entries", few, "ms")
            report(f"{what} at {LARGE} log entries", many, "ms", f"x{many / few:.2f}")
        report(
            "live write's answer (+1, its pieces, gzip)",
            statistics.median(LIVE_SIZES),
            "B",
            "issue 21: <= 2 kB",
        )
        sizes = _first_load(client, small)
        for name, size in sizes.items():
            report(f"first load: {name} (gzip)", size / 1024, "KiB")
        report(
            "first load of the tracker (gzip)", sum(sizes.values()) / 1024, "KiB", f"budget {BUDGET_KIB} KiB"
        )
