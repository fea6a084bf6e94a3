"""The Content-Security-Policy every response carries (issue 24; README, "Serving the public"; docs/architecture.md).

Django 5.2 has no CSP of its own and the policy is one fixed string (no nonces, no per-view changes), so a few lines
here serve it rather than a dependency. The policy allows only this server's own files: no inline script or style,
no ``eval`` (htmx runs with ``allowEval`` off, so its ``js:`` values and trigger filters are not used anywhere),
images also as ``data:`` URLs, no framing. Links to other sites (BG Stats) are plain navigation, which CSP does
not restrict.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

HEADER = "Content-Security-Policy"
DIRECTIVES: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",  # QR codes
    "connect-src": "'self'",  # htmx requests, the live stream (/live/...), fetches
    "manifest-src": "'self'",
    "media-src": "'self'",  # a wake-lock fallback video
    "object-src": "'none'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
}
POLICY = "; ".join(f"{name} {sources}" for name, sources in DIRECTIVES.items())


class ContentSecurityPolicyMiddleware:
    """Adds :data:`POLICY` to every response that has none (the outermost middleware: even a Host check's 400 and
    WhiteNoise's static files carry it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.headers.setdefault(HEADER, POLICY)
        return response
