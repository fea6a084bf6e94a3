"""Settings of the IKI companion.

SQLite (``db.sqlite3`` beside ``manage.py``) is the embedded default; a shared deployment sets ``DATABASE_URL``
(for example ``postgres://iki:iki@127.0.0.1:5432/iki``). Debug pages are off unless ``DJANGO_DEBUG=1``
(players at the table should never see a traceback); server errors are logged to stderr.

Two ways to serve (README, "Serving"): at the table on a LAN (plain HTTP, any host name, the default), or public
behind a TLS proxy with ``DJANGO_HTTPS=1`` (HSTS, the HTTPS redirect, secure cookies; ``DJANGO_ALLOWED_HOSTS``
required). The secret key is ``DJANGO_SECRET_KEY`` or one made on the first start (``companion/deploy.py``).
"""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from companion import deploy

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = deploy.flag(os.environ, "DJANGO_DEBUG")
HTTPS = deploy.flag(os.environ, "DJANGO_HTTPS")  # public, behind a TLS proxy
# On a LAN the phones reach the app by whatever IP the laptop has today: any host name.
ALLOWED_HOSTS = deploy.names(os.environ, "DJANGO_ALLOWED_HOSTS", default="" if HTTPS else "*")
CSRF_TRUSTED_ORIGINS = deploy.names(os.environ, "DJANGO_CSRF_TRUSTED_ORIGINS")
# Share links and QR codes (companion/links.py): DJANGO_PUBLIC_URL, the public address the phones open, when set;
# else a page opened at localhost points the phones at this machine's LAN address among those the server listens
# on (DJANGO_TABLE_BIND, which `manage.py table` sets to its --bind).
PUBLIC_URL = deploy.public_url(os.environ, "DJANGO_PUBLIC_URL")
TABLE_BIND = os.environ.get("DJANGO_TABLE_BIND", "").strip() or "0.0.0.0"

if HTTPS:
    if not ALLOWED_HOSTS or "*" in ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "DJANGO_HTTPS=1 serves the public: set DJANGO_ALLOWED_HOSTS to the names the app is reached by "
            "(comma-separated, e.g. DJANGO_ALLOWED_HOSTS=iki.example.org), not '*'."
        )
    if DEBUG:
        raise ImproperlyConfigured("DJANGO_HTTPS=1 serves the public: debug pages (DJANGO_DEBUG=1) stay off.")
    # The proxy terminates TLS and says so in X-Forwarded-Proto; gunicorn listens on 127.0.0.1 only, so no one
    # else can send that header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the proxy's or a monitor's check, sent to gunicorn directly
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Asking browsers to preload the domain is its owner's commitment, not the app's.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
# Secure cookies in the public mode: CSRF's, and the app's own ("who" of companion/views/tracker/common.py).
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "companion",
]

MIDDLEWARE = [
    "companion.csp.ContentSecurityPolicyMiddleware",  # outermost: every response carries the policy
    "companion.middleware.HostCheckMiddleware",  # first: a Host that is no host name never reaches a view
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "companion.timezones.PhoneTimeZone",  # times and dates in the phone's time zone
    "companion.limits.CreateLimit",
    "companion.middleware.NotAllowedPage",  # innermost: a view's bare 405 becomes the error page
]

ROOT_URLCONF = "companion.urls"
# A CSRF refusal answers with the app's own 403 page: Django's default one carries an inline <style>, which the
# Content-Security-Policy (companion/csp.py) blocks.
CSRF_FAILURE_VIEW = "companion.views.errors.forbidden"
WSGI_APPLICATION = "companion.wsgi.application"
ASGI_APPLICATION = "companion.asgi.application"  # what `manage.py table` serves

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Partials (``name#partial``) over Django's cached loader, whose templates compile once per process
            # with their indentation squeezed out (companion/templating.py): the bytes sent stay as small as the
            # compact templates' were.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "companion.templating.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "companion.links.context",
            ],
        },
    }
]

_SQLITE_OPTIONS = {
    # Two phones tapping at once: writers queue instead of failing with "database is locked".
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Connections persist (CONN_MAX_AGE) on SQLite too, so the pragmas above run once per server thread, not on
    # every request: opening a connection costs several times a poll's query.
    DATABASES["default"].setdefault("OPTIONS", {}).update(_SQLITE_OPTIONS)
    # The tests' database is a file too, not Django's shared-cache memory database: a live server's threads and a
    # test's own writes then meet WAL and the timeout above, as a served table does, instead of failing at once
    # with "database table is locked". One file per process (pytest-django adds each xdist worker's suffix).
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(Path(tempfile.gettempdir()) / f"iki-tests-{os.getpid()}.sqlite3")
    )

# No key in the code: DJANGO_SECRET_KEY, or one made on the first start and kept beside the SQLite database.
SECRET_KEY = deploy.secret_key(os.environ, deploy.key_directory(DATABASES["default"], BASE_DIR))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
# `manage.py collectstatic` (the README's first command, .ci/test) writes hashed, pre-compressed copies here; WhiteNoise
# serves them gzipped with a year's caching (their names change with their content). Before collectstatic has run
# (a fresh checkout's `pytest`), the same files are served from the apps under their plain names.
STATIC_ROOT = os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "companion.storage.StaticFilesStorage"},
}
WHITENOISE_MANIFEST_STRICT = False
# Before collectstatic has run there is no STATIC_ROOT yet, and the files are served from the apps: not a problem to
# warn about on every start (companion/storage.py).
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)  # WhiteNoise's
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# Retention and limits (README, "Serving the public"): off on a LAN, on in the public mode. KEEP_DAYS: what no one
# has changed for this many days is deleted by `manage.py purge` (0 keeps everything). CREATES_PER_MINUTE: new
# games, sheets and groups per client address a minute (0: no limit; companion/limits.py), counted in the
# database cache every app server shares (`manage.py createcachetable` makes its table). TRUSTED_PROXIES: the
# addresses whose X-Forwarded-For names the client (the front server on this host).
KEEP_DAYS = deploy.whole(os.environ, "DJANGO_KEEP_DAYS", 400 if HTTPS else 0)
CREATES_PER_MINUTE = deploy.whole(os.environ, "DJANGO_CREATES_PER_MINUTE", 20 if HTTPS else 0)
TRUSTED_PROXIES = frozenset(deploy.names(os.environ, "DJANGO_TRUSTED_PROXIES", default="127.0.0.1,::1"))
CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "iki_cache"}}

# The log (companion/logs.py; README, "Serving the public"): stderr, that is gunicorn's error log or the console.
# A server error: one record, with its traceback. What any client can cause by asking (a 4xx, a HEAD, a refused
# Host, a malformed request) is demoted to INFO, below the default threshold (DJANGO_LOG_LEVEL, WARNING). At most
# 5 records a second per process after a burst of 20, so a hostile client cannot fill the disk; tokens (edit links,
# a player's own link) are replaced by <token> in every line and traceback. The app servers' own loggers
# (uvicorn's, gunicorn's in a worker) go through the same handler.
_LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "WARNING")
_THROUGH_US = {"handlers": ["stderr"], "level": "INFO", "propagate": False}
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "stderr": {"format": "[{asctime}] [{process}] [{levelname}] {name}: {message}", "style": "{"}
    },
    "filters": {
        "quiet": {"()": "companion.logs.Quiet", "level": _LOG_LEVEL},
        "rate": {"()": "companion.logs.RateLimit"},
        "scrub": {"()": "companion.logs.Scrub"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "stderr",
            "filters": ["quiet", "rate", "scrub"],
        }
    },
    "root": {"handlers": ["stderr"], "level": "INFO"},
    "loggers": dict.fromkeys(
        ("django", "uvicorn", "uvicorn.error", "uvicorn.access", "gunicorn.error", "gunicorn.access"),
        _THROUGH_US,
    ),
}
