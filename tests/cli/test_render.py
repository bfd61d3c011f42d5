"""The terminal renderer (cli/render.py): its tables are rich Tables that keep the columns the
players know (the widest column folded first, no trailing spaces, never squeezed by a narrow
terminal)."""

from __future__ import annotations

from blood_companion.cli.render import grid, plain


def test_a_table_folds_its_widest_column_and_ends_each_line_at_its_text() -> None:
    rows = [["1", "Aurel", "Padded Doublet, Safety Harness, Balancing Pole"], ["12", "Zora", "-"]]
    text = plain(grid(["#", "who", "items"], rows, right=(0,), width=30), 30)
    assert text == (" #  who    items\n"
                    " 1  Aurel  Padded Doublet,\n"
                    "           Safety Harness,\n"
                    "           Balancing Pole\n"
                    "12  Zora   -\n")


def test_a_table_wider_than_the_terminal_is_not_squeezed() -> None:
    rows = [["a" * 30, "b" * 30]]
    text = plain(grid(["x", "y"], rows, width=80), 40)
    assert text.splitlines()[1] == "a" * 30 + "  " + "b" * 30


def test_no_rows_no_table() -> None:
    assert grid(["x"], []) == []
