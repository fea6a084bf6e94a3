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
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
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


def _refused(form: ScoreStartForm, exc: SheetError) -> None:
    """A setup the rules refuse, said beside the setup code when it made it, else above the form."""
    form.add_error("seed" if exc.field == "seed" else None, ValidationError(exc.message))


@require_http_methods(["GET", "HEAD", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """``/score/``: quick score. 2-4 names and colours, base or Akebono, and optionally what was in play."""
    if request.method != "POST":
        return _start_page(request, ScoreStartForm(initial=_from_setup(request.GET)))
    form = ScoreStartForm(request.POST)
    valid = form.is_valid()
    data = form.cleaned_data
    akebono = data.get("edition") == "akebono"
    grand_master = bool(data.get("grand_master")) and akebono
    seed, setup = None, None
    kind = data.get("setup_kind")
    if kind == "pick":  # either list may be left empty: only what is ticked is known
        setup = {"buildings": data["buildings"]} if data.get("buildings") else {}
        if akebono and data.get("personalities"):
            setup["personalities"] = data["personalities"]
    # The setup is checked beside the form's other problems, so a page without JavaScript shows them all at once.
    if kind in ("seed", "pick") and MIN_PLAYERS <= form.typed <= MAX_PLAYERS:
        try:
            if kind == "seed":
                setup, seed = services.sheet_from_seed(
                    code=data.get("seed") or "",
                    players=form.typed,
                    akebono=akebono,
                    grand_master=grand_master,
                )
            elif setup:
                services.check_setup(setup=setup, akebono=akebono, players=form.typed)
        except SheetError as exc:
            _refused(form, exc)
    if not valid or form.errors:
        return _start_page(request, form, status=400)
    names, colours = [n for n, _ in form.players], [c for _, c in form.players]
    try:
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
        _refused(form, exc)
        return _start_page(request, form, status=400)
    return HttpResponseRedirect(sheet.get_absolute_url())
