"""How a view answers, shared by every feature (a floor below the feature views, which import no other feature's
views): the whole page or, for htmx, one of its partials; a PDF to show; a POSTed JSON document answered by the
rules core (the API of both games).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from companion.errors import json_error
from scoring import InputError
from scoring.reading import read_json


def page_or_partial(
    request: HttpRequest,
    page: str,
    partial: str | None,
    context: Mapping[str, Any],
    *,
    status: int = 200,
) -> HttpResponse:
    """``page`` (a template), or for an htmx request (``request.htmx``, django-htmx) only its ``partial``
    (django-template-partials' ``page#partial``). ``partial=None``: the whole page either way (a page whose htmx
    requests want all of it, e.g. before its form is filled in). The answer varies on ``HX-Request``, so a browser
    never shows a partial it fetched for an address as that address's page (Back, a reload)."""
    htmx = bool(getattr(request, "htmx", False))
    template = f"{page}#{partial}" if htmx and partial else page
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def evaluated(request: HttpRequest, evaluate: Callable[[object], dict[str, Any]]) -> HttpResponse:
    """A POSTed JSON document answered by ``evaluate``: 200 valid, 422 with the rules' errors, 400 malformed
    (docs/api.md); any other method 405."""
    if request.method != "POST":
        response = json_error(405, "method-not-allowed", "POST a JSON document to this address.")
        response["Allow"] = "POST"
        return response
    try:
        answer = evaluate(read_json(request.body, "the body"))
    except InputError as exc:
        return JsonResponse({"error": exc.as_dict()}, status=400)
    return JsonResponse(
        answer, status=200 if answer["valid"] else 422, json_dumps_params={"ensure_ascii": False}
    )


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    """A PDF shown in the browser (inline), saved under ``filename`` when the user keeps it."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


__all__ = ["evaluated", "page_or_partial", "pdf_response"]
