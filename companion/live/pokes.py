"""The poke's shared part (docs/sync.md "Push"): the channel a write notifies on PostgreSQL, and this process's
hubs of open streams, which a write on SQLite wakes at its commit. Below both :mod:`companion.live.engine` (which
pokes) and :mod:`companion.live.stream` (whose hubs hold the streams), so neither imports the other."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping
from typing import Final, Protocol

#: The PostgreSQL channel of every poke: ``NOTIFY live, '<thing> <version>'``.
CHANNEL: Final = "live"


class Hub(Protocol):
    """What a poke needs of a process's hub of open streams (companion.live.stream.Hub)."""

    @property
    def loop(self) -> asyncio.AbstractEventLoop: ...

    @property
    def queues(self) -> Mapping[str, Collection[object]]: ...

    def publish(self, thing: str, version: int) -> None: ...


#: This process's hubs, one per running event loop (by the loop's id); companion.live.stream makes them.
HUBS: dict[int, Hub] = {}


def local_poke(thing: str, version: int) -> None:
    """Wake this process's streams of ``thing`` now (SQLite, called at a write's commit, from the write's thread):
    a tap reaches the other phones served by the same worker without waiting for the version check."""
    for found in list(HUBS.values()):
        if thing in found.queues and not found.loop.is_closed():
            found.loop.call_soon_threadsafe(found.publish, thing, version)
