"""How many tables one server holds when no phone can hold its stream (docs/benchmarks.md "Fallback"): a proxy that
buffers, or a network that drops long requests, and live.js polls instead (docs/sync.md). gunicorn with 2 uvicorn
workers, as the app is served, and simulated tables, each with 4 phones polling the game tracker's pull as live.js
does without a stream (``GET /games/<token>/state?v=N`` every 1.5 s, 204 while nothing changed) and one phone
making an entry on the scoring walk-through every 10 s, sent as live.js sends it (its write id, ``X-Live: 1``).

For each number of tables the load runs for a fixed time; it prints the requests' p95 latency, and the largest
count whose p95 stays under 100 ms. The load generator runs in this process, on 127.0.0.1 only, with a bounded
number of threads and requests; its own CPU share is printed beside it, since it shares the machine's cores with
the server. Everything goes through HTTP, as phones do.
"""

from __future__ import annotations

import heapq
import http.client
import itertools
import resource
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode

from benchmarks import Report
from benchmarks.polling import Browserless, served
from benchmarks.walkthrough import new_sheet

POLL_S = 1.5
TAP_S = 10.0
PHONES = 4
TABLES = (25, 50, 100, 150, 200, 300, 400)
SECONDS = 12.0
P95_TARGET_MS = 100.0
THREADS = 24
#: A bound on the requests of one level, whatever the numbers above (a typo cannot flood the machine).
MAX_REQUESTS = 40_000
#: The write ids of the walk-through's taps (``ln``), one counter for every table's phone.
_WRITES = itertools.count(1)


@dataclass(order=True)
class Due:
    at: float
    kind: str = field(compare=False)
    table: int = field(compare=False)


@dataclass
class Table:
    game: str
    version: int
    step: str  # the walk-through's characters step of the table's sheet
    sheet_version: int
    lock: threading.Lock = field(default_factory=threading.Lock)


def _tables(host: str, port: int, count: int) -> list[tuple[Browserless, Table]]:
    out = []
    for _ in range(count):
        client = Browserless(host, port)
        game = client.new_game(("Anaïs", "David", "Chiyo", "Daichi"))
        first = new_sheet(client)
        client.request("GET", f"/games/{game}/state")
        out.append((client, Table(game, 1, first.replace("/track/", "/characters/"), 1)))
    return out


def _level(
    host: str, port: int, tables: list[tuple[Browserless, Table]], seconds: float
) -> tuple[list[float], int]:
    """Run the tables' phones for ``seconds``; (latencies in ms, errors)."""
    start = time.perf_counter() + 0.2
    queue: list[Due] = []
    for t in range(len(tables)):  # phones spread over their period, as real ones drift apart
        for phone in range(PHONES):
            heapq.heappush(
                queue, Due(start + POLL_S * (t * PHONES + phone) / (len(tables) * PHONES), "poll", t)
            )
        heapq.heappush(queue, Due(start + TAP_S * t / len(tables), "tap", t))
    cond = threading.Condition()
    latencies: list[float] = []
    errors = [0]
    end = start + seconds
    sent = [0]

    def take() -> Due | None:
        with cond:
            while True:
                if not queue or queue[0].at > end or sent[0] >= MAX_REQUESTS:
                    return None
                wait = queue[0].at - time.perf_counter()
                if wait <= 0:
                    due = heapq.heappop(queue)
                    period = POLL_S if due.kind == "poll" else TAP_S
                    heapq.heappush(queue, Due(due.at + period, due.kind, due.table))
                    sent[0] += 1
                    return due
                cond.wait(min(wait, 0.05))

    def work() -> None:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        while (due := take()) is not None:
            client, table = tables[due.table]
            request = _poll(table) if due.kind == "poll" else _tap(client, table)
            try:
                status = request(conn)
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection(host, port, timeout=30)
                status = 0
            finished = time.perf_counter()
            # From when the request was due: a request sent late (the generator or the server behind) counts
            # its wait, as a phone's would, rather than hiding it (coordinated omission).
            latencies.append((finished - due.at) * 1000)
            if status not in (200, 204):
                errors[0] += 1
        conn.close()

    threads = [threading.Thread(target=work) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors[0]


def _poll(table: Table) -> Callable[[http.client.HTTPConnection], int]:
    def send(conn: http.client.HTTPConnection) -> int:
        conn.request("GET", f"/games/{table.game}/state?v={table.version}", headers={"X-Live": "1"})
        response = conn.getresponse()
        response.read()
        return response.status

    return send


def _tap(client: Browserless, table: Table) -> Callable[[http.client.HTTPConnection], int]:
    def send(conn: http.client.HTTPConnection) -> int:
        with table.lock:
            op = "add" if table.sheet_version % 2 else "remove"
            form = {"op": f"{op}|1|characters|monk", "v": str(table.sheet_version), "p": "1", "marked": ""}
            form |= {"lc": f"fallback{id(table)}", "ln": str(next(_WRITES))}
            headers = {
                "X-Live": "1",
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": client.cookies.get("csrftoken", ""),
                "Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items()),
                "Accept-Encoding": "gzip",
            }
            conn.request("POST", table.step + "entry/", body=urlencode(form), headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                table.sheet_version = int(response.getheader("X-Live-Version") or table.sheet_version + 1)
            return response.status

    return send


def run(report: Report) -> None:
    largest = 0
    with served() as (host, port):
        made = _tables(host, port, max(TABLES))
        for count in TABLES:
            cpu = resource.getrusage(resource.RUSAGE_SELF)
            wall = time.perf_counter()
            latencies, errors = _level(host, port, made[:count], SECONDS)
            wall = time.perf_counter() - wall
            after = resource.getrusage(resource.RUSAGE_SELF)
            used = (after.ru_utime - cpu.ru_utime) + (after.ru_stime - cpu.ru_stime)
            p95 = statistics.quantiles(latencies, n=20)[-1]
            note = f"{len(latencies) / wall:.0f} req/s, load generator {used / wall:.0%} of a core, {errors} errors"
            report(f"{count} tables: p95 latency", p95, "ms", note)
            if p95 < P95_TARGET_MS and not errors:
                largest = count
            else:
                break
    report("largest number of tables with p95 under 100 ms", largest, "tables", "every phone polling")
