"""The one error a person's request can meet: :class:`UserError`, a sentence to read and the answer's status.

Views and services raise it; Django hands it to ``handler400`` (``companion/urls.py``,
``companion.views.errors.bad_request``), which answers with its status: the error page (``templates/error.html``),
or JSON under ``/api/`` (:func:`answer`, :func:`json_error`, here a floor below the views so that the create limit
answers alike). Raised inside a transaction it rolls it back, so nothing is saved. The rules core keeps
its own ``scoring.errors.InputError`` (no Django there).
"""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


class UserError(BadRequest):
    """What was asked cannot be done. ``message`` is the sentence the person reads (plain English, ending with a
    full stop); ``status`` the answer's code: 400 (bad input, refused by the rules), 403 (a view-only link), 404
    (no such thing), 409 (changed meanwhile). ``field`` names the input at fault and ``code`` is the API's stable
    error code, where an API answers it."""

    def __init__(self, message: str, *, status: int = 400, field: str = "", code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.code = code

    def __str__(self) -> str:
        return self.message


class Refused(UserError):
    """A write the rules or the form do not allow (400); the message is for a person. Nothing was saved."""


CHANGED_FIRST = "Someone changed the game first; here it is as it is now. Nothing was saved."
"""What a write sent from an older version answers (:class:`Conflict`): the tracker's and Traders of Osaka's."""


class Conflict(UserError):
    """The phone saw an older version: someone changed the thing first (409). Nothing was saved; the answer shows
    the thing as it is now, read again."""

    def __init__(self, message: str = CHANGED_FIRST) -> None:
        super().__init__(message, status=409)


def json_error(status: int, code: str, message: str, field: str = "") -> JsonResponse:
    """An error as the API answers it: ``{"error": {"code", "field", "message"}}``."""
    return JsonResponse({"error": {"code": code, "field": field, "message": message}}, status=status)


def answer(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    """An error's answer: JSON under ``/api/``, else the error page (``templates/error.html``) saying ``message``.
    The handlers (``companion.views.errors``) and the create limit (``companion.limits``, a middleware) answer
    with it; a view raises :class:`UserError` instead."""
    if request.path.startswith("/api/"):
        return json_error(status, code, message)
    return render(request, "error.html", {"status": status, "message": message}, status=status)


__all__ = ["UserError", "answer", "json_error"]
