"""``{% piece %}...{% endpiece %}``: one part of a live page that a write or a pull may send alone
(companion.live.engine: its digest, and the render's list of pieces). ``{% piece "seat" s.seat %}`` names it
``seat-1`` (the words joined by ``-``: the element's id), so a render that knows what changed may skip it."""

from __future__ import annotations

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context

from companion.live.engine import render_piece

register = template.Library()


class PieceNode(template.Node):
    def __init__(self, nodelist: NodeList, words: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.words = words

    def render(self, context: Context) -> str:
        return render_piece(
            context,
            lambda: self.nodelist.render(context),
            lambda: "-".join(str(w.resolve(context)) for w in self.words),
        )


@register.tag
def piece(parser: Parser, token: Token) -> PieceNode:
    words = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    nodelist = parser.parse(("endpiece",))
    parser.delete_first_token()
    return PieceNode(nodelist, words)
