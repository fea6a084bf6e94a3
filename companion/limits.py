"""Limits for a public server (README, "Serving the public"; issue 24, "Retention and limits").

:class:`CreateLimit` counts the requests that create something (a game, a sheet, a group, a kept check, a
setup's ticks) per client address and minute, in the cache every app server shares (Django's database cache,
``CACHES``), and answers 429 with a page saying when to try again beyond ``DJANGO_CREATES_PER_MINUTE``. Off (0)
by default on a LAN, 20 in the public mode. The client's address is the proxy's ``X-Forwarded-For`` when the
request comes from a trusted proxy (``DJANGO_TRUSTED_PROXIES``, 127.0.0.1 and ::1 by default: the front server
on the same host), else the connection's own: a client cannot give itself a fresh address by sending the header.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Final

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

from companion.errors import answer

#: The views that create a row a stranger could repeat without end (their URL names).
CREATE_VIEWS: Final = frozenset(
    {
        "games-new",
        "scorepad-new",
        "group-new",
        "group-restore",
        "osaka-games-new",
        "check-keep",
        "check-2015-keep",
        "check-walk",  # a checked pad opened in the walk-through: a new score sheet
        "result-group",  # filed under a group's name: a new group
        "setup-ticks",
    }
)
WINDOW: Final = 60
"""Seconds: the limit is a number of creates a minute."""

log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str:
    """The client's address: the last hop of ``X-Forwarded-For`` when the connection is from a trusted proxy
    (the address the front server saw; Caddy replaces what the client sent), else the connection's address."""
    peer = str(request.META.get("REMOTE_ADDR") or "")
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
    if peer in settings.TRUSTED_PROXIES and forwarded:
        last = forwarded.split(",")[-1].strip()
        if last and len(last) <= 64:
            return last
    return peer


class CreateLimit:
    """At most ``settings.CREATES_PER_MINUTE`` creates per client address and minute (0: no limit)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> HttpResponse | None:
        limit: int = settings.CREATES_PER_MINUTE
        match = request.resolver_match
        if not limit or request.method != "POST" or match is None or match.url_name not in CREATE_VIEWS:
            return None
        minute = int(time.time() // WINDOW)
        key = f"creates:{client_address(request)}:{minute}"
        try:
            cache.add(key, 0, timeout=2 * WINDOW)
            count = cache.incr(key)
        except (
            DatabaseError,
            ValueError,
        ) as exc:  # no cache table yet (createcachetable), or the key expired
            log.warning("the create limit could not count (%s): request let through", type(exc).__name__)
            return None
        if count <= limit:
            return None
        wait = WINDOW - int(time.time()) % WINDOW
        response = answer(
            request,
            429,
            "too-many-creates",
            f"Too many new games, sheets or groups from your address in one minute (at most {limit}). "
            f"Nothing was created: wait {wait} seconds, then try again.",
        )
        response["Retry-After"] = str(wait)
        return response


__all__ = ["CREATE_VIEWS", "CreateLimit", "client_address"]
