"""Dice: the box's Red, Grey and Black dice, pool notation (``"2R B"``), rolls and the faces
players type in from physical dice (``"2 x 1/1"``, ``"B3 R0 Gx"``); docs/dice-and-odds.md."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import groupby
from typing import Any, Literal, NamedTuple, TypeVar

from pydantic_core import core_schema

from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import DiceError

DieLetter = Literal["R", "G", "B"]
LETTERS: tuple[DieLetter, ...] = ("R", "G", "B")
DIE_NAMES: dict[str, str] = {"R": "Red", "G": "Grey", "B": "Black"}
_COLOUR_WORDS: dict[str, DieLetter] = {"red": "R", "grey": "G", "gray": "G", "black": "B"}

# "Tests": a Test always rolls three dice. The box holds three dice of each colour
# ("Other Components"); the data pack's count_in_box says so per die.
TEST_DICE = 3
# No roll in the game comes near this; it only stops "999R" from allocating a huge list.
MAX_POOL_DICE = 30

Pool = tuple[DieLetter, ...]
_T = TypeVar("_T")


def in_models(cls: type[_T]) -> type[_T]:
    """Let pydantic models hold ``cls``, validated from and dumped as the dict of its fields."""
    def schema(source: Any, handler: Any) -> Any:
        return core_schema.no_info_plain_validator_function(
            lambda value: value if isinstance(value, cls) else _from_fields(cls, value),
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda value: value._asdict(), when_used="always"))

    cls.__get_pydantic_core_schema__ = schema  # type: ignore[attr-defined]
    return cls


def _from_fields(cls: Any, value: Any) -> Any:
    if not isinstance(value, dict):
        raise ValueError(f"expected a mapping of {cls.__name__} fields")
    unknown = set(value) - set(cls._fields)
    if unknown:
        raise ValueError(f"unknown {cls.__name__} field(s): {', '.join(sorted(unknown))}")
    try:
        return _made(cls, **value)
    except TypeError as exc:
        raise ValueError(str(exc)) from None


def _made(cls: Any, **fields: Any) -> Any:
    """``cls(**fields)`` once its ``_check`` (refusing what no box or save holds) accepts it."""
    value = cls(**fields)
    value._check()
    return value


@in_models
class Face(NamedTuple):
    """One die showing one face: what is recorded for every roll, digital or physical."""

    die: DieLetter
    triumphs: int
    defeats: int = 0
    label: str | None = None

    @property
    def counts(self) -> tuple[int, int]:
        return (self.triumphs, self.defeats)

    def _check(self) -> None:
        if self.die not in LETTERS:
            raise ValueError(f"a die is R, G or B, not {self.die!r}")
        if not (_whole(self.triumphs) and _whole(self.defeats)):
            raise ValueError("Triumphs and Defeats are whole numbers, 0 or more")
        if self.label is not None and not isinstance(self.label, str):
            raise ValueError("a face's label is text")


def _whole(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n >= 0


class DieSpec(NamedTuple):
    """One kind of die: its letter, its faces (each equally likely) and how many the box has."""

    letter: DieLetter
    name: str
    faces: tuple[Face, ...]
    count_in_box: int = 3

    def _check(self) -> None:
        if self.letter not in LETTERS:
            raise ValueError(f"a die is R, G or B, not {self.letter!r}")
        if not (_whole(self.count_in_box) and self.count_in_box >= 1):
            raise ValueError("a die's count in the box is 1 or more")


class DiceBox(NamedTuple):
    """The dice a game can roll, by letter."""

    dice: tuple[DieSpec, ...]

    def die(self, letter: str) -> DieSpec:
        for spec in self.dice:
            if spec.letter == letter:
                return spec
        raise DiceError(f"the box has no {letter!r} die", hint=_letters_hint(self))

    def letters(self) -> tuple[DieLetter, ...]:
        return tuple(spec.letter for spec in self.dice)

    @classmethod
    def from_models(cls, dice: Iterable[Any]) -> DiceBox:
        """From the content models (``content.models.Die``) or anything shaped like them."""
        return cls._checked([DieSpec(
            letter=d.letter, name=d.name, count_in_box=d.count_in_box,
            faces=tuple(Face(d.letter, f.triumphs, f.defeats, f.label) for f in d.faces))
            for d in dice])

    @classmethod
    def _checked(cls, specs: list[DieSpec]) -> DiceBox:
        seen = Counter(s.letter for s in specs)
        dup = [letter for letter, n in seen.items() if n > 1]
        if dup:
            raise DiceError(f"the box lists the {dup[0]} die twice")
        empty = [s.letter for s in specs if not s.faces]
        if empty:
            raise DiceError(f"the {empty[0]} die has no faces")
        return cls(dice=tuple(specs))


def _letters_hint(box: DiceBox | None) -> str:
    letters = box.letters() if box is not None else LETTERS
    return "dice are " + ", ".join(f"{x} ({DIE_NAMES.get(x, x)})" for x in letters)


# --------------------------------------------------------------------------- pools

_POOL_TOKEN = re.compile(r"\s*(?P<count>\d+)?\s*(?P<word>[A-Za-z]+)?\s*(?P<sep>[,+]?)")


def parse_pool(text: str, box: DiceBox | None = None, *, max_dice: int | None = None) -> Pool:
    """Read a pool such as ``"R G B"``, ``"2R B"``, ``"3B"``, ``"RGB"`` or ``"2 black, red"``
    (with ``box``: only the dice it holds; ``max_dice`` caps the total)."""
    src = text.strip()
    if not src:
        raise DiceError("the dice pool is empty", hint='write it like "R G B", "2R B" or "3B"')
    pool: list[DieLetter] = []
    pos = 0
    while pos < len(src):
        m = _POOL_TOKEN.match(src, pos)
        if m is None or m.end() == pos:
            bad = src[pos:].split()[0] if src[pos:].split() else src[pos:]
            raise DiceError(f"cannot read {bad!r} in the dice pool {text!r}",
                            hint='counts are whole numbers from 1, e.g. "2R B"; '
                            + _letters_hint(box))
        pos = m.end()
        count_text, word = m.group("count"), m.group("word")
        if word is None:
            raise DiceError(f"the count {count_text} in {text!r} names no die",
                            hint=_letters_hint(box))
        count = int(count_text) if count_text is not None else 1
        letters = _word_letters(word, text, box)
        if count < 1:
            raise DiceError(f"a count of {count} dice in {text!r}: counts start at 1")
        if count > MAX_POOL_DICE:
            raise DiceError(f"{count} dice in {text!r} is more than any roll needs")
        # A count applies to the die right after it ("2RB" is two Red and one Black).
        pool.extend([letters[0]] * count)
        pool.extend(letters[1:])
        if len(pool) > MAX_POOL_DICE:
            raise DiceError(f"the pool {text!r} has more than {MAX_POOL_DICE} dice")
    check_pool(tuple(pool), box, max_dice=max_dice, text=text)
    return tuple(pool)


def _word_letters(word: str, text: str, box: DiceBox | None) -> list[DieLetter]:
    lowered = word.lower()
    if lowered in _COLOUR_WORDS:
        return [_COLOUR_WORDS[lowered]]
    out: list[DieLetter] = []
    for ch in word.upper():
        if ch not in LETTERS:
            raise DiceError(f"unknown die {word!r} in the dice pool {text!r}",
                            hint=_letters_hint(box))
        out.append(ch)
    return out


def check_pool(pool: Sequence[str], box: DiceBox | None = None, *, max_dice: int | None = None,
               text: str | None = None) -> None:
    """Refuse a pool the box cannot roll (DiceError)."""
    shown = text if text is not None else format_pool(pool)
    if not pool:
        raise DiceError("the dice pool is empty", hint='write it like "R G B", "2R B" or "3B"')
    letters = box.letters() if box is not None else LETTERS
    for letter in pool:
        if letter not in letters:
            raise DiceError(f"unknown die {letter!r} in the dice pool {shown!r}",
                            hint=_letters_hint(box))
    if max_dice is not None and len(pool) > max_dice:
        raise DiceError(f"the pool {shown!r} has {len(pool)} dice; at most {max_dice} here")
    if box is not None:
        for letter, n in Counter(pool).items():
            have = box.die(letter).count_in_box
            if n > have:
                raise DiceError(f"the pool {shown!r} needs {n} {DIE_NAMES.get(letter, letter)} "
                                f"dice; the box has {have}")


def format_pool(pool: Sequence[str]) -> str:
    """The compact notation ``parse_pool`` reads, grouping equal neighbours: ``"2R B"``."""
    runs = [(d, len(list(same))) for d, same in groupby(pool)]
    return " ".join(f"{n}{d}" if n > 1 else d for d, n in runs)


# --------------------------------------------------------------------------- rolling


def roll_pool(pool: Sequence[str], box: DiceBox, rng: Chance) -> tuple[Face, ...]:
    """Roll every die of ``pool`` once, in order, drawing only from ``rng``."""
    out = []
    for letter in pool:
        faces = box.die(letter).faces
        out.append(faces[rng.randrange(len(faces), f"die:{letter}")])
    return tuple(out)


def triumph_total(faces: Iterable[Face], *, defeats_cancel: bool = False) -> int:
    """Triumphs shown by ``faces`` (``defeats_cancel``, a rules_config choice: less Defeats)."""
    faces = list(faces)
    total = sum(f.triumphs for f in faces)
    if defeats_cancel:
        total = max(0, total - sum(f.defeats for f in faces))
    return total


# --------------------------------------------------------------------------- physical dice

_PREFIXED = re.compile(r"^(?P<die>[A-Za-z])\s*:?\s*(?P<value>.+)$")
_COUNTS = re.compile(r"^(?P<t>\d+)(?:/(?P<d>\d+))?$|^(?P<x>[xX]+)$")


def format_face(face: Face) -> str:
    """The shortest entry ``parse_faces`` reads back to the same counts: ``2``, ``x``, ``1/1``."""
    if face.defeats == 0:
        return str(face.triumphs)
    if face.triumphs == 0:
        return "x" * face.defeats
    return f"{face.triumphs}/{face.defeats}"


def format_faces(faces: Sequence[Face]) -> str:
    """Faces in pool order, the way a player types them: ``"2 x 1"``."""
    return " ".join(format_face(f) for f in faces)


def parse_faces(text: str, pool: Sequence[str], box: DiceBox) -> tuple[Face, ...]:
    """Read the faces players see on their physical dice, one per die of ``pool``: ``N``, ``x``,
    ``N/M`` or a label each, in pool order or all prefixed by their die (``B3 R0 Gx``, ``B:3``)."""
    entries = [e for e in re.split(r"[\s,;]+", text.strip()) if e]
    check_pool(pool, box)
    if len(entries) != len(pool):
        raise DiceError(f"{len(entries)} face(s) typed for {len(pool)} dice ({format_pool(pool)})",
                        hint="one entry per die, in pool order, e.g. " + _example(pool))
    prefixed = [_split_prefix(e, box) for e in entries]
    if all(p is None for p in prefixed):
        return tuple(_face_for(e, box.die(d), e) for e, d in zip(entries, pool, strict=True))
    if any(p is None for p in prefixed):
        raise DiceError("either every face entry names its die (B3 R0 Gx) or none does (3 0 x)",
                        hint="one entry per die, in pool order, e.g. " + _example(pool))
    slots: list[Face | None] = [None] * len(pool)
    for entry, split in zip(entries, prefixed, strict=True):
        assert split is not None
        letter, value = split
        free = [i for i, d in enumerate(pool) if d == letter and slots[i] is None]
        if not free:
            raise DiceError(f"{entry!r} names a {DIE_NAMES.get(letter, letter)} die; the pool "
                            f"{format_pool(pool)!r} has no more of those")
        slots[free[0]] = _face_for(value, box.die(letter), entry)
    return tuple(f for f in slots if f is not None)


def _split_prefix(entry: str, box: DiceBox) -> tuple[DieLetter, str] | None:
    """``B3``, ``Gx``, ``R1/1``, ``B:3`` or ``B:B-triple`` name their die; ``B-triple`` not."""
    m = _PREFIXED.match(entry)
    if m is None:
        return None
    letter = m.group("die").upper()
    if letter not in box.letters():
        return None
    value = m.group("value")
    if ":" not in entry[1:2] and _COUNTS.match(value) is None:
        return None
    return box.die(letter).letter, value


def _face_for(value: str, spec: DieSpec, entry: str) -> Face:
    low = value.strip().lower()
    for f in spec.faces:
        if f.label is not None and f.label.lower() == low:
            return f
    m = _COUNTS.match(value.strip())
    if m is None:
        raise DiceError(f"cannot read the face {entry!r} for the {spec.name}",
                        hint="type N Triumphs (2), x for a Defeat, N/M, or a label; this die "
                        "shows " + _face_menu(spec))
    x = m.group("x")
    wanted = (0, len(x)) if x else (int(m.group("t")), int(m.group("d") or 0))
    for f in spec.faces:
        if f.counts == wanted:
            return f
    raise DiceError(f"the {spec.name} has no face {entry!r} ({wanted[0]} Triumph(s), "
                    f"{wanted[1]} Defeat(s))", hint="its faces are " + _face_menu(spec))


def _face_menu(spec: DieSpec) -> str:
    return ", ".join(dict.fromkeys(format_face(f) for f in spec.faces))


def _example(pool: Sequence[str]) -> str:
    return '"' + " ".join(["1"] * len(pool)) + '"'
