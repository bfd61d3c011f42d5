"""Text that came from a user or a file, made safe to print: one helper for every renderer.

A name in an import, a card text in an overlay or a line of a damaged cache may hold terminal
control sequences, bidirectional overrides or lone surrogates. :func:`clean` removes them
(newlines and tabs stay), :func:`json_text` escapes them in JSON, :func:`console` is a rich
console that cleans every segment, :func:`excerpt` quotes a short piece of a value in an error
message. Nothing is imported at import time (the fast paths use it).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (import time counts)
if TYPE_CHECKING:
    from typing import Any

# C0 controls except tab and newline, DEL, C1 controls, bidirectional embeddings, overrides
# and isolates. Lone surrogates (undecodable bytes) become U+FFFD. The tables are built on first
# use: the fast paths import this module and most of their text needs no cleaning.
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
    ``cli/textview.py``, `blood rules`)."""
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
    """Text in styled parts, as ``rich.text.Text.assemble(*parts)`` makes it, without importing
    rich: what the recorded steps print (their fast path never loads rich on a pipe, issue 29).
    A part is a string or a ``(string, style)`` pair; rich draws it anywhere as its own Text
    (``__rich__``)."""

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


# The characters rich measures as one cell wide: its own table of single-cell ranges
# (rich/cells.py) and the few others blood prints (bullets, arrows, dashes, quotes), each one
# cell in rich's tables (tests/test_display.py checks both against rich).
_ONE_CELL_RANGES = ((0x20, 0x7E), (0xA0, 0xAC), (0xAE, 0x2FF), (0x370, 0x482),
                    (0x2500, 0x25FC), (0x2800, 0x28FF))
_ONE_CELL_MORE = "•→←↑↓—–…‘’“”×·✓✗″′"
_one_cell: frozenset[str] | None = None


def _one_cell_text(text: str) -> bool:
    global _one_cell
    if text.isascii():
        return text.isprintable()
    if _one_cell is None:
        _one_cell = frozenset(
            [chr(c) for lo, hi in _ONE_CELL_RANGES for c in range(lo, hi + 1)]
        ) | frozenset(_ONE_CELL_MORE)
    return _one_cell.issuperset(text)


def _words(text: str) -> list[tuple[int, str]]:
    """rich's words of a line (rich/_wrap.py): each with the whitespace around it."""
    import re

    return [(m.start(), m.group(0)) for m in re.finditer(r"\s*\S+\s*", text)]


def _wrap(line: str, width: int) -> list[str]:
    """One line of one-cell characters wrapped as rich wraps it (``Text.wrap`` with the default
    justify and fold: rich/_wrap.py ``divide_line``, then ``rstrip_end`` and the crop)."""
    breaks: list[int] = []
    offset = 0
    for start, word in _words(line):
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:  # folded over as many lines as it takes
            pieces = [word[i:i + width] for i in range(0, len(word), width)]
            for n, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if n == len(pieces) - 1:
                    offset = len(piece)
                else:
                    start += len(piece)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    edges = [0, *breaks, len(line)]
    lines = []
    for a, b in zip(edges, edges[1:], strict=False):
        piece = line[a:b]
        if len(piece) > width:  # rstrip_end: whitespace beyond the width goes
            excess = len(piece) - width
            spaces = len(piece) - len(piece.rstrip())
            piece = piece[: len(piece) - min(spaces, excess)]
        lines.append(piece[:width])
    return lines


class LazyConsole:
    """A :func:`console` made on first use, that writes plain text itself where rich would
    write the same characters: one string without markup or one :class:`Styled`, to a stream
    that is not a terminal (no styles are written there), every character one cell wide.
    Anything else (tables, markup, a terminal, an option) goes to the rich console, and once
    that exists everything does. A recorded step printed to a pipe loads no rich (issue 29);
    tests/test_display.py compares both ways over generated text."""

    __slots__ = ("_lazy_kwargs", "_lazy_real", "_lazy_columns")
    _lazy_kwargs: dict[str, Any]
    _lazy_real: Any  # the rich console, once made
    _lazy_columns: int | None  # COLUMNS when the console was made, as rich reads it

    def __init__(self, **kwargs: Any) -> None:
        import os

        object.__setattr__(self, "_lazy_kwargs", kwargs)
        object.__setattr__(self, "_lazy_real", None)
        columns = os.environ.get("COLUMNS")  # rich reads it when the console is made
        object.__setattr__(self, "_lazy_columns",
                           int(columns) if columns is not None and columns.isdigit() else None)

    def _rich(self) -> Any:
        real = self._lazy_real
        if real is None:
            real = console(**self._lazy_kwargs)
            object.__setattr__(self, "_lazy_real", real)
        return real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rich(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._rich(), name, value)

    def print(self, *objects: Any, **options: Any) -> None:
        if self._lazy_real is None and len(objects) <= 1 and self._plain(
                objects[0] if objects else "", options):  # print(): an empty line
            return
        self._rich().print(*objects, **options)

    @property
    def width(self) -> int:
        """The console's width: rich's own once it is made, or where rich would see a
        terminal or is given a width."""
        if self._lazy_real is not None or "width" in self._lazy_kwargs or self._pipe() is None:
            return int(self._rich().width)
        return self._width()

    def _pipe(self) -> Any:
        """The stream this console writes to when rich would take it for no terminal (and so
        write no styles), else None: what rich's ``Console.is_terminal`` reads before the
        stream itself (``FORCE_COLOR``, ``TTY_COMPATIBLE``, Jupyter, IDLE), then the stream."""
        import builtins
        import os
        import sys

        env = os.environ
        if "FORCE_COLOR" in env or "TTY_COMPATIBLE" in env or hasattr(builtins, "get_ipython") \
                or str(getattr(sys.stdin, "__module__", "")).startswith("idlelib"):
            return None
        stream = sys.stderr if self._lazy_kwargs.get("stderr") else sys.stdout
        return None if stream is None or _isatty(stream) else stream

    def _plain(self, obj: Any, options: dict[str, Any]) -> bool:
        """Write ``obj`` as rich would on this stream and say True, or say False (rich's turn)."""
        kwargs = self._lazy_kwargs
        if not options.keys() <= {"highlight", "markup"} or options.get("highlight"):
            return False
        if kwargs.keys() - {"stderr", "highlight", "soft_wrap", "emoji"} or kwargs.get(
                "highlight"):
            return False
        if isinstance(obj, Styled):
            text = obj.plain
        elif isinstance(obj, str):
            text = obj
            if "[" in text and options.get("markup", True):
                return False
        else:
            return False
        stream = self._pipe()
        if stream is None or not _one_cell_text(text.replace("\n", "")):
            return False
        encoding = getattr(stream, "encoding", None)  # rich's own error where it cannot encode
        if encoding and not text.isascii() and encoding.lower().replace("-", "") != "utf8":
            return False
        if kwargs.get("soft_wrap"):
            out = text + "\n"
        else:
            width = self._width()
            if width < 1:
                return False
            out = "".join(piece + "\n" for line in text.split("\n")
                          for piece in _wrap(line, width))
        stream.write(out)
        stream.flush()
        return True

    def _width(self) -> int:
        """The width rich gives a console that is not a terminal (``Console.size``)."""
        if self._lazy_columns is not None:
            return self._lazy_columns
        import os

        width = None
        for fd in (0, 1, 2):
            try:
                width = os.get_terminal_size(fd)[0]
            except (AttributeError, ValueError, OSError):
                continue
            break
        columns = os.environ.get("COLUMNS")
        if columns is not None and columns.isdigit():
            width = int(columns)
        return width or 80
