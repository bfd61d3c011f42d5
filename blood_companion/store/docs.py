"""State documents and stored steps: the JSON a save keeps, independent of the rules engine.

* A state document is ``CampaignState.model_dump(mode="json")``; its canonical text (sorted
  keys, no spaces) is what the hashes cover.
* :class:`Row` is one step as the ``actions`` table stores it; :func:`chain_rows` turns a list of
  states into rows (deltas between them) and the snapshot texts a file keeps.
"""

import hashlib
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from pydantic import ValidationError

from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import TooNew, upcast_state
from blood_companion.store import delta as dl
from blood_companion.store.schema import SNAPSHOT_EVERY

Doc = dict[str, Any]

# The export document's format (store/transfer.py)
FORMAT = "blood-companion-campaign"
FORMAT_VERSION = 2


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def canon(doc: Any) -> str:
    """Canonical JSON: equal documents give byte-equal text."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def hash_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


MAX_DEPTH = 200  # a stored value nested deeper than this is damage (a state is about 10 deep)


class DeepJson(ValueError):
    """Stored JSON nested deeper than MAX_DEPTH (read as damage, never a RecursionError)."""


def load_json(text: str | bytes | None) -> Any:
    """Stored JSON text as a value; ValueError (DeepJson past MAX_DEPTH) for anything else."""
    if not isinstance(text, (str, bytes)):
        raise ValueError("not JSON text")
    if _too_deep(text):
        raise DeepJson(f"it is nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - _too_deep counts first
        raise DeepJson("it is nested too deeply") from None


def _too_deep(text: str | bytes) -> bool:
    """Whether the brackets outside strings nest past MAX_DEPTH (or do not pair up): linear
    regular-expression passes, innermost pairs removed once per level."""
    raw = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    if raw.count("[") + raw.count("{") <= MAX_DEPTH:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", raw))
    for _ in range(MAX_DEPTH):
        if not brackets:
            return False
        brackets, n = _PAIR.subn("", brackets)
        if n == 0:
            return True
    return bool(brackets)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"(?:\[\]|\{\})+")


def read_int(value: Any) -> int:
    """A whole number as a save stores it (an integer, or ASCII digits); ValueError else:
    ``int()`` alone would read ``'٢٥٠'``, ``' 25 '`` or ``'2_5'``."""
    if type(value) is int:
        return value
    if isinstance(value, str) and _INT.fullmatch(value):
        return int(value)
    raise ValueError(f"{str(value)[:20]!r} is not a whole number")


_INT = re.compile(r"-?[0-9]{1,18}")


def state_doc(state: CampaignState) -> Doc:
    return state.model_dump(mode="json")


class BadState(ValueError):
    """A stored state document that today's app cannot read (the message says why)."""


def to_state(doc: Doc) -> CampaignState:
    try:
        return CampaignState.model_validate(upcast_state(doc))
    except TooNew as exc:
        raise BadState(f"it was written by a newer Blood Companion ({exc})") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise BadState(f"it is not a valid state ({loc}: {err['msg']})") from None
    except (TypeError, KeyError, AttributeError) as exc:
        raise BadState(f"it is not a valid state ({type(exc).__name__})") from None


def is_checkpoint(step: int) -> bool:
    return step == 1 or step % SNAPSHOT_EVERY == 0


class Row(NamedTuple):  # one step as the ``actions`` table stores it
    step: int
    type: str
    data: str  # the action's JSON
    av: int  # action schema version of `data`
    chance: str | None  # JSON list of chance outcomes
    delta: str  # JSON operations: state before -> state after (step 1: the whole state)
    state_hash: str
    app: str
    data_fp: str
    recorded: str
    exact: int = 1

    def values(self) -> tuple[Any, ...]:
        return (
            self.step, self.type, self.data, self.av, self.chance, self.delta, self.state_hash,
            self.app, self.data_fp, self.recorded, self.exact,
        )


# The action types `recover` stores for a step kept without its action (never given to the
# engine; the step as it was stays in the damaged copy): UNREADABLE, its action no longer reads
# but its state is proven; UNPROVEN, not provable between two proven steps (the state before).
UNREADABLE = "unreadable_step"
UNPROVEN = "unproven_step"
MARKERS = (UNREADABLE, UNPROVEN)


def marker_data(kind: str, step: int, app: str = "") -> str:
    return canon({"type": kind, "step": step, "app": app})


ROW_COLUMNS = "step, type, data, av, chance, delta, state_hash, app, data_fp, recorded, exact"
INSERT_ACTION = f"INSERT INTO actions ({ROW_COLUMNS}) VALUES ({','.join('?' * 11)})"
INSERT_ABANDONED = (f"INSERT INTO abandoned ({ROW_COLUMNS}, abandoned, replaced_at) "
                    f"VALUES ({','.join('?' * 13)})")


class StepSource(NamedTuple):  # what is known of a step before its delta is computed
    type: str
    data: str
    av: int
    chance: str | None
    app: str
    data_fp: str
    recorded: str
    exact: int = 1


def chain_rows(
    sources: Sequence[StepSource], docs: Sequence[Doc], *, head: int, stamp: bool = True
) -> tuple[list[Row], dict[int, tuple[str, str]]]:
    """Rows for steps 1..n whose states are `docs`, and the snapshots a file keeps as (text,
    hash); with `stamp`, a step recorded at no known time gets now."""
    rows: list[Row] = []
    snaps: dict[int, tuple[str, str]] = {}
    prev: Doc | None = None
    for k, (src, doc) in enumerate(zip(sources, docs, strict=True), start=1):
        text = canon(doc)
        digest = hash_text(text)
        ops = [{"p": [], "v": doc}] if prev is None else dl.diff(prev, doc)  # step 1: all of it
        rows.append(
            Row(k, src.type, src.data, src.av, src.chance, canon(ops), digest, src.app,
                src.data_fp, src.recorded or (now() if stamp else ""), src.exact)
        )
        if is_checkpoint(k) or k == head:
            snaps[k] = (text, digest)
        prev = doc
    return rows, snaps
