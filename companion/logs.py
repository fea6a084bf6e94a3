"""What the server writes to its log (``LOGGING`` in companion/settings.py; README, "Serving the public").

Three filters on the one stderr handler, in this order:

- :class:`Quiet`: what a stranger can cause by asking is not worth a warning. A 4xx answer, a HEAD request, a
  refused Host header or CSRF token, a malformed HTTP request: demoted to INFO; then only records at the
  threshold (``DJANGO_LOG_LEVEL``, WARNING by default) pass. A 5xx stays an ERROR: one record, with its traceback.
- :class:`RateLimit`: at most :data:`LINES_PER_SECOND` records a second per process, after a burst of
  :data:`BURST`; the next record that passes says how many were dropped. A hostile client cannot fill the disk.
- :class:`Scrub`: no line holds an edit token or a player's own link. Anything shaped like a token (a path
  segment, a query value, a quoted string, or a bare word with a digit, of 22-64 URL-safe characters:
  :data:`companion.tokens.TOKEN_RE`) becomes ``<token>``, in the message and in the traceback.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Final

LINES_PER_SECOND: Final = 5.0
"""How many records a second one process writes, at most, once its burst is spent."""
BURST: Final = 20
"""How many records may come at once (a server error's record and what surrounds it) before the rate applies."""
HIDDEN: Final = "<token>"

# Same alphabet and length as companion.tokens.TOKEN_RE, ending where the run ends (not a file name's stem).
_BODY: Final = r"[A-Za-z0-9_-]{22,64}(?![A-Za-z0-9_-])(?!\.[A-Za-z])"
#: A word standing alone.
_TOKEN: Final = re.compile(r"(?<![A-Za-z0-9_.-])" + _BODY)
#: Where a token is certainly a token: after / or = (a link's path or query), or in quotes.
_PLACED: Final = re.compile(r"(?<=[/='\"])" + _BODY)


#: A long word a traceback names and a token almost never is: snake_case (or kebab-case), CONSTANT_CASE or CamelCase. A random
#: token of 22 characters takes one of these shapes about once in 300,000 (it mixes cases, digits, - and _ freely);
#: a digit alone proves nothing ("hreaX_OK_bwQXIfbEjXkEeQA" has none).
_IDENTIFIER: Final = re.compile(
    r"_*[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+|_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|(?:[A-Z][a-z]{2,})+"
)


def scrub(text: str) -> str:
    """``text`` with every token-looking word replaced by ``<token>``: in a link (after ``/`` or ``=``) or quotes,
    any; elsewhere, any but a long identifier of a traceback (:data:`_IDENTIFIER`), which stays readable."""
    text = _PLACED.sub(HIDDEN, text)
    return _TOKEN.sub(lambda m: m[0] if _IDENTIFIER.fullmatch(m[0]) else HIDDEN, text)


def _is_stranger_made(record: logging.LogRecord) -> bool:
    """A record any client can cause by asking: a 4xx, a HEAD, a refused request or a malformed one."""
    status = getattr(record, "status_code", None)
    if isinstance(status, int) and status < 500:
        return True
    if record.name.startswith("django.security."):  # DisallowedHost, a refused CSRF token...: answered 4xx
        return True
    if record.name in ("uvicorn.access", "gunicorn.access"):
        return True
    message = record.getMessage()
    return record.name in ("uvicorn.error", "gunicorn.error") and (
        message.startswith(("Invalid HTTP request", "Invalid request")) or "HEAD " in message
    )


class Quiet(logging.Filter):
    """Demotes what a stranger can cause to INFO, then passes only records at ``level`` or above."""

    def __init__(self, level: str = "WARNING") -> None:
        super().__init__()
        number = logging.getLevelName(level.upper())  # a name's number, else a string saying "Level ..."
        if not isinstance(number, int):
            raise ValueError(f"DJANGO_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        self.level = number

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO and _is_stranger_made(record):
            record.levelno, record.levelname = logging.INFO, "INFO"
        return record.levelno >= self.level


class RateLimit(logging.Filter):
    """A token bucket: :data:`BURST` records at once, then :data:`LINES_PER_SECOND`; counts what it drops."""

    def __init__(
        self, rate: float = LINES_PER_SECOND, burst: int = BURST, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.rate, self.burst, self.clock = rate, burst, clock
        self.allowance = float(burst)
        self.last = clock()
        self.dropped = 0
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        with self.lock:
            now = self.clock()
            self.allowance = min(self.burst, self.allowance + (now - self.last) * self.rate)
            self.last = now
            if self.allowance < 1:
                self.dropped += 1
                return False
            self.allowance -= 1
            dropped, self.dropped = self.dropped, 0
        if dropped:
            record.msg = f"[{dropped} earlier lines not logged: more than {self.rate:g} a second] {record.getMessage()}"
            record.args = None
        return True


class Scrub(logging.Filter):
    """Replaces every token-looking word of the message and of the traceback by ``<token>`` (:func:`scrub`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = scrub(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        return True


__all__ = ["BURST", "LINES_PER_SECOND", "Quiet", "RateLimit", "Scrub", "scrub"]
