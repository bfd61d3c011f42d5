"""docs/rules-reference.md lists every keyword and symbol of the rules reference with the test
that covers it: every row's test exists, and no keyword or symbol is missing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules-reference.md"


def _rows() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("## Coverage"):]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and "::" in cells[2]:
            rows.append((cells[0], cells[2]))
    return rows


def test_every_covering_test_exists() -> None:
    rows = _rows()
    assert len(rows) >= 30
    for name, ref in rows:
        path, test = ref.split("::")
        source = (ROOT / path).read_text(encoding="utf-8")
        assert re.search(rf"^def {re.escape(test)}\(", source, re.M), f"{name}: {ref} is gone"


def test_every_keyword_and_symbol_has_a_row() -> None:
    from blood_companion.rules.loader import load_entries

    covered = {name for name, _ in _rows()}
    missing = [e.title for e in load_entries() if e.kind in ("keyword", "symbol")
               and e.title not in covered]
    assert not missing, f"add a row to docs/rules-reference.md for: {missing}"
