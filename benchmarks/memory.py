"""No request can grow a process (issue 10, item 2; docs/benchmarks.md "Memory").

gunicorn with one worker (the README's way to serve, on a throw-away SQLite file database) is sent 5,000 bad
entries, each with 10 kB of junk never sent before: an unknown card in a walk-through tap, a number field holding
text, a player name, a JSON table, spread over the walk-through, the game tracker and the API. The worker's
resident memory (``VmRSS`` of ``/proc``) is printed after a warm-up and after the junk; the target is a growth
within +20 MB. Every answer must be a 4xx: a 5xx stops the benchmark.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

from benchmarks import Report
from benchmarks.polling import Browserless, served

REQUESTS = 5000
WARM_UP = 200
JUNK_BYTES = 10_000


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def _worker_pid(port: int) -> int:
    """The gunicorn worker serving ``port``: the process started with ``--bind 127.0.0.1:PORT`` whose parent was
    started the same way (the master)."""
    bind = f"127.0.0.1:{port}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if bind in cmdline:
            found[int(entry.name)] = ppid
    workers = [pid for pid, ppid in found.items() if ppid in found]
    if len(workers) != 1:
        raise RuntimeError(f"expected one gunicorn worker on port {port}, found {workers}")
    return workers[0]


def _junk() -> str:
    """10 kB never sent before: letters, digits, a few non-ASCII characters."""
    return (secrets.token_hex(16) + "ä漢字-") * (JUNK_BYTES // 37)


def run(report: Report) -> None:
    with served(workers=1) as (host, port):
        client = Browserless(host, port)
        client.request("GET", "/score/")
        status, headers, _ = client.request(
            "POST",
            "/score/",
            {
                "name-0": "Anaïs",
                "colour-0": "red",
                "name-1": "David",
                "colour-1": "blue",
                "edition": "akebono",
            },
        )
        match = re.search(r"/score/([A-Za-z0-9_-]+)/", headers.get("location", ""))
        if status != 302 or match is None:
            raise RuntimeError(f"starting a score sheet failed: {status}")
        sheet = match[1]
        game = client.new_game()
        step = f"/score/{sheet}/characters/"
        client.request("GET", step)

        sends: list[Callable[[str], tuple[int, dict[str, str], bytes]]] = [
            lambda junk: client.request("POST", f"{step}entry/", {"op": f"add|0|characters|{junk}"}),
            lambda junk: client.request(
                "POST", f"/score/{sheet}/resources/entry/", {"p0-mon": junk, "was-p0-mon": "0"}
            ),
            lambda junk: client.request("POST", f"/score/{sheet}/track/entry/", {"op": f"bump|0|{junk}|1"}),
            lambda junk: client.request("POST", f"/games/{game}/who", {"who": junk}),
            lambda junk: client.request(
                "POST", f"/games/{game}/change", {"op": junk, "seat": "1", "value": "1"}
            ),
            lambda junk: client.request(
                "POST",
                "/api/v1/score",
                headers={"Content-Type": "application/json"},
                body=json.dumps({"players": [{"name": "A", "characters": [junk]}, {"name": "B"}]}),
            ),
            lambda junk: client.request(
                "GET", f"/setup/game?{urlencode({'players': 3, 'seed': junk[:2000]})}"
            ),
        ]

        def send(n: int) -> None:
            for i in range(n):
                status, _, body = sends[i % len(sends)](_junk())
                if not 400 <= status < 500:
                    raise RuntimeError(f"bad input answered {status}, not a 4xx: {body[:200]!r}")

        pid = _worker_pid(port)
        send(WARM_UP)
        before = _rss_mb(pid)
        start = time.perf_counter()
        send(REQUESTS)
        elapsed = time.perf_counter() - start
        after = _rss_mb(pid)
        report("worker RSS after the warm-up", before, "MB", f"pid {pid}, {os.cpu_count()} cores")
        report(f"worker RSS after {REQUESTS:,} bad entries of 10 kB junk", after, "MB")
        report("growth", after - before, "MB", "target within +20 MB")
        report("bad entries answered", REQUESTS / elapsed, "req/s", "every one a 4xx")
