"""The board's address as a QR code for the terminal (`blood board --serve --lan` prints it):
segno encodes (level M), capped at version 10 (57 modules; a URL with its token needs 4) so it
fits an 80-column terminal, drawn in half blocks."""

from __future__ import annotations

import segno

MAX_VERSION = 10

Matrix = list[list[bool]]


def encode(text: str) -> Matrix:
    """The modules of the QR code of ``text`` (True: dark). Raises ValueError when the text is
    longer than version 10 holds."""
    code = segno.make(text, error="m", boost_error=False, micro=False)
    if not isinstance(code.version, int) or code.version > MAX_VERSION:
        raise ValueError(f"{len(text.encode())} bytes do not fit a version {MAX_VERSION} QR code")
    return [[bool(v) for v in row] for row in code.matrix_iter(scale=1, border=0)]


def lines(text: str, quiet: int = 2) -> list[str]:
    """The QR code of ``text`` as terminal lines, two modules per character (half blocks),
    light modules drawn: read as dark-on-light on a terminal with light text on a dark
    background (the usual), which phone cameras scan. ``quiet``: the margin in modules."""
    m = encode(text)
    size = len(m) + 2 * quiet
    light = [[True] * size for _ in range(size)]
    for y, row in enumerate(m):
        for x, dark in enumerate(row):
            light[y + quiet][x + quiet] = not dark
    if size % 2:
        light.append([True] * size)
    glyph = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
    return ["".join(glyph[(light[y][x], light[y + 1][x])] for x in range(size))
            for y in range(0, len(light), 2)]
