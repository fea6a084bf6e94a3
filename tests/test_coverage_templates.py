"""The coverage plugin that counts templates' lines (tests/coverage_templates.py): a template line counts when a node
standing on it renders, the lines reach coverage's data as the plugin's files, and a node the plugin cannot place is
said and left out without turning the plugin off."""

from __future__ import annotations

from pathlib import Path

import pytest
from coverage import CoverageData
from django.template import Context, Engine, Origin
from django.template.base import TextNode, Token, TokenType

from tests import coverage_templates
from tests.coverage_templates import TemplateCoverageWarning, TemplateLines

TEMPLATE = """<p>
  {{ a }}
</p>
{% if b %}
  <b>{{ b }}</b>
{% endif %}
"""


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> TemplateLines:
    """A plugin of its own, recording through the wrapped render methods as under coverage (restored after)."""
    mine = TemplateLines({})
    mine._coverage_plugin_name = (
        "tests.coverage_templates.TemplateLines"  # coverage names it when it loads it
    )
    monkeypatch.setattr(coverage_templates, "_plugin", mine)
    for cls in coverage_templates.RENDERING:
        method = cls.__dict__["render_annotated"]
        monkeypatch.setattr(
            cls, "render_annotated", coverage_templates._recording(getattr(method, "__wrapped__", method))
        )
    return mine


def test_the_lines_of_the_nodes_rendered_count_and_those_of_a_branch_not_taken_do_not(
    plugin: TemplateLines, tmp_path: Path
) -> None:
    (tmp_path / "page.html").write_text(TEMPLATE)
    template = Engine(dirs=[str(tmp_path)], debug=True).get_template("page.html")
    assert template.render(Context({"a": 1, "b": ""})).startswith("<p>\n  1\n</p>")
    name = str(tmp_path / "page.html")
    assert plugin.lines == {name: {1, 2, 3, 4}}  # line 5 stands inside the {% if %} not taken

    template.render(Context({"a": 1, "b": "x"}))
    assert plugin.lines[name] == {1, 2, 3, 4, 5}

    data = CoverageData(no_disk=True)
    plugin.flush(data)
    assert data.lines(name) == [1, 2, 3, 4, 5]
    assert (
        data.file_tracer(name) == "tests.coverage_templates.TemplateLines"
    )  # reported by the plugin, as a template
    assert plugin.lines == {}


def test_a_template_made_from_a_string_counts_nowhere(plugin: TemplateLines) -> None:
    assert Engine(debug=True).from_string("<p>{{ a }}</p>").render(Context({"a": 2})) == "<p>2</p>"
    assert plugin.lines == {}


def test_a_node_the_plugin_fails_on_is_left_uncounted_with_a_warning(
    plugin: TemplateLines, tmp_path: Path
) -> None:
    node = TextNode("")  # no text: django_coverage_plugin reads a TextNode's first line and fails
    node.token = Token(TokenType.TEXT, "", position=(0, 0))
    node.origin = Origin(name=str(tmp_path / "empty.html"))
    with pytest.warns(TemplateCoverageWarning, match="not counted: IndexError"):
        plugin.rendering(node)
    plugin.rendering(node)  # rendered again: known, no second warning
    assert plugin.lines == {}

    (tmp_path / "page.html").write_text(TEMPLATE)
    Engine(dirs=[str(tmp_path)], debug=True).get_template("page.html").render(Context({"a": 1}))
    assert plugin.lines == {
        str(tmp_path / "page.html"): {1, 2, 3, 4}
    }  # the plugin still counts the next nodes
