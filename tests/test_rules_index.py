"""docs/rules-index.md finds every rule from its rulebook section name: it is generated from
the section names the package cites (tools/rules_index.py) and must match the code, and every
chapter of the rulebook's table of contents is cited (itself or one of its sections) unless it
is listed below as not a rule. Needs the rulebook beside the repository (../shared/rulebook)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Chapters of the table of contents that describe no rule the app carries out.
NOT_A_RULE = {
    "Basics": "an introduction: its rules are the chapters that follow it",
    "Game Flow": "an overview: the rules are the chapters Day Part, Dusk Phase and Night Part",
}


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rules_index", ROOT / "tools" / "rules_index.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    return _tool()


@pytest.fixture(scope="module")
def rulebook(tool: ModuleType) -> str:
    book = tool.find_rulebook()
    if book is None:
        pytest.skip("the rulebook is not beside the repository (../shared/rulebook)")
    text: str = book.read_text(encoding="utf-8")
    return text


def test_the_committed_index_matches_the_code(tool: ModuleType, rulebook: str) -> None:
    committed = (ROOT / "docs" / "rules-index.md").read_text(encoding="utf-8")
    assert tool.render(rulebook) == committed, "run: python tools/rules_index.py"


def test_a_citation_in_a_comment_or_docstring_names_its_function(
    tool: ModuleType, tmp_path: Path
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text(
        '"""Module text citing the "Dusk Phase"."""\n\n\n'
        "class Night:\n"
        "    def end(self) -> None:\n"
        '        # the "Cleanup phase", step 4 (case aside)\n'
        "        pass\n\n\n"
        "def tip() -> str:\n"
        '    """ "Rest": a quoted phrase in a docstring."""\n'
        '    return "Threat"  # a string in the code is no citation: "Not A Section"\n',
        encoding="utf-8",
    )
    found = tool.citations(["Dusk Phase", "Cleanup Phase", "Rest", "Threat"], package)
    assert {k: dict(v) for k, v in found.items()} == {
        "Dusk Phase": {"pkg/mod.py": [""]},
        "Cleanup Phase": {"pkg/mod.py": ["Night.end"]},
        "Rest": {"pkg/mod.py": ["tip"]},
    }


def test_headings_start_after_the_contents(tool: ModuleType, rulebook: str) -> None:
    names = tool.headings(rulebook)
    assert "Table of Contents" not in names and "Blood Rulebook" not in names
    assert names.index("Player Setup") < names.index("Cleanup Phase")
    assert "## Cleanup Phase\n" in tool.render(rulebook)


def test_every_chapter_of_the_contents_is_cited_or_listed(tool: ModuleType, rulebook: str) -> None:
    found = tool.citations(tool.headings(rulebook))
    spans = tool.chapters(rulebook)
    assert len(spans) >= 20 and "Night Part" in spans
    uncited = [chapter for chapter, sections in spans.items()
               if not any(name in found for name in [chapter, *sections])]
    assert sorted(uncited) == sorted(NOT_A_RULE), (
        "cite these rulebook chapters (or a section of them) in the code that implements "
        f"them, or list them in NOT_A_RULE: {sorted(set(uncited) - set(NOT_A_RULE))}; "
        f"listed but cited now: {sorted(set(NOT_A_RULE) - set(uncited))}"
    )
