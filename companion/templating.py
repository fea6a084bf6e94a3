"""Templates are indented for their readers (djlint, pyproject.toml) and squeezed once, when they compile.

The cached loader below compiles each template once per process; before the parser sees a template's tokens,
:func:`squeeze` rewrites the whitespace of its text, so the indentation and the line breaks djlint adds cost no
byte and change nothing a phone shows. A run of whitespace holding a newline becomes:

- nothing when, looking past whitespace and template tags (``{% if %}``, ``{# #}``), a block element's tag
  (``<div>``, ``</li>``: :data:`BLOCK`) touches it on one side, or the edge of the template, a ``{% block %}`` or a
  ``{% partialdef %}``: a browser shows no whitespace there;
- nothing between two template tags (``%}`` before it, ``{%`` after it): djlint puts template tags on lines of
  their own where the compact templates wrote them side by side;
- one space anywhere else: two words on two lines stay two words, and two inline elements (``</a>`` and ``<a>``,
  ``</label>`` and ``<input>``) keep the gap a line break gave them.

Runs without a newline are kept as written (the space in ``<b>a</b> <i>b</i>`` is the author's), and so is the
content of ``<pre>``, ``<textarea>``, ``<script>`` and ``<style>`` elements. A template's variables count as words;
the text they render is never touched: the squeeze reads the template, not the response, and costs nothing per
response.

The tokens keep their line numbers and source positions, so error pages and the templates' coverage
(django_coverage_plugin, which reads them) still point at the indented file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from django.template import Template, TemplateDoesNotExist
from django.template.base import DebugLexer, Origin, Parser, Token, TokenType, tag_re
from django.template.loaders import cached
from django.template.loaders.base import Loader as BaseLoader

if TYPE_CHECKING:
    from django.template.base import NodeList

#: A run of whitespace holding a newline.
LINE_BREAK = re.compile(r"[ \t\r\f\v]*\n\s*")
#: Elements whose content keeps its whitespace: it is shown as written or read by a program.
RAW = re.compile(r"<(pre|textarea|script|style)\b[^>]*>(.*?)</\1\s*>", re.IGNORECASE | re.DOTALL)
#: Elements around which a browser shows no whitespace: the block ones of the app's pages (its stylesheets make
#: none of them inline), the table's parts, and those never shown. Not ``form``: the tracker shows some inline.
BLOCK = frozenset(
    {
        *(
            "html",
            "head",
            "body",
            "title",
            "meta",
            "link",
            "script",
            "style",
            "main",
            "header",
            "footer",
            "nav",
        ),
        *(
            "section",
            "article",
            "aside",
            "div",
            "p",
            "ul",
            "ol",
            "li",
            "dl",
            "dt",
            "dd",
            "fieldset",
            "legend",
        ),
        *(
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "table",
            "thead",
            "tbody",
            "tfoot",
            "tr",
            "td",
            "th",
            "caption",
        ),
        *(
            "details",
            "summary",
            "hr",
            "br",
            "figure",
            "figcaption",
            "noscript",
            "template",
            "dialog",
            "option",
        ),
        *("optgroup", "datalist", "!doctype"),
    }
)
#: Template tags that cut a template in pieces rendered apart (blocks, partials): no whitespace is looked across.
CUT = re.compile(r"\{%-?\s*(?:end)?(?:block|partialdef)\b")
#: Template tags that render nothing of their own and render what follows them once, in order: looked across.
#: The others (``if``, ``for``: what follows them at render time is not what follows them in the file; ``piece``,
#: ``csrf_token``, ``url``: they render something) are looked at as words.
QUIET = re.compile(r"\{#|\{%-?\s*(?:load|with|endwith)\b")
#: ``{% comment %}`` ... ``{% endcomment %}``: nothing rendered, looked across.
COMMENT = re.compile(r"\{%\s*comment\b.*?%\}.*?\{%\s*endcomment\s*%\}", re.DOTALL)
#: In the masked source: a quiet template tag, a cut, an other template tag, a variable.
TAG, CUT_MARK, OTHER, WORDS = "\x01", "\x03", "\x04", "\x02"
TAG_NAME = re.compile(r"</?(!?[a-zA-Z][a-zA-Z0-9]*)")


def _masked(source: str) -> str:
    """``source`` with its template tags and variables masked, each by characters of its own length."""

    def mark(m: re.Match[str]) -> str:
        text = m.group()
        if text.startswith(TAG):  # inside a comment block, masked already
            return text
        kind = (
            WORDS
            if text.startswith("{{")
            else CUT_MARK
            if CUT.match(text)
            else TAG
            if QUIET.match(text)
            else OTHER
        )
        return kind * len(text)

    quiet = COMMENT.sub(lambda m: TAG * len(m.group()), source)
    return tag_re.sub(mark, quiet)  # Django's own reading of what is a tag


def _blockish(masked: str, at: int, step: int) -> bool:
    """Whether, looking from ``at`` by ``step`` (-1: back, 1: on) over whitespace and quiet template tags, a block
    element's tag, a cut or the template's edge comes first (whitespace there shows nowhere)."""
    while 0 <= at < len(masked) and (masked[at].isspace() or masked[at] == TAG):
        at += step
    if not 0 <= at < len(masked) or masked[at] == CUT_MARK:
        return True
    if step < 0:
        if masked[at] != ">":
            return False
        at = masked.rfind("<", 0, at)
    elif masked[at] != "<":
        return False
    name = TAG_NAME.match(masked, at)
    return name is not None and name.group(1).lower() in BLOCK


def plan(source: str) -> list[tuple[int, int, str]]:
    """The squeeze of ``source``: each run of whitespace holding a newline (its start, its end, what replaces it),
    outside the raw elements' content."""
    masked = _masked(source)
    raw = [(m.start(2), m.end(2)) for m in RAW.finditer(masked)]
    edits = []
    for m in LINE_BREAK.finditer(masked):
        if any(start <= m.start() < end for start, end in raw):
            continue
        blockish = _blockish(masked, m.start() - 1, -1) or _blockish(masked, m.end(), 1)
        edits.append((m.start(), m.end(), "" if blockish or _between_template_tags(source, m) else " "))
    return edits


def _between_template_tags(source: str, run: re.Match[str]) -> bool:
    """Whether ``run`` lies between two template tags (``%}`` before it, ``{%`` after it): djlint puts each on a
    line of its own (``{% for %}``, ``{% partial %}``, ``{% endfor %}``) where the compact templates wrote none."""
    return source[run.start() - 2 : run.start()] in ("%}", "#}") and source[run.end() : run.end() + 2] in (
        "{%",
        "{#",
    )


def squeeze(source: str, tokens: Sequence[Token]) -> list[Token]:
    """``tokens`` (``source``'s, from Django's debug lexer, which gives their positions) with the whitespace of
    their text squeezed (:func:`plan`); a text token left empty is dropped."""
    edits = iter(plan(source))
    edit = next(edits, None)
    out: list[Token] = []
    for token in tokens:
        if token.token_type != TokenType.TEXT:
            out.append(token)
            continue
        start, end = token.position  # type: ignore[misc]
        text, at = [], start
        while edit is not None and edit[0] < end:
            text.append(source[at : edit[0]])
            text.append(edit[2])
            at = edit[1]
            edit = next(edits, None)
        text.append(source[at:end])
        contents = "".join(text)
        if contents:
            out.append(Token(TokenType.TEXT, contents, token.position, token.lineno))
    return out


def squeezed(source: str) -> str:
    """``source`` with :func:`plan`'s squeeze applied, template tags and all (what the parser then reads)."""
    out, at = [], 0
    for start, end, replacement in plan(source):
        out += [source[at:start], replacement]
        at = end
    return "".join([*out, source[at:]])


def unfold(source: str) -> str:
    """``source`` with a line break between any two tags that touch where the squeeze removes a line break again
    (a block element's tag on one side), outside an HTML tag and the raw elements: the compact templates made
    readable to djlint, which then indents them. ``squeezed(unfold(s)) == squeezed(s)``."""
    masked = _masked(source)
    raw = [(m.start(2), m.end(2)) for m in RAW.finditer(masked)]
    inside, quote, in_tag = [False] * len(masked), "", False
    for n, c in enumerate(masked):
        if in_tag:
            if quote:
                quote = "" if c == quote else quote
            elif c in "\"'":
                quote = c
            elif c == ">":
                in_tag = False
        elif c == "<" and n + 1 < len(masked) and (masked[n + 1].isalpha() or masked[n + 1] in "/!"):
            in_tag = True
        inside[n] = in_tag

    tags = [m.span() for m in tag_re.finditer(source) if not m.group().startswith("{{")]
    comments = [m.span() for m in COMMENT.finditer(source)]
    tag_starts = {start for start, _ in tags if not any(a < start < b for a, b in comments)}
    tag_ends = {end for _, end in tags if not any(a < end < b for a, b in comments)}

    def ends_tag(n: int) -> bool:  # a ">" closing an HTML tag, or a template tag's end outside one
        if masked[n] == ">":
            return not inside[n]
        return n + 1 in tag_ends and not inside[n]

    def starts_tag(n: int) -> bool:  # a "<" opening an HTML tag, or a template tag's start outside one
        if masked[n] == "<":
            return inside[n]
        return n in tag_starts and not inside[n]

    out, at = [], 0
    for n in range(1, len(masked)):
        if not (ends_tag(n - 1) and starts_tag(n)) or any(start <= n <= end for start, end in raw):
            continue
        if _blockish(masked, n - 1, -1) or _blockish(masked, n, 1):
            out += [source[at:n], "\n"]
            at = n
    return "".join([*out, source[at:]])


class SqueezedTemplate(Template):
    """A template whose text is squeezed as it compiles (Django's ``compile_nodelist``, with :func:`squeeze`
    between the lexer and the parser)."""

    def compile_nodelist(self) -> NodeList:
        tokens = squeeze(self.source, DebugLexer(self.source).tokenize())  # the debug lexer: with positions
        parser = Parser(tokens, self.engine.template_libraries, self.engine.template_builtins, self.origin)
        try:
            nodelist = parser.parse()
        except Exception as e:
            if self.engine.debug:
                e.template_debug = self.get_exception_info(e, e.token)  # type: ignore[attr-defined]
            raise
        self.extra_data = parser.extra_data
        return nodelist


class _Compiling(BaseLoader):
    """Django's base loader's ``get_template``, making a :class:`SqueezedTemplate`."""

    get_contents: Callable[[Origin], str]  # the cached loader's, beside this class in :class:`Loader`'s bases

    def get_template(self, template_name: str, skip: list[Origin] | None = None) -> Template:
        tried: list[tuple[Origin, str]] = []
        for origin in self.get_template_sources(template_name):
            if skip is not None and origin in skip:
                tried.append((origin, "Skipped to avoid recursion"))
                continue
            try:
                contents = self.get_contents(origin)
            except TemplateDoesNotExist:
                tried.append((origin, "Source does not exist"))
                continue
            name = origin.template_name if isinstance(origin.template_name, str) else None
            return SqueezedTemplate(contents, origin, name, self.engine)
        raise TemplateDoesNotExist(template_name, tried=tried)


class Loader(cached.Loader, _Compiling):
    """Django's cached loader, compiling each template once, squeezed: its ``get_template`` finds a template it
    has not cached through ``super()``, which is :class:`_Compiling`'s."""


# python -m companion.templating templates/*.html: unfold them in place, for djlint.
if __name__ == "__main__":
    import sys
    from pathlib import Path

    for name in sys.argv[1:]:
        path = Path(name)
        path.write_text(unfold(path.read_text()))
