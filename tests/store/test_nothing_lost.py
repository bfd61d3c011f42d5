"""Issue 40: nothing lost, even by `recover`; the save's own bookkeeping checked.

* `recover --force` racing writers loses no acknowledged step (one recover, under the save's
  lock, whatever the flags) and tells no writer the disk is full or the save damaged;
* `recover` keeps every provable step: past a damaged row it goes on, a step whose action no
  longer reads but whose state is proven is kept without it (marked so in the log), a step it
  cannot prove is listed by step; a backup never replaces rows that read;
* the head, the schema version, numbers and mark names are checked against the rows;
* no dead ends (a refusal names the command that fixes it, and that command does), nothing
  followed out of the saves folder, `verify`'s hint says what recover does.

Figures (``pytest tests/store/test_nothing_lost.py -q``): acknowledged steps lost 0 over 4
rounds of 12 writers racing `recover --force`.
"""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from blood_companion.cli.entry import main
from blood_companion.engine.campaign import AdjustWagon
from blood_companion.store import CampaignStore, DamagedSave, StoreError
from blood_companion.store.manage import recover_campaign


def _env(saves: Path) -> dict[str, str]:
    import os

    env = dict(os.environ)
    env.pop("BLOOD_CAMPAIGN", None)
    env["BLOOD_SAVES_DIR"] = str(saves)
    env["COLUMNS"] = "100"
    return env


def _spawn(saves: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "blood_companion", *args], env=_env(saves),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _reasons(path: Path) -> list[str]:
    conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT data FROM actions UNION ALL SELECT data FROM abandoned")
        return [json.loads(d).get("reason", "") for (d,) in rows]
    finally:
        conn.close()


def blood(saves: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["--saves-dir", str(saves), "--campaign", "demo", *args])
    return code, out.getvalue(), err.getvalue()


def _played(new_store: Any, saves_dir: Path, steps: int) -> Path:
    """A campaign of `steps` steps (step 1 the start, a backup of it taken), recorded one by
    one as a table would."""
    store = new_store("demo")
    for i in range(steps - 1):
        store.record(AdjustWagon(coins=1, reason=f"#{i}"))
    store.close()
    return saves_dir / "demo.blood.db"


def _sql(path: Path, sql: str, *args: Any) -> None:
    conn = sqlite3.connect(path)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


def _facts(saves_dir: Path, catalog: Any) -> tuple[int, int, int, bool]:
    """(head, log steps, coins, verify ok) after recovery; export and `log --all` work too."""
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        json.dumps(store.export_doc())
        store.log(include_abandoned=True)
        return (store.head, store.head + store.redo_available, store.state.wagon.coins,
                store.verify().ok)


# ---------------------------------------------------------------------- 1: one recover, locked

WRITERS = 12
ROUNDS = 4


@pytest.mark.parametrize("how", ["--force", "damaged"])
def test_40_1_recover_force_racing_writers_loses_no_acknowledged_step(
    how: str, tmp_path: Path
) -> None:
    """12 writers record while `recover --force` runs (started after the 5th), 4 rounds: every
    step a writer acknowledged (exit 0) is in the recovered save, and no writer is told the
    disk is full or the save damaged. Before, --force moved the save away without the lock,
    with a writer's live journal: 38 of 43 acknowledged steps were lost. The same with a plain
    `recover` of a save whose step 2 hash is damaged (writers still record at its head)."""
    lost, told = 0, []
    for rnd in range(ROUNDS):
        saves = tmp_path / f"saves{rnd}"
        made = subprocess.run([sys.executable, "-m", "blood_companion", "campaign", "new",
                               "demo", "--troupers", "aurel,zora", "--decks", "app"],
                              env=_env(saves), capture_output=True, text=True, timeout=120)
        assert made.returncode == 0, made.stderr
        if how == "damaged":
            assert blood(saves, "campaign", "wagon", "--coins", "1")[0] == 0
            assert blood(saves, "campaign", "wagon", "--coins", "1")[0] == 0
            _sql(saves / "demo.blood.db",
                 "UPDATE actions SET state_hash = 'ff' || substr(state_hash, 3) WHERE step = 2")
        procs, recover = [], None
        for i in range(WRITERS):
            procs.append(_spawn(saves, "--campaign", "demo", "campaign", "wagon", "--coins",
                                "1", "--reason", f"R{rnd}-{i}"))
            if i == 4:
                time.sleep(0.05 * rnd)
                recover = _spawn(saves, "campaign", "recover", "demo", "--json",
                                 *(["--force"] if how == "--force" else []))
        acked = set()
        for i, p in enumerate(procs):
            _, err = p.communicate(timeout=600)
            assert "unexpected" not in err and "Traceback" not in err, err
            if p.returncode == 0:
                acked.add(f"R{rnd}-{i}")
            elif "disk is full" in err or "damaged" in err:
                told.append(err)
        assert recover is not None
        out, err = recover.communicate(timeout=600)
        assert recover.returncode == 0, err
        assert acked, "no writer got through"
        kept = set(_reasons(saves / "demo.blood.db"))
        lost += len(acked - kept)
        code, _, err = blood(saves, "campaign", "verify")
        assert code == 0, err
    assert lost == 0
    assert told == [], told


def test_40_1_force_on_a_damaged_save_keeps_every_step_not_the_backup(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """One damaged state hash at step 27 of 32: `recover --force` keeps all 32 steps (the
    rules prove step 27 again). Before, --force restored the newest backup: 1 step."""
    path = _played(new_store, saves_dir, 32)
    _sql(path, "UPDATE actions SET state_hash = 'ff' || substr(state_hash, 3) WHERE step = 27")
    result = recover_campaign(saves_dir, "demo", catalog, force=True)
    assert result.kept == 32 and result.log_length == 32
    assert _facts(saves_dir, catalog) == (32, 32, 31, True)


def test_40_1_force_on_a_healthy_save_keeps_it_as_it_is(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """--force means "even if verify passes": the save is rebuilt from its own rows, every
    step, undone step, mark and hash kept. Before, it restored the newest backup (step 1)."""
    store = new_store("demo")
    for i in range(12):
        store.record(AdjustWagon(coins=1, reason=f"#{i}"))
    store.mark("middle")
    store.undo(3)
    hashes = [e.state_hash for e in store.log()]
    store.close()
    code, out, err = blood(saves_dir, "campaign", "recover", "--force", "--json")
    assert code == 0, err
    with CampaignStore.open(saves_dir, "demo", catalog) as again:
        assert [e.state_hash for e in again.log()] == hashes
        assert (again.head, again.redo_available, again.marks()) == (10, 3, {"middle": 13})
        assert again.verify().ok


# ---------------------------------------------------------------------- 2: every provable step


def test_40_2_a_damaged_payload_keeps_every_step_and_marks_it(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """The payload of step 30 of 41 damaged: all 41 steps kept, step 30 marked in the log as
    kept without its action; `recover --json` lists it. Before: 29 kept, 31-41 dropped."""
    path = _played(new_store, saves_dir, 41)
    _sql(path, "UPDATE actions SET data = '{}' WHERE step = 30")
    code, out, err = blood(saves_dir, "campaign", "recover", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["log_length"] == 41 and doc["unreadable"] == [30] and doc["unproven"] == []
    assert _facts(saves_dir, catalog) == (41, 41, 40, True)
    code, out, _ = blood(saves_dir, "campaign", "log", "--json")
    steps = [json.loads(line) for line in out.splitlines()]
    assert [s["step"] for s in steps] == list(range(1, 42))
    assert steps[29]["type"] == "unreadable_step" and "could not be read" in steps[29]["sentence"]
    code, out, _ = blood(saves_dir, "campaign", "log")
    assert code == 0 and "could not be read" in out


@pytest.mark.parametrize("damage", [
    "UPDATE actions SET av = 99 WHERE step = 30",
    "UPDATE actions SET data = substr(data, 1, 5) WHERE step = 30",
    "UPDATE actions SET type = 'x', data = '{\"type\": \"nothing_known\"}' WHERE step = 30",
])
def test_40_2_one_unreadable_action_keeps_every_step(
    damage: str, new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """av=99 (a newer action schema), a cut action, an unknown action on one row: its state
    is proven by its change and hash, so every step is kept."""
    path = _played(new_store, saves_dir, 41)
    _sql(path, damage)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert (result.log_length, result.unreadable, result.unproven) == (41, (30,), ())
    assert _facts(saves_dir, catalog) == (41, 41, 40, True)


def test_40_2_a_deleted_row_is_listed_and_the_steps_after_it_kept(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """Row 30 of 41 deleted (as a lost page would): step 31's change proves the state after
    it, so steps 31-41 are kept and step 30 is listed as unproven (the damaged copy keeps
    what is left of it). Before: 29 kept."""
    path = _played(new_store, saves_dir, 41)
    _sql(path, "DELETE FROM actions WHERE step = 30")
    code, out, err = blood(saves_dir, "campaign", "recover")
    assert code == 0, err
    assert "41" in out and "30" in out and "could not prove" in out
    assert _facts(saves_dir, catalog) == (41, 41, 40, True)


def test_40_2_a_lost_step_whose_next_change_does_not_prove_it_goes_on_from_a_snapshot(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """Steps 20-22 lost (action and change) in a 60-step save: the next changes do not prove
    the states after them, so recover goes on from the snapshot at step 50 (its checksum and
    the recorded hash); steps 20-49 are listed unproven, 50-60 kept."""
    path = _played(new_store, saves_dir, 60)
    _sql(path, "UPDATE actions SET data = 'x', delta = 'x' WHERE step BETWEEN 20 AND 22")
    for k in range(23, 50):  # their changes no longer set what the lost steps changed
        _sql(path, "UPDATE actions SET delta = '[]' WHERE step = ?", k)
    result = recover_campaign(saves_dir, "demo", catalog)
    assert result.log_length == 60 and result.unproven == tuple(range(20, 50))
    head, steps, coins, ok = _facts(saves_dir, catalog)
    assert (head, steps, coins, ok) == (60, 60, 59, True)


def test_40_2_a_backup_never_replaces_rows_that_read(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """A backup holding another branch of steps 5-10 (undone and replaced since): recover of
    the file keeps the file's own steps, never the backup's."""
    store = new_store("demo")
    for i in range(10):
        store.record(AdjustWagon(coins=1, reason=f"old {i}"))
    store.backup("manual")
    store.undo(6)
    for i in range(10):
        store.record(AdjustWagon(jewels=1, reason=f"new {i}"))
    hashes = [e.state_hash for e in store.log()]
    store.close()
    path = saves_dir / "demo.blood.db"
    _sql(path, "UPDATE actions SET data = '{}' WHERE step = 8")
    result = recover_campaign(saves_dir, "demo", catalog)
    assert result.log_length == 15 and result.unreadable == (8,)
    with CampaignStore.open(saves_dir, "demo", catalog) as again:
        assert [e.state_hash for e in again.log()] == hashes
        assert again.state.wagon.jewels == 10


# ---------------------------------------------------------------------- 3: the bookkeeping


def test_40_3_an_edited_head_is_refused_then_repaired_nothing_abandoned(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """`UPDATE meta SET value='20' WHERE key='head'` on a 41-step save: verify reports it (and
    names recover), a step is refused rather than abandon steps 21-41, and recover puts the
    head back at 41. Before, verify said all was intact and the next step abandoned 21 steps."""
    path = _played(new_store, saves_dir, 41)
    assert blood(saves_dir, "status")[0] == 0  # a stored view of the head
    _sql(path, "UPDATE meta SET value = '20' WHERE key = 'head'")
    code, _, err = blood(saves_dir, "status")
    assert code == 1 and "head" in err  # never the stored view of a save the store refuses
    code, out, err = blood(saves_dir, "campaign", "verify")
    assert code == 1 and "head" in err and "recover" in err
    code, _, err = blood(saves_dir, "campaign", "wagon", "--coins", "1")
    assert code == 1 and "head" in err
    with pytest.raises(DamagedSave):
        CampaignStore.open(saves_dir, "demo", catalog)
    recover_campaign(saves_dir, "demo", catalog)
    assert _facts(saves_dir, catalog) == (41, 41, 40, True)
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        assert [e for e in store.log(include_abandoned=True) if e.status == "abandoned"] == []


def test_40_3_an_older_version_number_on_a_current_save_is_never_migrated_again(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """`PRAGMA user_version=2` on a current save: it is refused as damaged (not rebuilt as an
    app 0.1.0 save: every step restamped and its hashes rewritten), and recover sets it right
    with every step as recorded."""
    path = _played(new_store, saves_dir, 30)
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        before = [(e.state_hash, e.recorded, e.app) for e in store.log()]
    _sql(path, "PRAGMA user_version = 2")
    with pytest.raises(DamagedSave, match="schema version"):
        CampaignStore.open(saves_dir, "demo", catalog)
    assert not [p for p in (saves_dir / ".backups" / "demo").iterdir() if "migration" in p.name]
    recover_campaign(saves_dir, "demo", catalog)
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        assert [(e.state_hash, e.recorded, e.app) for e in store.log()] == before
        report = store.verify()
        assert report.ok and report.replayed == 29


@pytest.mark.parametrize("key,value", [("head", "٤١"), ("revision", "٢٥٠"), ("seed", "７")])
def test_40_3_numbers_are_ascii_digits(
    key: str, value: str, new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """'٢٥٠' is not 250: a number in the metadata in other digits is damage (recover mends
    it). Before, int() read them."""
    path = _played(new_store, saves_dir, 41)
    assert blood(saves_dir, "status")[0] == 0  # a stored view of the head
    _sql(path, "UPDATE meta SET value = ? WHERE key = ?", value, key)
    assert blood(saves_dir, "status")[0] == 1
    with pytest.raises(DamagedSave, match="number"):
        CampaignStore.open(saves_dir, "demo", catalog)
    recover_campaign(saves_dir, "demo", catalog)
    assert _facts(saves_dir, catalog)[:3] == (41, 41, 40)


def test_40_3_a_mark_whose_name_is_not_text_is_never_a_traceback(
    new_store: Any, saves_dir: Path, catalog: Any, tmp_path: Path
) -> None:
    """`INSERT INTO marks VALUES (X'FF',-5,'x')`: export works (the mark is passed by), verify
    names it, recover leaves it in the damaged copy. Before, export failed with a TypeError."""
    path = _played(new_store, saves_dir, 5)
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        store.mark("kept")
    _sql(path, "INSERT INTO marks VALUES (X'FF', -5, 'x')")
    _sql(path, "INSERT INTO marks VALUES ('far', 99, 'x')")
    code, _, err = blood(saves_dir, "campaign", "undo", "--to", "far")
    assert code == 1 and "not in the log" in err and "campaign recover" in err
    code, _, err = blood(saves_dir, "campaign", "export", str(tmp_path / "out.json"))
    assert code == 0, err
    assert json.loads((tmp_path / "out.json").read_text())["marks"] == {"kept": 5, "far": 99}
    code, out, err = blood(saves_dir, "campaign", "log")
    assert code == 0 and "unexpected" not in err
    code, _, err = blood(saves_dir, "campaign", "verify")
    assert code == 1 and "mark" in err
    recover_campaign(saves_dir, "demo", catalog)
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        assert store.marks() == {"kept": 5} and store.verify().ok


# ---------------------------------------------------------------------- 4, 5: no dead ends


def test_40_4_a_garbage_abandoned_row_is_fixed_by_the_command_named(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    """A garbage row among the abandoned steps: `log --all` refuses and names recover;
    verify names it; recover fixes it (the row stays in the damaged copy) and `log --all`
    works. Before, verify passed and recover said there was nothing to recover."""
    store = new_store("demo")
    for i in range(6):
        store.record(AdjustWagon(coins=1, reason=f"#{i}"))
    store.undo(2)
    store.record(AdjustWagon(jewels=1, reason="other"))
    store.close()
    path = saves_dir / "demo.blood.db"
    _sql(path, "UPDATE abandoned SET data = '{garbage' WHERE step = 7")
    code, _, err = blood(saves_dir, "campaign", "log", "--all")
    assert code == 1 and "campaign recover" in err
    code, _, err = blood(saves_dir, "campaign", "verify")
    assert code == 1 and "abandoned step 7" in err and "campaign recover" in err
    code, out, err = blood(saves_dir, "campaign", "recover")
    assert code == 0, err
    code, out, err = blood(saves_dir, "campaign", "log", "--all", "--json")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["step"] for r in rows if r["status"] == "abandoned"] == [6]
    assert _facts(saves_dir, catalog)[:3] == (6, 6, 4)


def test_40_5_nothing_is_written_through_a_link_out_of_the_saves_folder(
    new_store: Any, saves_dir: Path, catalog: Any, tmp_path: Path
) -> None:
    """`.backups/NAME` (or `.backups`) a symbolic link to a folder elsewhere: recover refuses
    with a hint and writes nothing there; a recorded step still commits (its backup is
    skipped); the stored views never go through a linked `.cache`. Before, recover moved the
    damaged file out through the link."""
    path = _played(new_store, saves_dir, 5)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    backups = saves_dir / ".backups" / "demo"
    backups.rename(tmp_path / "old-backups")
    backups.symlink_to(outside, target_is_directory=True)
    _sql(path, "UPDATE actions SET state_hash = 'ff' WHERE step = 3")
    with pytest.raises(StoreError, match="symbolic link"):
        recover_campaign(saves_dir, "demo", catalog)
    code, _, err = blood(saves_dir, "campaign", "recover")
    assert code == 1 and "move it away" in err
    assert list(outside.iterdir()) == []
    _sql(path, "UPDATE actions SET state_hash = (SELECT state_hash FROM snapshots WHERE step = 5) "
               "WHERE step = 5")
    cache = tmp_path / "cache-elsewhere"
    cache.mkdir()
    (saves_dir / ".cache").symlink_to(cache, target_is_directory=True)
    backups.unlink()
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        store.backup("made inside")
    assert backups.is_dir() and not backups.is_symlink()
    blood(saves_dir, "status")
    blood(saves_dir, "campaign", "show")
    assert list(cache.iterdir()) == [] and list(outside.iterdir()) == []


def test_40_5_verify_hint_says_what_recover_does(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    path = _played(new_store, saves_dir, 5)
    _sql(path, "UPDATE actions SET state_hash = 'ff' WHERE step = 3")
    code, _, err = blood(saves_dir, "campaign", "verify")
    assert code == 1
    assert "newest good backup" not in err and "every step it can prove" in err


def test_40_4_a_recovered_save_exports_and_an_import_checks_what_it_can(
    saves_dir: Path, catalog: Any, tmp_path: Path
) -> None:
    """A step kept without its action travels in an export. Import takes it where it changes
    none of what the campaign holds (a night's set-up here) and refuses it, naming what to do
    instead, where it changes the Wagon (nothing can check such a step: a forged one would
    pass)."""
    import sys as _sys

    _sys.path.insert(0, str(Path(__file__).parent))
    from conftest import start
    from save_files import write_today

    from blood_companion.engine.night import SetupNight

    loc = catalog.locations_in("catacombs")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    actions = [start("demo", mode="single"), AdjustWagon(coins=1, reason="a"),
               SetupNight(nemesis="lucilla", location=loc, minions=mins, difficulty=1),
               AdjustWagon(coins=1, reason="b")]
    path = write_today(saves_dir, "demo", actions, catalog)
    _sql(path, "UPDATE actions SET data = '{}' WHERE step = 3")
    assert recover_campaign(saves_dir, "demo", catalog).unreadable == (3,)
    out = tmp_path / "night.json"
    assert blood(saves_dir, "campaign", "export", str(out))[0] == 0
    code, _, err = blood(saves_dir, "campaign", "import", str(out), "--name", "again")
    assert code == 0, err
    with CampaignStore.open(saves_dir, "again", catalog) as store:
        assert store.head == 4 and store.verify().ok
        assert store.log()[2].type == "unreadable_step"
    _sql(path, "UPDATE actions SET data = '{}' WHERE step = 4")
    recover_campaign(saves_dir, "demo", catalog)
    assert blood(saves_dir, "campaign", "export", str(out), "--force")[0] == 0
    code, _, err = blood(saves_dir, "campaign", "import", str(out), "--name", "third")
    assert code == 1 and "step 4" in err and "wagon" in err and "copy its save file" in err
    assert "Traceback" not in err


# ---------------------------------------------------------------------- 7: import streams


@pytest.mark.parametrize("forge", ["edit an earlier entry", "add an entry", "drop the new"])
def test_40_7_the_faster_replay_still_refuses_a_forged_night_log(
    forge: str, saves_dir: Path, catalog: Any, tmp_path: Path
) -> None:
    """Import and verify compare a step's replay with its recorded state only where either
    changed something, a grown night log by its new entries and its length: a last step whose
    change also edits an earlier log entry, adds one the rules did not, or leaves out the one
    they did (its hash made to match) is refused by import and fails verify."""
    import random
    import sys as _sys

    _sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    _sys.path.insert(0, str(Path(__file__).parent))
    from night_bot import Table, step
    from save_files import write_today

    from blood_companion.engine.campaign import Seat, StartCampaign
    from blood_companion.engine.night import SetupNight
    from blood_companion.engine.state import CampaignState
    from blood_companion.store.docs import canon, hash_text

    table = Table(catalog, CampaignState(), rng=random.Random(5))
    table.do(StartCampaign(name="demo", mode="single", seed=11,
                           seats=[Seat(trouper=t) for t in ("aurel", "zora")]))
    table.do(SetupNight(nemesis="lucilla", location=catalog.locations_in("catacombs")[0].id,
                        minions=[m.id for m in catalog.all("minions")[:2]], difficulty=1))
    grew = 0
    while grew < 2 or len(table.log) < 12:  # until a step added to the night log
        before = len(table.state.night.log)
        step(table)
        grew += len(table.state.night.log) > before
        if len(table.state.night.log) > before and len(table.log) >= 12:
            break
    write_today(saves_dir, "demo", table.log, catalog)
    honest = tmp_path / "honest.json"
    assert blood(saves_dir, "campaign", "export", str(honest))[0] == 0
    doc = json.loads(honest.read_text())
    last = doc["actions"][-1]
    splice = next(op for op in last["delta"] if op["p"] == ["night", "log"] and "s" in op)
    if forge == "edit an earlier entry":
        last["delta"].append({"p": ["night", "log", 0, "turn"], "v": 99})
    elif forge == "add an entry":
        splice["v"] = [*splice["v"], splice["v"][-1]]
    else:
        splice["v"] = splice["v"][:-1]
    state: Any = {}
    from blood_companion.store import delta as dl

    for s in doc["actions"]:
        state = dl.patch(state, s["delta"])
    last["state_hash"] = doc["state_hash"] = hash_text(canon(state))
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    code, _, err = blood(saves_dir, "campaign", "import", str(forged), "--name", "forged")
    assert code == 1 and "does not give the state recorded" in err, err
    code, _, err = blood(saves_dir, "campaign", "import", str(honest), "--name", "honest")
    assert code == 0, err
    path = saves_dir / "honest.blood.db"
    n = len(doc["actions"])
    _sql(path, "UPDATE actions SET delta = ?, state_hash = ? WHERE step = ?",
         canon(last["delta"]), last["state_hash"], n)
    _sql(path, "UPDATE snapshots SET state = ?, state_hash = ? WHERE step = ?",
         canon(state), last["state_hash"], n)
    with CampaignStore.open(saves_dir, "honest", catalog) as store:
        report = store.verify()
    assert not report.ok and f"step {n}" in "; ".join(report.problems)


def test_40_1_a_save_replaced_while_a_writer_opens_it_is_not_called_damaged(
    new_store: Any, saves_dir: Path, catalog: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interleaving behind the race above: a writer connects to the save, and recover moves
    the recovered (smaller) file into place before the writer checks the file's size. The
    writer must not call the save truncated: it records its step on the new file. Before, it
    compared the new file's size with the old file's page count and said "damaged"."""
    import os

    from blood_companion.store import campaign_store

    path = _played(new_store, saves_dir, 120)
    with CampaignStore.open(saves_dir, "demo", catalog) as store:
        store.backup("a copy")
    small = new_store("small")
    small.close()
    smaller = saves_dir / "small.blood.db"
    assert smaller.stat().st_size < path.stat().st_size
    real = campaign_store._connect_file
    moved: list[bool] = []

    def connect_then_replace(p: Path, timeout: float) -> Any:
        out = real(p, timeout)
        if not moved and p == path:
            moved.append(True)
            os.replace(smaller, path)  # what recover does under its lock
        return out

    monkeypatch.setattr(campaign_store, "_connect_file", connect_then_replace)
    with CampaignStore.open(saves_dir, "demo", catalog) as writer:
        writer.record(AdjustWagon(coins=1, reason="after the move"))
    with CampaignStore.open(saves_dir, "demo", catalog) as again:
        assert again.log()[-1].data.get("reason") == "after the move"
        assert again.head == 2
