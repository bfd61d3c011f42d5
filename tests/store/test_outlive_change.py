"""Saves outlive change: transcribed cards, reworded log sentences and newer apps do not break
undo, redo, resume or verify of an existing campaign (issue "Saves that outlive every upgrade
and every transcription")."""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from night_bot import Table, step  # noqa: E402

from blood_companion.cli.entry import main  # noqa: E402
from blood_companion.content.loader import shipped_data_dir, validate_layers  # noqa: E402
from blood_companion.engine import words  # noqa: E402
from blood_companion.engine.campaign import AdjustWagon, Seat, StartCampaign  # noqa: E402
from blood_companion.engine.night import SetupNight  # noqa: E402
from blood_companion.engine.state import CampaignState  # noqa: E402
from blood_companion.engine.words.templates import Event  # noqa: E402
from blood_companion.store import CampaignStore, DamagedSave, schema  # noqa: E402
from blood_companion.store import delta as dl  # noqa: E402
from blood_companion.store.manage import recover_campaign  # noqa: E402


class StoreTable(Table):
    """The night bot recording each move in a save."""

    store: Any = None

    def do(self, action: Any) -> CampaignState:
        self.state = self.store.record(action)
        self.log.append(action)
        return self.state


def night_campaign(saves_dir: Path, catalog: Any, name: str = "night") -> CampaignStore:
    start = StartCampaign(
        name=name, mode="single", seed=3, seats=[Seat(trouper="aurel"), Seat(trouper="ioana")]
    )
    store = CampaignStore.create(saves_dir, name, start, catalog)
    loc = catalog.locations_in("catacombs")[0].id
    mins = [m.id for m in catalog.all("minions")[:2]]
    store.record(SetupNight(nemesis="lucilla", location=loc, minions=mins, difficulty=1))
    return store


def play(store: CampaignStore, catalog: Any, until: int, seed: int = 0) -> None:
    table = StoreTable(catalog, store.state, rng=random.Random(seed))
    table.store = store
    while store.head < until:
        assert store.state.night is not None and store.state.night.phase != "over"
        step(table)


def transcribed_overlay(folder: Path) -> Path:
    """The owner transcribed Lucilla's cards: other Fatigue numbers, one other name."""
    text = (shipped_data_dir() / "reactions" / "lucilla.yaml").read_text(encoding="utf-8")
    changed = text.replace("fatigue: {physical: 1}", "fatigue: {physical: 2, mind: 1}")
    changed = changed.replace("name: Wingbeat Descent", "name: Descent of a Thousand Wings")
    assert changed != text
    (folder / "reactions").mkdir(parents=True)
    (folder / "reactions" / "lucilla.yaml").write_text(changed, encoding="utf-8")
    return folder


def test_transcribed_cards_do_not_break_undo_redo_verify_or_play(
    saves_dir: Path, catalog: Any, tmp_path: Path
) -> None:
    store = night_campaign(saves_dir, catalog)
    play(store, catalog, 20)
    store.mark("twenty")
    play(store, catalog, 30)
    recorded = {s: store.state_at(s) for s in range(1, 31)}
    hashes = {e.step: e.state_hash for e in store.log()}
    store.close()

    owner = validate_layers([shipped_data_dir(), transcribed_overlay(tmp_path / "mine")])
    assert owner.fingerprint() != catalog.fingerprint()
    with CampaignStore.open(saves_dir, "night", owner) as store:
        notice = store.data_notice()
        assert notice and "your data changed since step 30" in notice
        assert "reactions/lucilla-r01" in notice and "new texts from now on" in notice
        assert store.data_notice() is None  # said once
        assert store.undo(10) == recorded[20]
        assert store.redo(10) == recorded[30]
        assert store.undo_to("twenty") == recorded[20] and store.state_hash == hashes[20]
        assert store.undo_to(30) == recorded[30]
        report = store.verify()
        assert report.ok and report.replayed == 0
        assert report.kept == [
            f"steps 1–30 recorded with app {store_app()} / data {catalog.fingerprint()}: "
            "kept as recorded"
        ]
        # the old log speaks with the new names
        revealed = [e for e in store.state.night.log if e.kind.startswith("reveal")]
        assert all("Wingbeat Descent" not in words.render(e, owner) for e in revealed)
        # and play goes on with the transcribed cards
        play(store, owner, 36, seed=1)
        report = store.verify()
        assert report.ok and report.replayed == 6
    code = main(
        [
            "--saves-dir",
            str(saves_dir),
            "--data-dir",
            str(tmp_path / "mine"),
            "--campaign",
            "night",
            "campaign",
            "verify",
        ]
    )
    assert code == 0


def store_app() -> str:
    from blood_companion import __version__

    return __version__


def test_a_reworded_log_sentence_breaks_nothing(
    saves_dir: Path, catalog: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    store = night_campaign(saves_dir, catalog)
    play(store, catalog, 25)
    head_hash = store.state_hash
    store.close()
    monkeypatch.setitem(words.EVENTS, "game_turn",
                        Event("turn", "The bell tolls: Game Turn {turn}"))
    base = ["--saves-dir", str(saves_dir), "--campaign", "night"]
    assert main([*base, "campaign", "undo", "5"]) == 0
    assert main([*base, "campaign", "redo", "5"]) == 0
    capsys.readouterr()
    assert main([*base, "campaign", "show", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["state_hash"] == head_hash
    assert main([*base, "night", "log"]) == 0
    out = capsys.readouterr().out
    assert "The bell tolls: Game Turn 1" in out
    assert main([*base, "campaign", "verify", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"]
    with CampaignStore.open(saves_dir, "night", catalog) as again:
        assert again.state_hash == head_hash


@settings(max_examples=25, deadline=None)
@given(moves=st.lists(st.integers(0, 3), min_size=1, max_size=40), data=st.data())
def test_undo_n_gives_the_state_shown_n_steps_before_and_redo_is_identity(
    moves: list[int], data: st.DataObject
) -> None:
    catalog = _catalog()
    with tempfile.TemporaryDirectory() as tmp:
        saves_dir = Path(tmp)
        start = StartCampaign(name="p", seed=1, seats=[Seat(trouper="zora")])
        store = CampaignStore.create(saves_dir, "p", start, catalog)
        shown = [store.state]
        for m in moves:
            shown.append(store.record(AdjustWagon(coins=m, reason="x")))
        n = data.draw(st.integers(1, len(moves)))
        assert store.undo(n) == shown[-1 - n]
        assert store.redo(n) == shown[-1]
        k = data.draw(st.integers(1, len(shown)))
        assert store.undo_to(k) == shown[k - 1]
        store.close()
        with CampaignStore.open(saves_dir, "p") as resumed:  # resume needs no data pack
            assert resumed.state == shown[k - 1]


@cache
def _catalog() -> Any:
    from blood_companion.content.loader import load_catalog

    return load_catalog()


json_values = st.recursive(
    st.none() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(json_values, json_values)
def test_a_delta_turns_one_document_into_the_other(a: Any, b: Any) -> None:
    ops = dl.diff(a, b)
    assert dl.patch(a, ops) == b
    assert json.loads(json.dumps(ops)) == ops  # a delta is plain JSON


def test_a_save_from_a_newer_app_is_refused_untouched(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    new_store().close()
    path = saves_dir / "tuesday.blood.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(DamagedSave) as info:
        CampaignStore.open(saves_dir, "tuesday", catalog)
    msg = info.value.message
    assert f"save schema version {schema.SCHEMA_VERSION + 1}" in msg
    assert f"version {store_app()}" in msg and f"reads up to {schema.SCHEMA_VERSION}" in msg
    assert path.read_bytes() == before


def test_newer_state_shape_is_refused_untouched(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    new_store().close()
    path = saves_dir / "tuesday.blood.db"
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'state_schema'")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(DamagedSave, match="state schema 99"):
        CampaignStore.open(saves_dir, "tuesday", catalog)
    assert path.read_bytes() == before


def test_a_damaged_delta_is_named_by_verify_and_recover_restores(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    store = new_store()
    for i in range(12):
        store.record(AdjustWagon(coins=1, reason=f"#{i}"))
    store.close()
    path = saves_dir / "tuesday.blood.db"
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE actions SET delta = replace(delta, '\"coins\"', '\"cions\"') WHERE step = 7"
    )
    conn.commit()
    conn.close()
    with CampaignStore.open(saves_dir, "tuesday", catalog) as again:  # the head is intact
        report = again.verify()
        assert not report.ok and report.problems[0].startswith("step 7")
        with pytest.raises(DamagedSave, match="step"):
            again.undo(5)  # to step 8: through the damaged change of step 7
    result = recover_campaign(saves_dir, "tuesday", catalog, force=True)
    assert result.log_length >= 1
    with CampaignStore.open(saves_dir, "tuesday", catalog) as restored:
        assert restored.verify().ok
