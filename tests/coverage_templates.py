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

from types import FrameType
from typing import Any

from django_coverage_plugin.plugin import DjangoTemplatePlugin


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
        lines: tuple[int, int] = super().line_number_range(frame)
        self.ranges[id(node)] = (node, lines)
        return lines


def coverage_init(reg: Any, options: dict[str, Any]) -> None:
    """Coverage's entry point for a plugin module."""
    plugin = TemplateLines(options)
    reg.add_file_tracer(plugin)
    reg.add_configurer(plugin)
