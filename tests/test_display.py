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


# --------------------------------------------------------------------------- LazyConsole
# The consoles of every command (cli/common.py) write plain text to a pipe themselves, without
# loading rich (issue 29): what they write must be what rich writes, character for character.

import contextlib  # noqa: E402

import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from blood_companion.display import LazyConsole, Styled, styled  # noqa: E402

_STDOUT = {"highlight": False, "soft_wrap": False, "emoji": False}
_STDERR = {"stderr": True, "highlight": False, "soft_wrap": True, "emoji": False}
_WORDS = st.text(alphabet="abcXYZ019.,:;()'-•→—…×  \n[]/ü", max_size=120)


def _both(kwargs: dict[str, object], obj: object, options: dict[str, object]) -> tuple[str, str]:
    """What a LazyConsole and the rich console it stands for write for ``obj`` (or the error
    they raise)."""
    written = []
    for make in (lambda: LazyConsole(**kwargs), lambda: console(**kwargs)):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                make().print(obj, **options)
            except Exception as exc:  # noqa: BLE001 - rich's refusal of bad markup, both ways
                err.write(type(exc).__name__)
        written.append(out.getvalue() + "|" + err.getvalue())
    return written[0], written[1]


@settings(max_examples=300, deadline=None)
@given(text=_WORDS, width=st.integers(1, 70), as_text=st.booleans(), markup=st.booleans(),
       to_stderr=st.booleans())
def test_a_lazy_console_writes_to_a_pipe_what_rich_writes(
    text: str, width: int, as_text: bool, markup: bool, to_stderr: bool
) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COLUMNS", str(width))
        mp.delenv("FORCE_COLOR", raising=False)
        mp.delenv("TTY_COMPATIBLE", raising=False)
        obj = Styled(("Note: ", "yellow"), text) if as_text else text
        lazy, real = _both(_STDERR if to_stderr else _STDOUT, obj, {"markup": markup})
    assert lazy == real


def test_a_lazy_console_loads_no_rich_for_plain_text_to_a_pipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "20")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    lazy = LazyConsole(**_STDOUT)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        lazy.print(styled("At the table: a long line • folded", style="bold"))
        lazy.print("Wagon Coins: add 1 (0 → 1)", highlight=False)
    assert lazy._lazy_real is None  # written without a rich console
    assert out.getvalue() == "At the table: a long\nline • folded\nWagon Coins: add 1 \n(0 → 1)\n"
    with contextlib.redirect_stdout(io.StringIO()) as marked:
        lazy.print("[bold]markup[/bold] is rich's")
    assert marked.getvalue() == "markup is rich's\n" and lazy._lazy_real is not None
    with contextlib.redirect_stdout(io.StringIO()) as after:
        lazy.print("now rich writes", highlight=False)  # one writer once rich is there
    assert after.getvalue() == "now rich writes\n"


def test_a_lazy_console_leaves_a_terminal_and_forced_colour_to_rich(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    lazy = LazyConsole(**_STDOUT)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        lazy.print(styled("bold words", style="bold"))
    assert out.getvalue() == "\x1b[1mbold words\x1b[0m\n" and lazy._lazy_real is not None

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("FORCE_COLOR")
    lazy = LazyConsole(**_STDOUT)
    with contextlib.redirect_stdout(Tty()):
        lazy.print("plain words")
    assert lazy._lazy_real is not None  # a terminal: rich decides styles and width


def test_the_one_cell_characters_are_one_cell_for_rich() -> None:
    from rich import cells

    from blood_companion import display

    assert tuple(cells._SINGLE_CELL_UNICODE_RANGES) == display._ONE_CELL_RANGES
    for ch in display._ONE_CELL_MORE:
        assert cells.cell_len(ch) == 1 and cells.cell_len(ch * 7) == 7, ch


def test_a_lazy_console_passes_the_rest_to_rich() -> None:
    lazy = LazyConsole(**_STDOUT)
    assert lazy.size.width > 0 and lazy._lazy_real is not None  # any attribute: rich's
    lazy._width = 33  # set on the rich console (a test's fixed width)
    assert lazy._lazy_real._width == 33 and lazy.width == 33
    with contextlib.redirect_stdout(io.StringIO()) as out:
        lazy.print(styled("x " * 20))
    assert out.getvalue() == "x " * 16 + "x\n" + "x " * 3 + "\n"


def test_a_lazy_console_knows_rich_s_width_and_empty_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for columns in ("37", None):
        if columns is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", columns)
        lazy = LazyConsole(**_STDOUT)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            width = lazy.width
            lazy.print()
        assert lazy._lazy_real is None and out.getvalue() == "\n"
        with contextlib.redirect_stdout(io.StringIO()):
            assert width == console(**_STDOUT).width
