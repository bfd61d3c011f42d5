"""Deltas between two JSON documents (a campaign state before and after a step).

A delta is a list of operations, each a small JSON object:

* ``{"p": path, "v": value}`` — set the value at ``path`` (a dict key, or a list index);
* ``{"p": path, "d": 1}`` — delete the dict key at ``path``;
* ``{"p": path, "s": [start, removed], "v": items}`` — splice the list at ``path``: remove
  ``removed`` items from ``start`` and insert ``items`` there.

``path`` is a list of keys and list indexes from the root (empty: the whole document).
``patch(a, diff(a, b)) == b`` for any two JSON documents (tested with hypothesis). Lists of dicts
of one length are compared item by item, other lists by their common start and end, so a card
added to a hand or a log event is one small splice.
"""

from __future__ import annotations

import copy
import json
from json.encoder import encode_basestring as _STRING
from typing import Any

Json = Any
Op = dict[str, Any]


class DeltaError(ValueError):
    """A delta that does not fit the document it is applied to (damaged data)."""


def diff(a: Json, b: Json) -> list[Op]:
    ops: list[Op] = []
    _diff(a, b, [], ops)
    return ops


def _same(a: Json, b: Json) -> bool:
    # bool is an int in Python: keep True apart from 1 (and 1.0) so a delta never changes a
    # type, inside a list or an object too (where == alone finds [True] equal to [1.0]).
    if type(a) is not type(b) or a != b:
        return False
    if isinstance(a, dict):
        return all(_same(value, b[key]) for key, value in a.items())
    if isinstance(a, list):
        return all(map(_same, a, b))
    return True


def _diff(a: Json, b: Json, path: list[Any], ops: list[Op]) -> None:
    if _same(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                ops.append({"p": [*path, key], "d": 1})
        for key, value in b.items():
            if key in a:
                _diff(a[key], value, [*path, key], ops)
            else:
                ops.append({"p": [*path, key], "v": copy.deepcopy(value)})
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) == len(b) and a and all(isinstance(x, dict) for x in a + b):
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                _diff(x, y, [*path, i], ops)
            return
        start = 0
        while start < len(a) and start < len(b) and _same(a[start], b[start]):
            start += 1
        end = 0
        while (
            end < len(a) - start
            and end < len(b) - start
            and _same(a[len(a) - 1 - end], b[len(b) - 1 - end])
        ):
            end += 1
        removed = len(a) - start - end
        items = b[start : len(b) - end]
        ops.append({"p": path, "s": [start, removed], "v": copy.deepcopy(items)})
        return
    ops.append({"p": path, "v": copy.deepcopy(b)})


def patch(doc: Json, ops: list[Op]) -> Json:
    """A copy of `doc` with the operations applied (DeltaError: they do not fit)."""
    return patch_in_place(copy.deepcopy(doc), ops)


def patch_in_place(doc: Json, ops: list[Op]) -> Json:
    for op in ops:
        doc = _apply(doc, op)
    return doc


def _apply(doc: Json, op: Op) -> Json:
    try:
        path = op["p"]
        if not isinstance(path, list):
            raise DeltaError("a delta path must be a list")
        if not path:
            if "s" in op:
                return _splice(doc, op)
            if "d" in op:
                raise DeltaError("cannot delete the whole document")
            return copy.deepcopy(op["v"])
        parent = doc
        for key in path[:-1]:
            parent = parent[_key(parent, key)]
        last = _key(parent, path[-1])
        if "s" in op:
            parent[last] = _splice(parent[last], op)
        elif "d" in op:
            if not isinstance(parent, dict):
                raise DeltaError("a delete applies to a dict key")
            del parent[last]
        else:
            if isinstance(parent, list) and not 0 <= last < len(parent):
                raise DeltaError(f"list index {last} is out of range")
            parent[last] = copy.deepcopy(op["v"])
        return doc
    except DeltaError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise DeltaError(
            f"the delta does not fit the document ({type(exc).__name__}: {exc})"
        ) from None


def _key(parent: Json, key: Any) -> Any:
    """`key` when it names a place in `parent`: a string in a dict, an int (no bool) in a list."""
    if isinstance(parent, dict) and isinstance(key, str):
        return key
    if isinstance(parent, list) and isinstance(key, int) and not isinstance(key, bool):
        return key
    raise DeltaError(f"the delta path holds {type(key).__name__} {str(key)[:20]!r} where "
                     f"a {'key' if isinstance(parent, dict) else 'list index'} belongs")


def _splice(target: Json, op: Op) -> Json:
    if not isinstance(target, list):
        raise DeltaError("a splice applies to a list")
    start, removed = op["s"]
    if not all(type(x) is int for x in (start, removed)):
        raise DeltaError("a splice's range is two integers")
    if not (0 <= start <= len(target) and 0 <= removed <= len(target) - start):
        raise DeltaError("a splice is out of the list's range")
    items = op["v"]
    if not isinstance(items, list):
        raise DeltaError("a splice inserts a list")
    target[start : start + removed] = copy.deepcopy(items)
    return target


class CanonText:
    """``docs.canon`` of a document patched in place, re-dumping only what operations touched:
    ``text(doc)`` after ``touch(op)`` for every op applied equals ``canon(doc)`` (tested)."""

    def __init__(self) -> None:
        self._root: list[Any] = [None, {}]  # [text or None, {key or index: child node}]

    def touch(self, op: Op) -> None:
        path = op["p"]
        if not path:
            self._root = [None, {}]
            return
        node = self._root
        for key in path[:-1]:
            node[0] = None
            node = node[1].get(key)
            if node is None:
                return
        node[0] = None
        if "s" in op:  # the items after the splice move: their texts go with them
            kid = node[1].get(path[-1])
            if kid is not None:
                kid[0] = None
                start, removed = op["s"]
                moved = len(op["v"]) - removed
                if moved or any(i >= start for i in kid[1]):
                    kid[1] = {(i if i < start else i + moved): text
                              for i, text in kid[1].items()
                              if i < start or i >= start + removed}
        else:
            node[1].pop(path[-1], None)

    def text(self, doc: Json) -> str:
        if type(doc) is dict or type(doc) is list:
            text = self._root[0]
            return text if text is not None else _render(doc, self._root)
        return ENCODE(doc)


# canon() with one encoder made once (json.dumps makes one a call for these options)
ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
_KEYS: dict[str, str] = {}  # a dict key's text, followed by ":"


def _render(value: Json, node: list[Any]) -> str:
    kids = node[1]
    if type(value) is dict:
        parts = []
        for key in sorted(value):
            head = _KEYS.get(key)
            if head is None:
                head = ENCODE(key) + ":"
                if len(_KEYS) < 4096:
                    _KEYS[key] = head
            parts.append(head + _part(value[key], key, kids))
        text = "{" + ",".join(parts) + "}"
    else:
        text = "[" + ",".join([_part(x, i, kids) for i, x in enumerate(value)]) + "]"
    node[0] = text
    return text


def _part(value: Json, key: Any, kids: dict[Any, Any]) -> str:
    kind = type(value)
    if kind is str:
        return _STRING(value)
    if kind is int:
        return int.__repr__(value)
    if kind is not dict and kind is not list:
        return ENCODE(value)
    kid = kids.get(key)
    if kid is None:
        kid = kids[key] = [None, {}]
    elif kid[0] is not None:
        return kid[0]
    inner = value.values() if kind is dict else value
    if any(type(x) is dict or type(x) is list for x in inner):
        return _render(value, kid)
    kid[0] = ENCODE(value)  # flat: dumped whole
    return kid[0]
