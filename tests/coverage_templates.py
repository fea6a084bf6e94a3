"""The coverage plugin that counts templates' lines (pyproject.toml, ``[tool.coverage.run] plugins``):
django_coverage_plugin's reports, with the lines recorded once per node rendered instead of traced.

django_coverage_plugin makes coverage's C tracer call it in Python on every function Django's template package runs
(``dynamic_source_filename``) and on every line of a node's ``render`` (``line_number_range``): most of the suite's
time under coverage. A template line counts as run when a node standing on it renders, and every node renders
through ``Node.render_annotated`` (``TextNode`` overrides it): so this plugin wraps those two methods, asks the same
``line_number_range`` once per node (a node's lines never change: its template's position and file are fixed when it
is parsed), and hands the lines to the running coverage when the test process ends (:func:`flush`, called by
tests/conftest.py before pytest-cov saves). Django's template package is no longer traced at all. What is counted is
the same: the same templates, the same lines (compared with the tracing plugin on the view tests when this replaced
it, and the suite's total stayed the same).
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import coverage
from coverage.files import abs_file
from django.template.base import Node, TextNode
from django_coverage_plugin.plugin import DjangoTemplatePlugin


class TemplateCoverageWarning(UserWarning):
    """A template node the plugin could not place: its lines are not counted, the others still are."""


class TemplateLines(DjangoTemplatePlugin):  # type: ignore[misc]  # the plugin ships no type hints
    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        #: id(node) -> the node, held so its id is not reused: the nodes whose lines are recorded.
        self.seen: dict[int, object] = {}
        #: template file -> its lines run
        self.lines: defaultdict[str, set[int]] = defaultdict(set)

    def file_tracer(self, filename: str) -> None:
        """Nothing is traced: the lines are recorded as nodes render (:meth:`rendering`)."""

    def rendering(self, node: Node) -> None:
        """Record the template lines ``node`` stands on, the first time it renders."""
        known = self.seen.get(id(node))
        if known is node:
            return
        self.seen[id(node)] = node
        origin = getattr(node, "origin", None)
        name = getattr(origin, "name", None)
        if not isinstance(name, str) or name.startswith("<"):  # a template made from a string has no file
            return
        # The tracing plugin's own computation, given the frame it would have been given.
        frame = SimpleNamespace(f_code=SimpleNamespace(co_name="render"), f_locals={"self": node})
        try:
            first, last = self.line_number_range(frame)
        except Exception as exc:  # a node the plugin cannot place is left uncounted, and said
            warnings.warn(
                f"template lines of {node!r} not counted: {exc!r}", TemplateCoverageWarning, stacklevel=1
            )
            return
        if first >= 0:
            self.lines[name].update(range(first, last + 1))

    def flush(self, data: coverage.CoverageData) -> None:
        """Add the recorded lines to ``data``, as this plugin's files, and forget them."""
        if not self.lines:
            return
        files = {abs_file(name): lines for name, lines in self.lines.items()}
        data.add_lines(files)
        data.add_file_tracers(dict.fromkeys(files, self._coverage_plugin_name))
        self.lines.clear()


#: The plugin of this process's coverage, once coverage has loaded it.
_plugin: TemplateLines | None = None
#: The classes that define ``render_annotated`` (Django 5.2), through which every node renders.
RENDERING: tuple[type[Node], ...] = (Node, TextNode)


def _measuring() -> bool:
    """Whether a coverage runs in this process: none does during a test left untraced (tests/conftest.py,
    runs_untraced), nor in a run without one (``--no-cov``)."""
    return coverage.Coverage.current() is not None


def _recording(method: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def render_annotated(node: Node, context: Any) -> Any:
        if _plugin is not None and _measuring():  # nothing is recorded while no coverage runs
            _plugin.rendering(node)
        return method(node, context)

    render_annotated.__wrapped__ = method  # type: ignore[attr-defined]
    return render_annotated


def flush() -> None:
    """Hand the lines recorded so far to the running coverage (tests/conftest.py, before pytest-cov saves)."""
    cov = coverage.Coverage.current()
    if _plugin is not None and cov is not None:
        _plugin.flush(cov.get_data())


def coverage_init(reg: Any, options: dict[str, Any]) -> None:
    """Coverage's entry point for a plugin module: the plugin reports templates, and nodes record as they render."""
    global _plugin
    _plugin = TemplateLines(options)
    reg.add_file_tracer(_plugin)
    reg.add_configurer(_plugin)
    for cls in RENDERING:
        if not hasattr(cls.__dict__["render_annotated"], "__wrapped__"):
            cls.render_annotated = _recording(cls.__dict__["render_annotated"])  # type: ignore[method-assign]
