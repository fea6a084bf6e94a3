"""A tracked Traders of Osaka game's links, log and tally sheet (issue 15): ``/osaka/games/<token>/share`` (links
with QR codes), ``/renew`` (POST: a new private link for a seat), ``/log`` (the whole log), ``/sheet.pdf``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from companion.errors import Refused
from companion.forms import messages_of
from companion.links import shared
from companion.models.osaka import OsakaSeat
from companion.pdf.osaka_sheet import PAGE_SIZES, Tally, TallyPayday, TallyPlayer, tally_sheet
from companion.presenters.osaka import new_cid, ranking, token_of
from companion.services.osaka import renew_link
from companion.services.osaka_access import Opened
from companion.services.osaka_log import ENTRY_KINDS
from companion.views.answers import pdf_response
from companion.views.osaka.access import error, opened_by_token
from companion.views.osaka.forms_games import RenewForm


@require_safe
@opened_by_token(edit=False)
def game_share(request: HttpRequest, opened: Opened) -> HttpResponse:
    """Links with QR codes: the edit link, the view-only link, and each player's own link until it is opened."""
    game = opened.game
    links = []
    if opened.access.value == "edit":
        links.append(
            {"title": "The table: this link can change the game", **shared(request, game.edit_url()).item}
        )
    links.append({"title": "Onlookers: view only", **shared(request, game.view_url()).item})
    private = []
    if opened.access.value == "edit":
        for seat in game.seats.all():
            own = (
                shared(request, seat.private_url()).item
                if seat.private_opened is None
                else {"url": "", "qr": ""}
            )
            private.append({"seat": seat, **own})
    return render(
        request,
        "osaka_game_share.html",
        {"game": game, "links": links, "private": private, "token": token_of(opened), "cid": new_cid()},
    )


@require_POST
@opened_by_token(edit=True)
def game_renew(request: HttpRequest, opened: Opened) -> HttpResponse:
    """A new private link for a seat: the table's phone for any player, a player's own phone for theirs."""
    form = RenewForm(request.POST)
    if not form.is_valid():
        return error(
            request, 400, f"Choose one of the game's players. {' '.join(messages_of(form, named=True))}"
        )
    seat = form.cleaned_data["seat"]
    if opened.seat is not None and opened.seat.seat != seat:
        return error(request, 403, "A player's own link can only replace that player's link.")
    try:
        renew_link(opened.game.pk, seat=seat, who=opened.who, cid=form.cleaned_data["cid"])
    except Refused as exc:
        return error(request, 400, str(exc))
    if opened.seat is not None:  # the phone's own link has just changed: show the new one
        return redirect("osaka-game", OsakaSeat.objects.get(pk=opened.seat.pk).private_token)
    return redirect("osaka-game-share", token_of(opened))


@require_safe
@opened_by_token(edit=False)
def game_log(request: HttpRequest, opened: Opened) -> HttpResponse:
    return render(
        request,
        "osaka_game_log.html",
        {
            "game": opened.game,
            "events": opened.game.events.all(),
            "token": token_of(opened),
            "can_edit": opened.can_edit,
            "entry_kinds": ENTRY_KINDS,
            "cid": new_cid(),
        },
    )


@require_safe
@opened_by_token(edit=False)
def game_sheet(request: HttpRequest, opened: Opened) -> HttpResponse:
    """The filled tally sheet: tokens and paydays; VP cards only once the game is over (RULINGS O6)."""
    size = request.GET.get("size", "a4")
    if size not in PAGE_SIZES:
        return error(request, 400, "No such tally sheet: size is a4 or letter.")
    game = opened.game
    seats = list(game.seats.all())
    ranked = {s.pk: r for s, r in ranking(seats)} if game.finished else {}
    paydays = []
    for e in game.events.filter(kind="payday", undone=False).order_by("version"):
        result = e.result.get("payday") if isinstance(e.result, dict) and e.result.get("applied") else None
        if result is None:
            continue
        for i, colour in enumerate(result["held"]):
            sold = tuple(_vp_of(p, colour) if game.finished else None for p in result["players"])
            sank = tuple(result["sank"]) if i == 0 else ()
            last = result["ended"] and i == len(result["held"]) - 1
            paydays.append(TallyPayday(colour, sank, sold, ended=last))
    tally = Tally(
        players=tuple(
            TallyPlayer(
                s.name,
                s.trader,
                s.tokens,
                s.vp if game.finished else None,
                ranked[s.pk].rank if ranked else None,
            )
            for s in seats
        ),
        paydays=tuple(paydays),
        subtitle=f"Game of {timezone.localdate(game.created):%d %B %Y} · {len(seats)} players",
        vp_secret=not game.finished,
        end=game.end,
        tie_breaks=tuple(dict.fromkeys(r.tie_break for r in ranked.values() if r.tie_break)),
    )
    return pdf_response(tally_sheet(tally, size=size), f"traders-of-osaka-game-{size}.pdf")


def _vp_of(player: dict[str, Any], colour: str) -> int:
    """The VP cards one payday of ``colour`` gave a player (their set's cards taken plus the draw pile)."""
    for take in player.get("take", []):
        if take["colour"] == colour:
            return len(take["vp_cards"]) + int(take["from_pile"])
    return 0
