"""Bounded in-process caches of what the rules core said (players read, lines scored) and of the rows a process
wrote: plain dicts, looked up inline on the hot path (a scoring tap), stored through :func:`put`, which holds
their one bound policy. A ``functools`` cache does not fit: their keys stand for data that is not hashable (a
player's stored JSON bytes stand for the player read from it)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def put(cache: dict[K, V], key: K, value: V, limit: int) -> V:
    """Store ``value`` under ``key`` and return it, emptying the cache first when it already holds ``limit``
    entries (a bound on memory, not an LRU: what a table still needs is made again at once)."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


__all__ = ["put"]
