"""The imports of a source tree, read from its code (ast), not by importing it: which module
imports which, at module level (what runs on import) and anywhere (functions included)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(slots=True)
class Imports:
    """``top``: module -> the modules its import runs (module level, outside ``if
    TYPE_CHECKING``); ``anywhere``: the same with the imports inside functions added."""

    modules: dict[str, Path] = field(default_factory=dict)
    top: dict[str, set[str]] = field(default_factory=dict)
    anywhere: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, root: Path, package: str) -> Imports:
        found = cls()
        packages: set[str] = set()
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
                packages.add(".".join(parts))
            found.modules[".".join(parts)] = path
        for name, path in found.modules.items():
            here = name if name in packages else name.rpartition(".")[0]
            tree = ast.parse(path.read_text("utf-8"), str(path))
            top: set[str] = set()
            anywhere: set[str] = set()
            _visit(tree.body, here, package, found.modules, top, anywhere, in_function=False)
            found.top[name] = top - {name}
            found.anywhere[name] = (top | anywhere) - {name}
        return found

    def circles(self) -> list[list[str]]:
        """The groups of modules that import each other at module level (strongly connected
        components of more than one module, or a module importing itself)."""
        return _components(self.top)


def _is_type_checking(test: ast.expr) -> bool:
    return "TYPE_CHECKING" in ast.unparse(test)


def _targets(node: ast.Import | ast.ImportFrom, here: str, package: str, modules: dict) -> set[str]:
    names: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] == package:
                names.add(alias.name)
        return {n for n in names if n in modules}
    if node.level:
        base = here.split(".")
        base = base[: len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    if source.split(".")[0] != package:
        return set()
    for alias in node.names:
        full = f"{source}.{alias.name}"
        names.add(full if full in modules else source)
    return {n for n in names if n in modules}


def _visit(
    body: Iterable[ast.stmt],
    here: str,
    package: str,
    modules: dict,
    top: set[str],
    anywhere: set[str],
    in_function: bool,
) -> None:
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            (anywhere if in_function else top).update(_targets(node, here, package, modules))
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            _visit(node.orelse, here, package, modules, top, anywhere, in_function)
            continue
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                _visit([child], here, package, modules, top, anywhere, inner)
            elif isinstance(child, ast.excepthandler):
                _visit(child.body, here, package, modules, top, anywhere, inner)


def _components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively; only the circles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph[node]:
                    found.append(sorted(group))
    return found
