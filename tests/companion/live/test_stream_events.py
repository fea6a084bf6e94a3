"""What a stream sends (companion/live/stream.py ``events``): the version when it opens, each move, and the version
again while nothing moves."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest


def test_a_quiet_stream_says_its_version_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every KEEPALIVE_S without a move the stream sends the version it last sent, as data: a comment line (what
    it sent before) keeps a proxy's connection open but never reaches the page, which then could not tell a quiet
    stream from a lost one (live.js opens a stream silent far longer anew)."""
    from companion.live import stream

    class Quiet:
        queue: asyncio.Queue[int]

        @contextlib.contextmanager
        def watch(self, thing: str, version: int) -> Iterator[asyncio.Queue[int]]:
            yield self.queue

    quiet = Quiet()
    monkeypatch.setattr(stream, "hub", lambda: quiet)
    monkeypatch.setattr(stream, "KEEPALIVE_S", 0.01)
    monkeypatch.setattr(stream, "_release_request_thread", lambda: None)

    async def heard() -> list[str]:
        quiet.queue = asyncio.Queue()
        said: list[str] = []
        async for message in stream.events("osaka:1", 7):
            said.append(message)
            if len(said) == 2:
                quiet.queue.put_nowait(9)  # a write moves it
            if len(said) == 4:
                return said
        return said

    with ThreadPoolExecutor(1) as thread:  # a loop of its own: a browser test's may run in this thread
        said = thread.submit(asyncio.run, heard()).result()
    assert said == [
        f"retry: {stream.RETRY_MS}\ndata: 7\n\n",
        "data: 7\n\n",
        "data: 9\n\n",
        "data: 9\n\n",
    ]
