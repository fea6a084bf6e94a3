"""``/healthz``: the health check, and the floor the benchmarks compare a tap against.

A floor below the views: the first middleware (companion/middleware.py) answers it for any plausible host, and the
URL conf (companion/urls.py) routes it, so neither the middleware nor anything else below the URL conf imports a
view (tests/test_import_map.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_safe


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """A minimal view rendering a template: a health check, and the baseline the benchmarks compare against."""
    return render(request, "healthz.html", {"status": "ok"})


urlpatterns = [path("healthz", healthz, name="healthz")]
