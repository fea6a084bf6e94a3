"""``/check/``: check a paper score pad in a minute (issue 14).

The table types the numbers it wrote, one player at a time; the rules core (:func:`scoring.padcheck.check_pad`)
says which cannot be right and why. The page is a GET form, so the URL holds the whole pad: without JavaScript
"Check" reloads the page; with htmx each change swaps in the verdict and every line's message (out of band),
leaving the field being typed in alone. A line in doubt opens the walk-through (a normal score sheet, started
from the pad's players) at the step that line comes from, with the typed number as the target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.http import require_POST, require_safe

from companion.check_forms import (
    COUNTS_2015,
    FIELDS_2015,
    PIPE_CHOICES,
    PRINTED_2015,
    ROW_LABELS,
    ROW_LABELS_2015,
    Check2015Form,
    CheckStartForm,
    Form2015,
    PadForm,
)
from companion.models.scoresheets import NAME_MAX
from companion.scorepad.services import SheetError, start_sheet
from companion.services.results import file_result, group_by_token, keep_checked_pad, player_names
from companion.views.setup import TRUE_WORDS
from scoring.first_edition import (
    LINE_LABELS_2015,
    Facts2015,
    Score2015,
    check_pad_2015,
    possible_2015,
    score_2015,
)
from scoring.first_edition import check_2015 as check_2015_pad
from scoring.padcheck import (
    LINE_WORDS,
    Pad,
    PadCheck,
    PadProblem,
    Possible,
    check_pad,
    facts_of,
    possible_lines,
)
from scoring.table import Setup

#: The walk-through steps (their URL slugs) each pad line is made from, the line's own step first.
LINE_STEPS: Final = {
    "score_track": ("track",),
    "variety": ("characters",),
    "fish": ("fish",),
    "tobacco": ("tobacco", "characters", "firefighting", "resources", "personalities"),
    "buildings": ("buildings", "fish", "boats", "resources", "firefighting", "characters", "personalities"),
    "resources": ("resources",),
    "personalities": ("personalities", "characters", "boats", "firefighting"),
    "total": ("track",),
    "rank": ("firefighting",),
}
STEP_WORDS: Final = {
    "track": "Score track",
    "characters": "Characters",
    "fish": "Fish",
    "tobacco": "Pipes and tobacco",
    "buildings": "Buildings",
    "boats": "Boats",
    "personalities": "Personalities and trade",
    "resources": "Resources",
    "firefighting": "Firefighting",
}


def _forms(query: QueryDict) -> tuple[CheckStartForm, PadForm | None]:
    """The players form, and the pad form once the players are known."""
    start = CheckStartForm(query if query else None)
    if not start.is_bound or not start.is_valid():
        return start, None
    return start, PadForm(query, seats=start.seats(), akebono=start.akebono, setup=start.setup)


def short_labels(names: Sequence[str]) -> list[str]:
    """Each name's first letters, as few as make it unique among the others (case ignored): ``Dominique`` and
    ``David`` are ``Do`` and ``Da``; a name that begins another is whole."""
    folded = [n.casefold() for n in names]
    out = []
    for i, name in enumerate(names):
        others = [f for j, f in enumerate(folded) if j != i]
        k = next(
            (k for k in range(1, len(name) + 1) if all(not o.startswith(folded[i][:k]) for o in others)), None
        )
        out.append(name[:k] if k else name)
    return out


def player_rows(
    form: PadForm | Check2015Form,
    labels: Mapping[str, str],
    check: PadCheck | None,
    possible: Callable[[int], Mapping[str, Possible]],
) -> list[dict[str, Any]]:
    """What each player's tab shows: each row's field with its problems and the line's rule, the facts, and the
    tab's short unique label with the total the place is judged on (``possible(n)``: the n-th column's lines)."""
    out = []
    shorts = short_labels([name for _, name, _ in form.seats])
    for n, (i, name, colour) in enumerate(form.seats):
        problems: dict[str, list[PadProblem]] = {}
        for p in check.problems if check else ():
            if p.player == name:
                problems.setdefault(p.line, []).append(p)
        lines = possible(n) if check else {}
        rows = [
            {
                "key": row,
                "id": f"p{i}-{row}",
                "label": labels[row],
                "field": form[f"p{i}-{row}"],
                "problems": problems.get(row, []),
                "errors": list(form[f"p{i}-{row}"].errors),
                "hint": lines[row].rule if row in lines else "",
            }
            for row in (*form.lines, "total", "rank")
        ]
        judged = check.players[n] if check else None
        out.append(
            {
                "index": i,
                "name": name,
                "short": shorts[n],
                "total": judged.sum if judged and judged.known else None,
                "colour": colour,
                "rows": rows,
                "pipe": form[f"p{i}-pipe"],
                "firefighting": form[f"p{i}-firefighting"],
                "stack": form[f"p{i}-stack"],
                "flagged": sum(1 for ps in problems.values() for p in ps if p.error),
            }
        )
    return out


def _context(request: HttpRequest) -> tuple[dict[str, Any], int]:
    start, pad = _forms(request.GET)
    context: dict[str, Any] = {
        "start": start,
        "players": start,
        "name_max": NAME_MAX,
        "pipe_choices": PIPE_CHOICES,
        "started": pad is not None,
        "query": request.GET.urlencode(),
        "kept_query": _without_result(request.GET),
        **group_context(request.GET.get("group", "")),
        "result_token": request.GET.get("result", "")[:64],
        "htmx": request.htmx,
        "errors": start.messages() if start.is_bound else [],
        "grand_master": request.GET.get("grand_master", "").strip().lower() in TRUE_WORDS,
    }
    status = 400 if start.is_bound and not start.is_valid() else 200
    if pad is None:
        return context, status
    typed = pad.pad() if pad.is_valid() else None
    check = check_pad(typed) if typed else None
    if check is None:
        context["errors"] = pad.messages()
        status = 400
    context.update(
        {
            "akebono": start.akebono,
            "check": check,
            "rows": player_rows(
                pad,
                ROW_LABELS,
                check,
                lambda n: possible_lines(facts_of(typed, typed.players[n])) if typed else {},
            ),
            "ranking": sorted((p for p in check.players if p.known), key=lambda p: (p.rank, p.name))
            if check
            else [],
            "unranked": [p for p in check.players if not p.known] if check else [],
            "doubts": [_doubt(p, pad) for p in check.errors] if check else [],
            "consequences": list(check.consequences) if check else [],
            "warnings": list(check.warnings) if check else [],
        }
    )
    return context, status


def _doubt(problem: PadProblem, pad: PadForm) -> dict[str, Any]:
    """A line in doubt with the walk-through step it comes from (``walk`` names it: seat and line)."""
    seat = next(i for i, name, _ in pad.seats if name == problem.player)
    steps = LINE_STEPS[problem.line]
    return {
        "problem": problem,
        "walk": f"{seat}:{problem.line}",
        "step": STEP_WORDS[steps[0]],
        "others": [STEP_WORDS[s] for s in steps[1:]],
    }


@require_safe
def check_page(request: HttpRequest) -> HttpResponse:
    """``GET /check/``: the players first; then one tab per player with the pad's lines, and the verdict."""
    context, status = _context(request)
    if request.htmx and context["started"]:
        return render(request, "check.html#live", context, status=status)
    return render(request, "check.html", context, status=status)


def walk_target(line: str, value: int | None, who: str) -> str:
    """The query a walk-through step reads to show the pad's number as the target (``check_target.html``)."""
    query = {"target": f"{line}:{value if value is not None else ''}", "who": who}
    return urlencode(query)


def setup_json(setup: Setup | None) -> dict[str, Any] | None:
    """A setup as the score sheet keeps it (the JSON of ``scoring.table``)."""
    if setup is None:
        return None
    out: dict[str, Any] = {"buildings": list(setup.buildings or ())}
    if setup.personalities:
        out["personalities"] = list(setup.personalities)
        out["boat_sides"] = dict(setup.boat_sides)
    return out


@require_POST
def walk(request: HttpRequest) -> HttpResponse:
    """``POST /check/walk/``: start a score sheet from the checked pad's players (their score track and
    firefighting position filled in) and open the walk-through at the step the doubtful line comes from."""
    query = QueryDict(request.POST.get("q", "")[:4000])
    start, pad = _forms(query)
    seat, _, line = request.POST.get("line", "").partition(":")
    if pad is None or not pad.is_valid() or line not in LINE_STEPS or not seat.isdigit():
        return render(
            request,
            "error.html",
            {
                "status": 400,
                "message": "This pad cannot be opened in the walk-through: check it again first.",
            },
            status=400,
        )
    seats = {str(i): (name, colour) for i, name, colour in pad.seats}
    if seat not in seats:
        return render(
            request, "error.html", {"status": 400, "message": "No such player on this pad."}, status=400
        )
    data = pad.cleaned_data
    prefill = {
        name: {
            "score_track": data[f"p{i}-score_track"] or 0,
            "firefighting": data[f"p{i}-firefighting"] or 0,
        }
        for i, name, _ in pad.seats
    }
    try:
        sheet = start_sheet(
            names=[name for _, name, _ in pad.seats],
            colours=[colour for _, _, colour in pad.seats],
            akebono=start.akebono,
            setup=setup_json(start.setup),
            prefill=prefill,
            seed=start.cleaned_data["seed"] or None,
        )
    except SheetError as exc:
        return render(request, "error.html", {"status": 400, "message": exc.message}, status=400)
    name = seats[seat][0]
    value = data.get(f"p{seat}-{line}")
    url = reverse("scorepad-step", args=[sheet.token, LINE_STEPS[line][0]])
    return HttpResponseRedirect(f"{url}?{walk_target(line, value, name)}")


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
    start = CheckStartForm(query if query else None)
    if not start.is_bound or not start.is_valid():
        return start, None
    return start, Check2015Form(query, seats=start.seats())


def _checked_2015(form: Check2015Form | None) -> tuple[PadCheck | None, Pad | None, Facts2015 | None]:
    if form is None or not form.is_valid():
        return None, None, None
    pad, facts = form.pad()
    return check_pad_2015(pad, facts), pad, facts


@require_safe
def check_2015(request: HttpRequest) -> HttpResponse:
    """``GET /check/2015/``: the 2015 first edition's pad as written (RULINGS E1-E5, R20-R22): the lines, totals
    and places the table wrote, the printed values it knows, and every number that cannot be right, at once.
    A query of the calculator (``/check/2015/work/``) goes there."""
    if _worked(request.GET):
        return HttpResponseRedirect(f"{reverse('check-2015-work')}?{request.GET.urlencode()}")
    start, form = _forms_2015(request.GET)
    context: dict[str, Any] = {
        "start": start,
        "players": start,
        "name_max": NAME_MAX,
        "pipe_choices": PIPE_CHOICES,
        "started": form is not None,
        "query": request.GET.urlencode(),
        "kept_query": _without_result(request.GET),
        "result_token": request.GET.get("result", "")[:64],
        "htmx": request.htmx,
        "errors": start.messages() if start.is_bound else [],
    }
    status = 400 if start.is_bound and not start.is_valid() else 200
    if form is not None:
        check, pad, facts = _checked_2015(form)
        if check is None:
            context["errors"] = form.messages()
            status = 400
        context.update(
            check=check,
            printed=[(form[key], label) for key, label, _ in PRINTED_2015],
            rows=player_rows(
                form, ROW_LABELS_2015, check,
                lambda n: possible_2015(facts, pad.players[n]) if facts and pad else {},
            ),
            ranking=sorted((p for p in check.players if p.known), key=lambda p: (p.rank, p.name)) if check else [],
            unranked=[p for p in check.players if not p.known] if check else [],
            doubts=list(check.errors) if check else [],
            consequences=list(check.consequences) if check else [],
            warnings=list(check.warnings) if check else [],
        )  # fmt: skip
        for row in context["rows"]:
            row["counts"] = [(key, label, form[f"p{row['index']}-{key}"]) for key, label in COUNTS_2015]
    if request.htmx and form is not None:
        return render(request, "check_2015.html#live", context, status=status)
    return render(request, "check_2015.html", context, status=status)


def _scored_2015(
    query: QueryDict,
) -> tuple[CheckStartForm, Form2015 | None, list[Score2015] | None, list[Any]]:
    """The calculator's pad of a query: the players form, the pad form, its scores (None until it adds up
    without a problem), and the problems of the 2015 checks."""
    start = CheckStartForm(query if query else None)
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
            query=_without_result(request.GET),
        )
        context["result_token"] = request.GET.get("result", "")[:64]
        context["rows"] = [
            {
                "index": i,
                "name": name,
                "colour": colour,
                "fields": [(form[f"p{i}-{key}"], label) for key, label in FIELDS_2015],
            }
            for i, name, colour in start.seats()
        ]
        if scores is not None:
            context["scores"] = sorted(scores, key=lambda s: (s.rank, s.name))
        if not form.is_valid():
            context["errors"] = form.messages()
            status = 400
    return render(request, "check_2015_work.html", context, status=status)


def group_context(token: str) -> dict[str, Any]:
    """With ``?group=<edit token>`` the page offers the group's player names and files what it keeps there."""
    found = group_by_token(token[:64]) if token else None
    if found is None or not found[1]:
        return {}
    return {"group": found[0], "group_names": player_names(found[0]), "name_list": "group-names"}


def _without_result(query: QueryDict) -> str:
    """A check's query without the ``result`` it edits: what a kept result stores to reopen it."""
    copy = query.copy()
    copy.pop("result", None)
    return copy.urlencode()


def _kept_player(name: str, colour: str, lines: dict[str, int], total: int, rank: int) -> dict[str, Any]:
    return {
        "name": name, "colour": colour, "lines": lines, "total": total, "rank": rank,
        "buildings": [], "personalities": [],
    }  # fmt: skip


def _refused(request: HttpRequest) -> HttpResponse:
    message = (
        "This pad still has numbers that cannot be right, or a player without a total: check it again and "
        "fix them first."
    )
    return render(request, "error.html", {"status": 400, "message": message}, status=400)


@require_POST
def keep(request: HttpRequest) -> HttpResponse:
    """``POST /check/keep``: keep a pad the check finds no fault in as a result (``q``: the check's query;
    ``result``: the edit token of the result it was kept as before, rewritten then)."""
    query = QueryDict(request.POST.get("q", "")[:4000])
    start, pad = _forms(query)
    typed = pad.pad() if pad is not None and pad.is_valid() else None
    check = check_pad(typed) if typed is not None else None
    if pad is None or typed is None or check is None or not check.ok or not check.complete:
        return _refused(request)
    places = {p.name: p for p in check.players}
    players = [
        _kept_player(name, colour, {line: player.lines[line] for line in pad.lines if line in player.lines},
                     places[name].sum, player.rank or places[name].rank)
        for (_, name, colour), player in zip(pad.seats, typed.players, strict=True)
    ]  # fmt: skip
    result = keep_checked_pad(
        edition="iki-akebono" if start.akebono else "iki",
        players=players,
        query=_without_result(query),
        token=request.POST.get("result", "")[:64],
        seed=start.cleaned_data["seed"] if start.setup is not None else "",
    )
    group = group_context(request.POST.get("group", "")).get("group")
    if group is not None:
        file_result(result=result, group=group)
    return HttpResponseRedirect(result.edit_url())


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
            return _refused(request)
        colours = {name: colour for _, name, colour in start.seats()}
        players = [_kept_player(s.name, colours[s.name], s.lines, s.total, s.rank) for s in scores]
    else:
        start, form = _forms_2015(query)
        check, pad, _ = _checked_2015(form)
        if form is None or pad is None or check is None or not check.ok or not check.complete:
            return _refused(request)
        places = {p.name: p for p in check.players}
        players = [
            _kept_player(name, colour, dict(player.lines), places[name].sum, player.rank or places[name].rank)
            for (_, name, colour), player in zip(form.seats, pad.players, strict=True)
        ]
    result = keep_checked_pad(edition="iki-2015", players=players, query=_without_result(query), token=token)
    return HttpResponseRedirect(result.edit_url())


__all__ = [
    "LINE_STEPS",
    "LINE_WORDS",
    "check_2015",
    "check_page",
    "keep",
    "keep_2015",
    "player_rows",
    "short_labels",
    "walk",
    "walk_target",
    "work_2015",
]

urlpatterns = [
    path("check/", check_page, name="check"),
    path("check/2015/", check_2015, name="check-2015"),
    path("check/2015/work/", work_2015, name="check-2015-work"),
    path("check/walk/", walk, name="check-walk"),
    path("check/keep", keep, name="check-keep"),
    path("check/2015/keep", keep_2015, name="check-2015-keep"),
]
