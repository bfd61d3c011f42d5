"""YAML written by users (data overlays, the rules reference), parsed within bounds.

The safe loader never runs code, but an alias bomb (each level nine aliases of the one before)
is a few hundred bytes whose *expansion* has hundreds of millions of values. :func:`nodes`
visits each node once however often it is aliased; :func:`bounds_problem` refuses aliases
adding more than :data:`MAX_ALIAS_EXTRA` values, an alias containing itself, and a number too
long to be a count; :func:`safe_load` turns every failure into :class:`YamlProblem` with a line.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

try:  # the C loader is much faster; fall back to the pure-Python safe loader
    from yaml import CSafeLoader as SafeLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader  # type: ignore[assignment]

MAX_ALIAS_EXTRA = 100_000  # values that aliases may add to those written in the file
MAX_NUMBER_CHARS = 100  # no count in the game needs more digits
INT_TAG = "tag:yaml.org,2002:int"


class YamlProblem(Exception):
    """A YAML document that cannot be read; ``line`` is 1-based, or None."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def nodes(root: yaml.Node) -> Iterator[yaml.Node]:
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        stack.extend(reversed(_children(node)))


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def bounds_problem(root: yaml.Node) -> YamlProblem | None:
    """What makes the document too costly to read, or None (linear in distinct nodes)."""
    size: dict[int, int] = {}
    open_nodes: set[int] = set()  # expanded, not finished: the ancestors of the current node
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        kids = _children(node)
        if finished:
            open_nodes.discard(key)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            continue
        if key in size:
            continue
        if isinstance(node, yaml.ScalarNode):
            if node.tag == INT_TAG and len(node.value) > MAX_NUMBER_CHARS:
                return YamlProblem(
                    _line(node),
                    f"a number of {len(node.value)} characters; no count needs more than "
                    f"{MAX_NUMBER_CHARS}",
                )
            size[key] = 1
            continue
        open_nodes.add(key)
        stack.append((node, True))
        for kid in kids:
            if id(kid) in open_nodes:
                return YamlProblem(_line(kid), "an alias refers to a value that contains it")
            if id(kid) not in size:
                stack.append((kid, False))
    extra = size[id(root)] - len(size)
    if extra > MAX_ALIAS_EXTRA:
        return YamlProblem(
            None,
            f"its aliases (*name) repeat values {extra:,} times (at most "
            f"{MAX_ALIAS_EXTRA:,}); write the records out instead",
        )
    return None


def describe_error(exc: yaml.YAMLError) -> YamlProblem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    if isinstance(exc, yaml.constructor.ConstructorError):
        return YamlProblem(
            line, f"YAML tag not allowed ({exc.problem}); only plain YAML data is read"
        )
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    if context and context_mark is not None:
        problem += f" ({context} started on line {context_mark.line + 1})"
    return YamlProblem(line, f"invalid YAML: {problem}")


def compose(loader: Any) -> yaml.Node | None:
    try:
        node: yaml.Node | None = loader.get_single_node()
    except yaml.YAMLError as exc:
        raise describe_error(exc) from None
    except RecursionError:
        raise YamlProblem(None, "the YAML is nested too deeply") from None
    if node is not None:
        problem = bounds_problem(node)
        if problem is not None:
            raise problem
    return node


def construct(loader: Any, node: yaml.Node) -> Any:
    try:
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise describe_error(exc) from None
    except RecursionError:
        raise YamlProblem(_line(node), "the YAML is nested too deeply") from None
    except (ValueError, OverflowError, TypeError) as exc:
        # e.g. a date that does not exist (2024-02-30) or a number Python will not convert
        from blood_companion.display import excerpt

        raise YamlProblem(None, f"a value cannot be read ({excerpt(str(exc), 80)})") from None


def new_loader(text: str) -> SafeLoader:
    """A safe loader (the C one where PyYAML has it) reading ``text``."""
    return SafeLoader(text)


def safe_load(text: str) -> tuple[yaml.Node | None, Any]:
    """(node graph, data) of one YAML document; raises YamlProblem."""
    loader = new_loader(text)
    try:
        node = compose(loader)
        return node, (construct(loader, node) if node is not None else None)
    finally:
        loader.dispose()
