"""Shared fixtures. Browser tests drive Debian's Chromium through Playwright on a 390x844 phone screen."""

from __future__ import annotations

import os
import shutil
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import coverage
import pytest
from hypothesis import settings as hypothesis_settings

from tests.phone_log import PhoneLog

# One Hypothesis profile for the whole suite. No deadline: a property test's speed is not its subject, and on a loaded
# 2-core machine a 200 ms deadline failed a correct test. print_blob: a failure prints the @reproduce_failure line
# that replays it. Each test keeps its own max_examples (its cost); CI's profile is the same with random examples
# each run (derandomize off) and Hypothesis's default 100 examples where a test names none.
hypothesis_settings.register_profile("iki", deadline=None, print_blob=True)
hypothesis_settings.register_profile(
    "ci", parent=hypothesis_settings.get_profile("iki"), derandomize=False, max_examples=100
)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "iki")
)

# Playwright's sync API runs an event loop in the test thread; the ORM calls made by tests next to it are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_configure(config: pytest.Config) -> None:
    """The settings of the whole run, made before any test:

    - Pages name the static files by their plain names, as before ``collectstatic``: the live server serves them
      from the apps and knows nothing of the hashed copies (WhiteNoise serves those in production, tested on its own:
      tests/companion/test_settings.py and the app servers of tests/deploy). WhiteNoise finds a file when it is asked
      for, as in development, instead of listing all of them when its middleware starts: each test's client starts
      the middleware anew, and the listing (14 ms, 220 files) was 8% of the CPU of the tests without a browser.
      Set once for the run, not for each test: a request a live server thread was still answering for the last
      test's page, as the next test changed the setting, could make the static files' storage from the setting of
      the moment, and the whole next test named hashed files the live server does not have (a CI run of
      2026-11-27: a page without its stylesheet and scripts).
    - With --cov, templates count too: django_coverage_plugin reads a template's lines from the template engine's
      debug information, which Django keeps only with the ``debug`` option (set before the first template loads).
    """
    from django.conf import settings
    from django.test.utils import override_settings

    override_settings(
        STORAGES={
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
        WHITENOISE_AUTOREFRESH=True,
    ).enable()  # never disabled: the run's own settings
    if config.getoption("cov_source", default=None):
        for engine in settings.TEMPLATES:
            engine.setdefault("OPTIONS", {})["debug"] = True


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtestloop(session: pytest.Session) -> Iterator[object]:
    """With --cov, the template lines recorded as nodes rendered (tests/coverage_templates.py) reach the coverage
    data after the last test and before pytest-cov saves it (its own wrapper of this hook, outside this one)."""
    try:
        return (yield)
    finally:
        if session.config.getoption("cov_source", default=None):
            from tests import coverage_templates

            coverage_templates.flush()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Django removes a SQLite test database's file, not the WAL and shared-memory files beside it (the settings'
    WAL journal) and the live engine's writer lock (companion.live.engine.WRITER_FILE_SUFFIX): take those too, so
    runs leave nothing in the temporary directory."""
    from django.conf import settings

    name = str(settings.DATABASES["default"].get("TEST", {}).get("NAME") or "")
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") and name:
        for leftover in (Path(name + "-wal"), Path(name + "-shm"), Path(name + "-writer")):
            leftover.unlink(missing_ok=True)


#: The fixtures through which a test reaches a database (pytest-django's, and the live server, which brings one).
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server"}
)


def uses_a_database(item: pytest.Item) -> bool:
    """Whether ``item`` reaches the run's database: marked ``django_db``, asking for a database fixture (itself or
    through its fixtures), or a deployment test (tests/deploy makes a database of its own on the run's server)."""
    names = set(getattr(item, "fixturenames", ()))
    return bool(
        item.get_closest_marker("django_db") or item.get_closest_marker("deploy") or names & DATABASE_FIXTURES
    )


def runs_on_every_database(item: pytest.Item) -> bool:
    """Whether CI's PostgreSQL pass runs ``item``: a test without a browser that reaches a database, or a browser
    test marked ``poke``. Every browser test runs on SQLite (the README's test command). On PostgreSQL a browser
    test adds only what differs between the databases and cannot be seen without a browser: a tap on one phone
    poking the others' streams, which travels through LISTEN/NOTIFY there (a version check on SQLite), and from one
    app process to another. What the other browser tests read and write goes through the views and services whose
    test-client tests run on both databases, each write applied once and two writers at once among them
    (tests/companion/live/test_*_once.py, test_exactly_once.py, test_games_concurrency.py): run again on PostgreSQL
    behind a phone, they cost CI about a minute of Chromium for the same queries.

    The same holds for a test marked ``walk``: it walks every page of whole games through the test client to check
    what the pages show (no ruling's name, no draw before its reveal, no running score on a shared link). Its
    writes and reads go through the services and views whose own tests run on both databases; on PostgreSQL it
    cost CI 20 s for the same queries."""
    if item.get_closest_marker("browser"):
        return bool(item.get_closest_marker("poke"))
    return uses_a_database(item) and not item.get_closest_marker("walk")


#: Whether this run is CI's PostgreSQL pass (``TESTS_DATABASE_ONLY=1``, .ci/run), after the SQLite pass ran every test.
DATABASE_ONLY = os.environ.get("TESTS_DATABASE_ONLY") == "1"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``TESTS_DATABASE_ONLY=1`` (CI's PostgreSQL pass, .ci/run) keeps only the tests that reach a database
    (:func:`runs_on_every_database`): the others (the rules core, templates read as text, settings in a fresh
    Python on SQLite files of their own, the pages' looks) run the same on any database and ran already on SQLite,
    in the README's test command.

    The tests marked ``long`` start first, in their random order (a stable sort after pytest-randomly's shuffle
    and pytest-django's grouping): on a few cores a long test started last keeps one core busy while the others
    wait for it."""
    if DATABASE_ONLY:
        config.hook.pytest_deselected(items=[item for item in items if not runs_on_every_database(item)])
        items[:] = [item for item in items if runs_on_every_database(item)]
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def runs_untraced(item: pytest.Item) -> bool:
    """Whether coverage leaves ``item`` untraced: a test that runs the same code many times over, whose lines the
    other tests reach.

    - A test marked ``walk`` walks whole games through every page to read what they show, running the views and
      templates the other tests run, thousands of times over.
    - A property test (Hypothesis's ``@given`` on the test itself) runs its code on up to hundreds of examples,
      random ones in CI.
    - A test marked ``fuzz`` does the same with a ``@given`` of its own for each case (tests/companion/test_fuzz.py:
      each endpoint's form).

    Traced, a walk took 2.4x its time untraced, a property test of the rules core 3.5-5x and the fuzz tests 2.2x:
    together about 190 s of the two cores' time in CI. The few lines only they reached (the table screen's overdue
    reveals, bridge, income and order; a stack naming a player twice; the 2015 pad check refusing its players; a
    mistyped group link; a number erased on a score step; a mangled result link beside a kept pad; a blank
    rename; a group without a name) each have an example test of their own: the coverage is what it was."""
    return (
        bool(item.get_closest_marker("walk") or item.get_closest_marker("fuzz"))
        or getattr(getattr(item, "obj", None), "hypothesis", None) is not None
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[object]:
    """A test :func:`runs_untraced` runs with every coverage stopped, its template lines included
    (tests/coverage_templates.py records none while no coverage runs). pytest-cov's ``no_cover`` marker stops only
    its own: under pytest-xdist a worker runs a second one (pytest-cov starts its controller for the whole run in
    each worker too), which goes on tracing."""
    if not runs_untraced(item):
        return (yield)
    paused = []
    while (running := coverage.Coverage.current()) is not None:
        running.stop()
        paused.append(running)
    try:
        return (yield)
    finally:
        for running in reversed(paused):
            running.start()


#: The Chromium features Playwright turns off (its chromiumSwitches.ts, as of version 1.65): Chromium keeps only the
#: last ``--disable-features`` it is given, so ours (:data:`CHROMIUM_ARGS`) repeats them, and
#: tests/test_chromium_browser.py fails when a newer Playwright turns off one more.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
#: The address bar's two popups, which a headless window never shows. Debian's Chromium 156 loads each window's as
#: a page of its own, in a renderer process of its own, for every browser context a test opens: turned off, the
#: browser tests took 214 s instead of 293 and 332 s of the two cores' CPU instead of 522.
ADDRESS_BAR_POPUPS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-features=" + ",".join((*PLAYWRIGHT_DISABLED_FEATURES, *ADDRESS_BAR_POPUPS)),
]
PHONE = {"width": 390, "height": 844}
#: How long a browser test waits for an element, a state or an answer before it fails: a bound for a hang, not a
#: speed check (a loaded 2-core CI machine with coverage on took over 10 s to flush an outbox of 5 taps).
BROWSER_WAIT_MS = 30_000
SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR", Path(__file__).resolve().parent.parent / "out" / "screens")
)
#: Whether the screenshot fixture captures: not in CI (``CI`` set, as .ci/run's machine sets it), which keeps no file
#: of a run, where the captures cost about 40 s of the two cores' time (207 of them); ``SCREENSHOTS=1`` asks for them.
TAKE_SCREENSHOTS = os.environ.get("SCREENSHOTS", "0" if os.environ.get("CI") else "1") == "1"
#: What Chromium answers when its compositor refuses a capture (the screenshot fixture asks once more).
CAPTURE_REFUSED = "Unable to capture screenshot"


@pytest.fixture(autouse=True)
def _live_server_listens_on_loopback(request: pytest.FixtureRequest) -> None:
    """The live server listens on 127.0.0.1 alone, as ``manage.py table --bind 127.0.0.1`` would: its pages, opened
    at localhost, then share localhost links a browser test can follow (companion/links.py), not the LAN address
    of the machine running the tests."""
    if "live_server" in request.fixturenames:
        request.getfixturevalue("settings").TABLE_BIND = "127.0.0.1"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium") or "/usr/bin/chromium"
    from playwright.sync_api import expect

    expect.set_options(
        timeout=BROWSER_WAIT_MS
    )  # expect() has its own default (5 s), apart from the contexts'
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _context(browser: Any, **options: Any) -> Any:
    """A phone's browser context. The tests' own string expressions (``page.wait_for_function("...")``) run in the
    page, where the strict Content-Security-Policy refuses string evaluation: contexts bypass the policy for the
    harness, except where a test asks ``bypass_csp=False`` (tests/companion/test_csp_browser.py, which visits every
    page under the real policy)."""
    settings: dict[str, Any] = {
        "viewport": PHONE,
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
        "bypass_csp": True,
    }
    settings.update(options)
    context = browser.new_context(**settings)
    context.set_default_timeout(BROWSER_WAIT_MS)
    return context


#: Where a browser test keeps what its phones did (tests/phone_log.py), for its failure's report.
PHONE_LOG = pytest.StashKey[PhoneLog]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A browser test that fails says what its phones held (tests/phone_log.py) under its error, while its pages
    are still open: the failure of a loaded CI machine can then be read from CI's output."""
    report = yield
    log = item.stash.get(PHONE_LOG, None)
    if log is not None and report.when == "call" and report.failed:
        report.sections.append(("what the phones held", log.describe()))
    return report


@pytest.fixture
def new_context(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Make more phone-sized browser contexts (two phones at one table); all closed after the test. What happens on
    them is logged for the test's failure report (:data:`PHONE_LOG`)."""
    made: list[Any] = []
    log = request.node.stash[PHONE_LOG] = PhoneLog()

    def make(**options: Any) -> Any:
        context = _context(browser, **options)
        log.watch(context)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def page(new_context: Any) -> Any:
    """A phone-sized page (390x844, touch)."""
    return new_context().new_page()


@pytest.fixture
def screenshot() -> Any:
    """Save a full-page screenshot under out/screens/ for a person to look at, at CSS scale (390 px wide): the
    phone's 2x doubles each side, and the capture cost Chromium 0.40 s of CPU a page instead of 0.15 (about 200 a
    run, on a CI machine whose browser tests keep both cores busy). Nothing in CI, which keeps no file of a run
    (:data:`TAKE_SCREENSHOTS`): returns the image's path, or None when none was taken."""

    from playwright.sync_api import Error as PlaywrightError

    def take(page: Any, name: str) -> Path | None:
        if not TAKE_SCREENSHOTS:
            return None
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        target = SCREENSHOTS / f"{name}.png"
        try:
            page.screenshot(path=str(target), full_page=True, scale="css")
        except PlaywrightError as exc:
            # Chromium's compositor now and then refuses a full-page capture on a loaded machine ("Unable to
            # capture screenshot", a CI run of 2026-11-26 in test_phone_browser.py): the page is as it was, so
            # ask once more; any other error, or a second refusal, fails as before.
            if CAPTURE_REFUSED not in str(exc):
                raise
            page.screenshot(path=str(target), full_page=True, scale="css")
        return target

    return take
