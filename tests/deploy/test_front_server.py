"""The public deployment of deploy/ (README, "Serving the public"; issue 24), run on this machine: Debian's Caddy
with the deploy/Caddyfile (its internal certificate authority standing in for Let's Encrypt) in front of two app
servers (gunicorn with uvicorn workers, as deploy/iki@.service starts them) on one database: PostgreSQL when the
run has one (DATABASE_URL, as CI's second pass), else one SQLite file. The units are checked with
``systemd-analyze verify``.

Marked ``deploy``; skipped where Caddy is not installed (``.ci/test`` installs it from Debian's packages).
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlparse

import pytest

from benchmarks.polling import ROOT, free_port

pytestmark = [
    pytest.mark.deploy,
    pytest.mark.skipif(
        shutil.which("caddy") is None, reason="Caddy is not installed (Debian's package caddy)"
    ),
]

DEPLOY = ROOT / "deploy"
CREATES_PER_MINUTE = 4
SLOW_CLIENTS = 50
#: How long the teardown lets Caddy close before it is killed (a closed stream holds it its whole grace period).
TEARDOWN_GRACE_S = 1
WRITES = 40


@dataclass
class Stack:
    https_port: int
    http_port: int
    app_ports: tuple[int, int]
    tls: ssl.SSLContext
    database_url: str
    app_logs: tuple[Path, ...]

    def https(self) -> http.client.HTTPSConnection:
        return http.client.HTTPSConnection("localhost", self.https_port, context=self.tls, timeout=10)

    def app(self, i: int) -> http.client.HTTPConnection:
        """An app server directly (as Caddy reaches it), bypassing the front server."""
        return http.client.HTTPConnection("127.0.0.1", self.app_ports[i], timeout=10)

    @property
    def origin(self) -> str:
        return f"https://localhost:{self.https_port}"


def _answer(
    conn: http.client.HTTPConnection, method: str, path: str, **kwargs: Any
) -> http.client.HTTPResponse:
    conn.request(method, path, **kwargs)
    response = conn.getresponse()
    response.read()
    return response


def _until_up(connect: Any, path: str = "/healthz", headers: dict[str, str] | None = None) -> None:
    """Ask ``path`` until a server answers 200: each try waits on the server's answer or its refusal."""
    for _ in range(600):
        try:
            if _answer(connect(), "GET", path, headers=headers or {}).status == 200:
                return
        except (OSError, http.client.HTTPException):
            time.sleep(0.05)  # the process is still starting: nothing listens yet
    raise AssertionError(f"no answer from {path}")


def _database(tmp: Path) -> Iterator[str]:
    """A fresh database for this stack: one of its own on the run's PostgreSQL server, else a SQLite file."""
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith("postgres"):
        yield f"sqlite:///{tmp / 'db.sqlite3'}"
        return
    import psycopg

    name = f"iki_deploy_{os.getpid()}"
    admin = base.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    tmp = tmp_path_factory.mktemp("deploy")
    for database_url in _database(tmp):
        yield from _stack(tmp, database_url)


def _stack(tmp: Path, database_url: str) -> Iterator[Stack]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(  # deploy/env.example, with this machine's names
        DJANGO_HTTPS="1",
        DJANGO_ALLOWED_HOSTS="localhost",
        DJANGO_SECRET_KEY="deploy-test-" + "k" * 50,
        DATABASE_URL=database_url,
        DJANGO_CREATES_PER_MINUTE=str(CREATES_PER_MINUTE),
        DJANGO_SETTINGS_MODULE="companion.settings",
    )
    for command in (("migrate", "-v", "0"), ("createcachetable",)):
        done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
    app_ports = (free_port(), free_port())
    https_port, http_port = free_port(), free_port()
    processes = []
    logs = []
    try:
        for port in app_ports:  # the command of deploy/iki@.service, one worker each
            log = (tmp / f"app-{port}.log").open("w")
            logs.append(log)
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "companion.asgi:application", "--worker-class",
                 "companion.worker.TableWorker", "--workers", "1", "--bind", f"127.0.0.1:{port}", "--no-control-socket"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            ))  # fmt: skip
        options = "\n".join(
            [
                "local_certs",
                "skip_install_trust",
                "admin off",
                f"http_port {http_port}",
                f"https_port {https_port}",
            ]
        )
        caddy_env = {**env, "IKI_DOMAIN": "localhost", "IKI_CADDY_OPTIONS": options,
                     "IKI_UPSTREAMS": " ".join(f"127.0.0.1:{p}" for p in app_ports),
                     "XDG_DATA_HOME": str(tmp / "data"), "XDG_CONFIG_HOME": str(tmp / "config"), "HOME": str(tmp)}  # fmt: skip
        caddy_log = (tmp / "caddy.log").open("w")
        logs.append(caddy_log)
        processes.append(subprocess.Popen(
            ["caddy", "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
            env=caddy_env, stdout=caddy_log, stderr=subprocess.STDOUT,
        ))  # fmt: skip
        direct = {"Host": "localhost", "X-Forwarded-Proto": "https"}
        for port in app_ports:
            _until_up(
                lambda port=port: http.client.HTTPConnection("127.0.0.1", port, timeout=5), headers=direct
            )
        root = tmp / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        for _ in range(600):  # Caddy writes its root certificate as it starts
            if root.exists() and root.stat().st_size:
                break
            time.sleep(0.05)
        tls = ssl.create_default_context(cafile=str(root))
        made = Stack(https_port, http_port, app_ports, tls, database_url,
                     tuple(tmp / f"app-{port}.log" for port in app_ports))  # fmt: skip
        # Caddy started with the app servers, as at a machine's start: its first health check found them still
        # starting, and it sends them requests again after its next one (deploy/Caddyfile, within 2 s).
        _until_up(made.https)
        yield made
    finally:
        # The front server first, and then no app server waits on a stream to end. A stream a test closed is still
        # held by Caddy until its next write finds the phone gone, so Caddy would wait out its grace period
        # (deploy/Caddyfile, 10 s) on each run: after TEARDOWN_GRACE_S it is killed, which drops its connections
        # as its grace period's end would.
        for process in reversed(processes):
            process.terminate()
        for process in reversed(processes):
            if process.args[0] != "caddy":
                process.wait(20)  # an app server that does not stop fails the test
                continue
            try:
                process.wait(TEARDOWN_GRACE_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(20)
        for log in logs:
            log.close()


# --- the units ---------------------------------------------------------------------------------------------------


def test_the_systemd_units_verify(tmp_path: Path) -> None:
    """``systemd-analyze verify`` on deploy/'s units, their paths moved to this checkout (the README installs
    the app in /srv/iki, which this machine does not have)."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    names = {"iki@.service": "iki@8001.service", "iki-purge.service": "iki-purge.service",
             "iki-purge.timer": "iki-purge.timer"}  # fmt: skip
    for source, target in names.items():
        text = (DEPLOY / source).read_text()
        text = text.replace("/srv/iki/.venv/bin/python", sys.executable).replace("/srv/iki", str(ROOT))
        (tmp_path / target).write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", *names.values()], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    broken = tmp_path / "iki-purge.service"
    broken.write_text(broken.read_text().replace("ExecStart=", "ExecStrat=", 1))
    warned = subprocess.run(["systemd-analyze", "verify", "--man=no", "iki-purge.service"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert "ExecStrat" in warned.stderr  # the check reads the units: a misspelt key is reported


# --- through the front server ------------------------------------------------------------------------------------


def test_https_mode_headers_arrive_through_caddy(stack: Stack) -> None:
    conn = stack.https()
    page = _answer(conn, "GET", "/")
    assert page.status == 200
    assert page.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    cookie = page.headers["Set-Cookie"]
    assert "csrftoken=" in cookie and "Secure" in cookie
    plain = _answer(
        http.client.HTTPConnection("localhost", stack.http_port, timeout=10), "GET", "/games/new/"
    )
    assert plain.status in (301, 308)
    location = urlparse(plain.headers["Location"])  # Caddy names port 443 (the test's port is another)
    assert (location.scheme, location.hostname, location.path) == ("https", "localhost", "/games/new/")
    static = _answer(stack.https(), "GET", "/static/companion/checks.css")  # WhiteNoise, in each app server
    assert static.status == 200 and "text/css" in static.headers["Content-Type"]


def test_fifty_slow_clients_do_not_stop_healthz(stack: Stack) -> None:
    """Each slow client sends its request's first lines and then nothing: Caddy holds them (a goroutine each),
    none reaches an app server, and /healthz answers through the front server at once."""
    slow = []
    try:
        for i in range(SLOW_CLIENTS):
            raw = socket.create_connection(("127.0.0.1", stack.https_port), timeout=10)
            sock = stack.tls.wrap_socket(raw, server_hostname="localhost")
            sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: {i}\r\n".encode())
            slow.append(sock)
        started = time.monotonic()
        for _ in range(5):
            assert _answer(stack.https(), "GET", "/healthz").status == 200
        assert time.monotonic() - started < 5
    finally:
        for sock in slow:
            sock.close()


def _csrf(conn: http.client.HTTPConnection, headers: dict[str, str]) -> dict[str, str]:
    """The headers of a form's POST: the CSRF cookie and token a page gave, and the page's origin."""
    page = _answer(conn, "GET", "/games/new/", headers=headers)
    match = re.search(r"csrftoken=([A-Za-z0-9]+)", page.headers["Set-Cookie"] or "")
    assert match, page.headers
    origin = f"https://{headers.get('Host', 'localhost')}"
    return {**headers, "Cookie": f"csrftoken={match[1]}", "X-CSRFToken": match[1], "Origin": origin,
            "Referer": origin + "/", "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip


def _rows(database_url: str, sql: str, *args: object) -> list[tuple[Any, ...]]:
    if database_url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(urlparse(database_url).path) as db:
            return db.execute(sql.replace("%s", "?"), args).fetchall()
    import psycopg

    with psycopg.connect(database_url) as db:
        return db.execute(sql, args).fetchall()  # type: ignore[arg-type]


def test_writes_through_two_app_servers_on_one_database_are_never_lost_or_doubled(stack: Stack) -> None:
    """40 score changes of one game, at once, half to each app server, and each sent again to the other server
    (a phone's retry): the score moves by exactly 40 and the log holds 40 changes."""
    host = {"Host": f"localhost:{stack.https_port}", "X-Forwarded-Proto": "https"}
    form = {"name-0": "Anaïs", "colour-0": "red", "name-1": "Ben", "colour-1": "blue"}
    # made on an app server directly, as from a client of its own (the create limit test counts 127.0.0.1's)
    own = {**host, "X-Forwarded-For": "192.0.2.77"}
    made = _answer(c := stack.app(0), "POST", "/games/new/", body=urlencode(form), headers=_csrf(c, own))
    assert made.status == 302, made.status
    token = urlparse(made.headers["Location"]).path.split("/")[2]  # /games/<edit token>/share
    path = f"/games/{token}/"
    headers = [_csrf(stack.app(i), host) for i in (0, 1)]
    barrier = threading.Barrier(8)
    statuses: list[int] = []

    def phone(k: int) -> None:
        barrier.wait()
        for n in range(k, WRITES, 8):
            body = urlencode(
                {"op": "score-add", "seat": "1", "value": "1", "cid": f"w{n}-{uuid.uuid4().hex[:6]}"}
            )
            for i in (n % 2, 1 - n % 2):  # to one server, then the retry to the other
                statuses.append(
                    _answer(stack.app(i), "POST", f"{path}change", body=body, headers=headers[i]).status
                )

    threads = [threading.Thread(target=phone, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(statuses) == 2 * WRITES and set(statuses) <= {200, 302}, statuses
    game_id = _rows(stack.database_url, "SELECT id FROM companion_game WHERE edit_token = %s", token)[0][0]
    score = _rows(
        stack.database_url, "SELECT score FROM companion_seat WHERE game_id = %s AND seat = 1", game_id
    )
    changes = _rows(stack.database_url, "SELECT COUNT(*) FROM companion_change WHERE game_id = %s AND op = %s",
                    game_id, "score-add")  # fmt: skip
    assert (score[0][0], changes[0][0]) == (WRITES, WRITES)


def test_creates_are_limited_per_client_through_caddy_in_the_shared_cache(stack: Stack) -> None:
    """Caddy spreads the requests over both app servers; the count is shared (the database cache). A client's own
    X-Forwarded-For does not reset it: Caddy gives its real address."""
    sent = []
    for i in range(2 * CREATES_PER_MINUTE + 2):  # more than twice the limit: at least one minute goes over it
        conn = stack.https()
        headers = _csrf(conn, {"Host": f"localhost:{stack.https_port}", "X-Forwarded-For": f"10.9.{i}.1"})
        response = _answer(conn, "POST", "/groups/new", body=urlencode({"name": "Thursday"}), headers=headers)
        sent.append(response.status)
    assert 429 in sent and set(sent) <= {302, 429}, sent
    assert sent.count(302) <= 2 * CREATES_PER_MINUTE


def test_what_strangers_cause_writes_no_log_line_and_no_token_is_logged(stack: Stack) -> None:
    """HEADs, unknown pages, a malformed body and a refused host through Caddy add nothing to the app servers' logs
    (their default LOGGING); nothing any test here sent, edit links included, is in them."""
    before = [log.read_text() for log in stack.app_logs]
    for _ in range(20):
        assert _answer(stack.https(), "HEAD", "/").status == 200
        assert _answer(stack.https(), "GET", "/games/" + "A" * 24 + "/").status == 404
        bad = _answer(
            stack.https(), "POST", "/api/v1/score", body="{", headers={"Content-Type": "application/json"}
        )
        assert bad.status == 400
        direct = _answer(
            stack.app(0), "GET", "/", headers={"Host": "stranger.example", "X-Forwarded-Proto": "https"}
        )
        assert direct.status == 400
    assert [log.read_text() for log in stack.app_logs] == before
    tokens = set(re.findall(r"/games/([A-Za-z0-9_-]{22,64})/", "".join(before)))
    assert not tokens and "[ERROR]" not in "".join(before) and "[WARNING]" not in "".join(before)


def _events_until(stream: http.client.HTTPResponse, seen: bytearray, deadline: float, after: int) -> int:
    """Read the open stream until an event names a version over ``after``: that version. Each read waits at most
    until ``deadline`` (a bound on the socket, not a sleep); a stream held in a buffer ends in a timeout."""
    while True:
        found = [int(v) for v in re.findall(rb"^data: (\d+)$", bytes(seen), re.M) if int(v) > after]
        if found:
            return found[0]
        left = deadline - time.monotonic()
        assert left > 0, f"no event over version {after} within the bound; got {bytes(seen)!r}"
        assert stream.fp is not None
        stream.fp.raw._sock.settimeout(left)  # type: ignore[attr-defined]
        try:
            chunk = stream.read1(4096)
        except TimeoutError:
            raise AssertionError(
                f"no event over version {after} within the bound; got {bytes(seen)!r}"
            ) from None
        assert chunk, f"the stream ended; got {bytes(seen)!r}"
        seen += chunk


def test_a_poke_reaches_an_open_stream_through_caddy(stack: Stack) -> None:
    """A phone's Server-Sent Events stream of a tracked game (``/live/game/<token>``, docs/sync.md "Push"), opened
    through Caddy, gets the version a +3 written through Caddy makes, within 10 s: Caddy passes each event on as it
    is written (``flush_interval -1``) and an open stream never ends, so a buffered one would deliver nothing. The
    stream and the write may land on different app servers (round robin): the poke crosses processes (PostgreSQL
    NOTIFY, or SQLite's version check)."""
    host = {"Host": f"localhost:{stack.https_port}", "X-Forwarded-Proto": "https"}
    own = {**host, "X-Forwarded-For": "192.0.2.78"}  # its own client: the create limit test counts Caddy's
    form = {"name-0": "Anaïs", "colour-0": "red", "name-1": "Ben", "colour-1": "blue"}
    made = _answer(c := stack.app(0), "POST", "/games/new/", body=urlencode(form), headers=_csrf(c, own))
    assert made.status == 302, made.status
    token = urlparse(made.headers["Location"]).path.split("/")[2]  # /games/<edit token>/share
    sql = "SELECT view_token FROM companion_game WHERE edit_token = %s"
    (view,) = _rows(stack.database_url, sql, token)[0]

    phone = stack.https()
    phone.request("GET", f"/live/game/{view}", headers={"Accept": "text/event-stream", **host})
    stream = phone.getresponse()
    try:
        # 204 means no ASGI server behind Caddy: the page would poll, and no poke would reach it.
        assert stream.status == 200, stream.status
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        deadline = time.monotonic() + 10
        seen = bytearray()
        opened = _events_until(stream, seen, deadline, after=0)  # the version when the stream opens

        body = urlencode({"op": "score-add", "seat": "1", "value": "3", "lc": f"caddy{uuid.uuid4().hex[:8]}",
                          "ln": "1"})  # fmt: skip
        other = stack.https()
        wrote = _answer(other, "POST", f"/games/{token}/change", body=body,
                        headers={**_csrf(other, host), "X-Live": "1"})  # fmt: skip
        assert wrote.status == 200, wrote.status
        version = int(wrote.headers["X-Live-Version"])
        assert version > opened
        assert _events_until(stream, seen, deadline, after=opened) == version
    finally:
        phone.close()
    score = _rows(stack.database_url, "SELECT s.score FROM companion_seat s JOIN companion_game g "
                  "ON g.id = s.game_id WHERE g.edit_token = %s AND s.seat = 1", token)  # fmt: skip
    assert score == [(3,)]
