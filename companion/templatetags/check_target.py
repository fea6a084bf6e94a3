"""``{% check_target %}``: on a walk-through step opened from the pad check, the number the pad holds for the line
in doubt (``?target=variety:12&who=Anaïs``, made by :func:`companion.views.checks.pad.walk_target`), so the table can
see where its paper went another way. Whatever the query holds, it is shown escaped or not at all."""

from __future__ import annotations

from typing import Any

from django import template

from companion.forms import whole_number
from scoring.padcheck import LINE_WORDS

register = template.Library()
LINE_NAMES = {**LINE_WORDS, "total": "total", "rank": "place"}


@register.inclusion_tag("check_target.html", takes_context=True)
def check_target(context: dict[str, Any]) -> dict[str, Any]:
    request = context.get("request")
    raw = request.GET.get("target", "") if request is not None else ""
    line, _, value = raw.partition(":")
    if line not in LINE_NAMES:
        return {"target": None}
    number = whole_number(value[:12])
    who = request.GET.get("who", "")[:24] if request is not None else ""
    return {"target": {"line": LINE_NAMES[line], "value": number, "who": who}}
