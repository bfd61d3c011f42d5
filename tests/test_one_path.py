"""Issue 41, "One way through the code": the package has one path through it.

* No import circle: every import of ``blood_companion`` is walked, those inside functions
  included (those under ``if TYPE_CHECKING:`` aside), and no two modules reach each other.
* None of the tricks of the speed-only layer is left: ``os._exit``, ``gc.disable``,
  ``BLOOD_FAST``, a module-level ``__getattr__`` (lazy names), ``importlib.import_module`` on a
  module of the package.

Both read the source (``ast``); neither imports the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import blood_companion

PACKAGE = Path(blood_companion.__file__).resolve().parent
NAME = PACKAGE.name


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for file in sorted(PACKAGE.rglob("*.py")):
        parts = list(file.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = file
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(tree: ast.AST, module: str, is_package: bool) -> list[str]:
    """The dotted names a module imports, anywhere in it but under ``if TYPE_CHECKING:``
    (its ``else:`` counts): ``from x import y`` gives ``x.y`` (a submodule or a name of x)."""
    here = module if is_package else module.rpartition(".")[0]
    names: list[str] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                visit(ast.Module(body=child.orelse, type_ignores=[]))
                continue
            if isinstance(child, ast.Import):
                names.extend(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = here
                    for _ in range(child.level - 1):
                        up = up.rpartition(".")[0]
                    base = f"{up}.{base}" if base else up
                names.extend(f"{base}.{alias.name}" for alias in child.names)
            visit(child)

    visit(tree)
    return names


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (the nearest module a name is in)."""
    modules = _modules()

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, file in modules.items():
        tree = ast.parse(file.read_text(encoding="utf-8"))
        targets = {owner(n) for n in _imported(tree, module, file.name == "__init__.py")}
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of two or more modules that import each other, directly or not (strongly
    connected components, Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            step = next(pending, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
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
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_the_circle_walk_finds_a_circle_and_none_where_there_is_none() -> None:
    """The walk itself, on a made-up graph: a circle through three modules, a module importing
    itself through its package (no circle: the package is its own module), a chain."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_imports_inside_functions_count_and_type_checking_ones_do_not() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg.hidden import X\n"
        "else:\n    from pkg.shown import Y\n"
        "def f():\n    from . import sibling\n    import pkg.deep.mod\n"
    )
    assert _imported(ast.parse(source), "pkg.sub.mod", False) == [
        "typing.TYPE_CHECKING", "pkg.shown.Y", "pkg.sub.sibling", "pkg.deep.mod"]


def test_no_import_circle_in_the_package() -> None:
    found = circles(import_graph())
    assert not found, "\n".join(
        f"circle of {len(c)}: " + ", ".join(m.removeprefix(NAME + ".") for m in c)
        for c in found
    )


def _tricks(file: Path) -> list[str]:
    """The speed-only tricks in one module's source, as ``line: what``."""
    source = file.read_text(encoding="utf-8")
    tree = ast.parse(source)
    found = [f"{n}: BLOOD_FAST" for n, line in enumerate(source.splitlines(), 1)
             if "BLOOD_FAST" in line]
    for node in tree.body:  # module level: a function or a name bound to __getattr__
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            found.append(f"{node.lineno}: a module-level __getattr__")
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == "__getattr__" for t in targets):
            found.append(f"{node.lineno}: a module-level __getattr__")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = ast.unparse(node.func)
        if called in ("os._exit", "_exit"):
            found.append(f"{node.lineno}: os._exit")
        elif called == "gc.disable":
            found.append(f"{node.lineno}: gc.disable")
        elif called.endswith("import_module") and node.args:
            target = node.args[0]
            text = ast.unparse(target)
            literal = target.value if isinstance(target, ast.Constant) else None
            # a name of the package, or one made at run time (an f-string, a variable: what
            # the lazy layer imports by string); a fixed name of another library is fine
            if not isinstance(literal, str) or literal.startswith(NAME):
                found.append(f"{node.lineno}: import_module({text})")
    return found


def test_the_trick_finder_sees_each_trick(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import gc, os, importlib\n"
        "def __getattr__(name): ...\n"
        "def end():\n    gc.disable()\n    os._exit(0)\n"
        "def lazy(home):\n    return importlib.import_module(f'blood_companion.{home}')\n"
        "def plain():\n    return importlib.import_module('pydantic.version')\n"
        "FAST = 'BLOOD_FAST'\n",
        encoding="utf-8",
    )
    assert [t.partition(": ")[2] for t in _tricks(probe)] == [
        "BLOOD_FAST", "a module-level __getattr__", "gc.disable", "os._exit",
        "import_module(f'blood_companion.{home}')"]
    other = tmp_path / "other.py"
    other.write_text("lazy = None\n__getattr__ = lazy\n", encoding="utf-8")
    assert [t.partition(": ")[2] for t in _tricks(other)] == ["a module-level __getattr__"]


def test_no_speed_only_trick_is_left_in_the_package() -> None:
    found = [f"{file.relative_to(PACKAGE.parent)}:{trick}"
             for file in sorted(PACKAGE.rglob("*.py")) for trick in _tricks(file)]
    assert not found, "\n".join(found)
