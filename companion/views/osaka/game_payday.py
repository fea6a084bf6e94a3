"""A payday entered in a tracked Traders of Osaka game (issue 15): ``/osaka/games/<token>/payday`` (GET: the form
with its preview, as the calculator works it out; POST: record it, version-checked, docs/sync.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers

from companion.errors import Conflict, Refused
from companion.http import HtmxHttpRequest
from companion.presenters.osaka import new_cid, token_of
from companion.services.osaka import record
from companion.services.osaka_access import Opened
from companion.services.osaka_log import payday_data
from companion.views.osaka.access import opened_by_token
from companion.views.osaka.calculator import RESULT_TARGET, Worked, form_context, work_out
from companion.views.osaka.forms import ShipsForm, holding_forms, moment_data
from companion.views.osaka.forms_games import VersionedForm


def _payday_context(
    opened: Opened, data: Mapping[str, Any] | None, message: str = "", cid: str = ""
) -> tuple[dict[str, Any], Worked]:
    game = opened.game
    seats = list(game.seats.all())
    ships = ShipsForm(data, with_players=False)
    forms_ = holding_forms(data, ships, len(seats), with_name=False, with_tokens=False)
    tokens = [{c.value: n for c, n in s.tokens.items()} for s in seats]
    worked = work_out(ships, forms_, names=[s.name for s in seats], tokens=tokens)
    url = reverse("osaka-game-payday", args=[token_of(opened)])
    context = form_context(worked)
    context.update(
        {
            "game": game,
            "token": token_of(opened),
            "seats": seats,
            "calc_url": url,
            "submit_url": url,
            "submit_method": "post",
            "submit_label": "Record this payday",
            "hidden": {"v": game.version, "cid": cid or new_cid()},
            "message": message,
        }
    )
    return context, worked


@opened_by_token(edit=True)
def game_payday(request: HtmxHttpRequest, opened: Opened) -> HttpResponse:
    """GET: the payday form with its preview (htmx: the preview or the form); POST: record the payday."""
    if request.method in ("GET", "HEAD"):
        data = request.GET if request.GET else None
        context, worked = _payday_context(opened, data)
        return _payday_response(request, context, worked)
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    meta = VersionedForm(request.POST)
    context, worked = _payday_context(opened, request.POST, cid=request.POST.get("cid", ""))
    if opened.game.finished:
        return _payday_response(
            request, {**context, "message": "The game is over: no more paydays."}, worked, 400
        )
    if worked.result is not None and not any(p.sales or p.lost for p in worked.result.players):
        message = "No one sells or loses anything in this payday: enter the goods first."
        return _payday_response(request, {**context, "message": message}, worked, 400)
    if not meta.is_valid() or worked.result is None:
        message = (
            "Check the payday: the rules or the numbers say no." if meta.is_valid() else "Reload the page."
        )
        return _payday_response(request, {**context, "message": message}, worked, 400)
    players = [
        p.form.player_data(name=s.name, tokens={})
        for p, s in zip(worked.players, context["seats"], strict=True)
    ]
    payday = payday_data(moment_data(worked.ships, players))
    try:
        record(
            opened.game.pk,
            kind="payday",
            data=payday,
            who=opened.who,
            cid=meta.cleaned_data["cid"],
            seen=meta.cleaned_data["v"],
        )
    except Conflict as exc:
        opened.game.refresh_from_db()
        context, worked = _payday_context(opened, request.POST)
        return _payday_response(request, {**context, "message": str(exc)}, worked, 409)
    except Refused as exc:
        return _payday_response(request, {**context, "message": str(exc)}, worked, 400)
    back = reverse("osaka-game", args=[token_of(opened)]) + "#latest"
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": back})
    return redirect(back)


def _payday_response(
    request: HtmxHttpRequest, context: dict[str, Any], worked: Worked, status: int = 200
) -> HttpResponse:
    template = "osaka_game_payday.html"
    if request.htmx:
        template = (
            "osaka_payday.html#result-oob"
            if request.htmx.target == RESULT_TARGET
            else "osaka_payday.html#calc"
        )
    bad = any(f.errors for f in (worked.ships, *[p.form for p in worked.players]))
    response = render(request, template, context, status=400 if bad and status == 200 else status)
    add_never_cache_headers(response)
    return response
