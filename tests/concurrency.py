"""Helpers for the tests of several phones at the same moment (docs/sync.md): threads released together, the
ORM scenarios run where they mean something, and the database gunicorn serves."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import connection

from benchmarks.polling import ROOT

THREADS = 6

_RUNNER = """
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from {module} import SCENARIOS
SCENARIOS[{name!r}]()
print("ok")
"""


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


def in_memory_sqlite() -> bool:
    return connection.vendor == "sqlite" and bool(connection.is_in_memory_db())


def gunicorn_database_url() -> str | None:
    """The run's test database for gunicorn: None on SQLite (served() makes a file), the test DB on PostgreSQL."""
    if connection.vendor == "sqlite":
        return None
    s = connection.settings_dict
    return f"postgres://{s['USER'] or ''}:{s['PASSWORD'] or ''}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def run_scenario(module: str, name: str, tmp_path: Path) -> None:
    """Run ``SCENARIOS[name]`` of ``module``, threads through the ORM each with its own connection: in-process on
    PostgreSQL; on SQLite in a subprocess on a database file with the settings' WAL + BEGIN IMMEDIATE (the
    in-memory test database's shared-cache table locks are not what a deployment runs)."""
    if not in_memory_sqlite():
        importlib.import_module(module).SCENARIOS[name]()
        return
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="companion.settings")
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-c", _RUNNER.format(module=module, name=name)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok")
