"""The setup checklist's shared ticks (issue 20): ``POST /setup/ticks`` and the open page's
``GET /setup/ticks/state``, kept on the server (companion/models/setup_progress.py) under :func:`ticks_key`."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_POST, require_safe

from companion.models.setup_progress import change_ticks, tick, ticked
from companion.views.setup import (
    NO_TABLE,
    QueryError,
    game_url,
    is_table,
    load_setup,
    sentence,
    ticks_key,
    ticks_url,
)
from scoring.errors import quote
from setupgen import (
    Options,
    Setup,
    checklist,
)
from setupgen.checklist import Section, Step


def _sections(steps: tuple[Step, ...], done: frozenset[str]) -> list[dict[str, Any]]:
    groups: dict[Section, list[dict[str, Any]]] = {}
    for step in steps:
        groups.setdefault(step.section, []).append(
            {
                "step": step,
                "done": step.id in done,
            }
        )
    return [{"section": section, "steps": steps} for section, steps in groups.items()]


def _progress(
    steps: tuple[Step, ...], done: frozenset[str], message: str = "", level: str = "ok"
) -> dict[str, Any]:
    """The tick count line (``#setup-progress``): how many steps are ticked, and what the last save did."""
    return {
        "done_count": sum(1 for step in steps if step.id in done),
        "total": len(steps),
        "message": message,
        "level": level,
    }


def _ticks_error(
    request: HttpRequest, message: str, key: str = "", setup: Setup | None = None, status: int = 400
) -> HttpResponse:
    """400 (403 without the table's code): nothing was saved. htmx gets the tick count line with the message; a
    form, the error page."""
    if request.htmx:
        if setup is None:
            progress: dict[str, Any] = {"total": None, "message": message, "level": "error"}
        else:
            progress = _progress(checklist(setup), ticked(key), message, "error")
        return render(request, "setup_game.html#progress", {"progress": progress}, status=status)
    return render(request, "error.html", {"status": status, "message": message}, status=status)


def _table_setup(request: HttpRequest, outcome: str) -> tuple[Options, Setup, str] | HttpResponse:
    """The options, the setup and the ticks key of a ticks address (``?players=N&...&seed=CODE&table=TOKEN``); or
    the refusal: 403 without a valid table code, 400 for bad options or seed (``outcome`` ends its message)."""
    table = request.GET.get("table", "")
    if not is_table(table):
        return _ticks_error(request, NO_TABLE.replace("Nothing was saved.", outcome), status=403)
    try:
        options, setup, _ = load_setup(request.GET, seed_required=True)
    except QueryError as exc:
        return _ticks_error(request, f"{sentence(str(exc))} {outcome}")
    return options, setup, ticks_key(table, setup)


@require_POST
def setup_ticks(request: HttpRequest) -> HttpResponse:
    """``POST /setup/ticks?players=N[&akebono=1][&grand_master=1]&seed=CODE&table=TOKEN``: save the ticks.

    ``step=ID`` (htmx on each tap): tick that one step if ``done=ID`` is posted too, else untick it; htmx gets the
    tick count line. Without ``step`` (the no-JavaScript "Save ticks" form): ``done`` lists the ticked boxes and
    ``seen`` the ticks the page showed, so only what this phone changed is saved and another phone's ticks made
    meanwhile stay. Then 303 back to the page. Bad options, a bad seed, no table token or an unknown step id: 400,
    nothing saved.
    """
    table_setup = _table_setup(request, "Nothing was saved.")
    if isinstance(table_setup, HttpResponse):
        return table_setup
    options, setup, key = table_setup
    all_steps = checklist(setup)
    steps = {step.id: step for step in all_steps}
    posted = [value.strip() for value in request.POST.getlist("done")]
    seen = [value.strip() for value in request.POST.getlist("seen")]
    step_id = request.POST["step"].strip() if "step" in request.POST else None
    unknown = [
        value for value in (*posted, *seen, *([step_id] if step_id is not None else [])) if value not in steps
    ]
    if unknown:
        message = f"This setup has no step {quote(unknown[0])}; nothing was saved."
        return _ticks_error(request, message, key, setup)
    table = request.GET["table"]
    back = game_url(options, setup.seed, table=table)
    if step_id is not None:
        step = steps[step_id]
        now = step.id in posted
        done = tick(key, step.id, now)
        message = f"Saved: “{step.title}” {'ticked' if now else 'unticked'}."
        anchor = f"#step-{step.id}"
    else:
        done = change_ticks(key, add=set(posted) - set(seen), remove=set(seen) - set(posted))
        message = "Ticks saved."
        back = game_url(options, setup.seed, table=table, saved="1")
        anchor = "#setup-progress"
    if request.htmx:
        return render(request, "setup_game.html#progress", {"progress": _progress(all_steps, done, message)})
    response = HttpResponseRedirect(back + anchor)
    response.status_code = 303
    return response


@require_safe
def setup_ticks_state(request: HttpRequest) -> HttpResponse:
    """``GET /setup/ticks/state?players=N&...&seed=CODE&table=TOKEN[&done=ID...]``: the poll of an open page.

    ``done`` lists the steps ticked on the phone asking. 204 when the saved ticks are the same; else 200 with only
    what differs, as htmx out-of-band swaps: each changed box and the tick count line. It never names a hidden
    draw: a tick is a step id. Bad options or seed: 400; no valid table code: 403; an unknown step id: 400."""
    table_setup = _table_setup(request, "Reload the page.")
    if isinstance(table_setup, HttpResponse):
        return table_setup
    options, setup, key = table_setup
    shown = {value.strip() for value in request.GET.getlist("done")}
    done = ticked(key)
    if done == shown:  # saved ticks are known steps: a 204 needs no checklist
        response = HttpResponse(status=204)
        add_never_cache_headers(response)
        return response
    steps = checklist(setup)
    unknown = sorted(shown - {step.id for step in steps})
    if unknown:
        message = f"This setup has no step {quote(unknown[0])}. Reload the page."
        return _ticks_error(request, message, key, setup)
    ticks = ticks_url(options, setup.seed, request.GET["table"])
    changed = [
        {"step": step, "done": step.id in done, "ticks_url": ticks, "oob": True}
        for step in steps
        if (step.id in done) != (step.id in shown)
    ]
    # No message: a new line above the list would move the steps under a thumb (the count keeps its height).
    context = {"changed": changed, "progress": _progress(steps, done)}
    response = render(request, "setup_game.html#poll", context)
    add_never_cache_headers(response)
    return response


urlpatterns = [
    path("setup/ticks", setup_ticks, name="setup-ticks"),
    path("setup/ticks/state", setup_ticks_state, name="setup-ticks-state"),
]
