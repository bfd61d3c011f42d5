"""A small QR code encoder for the terminal (`blood board --serve --lan` prints its URL as one).

Standard library only; byte mode, error correction level M, versions 1-10 (up to 213 bytes:
a URL with its token needs about 60). It follows ISO/IEC 18004 as laid out by Project Nayuki's
reference encoder ("QR Code generator library", MIT): the data codewords, Reed-Solomon error
correction per block and their interleaving, the function patterns (finders, timing,
alignment, format and version bits) and the zigzag placement; of the eight masks the one with
the lowest penalty is kept (runs, 2×2 blocks, finder-like patterns, balance).
"""

from __future__ import annotations

# level M, index = version (1-10)
_ECC_PER_BLOCK = (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26)
_BLOCKS = (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5)
_FORMAT_M = 0  # the format bits of level M
MAX_VERSION = 10

Matrix = list[list[bool]]


def _raw_modules(ver: int) -> int:
    result = (16 * ver + 128) * ver + 64
    if ver >= 2:
        n = ver // 7 + 2
        result -= (25 * n - 10) * n - 55
        if ver >= 7:
            result -= 36
    return result


def _data_codewords(ver: int) -> int:
    return _raw_modules(ver) // 8 - _ECC_PER_BLOCK[ver] * _BLOCKS[ver]


def _gf_mul(x: int, y: int) -> int:
    z = 0
    for i in reversed(range(8)):
        z = (z << 1) ^ ((z >> 7) * 0x11D)
        z ^= ((y >> i) & 1) * x
    return z


def _rs_divisor(degree: int) -> list[int]:
    result = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for j in range(degree):
            result[j] = _gf_mul(result[j], root)
            if j + 1 < degree:
                result[j] ^= result[j + 1]
        root = _gf_mul(root, 0x02)
    return result


def _rs_remainder(data: list[int], divisor: list[int]) -> list[int]:
    result = [0] * len(divisor)
    for b in data:
        factor = b ^ result.pop(0)
        result.append(0)
        for i, coef in enumerate(divisor):
            result[i] ^= _gf_mul(coef, factor)
    return result


def _codewords(data: bytes, ver: int) -> list[int]:
    """The data bits (byte mode), padded, then split in blocks with their error correction and
    interleaved."""
    bits: list[int] = []

    def put(value: int, n: int) -> None:
        bits.extend((value >> i) & 1 for i in reversed(range(n)))

    put(0b0100, 4)
    put(len(data), 8 if ver < 10 else 16)
    for b in data:
        put(b, 8)
    capacity = _data_codewords(ver) * 8
    put(0, min(4, capacity - len(bits)))
    put(0, -len(bits) % 8)
    pad = 0xEC
    while len(bits) < capacity:
        put(pad, 8)
        pad ^= 0xEC ^ 0x11
    words = [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8)]
    blocks_n, ecc_len = _BLOCKS[ver], _ECC_PER_BLOCK[ver]
    raw = _raw_modules(ver) // 8
    short_n = blocks_n - raw % blocks_n
    short_len = raw // blocks_n
    divisor = _rs_divisor(ecc_len)
    blocks: list[list[int]] = []
    k = 0
    for i in range(blocks_n):
        n = short_len - ecc_len + (0 if i < short_n else 1)
        dat = words[k:k + n]
        k += n
        ecc = _rs_remainder(dat, divisor)
        if i < short_n:
            dat.append(0)
        blocks.append(dat + ecc)
    out = []
    for i in range(len(blocks[0])):
        for j, blk in enumerate(blocks):
            if i != short_len - ecc_len or j >= short_n:
                out.append(blk[i])
    return out


def _alignment_positions(ver: int, size: int) -> list[int]:
    if ver == 1:
        return []
    n = ver // 7 + 2
    step = (ver * 8 + n * 3 + 5) // (n * 4 - 4) * 2
    return sorted([size - 7 - i * step for i in range(n - 1)] + [6])


class _Grid:
    def __init__(self, ver: int) -> None:
        self.ver = ver
        self.size = ver * 4 + 17
        self.dark: Matrix = [[False] * self.size for _ in range(self.size)]
        self.fixed: Matrix = [[False] * self.size for _ in range(self.size)]

    def set(self, x: int, y: int, dark: bool) -> None:
        self.dark[y][x] = dark
        self.fixed[y][x] = True

    def patterns(self) -> None:
        size = self.size
        for i in range(size):
            self.set(6, i, i % 2 == 0)
            self.set(i, 6, i % 2 == 0)
        for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):
            for dy in range(-4, 5):
                for dx in range(-4, 5):
                    x, y = cx + dx, cy + dy
                    if 0 <= x < size and 0 <= y < size:
                        self.set(x, y, max(abs(dx), abs(dy)) not in (2, 4))
        pos = _alignment_positions(self.ver, size)
        last = len(pos) - 1
        for i, ax in enumerate(pos):
            for j, ay in enumerate(pos):
                if (i, j) in ((0, 0), (0, last), (last, 0)):
                    continue
                for dy in range(-2, 3):
                    for dx in range(-2, 3):
                        self.set(ax + dx, ay + dy, max(abs(dx), abs(dy)) != 1)
        self.format_bits(0)
        if self.ver >= 7:
            rem = self.ver
            for _ in range(12):
                rem = (rem << 1) ^ ((rem >> 11) * 0x1F25)
            bits = self.ver << 12 | rem
            for i in range(18):
                bit = (bits >> i) & 1 == 1
                a, b = size - 11 + i % 3, i // 3
                self.set(a, b, bit)
                self.set(b, a, bit)

    def format_bits(self, mask: int) -> None:
        data = _FORMAT_M << 3 | mask
        rem = data
        for _ in range(10):
            rem = (rem << 1) ^ ((rem >> 9) * 0x537)
        bits = (data << 10 | rem) ^ 0x5412

        def bit(i: int) -> bool:
            return (bits >> i) & 1 == 1

        size = self.size
        for i in range(6):
            self.set(8, i, bit(i))
        self.set(8, 7, bit(6))
        self.set(8, 8, bit(7))
        self.set(7, 8, bit(8))
        for i in range(9, 15):
            self.set(14 - i, 8, bit(i))
        for i in range(8):
            self.set(size - 1 - i, 8, bit(i))
        for i in range(8, 15):
            self.set(8, size - 15 + i, bit(i))
        self.set(8, size - 8, True)

    def place(self, words: list[int]) -> None:
        size, i, total = self.size, 0, len(words) * 8
        right = size - 1
        while right >= 1:
            if right == 6:
                right = 5
            for vert in range(size):
                for j in range(2):
                    x = right - j
                    upward = (right + 1) & 2 == 0
                    y = size - 1 - vert if upward else vert
                    if not self.fixed[y][x] and i < total:
                        self.dark[y][x] = (words[i >> 3] >> (7 - (i & 7))) & 1 == 1
                        i += 1
            right -= 2

    def masked(self, mask: int) -> Matrix:
        test = _MASKS[mask]
        return [[d != (not self.fixed[y][x] and test(x, y)) for x, d in enumerate(row)]
                for y, row in enumerate(self.dark)]


_MASKS = (
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
)

_FINDER_LIKE = ((True, False, True, True, True, False, True, False, False, False, False),
                (False, False, False, False, True, False, True, True, True, False, True))


def _penalty(m: Matrix) -> int:
    size = len(m)
    score = 0
    lines = [*m, *([m[y][x] for y in range(size)] for x in range(size))]
    for line in lines:
        run, prev = 0, None
        for v in line:
            if v == prev:
                run += 1
            else:
                if run >= 5:
                    score += run - 2
                run, prev = 1, v
        if run >= 5:
            score += run - 2
        for k in range(size - 10):
            if tuple(line[k:k + 11]) in _FINDER_LIKE:
                score += 40
    for y in range(size - 1):
        for x in range(size - 1):
            if m[y][x] == m[y][x + 1] == m[y + 1][x] == m[y + 1][x + 1]:
                score += 3
    dark = sum(map(sum, m))
    total = size * size
    score += ((abs(dark * 20 - total * 10) + total - 1) // total - 1) * 10
    return score


def encode(text: str, mask: int | None = None) -> Matrix:
    """The modules of the QR code of ``text`` (True: dark), smallest version that holds it.
    ``mask``: force one of the eight masks (tests); else the one of lowest penalty. Raises
    ValueError when the text is longer than version 10 holds."""
    data = text.encode("utf-8")
    for ver in range(1, MAX_VERSION + 1):
        header = 4 + (8 if ver < 10 else 16)
        if header + 8 * len(data) <= _data_codewords(ver) * 8:
            break
    else:
        raise ValueError(f"{len(data)} bytes do not fit a version {MAX_VERSION} QR code")
    grid = _Grid(ver)
    grid.patterns()
    grid.place(_codewords(data, ver))
    best: tuple[int, Matrix] | None = None
    for k in range(8) if mask is None else (mask,):
        grid.format_bits(k)
        m = grid.masked(k)
        score = _penalty(m) if mask is None else 0
        if best is None or score < best[0]:
            best = (score, m)
    assert best is not None
    return best[1]


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
