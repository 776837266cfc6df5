"""The package's layout: imports run one way, so the import graph, read from the source, has no cycle.

cli -> inputs, answers, batch -> generate, solve, crosscheck -> backends and formats
    -> family modules -> grid -> cages, errors.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "cpmodels"


def module_names() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, for its __init__.py)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def is_type_checking(node: ast.If) -> bool:
    """Whether `node` is `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`)."""
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth (inside functions too), except under `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and is_type_checking(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def imported(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules that `module` imports: `from p import x` means module p.x if there is one, else p."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets = set()
    for node in import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
            continue
        base = package
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        source = ".".join(p for p in (base if node.level else "", node.module or "") if p)
        named = {f"{source}.{alias.name}" for alias in node.names}
        targets |= {name if name in modules else source for name in named}
    return {t for t in targets if t in modules and t != module}


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports."""
    modules = module_names()
    return {name: imported(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` as the list of modules along it (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = visit(nxt, [*path, nxt])
                if cycle:
                    return cycle
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start, [start])
            if cycle:
                return cycle
    return None


def test_import_graph_has_no_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_graph_sees_function_level_and_relative_imports():
    graph = import_graph()
    assert "cpmodels.backends.dlx" in graph["cpmodels.formats.dlx"]  # imported inside functions
    assert "cpmodels.formats.text" in graph["cpmodels.formats.sudoku"]  # from .text import ...
    assert "cpmodels.cages" in graph["cpmodels.grid"]  # from . import cages
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_family_modules_and_grid_import_no_format_module():
    graph = import_graph()
    for module in ("cpmodels.sudoku", "cpmodels.mathdoku", "cpmodels.latin", "cpmodels.grid", "cpmodels.cages"):
        assert not {m for m in graph[module] if m.startswith("cpmodels.formats")}, module
    assert graph["cpmodels.formats.text"] <= {"cpmodels.errors", "cpmodels.grid"}
