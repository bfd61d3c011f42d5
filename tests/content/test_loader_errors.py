"""Every malformed data file gets one clear message per problem: file, line, field, message."""

from __future__ import annotations

from pathlib import Path

import pytest

from blood_companion.content.errors import ContentError, Problem
from blood_companion.content.loader import shipped_data_dir, validate_layers


def problems_for(tmp_path: Path, files: dict[str, str | bytes]) -> list[Problem]:
    """Validate `files` as an overlay over the shipped pack; return the problems."""
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    with pytest.raises(ContentError) as info:
        validate_layers([shipped_data_dir(), tmp_path])
    return info.value.problems


MINION = """\
- id: test-minion
  name: Test Minion
  source: placeholder
  type: beast
  defenses: {physical: 2, mind: 1}
  effects: []
"""


def test_bad_yaml_syntax_names_file_and_line(tmp_path: Path) -> None:
    text = MINION + "- id: [unclosed\n  name: x\n"
    (p,) = problems_for(tmp_path, {"minions.yaml": text})
    assert p.file.endswith("minions.yaml")
    assert p.line is not None and p.line >= 7
    assert "invalid YAML" in p.message


def test_wrong_type(tmp_path: Path) -> None:
    text = MINION.replace("physical: 2", "physical: strong")
    probs = problems_for(tmp_path, {"minions.yaml": text})
    p = next(p for p in probs if p.field and "defenses.physical" in p.field)
    assert p.line == 5
    assert "integer" in p.message and "'strong'" in p.message


def test_missing_field(tmp_path: Path) -> None:
    text = MINION.replace("  type: beast\n", "")
    probs = problems_for(tmp_path, {"minions.yaml": text})
    p = next(p for p in probs if p.field == "test-minion.type")
    assert p.message == "missing required field"
    assert p.line == 1


def test_unknown_field(tmp_path: Path) -> None:
    text = MINION + "  colour: purple\n"
    probs = problems_for(tmp_path, {"minions.yaml": text})
    p = next(p for p in probs if p.field == "test-minion.colour")
    assert "unknown field" in p.message
    assert p.line == 7


def test_duplicate_id_in_one_layer(tmp_path: Path) -> None:
    probs = problems_for(tmp_path, {"minions.yaml": MINION + MINION})
    p = next(p for p in probs if "duplicate id" in p.message)
    assert p.line == 7
    assert p.field == "test-minion.id"


def test_duplicate_key(tmp_path: Path) -> None:
    text = MINION + "  type: ghoul\n"
    (p,) = problems_for(tmp_path, {"minions.yaml": text})
    assert "duplicate key 'type'" in p.message
    assert p.line == 7


def test_dangling_reference(tmp_path: Path) -> None:
    text = """\
- id: lucilla-r01
  name: Lost card
  source: placeholder
  nemesis: nobody
  effects: []
"""
    probs = problems_for(tmp_path, {"reactions/lucilla.yaml": text})
    p = next(p for p in probs if p.field == "lucilla-r01.nemesis")
    assert "unknown lieutenant Nemesis 'nobody'" in p.message
    assert p.file.endswith("reactions/lucilla.yaml") and p.line == 1


def test_wrong_reaction_count(tmp_path: Path) -> None:
    text = """\
- id: lucilla-r13
  name: A thirteenth card
  source: placeholder
  nemesis: lucilla
  effects: []
"""
    probs = problems_for(tmp_path, {"reactions/extra.yaml": text})
    messages = [p.message for p in probs]
    assert "needs exactly 12 Reaction cards, found 13" in messages
    assert any("the box has 60 Reaction Cards, the data pack has 61" in m for m in messages)


def test_python_tag_is_refused_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f"- !!python/object/apply:os.system ['touch {marker}']\n"
    (p,) = problems_for(tmp_path, {"minions.yaml": text})
    assert "tag not allowed" in p.message
    assert p.line == 1
    assert not marker.exists()


def test_empty_file(tmp_path: Path) -> None:
    (p,) = problems_for(tmp_path, {"minions.yaml": "# nothing yet\n"})
    assert "empty" in p.message


def test_not_utf8(tmp_path: Path) -> None:
    (p,) = problems_for(tmp_path, {"minions.yaml": MINION.encode() + b"- name: caf\xe9\n"})
    assert "not UTF-8" in p.message
    assert p.line == 7


def test_top_level_must_be_a_list(tmp_path: Path) -> None:
    (p,) = problems_for(tmp_path, {"minions.yaml": "id: x\nname: y\n"})
    assert "expected a list of records" in p.message


def test_several_problems_reported_together(tmp_path: Path) -> None:
    probs = problems_for(
        tmp_path,
        {
            "minions.yaml": MINION.replace("physical: 2", "physical: -1"),
            "events/extra.yaml": "- just a string\n",
        },
    )
    files = {Path(p.file).name for p in probs}
    assert {"minions.yaml", "extra.yaml"} <= files


def test_missing_overlay_folder(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as info:
        validate_layers([shipped_data_dir(), tmp_path / "nope"])
    assert "no such data folder" in info.value.problems[0].message
