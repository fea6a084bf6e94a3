"""The 2022 pad (base or Akebono): ``/check/`` checks it, ``/check/walk/`` opens a line in doubt in the
walk-through, ``/check/keep`` keeps it as a result."""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from companion.errors import UserError
from companion.http import HtmxHttpRequest
from companion.scorepad.services import SheetError, start_sheet
from companion.scorepad.steps import STEP_TITLES, steps_for
from companion.services.group_names import group_context
from companion.services.results import file_result, keep_checked_pad
from companion.setup_query import TRUE_WORDS
from companion.views.answers import page_or_partial
from companion.views.checks import common
from companion.views.checks.editions import ROW_LABELS
from companion.views.checks.forms import CheckStartForm, PadForm
from scoring.padcheck import PadCheck, PadProblem, check_pad, facts_of, possible_lines
from scoring.table import Setup

#: The walk-through steps (their URL slugs) each pad line is made from, the line's own step first. A place has none:
#: its message gives the right place, or the range the totals leave (a walk-through started from the pad holds only
#: its score tracks and firefighting positions, so its totals would not be the pad's).
LINE_STEPS: Final = {
    "score_track": ("track",),
    "variety": ("characters",),
    "fish": ("fish",),
    "tobacco": ("tobacco", "characters", "firefighting", "resources", "personalities"),
    "buildings": ("buildings", "fish", "boats", "resources", "firefighting", "characters", "personalities"),
    "resources": ("resources",),
    "personalities": ("personalities", "characters", "boats", "firefighting"),
    "total": ("track",),
}


def _forms(query: QueryDict) -> tuple[CheckStartForm, PadForm | None]:
    """The players form, and the pad form once the players are known."""
    start = common.start_form(query)
    if not start.is_bound or not start.is_valid():
        return start, None
    return start, PadForm(query, seats=start.seats(), akebono=start.akebono, setup=start.setup)


def _context(request: HtmxHttpRequest) -> tuple[dict[str, Any], int]:
    start, pad = _forms(request.GET)
    context, status = common.page_context(
        request, start, started=pad is not None, edition="2022", keep_url=reverse("check-keep")
    )
    context |= group_context(request.GET.get("group", ""))
    context["grand_master"] = request.GET.get("grand_master", "").strip().lower() in TRUE_WORDS
    if pad is None:
        return context, status
    typed = pad.pad() if pad.is_valid() else None
    check = check_pad(typed) if typed else None
    if check is None:
        context["errors"] = pad.messages()
        status = 400
    context.update(
        common.verdict(check),
        akebono=start.akebono,
        rows=common.player_rows(
            pad,
            ROW_LABELS,
            check,
            lambda n: possible_lines(facts_of(typed, typed.players[n])) if typed else {},
        ),
        doubts=[_doubt(p, pad) for p in check.errors] if check else [],
        setup_note=_setup_note(start, check),
    )
    return context, status


#: The lines a setup code narrows (RULINGS R24): a doubt on them may be the code's, not the pad's.
SETUP_LINES: Final = frozenset({"buildings", "personalities"})


def _setup_note(start: CheckStartForm, check: PadCheck | None) -> str:
    """What to check when a line in doubt was judged by the setup a code made: a mistyped code, or the Grand
    Master box left unticked, makes another game's setup (RULINGS R24)."""
    if start.setup is None or check is None or not any(p.line in SETUP_LINES for p in check.errors):
        return ""
    what = "buildings and personalities" if start.akebono else "buildings"
    box = " and the Grand Master box" if start.akebono and len(start.seats()) == 2 else ""
    return f"Not the {what} you played with? Check the setup code{box}."


def _doubt(problem: PadProblem, pad: PadForm) -> dict[str, Any]:
    """A line in doubt with the walk-through step it comes from (``walk`` names it: seat and line; "" for a place,
    which no step finds: :data:`LINE_STEPS`)."""
    if problem.line not in LINE_STEPS:
        return {"problem": problem, "walk": "", "step": "", "others": []}
    seat = next(i for i, name, _ in pad.seats if name == problem.player)
    game = {s.slug for s in steps_for(pad.akebono)}  # base IKI has no boats or personalities steps
    steps = [s for s in LINE_STEPS[problem.line] if s in game]
    return {
        "problem": problem,
        "walk": f"{seat}:{problem.line}",
        "step": STEP_TITLES[steps[0]],
        "others": [STEP_TITLES[s] for s in steps[1:]],
    }


@require_safe
def check_page(request: HtmxHttpRequest) -> HttpResponse:
    """``GET /check/``: the players first; then one tab per player with the pad's lines, and the verdict."""
    context, status = _context(request)
    response = page_or_partial(
        request, "check.html", "live" if context["started"] else None, context, status=status
    )
    return common.kept_in_address(request, response) if context["started"] else response


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
        raise UserError("This pad cannot be opened in the walk-through: check it again first.")
    seats = {str(i): (name, colour) for i, name, colour in pad.seats}
    if seat not in seats:
        raise UserError("No such player on this pad.")
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
            grand_master=start.cleaned_data["grand_master"],
        )
    except SheetError as exc:
        raise UserError(exc.message) from None
    name = seats[seat][0]
    value = data.get(f"p{seat}-{line}")
    url = reverse("scorepad-step", args=[sheet.token, LINE_STEPS[line][0]])
    player = list(seats).index(seat)  # the sheet's players are the pad's seats, in order
    tab = f"p={player}&" if player else ""
    return HttpResponseRedirect(f"{url}?{tab}{walk_target(line, value, name)}")


@require_POST
def keep(request: HttpRequest) -> HttpResponse:
    """``POST /check/keep``: keep a pad the check finds no fault in as a result (``q``: the check's query;
    ``result``: the edit token of the result it was kept as before, rewritten then)."""
    query = QueryDict(request.POST.get("q", "")[:4000])
    start, pad = _forms(query)
    typed = pad.pad() if pad is not None and pad.is_valid() else None
    check = check_pad(typed) if typed is not None else None
    if pad is None or typed is None or check is None or not check.ok or not check.complete:
        raise common.refused()
    result = keep_checked_pad(
        edition=start.pad_edition.result,
        players=common.kept_players(pad, check, typed.players),
        query=common.without_result(query),
        token=request.POST.get("result", "")[:64],
        seed=start.cleaned_data["seed"] if start.setup is not None else "",
    )
    group = group_context(request.POST.get("group", "")).get("group")
    if group is not None:
        file_result(result=result, group=group)
    return HttpResponseRedirect(result.edit_url())
