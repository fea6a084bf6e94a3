"""The scoring walk-through (issue 4): median server time of each step's POST (htmx) beside ``GET /healthz`` in the
same run (target: within 3x), bytes per htmx step and for the first page, database queries per request for 2 and 4
players (must not grow with the players), and the filled 4-player pad served from a scored sheet (target < 50 ms).

The server time is measured twice: in this process through Django's test client (quick to compare changes with,
and with Django's handler alone beside it), and through gunicorn, the server a deployment runs, from its request
hooks (:func:`served_times`): that is the target's figure.
"""

from __future__ import annotations

import copy
import gzip
import itertools
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.benchmarks import Report, median_seconds
from companion.benchmarks.polling import ROOT, Browserless, served
from companion.middleware import compress
from companion.models.scoresheets import ScoreSheet, start_sheet
from companion.views.scorepad import filled_pad_for, steps_for
from scoring.examples import WORKED_EXAMPLE
from scoring.validate import validate

RATIO_TARGET = 3.0
#: The POSTs and /healthz are timed in CPU time of this process (both run entirely in it, on an in-memory test
#: database): on the shared 2-core machine wall-clock medians jump 2-3x between runs with the other jobs' load.
CLOCK = time.process_time
PAIRS = 400
#: Pairs of requests per step through gunicorn (each pair costs the client more there).
SERVED_PAIRS = 300
PDF_TARGET_MS = 50.0
#: What a phone's browser sends with every request: it accepts gzip (GZipMiddleware compresses the replies).
BROWSER = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
HX = {"HTTP_HX_REQUEST": "true", **BROWSER}
NAMES = ["Anaïs", "David", "Chiyo", "Daichi"]
COLOURS = ["red", "blue", "green", "yellow"]

Overrides = Callable[[dict[str, str]], dict[str, str]]


def _typed(name: str, delta: int) -> Overrides:
    """A number typed into a field: the value the page shows, changed by ``delta``."""
    return lambda fields: {name: str(int(fields[f"was-{name}"]) + delta)}


def _tap(op: str) -> Overrides:
    return lambda fields: {"op": op}


#: Two typical entries per step, made one after the other (a tap and the tap that undoes it, a number typed and
#: typed back), so the sheet stays the same size however many times the benchmark repeats them.
ENTRY: dict[str, tuple[Overrides, Overrides]] = {
    "track": (_typed("p1-score_track", 1), _typed("p1-score_track", -1)),
    "characters": (_tap("add|2|characters|umbrella-maker"), _tap("remove|2|characters|umbrella-maker")),
    "fish": (_tap("add|3|fish|fish-winter-bonus"), _tap("remove|3|fish|fish-winter-bonus")),
    "tobacco": (
        _tap("add|2|tobacco|tobacco-winter-akebono"),
        _tap("remove|2|tobacco|tobacco-winter-akebono"),
    ),
    "buildings": (_tap("add|1|buildings|inn"), _tap("remove|1|buildings|inn")),
    "boats": (_tap("add|2|boats|houseboat"), _tap("remove|2|boats|houseboat")),
    "personalities": (_tap("bump|3|trade|1"), _tap("bump|3|trade|-1")),
    "resources": (_tap("bump|0|mon|1"), _tap("bump|0|mon|-1")),
    "firefighting": (
        _typed("p3-firefighting", 1),
        _typed("p3-firefighting", -1),
    ),  # 2 -> 3: shares David's space
}
_INPUT = re.compile(r'<input type="(?:hidden|number)"[^>]*? name="([^"]+)" value="([^"]*)"')
_SELECT = re.compile(r'<select [^>]*?name="([^"]+)"[^>]*>(.*?)</select>', re.S)
_SELECTED = re.compile(r'<option value="([^"]*)" selected>')


def _fields(body: str) -> dict[str, str]:
    """The values a form's inputs and selects hold in ``body`` (a page, or an htmx reply's fragments)."""
    fields = dict(_INPUT.findall(body))
    for name, options in _SELECT.findall(body):
        chosen = _SELECTED.search(options)
        fields[name] = chosen[1] if chosen else ""
    return fields


_PARAMS = re.compile(r'name="([^"]+)"[^>]*? hx-params="([^"]*)"')
_FORM_PARAMS = re.compile(r'<form id="step-form"[^>]*? hx-params="([^"]*)"')


_CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')


def _text(response: Any) -> str:
    """A reply's body as the browser reads it (gunzipped when the server compressed it)."""
    body = response.content
    if response.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return str(body.decode())


class _Answer:
    """An HTTP answer as :class:`Phone` reads Django's test responses: ``content`` and ``get(header)``."""

    def __init__(self, headers: dict[str, str], content: bytes) -> None:
        self.headers = headers
        self.content = content

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.headers.get(name.lower(), default)


class Wire:
    """What :class:`Phone` asks of Django's test client (``get``, ``post``), over HTTP to a served app: the
    test client's header arguments (``HTTP_HX_REQUEST``, ``CONTENT_TYPE``) sent as headers (``HX-Request``,
    ``Content-Type``), the cookies kept."""

    def __init__(self, host: str, port: int) -> None:
        self.browser = Browserless(host, port)

    def get(self, path: str, **extra: str) -> _Answer:
        return self._send("GET", path, None, extra)

    def post(self, path: str, body: str, content_type: str, **extra: str) -> _Answer:
        return self._send("POST", path, body, {**extra, "CONTENT_TYPE": content_type})

    def _send(self, method: str, path: str, body: str | None, extra: dict[str, str]) -> _Answer:
        headers = {key.removeprefix("HTTP_").replace("_", "-").title(): value for key, value in extra.items()}
        status, got, content = self.browser.request(method, path, headers=headers, body=body)
        if status != 200:
            raise RuntimeError(f"{method} {path} answered {status}: {content[:300]!r}")
        return _Answer(got, content)


class Phone:
    """One phone on a step, posting as htmx does: url-encoded, the fields the triggering element's
    ``hx-params`` names (the form's for a tap, with the pressed button's ``op``; a number field's own for a typed
    number), with the CSRF header the page's ``<body hx-headers>`` adds (the client checks it, as the server
    does for a browser), and keeping what each reply swaps in, as the page would."""

    def __init__(self, client: Client | Wire, url: str) -> None:
        self.client = client
        self.url = url
        page = _text(client.get(url, **BROWSER))
        token = _CSRF.search(page)
        self.headers = {**HX, "HTTP_X_CSRFTOKEN": token[1] if token else ""}
        self.fields = _fields(page)
        form = _FORM_PARAMS.search(page)
        self.form_params = form[1].split(",") if form else list(self.fields)
        self.params = {name: params.split(",") for name, params in _PARAMS.findall(page)}
        self.spent = 0.0

    def post(self, overrides: dict[str, str]) -> Any:
        """Post one entry; ``self.spent`` adds the time of the request alone (not this phone's bookkeeping)."""
        data = {**self.fields, **overrides}
        names = self.form_params if "op" in overrides else self.params[next(iter(overrides))]
        body = urlencode({k: data[k] for k in names if k in data})
        start = CLOCK()
        response = self.client.post(
            self.url, body, content_type="application/x-www-form-urlencoded", **self.headers
        )
        self.spent = CLOCK() - start
        self.text = _text(response)
        self.fields.update(_fields(self.text))
        return response


def _partial(body: bytes) -> bool:
    return b"hx-swap-oob" in body and not body.lstrip().startswith(b'<div id="step"')


#: A 4-player Akebono game near its end: the worked example's Anaïs (iki-rulebook.txt) and three more players.
PREFILL: dict[str, dict[str, Any]] = {
    "Anaïs": {k: v for k, v in copy.deepcopy(WORKED_EXAMPLE)["players"][0].items() if k != "name"},
    "David": {"score_track": 40, "characters": ["cotton-peddler", "monk"], "firefighting": 3, "trade": 4},
    "Chiyo": {
        "score_track": 35,
        "characters": ["wood-seller"],
        "personalities": ["ryokan"],
        "firefighting": 1,
    },
    "Daichi": {
        "score_track": 52,
        "characters": ["eyeglass-peddler"],
        "boats": ["shop-boat"],
        "firefighting": 2,
    },
}


def _sheet(players: int) -> ScoreSheet:
    names = NAMES[:players]
    return start_sheet(
        names=names,
        colours=COLOURS[:players],
        akebono=True,
        prefill={n: PREFILL[n] for n in names},
        firefighting_order=None,
    )


def _gzip_size(body: bytes) -> int:
    """The body's size as the server sends it gzipped (companion.middleware, without BREACH padding)."""
    return len(compress(body))


class _TimedHandler:
    """The test client's WSGI handler, timed: what Django does with a request (middleware, view, signals), without
    the client's own work of building the request and reading the answer."""

    def __init__(self, handler: Callable[..., Any]) -> None:
        self.handler = handler
        self.spent = 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = CLOCK()
        try:
            return self.handler(*args, **kwargs)
        finally:
            self.spent = CLOCK() - start


def run(report: Report) -> None:
    client = Client(enforce_csrf_checks=True)
    handler = _TimedHandler(client.handler)
    client.handler = handler  # type: ignore[assignment]
    handled: dict[str, list[float]] = {"healthz": [], "post": []}

    def healthz() -> float:
        start = CLOCK()
        client.get("/healthz", **BROWSER)
        spent = CLOCK() - start
        handled["healthz"].append(handler.spent)
        return spent

    for _ in range(50):  # warm up
        healthz()
    sheet = _sheet(4)
    base = f"/score/{sheet.token}"
    worst = worst_handled = 0.0
    replies: dict[str, bytes] = {}
    all_base: list[float] = []
    for step in steps_for(True):
        phone = Phone(client, f"{base}/{step.slug}/")
        entries = itertools.cycle(ENTRY[step.slug])
        # One /healthz, one entry, in turn: both medians are taken under the same load (the shared machine's
        # load drifts within a run), each request timed alone, without the phone's own bookkeeping.
        base_times, post_times = [], []
        handled["healthz"].clear()
        handled["post"].clear()
        for _ in range(PAIRS):
            base_times.append(healthz())
            phone.post(next(entries)(phone.fields))
            post_times.append(phone.spent)
            handled["post"].append(handler.spent)
        worst_handled = max(
            worst_handled, statistics.median(handled["post"]) / statistics.median(handled["healthz"])
        )
        baseline = statistics.median(base_times) * 1000
        all_base += base_times
        ms = statistics.median(post_times) * 1000
        phone.post(next(entries)(phone.fields))
        replies[step.slug] = phone.text.encode()
        ratio = ms / baseline
        worst = max(worst, ratio)
        kind = "partial" if _partial(replies[step.slug]) else "WHOLE STEP"
        report(
            f"POST {step.slug} (htmx, in-process, median CPU)",
            ms,
            "ms",
            f"{ratio:.1f}x GET /healthz ({baseline:.3f} ms, interleaved) ({kind} reply)",
        )
    report(
        "GET /healthz (in-process, median CPU)",
        statistics.median(all_base) * 1000,
        "ms",
        "minimal view rendering a template, timed between the POSTs",
    )
    report(
        "worst step POST / healthz, in-process",
        worst,
        "x",
        "the test client's own work included (the target's figure is through gunicorn, below)",
    )
    report("  the same, Django's handler alone", worst_handled, "x", "no server's work at all")
    _run_served(report)

    for what, url in (
        ("GET /score/ (first page)", "/score/"),
        ("GET first step (full page)", f"{base}/track/"),
    ):
        page = _text(client.get(url, **BROWSER)).encode()
        report(f"{what} bytes", len(page), "bytes", f"{_gzip_size(page):,} gzipped")
    for step in steps_for(True):
        body = replies[step.slug]
        report(
            f"htmx step {step.slug} bytes (4 players)", len(body), "bytes", f"{_gzip_size(body):,} gzipped"
        )

    for what, (before, request) in _requests().items():
        counts = []
        for players in (2, 4):
            other = _sheet(players)
            phone = Phone(client, f"/score/{other.token}/fish/")
            before(phone, other)
            with CaptureQueriesContext(connection) as queries:
                request(phone, other)
            counts.append(len(queries))
        same = "constant" if counts[0] == counts[1] else "GROWS with players"
        report(
            f"queries: {what}, 2 -> 4 players", counts[1], "queries", f"{counts[0]} with 2 players: {same}"
        )

    scored = _sheet(4)
    table = scored.read()
    if not validate(table).valid:  # pragma: no cover - the benchmark's own data
        raise RuntimeError("the benchmark's 4-player sheet should be valid")
    ms = median_seconds(lambda: filled_pad_for(scored, table, "A4"), repeat=7) * 1000
    verdict = "ok" if ms < PDF_TARGET_MS else "MISSED"
    report(
        "filled 4-player pad from a sheet (median)", ms, "ms", f"target < {PDF_TARGET_MS:.0f} ms: {verdict}"
    )
    pdf = median_seconds(lambda: client.get(f"/score/{scored.token}/pad.pdf?size=a4"), repeat=5) * 1000
    report("GET pad.pdf (median, whole request)", pdf, "ms")
    ScoreSheet.objects.all().delete()


def _served_sheet(database_url: str) -> str:
    """Migrate the database at ``database_url`` and start the benchmark's 4-player sheet there; its token."""
    code = (
        "import django; django.setup(); from django.core.management import call_command; "
        "call_command('migrate', verbosity=0); "
        "from companion.benchmarks.scorepad import _sheet; print(_sheet(4).token)"
    )
    env = dict(
        os.environ, DATABASE_URL=database_url, DJANGO_DEBUG="0", DJANGO_SETTINGS_MODULE="companion.settings"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout.split()[-1]


def server_times(lines: list[str]) -> dict[str, tuple[list[float], list[float]]]:
    """The server times of companion/benchmarks/_server_time.py (``METHOD path µs`` lines in request order) by
    step: (the GET /healthz times, the POST times), each step's run opened by the phone's GET of its page."""
    out: dict[str, tuple[list[float], list[float]]] = {}
    current: tuple[list[float], list[float]] | None = None
    for line in lines:
        method, path, micros = line.split()
        if path == "/healthz":
            if current is not None:
                current[0].append(float(micros))
        elif method == "GET":
            current = out.setdefault(path.rstrip("/").rsplit("/", 1)[-1], ([], []))
        elif current is not None:
            current[1].append(float(micros))
    return out


def served_times(pairs: int, slugs: Sequence[str]) -> dict[str, tuple[list[float], list[float]]]:
    """The same entries and /healthz as :func:`run` makes, ``pairs`` of each per step, through gunicorn (1 worker,
    a SQLite file database as the settings open it: WAL): each request's server time in µs, from gunicorn's hooks
    (companion/benchmarks/_server_time.py), by step: (the GET /healthz times, the POST times)."""
    with tempfile.TemporaryDirectory(prefix="iki-bench-") as tmp:
        database_url = f"sqlite:///{Path(tmp) / 'db.sqlite3'}"
        token = _served_sheet(database_url)
        times = Path(tmp) / "times.txt"
        hooks = {"IKI_BENCH_TIMES": str(times)}
        config = "python:companion.benchmarks._server_time"
        with served(database_url, workers=1, config=config, environ=hooks) as (host, port):
            wire = Wire(host, port)
            for _ in range(50):  # warm up
                wire.get("/healthz", **BROWSER)
            for slug in slugs:
                phone = Phone(wire, f"/score/{token}/{slug}/")
                entries = itertools.cycle(ENTRY[slug])
                for _ in range(pairs):
                    wire.get("/healthz", **BROWSER)
                    phone.post(next(entries)(phone.fields))
        return server_times(times.read_text().splitlines())


def _run_served(report: Report) -> None:
    slugs = [step.slug for step in steps_for(True)]
    by_step = served_times(SERVED_PAIRS, slugs)
    worst = 0.0
    base: list[float] = []
    for slug in slugs:
        healthz, posts = by_step[slug]
        base += healthz
        ratio = statistics.median(posts) / statistics.median(healthz)
        worst = max(worst, ratio)
        verdict = "ok" if ratio <= RATIO_TARGET else "MISSED"
        report(
            f"POST {slug} (htmx, gunicorn, median server CPU)",
            statistics.median(posts) / 1000,
            "ms",
            f"{ratio:.1f}x GET /healthz ({statistics.median(healthz) / 1000:.3f} ms), "
            f"target <= {RATIO_TARGET:.0f}x: {verdict}",
        )
    report("GET /healthz (gunicorn, median server CPU)", statistics.median(base) / 1000, "ms")
    verdict = "ok" if worst <= RATIO_TARGET else "MISSED"
    report(
        "worst step POST / healthz, through gunicorn",
        worst,
        "x",
        f"target <= {RATIO_TARGET:.0f}x: {verdict} (the server's time: environ, Django, writing the answer)",
    )


Request = Callable[[Phone, ScoreSheet], object]


def _nothing(phone: Phone, sheet: ScoreSheet) -> None:
    pass


def _requests() -> dict[str, tuple[Request, Request]]:
    """What to count the queries of, each after what to do first."""
    entry: Request = lambda p, s: p.post({"op": "add|1|fish|fish-winter"})  # noqa: E731
    again: Request = lambda p, s: p.post({"op": "remove|1|fish|fish-winter"})  # noqa: E731
    return {
        "GET a step (htmx)": (
            _nothing,
            lambda p, s: p.client.get(f"/score/{s.token}/characters/", **p.headers),
        ),
        # The first entry this process makes on a sheet reads its row; the next starts from the row it wrote.
        "POST a first entry (htmx)": (_nothing, entry),
        "POST the next entry (htmx)": (entry, again),
        "GET the result": (_nothing, lambda p, s: p.client.get(f"/score/{s.token}/result/")),
    }
