from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import path
from django.views.decorators.http import require_safe


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


urlpatterns = [path("", home, name="home")]


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """A minimal view rendering a template: a health check, and the baseline the benchmarks compare against."""
    return render(request, "healthz.html", {"status": "ok"})


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, asked for by browsers and link previews whatever the page says: the icon of
    ``base.html``'s ``<link rel="icon">``, an SVG (every current phone browser draws one)."""
    response = HttpResponsePermanentRedirect(static("companion/favicon.svg"))
    response["Cache-Control"] = "public, max-age=86400"
    return response


urlpatterns += [path("healthz", healthz, name="healthz"), path("favicon.ico", favicon, name="favicon")]
