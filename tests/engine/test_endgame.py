"""End of the Night: rewards, history, the Roguelite loop and Vlad's reset."""

from __future__ import annotations

import pytest

from blood_companion.engine.actions import Action, apply, replay, rng_for
from blood_companion.engine.campaign import Seat, StartCampaign
from blood_companion.engine.endgame import (
    EndNight,
    FinishGame,
    RollLoot,
    TakeAdvancedTactic,
    WeakenVlad,
    rewards_next,
)
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_setup import setup_night
from blood_companion.engine.state import CampaignState, state_hash


def finished_night(
    catalog,
    result: str,
    *,
    nemesis: str = "lucilla",
    mode: str = "roguelite",
    troupers: tuple[str, ...] = ("aurel", "zora"),
    level: int = 2,
) -> CampaignState:  # type: ignore[no-untyped-def]
    start = StartCampaign(name="t", seed=11, mode=mode, seats=[Seat(trouper=t) for t in troupers])
    state = replay([start], catalog)
    location = catalog.locations_in("garden")[0].id
    minions = [m.id for m in catalog.all("minions")[:2]]
    state = setup_night(
        state,
        catalog,
        rng_for(11, 1),
        nemesis=nemesis,
        location=location,
        minions=minions,
        difficulty=level,
    )
    assert state.night is not None
    night = state.night.model_copy(update={"result": result, "phase": "over"})
    return state.model_copy(update={"night": night})


def run(state: CampaignState, catalog, *actions: Action, first: int = 5) -> CampaignState:  # type: ignore[no-untyped-def]
    for i, a in enumerate(actions):
        state = apply(state, a, catalog, first + i)
    return state


def column(catalog, state: CampaignState):  # type: ignore[no-untyped-def]
    assert state.night is not None
    loc = catalog.get("locations", state.night.location)
    return next(r for r in loc.rewards if r.level == state.night.difficulty)


def test_end_night_refused_while_night_goes_on(catalog) -> None:  # type: ignore[no-untyped-def]
    state = finished_night(catalog, "won")
    going = state.model_copy(update={"night": state.night.model_copy(update={"result": None})})
    with pytest.raises(RuleError, match="still going on"):
        run(going, catalog, EndNight())


def test_defeat_one_roll_into_the_wagon(catalog) -> None:  # type: ignore[no-untyped-def]
    state = finished_night(catalog, "lost")
    roll = column(catalog, state).defeat_roll
    state = run(state, catalog, EndNight())
    assert state.part == "end" and state.night is None
    assert state.history[-1].result == "lost"
    assert state.rewards is not None and len(state.rewards.loot) == 1
    assert "Roll" in rewards_next(state)
    n_dice = len(roll.dice.replace(" ", "")) if roll.dice[0].isalpha() else int(roll.dice[0])
    faces = " ".join(["1"] * n_dice)
    resource = "coins" if roll.resource == "any" else None
    after = run(state, catalog, RollLoot(faces=faces, resource=resource))
    gained = after.wagon.total() - state.wagon.total()
    assert gained == n_dice
    with pytest.raises(RuleError, match="no loot roll left"):
        run(after, catalog, RollLoot(faces=faces))
    nxt = run(after, catalog, FinishGame())
    assert (nxt.part, nxt.phase, nxt.game) == ("day", "recovery", 2)
    assert nxt.history[-1].rewards["resources"]


def test_victory_rewards(catalog) -> None:  # type: ignore[no-untyped-def]
    state = finished_night(catalog, "won", level=3)
    col = column(catalog, state)
    state = run(state, catalog, EndNight())
    rw = state.rewards
    assert rw is not None and rw.result == "won"
    assert rw.advanced_tactics == col.advanced_tactics + 2
    assert rw.vlad_cards == col.vlad_cards
    assert state.location_trophies.get("garden", 0) == min(col.location_trophies, 3)
    # Vlad cards: only this Zone's, only as many as the card says, never twice
    other = catalog.vlad_reactions_in("halls")[0].id
    with pytest.raises(RuleError, match="not a Vlad Reaction card of garden"):
        run(state, catalog, WeakenVlad(cards=[other]))
    mine = [v.id for v in catalog.vlad_reactions_in("garden")]
    if col.vlad_cards:
        state = run(state, catalog, WeakenVlad(cards=mine[: col.vlad_cards]))
        assert set(mine[: col.vlad_cards]) <= set(state.vlad_weakened)
        with pytest.raises(RuleError):
            run(state, catalog, WeakenVlad(cards=[mine[-1]]))
    # unfinished rewards block the end of the game unless forfeited
    with pytest.raises(RuleError, match="rewards are still waiting"):
        run(state, catalog, FinishGame())
    # Advanced Tactic cards come from the top of the chosen deck into the reserve
    top = state.advanced_decks["alchemy"][0]
    after = run(state, catalog, TakeAdvancedTactic(art="alchemy", trouper="zora"))
    assert after.troupers[1].reserve_cards == [top]
    assert after.advanced_decks["alchemy"][0] != top
    with pytest.raises(RuleError, match="unknown Art"):
        run(state, catalog, TakeAdvancedTactic(art="cooking", trouper="zora"))
    done = run(state, catalog, FinishGame(forfeit=True))
    assert done.part == "day" and done.game == 2


def test_any_resource_needs_a_choice(catalog) -> None:  # type: ignore[no-untyped-def]
    state = run(finished_night(catalog, "won"), catalog, EndNight())
    rw = state.rewards
    assert rw is not None
    from blood_companion.engine.reward_state import PendingLoot

    state = state.model_copy(
        update={"rewards": rw.model_copy(update={"loot": [PendingLoot(dice="2B", resource="any")]})}
    )
    with pytest.raises(RuleError, match="choose one with --resource"):
        run(state, catalog, RollLoot())
    after = run(state, catalog, RollLoot(resource="scrolls", faces="3 2"))
    assert after.wagon.scrolls == state.wagon.scrolls + 5


def test_digital_loot_replays_identically(catalog) -> None:  # type: ignore[no-untyped-def]
    state = run(finished_night(catalog, "lost"), catalog, EndNight())
    res = "jewels" if state.rewards and state.rewards.loot[0].resource == "any" else None
    a = run(state, catalog, RollLoot(resource=res), first=9)
    b = run(state, catalog, RollLoot(resource=res), first=9)
    assert state_hash(a) == state_hash(b)


def test_single_game_just_ends(catalog) -> None:  # type: ignore[no-untyped-def]
    state = run(finished_night(catalog, "won", mode="single"), catalog, EndNight())
    assert state.part == "over" and state.rewards is None
    assert state.history[-1].result == "won"
    with pytest.raises(RuleError):
        run(state, catalog, FinishGame())


def test_defeating_vlad_resets_the_box(catalog) -> None:  # type: ignore[no-untyped-def]
    state = finished_night(catalog, "won", nemesis="vlad")
    state = state.model_copy(
        update={
            "vlad_weakened": [catalog.vlad_reactions_in("garden")[0].id],
            "location_trophies": {"garden": 2},
            "nemesis_trophies": {"lucilla": 1},
        }
    )
    t0 = state.troupers[0]
    state = state.model_copy(
        update={
            "troupers": [
                t0.model_copy(update={"bites": 3, "reserve_cards": ["x"]}),
                *state.troupers[1:],
            ]
        }
    )
    state = run(state, catalog, EndNight())
    assert state.rewards is not None and state.rewards.vlad_cards == 0
    state = run(state, catalog, FinishGame(forfeit=True))
    assert state.vlad_defeats == 1
    assert state.vlad_weakened == [] and state.wagon.total() == 0
    assert state.location_trophies == {} and state.nemesis_trophies == {}
    t = state.troupers[0]
    assert t.bites == 0 and t.reserve_cards == []
    assert t.deck == [c.id for c in catalog.starting_tactics_for("aurel")]
    assert [h.result for h in state.history] == ["won"]
    assert state.part == "day" and state.game == 2
