"""``{% piece %}...{% endpiece %}``: one part of a live page that a write or a pull may send alone
(companion.live.engine: its digest, and the render's list of pieces)."""

from __future__ import annotations

from typing import Any

from django import template

from companion.live.engine import render_piece

register = template.Library()


class PieceNode(template.Node):
    def __init__(self, nodelist: Any) -> None:
        self.nodelist = nodelist

    def render(self, context: Any) -> str:
        return render_piece(context, lambda: self.nodelist.render(context))


@register.tag
def piece(parser: Any, token: Any) -> PieceNode:
    nodelist = parser.parse(("endpiece",))
    parser.delete_first_token()
    return PieceNode(nodelist)
