"""``python manage.py table [--bind 0.0.0.0] [--port 8000] [--workers N]``: serve the table's phones on the LAN.

The production server the README documents: gunicorn with uvicorn workers on ``companion/asgi.py`` (an open
stream of Server-Sent Events then costs no thread), listening on every IPv4 address by default. Before it starts,
the command prints the addresses the phones should open, from this machine's interfaces
(:func:`companion.links.lan_addresses`), and a QR code of the first one; with no such address it says so and how
to fix it. gunicorn then replaces this process (Ctrl+C stops it). ``--bind`` reaches the pages as
``DJANGO_TABLE_BIND``, so that their share links point where the server listens (companion/links.py).
"""

from __future__ import annotations

import io
import os
import sys
from argparse import ArgumentParser
from typing import Any

import qrcode
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from companion.links import (
    ALL_IPV4,
    ALL_IPV6,
    NO_ADDRESS_FIX,
    interface_addresses,
    is_loopback,
    lan_addresses,
    origin,
)

WORKER = "companion.worker.TableWorker"


def default_workers() -> int:
    """One process on SQLite, two on PostgreSQL (docs/benchmarks.md "Live table").

    SQLite takes one write at a time: a second process's write waits in SQLite's busy handler (sleeps of up to
    100 ms, no queue), and it waits in the one thread Django runs that process's sync views in, so every request
    of that process waits with it. Measured (``bench live``, 400 tables, 1,200 open streams, one tap per table
    every 10 s, a machine loaded by other jobs): with 2 processes 49 of 400 taps failed on "database is locked",
    with 1 none, at similar latencies.
    """
    from django.db import connection

    return 2 if connection.vendor == "postgresql" else 1


def announcement(bind: str, port: int, addresses: list[str], public_url: str = "") -> tuple[list[str], str]:
    """What the command prints before serving (lines), and the link its QR code opens (``""``: none).

    ``addresses``: the machine's interface addresses; the phones' ones are :func:`lan_addresses` of them.
    """
    here = origin("localhost", port)
    if public_url:
        return [
            f"Serving the table on {_listen(bind, port)}; the phones open {public_url}/"
        ], public_url + "/"
    if is_loopback(bind):
        return [
            f"Listening on {bind} only: this computer alone can open {origin(bind, port)}/ and the phones cannot.",
            "For the phones, start it without --bind: it then listens on every address of this computer.",
        ], ""
    lan = [origin(a, port) + "/" for a in lan_addresses(addresses, bind)]
    if not lan:
        return [
            "No network address: this computer is on no network the phones could reach, so they cannot open the app.",
            f"To fix it, {NO_ADDRESS_FIX}.",
            f"This computer itself opens {here}/",
        ], ""
    lines = [f"Serving the table. On each phone, on the same Wi-Fi as this computer, open {lan[0]}"]
    if len(lan) > 1:
        lines.append("This computer has other addresses too; if that one does not open, try:")
        lines += [f"  {url}" for url in lan[1:]]
    lines.append(f"Scan this code with a phone to open {lan[0]} (this computer itself: {here}/):")
    return lines, lan[0]


def _listen(bind: str, port: int) -> str:
    return f"[{bind}]:{port}" if ":" in bind else f"{bind}:{port}"


def qr_text(url: str, *, tty: bool) -> str:
    """``url``'s QR code as text: black and white ANSI colours on a terminal, else half-block characters drawn
    for a light-on-dark console (phones read either way round)."""
    code = qrcode.QRCode(border=2)
    code.add_data(url)
    out = io.StringIO()
    out.isatty = lambda: tty  # type: ignore[method-assign]
    code.print_ascii(out=out, tty=tty, invert=not tty)
    return out.getvalue()


class Command(BaseCommand):
    help = "Serve the app to the table's phones on the LAN (gunicorn with uvicorn workers), printing their address."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--bind",
            default=ALL_IPV4,
            help=f"the address to listen on (default {ALL_IPV4}: every IPv4 address; {ALL_IPV6} adds IPv6)",
        )
        parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
        parser.add_argument(
            "--workers",
            type=int,
            default=None,
            help="server processes (default: 1 on SQLite, which takes one write at a time; 2 on PostgreSQL)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        bind, port = options["bind"].strip("[]"), options["port"]
        workers = default_workers() if options["workers"] is None else options["workers"]
        if not 0 < port < 65536:
            raise CommandError(f"--port must be 1 to 65535, not {port}.", returncode=2)
        if workers < 1:
            raise CommandError(f"--workers must be at least 1, not {workers}.", returncode=2)
        lines, url = announcement(bind, port, interface_addresses(), settings.PUBLIC_URL)
        self.stdout.write("\n".join(lines))
        if url:
            self.stdout.write(qr_text(url, tty=self.stdout.isatty()), ending="")
        self.stdout.flush()
        sys.stderr.flush()
        argv = [
            sys.executable,
            "-m",
            "gunicorn",
            "companion.asgi:application",
            "--bind",
            _listen(bind, port),
            "--worker-class",
            WORKER,
            "--workers",
            str(workers),
        ]
        os.execve(sys.executable, argv, {**os.environ, "DJANGO_TABLE_BIND": bind})
