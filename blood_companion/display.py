"""Text that came from a user or a file, made safe to print: one helper for every renderer.

A name in an import or a card text may hold terminal control sequences, bidirectional
overrides or lone surrogates: :func:`clean` removes them (newlines and tabs stay),
:func:`json_text` escapes them, :func:`console` cleans every segment. Rich is imported only to
make a console: `blood rules` uses this module without it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (import time counts)
if TYPE_CHECKING:
    from typing import Any

# C0 controls but tab and newline, DEL, C1, bidi embeddings, overrides and isolates; lone
# surrogates become U+FFFD. In JSON (whose encoder escapes C0) the rest are escaped the same way.
_BIDI = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
_SURROGATES = range(0xD800, 0xE000)
_CLEAN: dict[int, Any] = {
    **dict.fromkeys((*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0), *_BIDI)),
    **dict.fromkeys(_SURROGATES, "\ufffd"),
}
_JSON = {c: f"\\u{c:04x}" for c in (*range(0x7F, 0xA0), *_BIDI, *_SURROGATES)}
_SINGLE_LINE = {ord("\n"): " ", ord("\t"): " "}


def clean(text: str, *, single_line: bool = False) -> str:
    """``text`` cleaned (module doc); ``single_line`` also turns newlines and tabs to spaces."""
    out = text if text.isprintable() else text.translate(_CLEAN)
    return out.translate(_SINGLE_LINE) if single_line else out


def excerpt(value: Any, limit: int = 60) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3000:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value we cannot even show
        text = f"<{type(value).__name__}>"
    text = clean(text, single_line=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def json_text(doc: Any, *, indent: int | None = 2) -> str:
    import json

    text = json.dumps(doc, ensure_ascii=False, indent=indent, default=str)
    return text if text.isascii() else text.translate(_JSON)


def colour_choice() -> bool | None:
    """False when ``NO_COLOR`` is set (no-color.org; it wins: the reader's choice), True when
    ``FORCE_COLOR`` is (force-color.org), None when neither is (colour on a terminal only)."""
    import os

    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return None


def colour_wanted(stream: Any = None) -> bool:
    """Whether to write colour to ``stream`` (stdout): :func:`colour_choice`, else a terminal
    that is not ``TERM=dumb``; the one rule every command's output follows."""
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
    """A rich Console cleaning every segment's text (layout unchanged: control characters
    take no cells). Colour follows :func:`colour_choice` (rich alone would still write bold
    and dim codes into a pipe when both variables are set)."""
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
    """Text in parts (a string or a ``(string, style)`` pair), drawn as rich Text."""

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


def styled(text: str, style: str | None = None) -> Styled:
    return Styled((text, style))
