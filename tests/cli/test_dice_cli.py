"""`blood roll` and `blood odds`: JSON contracts, human output, bad input."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest


def test_roll_json_contract(blood: Any) -> None:
    r = blood("roll", "2R B", "--seed", "7", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert doc["pool"] == ["R", "R", "B"]
    assert [f["die"] for f in doc["faces"]] == ["R", "R", "B"]
    for f in doc["faces"]:
        assert set(f) >= {"die", "triumphs", "defeats"}
    assert doc["triumphs"] == sum(f["triumphs"] for f in doc["faces"])
    assert doc["seed"] == 7 and doc["source"] == "digital"


def test_roll_is_reproducible_with_a_seed(blood: Any) -> None:
    a = blood("roll", "R G B", "--seed", "123", "--json").json()
    b = blood("roll", "R", "G", "B", "--seed", "123", "--json").json()
    assert a == b


def test_roll_without_seed_prints_the_seed_it_used(blood: Any) -> None:
    doc = blood("roll", "3B", "--json").json()
    again = blood("roll", "3B", "--seed", str(doc["seed"]), "--json").json()
    assert again["faces"] == doc["faces"]


def test_roll_physical_dice(blood: Any) -> None:
    r = blood("roll", "RGB", "--dice", "2 x 3", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert doc["source"] == "physical"
    assert [(f["triumphs"], f["defeats"]) for f in doc["faces"]] == [(2, 0), (0, 1), (3, 0)]
    assert doc["triumphs"] == 5
    assert blood("roll", "RGB", "--dice", "B3 R2 Gx", "--json").json()["faces"] == doc["faces"]


def test_roll_for_people(blood: Any) -> None:
    r = blood("roll", "R G B", "--seed", "3")
    assert r.code == 0
    assert "Triumphs: " in r.out and "seed 3" in r.out
    assert "placeholder" in r.out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["roll", "Q"], 1, "unknown die"),
        (["roll", "0R"], 1, "count of 0"),
        (["roll", "4R"], 1, "the box has 3"),
        (["roll", "999999B"], 1, "more than any roll"),
        (["roll", "RGB", "--dice", "3 1 1"], 1, "has no face"),
        (["roll", "RGB", "--dice", "1 1"], 1, "2 face"),
        (["roll", "RGB", "--dice", "1 1 1", "--seed", "2"], 2, "either --seed"),
        (["roll", "R", "--seed", "abc"], 2, ""),
        (["roll"], 2, ""),
    ],
)
def test_roll_bad_input(blood: Any, args: list[str], code: int, message: str) -> None:
    r = blood(*args)
    assert r.code == code
    assert "Traceback" not in r.err
    assert message in r.err
    assert r.out == ""


def test_roll_bad_input_json(blood: Any) -> None:
    r = blood("roll", "RGX", "--json")
    assert r.code == 1
    assert r.json()["ok"] is False and "unknown die" in r.json()["error"]


# --------------------------------------------------------------------------- odds


def test_odds_json_contract(blood: Any) -> None:
    r = blood("odds", "R G B", "--target", "4", "--reroll", "2", "--json")
    assert r.code == 0, r.err
    doc = r.json()
    assert doc["pool"] == ["R", "G", "B"]
    assert doc["target"] == 4 and doc["reroll"] == 2
    exact = Fraction(doc["exact"])
    assert doc["exact"] == f"{exact.numerator}/{exact.denominator}"
    assert doc["probability"] == pytest.approx(float(exact))
    assert isinstance(doc["probability"], float)
    dist = doc["distribution"]
    assert sum(Fraction(d["exact"]) for d in dist) == 1
    assert sum(Fraction(d["exact"]) for d in dist if d["triumphs"] >= 4) == exact


def test_odds_json_matches_the_engine(blood: Any, catalog: Any) -> None:
    from blood_companion.engine.dice import DiceBox
    from blood_companion.engine.odds import odds

    box = DiceBox.from_models(catalog.dice)
    for target in range(0, 9):
        doc = blood("odds", "RRB", "-t", str(target), "-r", "1", "-k", "1", "--json").json()
        p = odds(("R", "R", "B"), box, target, rerolls=1, bonus_triumphs=1).probability
        assert Fraction(doc["exact"]) == p


def test_odds_fraction_is_reduced_and_sure_things_are_1_over_1(blood: Any) -> None:
    assert blood("odds", "RGB", "-t", "0", "--json").json()["exact"] == "1/1"
    assert blood("odds", "R", "-t", "9", "--json").json()["exact"] == "0/1"


def test_odds_bonus_dice_placement(blood: Any) -> None:
    doc = blood("odds", "3R", "-t", "4", "--bonus-dice", "B", "--bonus-dice", "G", "--json").json()
    assert doc["pool"] == ["R", "R", "R"]
    assert sorted(doc["rolled_pool"]) == ["B", "G", "R"]
    assert len(doc["substitutions"]) == 2
    same = blood("odds", "3R", "-t", "4", "--bonus-dice", "B G", "--json").json()
    assert same["exact"] == doc["exact"]


def test_odds_for_a_trouper_trait(blood: Any, catalog: Any) -> None:
    trouper = catalog.all("troupers")[0]
    doc = blood(
        "odds", "--trouper", trouper.id, "--trait", "strength", "--target", "4", "--json"
    ).json()
    from blood_companion.engine.dice import parse_pool

    assert doc["pool"] == list(parse_pool(trouper.traits["strength"]))
    tired = blood(
        "odds", "--trouper", trouper.id, "--trait", "strength", "-t", "4", "--exhausted", "--json"
    ).json()
    assert tired["rolled_pool"] == ["R", "R", "R"]
    ko = blood(
        "odds",
        "--trouper",
        trouper.id,
        "--trait",
        "strength",
        "-t",
        "4",
        "--knocked-out",
        "--reroll",
        "2",
        "--insanity",
        "6",
        "--json",
    ).json()
    assert ko["exact"] == blood("odds", "3R", "-t", "4", "--json").json()["exact"]
    assert ko["insanity"] is None


def test_odds_with_insanity(blood: Any, catalog: Any) -> None:
    spaces = catalog.insanity.spaces
    last = str(len(spaces) - 1)
    base = Fraction(blood("odds", "RGB", "-t", "5", "--json").json()["exact"])
    mad = blood("odds", "RGB", "-t", "5", "--insanity", last, "--json").json()
    assert Fraction(mad["exact"]) > base
    assert mad["insanity"] is not None
    start = blood("odds", "RGB", "-t", "5", "--insanity", "0", "--json").json()
    if not any(s.bonus for s in spaces[:1]):
        assert Fraction(start["exact"]) == base
    one = blood(
        "odds", "RGB", "-t", "5", "--insanity", last, "--insanity-reading", "one-die", "--json"
    ).json()
    assert Fraction(one["exact"]) <= Fraction(mad["exact"])


def test_odds_for_people_shows_a_bar_chart(blood: Any) -> None:
    exact = blood("odds", "R G B", "--target", "4", "--reroll", "1", "--json").json()["exact"]
    r = blood("odds", "R G B", "--target", "4", "--reroll", "1")
    assert r.code == 0, r.err
    assert f"exactly {exact}" in r.out
    assert "█" in r.out
    assert "at least" in r.out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["odds", "RGB", "-t", "-1"], 1, "below 0"),
        (["odds", "RGB", "-t", "3", "--reroll", "-1"], 1, "Re-rolls"),
        (["odds", "RGB", "-t", "3", "--reroll", "1000"], 1, "Re-rolls"),
        (["odds", "RGB", "-t", "3", "--bonus-triumphs", "-3"], 1, "bonus Triumphs"),
        (["odds", "RGB", "-t", "3", "--bonus-dice", "Z"], 1, "unknown die"),
        (["odds", "RGX", "-t", "3"], 1, "unknown die"),
        (["odds", "4B", "-t", "3"], 1, "the box has 3"),
        (["odds", "2R 2B", "-t", "3", "--reroll", "1"], 1, "3 dice"),
        (["odds", "RGB", "-t", "3", "--insanity", "99"], 1, "Insanity cube"),
        (["odds", "RGB", "-t", "3", "--insanity", "-1"], 1, "Insanity cube"),
        (["odds", "RGB", "-t", "3", "--insanity-reading", "one-die"], 2, "--insanity N"),
        (["odds", "RGB", "-t", "3", "--insanity", "2", "--insanity-reading", "x"], 2, "one-die"),
        (["odds", "--trouper", "nobody", "--trait", "strength", "-t", "3"], 1, "no Trouper"),
        (["odds", "--trouper", "aurel", "-t", "3"], 2, "go together"),
        (["odds", "RGB", "--trouper", "aurel", "--trait", "strength", "-t", "3"], 2, "not both"),
        (["odds", "-t", "3"], 2, "POOL"),
        (["odds", "RGB"], 2, ""),
        (["odds", "RGB", "-t", "x"], 2, ""),
    ],
)
def test_odds_bad_input(blood: Any, args: list[str], code: int, message: str) -> None:
    r = blood(*args)
    assert r.code == code, r.err
    assert "Traceback" not in r.err
    assert message in r.err


def test_odds_bad_trait(blood: Any, catalog: Any) -> None:
    trouper = catalog.all("troupers")[0]
    r = blood("odds", "--trouper", trouper.id, "--trait", "charm", "-t", "3", "--json")
    assert r.code == 1
    assert "no Trait" in r.json()["error"]


def test_installed_blood_rolls_and_answers_odds(blood_proc: Any, tmp_path: Path) -> None:
    r = blood_proc("odds", "R G B", "--target", "4", "--reroll", "2", "--json", cwd=tmp_path)
    assert r.code == 0, r.err
    num, den = r.json()["exact"].split("/")
    assert 0 < int(num) < int(den)
    r = blood_proc("roll", "RGB", "--dice", "9 9 9", cwd=tmp_path)
    assert r.code == 1 and "Traceback" not in r.err


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["roll", "R", "--nope"], 2, "No such option: --nope"),
        (["roll"], 2, "Missing argument"),
        (["odds", "R"], 2, "Missing option '--target'"),
        (["odds", "R", "--target", "x"], 2, "valid integer"),
        (["odds", "R", "--target", "-1"], 1, "below 0"),
        (["roll", "R Q"], 1, "'Q'"),
        (["odds", "--trouper", "arl", "--trait", "strength", "-t", "1"], 1, "did you mean"),
        (["roll", "R", "--seed", "1", "--dice", "1"], 2, "either --seed"),
    ],
)
def test_roll_and_odds_refusals(blood: Any, args: list[str], code: int, words: str) -> None:
    r = blood(*args)
    assert r.code == code and words in r.err, (r.code, r.err)
    j = blood(*args, "--json")
    assert j.code == code and json.loads(j.out)["ok"] is False
