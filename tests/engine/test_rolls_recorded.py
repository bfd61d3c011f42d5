"""A Test recorded in the campaign: the record must match the Trouper, Insanity moves."""

from __future__ import annotations

import pytest

from blood_companion.engine.campaign import Seat, StartCampaign
from blood_companion.engine.chance import Chance
from blood_companion.engine.dice import DiceBox, parse_faces
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply, replay
from blood_companion.engine.rolls.procedure import (
    confirm_test,
    prepare_test,
    reroll_at_best,
    roll_test,
)
from blood_companion.engine.rolls.recorded import TakeTest, setup_for_test


@pytest.fixture()
def start(catalog):  # type: ignore[no-untyped-def]
    return replay([StartCampaign(name="t", seed=4, seats=[Seat(trouper="aurel")])], catalog)


def _take(state, catalog, faces: str, target: int = 4, trait: str = "strength"):  # type: ignore[no-untyped-def]
    _, setup = setup_for_test(state, catalog, "aurel", target=target, trait=trait)
    box = DiceBox.from_models(catalog.dice)
    ts = prepare_test(setup, box)
    ts = roll_test(ts, box, faces=parse_faces(faces, ts.pool, box))
    return TakeTest(trouper="aurel", trait=trait, result=confirm_test(ts))


def test_failure_moves_the_insanity_cube(start, catalog) -> None:  # type: ignore[no-untyped-def]
    action = _take(start, catalog, "x 0 0")
    assert not action.result.success
    after = apply(start, action, catalog, 1)
    assert after.troupers[0].insanity == 1
    ok = _take(after, catalog, "3 2 2", target=4)
    assert ok.result.success
    assert apply(after, ok, catalog, 2).troupers[0].insanity == 1


def test_cube_stops_at_the_last_space(start, catalog) -> None:  # type: ignore[no-untyped-def]
    last = len(catalog.insanity.spaces) - 1
    t = start.troupers[0].model_copy(update={"insanity": last})
    state = start.model_copy(update={"troupers": [t]})
    action = _take(state, catalog, "x 0 0", target=9)
    assert apply(state, action, catalog, 1).troupers[0].insanity == last


def test_record_must_match_the_trouper_now(start, catalog) -> None:  # type: ignore[no-untyped-def]
    action = _take(start, catalog, "1 1 1")
    tired = start.model_copy(
        update={"troupers": [start.troupers[0].model_copy(update={"exhausted": True})]}
    )
    with pytest.raises(RuleError, match="does not match"):
        apply(tired, action, catalog, 1)


def test_tampered_record_is_refused(start, catalog) -> None:  # type: ignore[no-untyped-def]
    action = _take(start, catalog, "x 0 0")
    forged = action.model_copy(
        update={"result": action.result.model_copy(update={"total": 9, "success": True})}
    )
    with pytest.raises(RuleError, match="not consistent"):
        apply(start, forged, catalog, 1)


def test_exhausted_trouper_rolls_three_red(start, catalog) -> None:  # type: ignore[no-untyped-def]
    tired = start.model_copy(
        update={"troupers": [start.troupers[0].model_copy(update={"exhausted": True})]}
    )
    _, setup = setup_for_test(tired, catalog, "aurel", target=2, trait="strength")
    box = DiceBox.from_models(catalog.dice)
    rng = Chance.fresh(1, 0)  # the Test as the night takes it: rolled, re-rolled at best
    rolled = roll_test(prepare_test(setup, box), box, rng=rng)
    result = confirm_test(reroll_at_best(rolled, box, rng))
    assert result.pool == ("R", "R", "R")
    action = TakeTest(trouper="aurel", trait="strength", result=result)
    apply(tired, action, catalog, 1)  # accepted


def test_unknown_trouper_and_trait(start, catalog) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError, match="no Trouper 'bob'"):
        setup_for_test(start, catalog, "bob", target=3, trait="strength")
    with pytest.raises(RuleError, match="no Trait 'charm'"):
        setup_for_test(start, catalog, "aurel", target=3, trait="charm")
