"""``{% nav_current "/score/" "/check/" %}``: ``aria-current="page"`` on a top bar link when the page is in its
section (the request's path starts with one of the prefixes), nothing otherwise: the bar marks only the section
the player is in (issue 23). The style is app.css's ``.topbar nav a[aria-current]``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def nav_current(context: dict[str, Any], *prefixes: str) -> SafeString:
    request = context.get("request")
    path = request.path if request is not None else ""
    return mark_safe(' aria-current="page"' if path.startswith(prefixes) else "")  # a constant, no input
