"""The payday calculator (issue 15): ``GET /osaka/payday/`` with the form's fields in the query.

The page is a GET form, so it works without JavaScript ("Work it out" reloads the page with the answer). With htmx,
typing a count swaps in the answer (``#osaka-result`` and each player's result box, out of band); choosing ships or
the number of players swaps in the whole form (``#osaka-calc``), whose colour blocks follow the ships.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.views.decorators.http import require_safe

from companion.http import HtmxHttpRequest
from companion.views.osaka.forms import (
    EDO_FIELDS,
    HoldingForm,
    ShipsForm,
    holding_forms,
    moment_data,
    names_problem,
)
from scoring.errors import InputError
from scoring.osaka import PaydayResult, PlayerPayday, Problem, Report, play, read_moment
from scoring.osaka.components import CARD_VALUES

#: What the request asks the server to swap (``HX-Target``): the answer only, or the whole form.
RESULT_TARGET = "osaka-result"


@dataclass(frozen=True)
class PlayerView:
    """One player's card: the form, the player's result (when played) and the problems naming the player."""

    index: int
    title: str
    form: HoldingForm
    result: PlayerPayday | None
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class Worked:
    """Everything a payday form shows once read: the forms, the report and result when complete, and why not."""

    ships: ShipsForm
    players: tuple[PlayerView, ...]
    report: Report | None
    result: PaydayResult | None
    waiting: str
    table_problems: tuple[Problem, ...]


def work_out(
    ships: ShipsForm,
    forms_: list[HoldingForm],
    *,
    names: list[str] | None = None,
    tokens: list[dict[str, int]] | None = None,
) -> Worked:
    """Read the forms, and when they are complete and valid, check and play the payday with the pure core."""
    waiting = ""
    report: Report | None = None
    result: PaydayResult | None = None
    if not ships.is_bound or (ships.is_valid() and not ships.arriving):
        waiting = "Choose the ship that reached Edo."
    elif not ships.is_valid():
        waiting = "Check the ships above."
    elif not all(f.is_valid() for f in forms_) or (names is None and names_problem(forms_)):
        waiting = "Check the numbers marked above."
    else:
        players = [
            f.player_data(name=names[i] if names else None, tokens=tokens[i] if tokens else None)
            for i, f in enumerate(forms_)
        ]
        try:
            report, result = play(read_moment(moment_data(ships, players)))
        except InputError as exc:  # the forms' bounds make this unreachable; say it plainly if not
            waiting = f"This payday cannot be read: {exc.message}."
    names_now = names or [
        f.display_name() if f.is_bound and hasattr(f, "cleaned_data") else "" for f in forms_
    ]
    problems = (*report.errors, *report.warnings) if report else ()
    views = tuple(
        PlayerView(
            i,
            names[i] if names else f"Player {i + 1} ({f.trader.label})",
            f,
            result.players[i] if result else None,
            tuple(p for p in problems if p.player is not None and p.player == names_now[i]),
        )
        for i, f in enumerate(forms_)
    )
    return Worked(ships, views, report, result, waiting, tuple(p for p in problems if p.player is None))


def form_context(worked: Worked) -> dict[str, Any]:
    """What the payday templates (the calculator's and the tracker's) need beside the worked-out forms."""
    url = reverse("osaka-payday")
    return {
        "worked": worked,
        "edo_fields": [worked.ships[name] for name in EDO_FIELDS],
        "card_values": CARD_VALUES,
        "calc_url": url,
        "submit_url": url,
        "submit_method": "get",
        "submit_label": "Work it out",
        "hidden": {},
    }


def _calculator(request: HttpRequest) -> Worked:
    query = request.GET if any(k in request.GET for k in ("players", *EDO_FIELDS)) else None
    ships = ShipsForm(query)
    count = ships.count()
    return work_out(ships, holding_forms(query, ships, count))


@require_safe
def calculator(request: HtmxHttpRequest) -> HttpResponse:
    """The calculator: the full page, or with htmx the answer alone or the whole form (see the module)."""
    worked = _calculator(request)
    template = "osaka_payday.html"
    if request.htmx:
        template += "#result-oob" if request.htmx.target == RESULT_TARGET else "#calc"
    forms: list[Form] = [worked.ships, *[p.form for p in worked.players]]
    bad_input = worked.ships.is_bound and any(f.errors for f in forms)
    return render(request, template, form_context(worked), status=400 if bad_input else 200)


urlpatterns = [path("osaka/payday/", calculator, name="osaka-payday")]
