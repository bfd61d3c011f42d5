"""Chance: every shuffle, draw and die face an action causes, made by our own generator and
recorded with the step (OpenSpiel's "chance outcomes as actions").

An action's :class:`Chance` answers ``shuffle``, ``sample``, ``choice`` and ``randrange`` (as
:class:`random.Random`), each with a ``label`` saying what is random ("die:R"), and keeps its
answers in :attr:`Chance.outcomes`, stored beside the action. **Fresh**: from
:class:`BloodRandom`. **Replay**: from the recorded outcomes, matched by kind and label in
order (one that does not fit raises :class:`ChanceMismatch`). **Legacy**: app 0.1.0's
``random.Random(f"blood:{seed}:{step}")`` (:class:`LegacyRandom`), for migrations.

The generator (:class:`BloodRandom`), specified so that any version of Python (or another
language) gives the same numbers:

* the n-th 64-bit word of a step is the BLAKE2b digest (8 bytes, personalisation
  ``b"blood-rng-v1"``) of the ASCII text ``"{seed}:{step}:{n}"``, read big-endian; n counts
  from 0; a named *stream* of the step (the dice `blood play` rolls while the players answer a
  Test, before the step is recorded) uses ``"{seed}:{step}:{stream}:{n}"`` instead, so its
  numbers never repeat those the step itself draws;
* ``randbelow(k)`` draws words until one is below ``2**64 - 2**64 % k`` and returns it modulo
  ``k`` (no bias);
* ``shuffle`` is Fisher–Yates from the last position down: for ``i`` from ``len - 1`` to 1,
  swap positions ``i`` and ``randbelow(i + 1)``;
* ``sample(items, k)`` shuffles a copy the same way from the front for k positions (swap ``i``
  with ``i + randbelow(len - i)``) and returns its first k items; ``choice`` is
  ``items[randbelow(len)]``; ``randrange(k)`` is ``randbelow(k)``.

``tests/engine/test_chance.py`` pins the first outputs, so a change to any of this is caught.
"""

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

from blood_companion.engine.errors import RuleError

T = TypeVar("T")

_WORD = 1 << 64
_PERSON = b"blood-rng-v1"


class ChanceMismatch(RuleError):
    """A recorded chance outcome does not fit what the engine asks now."""


class Generator(Protocol):
    def shuffle(self, x: MutableSequence[Any]) -> None: ...
    def sample(self, population: Sequence[T], k: int) -> list[T]: ...
    def choice(self, seq: Sequence[T]) -> T: ...
    def randrange(self, n: int) -> int: ...


class BloodRandom:
    """The specified generator (see the module docstring)."""

    def __init__(self, seed: int, step: int, stream: str = "") -> None:
        if stream and not stream.isascii():
            raise ValueError("a stream name is ASCII")
        self._prefix = f"{int(seed)}:{int(step)}:" + (f"{stream}:" if stream else "")
        self._n = 0

    def word(self) -> int:
        text = f"{self._prefix}{self._n}".encode("ascii")
        self._n += 1
        digest = hashlib.blake2b(text, digest_size=8, person=_PERSON).digest()
        return int.from_bytes(digest, "big")

    def randbelow(self, k: int) -> int:
        if k <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = _WORD - _WORD % k
        while True:
            v = self.word()
            if v < limit:
                return v % k

    def randrange(self, n: int) -> int:
        return self.randbelow(n)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        items = list(population)
        if not 0 <= k <= len(items):
            raise ValueError("sample larger than the population")
        for i in range(k):
            j = i + self.randbelow(len(items) - i)
            items[i], items[j] = items[j], items[i]
        return items[:k]

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.randbelow(len(seq))]


class LegacyRandom(random.Random):
    """App 0.1.0's generator: ``random.Random(f"blood:{seed}:{step}")`` (for migrations only)."""

    def __init__(self, seed: int, step: int) -> None:
        super().__init__(f"blood:{seed}:{step}")


def _plain(value: Any) -> Any:
    """A JSON-able copy of what was drawn (ids, numbers)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    raise TypeError(f"chance over {type(value).__name__} values cannot be recorded")


class Chance:
    """What is random in one action: answers from a generator (fresh) or from the outcomes
    recorded with the step (replay); every answer is kept in :attr:`outcomes`."""

    def __init__(self, generator: Generator | None = None,
                 recorded: Sequence[dict[str, Any]] | None = None) -> None:
        if (generator is None) == (recorded is None):
            raise ValueError("a Chance draws from a generator or from recorded outcomes")
        self._gen = generator
        self._left = [dict(o) for o in recorded] if recorded is not None else None
        self.outcomes: list[dict[str, Any]] = []
        # Cards the table drew from decks it holds, as the action names and records them
        # (deck -> cards in the order drawn); engine/table.py takes them in turn.
        self.named: dict[str, list[str]] = {}

    def name_draws(self, drawn: dict[str, list[str]]) -> None:
        self.named = {deck: list(cards) for deck, cards in drawn.items()}

    def take_named(self, deck: str) -> str | None:
        left = self.named.get(deck)
        return left.pop(0) if left else None

    def unnamed_left(self) -> dict[str, list[str]]:
        """Named cards no draw took (the action named more than happened)."""
        return {deck: list(cards) for deck, cards in self.named.items() if cards}

    @classmethod
    def fresh(cls, seed: int, step: int, stream: str = "") -> "Chance":
        return cls(BloodRandom(seed, step, stream))

    @classmethod
    def legacy(cls, seed: int, step: int) -> "Chance":
        return cls(LegacyRandom(seed, step))

    @classmethod
    def replay(cls, recorded: Sequence[dict[str, Any]]) -> "Chance":
        return cls(recorded=recorded)

    def unused(self) -> list[dict[str, Any]]:
        """Recorded outcomes the replay never asked for (a sign the engine changed)."""
        return list(self._left or [])

    def _recorded(self, kind: str, label: str) -> Any:
        assert self._left is not None
        for k, o in enumerate(self._left):
            if o.get("k") == kind and o.get("l") == label:
                del self._left[k]
                return o.get("v")
        raise ChanceMismatch(f"no recorded {kind} outcome for {label!r} at this step")

    def _keep(self, kind: str, label: str, value: Any) -> None:
        self.outcomes.append({"k": kind, "l": label, "v": _plain(value)})

    def shuffle(self, x: MutableSequence[Any], label: str = "shuffle") -> None:
        if self._left is not None:
            order = self._recorded("shuffle", label)
            if not isinstance(order, list) or sorted(map(repr, order)) != sorted(map(repr, x)):
                raise ChanceMismatch(f"the recorded {label!r} shuffle holds other items")
            x[:] = order
        else:
            assert self._gen is not None
            self._gen.shuffle(x)
        self._keep("shuffle", label, list(x))

    def sample(self, population: Sequence[T], k: int, label: str = "sample") -> list[T]:
        if self._left is not None:
            got = self._recorded("sample", label)
            pool = list(population)
            if not isinstance(got, list) or len(got) != k:
                raise ChanceMismatch(f"the recorded {label!r} draw has another size")
            for item in got:
                if item not in pool:
                    raise ChanceMismatch(f"the recorded {label!r} draw holds {item!r}")
                pool.remove(item)
            out: list[T] = list(got)
        else:
            assert self._gen is not None
            out = self._gen.sample(population, k)
        self._keep("sample", label, out)
        return out

    def choice(self, seq: Sequence[T], label: str = "choice") -> T:
        if self._left is not None:
            got = self._recorded("choice", label)
            if got not in list(seq):
                raise ChanceMismatch(f"the recorded {label!r} choice {got!r} is not on offer")
            out: T = got
        else:
            assert self._gen is not None
            out = self._gen.choice(seq)
        self._keep("choice", label, out)
        return out

    def randrange(self, n: int, label: str = "randrange") -> int:
        if self._left is not None:
            got = self._recorded("randrange", label)
            if not isinstance(got, int) or isinstance(got, bool) or not 0 <= got < n:
                raise ChanceMismatch(f"the recorded {label!r} number {got!r} is out of range")
            out = got
        else:
            assert self._gen is not None
            out = self._gen.randrange(n)
        self._keep("randrange", label, out)
        return out
