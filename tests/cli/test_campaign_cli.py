"""`blood campaign ...` as players and scripts use it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _private_env(saves_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `--campaign` is moved into the environment by the entry point: restore it after each test.
    monkeypatch.setenv("BLOOD_CAMPAIGN", "")


def _new(blood: Any, name: str = "tuesday", *extra: str) -> Any:
    r = blood("campaign", "new", name, "--troupers", "aurel,zora", "--seed", "7", *extra)
    assert r.code == 0, r.err
    return r


def test_new_show_json(blood: Any, saves_dir: Path) -> None:
    r = _new(blood, "tuesday", "--json")
    doc = r.json()
    assert doc["ok"] is True and doc["name"] == "tuesday"
    doc = blood("campaign", "show", "--json").json()
    assert {"name", "mode", "seed", "log_length", "state_hash"} <= set(doc)
    assert (doc["name"], doc["mode"], doc["seed"], doc["log_length"]) == ("tuesday", "roguelite",
                                                                          7, 1)
    assert [t["trouper"] for t in doc["troupers"]] == ["aurel", "zora"]
    assert doc["troupers"][0]["deck_size"] == 12 and len(doc["troupers"][0]["items"]) == 6
    assert (saves_dir / "tuesday.blood.db").is_file()


def test_single_mode_and_random_seed(blood: Any) -> None:
    r = blood("campaign", "new", "one-night", "--troupers", "petru", "--mode", "single", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert doc["mode"] == "single" and isinstance(doc["seed"], int)
    r = blood("campaign", "new", "x", "--troupers", "petru", "--mode", "coop")
    assert r.code == 2 and "unknown mode" in r.err


def test_actions_undo_redo_and_hashes(blood: Any) -> None:
    _new(blood)
    h1 = blood("campaign", "show", "--json").json()["state_hash"]
    assert blood("campaign", "wagon", "--coins", "3", "--reason", "found").code == 0
    assert blood("campaign", "add-trouper", "petru").code == 0
    r = blood("campaign", "leader", "petru", "--json")
    assert r.code == 0 and r.json()["log_length"] == 4
    h4 = r.json()["state_hash"]
    r = blood("campaign", "undo", "3", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert (doc["state_hash"], doc["log_length"], doc["redo"]) == (h1, 1, 3)
    doc = blood("campaign", "redo", "3", "--json").json()
    assert (doc["state_hash"], doc["log_length"]) == (h4, 4)
    assert blood("campaign", "retire-trouper", "zora").code == 0
    show = blood("campaign", "show", "--json").json()
    assert [t["trouper"] for t in show["troupers"]] == ["aurel", "petru"]
    assert show["wagon"]["coins"] == 3 and show["leader"] == "petru"


def test_marks_and_undo_to(blood: Any) -> None:
    _new(blood)
    blood("campaign", "wagon", "--coins", "1")
    r = blood("campaign", "mark", "before Lucilla")
    assert r.code == 0, r.err
    marked = blood("campaign", "show", "--json").json()["state_hash"]
    blood("campaign", "wagon", "--coins", "1")
    blood("campaign", "wagon", "--jewels", "2")
    r = blood("campaign", "undo", "--to", "before Lucilla", "--json")
    assert r.code == 0 and r.json()["state_hash"] == marked
    r = blood("campaign", "undo", "--to", "1", "--json")
    assert r.code == 0 and r.json()["log_length"] == 1
    r = blood("campaign", "undo", "--to", "no such mark")
    assert r.code == 1 and "no mark" in r.err and "before Lucilla" in r.err


def test_log_human_and_json_lines(blood: Any) -> None:
    _new(blood)
    blood("campaign", "wagon", "--coins", "2", "--reason", "found a purse")
    blood("campaign", "wagon", "--jewels", "1")
    blood("campaign", "mark", "here")
    blood("campaign", "undo")
    r = blood("campaign", "log")
    assert r.code == 0
    assert (
        "1. Started roguelite campaign 'tuesday' with Aurel, the Thread-Walker and Zora "
        "Blackcandle (seed 7)" in " ".join(r.out.split())
    )
    import re

    lines = [line for line in r.out.splitlines() if re.match(r"^[ →] +\d+\. ", line)]
    assert lines[1].startswith("→") and "+2 coins (found a purse)" in lines[1]
    assert "(undone)" in lines[2] and "[here]" in lines[2]
    r = blood("campaign", "log", "--json")
    docs = [json.loads(line) for line in r.out.splitlines()]
    assert [d["step"] for d in docs] == [1, 2, 3]
    assert docs[1]["type"] == "adjust_wagon" and docs[1]["action"]["coins"] == 2
    assert docs[1]["sentence"] == "Wagon adjusted: +2 coins (found a purse)"
    assert [d["status"] for d in docs] == ["done", "done", "undone"]


def test_clear_refusals(blood: Any, saves_dir: Path) -> None:
    r = blood("campaign", "show")
    assert r.code == 1 and "no campaign" in r.err
    _new(blood)
    r = blood("campaign", "undo")
    assert r.code == 1 and "nothing to undo" in r.err
    r = blood("campaign", "redo", "--json")
    assert r.code == 1 and r.json() == {"ok": False, "error": "nothing to redo",
                                        "hint": r.json()["hint"]}
    blood("campaign", "wagon", "--coins", "1")
    blood("campaign", "undo")
    blood("campaign", "wagon", "--jewels", "1")
    r = blood("campaign", "redo")
    assert r.code == 1 and "nothing to redo" in r.err and "replaced" in r.err
    before = (saves_dir / "tuesday.blood.db").read_bytes()
    r = blood("campaign", "wagon", "--coins", "-5")
    assert r.code == 1 and "cannot lose 5" in r.err and "Traceback" not in r.err
    assert (saves_dir / "tuesday.blood.db").read_bytes() == before
    r = blood("campaign", "add-trouper", "nobody")
    assert r.code == 1 and "unknown Trouper" in r.err
    r = blood("--campaign", "friday", "campaign", "show")
    assert r.code == 1 and "no campaign 'friday'" in r.err
    r = blood("campaign", "new", "tuesday", "--troupers", "aurel")
    assert r.code == 1 and "already exists" in r.err


@pytest.mark.parametrize("name", ["../escape", "a/b", "..", "bad\x07name", "x" * 100])
def test_bad_names_write_nothing(blood: Any, name: str, tmp_path: Path, saves_dir: Path) -> None:
    before = sorted(p.name for p in tmp_path.rglob("*"))
    r = blood("campaign", "new", name, "--troupers", "aurel")
    if "\x07" in name:  # no argument may hold a control character (cli.entry.check_args)
        assert r.code == 2 and "control character U+0007" in r.err
    else:
        assert r.code == 1 and "bad campaign name" in r.err and "Hint:" in r.err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_several_campaigns_last_used_and_list(blood: Any) -> None:
    _new(blood, "alpha")
    _new(blood, "beta")
    assert blood("campaign", "show", "--json").json()["name"] == "beta"  # last used
    assert blood("--campaign", "alpha", "campaign", "wagon", "--coins", "1").code == 0
    assert blood("campaign", "show", "--json").json()["name"] == "alpha"
    doc = blood("campaign", "list", "--json").json()
    assert [c["name"] for c in doc["campaigns"]] == ["alpha", "beta"]
    assert doc["last_used"] == "alpha" and doc["campaigns"][0]["log_length"] == 2


def test_export_import_delete_recover_verify(blood: Any, tmp_path: Path) -> None:
    _new(blood)
    blood("campaign", "wagon", "--coins", "2")
    h = blood("campaign", "show", "--json").json()["state_hash"]
    out = tmp_path / "tuesday.json"
    assert blood("campaign", "export", str(out)).code == 0
    assert json.loads(out.read_text())["format"] == "blood-companion-campaign"
    r = blood("campaign", "import", str(out), "--name", "copy", "--json")
    assert r.code == 0, r.err
    assert r.json()["state_hash"] == h and r.json()["name"] == "copy"
    r = blood("campaign", "verify", "--json")
    assert r.code == 0 and r.json()["ok"] is True and r.json()["steps"] == 2
    r = blood("campaign", "delete", "copy", "--json")
    assert r.code == 0 and Path(r.json()["kept_copy"]).is_file()
    r = blood("--campaign", "copy", "campaign", "show")
    assert r.code == 1
    r = blood("campaign", "recover", "copy", "--json")
    assert r.code == 0, r.err
    assert blood("--campaign", "copy", "campaign", "show", "--json").json()["state_hash"] == h
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "blood-companion-campaign", "format_version": 1')
    r = blood("campaign", "import", str(bad))
    assert r.code == 1 and str(bad) in r.err and "not valid JSON" in r.err


def test_delete_removes_the_campaigns_stored_views_only(blood: Any, saves_dir: Path) -> None:
    """`campaign delete` removes the status stored for that campaign (SAVES/.cache/NAME.status.json)
    and no other campaign's, even one whose name starts with NAME and a dot."""
    for name in ("tues", "tues.b"):
        _new(blood, name)
        for view in (("status",), ("campaign", "show"), ("campaign", "log")):
            assert blood("--campaign", name, *view).code == 0
    cache = saves_dir / ".cache"
    mine = {p.name for p in cache.glob("tues.*.json") if not p.name.startswith("tues.b.")}
    others = {p.name for p in cache.glob("tues.b.*.json")}
    assert len(mine) == len(others) == 1  # the one stored document: the status
    assert blood("campaign", "delete", "tues").code == 0
    assert {p.name for p in cache.glob("*.json")} == others


def test_damaged_save_message_and_recover(blood: Any, saves_dir: Path) -> None:
    _new(blood)
    blood("campaign", "wagon", "--coins", "2")
    path = saves_dir / "tuesday.blood.db"
    path.write_bytes(path.read_bytes()[:3000])
    damaged = path.read_bytes()
    r = blood("campaign", "show", "--json")
    assert r.code == 1
    doc = r.json()
    assert str(path) in doc["error"] and "recover" in doc["hint"]
    assert path.read_bytes() == damaged
    r = blood("campaign", "recover")
    assert r.code == 0, r.err
    assert blood("campaign", "show", "--json").json()["log_length"] >= 1


def test_installed_blood_process(blood_proc: Any, tmp_path: Path) -> None:
    saves = tmp_path / "elsewhere"
    r = blood_proc("campaign", "new", "proc", "--troupers", "ioana,petru", "--seed", "3",
                   "--saves-dir", str(saves))
    assert r.code == 0, r.err
    r = blood_proc("--saves-dir", str(saves), "campaign", "show", "--json")
    assert r.code == 0 and r.json()["seed"] == 3 and r.json()["log_length"] == 1
    (saves / "proc.blood.db").write_bytes(b"garbage" * 100)
    r = blood_proc("campaign", "log", "--saves-dir", str(saves))
    assert r.code == 1 and "Traceback" not in r.err and "proc.blood.db" in r.err


# ---------------------------------------------------------------------- issue 15, items 12-16


def test_12_retire_and_rejoin_keep_the_troupers_progress(blood: Any) -> None:
    _new(blood)
    assert blood("campaign", "retire-trouper", "zora").code == 0
    doc = blood("campaign", "show", "--json").json()
    assert [t["trouper"] for t in doc["troupers"]] == ["aurel"]
    assert [t["trouper"] for t in doc["set_aside"]] == ["zora"]
    assert doc["set_aside"][0]["deck_size"] == 12
    r = blood("campaign", "show")
    assert "Set aside (rejoin with add-trouper): Zora Blackcandle (azure" in " ".join(r.out.split())
    r = blood("campaign", "log")
    assert ("Zora Blackcandle leaves the table (set aside with everything the Trouper owns)"
            in " ".join(r.out.split()))
    assert blood("campaign", "add-trouper", "zora").code == 0
    doc = blood("campaign", "show", "--json").json()
    assert [t["trouper"] for t in doc["troupers"]] == ["aurel", "zora"] and not doc["set_aside"]


def test_13_campaign_trophies_corrects_by_hand(blood: Any) -> None:
    _new(blood)
    r = blood("campaign", "trophies", "halls=+2", "nemesis:lucilla=1", "--reason", "forgot",
              "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert doc["location_trophies"] == {"halls": 2} and doc["nemesis_trophies"] == {"lucilla": 1}
    assert doc["recorded"]["changes"] == {"halls": 2, "nemesis:lucilla": 1}
    h = doc["state_hash"]
    r = blood("campaign", "trophies", "halls=+2", "--json")
    assert r.code == 1 and "the box holds 3" in r.json()["error"]
    assert blood("campaign", "show", "--json").json()["state_hash"] == h
    r = blood("campaign", "trophies", "halls")
    assert r.code == 2 and "not TOKEN=N" in r.err
    assert blood("campaign", "trophies", "halls=-2").code == 0
    r = blood("campaign", "log")
    assert ("Trophies adjusted: +2 Location Trophy of The Halls and +1 Nemesis Trophy of Lucilla "
            "(forgot)") in " ".join(r.out.split())
    assert blood("campaign", "undo").code == 0
    assert blood("campaign", "show", "--json").json()["state_hash"] == h


def test_14_night_setup_in_roguelite_names_the_day_commands(
    blood: Any, saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the check called in SetupNight.apply (the lead's one line, simulated here), the
    command exits 1, says why and names the Day Part's commands; nothing is recorded."""
    from blood_companion.engine.box import require_single_game_setup
    from blood_companion.engine.night import SetupNight

    original = SetupNight.apply

    def checked(self: Any, state: Any, ctx: Any) -> Any:
        state = require_single_game_setup(state, ctx.catalog)
        return original(self, state, ctx)

    monkeypatch.setattr(SetupNight, "apply", checked)
    _new(blood)
    before = (saves_dir / "tuesday.blood.db").read_bytes()
    args = ["night", "setup", "--nemesis", "lucilla", "--location", "garden-l1",
            "--minions", "bone-sentinel,ghoul-pack", "--difficulty", "3"]
    r = blood(*args)
    assert r.code == 1 and "prepared by the Day Part" in r.err
    assert "blood day next" in r.err and "blood day end" in r.err
    r = blood(*args, "--json")
    assert r.code == 1 and "blood day recover" in r.json()["hint"]
    assert (saves_dir / "tuesday.blood.db").read_bytes() == before


def test_15_next_single_game_command_and_menu(blood: Any, catalog: Any) -> None:
    from blood_companion.cli.play_menu import Done, Walk
    from blood_companion.engine.campaign import NextSingleGame, Seat, StartCampaign
    from blood_companion.engine.flow import replay

    _new(blood)
    r = blood("campaign", "next-game")
    assert r.code == 1 and "over part" in r.err
    start = StartCampaign(name="s", mode="single", seed=1, seats=[Seat(trouper="aurel")])
    over = replay([start], catalog).model_copy(update={"part": "over"})
    walk = Walk.start(over, catalog)
    screen = walk.screen()
    assert not screen.end and screen.default is None
    assert [c.key for c in screen.choices] == ["1"]
    assert "Start game 2" in screen.choices[0].label
    done = walk.answer("1")
    assert isinstance(done, Done) and done.action == NextSingleGame()


def test_16_new_draws_troupers_colours_leader_and_prints_the_setup(blood: Any) -> None:
    r = blood("campaign", "new", "drawn", "--players", "3", "--colours", "random",
              "--leader", "random", "--seed", "5")
    assert r.code == 0, r.err
    out = " ".join(r.out.split())
    assert "with 3 Troupers drawn at random (seed 5; colours and Leader drawn at random)" in out
    assert "At the table:" in out
    for text in ("Seat 1:", "Seat 3:", "[ ] Trouper Board and Aid Card", "Leader token to",
                 "Playing area", "The Wagon beside the Village Card"):
        assert text in out, text
    doc = blood("campaign", "show", "--json").json()
    assert len({t["trouper"] for t in doc["troupers"]}) == 3
    r = blood("campaign", "new", "half", "--troupers", "zora,random", "--leader", "zora",
              "--colours", "amber", "--mode", "single", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    seats = doc["setup"]["seats"]
    assert seats[0]["trouper"] == "zora" and seats[0]["colour"] == "amber" and seats[0]["leader"]
    assert seats[1]["trouper"] != "zora" and doc["setup"]["village"] is False
    r = blood("campaign", "new", "nobody")
    assert r.code == 2 and "--players N" in r.err
    r = blood("campaign", "new", "bad", "--players", "2", "--leader", "9")
    assert r.code == 2 and "--leader" in r.err
    r = blood("campaign", "new", "bad", "--troupers", "aurel,zora,petru", "--players", "2")
    assert r.code == 2
    r = blood("play", "--new", "p", "--players", "2", "--seed", "4", "--json")
    assert r.code == 0, r.err
    assert r.json()["campaign"] == "p" and r.json()["log_length"] == 1


def test_blood_campaign_wagon_says_1_coin(blood: Any) -> None:
    # issue 27: singular and plural right in the Wagon's sentences ("1 coins")
    _new(blood)
    r = blood("campaign", "wagon", "--coins", "1")
    assert r.code == 0, r.err
    assert "+1 coin" in r.out and "1 coins" not in r.out
    log = blood("campaign", "log")
    assert "Wagon adjusted: +1 coin" in log.out and "1 coins" not in log.out


# --------------------------------------------------------------------------- a process each


def _module_blood(*args: str, saves: Path) -> subprocess.CompletedProcess[bytes]:
    """`python -m blood_companion ARGS` (the console script's own path) with piped output."""
    env = {**os.environ, "BLOOD_SAVES_DIR": str(saves), "NO_COLOR": "1", "COLUMNS": "100"}
    env.pop("BLOOD_CAMPAIGN", None)
    return subprocess.run(
        [sys.executable, "-m", "blood_companion", *args],
        capture_output=True,  # both to pipes, as in a script
        env=env,
        timeout=120,
        check=False,
    )


def test_a_step_recorded_by_its_own_process_is_on_disk(blood: Any, saves_dir: Path) -> None:
    assert blood("campaign", "new", "quick", "--troupers", "aurel,zora", "--seed", "7").code == 0
    before = blood("campaign", "show", "--json").json()
    for n, coins in enumerate(("2", "3"), 1):  # two processes: the second reads the first's
        p = _module_blood("campaign", "wagon", "--coins", coins, "--json", saves=saves_dir)
        assert p.returncode == 0, p.stderr.decode()
        assert json.loads(p.stdout)["log_length"] == before["log_length"] + n
    after = blood("campaign", "show", "--json").json()
    assert after["log_length"] == before["log_length"] + 2
    assert after["wagon"]["coins"] == before["wagon"]["coins"] + 5
    log = [json.loads(line) for line in blood("campaign", "log", "--json").out.splitlines()]
    assert [e["action"].get("coins") for e in log[-2:]] == [2, 3]
    # an undo in its own process is kept too
    p = _module_blood("campaign", "undo", "--json", saves=saves_dir)
    assert p.returncode == 0, p.stderr.decode()
    assert blood("campaign", "show", "--json").json()["log_length"] == before["log_length"] + 1


def test_long_output_reaches_a_pipe_whole(blood: Any, saves_dir: Path) -> None:
    whole = blood("data", "schema")
    assert whole.code == 0 and len(whole.out) > 200_000  # bigger than a pipe's buffer
    p = _module_blood("data", "schema", saves=saves_dir)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout.decode() == whole.out
    assert json.loads(p.stdout)  # ends where the document ends


def test_an_error_exit_keeps_its_code_and_message(saves_dir: Path) -> None:
    p = _module_blood("campaign", "wagon", "--coins", "1", "--campaign", "nowhere", saves=saves_dir)
    assert p.returncode not in (0, None)
    assert b"nowhere" in p.stderr
