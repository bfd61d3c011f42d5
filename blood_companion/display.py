"""Text that came from a user or a file, made safe to print: one helper for every renderer.

A name in an import, a card text in an overlay or a line of a damaged cache may hold terminal
control sequences, bidirectional overrides or lone surrogates. :func:`clean` removes them
(newlines and tabs stay), :func:`json_text` escapes them in JSON, :func:`console` is a rich
console that cleans every segment, :func:`excerpt` quotes a short piece of a value in an error
message. It imports rich only to make a console: `blood rules` uses it without rich.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (import time counts)
if TYPE_CHECKING:
    from typing import Any

# C0 controls except tab and newline, DEL, C1 controls, bidirectional embeddings, overrides
# and isolates. Lone surrogates (undecodable bytes) become U+FFFD. The tables are built on first
# use: `blood rules` imports this module and most of its text needs no cleaning.
_CONTROLS = (*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))
_BIDI = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
_SURROGATES = range(0xD800, 0xE000)
_SINGLE_LINE = {ord("\n"): " ", ord("\t"): " "}
_tables: dict[str, dict[int, Any]] = {}


def _table(kind: str) -> dict[int, Any]:
    if not _tables:
        clean_table: dict[int, Any] = dict.fromkeys((*_CONTROLS, *_BIDI))
        clean_table.update(dict.fromkeys(_SURROGATES, "\ufffd"))
        _tables["clean"] = clean_table
        # In JSON, C0 is already escaped by the encoder; escape the rest the same way.
        _tables["json"] = {
            c: f"\\u{c:04x}" for c in (*range(0x7F, 0xA0), *_BIDI, *_SURROGATES)
        }
    return _tables[kind]


def clean(text: str, *, single_line: bool = False) -> str:
    """``text`` without control characters, bidi overrides or surrogates (see module doc).

    ``single_line`` also turns newlines and tabs into spaces (for one-line messages)."""
    out = text if text.isprintable() else text.translate(_table("clean"))
    return out.translate(_SINGLE_LINE) if single_line else out


def excerpt(value: Any, limit: int = 60) -> str:
    """A short, printable quotation of ``value`` for a message: its repr, cut to ``limit``."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3000:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value we cannot even show
        text = f"<{type(value).__name__}>"
    text = clean(text, single_line=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def json_text(doc: Any, *, indent: int | None = 2) -> str:
    """One JSON document as text, with every unsafe character escaped (still valid JSON)."""
    import json

    text = json.dumps(doc, ensure_ascii=False, indent=indent, default=str)
    return text if text.isascii() else text.translate(_table("json"))


def colour_choice() -> bool | None:
    """What the environment says about colour: False when ``NO_COLOR`` is set (and not
    empty: no-color.org), True when ``FORCE_COLOR`` is (and not empty, whatever its value:
    force-color.org), None when neither is (colour on a terminal only). ``NO_COLOR`` wins
    when both are set: the reader's "no colour" is kept over a script's "colour"."""
    import os

    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return None


def colour_wanted(stream: Any = None) -> bool:
    """Whether to write colour to ``stream`` (stdout by default): :func:`colour_choice`, else
    when the stream is a terminal that is not ``TERM=dumb``. The one rule every command's
    output follows (the rich consoles of :func:`console`, the plain-or-styled views of
    ``cli/render.py``, `blood rules`)."""
    choice = colour_choice()
    if choice is not None:
        return choice
    import os
    import sys

    if os.environ.get("TERM") == "dumb":
        return False
    return _isatty(stream or sys.stdout)


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


_console_class: Any = None


def console(**kwargs: Any) -> Any:
    """A ``rich.console.Console`` that cleans the text of every segment before writing it.

    Styles and rich's own control codes are kept; only the characters of the text are cleaned,
    so layout (measured in cells, where control characters take none) is unchanged. Colour
    follows :func:`colour_choice`: ``FORCE_COLOR`` styles a pipe too, ``NO_COLOR`` wins over it
    (rich alone would still write bold and dim codes into a pipe when both are set)."""
    choice = colour_choice()
    if choice is True:
        kwargs.setdefault("force_terminal", True)
    elif choice is False:
        kwargs.setdefault("no_color", True)
        import os

        if os.environ.get("FORCE_COLOR"):  # rich would take it as "a terminal": decide here
            import sys

            stream = kwargs.get("file") or (sys.stderr if kwargs.get("stderr") else sys.stdout)
            kwargs.setdefault("force_terminal", _isatty(stream))
    global _console_class
    if _console_class is None:
        from rich.console import Console
        from rich.segment import Segment

        class SafeConsole(Console):
            def render(self, renderable: Any, options: Any = None) -> Any:
                for segment in super().render(renderable, options):
                    if segment.control is None:
                        text = clean(segment.text)
                        if text != segment.text:
                            segment = Segment(text, segment.style)
                    yield segment

        _console_class = SafeConsole
    return _console_class(**kwargs)


class Styled:
    """Text in styled parts, as ``rich.text.Text.assemble(*parts)`` makes it: what the recorded
    steps print. A part is a string or a ``(string, style)`` pair; rich draws it anywhere as its
    own Text (``__rich__``)."""

    __slots__ = ("parts",)

    def __init__(self, *parts: str | tuple[str, str | None]) -> None:
        self.parts = parts

    @property
    def plain(self) -> str:
        return "".join(p if isinstance(p, str) else p[0] for p in self.parts)

    def __rich__(self) -> Any:
        from rich.text import Text

        text = Text()
        for part in self.parts:
            if isinstance(part, str):
                text.append(part)
            else:
                text.append(part[0], style=part[1])
        return text

    def __repr__(self) -> str:  # pragma: no cover - a debugging aid
        return f"Styled{self.parts!r}"


def styled(text: str, style: str | None = None) -> Styled:
    """One piece of text in one style (``rich.text.Text(text, style=style)``)."""
    return Styled((text, style))
