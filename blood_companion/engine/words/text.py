"""Words without the data pack: counts, lists, percentages, the Nemesis's sides, and the one
template renderer (:func:`fill`, :func:`phrase`) every sentence of the package goes through. A
leaf module (the engine's rules use it)."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any

SIDE_WORDS = {"front": "Front", "left": "Left Side", "right": "Right Side"}


def counted(n: int, resource: str, sign: bool = False) -> str:
    """A Wagon Resource counted, in every log and Wagon sentence: ``1 coin``, ``2 coins``,
    ``+1 jewel``, ``-3 scrolls``."""
    word = resource.removesuffix("s") if abs(n) == 1 else resource
    return f"{n:+d} {word}" if sign else f"{n} {word}"


def counted_all(amounts: Mapping[str, int], sign: bool = False, zeros: bool = False) -> str:
    """Several Resources counted: ``0 jewels, 1 coin, 2 trinkets``; ``zeros`` keeps the 0s."""
    return ", ".join(counted(n, r, sign) for r, n in amounts.items() if n or zeros)


def listing(items: Iterable[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    xs = [x for x in items if x]
    if not xs:
        return "nothing"
    if len(xs) == 1:
        return xs[0]
    return ", ".join(xs[:-1]) + " and " + xs[-1]


def percent(p: Any, digits: int = 0) -> str:
    """A chance for the table: rounded, but never to 100% (or 0%) unless it is certain
    (``0.997`` -> "over 99%", ``0.002`` -> "under 1%")."""
    p = float(p)
    text, step = f"{p:.{digits}%}", 10 ** -(digits + 2)
    if p < 1 and text == f"{1:.{digits}%}":
        return f"over {1 - step:.{digits}%}"
    if p > 0 and text == f"{0:.{digits}%}":
        return f"under {step:.{digits}%}"
    return text


_GROUPS = re.compile(r"\[((?:[^\[\]{}]|\{[^{}]*\})*)\]")  # [...], a {field[key]} inside
FORMAT = string.Formatter()


def fill(template: str, value: Callable[[str], Any], show: Callable[[str, str, Any], str]) -> str:
    """`template` with its fields (``{field}``, ``{field:kind}``) shown: `value(field)` is the
    field's value and `show(field, kind, value)` its words. ``[...]`` is shown only when every
    field in it is set (not None, False, 0 or empty); ``[A|B]`` shows the first of A, B whose
    fields are all set (B, the last, in any case)."""

    def filled(part: str, strict: bool) -> str | None:
        out = []
        for literal, field, kind, _ in FORMAT.parse(part):
            out.append(literal)
            if field is not None:
                v = value(field)
                if strict and not v:
                    return None
                out.append(show(field, kind or "", v))
        return "".join(out)

    out = []
    for k, part in enumerate(_GROUPS.split(template)):
        if k % 2 == 0:
            out.append(filled(part, False) or "")
            continue
        *first, last = part.split("|")
        shown = next((t for t in (filled(o, True) for o in first) if t is not None), None)
        out.append(shown if shown is not None else filled(last, not first) or "")
    return "".join(out)


def phrase(template: str, **fields: Any) -> str:
    """`template` with its ``{field}`` s shown as they are (a sentence of the physical
    instructions, a movement): :func:`fill` over the given fields."""
    return fill(template, fields.get, lambda field, kind, v: str(v))
