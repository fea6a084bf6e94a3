"""``/score/``: quick score, the start of a sheet: 2-4 names and colours, the edition, what was in play."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from companion.forms import ScoreStartForm
from companion.models.scoresheets import NAME_MAX
from companion.scorepad import services
from companion.scorepad.services import SheetError
from companion.services.group_names import group_context
from companion.setup_query import setup_names
from scoring import catalogue as cat
from scoring.components import SEASONS, Expansion
from setupgen import CODE_MAX


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
    """What the setup page's "Score the end of the game" link fills in (issue 26): ``name=`` (the table's names, in seating
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
    seed, setup, grand_master = None, None, False
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
        sheet = services.start_sheet(
            names=names,
            colours=colours,
            akebono=akebono,
            setup=setup,
            seed=seed,
            grand_master=grand_master,
            group=group_context(request.GET.get("group", "")).get("group"),  # "Score a game for this group"
        )
    except SheetError as exc:
        form.add_error("seed" if exc.field == "seed" else None, ValidationError(exc.message))
        return _start_page(request, form, status=400)
    return HttpResponseRedirect(sheet.get_absolute_url())
