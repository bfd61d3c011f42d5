"""Hand-written YAML: an editor modeline in every shipped file (with current schemas),
`distance: 0` unquoted, a file-level `defaults:` block, and the owner's user data folder as the
default overlay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from blood_companion.content.errors import ContentError
from blood_companion.content.loader import (
    KINDS,
    kind_files,
    load_catalog,
    shipped_data_dir,
    user_data_dir,
    validate_layers,
)
from blood_companion.content.schema import RULES, kind_schemas, schema_line, schema_text


def test_every_shipped_file_names_its_schema() -> None:
    root = shipped_data_dir()
    seen = 0
    for kind in KINDS:
        for path in kind_files(root, kind):
            first = path.read_text(encoding="utf-8").splitlines()[0]
            assert first == schema_line(kind, path.parent != root), path
            target = (path.parent / first.split("$schema=")[1]).resolve()
            assert target.is_file(), target
            seen += 1
    assert seen >= 40


def _shape(schema: dict[str, Any]) -> dict[str, Any]:
    """What a model change alters (fields, required fields, choices), not what another
    pydantic version might write differently (titles, ordering, descriptions)."""
    out: dict[str, Any] = {}
    for name, sub in schema["$defs"].items():
        props = sub.get("properties", {})
        out[name] = {
            "fields": sorted(props),
            "required": sorted(sub.get("required", [])),
            "choices": {k: sorted(map(str, v["enum"])) for k, v in props.items() if "enum" in v},
        }
    return out


def test_shipped_schemas_are_current() -> None:
    folder = shipped_data_dir() / "schemas"
    assert sorted(p.name for p in folder.glob("*.schema.json")) == sorted(
        f"{k}.schema.json" for k in [*KINDS, RULES]
    )
    for name, schema in kind_schemas().items():
        shipped = json.loads((folder / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert _shape(shipped) == _shape(schema), (
            f"regenerate: blood data schema --out data/schemas ({name})"
        )
    schema_text(kind_schemas()["dice"])  # writable as text


def test_schema_accepts_the_defaults_form_and_an_unquoted_distance() -> None:
    schema = kind_schemas()["reactions"]
    forms = schema["anyOf"]
    assert forms[0]["type"] == "array"
    assert set(forms[1]["properties"]) == {"defaults", "records"}
    assert "required" not in schema["$defs"]["ReactionCardPartial"]
    distance = schema["$defs"]["Target"]["properties"]["distance"]
    assert {"type": "integer", "minimum": 0} in distance["anyOf"]
    json.dumps(schema)


REACTIONS = """\
# yaml-language-server: $schema=../schemas/reactions.schema.json
defaults:
  source: transcribed
  nemesis: lucilla
records:
  - id: lucilla-r01
    name: Typed Swoop
    effects:
      - target: {kind: trouper, distance: 0}
        outcome: [{kind: bite}]
  - id: lucilla-r02
    name: Typed Thirst
    nemesis: corvin
    effects:
      - target: {kind: trouper, distance: 1, priority: [closest]}
        outcome: [{kind: wound}]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_block_fills_every_record(tmp_path: Path) -> None:
    write(tmp_path, "reactions/mine.yaml", REACTIONS.replace("nemesis: corvin", "fatigue: {}"))
    cat = validate_layers([shipped_data_dir(), tmp_path])
    first, second = cat.get("reactions", "lucilla-r01"), cat.get("reactions", "lucilla-r02")
    assert first.source == second.source == "transcribed"
    assert first.nemesis == second.nemesis == "lucilla"
    assert first.effects[0].target.distance == "0"  # unquoted number read as the Distance
    assert second.effects[0].target.distance == "1"


def test_a_record_overrides_its_defaults_and_errors_name_the_right_line(tmp_path: Path) -> None:
    write(tmp_path, "reactions/mine.yaml", REACTIONS.replace("nemesis: lucilla", "nemesis: 7"))
    with pytest.raises(ContentError) as info:
        validate_layers([shipped_data_dir(), tmp_path])
    problems = {(p.field, p.line) for p in info.value.problems}
    # the bad value is in the defaults block (line 4); lucilla-r02 set its own nemesis
    assert ("lucilla-r01.nemesis", 4) in problems
    assert not any(f == "lucilla-r02.nemesis" for f, _ in problems)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("defaults: {source: transcribed}\n", "no 'records:' list"),
        ("defaults: {}\nrecords: []\nextra: 1\n", "unknown top-level key 'extra'"),
        ("defaults: [1]\nrecords: []\n", "expected a mapping of fields"),
        ("records: {id: x}\n", "expected a list of records"),
    ],
)
def test_malformed_defaults_form(tmp_path: Path, text: str, says: str) -> None:
    write(tmp_path, "minions.yaml", text)
    with pytest.raises(ContentError) as info:
        validate_layers([shipped_data_dir(), tmp_path])
    (problem,) = info.value.problems
    assert says in problem.message and problem.file.endswith("minions.yaml") and problem.line


def test_user_data_folder_is_the_default_overlay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("BLOOD_DATA_DIR", raising=False)
    folder = user_data_dir()
    assert folder == tmp_path / "blood-companion"
    assert load_catalog(use_cache=False).get("reactions", "lucilla-r01").source == "placeholder"
    write(folder, "reactions/mine.yaml", REACTIONS.replace("nemesis: corvin", "fatigue: {}"))
    cat = load_catalog()
    assert cat.get("reactions", "lucilla-r01").name == "Typed Swoop"
    assert folder in cat.layers
    # --data-dir (or BLOOD_DATA_DIR) replaces the default folder
    other = tmp_path / "other"
    other.mkdir()
    assert load_catalog(other).get("reactions", "lucilla-r01").source == "placeholder"
