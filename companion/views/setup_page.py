"""The setup as an open checklist (``GET /setup/game``, issue 3): the page a table shares.

The page names no hidden draw (issue 20): the game tracker reveals each when it is due, and "Track this game"
carries the whole setup there (:func:`track_url`). Its ticks are shared between the phones of one table code
(companion.views.setup_ticks).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from django.http import HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from companion.errors import UserError
from companion.http import HtmxHttpRequest
from companion.links import share_url
from companion.models.setup_progress import change_ticks, stream_of, ticked, ticks_of, tracked_game
from companion.setup_query import (
    game_url,
    house_query,
    house_summary,
    is_table,
    load_setup,
    new_table,
    options_query,
    options_summary,
    query_error,
    setup_names,
    spaced_seed,
    ticks_key,
    watch_code,
    watched,
)
from companion.tokens import new_token
from companion.views.answers import page_or_partial
from companion.views.setup_options import _options_error
from companion.views.setup_ticks import NOT_WATCH, live_root, progress, sections, ticks_url
from scoring.errors import quote
from setupgen import (
    PART_BY_KEY,
    Options,
    Setup,
    SetupCode,
    applicable_parts,
    checklist,
    generate,
    new_seed,
)
from setupgen.checklist import Step

# --- the setup as a checklist ---------------------------------------------------------------------------------

NOT_HERE = "This page shows no hidden draw: the game tracker reveals each one when it is due. Open “Track this game”."
"""An old address asking this page to reveal a hidden item (``show=`` or ``hide=``) gets the page and this line."""


def track_url(options: Options, seed: str, table: str, names: list[str] | None = None) -> str:
    """ "Track this game": the new-game form with every option of the setup, its code (re-rolls and house rules
    included), the table code (the ticks made on the setup page move into the game) and the names typed on the
    setup page. The form then has exactly that many players."""
    return f"{reverse('games-new')}?{options_query(options, seed, table=table, name=names or [])}"


def score_url(options: Options, seed: str, names: list[str]) -> str:
    """The quick score's start, with this setup's code and the table's names filled in."""
    edition = "akebono" if options.akebono else "base"
    extra: dict[str, str | list[str]] = {"edition": edition, "setup_kind": "seed", "name": names}
    return f"{reverse('scorepad-new')}?{options_query(options, seed, **extra)}"


def reroll_form(options: Options, setup: Setup, table: str, names: list[str]) -> dict[str, Any]:
    """The "Draw one part again" form (issue 26): the page's address once, as hidden fields, and one "Re-roll"
    button per random part of this game (``reroll=KEY``), each keeping every other part. A GET form: it works
    without JavaScript, and the page stays small (one address, not one link a part)."""
    params = parse_qs(options_query(options, setup.seed, table=table, name=names))
    return {
        "hidden": [(name, value) for name, values in params.items() for value in values],
        "parts": [{"key": key, "label": PART_BY_KEY[key].label} for key in applicable_parts(options)],
    }


SHARE_AGAIN = "The other phones still show the old setup: share this page's link with them again."
"""After a re-roll: the other phones' pages keep the code they opened, so the table needs the new link."""


def drawn_line(part: str) -> str:
    """What the page says after a part (or, ``all``, the whole setup) was drawn again: which part, never what a
    hidden part now holds, and that the other phones need the new link."""
    if part == "all":
        return f"A new setup drawn. {SHARE_AGAIN}"
    found = PART_BY_KEY.get(part)
    if found is None:
        return ""
    if found.hidden:
        return f"{found.label} drawn again, keeping every other part. They stay hidden: the game tracker reveals them when due. {SHARE_AGAIN}"
    return f"{found.label} drawn again, keeping every other part. {SHARE_AGAIN}"


def carry_ticks(before: Setup, after: Setup, table: str) -> None:
    """A re-roll on a table's page keeps the ticks of the steps it left as they were (the main board, the reserve,
    a part not drawn again): the table does not tick again what it already set up. A step whose draws changed
    starts unticked. A step is compared as the table reads it: its hidden draws are not on the page and change
    nothing the table does."""
    done = ticked(ticks_key(table, before))
    if not done:
        return

    def shown(step: Step) -> tuple[str, ...]:
        return (step.title, step.text, *step.details)

    now = {step.id: shown(step) for step in checklist(after)}
    same = {step.id for step in checklist(before) if step.id in done and now.get(step.id) == shown(step)}
    if same:
        change_ticks(ticks_key(table, after), add=same)


@require_safe
@never_cache  # the ticks change: a reload must ask again
def setup_game(request: HtmxHttpRequest) -> HttpResponse:
    """``GET /setup/game?players=N[&akebono=1][&grand_master=1]&seed=CODE&table=CODE``: the open checklist
    (``&watch=CODE`` instead of ``table``: its view-only page; a code not of this setup: 403).

    Without a seed or the table's code: a redirect that adds them (the address is the share link, and its table
    code keys the ticks). The page names no hidden draw: the game tracker reveals each when it is due. An address
    with ``show=`` or ``hide=`` (from when this page revealed items) gets the page and a line saying so.
    """
    try:
        options, setup, given = load_setup(request.GET)
        names = setup_names(request.GET)[: options.players]  # a 2-player game seats 2 of 4 names typed
        reroll = request.GET.get("reroll", "")
        if reroll and reroll != "all" and reroll not in applicable_parts(options):
            raise query_error("reroll", f"this game has no part {quote(reroll)} to draw again")
    except UserError as exc:
        return _options_error(request, exc)
    table = request.GET.get("table", "")
    if reroll:
        # Draw one part again (or the whole setup with the same house rules): a new code, then its page.
        code = setup.code
        new = SetupCode(new_seed(), house=code.house) if reroll == "all" else code.rerolled(reroll)
        drawn = {"drawn": reroll}
        if is_table(table):
            carry_ticks(setup, generate(options, str(new)), table)
        else:
            table = new_table()
        return HttpResponseRedirect(game_url(options, str(new), table=table, name=names, **drawn))
    watch = request.GET.get("watch", "")
    if given and watch and not table:
        stream = watched(watch, setup)
        if stream is None:
            raise UserError(NOT_WATCH, status=403)
        return _page(request, options, setup, names, stream, watch=watch)
    if not given or not is_table(table):
        # The address is the share link: it gets the code and the table's own token for its ticks.
        return HttpResponseRedirect(game_url(options, setup.seed, table=new_table(), name=names))
    return _page(request, options, setup, names, stream_of(ticks_key(table, setup)), table=table)


def _page(
    request: HtmxHttpRequest,
    options: Options,
    setup: Setup,
    names: list[str],
    stream: int,
    *,
    table: str = "",
    watch: str = "",
) -> HttpResponse:
    """The checklist of the table's code (``table``: its boxes save ticks) or of a view-only code (``watch``:
    the ticks as they are made, no box to tick, no link that carries the table's code)."""
    saved = ticks_of(stream)
    done = saved.done
    steps = checklist(setup)
    link = {"table": table} if table else {"watch": watch}
    house = setup.code.house
    context: dict[str, Any] = {
        "setup": setup,
        "can_tick": bool(table),
        "seed_spaced": spaced_seed(setup.seed),
        "summary": options_summary(options),
        "house_line": house_summary(house),
        "drawn_line": drawn_line(request.GET.get("drawn", "")),
        "names": names,
        "sections": sections(steps, done),
        "hidden_count": sum(1 for step in steps if step.hidden),
        "not_here": NOT_HERE if request.GET.get("show") or request.GET.get("hide") else "",
        "progress": progress(steps, done, "Ticks saved." if request.GET.get("saved") == "1" else ""),
        # said beside "Save ticks" too: the page comes back at the last step changed, not at the count
        "saved_note": request.GET.get("saved") == "1",
        "live": live_root(options, setup, stream, saved, **link),
        # The names typed on the setup page go with its links: every phone sees the seats by name, and its
        # "Track this game" fills them in.
        "share_url": share_url(request, game_url(options, setup.seed, name=names, **link)),
        "options_url": f"{reverse('setup-options')}?{options_query(options, None, **house_query(house), name=names)}",
        "sheet_urls": [
            (label, f"{reverse('setup-sheet')}?{options_query(options, setup.seed, size=size)}")
            for size, label in (("a4", "A4"), ("letter", "Letter"))
        ],
        "score_url": score_url(options, setup.seed, names),
    }
    if table:
        # Once a phone of the table made the game, "Track this game" opens that game (one game a table).
        tracked = tracked_game(stream)
        context |= {
            "done": sorted(done),
            "ticks_url": ticks_url(options, setup.seed, table, names),
            "write_id": new_token()[:24],
            "view_url": share_url(
                request, game_url(options, setup.seed, watch=watch_code(setup, table), name=names)
            ),
            "qr_url": f"{reverse('setup-qr')}?{options_query(options, setup.seed, table=table, name=names)}",
            "reroll_url": game_url(options, setup.seed, table=table, reroll="all", name=names),
            "reroll_form": reroll_form(options, setup, table, names),
            "track_url": reverse("game", args=[tracked])
            if tracked
            else track_url(options, setup.seed, table, names),
            "track_label": "Open the tracked game" if tracked else "Track this game",
            "tracked": bool(tracked),
        }
    response = page_or_partial(request, "setup_game.html", "setup", context)
    if request.htmx:
        response["HX-Push-Url"] = game_url(options, setup.seed, name=names, **link)
    if request.htmx and context["not_here"]:
        # An old page's reveal button targets one item: the answer is the whole checklist.
        response["HX-Retarget"] = "#setup"
        response["HX-Reswap"] = "outerHTML"
    return response


urlpatterns = [
    path("setup/game", setup_game, name="setup-game"),
]
