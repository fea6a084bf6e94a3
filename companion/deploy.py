"""What ``companion/settings.py`` reads from the environment to serve a table safely (README, "Serving").

No secret is in the code: without ``DJANGO_SECRET_KEY`` the app makes a random key the first time it starts and
keeps it in a file beside the SQLite database. Values that would quietly weaken a deployment (a switch spelled
``true``, a public server answering any host) stop the start-up with :class:`ImproperlyConfigured`.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

SECRET_KEY_FILE = "secret-key"  # git-ignored; beside db.sqlite3 in a checkout


def flag(environ: Mapping[str, str], name: str) -> bool:
    """An on/off switch: ``1`` on; ``0``, empty or unset off; anything else refused (never silently off)."""
    value = environ.get(name, "").strip()
    if value not in {"", "0", "1"}:
        raise ImproperlyConfigured(f"{name} must be 1 (on) or 0 (off), not {value[:20]!r}.")
    return value == "1"


def whole(environ: Mapping[str, str], name: str, default: int) -> int:
    """A whole number of at least 0 (``DJANGO_KEEP_DAYS=400``); unset or empty: ``default``; anything else refused."""
    value = environ.get(name, "").strip()
    if not value:
        return default
    if not (value.isascii() and value.isdigit() and len(value) <= 6):
        raise ImproperlyConfigured(f"{name} must be a whole number of 0 or more, not {value[:20]!r}.")
    return int(value)


def names(environ: Mapping[str, str], name: str, default: str = "") -> list[str]:
    """A comma-separated list (``DJANGO_ALLOWED_HOSTS=iki.example.org,www.iki.example.org``), blanks dropped."""
    return [item.strip() for item in environ.get(name, default).split(",") if item.strip()]


def public_url(environ: Mapping[str, str], name: str) -> str:
    """An origin the phones open (``https://iki.example.org``, no trailing slash), or ``""`` when unset; a value
    that is not ``http(s)://host[:port]`` is refused at start-up, never built into links."""
    value = environ.get(name, "").strip().rstrip("/")
    if not value:
        return ""
    parts = urlsplit(value)
    if (
        parts.scheme not in {"http", "https"}
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
    ):
        raise ImproperlyConfigured(
            f"{name} must be the address the phones open, like https://iki.example.org, not {value[:60]!r}."
        )
    return value


def key_directory(database: Mapping[str, object], default: Path) -> Path:
    """Where the generated key lives: beside the SQLite database file, else (PostgreSQL, in-memory) ``default``."""
    name = str(database.get("NAME") or ":memory:")
    if database.get("ENGINE") == "django.db.backends.sqlite3" and not name.startswith((":", "file:")):
        return Path(name).resolve().parent
    return default


def secret_key(environ: Mapping[str, str], directory: Path) -> str:
    """``DJANGO_SECRET_KEY``, or the key kept in ``directory/secret-key``, made on the first start.

    The file is readable by its owner only. Processes starting together (gunicorn's workers) agree on one key:
    each writes a candidate to a temporary file and links it into place; the first link wins, the others read it.
    """
    given = environ.get("DJANGO_SECRET_KEY", "").strip()
    if given:
        return given
    path = directory / SECRET_KEY_FILE
    if not path.exists():
        try:
            _make_key(path)
        except OSError as exc:
            raise ImproperlyConfigured(
                f"Cannot keep a secret key in {path} ({exc.strerror or exc}): make {directory} writable by "
                "the server, or set DJANGO_SECRET_KEY."
            ) from exc
    key = path.read_text().strip()
    if len(key) < 50:
        raise ImproperlyConfigured(
            f"{path} holds no usable secret key (fewer than 50 characters): delete it to make a new one, "
            "or set DJANGO_SECRET_KEY."
        )
    return key


def _make_key(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, candidate = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")  # mode 0600
    try:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(50) + "\n")
        os.link(candidate, path)
    except FileExistsError:
        pass  # another process made it first
    finally:
        os.unlink(candidate)
