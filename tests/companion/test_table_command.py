"""``manage.py table`` (issue 20 item 5): what it prints, and that it serves the app (gunicorn with uvicorn
workers on companion/asgi.py, static files by WhiteNoise) where it says.

The LAN test runs the command in a network namespace of its own (``unshare``, with one made-up interface), so
the default ``--bind 0.0.0.0`` listens on no real network; the other starts it on a free loopback port."""

from __future__ import annotations

import contextlib
import gzip
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pyzbar import pyzbar

from benchmarks.polling import ROOT, free_port
from companion.management.commands.table import announcement, qr_text

LAN = ["127.0.0.1", "::1", "192.168.1.20", "10.0.0.7", "fd00::2", "fe80::1%eth0"]


def decode_text_qr(text: str) -> list[str]:
    """The QR code printed as half blocks (``▀▄█`` and no-break spaces, two modules a character), read back by zbar; the
    printed characters are the light modules (drawn for a light-on-dark console), the spaces the dark ones."""
    top = {"█": True, "▀": True, "▄": False, " ": False, "\xa0": False}
    bottom = {"█": True, "▀": False, "▄": True, " ": False, "\xa0": False}
    lines = [line for line in text.splitlines() if line and set(line) <= set(top)]
    rows = [r for line in lines for r in ([top[c] for c in line], [bottom[c] for c in line])]
    width, quiet, scale = len(rows[0]), 4, 4
    size = (width + 2 * quiet) * scale, (len(rows) + 2 * quiet) * scale
    pixels = bytearray(b"\xff" * (size[0] * size[1]))
    for y, row in enumerate(rows):
        for x, light in enumerate(row):
            if not light:
                for dy in range(scale):
                    start = ((y + quiet) * scale + dy) * size[0] + (x + quiet) * scale
                    pixels[start : start + scale] = b"\x00" * scale
    return [code.data.decode() for code in pyzbar.decode((bytes(pixels), *size))]


# --- what it prints: pure -----------------------------------------------------------------------------------------


def test_it_prints_the_lan_address_and_a_code_of_it() -> None:
    lines, url = announcement("0.0.0.0", 8000, LAN)
    assert url == "http://192.168.1.20:8000/"
    assert lines[0].endswith("open http://192.168.1.20:8000/")
    assert "  http://10.0.0.7:8000/" in lines  # the other IPv4 address; IPv6 is not listened on
    assert not any("fd00" in line for line in lines)
    assert decode_text_qr(qr_text(url, tty=False)) == [url]


def test_listening_on_ipv6_too_lists_those_addresses() -> None:
    lines, url = announcement("::", 8123, LAN)
    assert url == "http://192.168.1.20:8123/"
    assert "  http://[fd00::2]:8123/" in lines and "  http://10.0.0.7:8123/" in lines


def test_one_address_alone() -> None:
    lines, url = announcement("10.0.0.7", 8000, LAN)
    assert url == "http://10.0.0.7:8000/" and len(lines) == 2


def test_with_no_lan_address_it_says_so_and_how_to_fix_it() -> None:
    lines, url = announcement("0.0.0.0", 8000, ["127.0.0.1", "::1", "fe80::1%eth0"])
    assert url == ""
    assert lines[0].startswith("No network address")
    assert "connect this computer to the table's Wi-Fi" in lines[1]


def test_listening_on_loopback_it_says_the_phones_cannot_reach_it() -> None:
    lines, url = announcement("127.0.0.1", 8000, LAN)
    assert url == ""
    assert "the phones cannot" in lines[0] and "without --bind" in lines[1]


def test_a_public_url_is_what_the_phones_open() -> None:
    lines, url = announcement("127.0.0.1", 8000, LAN, "https://iki.example.org")
    assert url == "https://iki.example.org/" and "the phones open https://iki.example.org/" in lines[0]


# --- it serves ----------------------------------------------------------------------------------------------------


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="companion.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"
    )
    return env


@contextlib.contextmanager
def _table(args: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    """``manage.py table ARGS``, stopped (its whole process group) on exit."""
    process = subprocess.Popen(
        [sys.executable, "manage.py", "table", "--workers", "1", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)


def _get(host: str, port: int, path: str) -> tuple[int, bytes, dict[str, str]]:
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    headers = {k.lower(): v for k, v in response.getheaders()}
    return (
        response.status,
        gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body,
        headers,
    )


def _ready(host: str, port: int, process: subprocess.Popen[str]) -> None:
    """Until gunicorn answers /healthz (it prints "Listening at" on stderr once bound)."""
    assert process.stderr is not None
    for line in process.stderr:
        if "Listening at" in line:
            break
    else:
        pytest.fail(f"manage.py table stopped: {process.wait()}")
    for _ in range(200):
        with contextlib.suppress(OSError):
            if _get(host, port, "/healthz")[0] == 200:
                return
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=0.1)
            pytest.fail("manage.py table stopped")
    pytest.fail("manage.py table did not answer /healthz")


def test_on_loopback_it_says_so_and_serves_the_app_its_static_files_and_slow_clients(tmp_path: Path) -> None:
    port = free_port()
    with _table(["--bind", "127.0.0.1", "--port", str(port)], _env(tmp_path)) as process:
        assert process.stdout is not None
        printed = process.stdout.readline() + process.stdout.readline()
        assert (
            f"Listening on 127.0.0.1 only: this computer alone can open http://127.0.0.1:{port}/" in printed
        )
        _ready("127.0.0.1", port, process)
        status, body, _ = _get("127.0.0.1", port, "/")
        assert status == 200 and b"<title>Table companion" in body
        css = re.search(rb'href="(/static/companion/app[^"]*\.css)"', body)
        assert css is not None
        status, body, headers = _get("127.0.0.1", port, css[1].decode())
        assert (
            status == 200
            and headers["content-encoding"] == "gzip"
            and "immutable" in headers["cache-control"]
        )
        # Slow clients (issue 24): 50 connections that never finish their headers hold no worker and no thread.
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(50)]
        try:
            for conn in slow:
                conn.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n")
            assert _get("127.0.0.1", port, "/healthz")[0] == 200
            assert _get("127.0.0.1", port, "/")[0] == 200
        finally:
            for conn in slow:
                conn.close()


_IN_NAMESPACE = textwrap.dedent(
    """
    import http.client, json, re, subprocess, sys
    table = subprocess.Popen([sys.executable, "manage.py", "table", "--workers", "1", "--port", "8000"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    printed = table.stdout.readline()
    url = re.search(r"open (http://\\S+)", printed)[1]
    for line in table.stderr:
        if "Listening at" in line:
            break
    host, port = url[len("http://"):-1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)  # bound: it answers once a worker is up
    conn.request("GET", "/")
    response = conn.getresponse()
    status, body = response.status, response.read().decode()
    table.terminate()
    table.wait(timeout=20)
    print(json.dumps({"printed": printed, "url": url, "status": status, "home": "<title>Table companion" in body}))
    """
)


def _namespaces() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rn", "ip", "link", "add", "v0", "type", "veth", "peer", "name", "v1"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


@pytest.mark.skipif(
    not _namespaces(), reason="needs unshare and ip: a network namespace of its own (util-linux)"
)
def test_it_prints_a_lan_address_and_serves_the_home_page_on_it(tmp_path: Path) -> None:
    """In a network namespace with one interface, 10.77.0.5: the command prints that address and serves ``/``
    there (listening on 0.0.0.0 inside the namespace only)."""
    script = (
        "ip link set lo up && ip link add v0 type veth peer name v1 && ip addr add 10.77.0.5/24 dev v0 "
        '&& ip link set v0 up && ip link set v1 up && exec "$0" -c "$1"'
    )
    done = subprocess.run(
        ["unshare", "-rn", "sh", "-c", script, sys.executable, _IN_NAMESPACE],
        cwd=ROOT,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["url"] == "http://10.77.0.5:8000/"
    assert seen["status"] == 200 and seen["home"]


def test_a_master_killed_hard_leaves_no_worker_serving_and_it_starts_again(tmp_path: Path) -> None:
    """gunicorn's master killed with SIGKILL (as by the out-of-memory killer): its uvicorn worker went on serving
    the port alone, and ``manage.py table`` started again could not listen. The worker stops at its next tick
    (every ``--timeout`` seconds: 1 here) and the table starts again on the same port."""
    port = free_port()
    env = _env(tmp_path) | {"GUNICORN_CMD_ARGS": "--timeout 1"}
    args = ["--bind", "127.0.0.1", "--port", str(port)]
    with _table(args, env) as process:
        _ready("127.0.0.1", port, process)
        os.kill(process.pid, signal.SIGKILL)  # the master (manage.py became gunicorn)
        process.wait(timeout=20)
        for _ in range(300):  # the worker goes within a tick or two: the port is let go
            try:
                _get("127.0.0.1", port, "/healthz")
            except ConnectionRefusedError:
                break
            time.sleep(0.1)  # a poll, bounded
        else:
            pytest.fail("the worker went on serving without its master")
    with _table(args, _env(tmp_path)) as again:
        _ready("127.0.0.1", port, again)
        assert _get("127.0.0.1", port, "/healthz")[0] == 200
