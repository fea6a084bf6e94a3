"""The coverage plugin that counts templates' lines (tests/coverage_templates.py) never turns itself off."""

from __future__ import annotations

import sys
from types import FrameType

import pytest
from django.template.base import TextNode, Token, TokenType

from tests.coverage_templates import TemplateCoverageWarning, TemplateLines


class _Text(TextNode):
    def render(self, context: object = None) -> FrameType:  # type: ignore[override]  # the frame, as traced
        return sys._getframe()


def test_a_node_the_plugin_fails_on_is_left_uncounted_with_a_warning() -> None:
    node = _Text("")  # no text: django_coverage_plugin reads a TextNode's first line and fails
    node.token = Token(TokenType.TEXT, "", position=(0, 0))
    plugin = TemplateLines({})
    with pytest.warns(TemplateCoverageWarning, match="not counted: IndexError"):
        assert plugin.line_number_range(node.render()) == (-1, -1)
    assert plugin.line_number_range(node.render()) == (-1, -1)  # asked again: known, no second warning
