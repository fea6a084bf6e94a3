"""How a view answers, shared by every feature (a floor below the feature views, which import no other feature's
views): the whole page or, for htmx, one of its partials; a PDF to show.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


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
    requests want all of it, e.g. before its form is filled in)."""
    htmx = bool(getattr(request, "htmx", False))
    template = f"{page}#{partial}" if htmx and partial else page
    return render(request, template, context, status=status)


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    """A PDF shown in the browser (inline), saved under ``filename`` when the user keeps it."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


__all__ = ["page_or_partial", "pdf_response"]
