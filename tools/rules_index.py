"""Write docs/rules-index.md: each rulebook section the package cites, with where.

A rule is cited by its section name in double quotes in a comment or a docstring
(``# the "Cleanup Phase", step 4``). The section names are the headings of the alpha rulebook
(/work/shared/rulebook, found beside the repository), so the index lists only real sections;
a quoted phrase that is no heading is not a citation. Run from anywhere:

    python tools/rules_index.py            # rewrite docs/rules-index.md
    python tools/rules_index.py --check    # exit 1 when the committed index is out of date

tests/test_rules_index.py runs the same check, and checks that every chapter of the
rulebook's table of contents is cited or listed as not a rule.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "blood_companion"
INDEX = ROOT / "docs" / "rules-index.md"
RULEBOOK = Path("shared") / "rulebook" / "blood-rulebook-alpha.txt"
QUOTED = re.compile(r'"([A-Z][^"\n]{1,60}?)"')


def find_rulebook() -> Path | None:
    """The rulebook in a `shared/rulebook` folder beside the repository (or a folder above)."""
    for folder in ROOT.parents:
        if (folder / RULEBOOK).is_file():
            return folder / RULEBOOK
    return None


def headings(text: str) -> list[str]:
    """The rulebook's heading lines, in order: short lines that are not list items and do not
    end a sentence."""
    seen: dict[str, None] = {}
    lines = [line.strip() for line in text.splitlines()]
    for line in lines[_end_of_contents(lines):]:
        if (line and line[0].isupper() and not line.startswith("- ") and len(line.split()) <= 8
                and line[-1] not in ".:;,?!)" and not line.startswith("Source note")):
            seen.setdefault(line, None)
    return list(seen)


def _start_of_contents(lines: list[str]) -> int:
    return max(i for i, line in enumerate(lines[:10]) if line == "Table of Contents") + 1


def _end_of_contents(lines: list[str]) -> int:
    end = _start_of_contents(lines)
    while lines[end].startswith("- "):
        end += 1
    return end


def contents(text: str) -> list[str]:
    """The chapters listed under the rulebook's "Table of Contents", in order, once each."""
    lines = [line.strip() for line in text.splitlines()]
    chapters = lines[_start_of_contents(lines):_end_of_contents(lines)]
    return list(dict.fromkeys(line[2:] for line in chapters))


def chapters(text: str) -> dict[str, list[str]]:
    """Each chapter of the table of contents -> the headings printed under it, up to the next
    chapter."""
    lines = [line.strip() for line in text.splitlines()]
    toc, known = contents(text), set(headings(text))
    spans: dict[str, list[str]] = {chapter: [] for chapter in toc}
    current = None
    for line in lines[_end_of_contents(lines):]:
        if line in spans:
            current = line
        elif line in known and current is not None:
            spans[current].append(line)
    return spans


def _scopes(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of every function and class, outer first."""
    out: list[tuple[int, int, str]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                out.append((child.lineno, child.end_lineno or child.lineno, name))
                walk(child, f"{name}.")

    walk(tree, "")
    return out


def _where(scopes: list[tuple[int, int, str]], line: int) -> str:
    inner = [name for first, last, name in scopes if first <= line <= last]
    return inner[-1] if inner else ""


def _notes(source: str, tree: ast.Module) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring of a module."""
    notes = [(tok.start[0], tok.string) for tok in
             tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                notes.append((body[0].lineno, body[0].value.value))
    return notes


def citations(
    sections: list[str], package: Path = PACKAGE
) -> dict[str, dict[str, list[str]]]:
    """Section name -> module path -> the functions and classes citing it ("" for the module)."""
    known = {s.casefold(): s for s in sections}
    found: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(package.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        scopes = _scopes(tree)
        module = path.relative_to(package.parent).as_posix()
        for line, text in _notes(source, tree):
            for quoted in QUOTED.findall(" ".join(text.split())):
                section = known.get(quoted.casefold())
                if section is None:
                    continue
                where = _where(scopes, line)
                if where not in found[section][module]:
                    found[section][module].append(where)
    return found


def render(text: str) -> str:
    sections = headings(text)
    found = citations(sections)
    out = [
        "# Rules index: where each rulebook section is implemented",
        "",
        "Generated by `python tools/rules_index.py` from the section names cited in double quotes",
        "in the package's comments and docstrings; do not edit by hand.",
        "`tests/test_rules_index.py` fails when it is out of date. Sections in rulebook order;",
        "each line is a module and the functions or classes that cite the section",
        "(*module* when the citation is at module level).",
        "",
    ]
    for section in sections:
        if section not in found:
            continue
        out += [f"## {section}", ""]
        for module, names in sorted(found[section].items()):
            shown = ", ".join(f"`{n}`" if n else "*module*" for n in sorted(names))
            out.append(f"- `{module}`: {shown}")
        out.append("")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    book = find_rulebook()
    if book is None:
        print(f"no {RULEBOOK} beside the repository", file=sys.stderr)
        return 2
    new = render(book.read_text(encoding="utf-8"))
    if "--check" in argv:
        old = INDEX.read_text(encoding="utf-8") if INDEX.exists() else ""
        if old != new:
            print(f"{INDEX.relative_to(ROOT)} is out of date: run python tools/rules_index.py",
                  file=sys.stderr)
            return 1
        return 0
    INDEX.write_text(new, encoding="utf-8")
    print(f"wrote {INDEX.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
