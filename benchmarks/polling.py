"""The polling endpoint under gunicorn on loopback (issue 5, docs/benchmarks.md "Polling").

Starts gunicorn on 127.0.0.1 (a free port, 2 uvicorn workers, as the README serves) against a throw-away SQLite file database it migrates
itself, creates a game through HTTP, then measures requests per second of the unchanged poll
(``GET /games/<token>/state?v=N`` answering 204) beside ``GET /healthz`` (a minimal view rendering a template),
served the same way in the same run with the same load generator: a bounded number of requests over keep-alive
connections from a few Python threads. Prints the median ratio of 5 runs (target >= 0.9, issue 13) and the bytes of one unchanged poll.
gunicorn is stopped at the end, always. :func:`served` is also used by tests/companion/test_games_concurrency.py.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO
from urllib.parse import urlencode

from django.conf import settings

from benchmarks import Report

ROOT = Path(__file__).resolve().parent.parent
THREADS = 4
REQUESTS_PER_THREAD = 1500
RUNS = 5
WORKERS = 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def served(
    database_url: str | None = None,
    *,
    workers: int = WORKERS,
    config: str | None = None,
    environ: Mapping[str, str] = {},
) -> Iterator[tuple[str, int]]:
    """gunicorn serving the companion on 127.0.0.1 as ``manage.py table`` and the public deployment serve it (the
    ASGI app under uvicorn workers: an open live stream holds no thread); yields (host, port). Without
    ``database_url`` a throw-away SQLite file database is created and migrated. ``config``: a gunicorn config
    (``-c``, e.g. server hooks as ``python:module``); ``environ``: more environment for gunicorn. gunicorn is
    always stopped on exit."""
    with tempfile.TemporaryDirectory(prefix="iki-serve-") as tmp:
        # The caller's secret key, as every server of one deployment shares it: links it signs (a setup's table
        # code) are the server's own.
        env = dict(
            os.environ,
            DJANGO_DEBUG="0",
            DJANGO_SETTINGS_MODULE="companion.settings",
            DJANGO_SECRET_KEY=settings.SECRET_KEY,
            **environ,
        )
        env["DATABASE_URL"] = database_url or f"sqlite:///{Path(tmp) / 'db.sqlite3'}"
        if database_url is None:
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "-v", "0"],
                cwd=ROOT,
                env=env,
                check=True,
                timeout=120,
            )
        port = free_port()
        # The server's log goes to a file: a pipe nobody reads fills at 64 KiB, and then the worker's next log line
        # blocks it, holding the logging lock and (inside a write) SQLite's write lock: every later request hangs
        # and gunicorn kills the worker for missing its heartbeat (bench live at 1,000 tables did exactly that).
        log = (Path(tmp) / "gunicorn.log").open("w+b")
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "companion.asgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                "--worker-class",
                "companion.worker.TableWorker",
                "--keep-alive",
                "30",
                "--log-level",
                "warning",
                *(["-c", config] if config else []),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            _wait_ready(port, process, log)
            yield "127.0.0.1", port
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)
            log.close()


def _wait_ready(port: int, process: subprocess.Popen[bytes], log: BinaryIO) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"gunicorn exited: {log.read().decode(errors='replace')[-3000:]}")
        with contextlib.suppress(OSError):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return
        time.sleep(0.1)
    raise RuntimeError("gunicorn did not answer within 30 s")


class Browserless:
    """A tiny HTTP client keeping cookies and the CSRF token, for the benchmark and the concurrency tests."""

    def __init__(self, host: str, port: int) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        form: Mapping[str, object] | None = None,
        headers: Mapping[str, str] = {},
        body: str | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """One request; ``form`` is sent url-encoded with the CSRF token, ``body`` as it is (with ``headers``)."""
        sent = dict(headers)
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            sent["Referer"] = f"http://{self.conn.host}:{self.conn.port}/"
        self.conn.request(method, path, body=body, headers=sent)
        response = self.conn.getresponse()
        data = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def new_game(self, names: Sequence[str] = ("Anaïs", "David"), *, akebono: bool = False) -> str:
        """Create a game through the form; returns its edit token."""
        colours = ("red", "blue", "green", "yellow")
        form = {f"name-{i}": n for i, n in enumerate(names)} | {
            f"colour-{i}": colours[i] for i in range(len(names))
        }
        return created(self, "/games/new/", form | ({"akebono": "on"} if akebono else {}))


def new_osaka(client: Browserless, names: Sequence[str] = ("Ann", "Ben", "Cho")) -> str:
    """An Osaka game through its form, as a phone makes it; its edit token."""
    traders = ("white", "pink", "gray", "tan")
    form = {f"name{i + 1}": n for i, n in enumerate(names)} | {
        f"trader{i + 1}": traders[i] for i in range(len(names))
    }
    return created(client, "/osaka/games/new/", form)


def created(client: Browserless, path: str, form: Mapping[str, object]) -> str:
    """Create a tracked game as a phone does: open its form at ``path`` (``.../new/``: the CSRF cookie), post it;
    the edit token its redirect to the new game's share page names."""
    client.request("GET", path)
    status, headers, body = client.request("POST", path, form)
    share = re.escape(path.removesuffix("new/")) + r"([A-Za-z0-9_-]+)/share"
    found = re.search(share, headers.get("location", ""))
    if status != 302 or found is None:
        raise RuntimeError(f"creating at {path} failed: {status} {body[:300]!r}")
    return found.group(1)


def _rate(host: str, port: int, path: str, expect: int) -> float:
    """Requests per second over keep-alive connections from THREADS threads, REQUESTS_PER_THREAD each."""
    errors: list[str] = []
    barrier = threading.Barrier(THREADS + 1)

    def work() -> None:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        for _ in range(20):  # warm up
            conn.request("GET", path)
            conn.getresponse().read()
        barrier.wait()
        for _ in range(REQUESTS_PER_THREAD):
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            if response.status != expect:
                errors.append(f"{path}: {response.status}")
        conn.close()

    threads = [threading.Thread(target=work) for _ in range(THREADS)]
    for t in threads:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise RuntimeError(f"unexpected answers: {errors[:3]}")
    return THREADS * REQUESTS_PER_THREAD / elapsed


def _poll_bytes(host: str, port: int, path: str) -> int:
    """Bytes on the wire of one unchanged poll: status line, headers and body."""
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return len(b"".join(chunks))


def run(report: Report) -> None:
    with served() as (host, port):
        client = Browserless(host, port)
        token = client.new_game()
        status, _, _ = client.request("GET", f"/games/{token}/state")
        version = 1
        poll = f"/games/{token}/state?v={version}"
        status, _, _ = client.request("GET", poll)
        if status != 204:
            raise RuntimeError(f"the unchanged poll answered {status}, not 204")
        ratios, healthz_rates, polling_rates = [], [], []
        for _ in range(RUNS):  # interleaved, so both see the same machine load
            healthz = _rate(host, port, "/healthz", 200)
            polling = _rate(host, port, poll, 204)
            healthz_again = _rate(host, port, "/healthz", 200)
            baseline = (healthz + healthz_again) / 2
            healthz_rates.append(baseline)
            polling_rates.append(polling)
            ratios.append(polling / baseline)
        report("GET /healthz (gunicorn, 2 workers, loopback)", statistics.median(healthz_rates), "req/s")
        report("GET /games/<token>/state?v=N unchanged (204)", statistics.median(polling_rates), "req/s")
        report(
            "unchanged poll / healthz", statistics.median(ratios), "ratio", f"median of {RUNS}; target >= 0.9"
        )
        report("bytes per unchanged poll (status line + headers)", _poll_bytes(host, port, poll), "bytes")
