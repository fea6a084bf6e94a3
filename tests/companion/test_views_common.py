"""companion.views.is_htmx: django-htmx's ``bool(request.htmx)``, read from the environ."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django_htmx.middleware import HtmxMiddleware

from companion.views import is_htmx


@pytest.mark.parametrize("headers", [{}, {"HTTP_HX_REQUEST": "true"}, {"HTTP_HX_REQUEST": "false"},
                                     {"HTTP_HX_REQUEST": ""}, {"HTTP_HX_REQUEST": "TRUE"}])  # fmt: skip
def test_is_htmx_agrees_with_django_htmx(headers: dict[str, str]) -> None:
    seen: list[bool] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(bool(request.htmx))  # type: ignore[attr-defined]
        return HttpResponse()

    request = RequestFactory().post("/score/", **headers)  # type: ignore[arg-type]
    HtmxMiddleware(view)(request)
    assert seen == [is_htmx(request)]
