"""companion/settings.py and companion/deploy.py as a server starts them (issue 10, items 4 and 8).

The settings are read once, at start-up, from the environment: ``settings_from`` runs companion/settings.py afresh
in this process with the environment an operator would set, and companion/deploy.py's functions are called
directly. Three tests start a fresh Python, for what only a real start shows: a start refused with the message the
operator reads, and Django's deployment check in both modes (the README names its warnings).

Every run keeps its SQLite database (and so its generated secret key) in the test's own folder.
"""

from __future__ import annotations

import io
import logging
import os
import re
import runpy
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from benchmarks.polling import ROOT
from companion import deploy

PUBLIC = {"DJANGO_HTTPS": "1", "DJANGO_ALLOWED_HOSTS": "iki.example.org"}
# What `manage.py check --deploy` says of the LAN mode (plain HTTP, no HSTS); the README names each one.
LAN_WARNINGS = {"security.W004", "security.W008", "security.W016"}


def _environ(tmp_path: Path, environ: dict[str, str]) -> dict[str, str]:
    """This process's environment without the DJANGO_ variables, plus ``environ``, on a database in tmp_path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k != "DATABASE_URL"}
    env.update(
        DJANGO_SETTINGS_MODULE="companion.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"
    )
    return env | environ


def run(tmp_path: Path, *args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    """``python3 ARGS`` in the checkout with only ``environ`` of the DJANGO_ variables."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=_environ(tmp_path, environ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def settings_from(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **environ: str) -> dict[str, Any]:
    """The names companion/settings.py defines when run with only ``environ`` of the DJANGO_ variables (the
    environment is restored after the test)."""
    for name, value in _environ(tmp_path, environ).items():
        monkeypatch.setenv(name, value)
    for name in [k for k in os.environ if k.startswith("DJANGO_") and k not in environ]:
        monkeypatch.delenv(name)
    return runpy.run_path(str(ROOT / "companion" / "settings.py"))


def refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **environ: str) -> str:
    """The message that stops any start with ``environ``."""
    with pytest.raises(ImproperlyConfigured) as stopped:
        settings_from(monkeypatch, tmp_path, **environ)
    return str(stopped.value)


def test_a_refused_start_stops_the_process_with_the_message(tmp_path: Path) -> None:
    """A real start (fresh Python): the operator reads the reason as the last line, and nothing starts."""
    done = run(tmp_path, "manage.py", "check", DJANGO_HTTPS="1")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "django.core.exceptions.ImproperlyConfigured: DJANGO_HTTPS=1 serves the public: set "
    )


# --- item 4: a server error leaves a trace ----------------------------------------------------------------------


@contextmanager
def the_log() -> Iterator[io.StringIO]:
    """What the configured log handlers write meanwhile (settings.LOGGING's StreamHandler writes to stderr, that
    is gunicorn's error log; Django's own handlers too): every StreamHandler's stream, swapped for one buffer."""
    loggers = [
        logging.getLogger(),
        *(logging.getLogger(name) for name in list(logging.root.manager.loggerDict)),
    ]
    handlers = {h for logger in loggers for h in logger.handlers if type(h) is logging.StreamHandler}
    assert handlers, "no log handler is configured"
    log = io.StringIO()
    previous = {h: h.setStream(log) for h in handlers}
    try:
        yield log
    finally:
        for h, stream in previous.items():
            h.setStream(stream)


@pytest.mark.parametrize("debug", [False, True])
def test_a_server_error_is_logged_to_stderr_with_its_traceback(settings: Any, debug: bool) -> None:
    settings.DEBUG = debug
    with (
        the_log() as log,
        mock.patch("companion.views.home.render", side_effect=RuntimeError("forced for the log test")),
    ):
        response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    if not debug:  # the players see the friendly page, never the traceback
        assert "Something went wrong on our side" in response.content.decode()
        assert "forced for the log test" not in response.content.decode()
    err = log.getvalue()
    assert re.search(r"\[ERROR\] django\.request: Internal Server Error: /\n", err), err
    assert "Traceback (most recent call last):" in err
    assert "RuntimeError: forced for the log test" in err


def test_the_log_is_the_same_with_debug_pages_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    lan = settings_from(monkeypatch, tmp_path)
    assert settings_from(monkeypatch, tmp_path, DJANGO_DEBUG="1")["LOGGING"] == lan["LOGGING"]
    assert lan["LOGGING"]["filters"]["quiet"]["level"] == "WARNING"  # a 4xx is demoted to INFO: not logged


def apply_security(settings: Any, names: dict[str, Any]) -> None:
    """Serve this test's requests with the security settings of ``names`` (what settings.py made)."""
    for name in (*_SECURITY, "SECURE_REDIRECT_EXEMPT", "SILENCED_SYSTEM_CHECKS"):
        if name in names:
            setattr(settings, name, names[name])


@pytest.mark.django_db
@pytest.mark.parametrize("environ", [{}, PUBLIC])
def test_answers_refused_with_a_4xx_are_not_logged(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    settings: Any,
    environ: dict[str, str],
) -> None:
    """A stranger's requests (unknown pages, a host the app does not serve) cannot fill the log."""
    apply_security(settings, settings_from(monkeypatch, tmp_path, **environ))
    ours = Client(HTTP_HOST="iki.example.org", HTTP_X_FORWARDED_PROTO="https")
    with the_log() as log:
        assert ours.get("/no/such/page").status_code == 404
        assert ours.get("/").status_code == 200  # the same client, on a page that exists
        stranger = Client().get("/", HTTP_HOST="evil.example.com")
        assert stranger.status_code == (400 if environ else 200)
    assert log.getvalue() == ""


# --- item 8: no secret key in the code ----------------------------------------------------------------------------


def test_without_a_key_one_is_made_on_the_first_start_and_kept_beside_the_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    first = settings_from(monkeypatch, tmp_path)["SECRET_KEY"]
    kept = tmp_path / "secret-key"
    assert kept.read_text() == first + "\n"
    assert kept.stat().st_mode & 0o777 == 0o600  # the owner's alone
    assert len(first) >= 50
    assert settings_from(monkeypatch, tmp_path)["SECRET_KEY"] == first  # the next start keeps it
    other = deploy.secret_key({}, tmp_path / "other")
    assert other != first  # two installations never share a key
    assert first not in (ROOT / "companion" / "settings.py").read_text()


@pytest.mark.parametrize(
    ("database", "beside"),
    [
        ({"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/iki/db.sqlite3"}, Path("/srv/iki")),
        ({"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}, None),
        ({"ENGINE": "django.db.backends.sqlite3", "NAME": "file:memdb?mode=memory"}, None),
        ({"ENGINE": "django.db.backends.postgresql", "NAME": "iki"}, None),
    ],
)
def test_the_key_lives_beside_a_sqlite_file_else_in_the_checkout(
    database: dict[str, str], beside: Path | None
) -> None:
    assert deploy.key_directory(database, Path("/checkout")) == (beside or Path("/checkout"))


def test_the_key_from_the_environment_wins_and_no_file_is_made(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    key = "k" * 30 + "-given-by-the-operator-" + "y" * 20
    assert settings_from(monkeypatch, tmp_path, DJANGO_SECRET_KEY=key)["SECRET_KEY"] == key
    assert not (tmp_path / "secret-key").exists()


def test_workers_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    start = threading.Barrier(4)
    keys: list[str] = []

    def worker() -> None:
        start.wait()
        keys.append(deploy.secret_key({}, tmp_path))

    workers = [threading.Thread(target=worker) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(keys) == 4 and len(set(keys)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret-key"]  # no candidate left behind


def test_a_damaged_key_file_stops_the_start(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "secret-key").write_text("short\n")
    message = refused(monkeypatch, tmp_path)
    assert "holds no usable secret key" in message
    assert "delete it" in message


def test_a_folder_the_server_cannot_write_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "a-file").write_text("")
    message = refused(monkeypatch, tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'a-file' / 'db.sqlite3'}")
    assert message.startswith(f"Cannot keep a secret key in {tmp_path / 'a-file' / 'secret-key'} (")
    assert message.endswith("or set DJANGO_SECRET_KEY.")


# --- item 8: two ways to serve ---------------------------------------------------------------------------------

_SECURITY = (
    "DEBUG", "ALLOWED_HOSTS", "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
)  # fmt: skip
_DJANGO_DEFAULTS = {
    "SECURE_PROXY_SSL_HEADER": None,
    "SECURE_SSL_REDIRECT": False,
    "SECURE_HSTS_SECONDS": 0,
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
}


def _security(names: dict[str, Any]) -> dict[str, Any]:
    return {name: names.get(name, _DJANGO_DEFAULTS.get(name)) for name in _SECURITY}


def test_lan_mode_is_plain_http_for_any_host(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert _security(settings_from(monkeypatch, tmp_path)) == {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["*"],  # phones reach the laptop by whatever IP it has today
        "SECURE_PROXY_SSL_HEADER": None,
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
    }


def test_one_switch_makes_the_public_mode(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    environ = PUBLIC | {"DJANGO_ALLOWED_HOSTS": " iki.example.org, www.iki.example.org ,"}
    assert _security(settings_from(monkeypatch, tmp_path, **environ)) == {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["iki.example.org", "www.iki.example.org"],
        "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
    }


@pytest.mark.parametrize(
    ("environ", "says"),
    [
        ({"DJANGO_HTTPS": "1"}, "set DJANGO_ALLOWED_HOSTS to the names the app is reached by"),
        ({"DJANGO_HTTPS": "1", "DJANGO_ALLOWED_HOSTS": " , "}, "set DJANGO_ALLOWED_HOSTS"),
        ({"DJANGO_HTTPS": "1", "DJANGO_ALLOWED_HOSTS": "iki.example.org,*"}, "not '*'"),
        (PUBLIC | {"DJANGO_DEBUG": "1"}, "debug pages (DJANGO_DEBUG=1) stay off"),
        ({"DJANGO_HTTPS": "true"}, "DJANGO_HTTPS must be 1 (on) or 0 (off), not 'true'."),
        ({"DJANGO_DEBUG": "yes"}, "DJANGO_DEBUG must be 1 (on) or 0 (off), not 'yes'."),
        (
            {"DJANGO_KEEP_DAYS": "a year"},
            "DJANGO_KEEP_DAYS must be a whole number of 0 or more, not 'a year'.",
        ),
        (
            {"DJANGO_CREATES_PER_MINUTE": "-1"},
            "DJANGO_CREATES_PER_MINUTE must be a whole number of 0 or more",
        ),
    ],
)
def test_an_unsafe_or_unclear_setting_stops_the_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, environ: dict[str, str], says: str
) -> None:
    assert says in refused(monkeypatch, tmp_path, **environ)


@pytest.mark.parametrize(("value", "on"), [("", False), ("0", False), (" 1 ", True), ("1", True)])
def test_a_switch_is_1_or_0(value: str, on: bool) -> None:
    assert deploy.flag({"X": value}, "X") is on
    assert deploy.flag({}, "X") is False


_LIMITS = ("KEEP_DAYS", "CREATES_PER_MINUTE")


def test_retention_and_limits_are_off_on_a_lan_and_on_in_public(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def limits(**environ: str) -> dict[str, Any]:
        chosen = settings_from(monkeypatch, tmp_path, **environ)
        return {name: chosen[name] for name in _LIMITS}

    assert limits() == {"KEEP_DAYS": 0, "CREATES_PER_MINUTE": 0}
    assert limits(**PUBLIC) == {"KEEP_DAYS": 400, "CREATES_PER_MINUTE": 20}
    chosen = {"DJANGO_KEEP_DAYS": "30", "DJANGO_CREATES_PER_MINUTE": "0"}
    assert limits(**PUBLIC, **chosen) == {"KEEP_DAYS": 30, "CREATES_PER_MINUTE": 0}


@pytest.mark.parametrize(
    ("value", "url"),
    [
        ("", ""),
        ("https://iki.example.org/", "https://iki.example.org"),
        ("http://10.0.0.2:8000", "http://10.0.0.2:8000"),
    ],
)
def test_the_public_url_is_an_origin(value: str, url: str) -> None:
    assert deploy.public_url({"DJANGO_PUBLIC_URL": value}, "DJANGO_PUBLIC_URL") == url


@pytest.mark.parametrize(
    "value", ["iki.example.org", "ftp://iki.example.org", "https://iki.example.org/x", "https://"]
)
def test_a_public_url_that_is_not_an_origin_stops_the_start(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="must be the address the phones open"):
        deploy.public_url({"DJANGO_PUBLIC_URL": value}, "DJANGO_PUBLIC_URL")


@pytest.mark.django_db
def test_public_mode_behind_a_tls_proxy(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, settings: Any
) -> None:
    apply_security(settings, settings_from(monkeypatch, tmp_path, **PUBLIC))
    plain = Client().get("/", HTTP_HOST="iki.example.org")
    assert (plain.status_code, plain.get("Location")) == (301, "https://iki.example.org/")  # sent to HTTPS
    assert (
        Client().get("/healthz", HTTP_HOST="iki.example.org").status_code == 200
    )  # the health check, on HTTP
    tls = Client().get("/", HTTP_HOST="iki.example.org", HTTP_X_FORWARDED_PROTO="https")
    assert tls.status_code == 200
    assert tls["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert tls.cookies["csrftoken"]["secure"] is True
    stranger = Client().get("/", HTTP_HOST="evil.example.com", HTTP_X_FORWARDED_PROTO="https")
    assert stranger.status_code == 400  # a host not named in DJANGO_ALLOWED_HOSTS


@pytest.mark.django_db
@pytest.mark.parametrize("secure", [True, False])
def test_the_who_cookie_is_secure_with_the_other_cookies(client: Client, settings: Any, secure: bool) -> None:
    from companion.services.tracker.games import NewPlayer, create_game
    from setupgen import Options, generate

    settings.SESSION_COOKIE_SECURE = secure
    game = create_game(
        players=[NewPlayer("Aiko", "red"), NewPlayer("Ben", "blue")],
        akebono=False,
        grand_master=False,
        setup=generate(Options(players=2), seed="K7MX2QPA").to_json(),
        who="test",
    )
    response = client.post(f"/games/{game.edit_token}/who", {"who": "Aiko"})
    assert response.status_code == 302
    assert bool(response.cookies["iki_who"]["secure"]) is secure


# --- item 8: `manage.py check --deploy` -------------------------------------------------------------------------


def _deploy_warnings(tmp_path: Path, **environ: str) -> set[str]:
    done = run(tmp_path, "manage.py", "check", "--deploy", **environ)
    assert done.returncode == 0, done.stderr
    return set(re.findall(r"\((security\.\w+)\)", done.stderr))


def test_check_deploy_is_clean_in_public_mode(tmp_path: Path) -> None:
    done = run(tmp_path, "manage.py", "check", "--deploy", "--fail-level", "WARNING", **PUBLIC)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "System check identified no issues (1 silenced)."


def test_lan_mode_warnings_are_the_ones_the_readme_names(tmp_path: Path) -> None:
    assert _deploy_warnings(tmp_path) == LAN_WARNINGS
    readme = (ROOT / "README.md").read_text()
    for warning in LAN_WARNINGS:
        assert warning.removeprefix("security.") in readme


def test_static_files_are_served_gzipped_and_cached_for_a_year_after_collectstatic(
    tmp_path: Any, settings: Any
) -> None:
    """Issue 12: htmx and the CSS were served uncompressed with max-age=60. After collectstatic, WhiteNoise's
    manifest storage names them by their content and serves them pre-gzipped with a year's caching."""
    from django.core.management import call_command
    from django.templatetags.static import static
    from django.test import RequestFactory
    from whitenoise.middleware import WhiteNoiseMiddleware

    settings.STATIC_ROOT = tmp_path
    settings.WHITENOISE_AUTOREFRESH = False  # production's (tests/conftest.py sets development's)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    url = static("companion/app.css")
    assert re.fullmatch(r"/static/companion/app\.[0-9a-f]{12}\.css", url)
    middleware = WhiteNoiseMiddleware(lambda request: None)
    response = middleware(RequestFactory().get(url, HTTP_ACCEPT_ENCODING="gzip"))
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "max-age=315360000" in response["Cache-Control"]
    assert "immutable" in response["Cache-Control"]
