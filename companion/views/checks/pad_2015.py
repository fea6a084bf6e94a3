"""The 2015 first edition's pad: ``/check/2015/`` checks it as written, ``/check/2015/work/`` works it out from
what the table reads off its board (the calculator), ``/check/2015/keep`` keeps either as a result."""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from companion.http import HtmxHttpRequest
from companion.models.scoresheets import NAME_MAX
from companion.services.results import keep_checked_pad
from companion.views.answers import page_or_partial
from companion.views.checks import common
from companion.views.checks.editions import PAD_EDITIONS, ROW_LABELS_2015
from companion.views.checks.forms import (
    COUNTS_2015,
    FIELDS_2015,
    PRINTED_2015,
    Check2015Form,
    CheckStartForm,
    Form2015,
)
from scoring.first_edition import (
    LINE_LABELS_2015,
    Facts2015,
    Problem2015,
    Score2015,
    check_pad_2015,
    possible_2015,
    score_2015,
)
from scoring.first_edition import check_2015 as check_2015_pad
from scoring.names import short_labels
from scoring.padcheck import Pad, PadCheck

#: The calculator's own entries (:data:`FIELDS_2015`): a query with one of them is the calculator's ("work it
#: out"), such as a result kept from it before the 2015 pad was checked as written.
WORKED_KEYS: Final = frozenset(
    {"types", "fish_seasons", "pipes", "pouches", "constructions", "bonito", "sea_bream"}
)


def _worked_key(key: str) -> bool:
    return key.startswith("p") and key.partition("-")[2] in WORKED_KEYS


def _worked(query: QueryDict) -> bool:
    return any(_worked_key(key) for key in query)


def _forms_2015(query: QueryDict) -> tuple[CheckStartForm, Check2015Form | None]:
    start = common.start_form(query)
    if not start.is_bound or not start.is_valid():
        return start, None
    return start, Check2015Form(query, seats=start.seats())


def _checked_2015(form: Check2015Form | None) -> tuple[PadCheck | None, Pad | None, Facts2015 | None]:
    if form is None or not form.is_valid():
        return None, None, None
    pad, facts = form.pad()
    return check_pad_2015(pad, facts), pad, facts


@require_safe
def check_2015(request: HtmxHttpRequest) -> HttpResponse:
    """``GET /check/2015/``: the 2015 first edition's pad as written (RULINGS E1-E5, R20-R22): the lines, totals
    and places the table wrote, the printed values it knows, and every number that cannot be right, at once.
    A query of the calculator (``/check/2015/work/``) goes there."""
    if _worked(request.GET):
        return HttpResponseRedirect(f"{reverse('check-2015-work')}?{request.GET.urlencode()}")
    start, form = _forms_2015(request.GET)
    context, status = common.page_context(
        request, start, started=form is not None, edition="2015", keep_url=reverse("check-2015-keep")
    )
    if form is not None:
        check, pad, facts = _checked_2015(form)
        if check is None:
            context["errors"] = form.messages()
            status = 400
        context.update(
            common.verdict(check),
            printed=[(form[key], label) for key, label, _ in PRINTED_2015],
            rows=common.player_rows(
                form, ROW_LABELS_2015, check,
                lambda n: possible_2015(facts, pad.players[n]) if facts and pad else {},
            ),
            doubts=list(check.errors) if check else [],
        )  # fmt: skip
        for row in context["rows"]:
            row["counts"] = [(key, label, form[f"p{row['index']}-{key}"]) for key, label in COUNTS_2015]
    response = page_or_partial(
        request, "check_2015.html", "live" if form is not None else None, context, status=status
    )
    return common.kept_in_address(request, response) if form is not None else response


def _scored_2015(
    query: QueryDict,
) -> tuple[CheckStartForm, Form2015 | None, list[Score2015] | None, list[Problem2015]]:
    """The calculator's pad of a query: the players form, the pad form, its scores (None until it adds up
    without a problem), and the problems of the 2015 checks."""
    start = common.start_form(query)
    if not start.is_bound or not start.is_valid():
        return start, None, None, []
    form = Form2015(query, seats=start.seats())
    if not form.is_valid():
        return start, form, None, []
    players = form.players()
    problems = check_2015_pad(players)
    errors = [p for p in problems if not p.warning]
    return start, form, (None if errors else score_2015(players)), problems


@require_safe
def work_2015(request: HttpRequest) -> HttpResponse:
    """``GET /check/2015/work/``: "work it out", the 2015 pad added up from what the table reads off its board
    (RULINGS E1-E3): the printed values typed, every line added up, what the 2015 box allows checked, the ranking
    with the tie-break."""
    start, form, scores, problems = _scored_2015(request.GET)
    context: dict[str, Any] = {
        "start": start,
        "players": start,
        "name_max": NAME_MAX,
        "started": form is not None,
        "check_query": urlencode(
            [(k, v) for k, v in request.GET.items() if not _worked_key(k) and k != "result"]
        ),
    }
    context["errors"] = start.messages() if start.is_bound else []
    status = 400 if start.is_bound and not start.is_valid() else 200
    if form is not None:
        context.update(
            labels=LINE_LABELS_2015,
            problems=[p for p in problems if not p.warning],
            warnings=[p for p in problems if p.warning],
            query=common.without_result(request.GET),
        )
        context["result_token"] = request.GET.get("result", "")[:64]
        seats = start.seats()
        shorts = short_labels([name for _, name, _ in seats])
        context["rows"] = [
            {
                "index": i,
                "name": name,
                "short": short,
                "colour": colour,
                "fields": [(form[f"p{i}-{key}"], label) for key, label in FIELDS_2015],
            }
            for (i, name, colour), short in zip(seats, shorts, strict=True)
        ]
        if scores is not None:
            context["scores"] = sorted(scores, key=lambda s: (s.rank, s.name))
        if not form.is_valid():
            context["errors"] = form.messages()
            status = 400
    return render(request, "check_2015_work.html", context, status=status)


@require_POST
def keep_2015(request: HttpRequest) -> HttpResponse:
    """``POST /check/2015/keep``: keep a 2015 pad as a result (``iki-2015``): one checked as written once it has
    no error and every total is known (the lines typed, the place typed or given by the totals), or one the
    calculator added up without a problem (its query)."""
    query = QueryDict(request.POST.get("q", "")[:4000])
    token = request.POST.get("result", "")[:64]
    if _worked(query):
        start, worked, scores, _ = _scored_2015(query)
        if worked is None or scores is None:
            raise common.refused()
        colours = {name: colour for _, name, colour in start.seats()}
        players = [common.kept_player(s.name, colours[s.name], s.lines, s.total, s.rank) for s in scores]
    else:
        start, form = _forms_2015(query)
        check, pad, _ = _checked_2015(form)
        if form is None or pad is None or check is None or not check.ok or not check.complete:
            raise common.refused()
        players = common.kept_players(form, check, pad.players)
    result = keep_checked_pad(
        edition=PAD_EDITIONS["2015"].result, players=players, query=common.without_result(query), token=token
    )
    return HttpResponseRedirect(result.edit_url())
