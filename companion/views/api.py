"""The JSON API, version 1 (docs/api.md). Bad input gets a 4xx with a message naming the field, never a 500."""

from __future__ import annotations

import json
from functools import cache

from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from companion.views.answers import evaluated
from scoring import evaluate
from scoring.export import catalogue_json


@csrf_exempt
def score(request: HttpRequest) -> HttpResponse:
    """``POST /api/v1/score``: 200 scored, 422 with the rules' errors, 400 for malformed input."""
    return evaluated(request, evaluate)


@cache
def _catalogue_bytes() -> bytes:
    return json.dumps(catalogue_json(), ensure_ascii=False).encode()


@require_safe
def catalogue(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/catalogue``: every component with its id, name, kind, season/month, type and scoring."""
    response = HttpResponse(_catalogue_bytes(), content_type="application/json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


urlpatterns = [
    path("api/v1/score", score, name="api-score"),
    path("api/v1/catalogue", catalogue, name="api-catalogue"),
]
