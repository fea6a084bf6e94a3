"""The Traders of Osaka start page (``/osaka/``): the calculator, a tracked game, the tally sheet, the rules in brief."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_safe

from scoring.osaka.components import COPIES, END_TOKENS, ICONS, TOKENS_PER_COLOUR, VP_STEP


@require_safe
def osaka_home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "osaka_home.html",
        {
            "copies": COPIES.items(),
            "icons": ICONS.items(),
            "end_tokens": END_TOKENS,
            "vp_step": VP_STEP,
            "tokens_per_colour": TOKENS_PER_COLOUR,
        },
    )


urlpatterns = [path("osaka/", osaka_home, name="osaka")]
