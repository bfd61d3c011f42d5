"""blood_companion.display: text from users and files made safe to print (issue 14, item 14)."""

from __future__ import annotations

import io
import json

from rich.table import Table
from rich.text import Text

from blood_companion.display import clean, console, excerpt, json_text

HOSTILE = "a\x1b]0;pwned\x07b\x1b[2Jc\x9b31md\u202eevil\u2066e\udcfff\x00g\r"


def test_clean_removes_controls_bidi_and_surrogates() -> None:
    assert clean(HOSTILE) == "a]0;pwnedb[2Jc31mdevile\ufffdfg"
    assert clean("line one\n\tline two") == "line one\n\tline two"
    assert clean("one\ntwo\tthree", single_line=True) == "one two three"
    assert clean("Ioana · Zora — ümlaut 日本") == "Ioana · Zora — ümlaut 日本"


def test_excerpt_is_short_printable_and_never_fails() -> None:
    passwd = "root:x:0:0:root:/root:/bin/bash\n" * 200
    assert len(excerpt(passwd)) <= 60 and excerpt(passwd).endswith("…")
    assert excerpt(10**5000) == "a number of about 5000 digits"
    assert "\x1b" not in excerpt("\x1b[2J")
    assert excerpt("short") == "'short'"


def test_json_text_escapes_what_a_terminal_would_obey() -> None:
    text = json_text({"reason": HOSTILE})
    assert all(ch not in text for ch in "\x1b\x9b\u202e\u2066\x07")
    assert json.loads(text)["reason"] == HOSTILE  # still the same data for a script
    text.encode("utf-8")  # a lone surrogate would make printing fail


def test_the_console_cleans_text_and_keeps_its_own_styles() -> None:
    out = io.StringIO()
    con = console(file=out, force_terminal=True, color_system="standard", width=60)
    con.print(Text(HOSTILE, style="red"))
    table = Table("name")
    table.add_row(HOSTILE)
    con.print(table)
    con.print("[bold]markup[/bold] " + HOSTILE)
    printed = out.getvalue()
    assert "\x1b]" not in printed and "\x1b[2J" not in printed and "\x9b" not in printed
    assert "\u202e" not in printed and "\udcff" not in printed
    assert "\x1b[31m" in printed  # rich's own colour codes stay
    assert "pwned" in printed
