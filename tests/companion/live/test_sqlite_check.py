"""The live table's version check on SQLite (companion/live/stream.py): a write committed by another process
reaches the open streams through it (``PRAGMA data_version`` on the check's own connection, then the versions)."""

from __future__ import annotations

import asyncio

import pytest

from tests.companion.live.conftest import Table


async def _next_version(table: Table, token: str, moved: int) -> list[int]:
    """Open a stream, move the game's version from another connection (as another process would), and read the
    stream's versions until it says ``moved``."""
    reader, writer = await asyncio.open_connection(table.host, table.port)
    writer.write(f"GET /live/osaka/{token} HTTP/1.1\r\nHost: {table.host}\r\n\r\n".encode())
    await writer.drain()
    said: list[int] = []
    try:
        while not said:
            line = await asyncio.wait_for(reader.readline(), 30)
            if line.startswith(b"data: "):
                said.append(int(line[6:]))
        table.sql("UPDATE companion_osakagame SET version = ? WHERE edit_token = ?", moved, token)
        while said[-1] != moved:
            line = await asyncio.wait_for(reader.readline(), 30)
            if line.startswith(b"data: "):
                said.append(int(line[6:]))
        return said
    finally:
        writer.close()


def test_a_commit_by_another_process_reaches_the_stream(table: Table) -> None:
    if table.sqlite is None:
        pytest.skip("PostgreSQL pokes through NOTIFY, not the version check")
    edit, _ = table.osaka()
    (version,) = table.sql("SELECT version FROM companion_osakagame WHERE edit_token = ?", edit)[0]
    # Well within the stream's 20 s keep-alive: the version check looks every 0.05 s.
    said = asyncio.run(asyncio.wait_for(_next_version(table, edit, version + 5), 15))
    assert said == [version, version + 5]
