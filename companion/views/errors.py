"""Error answers: JSON under /api/, a friendly page elsewhere. Nothing the user sends may produce a 500 page.

The handlers of ``companion/urls.py``. A view or service refuses a request by raising
:class:`companion.errors.UserError` (or Django's ``PermissionDenied`` with the sentence to show, or ``Http404``):
no view renders ``error.html`` itself.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers

from companion.errors import UserError, answer, json_error


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400, or a :class:`UserError`'s own status and sentence (never stored by a cache: it answers this moment)."""
    if isinstance(exception, UserError):
        if request.path.startswith("/api/"):
            response: HttpResponse = json_error(
                exception.status, exception.code, exception.message, exception.field
            )
        else:
            response = answer(request, exception.status, exception.code, exception.message)
        add_never_cache_headers(response)
        return response
    return answer(request, 400, "bad-request", "The request could not be understood.")


def forbidden(request: HttpRequest, exception: Exception | None = None, reason: str = "") -> HttpResponse:
    """403. A ``PermissionDenied`` raised by our views carries the sentence to show (e.g. a view-only link)."""
    message = str(exception) if isinstance(exception, PermissionDenied) and exception.args else ""
    return answer(
        request, 403, "forbidden", message or "This page refused the request. Reload the page and try again."
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return answer(request, 404, "not-found", "There is nothing at this address.")


def server_error(request: HttpRequest) -> HttpResponse:
    return answer(
        request, 500, "server-error", "Something went wrong on our side; nothing you saved is lost."
    )
