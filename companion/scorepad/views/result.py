"""The result and the filled pad, through the table's link or the sheet's view-only link (which never leads to a
write)."""

from __future__ import annotations

from typing import Any, Final

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_safe

from companion.links import shared
from companion.live.engine import Pieces, is_live, pull_response
from companion.live.query import pulled_version
from companion.models.results import Result
from companion.models.scoresheets import ScoreSheet
from companion.scorepad import services
from companion.scorepad.problems import Problems, Shown
from companion.scorepad.steps import STEP_BY_SLUG, steps_for
from companion.scorepad.views.sheets import (
    edit_sheet,
    error_page,
    step_url,
    viewed_sheet,
)
from companion.services.results import record_result

PAD_SIZES: Final = {"a4": "A4", "letter": "letter"}


def _result_context(request: HttpRequest, sheet: ScoreSheet, *, can_edit: bool) -> dict[str, Any]:
    """The ranking and each line's explanation, or what the rules still refuse; with ``can_edit`` the problems
    link to their entries and the view-only link is offered with its QR code."""
    outcome = services.result_of(sheet=sheet)
    steps = steps_for(sheet.akebono)
    problems = Problems(outcome.report, sheet.table["players"], (s.slug for s in steps))

    def problem(s: Shown) -> dict[str, str]:
        step = STEP_BY_SLUG[s.step]
        url = f"{step_url(sheet, step, s.player or 0)}#{s.anchor}" if can_edit else ""
        return {"message": s.message, "url": url, "step": step.title}

    pad = (
        reverse("scorepad-pdf", args=[sheet.token])
        if can_edit
        else reverse("scorepad-view-pdf", args=[sheet.view_token])
    )
    view = shared(request, sheet.view_url())
    kept = (
        Result.objects.filter(sheet=sheet, removed=False).select_related("group").first()
        if can_edit
        else None
    )
    return {
        "sheet": sheet,
        "can_edit": can_edit,
        "valid": outcome.report.valid,
        "fixes": [problem(s) for s in problems.all if s.error],
        "warnings": [problem(s) for s in problems.all if not s.error and not s.problem.incomplete],
        "missing": [problem(s) for s in problems.all if s.problem.incomplete],
        "ranking": outcome.ranking,
        "tie_breaks": outcome.tie_breaks,
        "first_step": step_url(sheet, steps[0]) if can_edit else "",
        # The evening's next game goes to the group this one is kept in (its edit link, on the edit link only).
        "another": reverse("scorepad-new")
        + (f"?group={kept.group.token}" if kept is not None and kept.group is not None else ""),
        "pad_a4": pad + "?size=a4",
        "pad_letter": pad + "?size=letter",
        "view_url": view.url,
        "view_qr": view.qr if can_edit and outcome.report.valid else "",
    }


@require_safe
def result(request: HttpRequest, token: str) -> HttpResponse:
    """The result page of the table's own (edit) link. A sheet with no error is kept as a result (issue 14),
    updated when it changed since."""
    sheet = edit_sheet(token)
    record_result(sheet=sheet)
    return _result_page(request, sheet, can_edit=True)


@require_safe
def sheet_view(request: HttpRequest, token: str) -> HttpResponse:
    """``/score/view/<token>/``: the view-only link: the result and the PDF, no link to an entry."""
    return _result_page(request, viewed_sheet(token), can_edit=False)


def _result_page(request: HttpRequest, sheet: ScoreSheet, *, can_edit: bool) -> HttpResponse:
    """The result page, or for a live pull (the page follows the sheet) the result piece when it changed."""
    if not is_live(request):
        return render(request, "scorepad_result.html", _result_context(request, sheet, can_edit=can_edit))
    if pulled_version(request) == sheet.version:
        response = HttpResponse(status=204)
        add_never_cache_headers(response)
        return response
    pieces = Pieces()
    context = {**_result_context(request, sheet, can_edit=can_edit), "live_pieces": pieces}
    get_template("scorepad_result.html#result").render(context, request)
    return pull_response(request, f"sheet:{sheet.pk}", pieces, sheet.version)


def _pad_response(request: HttpRequest, sheet: ScoreSheet) -> HttpResponse:
    """The filled score pad of a scored sheet (A4 or Letter), 409 while the rules refuse an entry."""
    size = PAD_SIZES.get(request.GET.get("size", "a4").lower())
    if size is None:
        return error_page(request, 400, "The score pad comes in size=a4 or size=letter.")
    outcome = services.result_of(sheet=sheet)
    if not outcome.report.valid:
        message = "This game still has entries the rules refuse: fix them first (see the result page)."
        return error_page(request, 409, message)
    response = HttpResponse(
        services.pad_pdf(sheet=sheet, result=outcome, pagesize=size), content_type="application/pdf"
    )
    response["Content-Disposition"] = f'inline; filename="{services.pad_filename(sheet.names)}"'
    return response


@require_safe
def pad_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _pad_response(request, edit_sheet(token))


@require_safe
def view_pad_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _pad_response(request, viewed_sheet(token))
