"""Templates indented on several lines send what their one-line form sends (companion/templating.py, issue 22
item 5): the squeeze at compile time, table-driven, and the comparison of tests/sent_pages.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Engine, TemplateSyntaxError, engines

from companion.templating import Loader, SqueezedTemplate, squeezed, unfold
from tests.sent_pages import differences

ENGINE = Engine(libraries={"partials": "template_partials.templatetags.partials"})


def render(source: str, **context: object) -> str:
    return SqueezedTemplate(source, engine=ENGINE).render(Context(context))


#: (what it shows, the template indented on several lines, its one-line form, the context). Each row is a place
#: where a minifier that drops every line break, or keeps them all, would change what a phone shows.
SAME = [
    ("indentation between block tags", "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n", "<ul><li>a</li><li>b</li></ul>", {}),
    ("two words on two lines", "<p>\n  Hello\n  world\n</p>", "<p>Hello world</p>", {}),
    ("a word after an inline tag", "<p>Month\n  <b>3</b>\n  of 12</p>", "<p>Month <b>3</b> of 12</p>", {}),
    ("two inline elements", "<nav>\n  <a href=/a>Setup</a>\n  <a href=/b>Track</a>\n</nav>",
     "<nav><a href=/a>Setup</a> <a href=/b>Track</a></nav>", {}),
    ("a label and its field", "<div>\n  <label for=n>Name</label>\n  <input id=n>\n</div>",
     "<div><label for=n>Name</label> <input id=n></div>", {}),
    ("a template tag between words", "{% if x %}\n  Hello\n{% endif %}\nworld", "{% if x %} Hello {% endif %} world",
     {"x": 1}),
    ("template tags between inline elements", "<b>x</b>\n{% if y %}\n  <i>y</i>\n{% endif %}\n<b>z</b>",
     "<b>x</b> {% if y %} <i>y</i> {% endif %} <b>z</b>", {"y": 1}),
    ("template tags on lines of their own", "{% for n in ns %}\n  {% if n %}{{ n }}{% endif %}\n{% endfor %}",
     "{% for n in ns %}{% if n %}{{ n }}{% endif %}{% endfor %}", {"ns": [1, 2]}),
    ("two variables", "{{ a }}\n{{ b }}", "{{ a }} {{ b }}", {"a": "Anaïs", "b": "David"}),
    ("a variable before a tag", "<span>{{ a }}\n</span>\n<i>x</i>", "<span>{{ a }} </span> <i>x</i>", {"a": "A"}),
    ("tags around a template tag", "<div>\n  {% for n in ns %}\n    <p>{{ n }}</p>\n  {% endfor %}\n</div>",
     "<div>{% for n in ns %}<p>{{ n }}</p>{% endfor %}</div>", {"ns": [1, 2]}),
    ("a comment", "<p>a</p>\n{# why #}\n<p>b</p>", "<p>a</p><p>b</p>", {}),
    ("a tag's attributes on lines", '<input type="hidden"\n       name="op"\n       value="next">',
     '<input type="hidden" name="op" value="next">', {}),
    ("a space kept without a newline", "<b>a</b> <i>b</i>", "<b>a</b> <i>b</i>", {}),
    ("a pre keeps its lines", "<div>\n  <pre>\n a\n   b\n</pre>\n</div>", "<div><pre>\n a\n   b\n</pre></div>", {}),
    ("a textarea's value", '<div>\n  <textarea name="n">\n  first\n  second</textarea>\n</div>',
     '<div><textarea name="n">\n  first\n  second</textarea></div>', {}),
    ("an inline JSON script", '<div>\n  <script type="application/json">{"a":\n "b {% if x %}\n c{% endif %}"}</script>\n</div>',
     '<div><script type="application/json">{"a":\n "b \n c"}</script></div>', {"x": 1}),
    ("a script's tag cut by a template tag", '<div>\n  <script src="{{ s }}"\n  defer>\n  x</script>\n  <p>y</p>\n</div>',
     '<div><script src="/s.js" defer>\n  x</script><p>y</p></div>', {"s": "/s.js"}),
    ("a partial", "<p>x</p>\n{% load partials %}\n{% partialdef p inline %}\n  <i>\n    {{ a }}\n  </i>\n{% endpartialdef %}",
     "<p>x</p><i> {{ a }} </i>", {"a": "A"}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("indented", "one_line", "context"), [row[1:] for row in SAME], ids=[r[0] for r in SAME]
)
def test_an_indented_template_renders_as_its_one_line_form(
    indented: str, one_line: str, context: dict[str, object]
) -> None:
    assert render(indented, **context) == ENGINE.from_string(one_line).render(Context(context))


@pytest.mark.parametrize(
    ("source", "sent"),
    [
        ("<p>\n  Hello\n  world\n</p>", "<p>Hello world</p>"),  # never glued: "Helloworld"
        ("{% if x %}\n  Hello\n{% endif %}\nworld", " Hello  world"),  # a browser shows one space
        ("<a>Setup</a>\n  <a>Track</a>", "<a>Setup</a> <a>Track</a>"),
        ("<pre>\n a\n</pre>", "<pre>\n a\n</pre>"),
        ("<textarea>\n a</textarea>", "<textarea>\n a</textarea>"),
        (
            '<script type="application/json">{"a":\n 1}</script>',
            '<script type="application/json">{"a":\n 1}</script>',
        ),
        ("<ul>\n  <li>a</li>\n</ul>", "<ul><li>a</li></ul>"),
        ("\n\n<p>a</p>\n\n", "<p>a</p>"),
    ],
)
def test_the_squeeze_sends(source: str, sent: str) -> None:
    assert render(source, x=1) == sent


def test_the_tokens_keep_their_lines() -> None:
    """An error names the indented file's line, as without the squeeze (and the templates' coverage reads the
    same positions)."""
    engine = Engine(debug=True)
    with pytest.raises(TemplateSyntaxError) as error:
        SqueezedTemplate("<div>\n  <p>\n    {% nonsense %}\n  </p>\n</div>", engine=engine)
    assert error.value.template_debug["line"] == 3  # type: ignore[attr-defined]


def test_the_app_compiles_each_template_once_squeezed() -> None:
    engine = engines["django"].engine  # type: ignore[attr-defined]
    (partials,) = engine.template_loaders
    assert [type(loader) for loader in partials.loaders] == [Loader]
    first = engine.get_template("games.html")
    assert isinstance(first, SqueezedTemplate)
    assert engine.get_template("games.html") is first
    assert "\n  " not in engine.get_template("error.html").render(Context({"message": "x"}))


@pytest.mark.parametrize(
    "path", sorted((Path(settings.BASE_DIR) / "templates").glob("*.html")), ids=lambda p: p.name
)
def test_every_template_compiles_squeezed(path: Path) -> None:
    template = engines["django"].get_template(path.name)
    assert isinstance(template.template, SqueezedTemplate)  # type: ignore[attr-defined]


# --- unfolding the compact templates for djlint (python -m companion.templating) -----------------------------------


@pytest.mark.parametrize(
    ("compact", "unfolded"),
    [
        ("<ul><li>a</li><li>b</li></ul>", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"),
        ("<div>{% if x %}<p>a</p>{% endif %}</div>", "<div>\n{% if x %}\n<p>a</p>\n{% endif %}\n</div>"),
        ("<p><a href=/a>a</a><a href=/b>b</a></p>", "<p>\n<a href=/a>a</a><a href=/b>b</a>\n</p>"),  # inline: kept
        ('<p class="{% if x %}a{% endif %}{% if y %}b{% endif %}">c</p>', '<p class="{% if x %}a{% endif %}{% if y %}b{% endif %}">c</p>'),
        ("<div><pre><b>a</b></pre><script></script></div>", "<div>\n<pre><b>a</b></pre>\n<script></script>\n</div>"),
    ],
)  # fmt: skip
def test_unfold_breaks_lines_only_where_the_squeeze_removes_them(compact: str, unfolded: str) -> None:
    assert unfold(compact) == unfolded
    assert squeezed(unfolded) == squeezed(compact)


@pytest.mark.parametrize(
    "path", sorted((Path(settings.BASE_DIR) / "templates").glob("*.html")), ids=lambda p: p.name
)
def test_unfolding_a_template_changes_nothing_it_sends(path: Path) -> None:
    source = path.read_text()
    assert squeezed(unfold(source)) == squeezed(source)


# --- the comparison of tests/sent_pages.py ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>", "<ul><li>a</li><li>b</li></ul>"),
        ("<p>\n  Hello   world\n</p>", "<p>Hello world</p>"),
        ('<input  type="hidden"\n name="op">', '<input name="op" type="hidden">'),
        ('<div data-h="85edd25c39">08:15</div>', '<div data-h="eaa78d9a9c">09:20</div>'),
    ],
)
def test_the_comparison_lets_pass_what_a_browser_drops(before: str, after: str) -> None:
    assert differences(before, after) == []


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("<p><b>Anaïs</b> <i>David</i></p>", "<p><b>Anaïs</b><i>David</i></p>"),  # glued words
        ("<p>a <span>b</span></p>", "<p>a<span> b</span></p>"),  # a space moved into a span
        ("<pre>\n a</pre>", "<pre> a</pre>"),
        ('<textarea name="n">\n  x</textarea>', '<textarea name="n">x</textarea>'),
        ('<p class="small muted">x</p>', '<p class="small">x</p>'),
        ("<p>x</p>", "<div>x</div>"),
        ("<p>Month 3</p>", "<p>Month 4</p>"),
    ],
)
def test_the_comparison_finds_what_a_phone_would_show_differently(before: str, after: str) -> None:
    assert differences(before, after) != []
