"""Every name the rules search shows opens with `blood rules keyword NAME` and
`blood rules phase NAME`: the ids on every Related line and in every result, every title and
every rulebook section an entry cites (issue 43: `keyword winning-and-losing` was refused
although the search listed it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blood_companion.cli.entry import main
from blood_companion.rules.index import RulesIndex, build_index
from blood_companion.rules.loader import load_entries


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BLOOD_DATA_DIR", raising=False)


@pytest.fixture(scope="module")
def index() -> RulesIndex:
    return RulesIndex(build_index(load_entries()))


def _related(index: RulesIndex) -> list[str]:
    return sorted({r for e in index.entries for r in e.related})


def test_every_related_id_opens_with_keyword_and_phase(
    index: RulesIndex, capsys: pytest.CaptureFixture[str]
) -> None:
    # Both words answer (exit 0) and at least one opens the entry itself; a word may prefer an
    # entry of its own kind ("phase nemesis" is the Nemesis Phase, "keyword nemesis" the
    # Nemesis; "keyword exhausted" the symbol, "phase exhausted" the Exhausted state).
    related = _related(index)
    assert "winning-and-losing" in related and len(related) > 100
    refused = []
    for ident in related:
        opened = []
        for word in ("keyword", "phase"):
            code = main(["rules", word, ident, "--json"])
            out, _ = capsys.readouterr()
            opened.append(json.loads(out)["results"][0]["id"] if code == 0 else None)
        if None in opened or ident not in opened:
            refused.append(f"{ident}: keyword -> {opened[0]}, phase -> {opened[1]}")
    assert not refused, refused


def test_every_search_result_opens(index: RulesIndex) -> None:
    # Whatever a search can answer with, its id opens that entry with one of the two words.
    keyword, phase = ("keyword", "symbol"), ("phase", "procedure")
    for e in index.entries:
        found = [index.find(e.id, keyword), index.find(e.id, phase)]
        assert None not in found and e in found, (e.id, found)


def test_titles_and_cited_sections_open(index: RulesIndex) -> None:
    for e in index.entries:
        assert index.find(e.title, ("phase", "procedure")) is not None, e.title
        for word, kinds in (("keyword", ("keyword", "symbol")), ("phase", ("phase", "procedure"))):
            found = index.find(e.section, kinds)
            assert found is not None, f"rules {word} {e.section!r} is refused"
            # A section a rule cites opens a rule, not the gap that also cites it.
            if any(o.section == e.section and o.kind != "gap" for o in index.entries):
                assert found.kind != "gap", f"rules {word} {e.section!r} opens {found.id}"
