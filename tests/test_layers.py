"""The package's layout holds (issue 18): the import graph has no circle, every
import points down the declared layer order, no module passes 600 lines and no
class 300.  The 600-line rule holds for the compiled core's sources too
(``src/core/*.cpp`` and ``*.hpp``): small files with one job, in C++ as in Python.

The graph is read with ``ast`` from the sources, not by importing them: every
``import`` and ``from ... import`` of a ``replay_audit`` module counts, at the top
of a module or inside a function (a lazy import is still a dependency), and so do
imports under ``if TYPE_CHECKING:``.  ``from package import name`` is an edge to
the submodule ``package.name`` when there is one, else to the package.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "replay_audit"
CORE_SOURCES = PACKAGE.parent / "src" / "core"
ROOT_NAME = "replay_audit"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # lowest first; a module may import its own layer and the layers before it
    ("model", ("model", "wall", "native", "_core", "_compat", "_lazy", "_version")),
    ("scoring", ("scoring",)),
    ("parsers", ("parsers",)),
    ("io", ("io",)),
    ("replay", ("replay",)),
    ("stats", ("stats",)),
    ("auditing", ("auditing",)),
    ("export", ("export",)),
    ("report", ("report",)),
    ("run", ("run",)),
    ("cli", ("cli",)),
)
"""The layer order: a log's path from the file to the report row, read bottom up.
The package's ``__init__`` (the library's names, imported lazily) sits above all."""

MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 300


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    found = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    for stub in PACKAGE.rglob("*.pyi"):  # a compiled module: its stub stands for it
        found.setdefault(module_name(stub), stub)
    return found


def layer_of(module: str) -> int:
    """The rank of ``module``'s layer; the package itself ranks above every layer."""
    parts = module.split(".")
    if len(parts) == 1:
        return len(LAYERS)
    for rank, (_, members) in enumerate(LAYERS):
        if parts[1] in members:
            return rank
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS in {__file__}")


def layer_name(module: str) -> str:
    rank = layer_of(module)
    return LAYERS[rank][0] if rank < len(LAYERS) else "package"


def _resolve(base: str, name: str | None) -> str:
    """``from base import name``: the submodule when ``name`` is one, else ``base``."""
    if name is not None and f"{base}.{name}" in modules():
        return f"{base}.{name}"
    return base


def imports_of(module: str) -> set[str]:
    """The package's modules that ``module`` imports, anywhere in its source."""
    path = modules()[module]
    if path.suffix == ".pyi":
        # a compiled module imports nothing at run time: its stub's imports only name
        # the types callers hand it (``_core`` builds the ``WinValue`` class that
        # ``scoring.core`` gives it with ``set_value_type``)
        return set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == ROOT_NAME:
                    found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            if base.split(".")[0] != ROOT_NAME:
                continue
            for alias in node.names:
                found.add(_resolve(base, alias.name))
    known = modules()
    return {m for m in found if m in known and m != module}


@cache
def graph() -> dict[str, frozenset[str]]:
    return {m: frozenset(imports_of(m)) for m in modules()}


def find_cycle(edges: dict[str, frozenset[str]]) -> list[str] | None:
    """One import circle of ``edges`` as a path ``a -> b -> ... -> a``, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (cycle := visit(start)) is not None:
            return cycle
    return None


def test_every_module_belongs_to_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_no_import_circle() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_every_import_points_down_a_layer() -> None:
    upward = [
        f"{m} ({layer_name(m)}) imports {d} ({layer_name(d)})"
        for m, deps in graph().items()
        for d in sorted(deps)
        if layer_of(d) > layer_of(m)
    ]
    assert not upward, "imports against the layer order:\n" + "\n".join(upward)


def test_no_module_over_600_lines() -> None:
    long = {
        m: n
        for m, p in modules().items()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def core_sources() -> dict[str, Path]:
    """The compiled core's C++ files (``src/core``), by name."""
    return {p.name: p for p in sorted([*CORE_SOURCES.glob("*.cpp"), *CORE_SOURCES.glob("*.hpp")])}


def test_no_core_source_over_600_lines() -> None:
    """The C++ core (src/core) keeps the rule of the Python modules: no file over 600 lines."""
    sources = core_sources()
    assert sources, f"no C++ sources found in {CORE_SOURCES}"
    long = {
        name: n
        for name, p in sources.items()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"core sources over {MAX_MODULE_LINES} lines: {long}"


def test_no_class_over_300_lines() -> None:
    long = {
        f"{m}.{node.name}": n
        for m, p in modules().items()
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        and (n := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_CLASS_LINES
    }
    assert not long, f"classes over {MAX_CLASS_LINES} lines: {long}"


@pytest.mark.parametrize(
    ("edges", "circle"),
    [
        ({"a": frozenset({"b"}), "b": frozenset({"a"})}, ["a", "b", "a"]),
        ({"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset()}, None),
        ({"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"b"})}, ["b", "c", "b"]),
    ],
)
def test_the_circle_finder_finds_circles(
    edges: dict[str, frozenset[str]], circle: list[str] | None
) -> None:
    assert find_cycle(edges) == circle


def test_the_graph_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    """A function-level import counts; the check is not fooled by laziness."""
    graph_now = graph()
    assert "replay_audit.run.dask_engine" in graph_now["replay_audit.run.api"]


DOCSTRING_EXEMPT = frozenset({"replay_audit.native", "replay_audit.wall", "replay_audit._core"})
"""The compiled core's doorway and its pure-Python twin belong to the core's own
work (issue 19) and keep their docstrings as that work writes them."""


def test_every_module_says_what_it_owns_and_must_not_do() -> None:
    """Each module's docstring ends its account with what the module must not do."""
    silent = [
        m
        for m, p in modules().items()
        if m not in DOCSTRING_EXEMPT
        and "must not"
        not in (ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) or "").lower()
    ]
    assert not silent, f"modules whose docstring does not say what they must not do: {silent}"
