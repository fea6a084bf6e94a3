"""The import map of ``companion/`` (issue 22, item 1: no import circle, no import upward; docs/architecture.md,
"The Django side").

Every module of ``companion/`` is parsed with :mod:`ast` (never imported), and each ``import``/``from ... import``
anywhere in it, inside functions and ``if TYPE_CHECKING:`` blocks too, is an edge to the module of ``companion``
it names: ``from a.b import c`` is an edge to ``a.b.c`` when that is a module, else to ``a.b``. Importing a
submodule is not counted as importing its package's ``__init__`` (a package that lists its submodules would
otherwise be a circle with each of them). The rules:

(a) **No circle**: no module reaches itself through these edges.

(b) **No import upward into the views**: the *views* are ``companion.views`` and everything under it, and
    ``companion.scorepad.views`` and everything under it. Above them sits only the *entry* module, the request's
    way in: ``companion.urls`` (the URL conf). No other module imports a view module: the first middleware answers
    ``/healthz`` with ``companion.health``, a floor below the views that the URL conf routes too. Likewise the presenters (``companion.presenters``, what a page shows)
    sit above the rows and the writes: no module of ``companion.models`` or ``companion.services`` imports them.

(c) **No view imports another feature's views**: a view module imports, of the views, only
    - the floor every view shares: ``companion.views.answers`` and ``companion.views.errors``;
    - its own feature's modules. The feature of a module in a package ``companion.views.<pkg>`` (e.g.
      ``companion.views.tracker.writes``) is ``<pkg>``, all of that package; the scorepad's views
      (``companion.scorepad.views.*``) are one feature; a top-level module ``companion.views.<name>`` belongs to
      the feature named by ``<name>`` up to its first underscore (``setup_page``, ``setup_ticks``,
      ``setup_options`` and ``setup_files`` are the setup page's; ``screen`` is the table screen's alone).
    What two features' views both need lives a floor below (a presenter, a service, a selector).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "companion"


ENTRY = frozenset({"companion.urls"})
VIEWS = ("companion.views", "companion.scorepad.views")
SHARED_VIEWS = frozenset({"companion.views.answers", "companion.views.errors"})
PRESENTERS = "companion.presenters"
BELOW_PRESENTERS = ("companion.models", "companion.services")


def _name_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_name_of(p): p for p in sorted((ROOT / PACKAGE).rglob("*.py"))}


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _imported(module: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The modules of ``companion`` that ``module`` imports anywhere in its text."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = module.split(".") if is_package else module.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join([*here, base] if base else here)
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for name in names:
            # ``import a.b.c`` names a.b.c; a name that is not a module (a function of a.b) stands for a.b.
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                yield name


def import_map() -> dict[str, set[str]]:
    known = _modules()
    return {m: set(_imported(m, p, known)) for m, p in known.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each strongly connected set of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def _is_view(module: str) -> bool:
    return any(_under(module, v) for v in VIEWS)


def feature_of(module: str) -> str:
    """The feature a view module belongs to (rule (c) above)."""
    if _under(module, "companion.scorepad.views"):
        return "companion.scorepad.views"
    rest = module.removeprefix("companion.views").lstrip(".").split(".")
    if len(rest) > 1 or Path(ROOT, *module.split("."), "__init__.py").exists():
        return f"companion.views.{rest[0]}"  # a feature package
    return f"companion.views.{rest[0].split('_')[0]}"


def upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Rule (b): imports of a view from outside the views and the entry, of a presenter from the rows/writes."""
    bad = []
    for source, targets in graph.items():
        for target in targets:
            if _is_view(target) and not _is_view(source) and source not in ENTRY:
                bad.append((source, target))
            if _under(target, PRESENTERS) and any(_under(source, b) for b in BELOW_PRESENTERS):
                bad.append((source, target))
    return sorted(bad)


def sideways(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Rule (c): a view importing a view that is neither the shared floor nor its own feature's."""
    bad = []
    for source, targets in graph.items():
        if not _is_view(source) or source == "companion.views":
            continue
        for target in targets:
            if not _is_view(target) or target in SHARED_VIEWS:
                continue
            if feature_of(target) != feature_of(source):
                bad.append((source, target))
    return sorted(bad)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_map()


def test_the_map_reads_the_imports(graph: dict[str, set[str]]) -> None:
    """Anchor: the map holds the imports the rules judge (at top level, inside a function, relative)."""
    assert len(graph) > 100
    assert "companion.views.answers" in graph["companion.views.pads"]
    assert "companion.views.tracker.writes" in graph["companion.views.tracker"]
    assert "companion.errors" in graph["companion.views.errors"]


def test_no_import_circle(graph: dict[str, set[str]]) -> None:
    assert circles(graph) == []


def test_no_import_upward(graph: dict[str, set[str]]) -> None:
    assert upward(graph) == []


def test_no_view_imports_another_features_views(graph: dict[str, set[str]]) -> None:
    assert sideways(graph) == []


@pytest.mark.parametrize(
    ("edges", "rule", "expected"),
    [
        # One row per rule broken once, beside a map that keeps it.
        (
            {"companion.a": {"companion.b"}, "companion.b": {"companion.a"}},
            circles,
            [["companion.a", "companion.b"]],
        ),
        ({"companion.a": {"companion.b"}, "companion.b": {"companion.c"}, "companion.c": set()}, circles, []),
        (
            {"companion.limits": {"companion.views.errors"}},
            upward,
            [("companion.limits", "companion.views.errors")],
        ),
        ({"companion.urls": {"companion.views.pads"}}, upward, []),
        (
            {"companion.middleware": {"companion.views.home"}},
            upward,
            [("companion.middleware", "companion.views.home")],
        ),
        (
            {"companion.services.osaka": {"companion.presenters.osaka"}},
            upward,
            [("companion.services.osaka", "companion.presenters.osaka")],
        ),
        (
            {"companion.views.screen": {"companion.views.tracker.state"}},
            sideways,
            [("companion.views.screen", "companion.views.tracker.state")],
        ),
        (
            {"companion.views.setup_page": {"companion.views.setup_ticks", "companion.views.answers"}},
            sideways,
            [],
        ),
        ({"companion.views.tracker.writes": {"companion.views.tracker.common"}}, sideways, []),
        (
            {"companion.views.tracker.writes": {"companion.views.osaka.access"}},
            sideways,
            [("companion.views.tracker.writes", "companion.views.osaka.access")],
        ),
        (
            {"companion.scorepad.views.steps": {"companion.views.results"}},
            sideways,
            [("companion.scorepad.views.steps", "companion.views.results")],
        ),
    ],
)
def test_each_rule_catches_its_break(edges: dict[str, set[str]], rule: object, expected: object) -> None:
    assert callable(rule)
    assert rule(edges) == expected


def test_relative_and_function_imports_count(tmp_path: Path) -> None:
    """An import inside a function and a relative one are edges too (the live engine's circle was one)."""
    known = {"companion.live.engine": tmp_path / "engine.py", "companion.live.stream": tmp_path / "stream.py"}
    known["companion.live.engine"].write_text("def poke():\n    from .stream import local_poke\n")
    known["companion.live.stream"].write_text("from companion.live.engine import CHANNEL\n")
    edges = {m: set(_imported(m, p, known)) for m, p in known.items()}
    assert circles(edges) == [["companion.live.engine", "companion.live.stream"]]
