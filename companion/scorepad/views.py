"""The walk-through's views: each parses, calls a service or the presenter, renders (issue 12).

``/score/`` starts a sheet; ``/score/<token>/<step>/?p=<player>`` shows one step for one player (``?v=N``: 204
while the sheet is still at version N, the phones' poll); ``.../entry/`` takes an entry (htmx: only the pieces it
changed, or the whole step when the page was behind; without JavaScript: a redirect back to the entry); the
result and the filled pad, also through the sheet's view-only link, which never leads to a write.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.template.loader import get_template
from django.urls import path, register_converter, reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, HttpResponseLocation, reswap

from companion.forms import ScoreStartForm, whole_number
from companion.links import shared
from companion.models.scoresheets import NAME_MAX, ScoreSheet
from companion.scorepad import services
from companion.scorepad.entries import BadEntry, Change, entries_of, parse_entries
from companion.scorepad.presenter import (
    STEP_BY_SLUG,
    STEPS,
    TYPE_CHOICES,
    Problems,
    Shown,
    Step,
    StepView,
    group_of,
    steps_for,
)
from companion.scorepad.reply import pieces_for
from companion.scorepad.services import SheetBusy, SheetError
from companion.services.results import record_result
from companion.views.checks import group_context
from companion.views.setup import setup_names
from scoring import catalogue as cat
from scoring.components import SEASONS, Expansion
from setupgen import CODE_MAX

VIEW_ONLY: Final = (
    "This is the view-only link of a score sheet: it shows the result but cannot change a score."
)
BUSY: Final = "Other phones kept changing this sheet at the same moment; make the entry again."
PAD_SIZES: Final = {"a4": "A4", "letter": "letter"}
#: How often a step asks whether another phone wrote (issue 12: each phone sees the others' entries within 2 s).
POLL_MS: Final = 1000
_GROUP_ID: Final = re.compile(r"^p\d-group-[a-z-]{1,30}$")


class TokenConverter:
    regex = r"[A-Za-z0-9_-]{16,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "sheet")


class ViewOnly(PermissionDenied):
    """A view-only token was used where an entry is made or the entries are shown: 403, nothing written."""


def _missing(token: str) -> Exception:
    """Why no sheet is edited with ``token``: its view-only token (403), or no sheet at all (404)."""
    if ScoreSheet.objects.filter(view_token=token).exists():
        return ViewOnly(VIEW_ONLY)
    return Http404("no such score sheet")


def _sheet(token: str) -> ScoreSheet:
    try:
        return ScoreSheet.objects.get(token=token)
    except ScoreSheet.DoesNotExist:
        raise _missing(token) from None


def _viewed_sheet(token: str) -> ScoreSheet:
    try:
        return ScoreSheet.objects.get(view_token=token)
    except ScoreSheet.DoesNotExist:
        raise Http404("no such score sheet") from None


def _step(slug: str, akebono: bool) -> Step:
    step = STEP_BY_SLUG.get(slug)
    if step is None or step not in steps_for(akebono):
        raise Http404("no such step")
    return step


def _player(raw: str | None) -> int | None:
    value = whole_number(raw or "")
    return value if value is not None and 0 <= value < 4 else None


def _opened(raw: str) -> list[str]:
    """The folding groups a page had open (``open=``), kept open in what comes back."""
    return [g for g in raw.split()[:20] if _GROUP_ID.match(g)]


def _as_read(sheet: ScoreSheet) -> ScoreSheet:
    """The sheet as read, kept apart from the entry's changes: only what they change (the table, the stack) is
    copied, not the model instance and its state."""
    before = copy.copy(sheet)
    before.table, before.stack = copy.deepcopy(sheet.table), dict(sheet.stack)
    return before


def step_url(sheet: ScoreSheet, step: Step, player: int = 0, **query: str) -> str:
    url = reverse("scorepad-step", args=[sheet.token, step.slug])
    params = {k: v for k, v in {"p": str(player) if player else "", **query}.items() if v}
    return f"{url}?{urlencode(params)}" if params else url


def _render_step(request: HttpRequest, view: StepView, status: int = 200) -> HttpResponse:
    ahead, behind = view.neighbour("next"), view.neighbour("prev")
    context = {
        "view": view,
        "types": TYPE_CHOICES,
        "poll_ms": POLL_MS,
        "forward": f"Next: {_title(view, ahead)}" if ahead else "See the result",
        "back": "Back" if behind else "",
        "last": ahead is None,
    }
    template = "scorepad_step.html#step" if request.htmx else "scorepad_step.html"
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _title(view: StepView, there: tuple[Step, int]) -> str:
    """What Next shows: the next player's name on this line, or the next line's title."""
    step, player = there
    return step.title if step is not view.step else str(view.players[player]["name"])


def _pieces(before: StepView, after: StepView, changes: list[Change], refused: bool) -> HttpResponse:
    base = {"view": after, "types": TYPE_CHOICES, "oob": True}
    body = "".join(
        get_template(f"scorepad_step.html#{name}").render({**base, **extra})
        for name, extra in pieces_for(before, after, changes, refused=refused)
    )
    return reswap(HttpResponse(body), "none")


# --- views -------------------------------------------------------------------------------------------------------


@require_safe
def sheet_start(request: HttpRequest, token: str) -> HttpResponse:
    return HttpResponseRedirect(step_url(_sheet(token), STEPS[0]))


@require_safe
def step(request: HttpRequest, token: str, slug: str) -> HttpResponse:
    """A step for one player (``?p=``); ``?v=N``, the poll: 204 while the sheet is at version N."""
    if (raw := request.GET.get("v")) is not None:
        seen = whole_number(raw)
        if seen is None:
            return _error_page(request, 400, "The version (?v=) must be a whole number.")
        if ScoreSheet.objects.filter(token=token, version=seen).exists():
            response = HttpResponse(status=204)
            response["Cache-Control"] = "no-store"
            return response
    sheet = _sheet(token)
    view = StepView(
        sheet,
        _step(slug, sheet.akebono),
        _player(request.GET.get("p")) or 0,
        _opened(request.GET.get("open", "")),
    )
    return _render_step(request, view)


@require_POST
def entry(request: HttpRequest, token: str, slug: str) -> HttpResponse:
    """An entry (or Next, Back, the result): read against the fresh sheet, saved with a version-checked write."""
    post = {k: request.POST.get(k, "") for k in request.POST}
    made: list[Change] = []
    read: list[ScoreSheet] = []

    def changes(sheet: ScoreSheet) -> list[Change]:
        _step(slug, sheet.akebono)
        made[:] = parse_entries(post, sheet.names)  # again if another phone wrote meanwhile
        read[:] = [_as_read(sheet)]
        return made

    shown, opened = _player(post.get("p")), _opened(post.get("open", ""))
    try:
        sheet = services.record_entries(token=token, changes=changes)
    except ScoreSheet.DoesNotExist:
        raise _missing(token) from None
    except (SheetBusy, BadEntry) as exc:
        bad, status = (BUSY, 409) if isinstance(exc, SheetBusy) else (str(exc), 400)
        sheet = _sheet(token)
        return _render_step(
            request, StepView(sheet, _step(slug, sheet.akebono), shown or 0, opened, bad), status
        )
    player = shown if shown is not None else (made[0].player if made else 0)
    view = StepView(sheet, _step(slug, sheet.akebono), player, opened)
    if post.get("go") in ("next", "prev", "result"):
        return _go(request, view, post["go"], _kept(post))
    if request.htmx and made and post.get("v") == str(read[0].version):
        # The page showed the sheet just before these changes: only what they changed.
        before = StepView(read[0], view.step, player, opened)
        return _pieces(before, view, made, refused=bool(post.get("refused")))
    if request.htmx:
        return _render_step(request, view)
    return _back_to_entry(view, made, opened, _kept(post))


def _kept(post: Mapping[str, str]) -> dict[str, str]:
    """What a step opened from the pad check carries from page to page: the line in doubt and whose it is
    (``?target=variety:12&who=Anaïs``, shown by the ``check_target`` tag, which checks them)."""
    return {key: post[key][:40] for key in ("target", "who") if post.get(key)}


def _carry(url: str, kept: Mapping[str, str]) -> str:
    """``url`` with what a step carries from page to page (:func:`_kept`) added to its query."""
    return f"{url}{'&' if '?' in url else '?'}{urlencode(kept)}" if kept else url


def _go(request: HttpRequest, view: StepView, go: str, kept: Mapping[str, str]) -> HttpResponse:
    """Next and Back go player by player, then step by step; past the last, or "result", the result."""
    there = view.neighbour(go) if go != "result" else None
    if there is None and go == "prev":
        there = (view.step, view.player)
    target = (
        _carry(step_url(view.sheet, *there), kept)
        if there
        else reverse("scorepad-result", args=[view.sheet.token])
    )
    if request.htmx and there:
        return HttpResponseLocation(target, target="#step", swap="outerHTML")
    return HttpResponseClientRedirect(target) if request.htmx else HttpResponseRedirect(target)


def _back_to_entry(
    view: StepView, made: list[Change], opened: list[str], kept: Mapping[str, str]
) -> HttpResponse:
    """Without JavaScript: the same step again, the tapped card's group open, scrolled to the entry."""
    keys = entries_of(made)
    groups = [g for k in keys if (g := group_of(k))]
    url = step_url(view.sheet, view.step, view.player, open=" ".join(dict.fromkeys([*opened, *groups])))
    url = _carry(url, kept)
    return HttpResponseRedirect(f"{url}#{keys[-1].html_id}" if keys else url)


# --- the result and the pad --------------------------------------------------------------------------------------


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
        "pad_a4": pad + "?size=a4",
        "pad_letter": pad + "?size=letter",
        "view_url": view.url,
        "view_qr": view.qr if can_edit and outcome.report.valid else "",
    }


@require_safe
def result(request: HttpRequest, token: str) -> HttpResponse:
    """The result page of the table's own (edit) link. A sheet with no error is kept as a result (issue 14),
    updated when it changed since."""
    sheet = _sheet(token)
    record_result(sheet=sheet)
    return render(request, "scorepad_result.html", _result_context(request, sheet, can_edit=True))


@require_safe
def sheet_view(request: HttpRequest, token: str) -> HttpResponse:
    """``/score/view/<token>/``: the view-only link: the result and the PDF, no link to an entry."""
    return render(
        request, "scorepad_result.html", _result_context(request, _viewed_sheet(token), can_edit=False)
    )


def _error_page(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(request, "error.html", {"status": status, "message": message}, status=status)


def _pad_response(request: HttpRequest, sheet: ScoreSheet) -> HttpResponse:
    """The filled score pad of a scored sheet (A4 or Letter), 409 while the rules refuse an entry."""
    size = PAD_SIZES.get(request.GET.get("size", "a4").lower())
    if size is None:
        return _error_page(request, 400, "The score pad comes in size=a4 or size=letter.")
    outcome = services.result_of(sheet=sheet)
    if not outcome.report.valid:
        message = "This game still has entries the rules refuse: fix them first (see the result page)."
        return _error_page(request, 409, message)
    response = HttpResponse(
        services.pad_pdf(sheet=sheet, result=outcome, pagesize=size), content_type="application/pdf"
    )
    response["Content-Disposition"] = f'inline; filename="{services.pad_filename(sheet.names)}"'
    return response


@require_safe
def pad_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _pad_response(request, _sheet(token))


@require_safe
def view_pad_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _pad_response(request, _viewed_sheet(token))


# --- quick score: the start ------------------------------------------------------------------------------------


def _start_page(request: HttpRequest, form: ScoreStartForm, status: int = 200) -> HttpResponse:
    picked_b = set(form["buildings"].value() or [])
    picked_p = set(form["personalities"].value() or [])
    buildings = [
        {"id": b.id, "name": b.name, "akebono": b.expansion is Expansion.AKEBONO, "checked": b.id in picked_b}
        for b in cat.BUILDINGS
    ]
    personalities = [
        {
            "label": s.label,
            "items": [
                {"id": x.id, "name": x.name, "checked": x.id in picked_p}
                for x in cat.personalities_of_season(s)
            ],
        }
        for s in SEASONS
    ]
    context = {
        "form": form,
        "players": form,
        "name_max": NAME_MAX,
        "errors": form.messages() if form.is_bound else [],
        "akebono": form["edition"].value() == "akebono",
        "buildings": buildings,
        "personality_groups": personalities,
    }
    context |= group_context(request.GET.get("group", ""))  # the group's names offered as you type
    return render(request, "scorepad_start.html", context, status=status)


def _from_setup(query: QueryDict) -> dict[str, Any]:
    """What the setup page's "Score it" link fills in (issue 26): ``name=`` (the table's names, in seating
    order), ``seed=`` (the setup code), ``edition`` and ``grand_master``; anything else is left as the form has it."""
    initial: dict[str, Any] = {f"name-{i}": name for i, name in enumerate(setup_names(query))}
    code = query.get("seed", "").strip()[:CODE_MAX]
    if code:
        initial.update(seed=code, setup_kind="seed")
    if query.get("akebono") == "1" or query.get("edition") == "akebono":
        initial["edition"] = "akebono"
    if query.get("grand_master") == "1":
        initial["grand_master"] = True
    return initial


@require_http_methods(["GET", "HEAD", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """``/score/``: quick score. 2-4 names and colours, base or Akebono, and optionally what was in play."""
    if request.method != "POST":
        return _start_page(request, ScoreStartForm(initial=_from_setup(request.GET)))
    form = ScoreStartForm(request.POST)
    if not form.is_valid():
        return _start_page(request, form, status=400)
    data = form.cleaned_data
    names, colours = [n for n, _ in form.players], [c for _, c in form.players]
    akebono = data["edition"] == "akebono"
    seed, setup = None, None
    try:
        if data["setup_kind"] == "seed":
            grand_master = data["grand_master"] and akebono
            setup, seed = services.sheet_from_seed(
                code=data["seed"], players=len(names), akebono=akebono, grand_master=grand_master
            )
        elif data["setup_kind"] == "pick":  # either list may be left empty: only what is ticked is known
            setup = {"buildings": data["buildings"]} if data["buildings"] else {}
            if akebono and data["personalities"]:
                setup["personalities"] = data["personalities"]
        sheet = services.start_sheet(names=names, colours=colours, akebono=akebono, setup=setup, seed=seed)
    except SheetError as exc:
        form.add_error("seed" if exc.field == "seed" else None, ValidationError(exc.message))
        return _start_page(request, form, status=400)
    return HttpResponseRedirect(sheet.get_absolute_url())


urlpatterns = [
    path("score/", new, name="scorepad-new"),
    path("score/view/<sheet:token>/", sheet_view, name="scorepad-view"),
    path("score/view/<sheet:token>/pad.pdf", view_pad_pdf, name="scorepad-view-pdf"),
    path("score/<sheet:token>/", sheet_start, name="scorepad-sheet"),
    path("score/<sheet:token>/result/", result, name="scorepad-result"),
    path("score/<sheet:token>/pad.pdf", pad_pdf, name="scorepad-pdf"),
    path("score/<sheet:token>/<slug:slug>/", step, name="scorepad-step"),
    path("score/<sheet:token>/<slug:slug>/entry/", entry, name="scorepad-entry"),
]
