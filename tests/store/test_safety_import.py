"""Issue 24, item 7: `campaign import` re-validates every step, step 1 included, and refuses
states that do not rebuild, each with a one-line reason and nothing written.

The forgeries are careful ones: after changing a state the forger recomputes every later delta
and hash, so only the rules can tell. Figures: forged states accepted 0 (every case below).
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blood_companion.engine.campaign import AdjustWagon
from blood_companion.store import CampaignStore, ImportRefused
from blood_companion.store import delta as dl
from blood_companion.store.docs import canon, hash_text
from blood_companion.store.migrations import LegacyStep, rebuild_steps
from blood_companion.store.transfer import import_campaign

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "saves"


def _states(doc: dict[str, Any]) -> list[Any]:
    out, raw = [], None
    for s in doc["actions"]:
        raw = dl.patch(raw if raw is not None else {}, s["delta"])
        out.append(raw)
    return out


def _reseal(doc: dict[str, Any], states: list[Any]) -> dict[str, Any]:
    """The export with `states` as its steps' states: deltas and hashes recomputed."""
    doc = copy.deepcopy(doc)
    prev = None
    for s, state in zip(doc["actions"], states, strict=True):
        s["delta"] = [{"p": [], "v": state}] if prev is None else dl.diff(prev, state)
        s["state_hash"] = hash_text(canon(state))
        prev = state
    doc["state_hash"] = doc["actions"][doc["head"] - 1]["state_hash"]
    doc["state"] = states[doc["head"] - 1]
    return doc


def _coins(states: list[Any], first: int, coins: int = 99_999) -> list[Any]:
    states = copy.deepcopy(states)
    for s in states[first - 1:]:
        s["wagon"]["coins"] = coins
    return states


def _export(store: CampaignStore) -> dict[str, Any]:
    return json.loads(json.dumps(store.export_doc()))


@pytest.fixture()
def played(new_store: Callable[..., CampaignStore]) -> dict[str, Any]:
    store = new_store("src")
    for i in range(4):
        store.record(AdjustWagon(coins=1, reason=f"w{i}"))
    return _export(store)


def _refused(saves_dir: Path, tmp_path: Path, doc: dict[str, Any], catalog: Any,
             name: str = "dst") -> str:
    file = tmp_path / "forged.json"
    file.write_text(json.dumps(doc))
    with pytest.raises(ImportRefused) as err:
        import_campaign(saves_dir, file, catalog, name=name)
    assert not (saves_dir / f"{name}.blood.db").exists()  # nothing written
    assert "\n" not in err.value.message  # a one-line reason
    return err.value.message


def test_24_7_the_honest_export_imports(played: dict[str, Any], saves_dir: Path,
                                        tmp_path: Path, catalog: Any) -> None:
    file = tmp_path / "ok.json"
    file.write_text(json.dumps(_reseal(played, _states(played))))
    assert import_campaign(saves_dir, file, catalog, name="dst") == "dst"


def test_24_7_a_final_step_marked_inexact_is_still_replayed(
    played: dict[str, Any], saves_dir: Path, tmp_path: Path, catalog: Any
) -> None:
    doc = _reseal(played, _coins(_states(played), 5))
    doc["actions"][-1]["exact"] = False
    assert "replaying step 5" in _refused(saves_dir, tmp_path, doc, catalog)


@pytest.mark.parametrize("claim", [{"app": "0.1.9"}, {"data": "0123456789abcdef"},
                                   {"app": "0.1.0", "data": "x"}])
def test_24_7_a_step_claiming_another_app_or_data_pack_is_checked(
    claim: dict[str, str], played: dict[str, Any], saves_dir: Path, tmp_path: Path,
    catalog: Any
) -> None:
    doc = _reseal(played, _coins(_states(played), 4))
    for s in doc["actions"][3:]:
        s.update(claim)
    assert "step 4" in _refused(saves_dir, tmp_path, doc, catalog)


def test_24_7_a_forged_first_step_is_refused(played: dict[str, Any], saves_dir: Path,
                                             tmp_path: Path, catalog: Any) -> None:
    doc = _reseal(played, _coins(_states(played), 1, coins=50))
    assert "step 1" in _refused(saves_dir, tmp_path, doc, catalog)


def test_24_7_an_unreadable_intermediate_state_is_refused(
    played: dict[str, Any], saves_dir: Path, tmp_path: Path, catalog: Any
) -> None:
    states = _states(played)
    states[2] = copy.deepcopy(states[2])
    states[2]["wagon"] = "not a wagon"
    msg = _refused(saves_dir, tmp_path, _reseal(played, states), catalog)
    assert "step 3" in msg


def test_24_7_a_delta_path_of_the_wrong_type_is_refused(
    played: dict[str, Any], saves_dir: Path, tmp_path: Path, catalog: Any
) -> None:
    doc = copy.deepcopy(played)
    doc["actions"][2]["delta"] = [{"p": [True], "v": 1}]
    assert "step 3" in _refused(saves_dir, tmp_path, doc, catalog)


def test_24_7_a_day_end_at_night_is_refused(saves_dir: Path, tmp_path: Path,
                                            catalog: Any) -> None:
    saves_dir.mkdir(exist_ok=True)
    shutil.copy(GOLDEN / "v0.2.0" / "night.blood.db", saves_dir / "night.blood.db")
    with CampaignStore.open(saves_dir, "night", catalog) as store:
        assert store.state.part == "night"
        doc = _export(store)
    last = doc["actions"][doc["head"] - 1]
    doc["actions"] = doc["actions"][: doc["head"]]
    doc["abandoned"] = []
    doc["actions"].append({**last, "step": doc["head"] + 1, "action": {"type": "day_end"},
                           "chance": [], "delta": [], "exact": False})
    doc["head"] += 1
    doc["state_hash"] = last["state_hash"]
    assert "refused by the rules" in _refused(saves_dir, tmp_path, doc, catalog)


def _v1(played: dict[str, Any], catalog: Any) -> dict[str, Any]:
    """A format-1 (app 0.1.0) export of the same log, its head state as 0.1.0 rebuilt it."""
    steps = [LegacyStep(s["action"]["type"], json.dumps(s["action"]), None, "")
             for s in played["actions"]]
    head = rebuild_steps(steps, {}, catalog)[-1].doc
    return {
        "format": "blood-companion-campaign", "format_version": 1, "name": "old",
        "head": len(steps), "state": head,
        "actions": [{"step": s["step"], "action": s["action"]} for s in played["actions"]],
    }


def test_24_7_a_format_1_export_with_a_forged_kept_head_is_refused(
    played: dict[str, Any], saves_dir: Path, tmp_path: Path, catalog: Any
) -> None:
    honest = _v1(played, catalog)
    file = tmp_path / "v1.json"
    file.write_text(json.dumps(honest))
    assert import_campaign(saves_dir, file, catalog, name="old-ok") == "old-ok"
    forged = copy.deepcopy(honest)
    forged["state"]["wagon"]["coins"] = 99_999
    assert "kept at the head" in _refused(saves_dir, tmp_path, forged, catalog, name="old")
    forged["actions"][-1]["state_hash"] = hash_text(canon(forged["state"]))
    assert "kept at the head" in _refused(saves_dir, tmp_path, forged, catalog, name="old")


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(step=st.integers(1, 5), coins=st.integers(0, 10**6),
       mark=st.sampled_from(["none", "inexact", "other-app", "other-data"]))
def test_24_7_no_forged_wagon_is_accepted(step: int, coins: int, mark: str,
                                          played: dict[str, Any], saves_dir: Path,
                                          tmp_path: Path, catalog: Any) -> None:
    """Hypothesis: any step's Wagon changed (and everything resealed), whatever the step
    claims about itself: refused unless the change is no change."""
    states = _states(played)
    if states[step - 1]["wagon"]["coins"] == coins:
        return
    doc = _reseal(played, _coins(states, step, coins))
    s = doc["actions"][step - 1]
    if mark == "inexact":
        s["exact"] = False
    elif mark == "other-app":
        s["app"] = "0.0.1"
    elif mark == "other-data":
        s["data"] = "f" * 16
    _refused(saves_dir, tmp_path, doc, catalog)


@pytest.mark.parametrize("step", ["first", "last"])
def test_24_7_a_forged_wagon_claiming_an_earlier_release_is_refused(
    step: str, saves_dir: Path, tmp_path: Path, catalog: Any
) -> None:
    """A 0.2.0 step that today's rules replay differently is kept as recorded, but never one
    whose Wagon (or trophies, or start) differs: a forger who labels the step 0.2.0 and
    reseals every hash is still refused."""
    saves_dir.mkdir(exist_ok=True)
    shutil.copy(GOLDEN / "v0.2.0" / "day.blood.db", saves_dir / "day.blood.db")
    with CampaignStore.open(saves_dir, "day", catalog) as store:
        doc = _export(store)
    doc["actions"] = doc["actions"][: doc["head"]]
    doc["abandoned"] = []
    assert {s["app"] for s in doc["actions"]} == {"0.2.0"}
    states = _states(doc)
    first = 1 if step == "first" else doc["head"]
    forged = _reseal(doc, _coins(states, first))
    assert "step" in _refused(saves_dir, tmp_path, forged, catalog)
