"""A payday entered in a tracked Traders of Osaka game (issue 15): ``/osaka/games/<token>/payday`` (GET: the form
with its preview, as the calculator works it out; POST: record it, version-checked, docs/sync.md: when the game
changed first, the answer says what was recorded meanwhile beside the button and asks before recording it too)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers

from companion.errors import Conflict, Refused
from companion.http import HtmxHttpRequest
from companion.models.osaka import OsakaEvent
from companion.presenters.osaka import new_cid, token_of
from companion.services.osaka import record
from companion.services.osaka_access import Opened
from companion.services.osaka_log import held_before, payday_data
from companion.views.osaka.access import opened_by_token
from companion.views.osaka.calculator import RESULT_TARGET, Worked, form_context, work_out
from companion.views.osaka.forms import ShipsForm, holding_forms, moment_data
from companion.views.osaka.forms_games import VersionedForm
from scoring.problems import join

#: The changes a payday's conflict names at most (the table rarely makes more than one while a payday is typed).
MEANWHILE_MAX: Final = 5


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
        if meta.is_valid() and meta.cleaned_data["v"] < opened.game.version:  # ended meanwhile: say by what
            return _conflict(request, opened, meta)
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
    except Conflict:
        opened.game.refresh_from_db()
        return _conflict(request, opened, meta)
    except Refused as exc:
        return _payday_response(request, {**context, "message": str(exc)}, worked, 400)
    back = reverse("osaka-game", args=[token_of(opened)]) + "#latest"
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": back})
    return redirect(back)


def _conflict(request: HtmxHttpRequest, opened: Opened, meta: VersionedForm) -> HttpResponse:
    """The form again (409), saying beside its button what was recorded since the version it was sent from."""
    context, worked = _payday_context(opened, request.POST, cid=meta.cleaned_data["cid"])
    context["conflict"] = _meanwhile(opened, meta.cleaned_data["v"])
    context["hidden"] = {"cid": context["hidden"]["cid"]}  # the version: on "Record mine too" alone
    return _payday_response(request, context, worked, 409)


def _meanwhile(opened: Opened, seen: int) -> dict[str, Any]:
    """What a payday sent from version ``seen`` answers when the game changed first (409): what was recorded
    meanwhile, as the log says it (public: never a VP count, RULINGS O6), and the choice of recording it as well
    (carrying the version now: the form itself no longer does, so a second tap on the button tapped first cannot
    record it silently) or dropping it. Most often another phone entered the same payday."""
    game = opened.game
    changes = list(game.events.filter(version__gt=seen).order_by("version")[:MEANWHILE_MAX])
    paydays = [e for e in changes if e.kind == "payday" and not e.undone and held_before(e.result)]
    if paydays:
        said = f"{' '.join(_payday_said(e) for e in paydays)} Yours was not saved"
        force, ask = "Record mine too", ": record it too only if it is another payday."
    else:
        lines = "; ".join(f"“{e.summary}” ({e.who})" for e in changes) or "a change"
        said = f"The game changed first: {lines}. Your payday was not saved"
        force, ask = "Record it anyway", "."
    if game.finished:  # what was recorded meanwhile ended the game: no payday is recorded after it
        force, ask = "", ". The game is over."
    back = reverse("osaka-game", args=[token_of(opened)]) + ("#latest" if paydays else "")
    return {"message": said + ask, "force": force, "version": game.version, "drop_url": back}


def _payday_said(event: OsakaEvent) -> str:
    held = held_before(event.result)
    what = f"A {held[0]} payday was" if len(held) == 1 else f"The {join(held)} paydays were"
    return f"{what} just recorded by {event.who}."


def _payday_response(
    request: HtmxHttpRequest, context: dict[str, Any], worked: Worked, status: int = 200
) -> HttpResponse:
    template = "osaka_game_payday.html"
    if request.htmx and "conflict" in context:
        template = "osaka_game_payday.html#conflict"  # the form, and the tokens as they are now
    elif request.htmx:
        template = (
            "osaka_payday.html#result-oob"
            if request.htmx.target == RESULT_TARGET
            else "osaka_payday.html#calc"
        )
    bad = any(f.errors for f in (worked.ships, *[p.form for p in worked.players]))
    response = render(request, template, context, status=400 if bad and status == 200 else status)
    add_never_cache_headers(response)
    return response
