"""`blood status` as a person sees it: 80 columns, plain text, by day, by night and at the
End of the Night; the JSON keys; the cached fast path gives the same screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.entry import main

NIGHT = [
    "night",
    "setup",
    "--nemesis",
    "lucilla",
    "--location",
    "catacombs-ossuary-gallery",
    "--minions",
    "undead-bone-sentinel,ghoul-crypt-gnawer",
]


@pytest.fixture()
def screen(monkeypatch: pytest.MonkeyPatch, capsys: Any, saves_dir: Path) -> Any:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("NO_COLOR", "1")

    def run(*args: str) -> str:
        code = main(list(args))
        out = capsys.readouterr().out
        assert code == 0, out
        return out

    return run


def _fits(text: str) -> None:
    assert all(len(line) <= 80 for line in text.splitlines()), max(text.splitlines(), key=len)
    assert "\x1b[" not in text  # no colour codes when piped / NO_COLOR


def test_day_view_fits_80_columns(screen: Any) -> None:
    screen("campaign", "new", "d", "--troupers", "aurel,ioana,petru,zora", "--seed", "1")
    screen("day", "recover")
    screen("campaign", "wagon", "--coins", "4", "--jewels", "3")
    out = screen("status")
    _fits(out)
    assert "Day Part · Show 2-3: Purchases" in out
    assert "Wagon: 3 jewels, 4 coins, 0 trinkets, 0 scrolls" in out
    assert "Affordable now" in out and "Cartographer" in out
    assert "Reserve: empty" in out
    doc = json.loads(screen("status", "--json"))
    assert doc["part"] == "day" and doc["night"] is None
    assert {"wagon", "affordable", "troupers", "selection"} <= set(doc["day"])
    assert all(c["affordable"] for c in doc["day"]["affordable"])
    assert doc["next"]["prompt"]


def test_night_view_fits_80_columns_with_every_part(screen: Any) -> None:
    screen("campaign", "new", "n", "--troupers", "aurel,ioana,petru,zora", "--seed", "1",
           "--mode", "single")
    screen(*NIGHT)
    out = screen("status")
    _fits(out)
    for text in (
        "Night · Turn 1",
        "Nemesis Lucilla",
        "Wounds  Front 0/",
        "Defense Physical",
        "Threat  0/12",
        "! Alert",
        "Chain ",
        "Reaction Line 0/5",
        "Minions",
        "Bone Sentinel",
        "Troupers",
        "Wounds 0/8",
        "Vigor 6/6",
        "Insanity ●",
        "Items:",
        "Next:",
    ):
        assert text in out, text
    assert "…" not in out.split("Troupers", 1)[1].split("Next:", 1)[0]
    doc = json.loads(screen("status", "--json"))
    night = doc["night"]
    assert {"chain", "reaction_line", "threat", "minions", "troupers", "pending"} <= set(night)
    assert {"wounds", "wounds_needed", "defenses", "fatigue", "defense_after_fatigue"} <= set(
        night["nemesis"]
    )
    t = night["troupers"][0]
    assert {
        "wounds",
        "knock_out_at",
        "vigor",
        "bites",
        "insanity",
        "insanity_max",
        "exhausted",
        "items",
    } <= set(t)
    assert doc["next"]["prompt"] and doc["state_hash"]


def test_fast_path_prints_the_same_screen(tmp_path: Path) -> None:
    env = {**os.environ, "BLOOD_SAVES_DIR": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "80"}
    exe = [sys.executable, "-m", "blood_companion"]

    def run(*args: str) -> str:
        p = subprocess.run([*exe, *args], capture_output=True, text=True, env=env, timeout=60)
        assert p.returncode == 0, p.stderr
        return p.stdout

    run("campaign", "new", "f", "--troupers", "zora", "--seed", "2", "--mode", "single")
    run(*NIGHT)
    first = run("status")  # builds the document and caches it
    assert (tmp_path / ".cache" / "f.status.json").is_file()
    second = run("status")  # served from the cache
    assert first == second
    run("night", "answer", "none")  # the save changes: the cache no longer matches
    third = run("status")
    assert json.loads(run("status", "--json"))["step"] == 3
    assert third != first and "step 3" in third
