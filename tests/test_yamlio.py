"""blood_companion.yamlio: user YAML parsed within bounds (issue 14, items 5, 7 and 10)."""

from __future__ import annotations

import time

import pytest
import yaml

from blood_companion.yamlio import MAX_ALIAS_EXTRA, SafeLoader, YamlProblem, nodes, safe_load


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """The billion laughs: each level a list of `width` aliases of the one before."""
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "- id: bomb\n  name: Bomb\n  extra:\n" + "".join(f"    {ln}\n" for ln in lines)


def test_an_alias_bomb_is_refused_at_once() -> None:
    started = time.perf_counter()
    with pytest.raises(YamlProblem, match="aliases"):
        safe_load(alias_bomb())
    assert time.perf_counter() - started < 1.0


def test_the_walk_visits_each_node_once() -> None:
    loader = SafeLoader(alias_bomb())
    root = loader.get_single_node()
    loader.dispose()
    assert sum(1 for _ in nodes(root)) < 200  # the expansion has about 4.4 billion values


def test_modest_aliases_are_fine() -> None:
    text = "- &e {keyword: run}\n" + "".join("- *e\n" for _ in range(50))
    _, data = safe_load(text)
    assert len(data) == 51 and data[-1] == {"keyword": "run"}
    assert MAX_ALIAS_EXTRA >= 10_000


def test_an_alias_that_contains_itself() -> None:
    with pytest.raises(YamlProblem, match="contains it"):
        safe_load("- &a [1, *a]\n")


def test_numbers_too_long_for_a_count() -> None:
    for text in (f"- count: {'9' * 5000}\n", "- count: " + ":".join(["59"] * 3000) + "\n"):
        with pytest.raises(YamlProblem, match="no count needs") as info:
            safe_load(text)
        assert info.value.line == 1


def test_values_that_cannot_be_built_and_deep_nesting() -> None:
    with pytest.raises(YamlProblem, match="cannot be read"):
        safe_load("- when: 2024-02-30\n")
    with pytest.raises(YamlProblem, match="invalid YAML|nested too deeply"):
        safe_load("- " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(YamlProblem, match="tag not allowed"):
        safe_load("- !!python/object/apply:os.system ['true']\n")


def test_pure_python_loader_deep_nesting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("blood_companion.yamlio.SafeLoader", yaml.SafeLoader)
    with pytest.raises(YamlProblem, match="nested too deeply"):
        safe_load("- " + "[" * 100_000 + "]" * 100_000 + "\n")
