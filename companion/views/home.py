from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


urlpatterns = [path("", home, name="home")]


def healthz(request: HttpRequest) -> HttpResponse:
    """A minimal view rendering a template: a health check, and the baseline the benchmarks compare against."""
    return render(request, "healthz.html", {"status": "ok"})


urlpatterns += [path("healthz", healthz, name="healthz")]
