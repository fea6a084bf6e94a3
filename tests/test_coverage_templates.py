"""The coverage plugin that counts templates' lines (tests/coverage_templates.py): a template line counts when a node
standing on it renders, the lines reach coverage's data as the plugin's files, and a node the plugin cannot place is
said and left out without turning the plugin off. And which tests coverage leaves untraced (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from coverage import CoverageData
from django.template import Context, Engine, Origin
from django.template.base import TextNode, Token, TokenType

from tests import coverage_templates
from tests.companion import test_fuzz, test_plain_words
from tests.conftest import runs_untraced
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
    """A plugin of its own, recording through the wrapped render methods as under coverage (restored after), with
    or without a coverage running in this process (``--no-cov``)."""
    mine = TemplateLines({})
    monkeypatch.setattr(coverage_templates, "_measuring", lambda: True)
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


# --- the tests coverage leaves untraced (tests/conftest.py) --------------------------------------------------------


class _Collected:
    """What :func:`runs_untraced` reads of a collected test: its function and the markers on it."""

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def get_closest_marker(self, name: str) -> Any:
        return next((mark for mark in getattr(self.obj, "pytestmark", []) if mark.name == name), None)


@pytest.mark.parametrize(
    ("test", "untraced"),
    [
        (test_fuzz.test_one_hostile_field_never_breaks_an_endpoint, True),  # marked fuzz: a @given of its own
        (test_fuzz.test_one_hostile_value_never_breaks_the_json_api, True),  # @given on the test itself
        (test_plain_words.test_no_page_shows_a_ruling_or_a_file_name, True),  # marked walk
        (test_fuzz.test_a_number_beyond_the_bound_is_a_400_naming_its_field, False),  # three examples, named
        (test_fuzz.test_broken_json_bodies_get_a_400, False),
    ],
)
def test_coverage_leaves_the_tests_that_repeat_their_code_untraced(test: Any, untraced: bool) -> None:
    assert runs_untraced(_Collected(test)) is untraced  # type: ignore[arg-type]  # a stand-in for pytest.Item
