"""An open stream costs no thread (issue 21, "An open stream must cost no thread"; companion/live/stream.py):
under Django's ASGI handler each request's sync middleware runs on a thread of the request's own, which the
stream lets go once its body starts. Many streams held open, the worker has about as many threads as with none."""

from __future__ import annotations

import asyncio
from pathlib import Path

from benchmarks.capacity import _worker_pids
from tests.companion.live.conftest import Table

STREAMS = 40


def _threads(port: int) -> int:
    total = 0
    for pid in _worker_pids(port):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                total += int(line.split()[1])
    return total


async def _hold(table: Table, token: str, count: int) -> int:
    """Open ``count`` streams, wait for each one's first event, and count the worker's threads meanwhile."""
    opened = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection(table.host, table.port)
        writer.write(f"GET /live/osaka/{token} HTTP/1.1\r\nHost: {table.host}\r\n\r\n".encode())
        await writer.drain()
        opened.append((reader, writer))
    try:
        for reader, _ in opened:
            while not (await reader.readline()).startswith(b"data: "):
                pass
        return _threads(table.port)
    finally:
        for _, writer in opened:
            writer.close()


def test_open_streams_hold_no_thread(table: Table) -> None:
    edit, _ = table.osaka()
    idle = _threads(table.port)
    held = asyncio.run(_hold(table, edit, STREAMS))
    assert held < idle + STREAMS // 4, (idle, held)  # before: a thread per open stream
