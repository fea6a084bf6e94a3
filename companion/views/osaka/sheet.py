"""The blank tally sheet to print: ``GET /osaka/sheet.pdf?size=a4|letter&players=2-4`` (companion/pdf/osaka_sheet.py).

Bad query values get a plain 400 naming them, never a 500. The filled sheet of a tracked game is served by the
tracker (companion/views/osaka/games.py).
"""

from __future__ import annotations

from functools import lru_cache

from django import forms
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_safe

from companion.errors import UserError
from companion.forms import ChoiceField, TypedChoiceField, messages_of
from companion.pdf.osaka_sheet import PAGE_SIZES, blank_sheet
from companion.views.answers import pdf_response
from scoring.osaka.components import MAX_PLAYERS, MIN_PLAYERS


class SheetForm(forms.Form):
    size = ChoiceField(choices=[(s, s) for s in PAGE_SIZES], required=False)
    players = TypedChoiceField(
        choices=[(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)], coerce=int, required=False
    )


@lru_cache(maxsize=len(PAGE_SIZES) * (MAX_PLAYERS - MIN_PLAYERS + 1))
def _blank(size: str, players: int) -> bytes:
    return blank_sheet(players=players, size=size)


@require_safe
def sheet(request: HttpRequest) -> HttpResponse:
    form = SheetForm(request.GET)
    if not form.is_valid():
        problems = " ".join(messages_of(form, named=True))
        raise UserError(f"No such tally sheet. {problems} Use size=a4 or letter and players=2, 3 or 4.")
    size = form.cleaned_data["size"] or "a4"
    players = form.cleaned_data["players"] or MAX_PLAYERS
    response = pdf_response(
        _blank(size, players), f"traders-of-osaka-tally-sheet-{players}-players-{size}.pdf"
    )
    response["Cache-Control"] = "public, max-age=86400"
    return response


urlpatterns = [path("osaka/sheet.pdf", sheet, name="osaka-sheet")]
