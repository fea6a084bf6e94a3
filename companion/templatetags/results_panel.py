"""``{% results_panel %}``: on a result page, what issue 14 adds: the kept result filed under a group (or taken
out, or removed) with the edit link, and on both links the Web Share button (copy where there is none) and the
BG Stats push link, and the game's length when a tracked game's log knows it (issue 25). On a sheet's result page
it reads the page's ``sheet``, ``can_edit`` and ``view_url``; a checked pad's page gives its ``result`` instead.

On an ended Traders of Osaka game's page (issue 23), ``{% results_panel osaka=game %}``: it keeps the game's final
ranking first (:func:`companion.services.results.record_osaka_result`, as a sheet's result page does when it is
reached; nothing is written while the game runs, and nothing when the game has not changed since), and offers the
writes on the game's edit link only: a player's own link and the view-only link read it."""

from __future__ import annotations

from typing import Any

from django import template

from companion.links import share_url
from companion.models.osaka import OsakaGame
from companion.models.results import RESTORE_DAYS, Result
from companion.services.osaka_access import Access, Opened
from companion.services.play_time import duration_words, play_time
from companion.services.result_export import bgstats_url
from companion.services.results import record_osaka_result

register = template.Library()


def _osaka(context: dict[str, Any], game: OsakaGame) -> tuple[Result | None, bool, str]:
    """An ended Osaka game's result, whether this link may write it (the game's edit link), its view link."""
    result = record_osaka_result(game=game) if game.finished else None
    opened = context.get("opened")
    can_edit = isinstance(opened, Opened) and opened.access is Access.EDIT
    request = context.get("request")
    return result, can_edit, share_url(request, game.view_url()) if request is not None else game.view_url()


@register.inclusion_tag("results_panel.html", takes_context=True)
def results_panel(context: dict[str, Any], osaka: OsakaGame | None = None) -> dict[str, Any]:
    if osaka is not None:
        result, can_edit, view_url = _osaka(context, osaka)
    else:
        result = context.get("result")
        if not isinstance(result, Result):
            sheet = context.get("sheet")
            result = (
                Result.objects.filter(sheet=sheet).select_related("group").first()
                if sheet is not None
                else None
            )
        can_edit, view_url = bool(context.get("can_edit")), context.get("view_url", "")
    shown = result if result is not None and not result.removed else None
    time = play_time(shown) if shown is not None else None
    return {
        "can_edit": can_edit,
        "result": shown,
        "edit_token": shown.edit_token if shown is not None else "",
        "removed": result is not None and result.removed,
        "view_url": view_url,
        "bgstats": bgstats_url(shown, time) if shown is not None else "",
        "duration": duration_words(time.minutes) if time is not None else "",
        "csrf_token": context.get("csrf_token"),
        # A removed result keeps its group (for its restore): the way back to the group's page stays.
        "group_url": result.group.get_absolute_url() if result and result.group and can_edit else "",
        # A removed result's edit link offers to restore it for RESTORE_DAYS days (issue 20).
        "restore_until": result.restorable_until if result is not None and can_edit else None,
        "restore_token": result.edit_token if result is not None and can_edit else "",
        "restore_days": RESTORE_DAYS,
        "title": "Traders of Osaka result" if osaka is not None else "IKI result",
    }
