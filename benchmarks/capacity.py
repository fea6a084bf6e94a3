"""How many tables one server holds with every phone on the live engine (issue 21, docs/benchmarks.md
"Capacity"): gunicorn with uvicorn workers (``CAPACITY_WORKERS``, default 2: this machine's cores) on a
throw-away SQLite file, and N Traders of Osaka games (``CAPACITY_TABLES``, default 100,400,1000), each with 3
phones holding its stream (asyncio clients in this process) and one token +1 per game spread over 10 s, sent as
live.js sends it (a write id and the digests the page holds). On each poke the two phones that did not tap pull
what changed (the version they hold, their digests), as live.js does.

For each count it prints the p95 of the taps (request to answer) and of "another phone has the tap" (tap sent to
the pull's answer; both target < 100 ms), the load generator's share of the cores (it shares the machine with the
server), the server's CPU per tap and memory per open stream, what idle streams cost, and the largest count
reached. Everything goes through HTTP, as phones do.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import resource
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks import Report
from benchmarks.polling import Browserless, new_osaka, served

PHONES = 3
TABLES: Sequence[int] = tuple(
    int(n) for n in os.environ.get("CAPACITY_TABLES", "100,400,1000").split(",") if n
)
TAP_EVERY_S = 10.0
#: The server's processes: this machine's two cores (``manage.py table`` starts 1 on SQLite, 2 on PostgreSQL).
WORKERS = int(os.environ.get("CAPACITY_WORKERS", "2"))


async def _stream(host: str, port: int, token: str, pokes: list[float] | None, ready: asyncio.Event) -> None:
    """A phone holding the game's stream. ``pokes`` None: the tapping phone, which its own answer has brought up
    to date (live.js pulls nothing for a poke of the version it holds). Else another phone: on each poke it pulls
    what changed, as live.js does (the version it holds, the digests its page holds), and ``pokes`` gets the time
    the pull's answer arrived: when that phone has the tap."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET /live/osaka/{token} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    held = None
    try:
        while line := await reader.readline():
            if not line.startswith(b"data: "):
                continue
            version = int(line[6:])
            if held is None:
                ready.set()
            elif pokes is not None and version > held:
                await _pull(host, port, token, held)
                pokes.append(time.monotonic())
            held = version
    finally:
        writer.close()


async def _ask(host: str, port: int, head: str, body: str = "") -> bytes:
    """One request on a connection of its own (``head``: its request line and headers but Host); the answer's
    status line."""
    reader, writer = await asyncio.open_connection(host, port)
    length = f"Content-Length: {len(body)}\r\n" if body else ""
    writer.write(f"{head}\r\nHost: {host}\r\n{length}Connection: close\r\n\r\n{body}".encode())
    await writer.drain()
    status = await reader.readline()
    await reader.read()
    writer.close()
    return status


async def _pull(host: str, port: int, token: str, version: int) -> None:
    query = f"v={version}&h={HELD.get(token, '')}"
    await _ask(host, port, f"GET /osaka/games/{token}/state?{query} HTTP/1.1\r\nX-Live: 1")


async def _tap(host: str, port: int, token: str, cookie: str) -> tuple[float, bool]:
    """Send one tap as live.js does (its write id, the digests the page holds); (when it was sent, whether it
    was answered 200)."""
    body = (
        f"op=token&seat=1&colour=red&delta=1&lc=cap{token[:12]}&ln={next(_COUNTER)}&h={HELD.get(token, '')}"
    )
    started = time.monotonic()
    status = await _ask(
        host,
        port,
        f"POST /osaka/games/{token}/change HTTP/1.1\r\nCookie: csrftoken={cookie}\r\nX-CSRFToken: {cookie}\r\n"
        "X-Live: 1\r\nContent-Type: application/x-www-form-urlencoded",
        body,
    )
    return started, b" 200 " in status


#: The digests each capacity game's page holds, as a phone's taps send them (the answer: only what changed).
HELD: dict[str, str] = {}
_COUNTER = itertools.count(1)


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _workers_cpu_s(port: int) -> float:
    """The CPU time (user + system) the uvicorn workers serving ``port`` used so far, in seconds."""
    total = 0
    for pid in _worker_pids(port):
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of proc(5))
    return total / os.sysconf("SC_CLK_TCK")


def _workers_rss_kib(port: int) -> int:
    """The resident memory of the uvicorn workers serving ``port``, summed."""
    return sum(_rss_kib(pid) for pid in _worker_pids(port))


def _worker_pids(port: int) -> list[int]:
    """The uvicorn workers serving ``port`` (the gunicorn master's children)."""
    masters = [
        p for p in Path("/proc").iterdir() if p.name.isdigit() and f"127.0.0.1:{port}".encode() in _cmdline(p)
    ]
    for master in masters:
        children = Path(f"/proc/{master.name}/task/{master.name}/children")
        if children.exists() and children.read_text().split():
            return [int(pid) for pid in children.read_text().split()]
    raise RuntimeError("no worker found")


def _cmdline(p: Path) -> bytes:
    try:
        return (p / "cmdline").read_bytes()
    except OSError:
        return b""


#: Seconds the streams are held open with no tap, to measure what idle streams cost the server.
IDLE_S = 5.0
#: ``GET /healthz`` sent one after the other after the taps: the CPU of the server's path alone, for comparison.
HEALTH_CHECKS = 100


@dataclass
class Load:
    taps: list[float]  # ms, request to answer
    pokes: list[float]  # ms, tap sent to the stream's event
    rss: int  # the workers' KiB with every stream open
    failed: int
    cpu: float  # the workers' CPU seconds while the taps ran (the streams' share included)
    idle: float  # the workers' share of a core with every stream open and no tap
    health: float  # the workers' CPU seconds per /healthz


async def _load(host: str, port: int, tokens: list[str], cookie: str) -> Load:
    pokes: dict[str, list[float]] = {t: [] for t in tokens}
    readies = []
    streams = []
    for token in tokens:
        for phone in range(PHONES):
            ready = asyncio.Event()
            readies.append(ready)
            others = pokes[token] if phone else None  # the first phone taps
            streams.append(asyncio.create_task(_stream(host, port, token, others, ready)))
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
    rss = _workers_rss_kib(port)
    cpu, wall = _workers_cpu_s(port), time.monotonic()
    await asyncio.sleep(IDLE_S)
    idle_share = (_workers_cpu_s(port) - cpu) / (time.monotonic() - wall)
    cpu = _workers_cpu_s(port)
    taps: list[float] = []
    poke_ms: list[float] = []
    tapped: dict[str, float] = {}
    failed = [0]

    async def one(token: str, delay: float) -> None:
        await asyncio.sleep(delay)
        started, ok = await _tap(host, port, token, cookie)
        taps.append((time.monotonic() - started) * 1000)
        if ok:
            tapped[token] = started
        else:
            failed[0] += 1

    spacing = TAP_EVERY_S / len(tokens)
    await asyncio.gather(*(one(t, i * spacing) for i, t in enumerate(tokens)))
    await asyncio.sleep(1.0)
    cpu = _workers_cpu_s(port) - cpu
    for token, started in tapped.items():
        poke_ms += [(at - started) * 1000 for at in pokes[token]]
    missing = len(tapped) * (PHONES - 1) - len(poke_ms)
    for task in streams:
        task.cancel()
    await asyncio.gather(*streams, return_exceptions=True)
    if missing:
        poke_ms += [float("inf")] * missing
    health = _workers_cpu_s(port)
    for _ in range(HEALTH_CHECKS):
        await _ask(host, port, "GET /healthz HTTP/1.1")
    health = (_workers_cpu_s(port) - health) / HEALTH_CHECKS
    return Load(taps, poke_ms, rss, failed[0], cpu, idle_share, health)


def run(report: Report) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 16384)), hard))
    reached = 0
    with served(workers=WORKERS) as (host, port):
        client = Browserless(host, port)
        client.request("GET", "/osaka/games/new/")
        cookie = client.cookies["csrftoken"]
        idle = _workers_rss_kib(port)
        tokens: list[str] = []
        for tables in TABLES:
            while len(tokens) < tables:
                tokens.append(new_osaka(client))
                _, _, page = client.request("GET", f"/osaka/games/{tokens[-1]}/")
                HELD[tokens[-1]] = ".".join(re.findall(r'data-h="([0-9a-f]+)"', page.decode()))
            cpu, wall = time.process_time(), time.monotonic()
            load = asyncio.run(_load(host, port, tokens, cookie))
            taps, pokes, rss, failed, server_cpu = load.taps, load.pokes, load.rss, load.failed, load.cpu
            share = (time.process_time() - cpu) / (time.monotonic() - wall) / (os.cpu_count() or 1)
            taps.sort()
            pokes.sort()
            p95_tap, p95_poke = taps[int(0.95 * len(taps)) - 1], pokes[int(0.95 * len(pokes)) - 1]
            streams = tables * PHONES
            report(
                f"{tables} tables, {streams} streams: taps p95 (target < 100)",
                p95_tap,
                "ms",
                f"{failed} of {tables} failed",
            )
            report(
                f"{tables} tables: another phone has the tap (poke, then pull), p95 (target < 100)",
                p95_poke,
                "ms",
            )
            report(
                f"{tables} tables: load generator's share of the cores",
                share * 100,
                "%",
                f"{WORKERS} workers, load average {os.getloadavg()[0]:.1f}",
            )
            report(
                f"{tables} tables: server CPU per tap (the streams' share included)",
                server_cpu / tables * 1000,
                "ms",
                f"{server_cpu / (TAP_EVERY_S + 1):.0%} of a core over the taps",
            )
            report(f"{tables} tables: server memory per open stream", (rss - idle) / streams, "KiB")
            report(
                f"{tables} tables: idle streams' cost (no tap for {IDLE_S:.0f} s)",
                load.idle * 100,
                "% of a core",
            )
            report(f"{tables} tables: server CPU per GET /healthz (for comparison)", load.health * 1000, "ms")
            if p95_tap < 100 and p95_poke < 100 and not failed:
                reached = tables
    report("capacity: most tables with taps and another phone p95 < 100 ms", reached, "tables")
