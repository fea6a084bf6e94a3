"""What every walk-through view reads from its URL: the sheet of a token (its edit or view-only link), the step,
the shown player, the open groups; and where a step is."""

from __future__ import annotations

import re
from typing import Final, NoReturn
from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.urls import register_converter, reverse

from companion.errors import UserError
from companion.forms import whole_number
from companion.models.scoresheets import ScoreSheet
from companion.scorepad.steps import STEP_BY_SLUG, Step, steps_for
from companion.tokens import ANY_TOKEN_RE

VIEW_ONLY: Final = (
    "This is the view-only link of a score sheet: it shows the result but cannot change a score."
)
_GROUP_ID: Final = re.compile(r"^p\d-group-[a-z-]{1,30}$")


class TokenConverter:
    regex = ANY_TOKEN_RE.pattern

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "sheet")


class ViewOnly(PermissionDenied):
    """A view-only token was used where an entry is made or the entries are shown: 403, nothing written."""


def missing(token: str) -> Exception:
    """Why no sheet is edited with ``token``: its view-only token (403), or no sheet at all (404)."""
    if ScoreSheet.objects.filter(view_token=token).exists():
        return ViewOnly(VIEW_ONLY)
    return Http404("no such score sheet")


def edit_sheet(token: str) -> ScoreSheet:
    try:
        return ScoreSheet.objects.get(token=token)
    except ScoreSheet.DoesNotExist:
        raise missing(token) from None


def viewed_sheet(token: str) -> ScoreSheet:
    try:
        return ScoreSheet.objects.get(view_token=token)
    except ScoreSheet.DoesNotExist:
        raise Http404("no such score sheet") from None


def step_of(slug: str, akebono: bool) -> Step:
    step = STEP_BY_SLUG.get(slug)
    if step is None or step not in steps_for(akebono):
        raise Http404("no such step")
    return step


def player_of(raw: str | None) -> int | None:
    value = whole_number(raw or "")
    return value if value is not None and 0 <= value < 4 else None


def opened_of(raw: str) -> list[str]:
    """The folding groups a page had open (``open=``), kept open in what comes back."""
    return [g for g in raw.split()[:20] if _GROUP_ID.match(g)]


def step_url(sheet: ScoreSheet, step: Step, player: int = 0, **query: str) -> str:
    url = reverse("scorepad-step", args=[sheet.token, step.slug])
    params = {k: v for k, v in {"p": str(player) if player else "", **query}.items() if v}
    return f"{url}?{urlencode(params)}" if params else url


def error_page(request: HttpRequest, status: int, message: str) -> NoReturn:
    """Refuse with ``message`` and ``status``: handler400 answers the error page (companion/errors.py)."""
    raise UserError(message, status=status)
