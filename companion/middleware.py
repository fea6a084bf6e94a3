"""The first middleware: a request's ``Host`` must look like a host name before anything else reads it (issue 24).
And the last: a 405 with no body gets the error page (:class:`NotAllowedPage`).

On a LAN the app answers any host name (the phones reach the laptop by whatever address it has today), so the
``Host`` header ends up in every share link and QR code. A header that is not a plausible ``host[:port]`` (a name
of at most 253 characters in labels of at most 63, an IPv4 address, or an IPv6 address in brackets; a port of
1-65535) gets a 400 here, before any view runs. ``/healthz`` is answered here too, for any plausible host, even
one not in ``DJANGO_ALLOWED_HOSTS``: a monitor can then check the server by its address in the public mode.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.cache import add_never_cache_headers

from companion.errors import answer
from companion.health import healthz

MAX_HOST = 253  # a DNS name's longest text form
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)", re.IGNORECASE)
_HOST_PORT = re.compile(r"(?P<host>\[[0-9a-f:.]+\]|[^:\[\]]+)(?::(?P<port>[0-9]{1,5}))?", re.IGNORECASE)
NOT_A_HOST = "This request's Host header is not a host name. Open the app by its address, e.g. http://192.168.1.20:8000/."


def plausible_host(value: str) -> bool:
    """``host[:port]`` with a host name, an IPv4 address or a bracketed IPv6 address (a trailing dot allowed)."""
    match = _HOST_PORT.fullmatch(value)
    if match is None:
        return False
    host, port = match["host"], match["port"]
    if port is not None and not 0 < int(port) < 65536:
        return False
    if host.startswith("["):
        try:
            return ipaddress.ip_address(host[1:-1]).version == 6
        except ValueError:
            return False
    name = host[:-1] if host.endswith(".") else host
    return 0 < len(name) <= MAX_HOST and all(_LABEL.fullmatch(label) for label in name.split("."))


class HostCheckMiddleware:
    """400 for an implausible ``Host``; ``/healthz`` answered for any plausible one (module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        host = request.META.get("HTTP_HOST") or request.META.get("SERVER_NAME", "")
        if not plausible_host(host):
            return HttpResponseBadRequest(NOT_A_HOST, content_type="text/plain; charset=utf-8")
        if request.path_info == "/healthz" and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)


NOT_ALLOWED = "This address only takes what its page sends when you tap. Go back to the page and tap again."


class NotAllowedPage:
    """Django's ``require_POST`` and ``require_safe`` answer a wrong method with a 405 and no body: a phone that
    opened a form's address (the page of a refused tap reloaded, or its address copied and shared) saw a blank
    screen. It gets the error page (JSON under ``/api/``) saying what to do, with the same ``Allow``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.streaming or response.content or request.method == "HEAD":
            return response
        page = answer(request, 405, "method-not-allowed", NOT_ALLOWED)
        page["Allow"] = response["Allow"]
        add_never_cache_headers(page)
        return page
