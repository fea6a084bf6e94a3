"""companion/settings.py as a server starts it (issue 10, items 4 and 8): each case runs a fresh Python with the
environment an operator would set, because the settings are read once, at start-up.

Every run keeps its SQLite database (and so its generated secret key) in the test's own folder.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from companion.benchmarks.polling import ROOT

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


_SETTINGS = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({name: getattr(settings, name, None) for name in %r}))
"""


def settings_of(tmp_path: Path, *names: str, **environ: str) -> dict[str, Any]:
    done = run(tmp_path, "-c", _SETTINGS % (names,), **environ)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def refused(tmp_path: Path, **environ: str) -> str:
    """The message that stops ``manage.py check`` (and so any start) with ``environ``."""
    done = run(tmp_path, "manage.py", "check", **environ)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("django.core.exceptions.ImproperlyConfigured: "), done.stderr
    return last.removeprefix("django.core.exceptions.ImproperlyConfigured: ")


# --- item 4: a server error leaves a trace ----------------------------------------------------------------------

_FORCED_ERROR = """
import django
django.setup()
from unittest import mock
from django.test import Client
with mock.patch("companion.views.home.render", side_effect=RuntimeError("forced for the log test")):
    response = Client(raise_request_exception=False).get("/")
print(response.status_code, response.content.decode())
"""


@pytest.mark.parametrize("environ", [{}, {"DJANGO_DEBUG": "1"}])
def test_a_server_error_is_logged_to_stderr_with_its_traceback(
    tmp_path: Path, environ: dict[str, str]
) -> None:
    done = run(tmp_path, "-c", _FORCED_ERROR, **environ)
    assert done.returncode == 0, done.stderr
    if not environ:  # the players see the friendly page, never the traceback
        assert done.stdout.startswith("500 ")
        assert "Something went wrong on our side" in done.stdout
        assert "forced for the log test" not in done.stdout
    assert re.search(r"\[ERROR\] django\.request: Internal Server Error: /\n", done.stderr), done.stderr
    assert "Traceback (most recent call last):" in done.stderr
    assert "RuntimeError: forced for the log test" in done.stderr


_REFUSED = """
import django
django.setup()
from django.test import Client
ours = Client(HTTP_HOST="iki.example.org", HTTP_X_FORWARDED_PROTO="https")
print(ours.get("/no/such/page").status_code, Client().get("/", HTTP_HOST="evil.example.com").status_code)
"""


@pytest.mark.parametrize("environ", [{}, PUBLIC])
def test_answers_refused_with_a_4xx_are_not_logged(tmp_path: Path, environ: dict[str, str]) -> None:
    """A stranger's requests (unknown pages, a host the app does not serve) cannot fill the log."""
    done = run(tmp_path, "-c", _REFUSED, **environ)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["404", "400" if environ else "200"]
    assert done.stderr == ""


# --- item 8: no secret key in the code ----------------------------------------------------------------------------


def test_without_a_key_one_is_made_on_the_first_start_and_kept_beside_the_database(tmp_path: Path) -> None:
    first = settings_of(tmp_path, "SECRET_KEY")["SECRET_KEY"]
    kept = tmp_path / "secret-key"
    assert kept.read_text() == first + "\n"
    assert kept.stat().st_mode & 0o777 == 0o600  # the owner's alone
    assert len(first) >= 50
    assert settings_of(tmp_path, "SECRET_KEY")["SECRET_KEY"] == first  # the next start keeps it
    other = settings_of(tmp_path / "other", "SECRET_KEY")["SECRET_KEY"]
    assert other != first  # two installations never share a key
    assert first not in (ROOT / "companion" / "settings.py").read_text()


def test_the_key_from_the_environment_wins_and_no_file_is_made(tmp_path: Path) -> None:
    key = "k" * 30 + "-given-by-the-operator-" + "y" * 20
    assert settings_of(tmp_path, "SECRET_KEY", DJANGO_SECRET_KEY=key)["SECRET_KEY"] == key
    assert not (tmp_path / "secret-key").exists()


def test_workers_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    argv = [sys.executable, "-c", _SETTINGS % (("SECRET_KEY",),)]
    env = _environ(tmp_path, {})
    workers = [subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True) for _ in range(4)]
    keys = {json.loads(w.communicate(timeout=120)[0])["SECRET_KEY"] for w in workers}
    assert len(keys) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret-key"]  # no candidate left behind


def test_a_damaged_key_file_stops_the_start(tmp_path: Path) -> None:
    (tmp_path / "secret-key").write_text("short\n")
    message = refused(tmp_path)
    assert "holds no usable secret key" in message
    assert "delete it" in message


def test_a_folder_the_server_cannot_write_stops_the_start(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    message = refused(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'a-file' / 'db.sqlite3'}")
    assert message.startswith(f"Cannot keep a secret key in {tmp_path / 'a-file' / 'secret-key'} (")
    assert message.endswith("or set DJANGO_SECRET_KEY.")


# --- item 8: two ways to serve ---------------------------------------------------------------------------------

_SECURITY = (
    "DEBUG", "ALLOWED_HOSTS", "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
)  # fmt: skip


def test_lan_mode_is_plain_http_for_any_host(tmp_path: Path) -> None:
    assert settings_of(tmp_path, *_SECURITY) == {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["*"],  # phones reach the laptop by whatever IP it has today
        "SECURE_PROXY_SSL_HEADER": None,
        "SECURE_SSL_REDIRECT": False,
        "SECURE_HSTS_SECONDS": 0,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
    }


def test_one_switch_makes_the_public_mode(tmp_path: Path) -> None:
    environ = PUBLIC | {"DJANGO_ALLOWED_HOSTS": " iki.example.org, www.iki.example.org ,"}
    assert settings_of(tmp_path, *_SECURITY, **environ) == {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["iki.example.org", "www.iki.example.org"],
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
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
    tmp_path: Path, environ: dict[str, str], says: str
) -> None:
    assert says in refused(tmp_path, **environ)


_BEHIND_THE_PROXY = """
import django
django.setup()
from django.test import Client
plain = Client().get("/", HTTP_HOST="iki.example.org")
health = Client().get("/healthz", HTTP_HOST="iki.example.org")
tls = Client().get("/", HTTP_HOST="iki.example.org", HTTP_X_FORWARDED_PROTO="https")
stranger = Client().get("/", HTTP_HOST="evil.example.com", HTTP_X_FORWARDED_PROTO="https")
print(plain.status_code, plain.get("Location"))
print(health.status_code)
print(tls.status_code, tls["Strict-Transport-Security"], tls.cookies["csrftoken"]["secure"])
print(stranger.status_code)
"""


_LIMITS = ("KEEP_DAYS", "CREATES_PER_MINUTE")


def test_retention_and_limits_are_off_on_a_lan_and_on_in_public(tmp_path: Path) -> None:
    assert settings_of(tmp_path, *_LIMITS) == {"KEEP_DAYS": 0, "CREATES_PER_MINUTE": 0}
    assert settings_of(tmp_path, *_LIMITS, **PUBLIC) == {"KEEP_DAYS": 400, "CREATES_PER_MINUTE": 20}
    chosen = {"DJANGO_KEEP_DAYS": "30", "DJANGO_CREATES_PER_MINUTE": "0"}
    assert settings_of(tmp_path, *_LIMITS, **PUBLIC, **chosen) == {"KEEP_DAYS": 30, "CREATES_PER_MINUTE": 0}


def test_public_mode_behind_a_tls_proxy(tmp_path: Path) -> None:
    done = run(tmp_path, "-c", _BEHIND_THE_PROXY, **PUBLIC)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "301 https://iki.example.org/",  # plain HTTP past the proxy is sent to HTTPS
        "200",  # the health check answers on plain HTTP
        "200 max-age=31536000; includeSubDomains True",
        "400",  # a host not named in DJANGO_ALLOWED_HOSTS
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("secure", [True, False])
def test_the_who_cookie_is_secure_with_the_other_cookies(client: Client, settings: Any, secure: bool) -> None:
    from companion.models.games import NewPlayer, create_game
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
