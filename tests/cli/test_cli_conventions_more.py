"""The conventions a Python CLI of today keeps (issue 29, "Conventions"): `--version --json`,
FORCE_COLOR beside NO_COLOR, shell completion of values (not file names), a saves folder found
from any working folder, the exported JSON Schemas checked by a real validator, and the
packaging facts (a pinned CI, a changelog, the license as an SPDX string)."""

from __future__ import annotations

import json
import os
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from blood_companion import __version__
from blood_companion.cli.settings import Settings
from tests.cli.conftest import blood_exe

ROOT = Path(__file__).resolve().parents[2]
ANSI = "\x1b["


def _proc(*args: str, env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*blood_exe(), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120
    )


def _env(**extra: str) -> dict[str, str]:
    """The environment of a `blood` run in a pipe, with no colour variable of the caller's."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    return {**env, "COLUMNS": "100", **extra}


# ---------------------------------------------------------------------- --version --json


@pytest.mark.parametrize("args", [["--version", "--json"], ["--json", "--version"]])
def test_version_json_is_one_document(blood: Any, saves_dir: Path, args: list[str]) -> None:
    from blood_companion.content.loader import load_catalog

    r = blood(*args)
    assert r.code == 0, r.err
    doc = json.loads(r.out)  # exactly one document: json.loads refuses anything after it
    assert doc["ok"] is True and doc["name"] == "blood-companion"
    assert doc["version"] == __version__
    assert doc["python"].count(".") == 2
    # the fingerprint each recorded step keeps, so a bug report names the data it ran on
    assert doc["data_fingerprint"] == load_catalog().fingerprint()
    assert doc["saves_dir"] == str(saves_dir.resolve())


def test_version_json_with_a_broken_overlay_still_answers(blood: Any, tmp_path: Path) -> None:
    (tmp_path / "troupers.yaml").write_text("- id: [unclosed\n", encoding="utf-8")
    r = blood("--data-dir", str(tmp_path), "--version", "--json")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert doc["version"] == __version__ and doc["data_fingerprint"] is None
    assert "troupers.yaml" in doc["data_error"]


def test_version_text_is_unchanged(blood: Any) -> None:
    assert blood("--version").out == f"blood-companion {__version__}\n"


# ---------------------------------------------------------------------- colour


def test_force_color_colours_every_kind_of_command_in_a_pipe(tmp_path: Path) -> None:
    env = _env(BLOOD_SAVES_DIR=str(tmp_path / "s"), FORCE_COLOR="1")
    new = _proc("campaign", "new", "c", "--troupers", "aurel,ioana", "--seed", "1", env=env)
    assert new.returncode == 0, new.stderr
    # a stored view (the fast path), the rules lookup (no typer), a typer command
    for args in (["status"], ["status"], ["rules", "push"], ["campaign", "list"]):
        out = _proc(*args, env=env)
        assert out.returncode == 0, out.stderr
        assert ANSI in out.stdout, args
    plain = _proc("status", env=_env(BLOOD_SAVES_DIR=str(tmp_path / "s")))
    assert ANSI not in plain.stdout  # a pipe without FORCE_COLOR: plain


def test_no_color_wins_over_force_color(tmp_path: Path) -> None:
    env = _env(BLOOD_SAVES_DIR=str(tmp_path / "s"), FORCE_COLOR="1", NO_COLOR="1")
    _proc("campaign", "new", "c", "--troupers", "aurel", "--seed", "1", env=env)
    for args in (["status"], ["rules", "push"], ["campaign", "list"], ["roll", "R G"]):
        out = _proc(*args, env=env)
        assert out.returncode == 0, out.stderr
        assert ANSI not in out.stdout, args


def test_the_colour_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    from blood_companion.display import colour_choice, colour_wanted

    class Pipe:
        def isatty(self) -> bool:
            return False

    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    assert colour_choice() is None and colour_wanted(Pipe()) is False
    monkeypatch.setenv("FORCE_COLOR", "")  # empty: as if unset (force-color.org)
    assert colour_choice() is None
    monkeypatch.setenv("FORCE_COLOR", "0")  # any other value forces
    assert colour_wanted(Pipe()) is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert colour_choice() is False and colour_wanted(Pipe()) is False


# ---------------------------------------------------------------------- completion


def _bash(words: str, cword: int, **env: str) -> list[str]:
    full = {**_env(**env), "_BLOOD_COMPLETE": "complete_bash", "COMP_WORDS": words,
            "COMP_CWORD": str(cword)}
    out = subprocess.run(blood_exe(), env=full, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    return out.stdout.strip("\n").split("\n") if out.stdout.strip() else []


def test_the_shell_completes_campaign_names(tmp_path: Path) -> None:
    saves = tmp_path / "s"
    saves.mkdir()
    for name in ("tuesday", "thursday", "friday"):
        (saves / f"{name}.blood.db").write_bytes(b"")  # only the names are read
    (saves / ".hidden.blood.db").write_bytes(b"")
    assert _bash("blood campaign delete t", 3, BLOOD_SAVES_DIR=str(saves)) == [
        "thursday", "tuesday"
    ]
    assert _bash("blood --campaign ", 2, BLOOD_SAVES_DIR=str(saves)) == [
        "friday", "thursday", "tuesday"
    ]
    # the saves folder typed on the line being completed wins
    assert _bash(f"blood --saves-dir {saves} campaign recover f", 5) == ["friday"]


def test_completion_never_fails_on_a_broken_saves_folder_or_pack(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x", encoding="utf-8")
    assert _bash("blood campaign delete ", 3, BLOOD_SAVES_DIR=str(not_a_folder)) == []
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "troupers.yaml").write_text("troupers: [\n", encoding="utf-8")
    assert _bash("blood test ", 2, BLOOD_DATA_DIR=str(bad)) == []
    assert _bash("blood --data-dir /no/such/folder card show c", 5) == []
    # what does not come from the pack still completes beside a broken one
    saves = tmp_path / "s"
    saves.mkdir()
    (saves / "monday.blood.db").write_bytes(b"")
    assert _bash("blood campaign delete ", 3, BLOOD_DATA_DIR=str(bad),
                 BLOOD_SAVES_DIR=str(saves)) == ["monday"]


def _complete(words: list[str], incomplete: str, settings: Settings | None = None) -> list[str]:
    """Completions through click's ShellComplete API (typer's bash class), in-process."""
    import typer
    from typer._completion_classes import BashComplete

    from blood_companion.cli.app import app

    obj = settings if settings is not None else Settings.resolve()
    comp = BashComplete(typer.main.get_command(app), {"obj": obj}, "blood", "_BLOOD_COMPLETE")
    return [item.value for item in comp.get_completions(words, incomplete)]


def test_card_names_complete_word_by_word(catalog: Any) -> None:
    from blood_companion.content.face import card_pairs

    names = {name for _, name in card_pairs(catalog)}
    swoops = sorted(n for n in names if n.casefold().startswith("crimson "))
    assert swoops, "the pack has cards named Crimson ..."
    got = _complete(["card", "show"], "Crim")
    assert set(swoops) <= set(got) and all(g.casefold().startswith("crim") for g in got)
    # case forgiven, and what was typed kept as typed
    assert {g.casefold() for g in _complete(["card", "show"], "crim")} == {
        g.casefold() for g in got
    }
    # after a first word, the rest of the names that begin with it
    rest = _complete(["card", "show", "crimson"], "")
    assert sorted(rest) == sorted(n.split(" ", 1)[1] for n in swoops)
    # ids too
    some_id = next(cid for cid, _ in card_pairs(catalog) if "-" in cid)
    assert some_id in _complete(["card", "show"], some_id[:-1])


def test_values_not_file_names_for_every_kind_of_value(catalog: Any, tmp_path: Path) -> None:
    troupers = [t.id for t in catalog.all("troupers")]
    zones = [z.id for z in catalog.all("zones")]
    nemeses = [n.id for n in catalog.all("nemeses")]
    assert _complete(["test"], "") == troupers
    assert _complete(["odds", "R", "--trouper"], "") == troupers
    assert _complete(["day", "zone"], "") == zones
    assert _complete(["day", "nemesis"], "") == nemeses
    assert _complete(["data", "show"], "troup") == ["troupers", "trouper_items"]
    assert _complete(["data", "show", "nemeses"], "") == nemeses
    first, second = troupers[0], troupers[1]
    assert f"{first},{second}" in _complete(
        ["campaign", "new", "x", "--troupers"], f"{first},{second[:2]}"
    )
    assert _complete(["campaign", "new", "x", "--troupers"], f"{first},{first[:2]}") == [
        f"{first},{t}" for t in troupers if t.startswith(first[:2]) and t != first
    ]
    assert _complete(["rules"], "") == ["keyword", "phase", "list"]
    keywords = _complete(["rules", "keyword"], "pu")
    assert keywords == ["push"]
    assert "cleanup" in " ".join(_complete(["rules", "phase"], ""))
    assert "keyword" in _complete(["rules", "--kind"], "")
    # no file names anywhere (the working folder has files that begin with these letters)
    assert not {p.name for p in ROOT.iterdir()} & set(_complete(["card", "show"], ""))


# ---------------------------------------------------------------------- the saves folder


def test_the_saves_folder_is_found_from_another_working_folder(
    blood: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from blood_companion.cli.settings import SAVES_FROM_USER

    monkeypatch.delenv("BLOOD_SAVES_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    monkeypatch.chdir(here)
    r = blood("campaign", "new", "tuesday", "--troupers", "aurel,ioana", "--seed", "3")
    assert r.code == 0, r.err
    assert not (here / "saves").exists()  # not scattered in the working folder
    user_saves = tmp_path / "data" / "blood-companion" / "saves"
    assert (user_saves / "tuesday.blood.db").is_file()
    monkeypatch.chdir(there)
    doc = blood("campaign", "list", "--json").json()
    assert [c["name"] for c in doc["campaigns"]] == ["tuesday"]
    assert doc["saves_dir_absolute"] == str(user_saves)
    assert doc["saves_dir_from"] == SAVES_FROM_USER
    assert blood("status", "--json").code == 0  # the last-used campaign, from here too
    text = blood("campaign", "list").out
    assert str(user_saves) in " ".join(text.split()) and "user data folder" in text


def test_a_saves_folder_in_the_working_folder_is_kept(
    blood: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from blood_companion.cli.settings import SAVES_FROM_CWD

    monkeypatch.delenv("BLOOD_SAVES_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "saves").mkdir()
    monkeypatch.chdir(tmp_path)
    assert blood("campaign", "new", "x", "--troupers", "aurel", "--seed", "1").code == 0
    assert (tmp_path / "saves" / "x.blood.db").is_file()
    doc = blood("campaign", "list", "--json").json()
    assert doc["saves_dir_from"] == SAVES_FROM_CWD
    assert doc["saves_dir_absolute"] == str(tmp_path / "saves")
    # --saves-dir and BLOOD_SAVES_DIR still win
    other = tmp_path / "other"
    doc = blood("--saves-dir", str(other), "campaign", "list", "--json").json()
    assert (doc["saves_dir"], doc["saves_dir_from"]) == (str(other), "--saves-dir")
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(other))
    doc = blood("campaign", "list", "--json").json()
    assert (doc["saves_dir"], doc["saves_dir_from"]) == (str(other), "BLOOD_SAVES_DIR")


def test_the_default_saves_folder_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    monkeypatch.chdir(tmp_path)
    s = Settings.resolve(env={"XDG_DATA_HOME": str(tmp_path / "x")})
    assert s.saves_path == str(tmp_path / "x" / "blood-companion" / "saves")
    s = Settings.resolve(env={"XDG_DATA_HOME": "relative/ignored", "HOME": str(tmp_path)})
    assert s.saves_path.endswith(os.path.join(".local", "share", "blood-companion", "saves"))


# ---------------------------------------------------------------------- JSON Schemas


def _files_and_schemas(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    from blood_companion.content.raw import KIND_NAMES, kind_files, shipped_data_dir

    data = shipped_data_dir()
    out = []
    for kind in KIND_NAMES:
        schema = json.loads((folder / f"{kind}.schema.json").read_text(encoding="utf-8"))
        out += [(path, schema) for path in kind_files(data, kind)]
    rules = json.loads((folder / "rules.schema.json").read_text(encoding="utf-8"))
    out += [(path, rules) for path in sorted((data / "rules").glob("*.yaml"))]
    return out


def test_every_shipped_file_passes_the_exported_schemas(blood: Any, tmp_path: Path) -> None:
    r = blood("data", "schema", "--out", str(tmp_path / "schemas"), "--json")
    assert r.code == 0, r.err
    pairs = _files_and_schemas(tmp_path / "schemas")
    assert sum(1 for p, _ in pairs if p.parent.name == "rules") >= 9
    for path, schema in pairs:
        jsonschema.Draft202012Validator.check_schema(schema)
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
        assert not errors, f"{path}: {jsonschema.exceptions.best_match(errors).message}"
    # the shipped copies (what editors read) are those
    shipped = ROOT / "data" / "schemas"
    for name in ("rules", "reactions", "troupers"):
        assert json.loads((shipped / f"{name}.schema.json").read_text(encoding="utf-8")) == (
            json.loads((tmp_path / "schemas" / f"{name}.schema.json").read_text("utf-8"))
        )


def test_the_schemas_refuse_what_the_loader_refuses(tmp_path: Path) -> None:
    from blood_companion.content.schema import all_schemas

    schemas = all_schemas()
    rules = jsonschema.Draft202012Validator(schemas["rules"])
    entry = {"id": "x", "title": "X", "section": "X", "kind": "keyword", "text": "t"}
    assert rules.is_valid([entry])
    for bad in ({**entry, "kind": "spell"}, {**entry, "colour": 1}, {**entry, "id": "Bad Id"},
                {**entry, "text": "  "}, {k: v for k, v in entry.items() if k != "text"}):
        assert not rules.is_valid([bad]), bad
    dice = jsonschema.Draft202012Validator(schemas["dice"])
    doc = yaml.safe_load((ROOT / "data" / "dice.yaml").read_text(encoding="utf-8"))
    assert dice.is_valid(doc)
    assert not dice.is_valid([{**doc[0], "sides": 7}])  # a field no die has


# ---------------------------------------------------------------------- packaging


def test_pyproject_license_classifiers_and_the_test_tools() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert meta["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "Topic :: Games/Entertainment :: Board Games" in meta["classifiers"]
    assert any(r.startswith("jsonschema") for r in meta["optional-dependencies"]["test"])


def test_ci_installs_the_pinned_tools() -> None:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt pins exact versions: {line}"
            pins[name.lower().replace("_", "-")] = version
    for tool in ("pytest", "hypothesis", "icepool", "ruff", "mypy", "types-pyyaml", "jsonschema",
                 "pydantic", "typer", "rich", "pyyaml", "hatchling"):
        assert tool in pins, tool
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '-c constraints.txt ".[test,dev]"' in ci and "PIP_CONSTRAINT" in ci
    assert "XDG_DATA_HOME=" in ci  # no run writes to the real home folder


def test_the_changelog_has_every_release() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    # a development version (0.3.0.dev0) is the Unreleased section; a release has its heading
    release = __version__.split(".dev")[0] if ".dev" in __version__ else __version__
    assert (".dev" in __version__ or f"## [{release}]" in text) and "## [0.1.0]" in text
    assert "## [0.2.0]" in text
