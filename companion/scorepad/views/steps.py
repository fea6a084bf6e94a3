"""A step and a tap: ``/score/<token>/<step>/?p=<player>`` shows one step for one player (``?v=N``: 204 while the
sheet is still at version N, the phones' poll; a live pull: the pieces the page does not hold); ``.../entry/`` takes
an entry (htmx or live: only the pieces it changed, or the whole step when the page was behind; without
JavaScript: a redirect back to the entry). What a tap writes is :func:`companion.scorepad.services.record_entries`;
what it shows, :class:`~companion.scorepad.presenter.StepView`; what it sends back,
:func:`~companion.scorepad.reply.pieces_for`."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import urlencode

from django.db.models import CharField, OuterRef, Value
from django.db.models.functions import Cast, Concat
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import get_template
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, HttpResponseLocation, reswap

from companion.http import HtmxHttpRequest
from companion.live.engine import (
    Answer,
    Pieces,
    Stored,
    held,
    is_live,
    mutation_id,
    once,
    pull_response,
    stored_id,
)
from companion.live.query import pulled_version
from companion.models.scoresheets import ScoreSheet
from companion.scorepad import services
from companion.scorepad.entries import (
    NUMBER_LABELS,
    BadEntry,
    EntryChange,
    EntryKey,
    entries_of,
    parse_entries,
)
from companion.scorepad.offers import TYPE_CHOICES, group_of
from companion.scorepad.presenter import StepView
from companion.scorepad.reply import pieces_for
from companion.scorepad.services import SheetBusy
from companion.scorepad.steps import STEPS, Step
from companion.scorepad.views.sheets import (
    edit_sheet,
    missing,
    opened_of,
    player_of,
    step_of,
    step_url,
)
from companion.tokens import new_token
from companion.views.answers import page_or_partial

BUSY: Final = "Other phones kept changing this sheet at the same moment; make the entry again."


def _as_read(sheet: ScoreSheet) -> ScoreSheet:
    """The sheet as read, kept apart from the entry's changes: only what they change (the table, the stack) is
    copied, not the model instance and its state."""
    before = copy.copy(sheet)
    before.table, before.stack = copy.deepcopy(sheet.table), dict(sheet.stack)
    return before


def _step_context(view: StepView) -> dict[str, Any]:
    ahead, behind = view.neighbour("next"), view.neighbour("prev")
    return {
        "view": view,
        "types": TYPE_CHOICES,
        "forward": f"Next: {_title(view, ahead)}" if ahead else "See the result",
        "back": "Back" if behind else "",
        "last": ahead is None,
        "write_id": new_token()[:24],
    }


def _render_step(request: HttpRequest, view: StepView, status: int = 200) -> HttpResponse:
    context = _step_context(view)
    response = page_or_partial(request, "scorepad_step.html", "step", context, status=status)
    add_never_cache_headers(response)
    return response


def _title(view: StepView, there: tuple[Step, int]) -> str:
    """What Next shows: the next player's name on this line, or the next line's title."""
    step, player = there
    return step.title if step is not view.step else str(view.players[player]["name"])


def _pieces(before: StepView, after: StepView, changes: list[EntryChange], refused: bool) -> HttpResponse:
    base = {"view": after, "types": TYPE_CHOICES, "oob": True}
    body = "".join(
        get_template(f"scorepad_step.html#{name}").render({**base, **extra})
        for name, extra in pieces_for(before, after, changes, refused=refused)
    )
    return reswap(HttpResponse(body), "none")


# --- views -------------------------------------------------------------------------------------------------------


@require_safe
def sheet_start(request: HttpRequest, token: str) -> HttpResponse:
    return HttpResponseRedirect(step_url(edit_sheet(token), STEPS[0]))


@require_safe
@never_cache
def step(request: HttpRequest, token: str, slug: str) -> HttpResponse:
    """A step for one player (``?p=``); ``?v=N``, the poll: 204 while the sheet is at version N."""
    seen = pulled_version(request)
    if seen is not None and ScoreSheet.objects.filter(token=token, version=seen).exists():
        return HttpResponse(status=204)
    sheet = edit_sheet(token)
    view = StepView(
        sheet,
        step_of(slug, sheet.akebono),
        player_of(request.GET.get("p")) or 0,
        opened_of(request.GET.get("open", "")),
    )
    return _pull(request, view) if is_live(request) else _render_step(request, view)


def _rendered(request: HttpRequest, view: StepView) -> Pieces:
    """The step's live pieces, rendered, each with its digest."""
    pieces = Pieces()
    get_template("scorepad_step.html#step").render({**_step_context(view), "live_pieces": pieces}, request)
    return pieces


def _pull(request: HttpRequest, view: StepView) -> HttpResponse:
    """A live pull: the pieces of the step whose digest the page does not hold (``h``)."""
    return pull_response(request, f"sheet:{view.sheet.pk}", _rendered(request, view), view.sheet.version)


#: The engine's name of a sheet row (``sheet:<pk>``, companion.live.kinds), for the write's stored-answer lookup.
_THING: Final = Concat(Value("sheet:"), Cast(OuterRef("pk"), output_field=CharField()))


@require_POST
def entry(request: HtmxHttpRequest, token: str, slug: str) -> HttpResponse:
    """An entry (or Next, Back, the result), applied once per write id (``lc``/``ln``, companion.live): read
    against the fresh sheet, saved with a version-checked write. The query reading the sheet also finds the
    write's stored answer when it is a replay (companion.live.engine.stored_id)."""
    post = {k: request.POST.get(k, "") for k in request.POST}
    mid = mutation_id(post)
    read: list[ScoreSheet] = []  # the sheet as the write read it, before its changes

    def write() -> Answer:
        return _entry(request, token, slug, post, stored_id(_THING, mid), read)

    answer, replay = once(lambda: f"sheet:{read[0].pk}", mid, write, looked_up=True)
    return answer.response(replay=replay)


def _entry(
    request: HtmxHttpRequest, token: str, slug: str, post: dict[str, str], stored: Any, read: list[ScoreSheet]
) -> Answer:
    made: list[EntryChange] = []

    def changes(sheet: ScoreSheet) -> list[EntryChange]:
        if (found := getattr(sheet, "stored", None)) is not None:
            raise Stored(found)  # a replay: once() answers what the first one answered
        read[:] = [_as_read(sheet)]
        step_of(slug, sheet.akebono)
        made[:] = parse_entries(post, sheet.names)  # again if another phone wrote meanwhile
        if is_live(request) and not post.get("force"):
            _check_stale(sheet, made, post)
        return made

    shown, opened = player_of(post.get("p")), opened_of(post.get("open", ""))
    try:
        sheet = services.record_entries(token=token, changes=changes, stored=stored)
    except ScoreSheet.DoesNotExist:
        raise missing(token) from None
    except (SheetBusy, BadEntry, Stale) as exc:
        bad, status = (str(exc), 400) if isinstance(exc, BadEntry) else (str(exc) or BUSY, 409)
        sheet = edit_sheet(token)
        refused = StepView(sheet, step_of(slug, sheet.akebono), shown or 0, opened, bad)
        if is_live(request):
            # Answered at the sheet's version, which the page then shows: every piece it lacks, by the digests
            # the write carries (``h``), so another phone's change since comes with the refusal (docs/sync.md).
            lacking = _rendered(request, refused).missing(held(post.get("h", "")))
            return Answer.of(HttpResponse("".join(p.html for p in lacking), status=status), sheet.version)
        return Answer.of(_render_step(request, refused, status), sheet.version)
    player = shown if shown is not None else (made[0].player if made else 0)
    view = StepView(sheet, step_of(slug, sheet.akebono), player, opened)
    return Answer.of(_saved(request, view, made, read[0], opened, post), sheet.version)


def _saved(
    request: HtmxHttpRequest,
    view: StepView,
    made: list[EntryChange],
    read: ScoreSheet,
    opened: list[str],
    post: Mapping[str, str],
) -> HttpResponse:
    """The answer to an entry saved (or to Next, Back, the result): ``view`` shows the sheet saved, ``read`` the
    sheet as the write read it."""
    if post.get("go") in ("next", "prev", "result"):
        return _go(request, view, post["go"], _kept(post))
    if (
        (request.htmx or is_live(request))
        and made
        and (is_live(request) or post.get("v") == str(read.version))
    ):
        # The page showed the sheet just before these changes: only what they changed. (A live page that was
        # behind pulls the rest: the answer's version says it.)
        before = StepView(read, view.step, view.player, opened)
        return _pieces(before, view, made, refused=bool(post.get("refused")))
    if is_live(request):
        return _pieces(view, view, [], refused=bool(post.get("refused")))
    if request.htmx:
        return _render_step(request, view)
    return _back_to_entry(view, made, opened, _kept(post))


class Stale(Exception):
    """A typed number replaces a value another phone changed since this page showed it: a conflict (409)."""


def _check_stale(sheet: ScoreSheet, made: list[EntryChange], post: Mapping[str, str]) -> None:
    """A live "set" carries the value it replaces (``was-``): when the sheet holds neither that nor the new value,
    another phone changed it first, and the person decides (docs/sync.md "Conflicts")."""
    for change in made:
        if change.op != "set":
            continue
        key = EntryKey(change.player, change.field).html_id
        now = sheet.table["players"][change.player].get(change.field, 0)
        if str(now) not in (post.get(f"was-{key}"), str(change.value)):
            name = sheet.names[change.player]
            raise Stale(f"Another phone changed {name}'s {NUMBER_LABELS[change.field]} to {now} first.")


def _kept(post: Mapping[str, str]) -> dict[str, str]:
    """What a step opened from the pad check carries from page to page: the line in doubt and whose it is
    (``?target=variety:12&who=Anaïs``, shown by the ``check_target`` tag, which checks them)."""
    return {key: post[key][:40] for key in ("target", "who") if post.get(key)}


def _carry(url: str, kept: Mapping[str, str]) -> str:
    """``url`` with what a step carries from page to page (:func:`_kept`) added to its query."""
    return f"{url}{'&' if '?' in url else '?'}{urlencode(kept)}" if kept else url


def _go(request: HtmxHttpRequest, view: StepView, go: str, kept: Mapping[str, str]) -> HttpResponse:
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
    view: StepView, made: list[EntryChange], opened: list[str], kept: Mapping[str, str]
) -> HttpResponse:
    """Without JavaScript: the same step again, the tapped card's group open, scrolled to the entry."""
    keys = entries_of(made)
    groups = [g for k in keys if (g := group_of(k))]
    url = step_url(view.sheet, view.step, view.player, open=" ".join(dict.fromkeys([*opened, *groups])))
    url = _carry(url, kept)
    return HttpResponseRedirect(f"{url}#{keys[-1].html_id}" if keys else url)
