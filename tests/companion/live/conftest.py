"""The live tests' table: the app as ``manage.py table`` serves it (gunicorn with uvicorn workers, ASGI, so the
live streams stay open) on a throw-away SQLite file database, or on the PostgreSQL test database when the suite
runs on PostgreSQL. The tests make their games and sheets through the pages and read the database with SQL."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from benchmarks.polling import ROOT, Browserless, new_osaka, served
from benchmarks.walkthrough import new_sheet
from tests.concurrency import gunicorn_database_url

#: A gunicorn config (server hooks) whose workers die right after a write marked "die" commits.
DIES = "python:tests.companion.live.dies"


@dataclass
class Table:
    base: str
    host: str
    port: int
    sqlite: Path | None

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        if self.sqlite is not None:
            with sqlite3.connect(self.sqlite) as db:
                return list(db.execute(query, params))
        with connection.cursor() as cursor:
            cursor.execute(query.replace("?", "%s"), params)
            return list(cursor.fetchall())

    def client(self) -> Browserless:
        return Browserless(self.host, self.port)

    def osaka(self, names: tuple[str, ...] = ("Ann", "Ben")) -> tuple[str, str]:
        """A new Osaka game through its form: (edit token, view token)."""
        edit = new_osaka(self.client(), names)
        view = self.sql("SELECT view_token FROM companion_osakagame WHERE edit_token = ?", edit)[0][0]
        return edit, str(view)

    def sheet(self, names: tuple[str, ...] = ("Aya", "Ben")) -> str:
        """A new score sheet through the start form: its token."""
        found = re.search(r"/score/([A-Za-z0-9_-]+)/track/", new_sheet(self.client(), names, edition="base"))
        assert found
        return found.group(1)

    def sheet_value(self, token: str, player: int, field: str) -> Any:
        import json

        table = self.sql('SELECT "table" FROM companion_scoresheet WHERE token = ?', token)[0][0]
        data = json.loads(table) if isinstance(table, str) else table
        return data["players"][player][field]


def lose_the_first_answer(page: Any, pattern: str = "**/change") -> list[int]:
    """The first write (a POST) of ``page`` to ``pattern`` reaches the server, which writes, and its answer never
    reaches the phone; the later requests pass. The list returned holds a 1 once an answer was lost."""
    lost: list[int] = []

    def lose(route: Any) -> None:
        if not lost and route.request.method == "POST":
            route.fetch()  # the server writes...
            lost.append(1)
            route.abort()  # ...and the answer never arrives
        else:
            route.continue_()

    page.route(pattern, lose)
    return lost


#: Notes in the page whether an element ever carries a class, as the page changes (a MutationObserver's callback
#: runs after each change, before the page's next task: a class set on a tap and taken off by a later answer is
#: always seen).
_WATCH = """([selector, name]) => {
  const seen = (window.testMarks = window.testMarks || {});
  const key = selector + " " + name;
  const look = () => { if (document.querySelector(selector)?.classList.contains(name)) seen[key] = true; };
  seen[key] = false;
  new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true});
  look();
}"""


def watch_mark(page: Any, selector: str, name: str) -> Callable[[], None]:
    """Start noting whether the element ``selector`` names ever carries the class ``name``; the function returned
    waits until it has. For a mark that can be gone before an ``expect`` looks: the waiting mark of a tap whose
    answer was lost, taken off as soon as the stream's pull says the server applied it (a CI run of 2026-11-26)."""
    page.evaluate(_WATCH, [selector, name])
    key = f"{selector} {name}"
    return lambda: page.wait_for_function("(key) => window.testMarks[key]", arg=key)


def pulls_of(*pages: Any) -> list[str]:
    """The addresses of the state pulls ``pages`` make from now on (the list grows as they make them). Started
    once each page's stream is open: until its first word a page polls every 1.5 s (live.js), which a loaded
    machine reaches (a ninth pull of eight, once, with two other suites running on the same cores)."""
    pulls: list[str] = []
    for page in pages:
        page.on("request", lambda r: pulls.append(r.url) if "/state" in r.url else None)
    return pulls


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database migrated by ``manage.py migrate`` in a fresh Python, once a worker: each table on
    SQLite starts from a copy of it (a fresh Python and every migration a test cost seconds on a loaded machine)."""
    path = tmp_path_factory.mktemp("migrated") / "db.sqlite3"
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{path}", DJANGO_SETTINGS_MODULE="companion.settings")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    return path


def _table(tmp_path: Path, config: str | None, request: pytest.FixtureRequest) -> Iterator[Table]:
    if connection.vendor == "postgresql":
        with served(gunicorn_database_url(), workers=1, config=config) as (host, port):
            yield Table(f"http://{host}:{port}", host, port, None)
        return
    path = tmp_path / "db.sqlite3"
    migrated: Path = request.getfixturevalue("migrated_sqlite")
    with closing(sqlite3.connect(migrated)) as source, closing(sqlite3.connect(path)) as copy:
        source.backup(copy)  # the whole database, whatever its journal mode left beside the file
    with served(f"sqlite:///{path}", workers=1, config=config) as (host, port):
        yield Table(f"http://{host}:{port}", host, port, path)


@pytest.fixture
def table(tmp_path: Path, transactional_db: Any, request: pytest.FixtureRequest) -> Iterator[Table]:
    yield from _table(tmp_path, None, request)


@pytest.fixture
def dying_table(tmp_path: Path, transactional_db: Any, request: pytest.FixtureRequest) -> Iterator[Table]:
    """The table whose server dies between a write marked "die" and its answer (tests/companion/live/dies.py)."""
    yield from _table(tmp_path, DIES, request)
