"""The Traders of Osaka JSON API (docs/api.md "Traders of Osaka"): 200 valid, 422 against the rules, 400 malformed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from companion.views.answers import evaluated
from scoring.osaka import evaluate_payday, evaluate_ranking


@csrf_exempt
def payday(request: HttpRequest) -> HttpResponse:
    """``POST /api/v1/osaka/payday``: each player's VP cards, tokens gained and goods lost, and the end."""
    return evaluated(request, evaluate_payday)


@csrf_exempt
def ranking(request: HttpRequest) -> HttpResponse:
    """``POST /api/v1/osaka/ranking``: each player's rank, with the tie-break in words (RULINGS O5)."""
    return evaluated(request, evaluate_ranking)


urlpatterns = [
    path("api/v1/osaka/payday", payday, name="api-osaka-payday"),
    path("api/v1/osaka/ranking", ranking, name="api-osaka-ranking"),
]
