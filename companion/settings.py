"""Settings of the IKI companion.

SQLite (``db.sqlite3`` beside ``manage.py``) is the embedded default; a shared deployment sets ``DATABASE_URL``
(for example ``postgres://iki:iki@127.0.0.1:5432/iki``). Debug pages are off unless ``DJANGO_DEBUG=1``
(players at the table should never see a traceback); server errors are logged to stderr. Set
``DJANGO_SECRET_KEY`` for a shared deployment.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = os.environ.get("DJANGO_DEBUG", "0") == "1"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-secret-key-not-for-a-shared-deployment")
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "*").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "companion",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "companion.middleware.GZipMiddleware",  # Django's, with the window sized to the body
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "companion.urls"
WSGI_APPLICATION = "companion.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
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

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = os.environ.get("DJANGO_STATIC_ROOT") or None  # only for `collectstatic` in a deployment
# WhiteNoise serves the static files with or without DEBUG, straight from the apps (no collectstatic step).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# A server error's traceback goes to stderr (gunicorn's error log, runserver's console); without this Django
# logs a 500 only to ADMINS by mail, that is nowhere. 4xx answers are not logged: hostile requests would flood it.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "stderr": {"format": "[{asctime}] [{process}] [{levelname}] {name}: {message}", "style": "{"}
    },
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "stderr"}},
    "loggers": {"django": {"handlers": ["stderr"], "level": "ERROR"}},
}
