"""``{% results_panel %}``: on a result page, what issue 14 adds: the kept result filed under a group (or taken
out, or removed) with the edit link, and on both links the Web Share button (copy where there is none) and the
BG Stats push link, and the game's length when a tracked game's log knows it (issue 25). On a sheet's result page it reads the page's ``sheet``, ``can_edit`` and ``view_url``; a
checked pad's page gives its ``result`` instead. Writes nothing."""

from __future__ import annotations

from typing import Any

from django import template

from companion.models.results import RESTORE_DAYS, Result
from companion.services.play_time import duration_words, play_time
from companion.services.result_export import bgstats_url

register = template.Library()


@register.inclusion_tag("results_panel.html", takes_context=True)
def results_panel(context: dict[str, Any]) -> dict[str, Any]:
    result = context.get("result")
    if not isinstance(result, Result):
        sheet = context.get("sheet")
        result = (
            Result.objects.filter(sheet=sheet).select_related("group").first() if sheet is not None else None
        )
    can_edit = bool(context.get("can_edit"))
    shown = result if result is not None and not result.removed else None
    time = play_time(shown) if shown is not None else None
    return {
        "can_edit": can_edit,
        "result": shown,
        "edit_token": shown.edit_token if shown is not None else "",
        "removed": result is not None and result.removed,
        "view_url": context.get("view_url", ""),
        "bgstats": bgstats_url(shown, time) if shown is not None else "",
        "duration": duration_words(time.minutes) if time is not None else "",
        "csrf_token": context.get("csrf_token"),
        "group_url": shown.group.get_absolute_url() if shown and shown.group and can_edit else "",
        # A removed result's edit link offers to restore it for RESTORE_DAYS days (issue 20).
        "restore_until": result.restorable_until if result is not None and can_edit else None,
        "restore_token": result.edit_token if result is not None and can_edit else "",
        "restore_days": RESTORE_DAYS,
    }
