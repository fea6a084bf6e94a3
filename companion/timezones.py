"""Times and dates in the phone's own time zone (Django's "Selecting the current time zone").

A log's "16:52" and a result's "14 Jan 2026" were the server's UTC: an hour off for a table in Paris, and a
Californian evening's game dated the next day. ``recent.js``, loaded on every page, keeps the phone's IANA zone
(``Intl.DateTimeFormat().resolvedOptions().timeZone``) in the :data:`COOKIE` cookie; this middleware makes it the
current time zone of the phone's requests, so that templates' ``time`` and ``date`` filters show its local time. A
phone without the cookie yet (its first page), or with one naming no zone, sees UTC (``settings.TIME_ZONE``): a
cookie is the phone's input, and a bad one is ignored, never a 500.
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "tz"
#: What an IANA zone's name looks like ("Europe/Paris", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT+5"):
#: anything else is not looked up (zoneinfo reads files by that name).
_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+){0,2}")


def zone_of(name: str) -> zoneinfo.ZoneInfo | None:
    """The time zone ``name`` names; None when it names none."""
    if len(name) > 64 or not _ZONE_NAME.fullmatch(name):
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


class PhoneTimeZone:
    """The :data:`COOKIE` zone made current for the request (the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = zone_of(request.COOKIES.get(COOKIE, ""))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        return self.get_response(request)
