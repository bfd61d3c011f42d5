"""Upcasters: documents written by older versions of the app, brought to today's shapes.

A state document carries ``schema_version`` (:data:`STATE_UPCASTERS` from it to
:data:`STATE_SCHEMA`); an action payload is stored with its action schema version
(:data:`ACTION_UPCASTERS` keyed by ``(action type, from version)``). Each upcaster is a pure
function from one version's document to the next; add one with every change of a stored shape,
with a test opening a file written before it (``tests/store/test_upcast.py``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

STATE_SCHEMA = 2
ACTION_SCHEMA = 2

Doc = dict[str, Any]


class TooNew(ValueError):
    """A document written by a newer version of the app."""

    def __init__(self, what: str, version: int, known: int) -> None:
        super().__init__(f"{what} schema version {version}; this app reads up to {known}")
        self.version = version
        self.known = known


def _state_1_to_2(doc: Doc) -> Doc:
    """App 0.1.0 kept the night log as English sentences; they become ``text`` events."""
    night = doc.get("night")
    if isinstance(night, dict):
        night["log"] = [{"turn": e.get("turn", 0), "phase": e.get("phase", ""), "kind": "text",
                         "args": {"text": e.get("text", "")}}
                        if isinstance(e, dict) and "kind" not in e else e
                        for e in night.get("log", [])]
    return doc


# from-version -> upcaster to from-version + 1
STATE_UPCASTERS: dict[int, Callable[[Doc], Doc]] = {1: _state_1_to_2}

def _event_1_to_2(doc: Doc) -> Doc:
    """Before action schema 2 an Event Effect whose Target is a Tile by its Scenic Element was
    resolved without the table confirming where the Active Trouper stands; one recorded then
    was played at the table as it was: it counts as confirmed."""
    doc["confirm"] = True
    return doc


# (action type, from-version) -> upcaster to from-version + 1
ACTION_UPCASTERS: dict[tuple[str, int], Callable[[Doc], Doc]] = {
    ("night_event", 1): _event_1_to_2}


def state_version(doc: Doc) -> int:
    v = doc.get("schema_version", 1)
    return v if isinstance(v, int) and not isinstance(v, bool) else 1


def upcast_state(doc: Doc) -> Doc:
    """Today's shape of a state document (a copy when anything changes). Raises TooNew."""
    version = state_version(doc)
    if version > STATE_SCHEMA:
        raise TooNew("state", version, STATE_SCHEMA)
    if version == STATE_SCHEMA:
        return doc
    doc = copy.deepcopy(doc)
    while version < STATE_SCHEMA:
        doc = STATE_UPCASTERS[version](doc)
        version += 1
        doc["schema_version"] = version
    return doc


def upcast_action(data: Doc, version: int) -> Doc:
    """Today's shape of an action payload written with action schema `version`."""
    if version > ACTION_SCHEMA:
        raise TooNew("action", version, ACTION_SCHEMA)
    kind = str(data.get("type", ""))
    while version < ACTION_SCHEMA:
        step = ACTION_UPCASTERS.get((kind, version))
        if step is not None:
            data = step(copy.deepcopy(data))
        version += 1
    return data
