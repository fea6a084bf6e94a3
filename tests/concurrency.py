"""Helpers for the tests of several phones at the same moment (docs/sync.md): threads released together (each
with its own connection to the test database, a WAL file on SQLite as a deployment runs), and the database gunicorn
serves."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection

THREADS = 6


def at_once(work: Callable[[int], Any], threads: int = THREADS) -> list[Any]:
    """Run ``work(i)`` in ``threads`` threads released together; each returns its result or its exception."""
    barrier = threading.Barrier(threads)
    results: list[Any] = [None] * threads

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    started = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in started:
        t.start()
    for t in started:
        t.join(60)
    return results


def gunicorn_database_url() -> str | None:
    """The run's test database for gunicorn: None on SQLite (served() makes a file), the test DB on PostgreSQL."""
    if connection.vendor == "sqlite":
        return None
    s = connection.settings_dict
    return f"postgres://{s['USER'] or ''}:{s['PASSWORD'] or ''}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
