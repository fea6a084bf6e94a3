"""The coverage plugin that counts templates' lines (pyproject.toml, ``[tool.coverage.run] plugins``):
django_coverage_plugin's, with each template node's lines worked out once.

Coverage's C tracer asks the plugin, on every line Python runs inside a template node's ``render``, which template
lines that node stands for; django_coverage_plugin answers by scanning the template's line offsets from the top,
twice, each time. A ``{% for %}`` over a long template (the tracker's page, the table screen) asks thousands of
times per page, and that scanning was most of the suite's time under coverage: a whole-game test took 84 CPU
seconds with it and 24 without templates counted. A node's lines never change (its template's position and file are
fixed when it is parsed), so the answer is kept per node; what is counted is the same.
"""

from __future__ import annotations

import warnings
from types import FrameType
from typing import Any

from django_coverage_plugin.plugin import DjangoTemplatePlugin


class TemplateCoverageWarning(UserWarning):
    """A template node the plugin could not place: its lines are not counted, the others still are."""


class TemplateLines(DjangoTemplatePlugin):  # type: ignore[misc]  # the plugin ships no type hints
    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__(options)
        #: id(node) -> (node, its first and last template line): the node is held so its id is not reused.
        self.ranges: dict[int, tuple[object, tuple[int, int]]] = {}

    def line_number_range(self, frame: FrameType) -> tuple[int, int]:
        node = frame.f_locals["self"]
        known = self.ranges.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        try:
            lines: tuple[int, int] = super().line_number_range(frame)
        except Exception as exc:  # see _skipped
            lines = _skipped(node, exc)
        self.ranges[id(node)] = (node, lines)
        return lines


def _skipped(node: object, exc: Exception) -> tuple[int, int]:
    """A node the plugin failed on is left uncounted, with a warning naming it, instead of the exception reaching
    coverage's tracer, which then turns the plugin off for the rest of that test process, so that every template
    line it would have counted after that goes uncounted (seen once in CI: "Disabling plug-in
    'django_coverage_plugin.DjangoTemplatePlugin' due to previous exception", cause not reproduced)."""
    warnings.warn(f"template lines of {node!r} not counted: {exc!r}", TemplateCoverageWarning, stacklevel=1)
    return -1, -1


def coverage_init(reg: Any, options: dict[str, Any]) -> None:
    """Coverage's entry point for a plugin module."""
    plugin = TemplateLines(options)
    reg.add_file_tracer(plugin)
    reg.add_configurer(plugin)
