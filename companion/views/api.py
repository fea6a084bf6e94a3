"""The JSON API, version 1 (docs/api.md). Bad input gets a 4xx with a message naming the field, never a 500."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from companion.views.errors import json_error
from scoring import InputError, evaluate
from scoring.errors import MalformedJSONError
from scoring.export import catalogue_json


def read_json_body(request: HttpRequest) -> object:
    """The decoded JSON body; raises :class:`MalformedJSONError` with a clear message."""
    try:
        return json.loads(request.body)
    except (ValueError, RecursionError) as exc:
        raise MalformedJSONError("", f"the body is not valid JSON ({exc})") from None


def evaluated(request: HttpRequest, evaluate: Callable[[object], dict[str, Any]]) -> HttpResponse:
    """A POSTed JSON document answered by ``evaluate``: 200 valid, 422 with the rules' errors, 400 malformed
    (docs/api.md); any other method 405."""
    if request.method != "POST":
        response = json_error(405, "method-not-allowed", "POST a JSON document to this address.")
        response["Allow"] = "POST"
        return response
    try:
        answer = evaluate(read_json_body(request))
    except InputError as exc:
        return JsonResponse({"error": exc.as_dict()}, status=400)
    return JsonResponse(
        answer, status=200 if answer["valid"] else 422, json_dumps_params={"ensure_ascii": False}
    )


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
