"""Lines of styled text and how they reach the terminal (standard library only): the views
(``cli/view_text.py``, ``cli/status_view.py``) render to :data:`Line` lists, :func:`print_lines`
prints them.
"""

from __future__ import annotations

import os
import sys

from rich.text import Text

from blood_companion.display import clean, colour_wanted, console

Line = tuple[str, str]  # (text, style name: "" | "bold" | "dim" | "green" | "cyan" | ...)


def width() -> int:
    """The columns to render for: ``COLUMNS``, else the terminal's, within 40..100."""
    try:
        cols = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        cols = 0
    if cols <= 0:
        try:
            cols = os.get_terminal_size(sys.stdout.fileno()).columns
        except (OSError, ValueError, AttributeError):
            cols = 80
    return max(40, min(cols, 100))


def plain(lines: list[Line]) -> str:
    return "".join(text + "\n" for text, _ in lines)


def print_lines(lines: list[Line]) -> None:
    """Plain text in a pipe, for ``TERM=dumb`` or with ``NO_COLOR``; rich styles on a colour
    terminal or with ``FORCE_COLOR`` (:func:`blood_companion.display.colour_wanted`)."""
    if not colour_wanted():
        sys.stdout.write(clean(plain(lines)))
        sys.stdout.flush()
        return


    out = console(highlight=False, soft_wrap=True)
    for text, style in lines:
        out.print(Text(text, style=style or ""))


def _fold(text: str, size: int) -> list[str]:
    """Word-wrap one cell to ``size`` columns; a word longer than that is cut."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        while len(word) > size:
            if line:
                out.append(line)
                line = ""
            out.append(word[:size])
            word = word[size:]
        cand = f"{line} {word}" if line else word
        if len(cand) > size and line:
            out.append(line)
            line = word
        else:
            line = cand
    out.append(line)
    return out


def grid(
    headers: list[str],
    rows: list[list[str]],
    *,
    right: tuple[int, ...] = (),
    header_style: str = "dim",
    styles: list[str] | None = None,
    indent: str = "",
    width: int = 80,
) -> list[Line]:
    """A table without borders: columns two spaces apart, a header line (dim), one line per
    row (more when a cell is folded to fit ``width``); ``right`` names the columns aligned
    right, ``styles`` a style per row."""
    if not rows:
        return []
    cols = len(headers)
    sizes = [len(h) for h in headers]
    for row in rows:
        for i in range(cols):
            sizes[i] = max(sizes[i], len(row[i]) if i < len(row) else 0)
    room = width - len(indent) - 2 * (cols - 1)
    while sum(sizes) > room:  # fold the widest column until the table fits
        widest = max(range(cols), key=lambda i: sizes[i])
        if sizes[widest] <= 6:
            break
        sizes[widest] -= 1

    def fmt(cells: list[str], style: str) -> list[Line]:
        folded = [_fold(cells[i] if i < len(cells) else "", sizes[i]) for i in range(cols)]
        out: list[Line] = []
        for k in range(max(len(f) for f in folded)):
            parts = []
            for i in range(cols):
                cell = folded[i][k] if k < len(folded[i]) else ""
                parts.append(cell.rjust(sizes[i]) if i in right else cell.ljust(sizes[i]))
            out.append(((indent + "  ".join(parts)).rstrip(), style))
        return out

    lines = fmt(headers, header_style)
    for n, row in enumerate(rows):
        lines += fmt(row, styles[n] if styles else "")
    return lines
