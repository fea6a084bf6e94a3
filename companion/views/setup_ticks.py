"""The setup checklist's shared ticks (issue 20), a shared thing of the live-table engine (issue 21, docs/sync.md
"The setup page's ticks"): ``POST /setup/ticks`` saves a tap once per write id, and an open page, poked through its
stream (``/live/setup/<number>``), pulls ``GET /setup/ticks/state`` for the boxes that changed.

Kept on the server (companion/models/setup_progress.py) under :func:`~companion.setup_query.ticks_key`. Nothing
here names a hidden draw: a tick is a step id, and a piece is a box or the tick count (issue 20).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import get_template
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from companion.errors import UserError
from companion.live.engine import Answer, Pieces, held, is_live, mutation_id, once, pull_response
from companion.live.kinds import key, setup_token
from companion.live.query import pulled_version
from companion.models.setup_progress import Ticks, change_ticks, stream_of, ticks_of, tracked_game, version_of
from companion.setup_query import (
    NO_TABLE,
    game_url,
    is_table,
    load_setup,
    options_query,
    sentence,
    setup_names,
    ticks_key,
    watched,
)
from scoring.errors import quote
from setupgen import Options, Setup, checklist
from setupgen.checklist import Section, Step

KIND = "setup"
NOT_WATCH = "This view-only link is not one of this setup's: open the setup from its share link."


def ticks_url(options: Options, seed: str, table: str, names: list[str] | None = None) -> str:
    """Where the no-JavaScript form saves; the page's names ride along, so the page it returns to keeps them."""
    return f"{reverse('setup-ticks')}?{options_query(options, seed, table=table, name=names or [])}"


def live_root(options: Options, setup: Setup, stream: int, ticks: Ticks, **link: str) -> dict[str, str]:
    """What the page's live root says (docs/sync.md): the thing, its stream, its pull (with the page's ``table=``
    or ``watch=``) and its version."""
    query = options_query(options, setup.seed, **link)
    return {
        "thing": f"{KIND}-{stream}",
        "stream": reverse(f"live-stream-{KIND}", args=[setup_token(stream)]),
        "pull": f"{reverse('setup-ticks-state')}?{query}",
        "version": str(ticks.version),
    }


def sections(steps: tuple[Step, ...], done: frozenset[str]) -> list[dict[str, Any]]:
    groups: dict[Section, list[dict[str, Any]]] = {}
    for step in steps:
        groups.setdefault(step.section, []).append({"step": step, "done": step.id in done})
    return [{"section": section, "steps": steps} for section, steps in groups.items()]


TRACKED = "This setup's game is tracked: tick the steps in the game, where the whole table sees them."
"""A tick saved on the setup page after "Track this game" made the table's game: the game does not see it."""


def progress(
    steps: tuple[Step, ...], done: frozenset[str], message: str = "", level: str = "ok", game_url: str = ""
) -> dict[str, Any]:
    """The tick count line (``#setup-progress``): how many steps are ticked, and what the last save did
    (``game_url``: the table's tracked game, where the ticks now belong)."""
    return {
        "done_count": sum(1 for step in steps if step.id in done),
        "total": len(steps),
        "message": message,
        "level": level,
        "game_url": game_url,
    }


def _pieces(
    request: HttpRequest,
    steps: tuple[Step, ...],
    done: frozenset[str],
    line: dict[str, Any],
    *,
    can_tick: bool = True,
) -> Pieces:
    """Every piece of the page's ticks (each box, the count), rendered as the page renders them (a view-only
    page's boxes cannot be ticked)."""
    pieces = Pieces()
    context = {
        "steps": [{"step": s, "done": s.id in done} for s in steps],
        "progress": line,
        "can_tick": can_tick,
        "live_pieces": pieces,
    }
    get_template("setup_game.html#pieces").render(context, request)
    return pieces


def _answer(
    request: HttpRequest,
    steps: tuple[Step, ...],
    ticks: Ticks,
    line: dict[str, Any],
    named: Collection[str],
    status: int = 200,
) -> Answer:
    """A write's answer to the live script: the pieces whose digest the page does not hold, and the boxes the write
    named that the page shows otherwise (a refused tap is taken back)."""
    shown = set(request.POST.getlist("done"))
    boxes = {f"box-{i}" for i in named if (i in shown) != (i in ticks.done)}
    have = held(request.POST.get("h", ""))
    found = _pieces(request, steps, ticks.done, line).found
    return Answer(
        status, "".join(p.html for p in found if p.id and (p.h not in have or p.id in boxes)), ticks.version
    )


def _table_setup(request: HttpRequest, outcome: str) -> tuple[Options, Setup, int, bool]:
    """The options, the setup and the ticks' number of a ticks address (``?players=N&...&seed=CODE&table=TOKEN``);
    or :class:`UserError`: 403 without a valid table code, 400 for bad options or seed (``outcome`` ends its
    message); nothing was saved."""
    table = request.GET.get("table", "")
    if not is_table(table):
        raise UserError(NO_TABLE.replace("Nothing was saved.", outcome), status=403)
    try:
        options, setup, _ = load_setup(request.GET, seed_required=True)
    except UserError as exc:
        raise UserError(f"{sentence(str(exc))} {outcome}") from None
    return options, setup, stream_of(ticks_key(table, setup)), True


@require_POST
def setup_ticks(request: HttpRequest) -> HttpResponse:
    """``POST /setup/ticks?players=N[&akebono=1][&grand_master=1]&seed=CODE&table=TOKEN``: save ticks, once per
    write id (``lc``/``ln``, companion.live.engine.once: a replay answers what the first answered).

    ``step=ID`` (the live script, on each tap): tick that one step if ``done=ID`` is posted too, else untick it;
    the answer is the pieces that changed (the box, the count and its message). Without ``step`` (the
    no-JavaScript "Save ticks" form): ``done`` lists the ticked boxes and ``seen`` the ticks the page showed, so
    only what this phone changed is saved and another phone's ticks made meanwhile stay; then 303 back to the
    page, at the last step it changed. Bad options, a bad seed or no table token: 400/403, nothing saved; an
    unknown step id: 400 (the live script gets the count line with the message).
    """
    options, setup, stream, _ = _table_setup(request, "Nothing was saved.")
    ticks_of_key = ticks_key(request.GET["table"], setup)
    steps = checklist(setup)
    titles = {step.id: step.title for step in steps}
    posted = [value.strip() for value in request.POST.getlist("done")]
    seen = [value.strip() for value in request.POST.getlist("seen")]
    step_id = request.POST["step"].strip() if "step" in request.POST else None
    named = [step_id] if step_id is not None else sorted({*posted, *seen})
    unknown = [value for value in (*named, *posted) if value not in titles]
    if unknown:
        message = f"This setup has no step {quote(unknown[0])}; nothing was saved."
        if not is_live(request):
            raise UserError(message)
        now = ticks_of(stream)
        return _answer(request, steps, now, progress(steps, now.done, message, "error"), (), 400).response()
    if step_id is not None:
        add, remove = ({step_id}, set()) if step_id in posted else (set(), {step_id})
    else:
        add, remove = set(posted) - set(seen), set(seen) - set(posted)

    def write() -> Answer:
        ticks = change_ticks(ticks_of_key, add=add, remove=remove)
        if step_id is not None:
            message = f"Saved: “{titles[step_id]}” {'ticked' if step_id in ticks.done else 'unticked'}."
        else:
            message = "Ticks saved."
        tracked = tracked_game(stream)
        if is_live(request):
            if tracked is None:
                line = progress(steps, ticks.done, message)
            else:
                line = progress(
                    steps, ticks.done, f"{message} {TRACKED}", "warning", reverse("game", args=[tracked])
                )
            return _answer(request, steps, ticks, line, named)
        extra = {} if step_id is not None else {"saved": "1"}
        # back where the player was: the step tapped, or the last box the form changed (the list is long)
        changed = [step.id for step in steps if step.id in add | remove]
        where = step_id if step_id is not None else (changed[-1] if changed else None)
        anchor = f"#step-{where}" if where is not None else "#setup-progress"
        names = setup_names(request.GET)[: options.players]
        back = game_url(options, setup.seed, table=request.GET["table"], name=names, **extra) + anchor
        return Answer.of(HttpResponseRedirect(back, status=303), ticks.version)

    answer, replay = once(key(KIND, stream), mutation_id(request.POST), write)
    return answer.response(replay=replay)


@require_safe
@never_cache
def setup_ticks_state(request: HttpRequest) -> HttpResponse:
    """``GET /setup/ticks/state?players=N&...&seed=CODE&(table=TOKEN|watch=CODE)&v=N[&h=DIGESTS][&lc=IDS]``: the
    pull of an open page, its edit page (``table``) or its view-only page (``watch``; docs/sync.md "Pieces").
    204 while the setup is still at version ``v`` (one indexed query, no checklist built); else the boxes and the
    count whose digests the page does not hold. Bad options or seed, or a bad ``v``: 400; no valid table or
    view-only code: 403."""
    found = _watched_setup(request) if "watch" in request.GET else _table_setup(request, "Reload the page.")
    _, setup, stream, can_tick = found
    seen = pulled_version(request)
    if seen is not None and version_of(stream) == seen:
        return HttpResponse(status=204)
    ticks = ticks_of(stream)
    steps = checklist(setup)
    # No message: a new line above the list would move the steps under a thumb (the count keeps its height).
    pieces = _pieces(request, steps, ticks.done, progress(steps, ticks.done), can_tick=can_tick)
    return pull_response(request, key(KIND, stream), pieces, ticks.version)


def _watched_setup(request: HttpRequest) -> tuple[Options, Setup, int, bool]:
    """The options, the setup and the ticks' number of a view-only address (``watch=CODE``); or the refusal."""
    try:
        options, setup, _ = load_setup(request.GET, seed_required=True)
    except UserError as exc:
        raise UserError(f"{sentence(str(exc))} Reload the page.") from None
    stream = watched(request.GET["watch"], setup)
    if stream is None:
        raise UserError(NOT_WATCH, status=403)
    return options, setup, stream, False


urlpatterns = [
    path("setup/ticks", setup_ticks, name="setup-ticks"),
    path("setup/ticks/state", setup_ticks_state, name="setup-ticks-state"),
]
