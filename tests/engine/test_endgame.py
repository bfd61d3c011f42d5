"""End of the Night: rewards, history, the Roguelite loop and Vlad's reset."""

from __future__ import annotations

import pytest

from blood_companion.engine import words
from blood_companion.engine.actions import Action
from blood_companion.engine.campaign import Seat, StartCampaign
from blood_companion.engine.chance import Chance
from blood_companion.engine.endgame import (
    EndNight,
    FinishGame,
    RollLoot,
    TakeAdvancedTactic,
    WeakenVlad,
    rewards_next,
)
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply, replay
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
        Chance.fresh(11, 1),
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
    rw = state.rewards
    assert rw is not None and rw.vlad and rw.result == "won"
    # nothing is owed: the box is about to return to its starting state
    assert (rw.vlad_cards, rw.advanced_tactics, rw.loot, rw.trophies) == (0, 0, [], {})
    assert "Vlad is defeated" in rewards_next(state)
    state = run(state, catalog, FinishGame())
    assert state.vlad_defeats == 1
    assert state.vlad_weakened == [] and state.wagon.total() == 0
    assert state.location_trophies == {} and state.nemesis_trophies == {}
    t = state.troupers[0]
    assert t.bites == 0 and t.reserve_cards == []
    assert t.deck == [c.id for c in catalog.starting_tactics_for("aurel")]
    assert [h.result for h in state.history] == ["won"]
    assert state.part == "day" and state.game == 2


def test_vlad_night_lost_is_an_ordinary_defeat(catalog) -> None:  # type: ignore[no-untyped-def]
    state = run(finished_night(catalog, "lost", nemesis="vlad"), catalog, EndNight())
    assert state.rewards is not None and len(state.rewards.loot) == 1
    any_ = state.rewards.loot[0].resource == "any"
    state = run(state, catalog, RollLoot(resource="coins" if any_ else None), first=6)
    state = run(state, catalog, FinishGame(), first=7)
    assert state.vlad_defeats == 0 and state.history[-1].rewards["box_reset"] is False


def test_vlad_cards_capped_by_the_zone(catalog) -> None:  # type: ignore[no-untyped-def]
    state = finished_night(catalog, "won", level=3)
    zone = [v.id for v in catalog.vlad_reactions_in("garden")]
    state = state.model_copy(update={"vlad_weakened": zone[:-1]})
    state = run(state, catalog, EndNight())
    assert state.rewards is not None and state.rewards.vlad_cards == 1
    # a name or a unique prefix names the card too
    card = catalog.get("vlad_reactions", zone[-1])
    after = run(state, catalog, WeakenVlad(cards=[card.name.lower()]))
    assert after.vlad_weakened == zone
    with pytest.raises(RuleError, match="lets you weaken 0 more"):
        run(after, catalog, WeakenVlad(cards=[zone[0]]))


def _won_and_taken(catalog, state: CampaignState) -> CampaignState:  # type: ignore[no-untyped-def]
    """Take every reward of a won night (first Vlad cards, tops of alchemy, digital loot)."""
    state = run(state, catalog, EndNight(), first=5)
    i = 6
    rw = state.rewards
    assert rw is not None
    if rw.vlad_cards:
        left = [v.id for v in catalog.vlad_reactions_in(rw.zone) if v.id not in state.vlad_weakened]
        state = run(state, catalog, WeakenVlad(cards=left[: rw.vlad_cards]), first=i)
        i += 1
    who = [t.trouper for t in state.troupers]
    for k in range(rw.advanced_tactics):
        state = run(state, catalog, TakeAdvancedTactic(art="alchemy", trouper=who[k % 2]), first=i)
        i += 1
    while state.rewards is not None and state.rewards.loot:
        any_ = state.rewards.loot[0].resource == "any"
        state = run(state, catalog, RollLoot(resource="jewels" if any_ else None), first=i)
        i += 1
    return run(state, catalog, FinishGame(), first=i)


def test_history_totals_and_summary(catalog) -> None:  # type: ignore[no-untyped-def]
    from blood_companion.engine.history import campaign_totals, finished_summary, history_rows

    night = finished_night(catalog, "won", level=2)
    col = column(catalog, night)
    state = _won_and_taken(catalog, night)
    summary = finished_summary(state)
    assert summary["game"] == 1 and summary["next_game"] == 2 and summary["result"] == "won"
    assert not summary["box_reset"]
    assert summary["wagon_end"] == state.wagon.as_dict()
    assert sum(summary["wagon_delta"].values()) == sum(summary["earned"].values())
    assert sum(len(v) for v in summary["reserve"].values()) == col.advanced_tactics + 2
    assert len(summary["vlad_weakened"]) == col.vlad_cards
    assert summary["carried"]["vlad_weakened"] == state.vlad_weakened
    rows = history_rows(state)
    assert len(rows) == 1 and rows[0]["result"] == "won" and rows[0]["nemesis"] == "lucilla"
    assert rows[0]["difficulty"] == 2 and rows[0]["cycle"] == 1 and not rows[0]["pending"]
    totals = campaign_totals(state)
    assert totals["by_nemesis"] == {"lucilla": {"won": 1, "lost": 0}}
    assert totals["vlad_cards_weakened"] == col.vlad_cards == totals["vlad_weakened_now"]
    assert totals["resources_earned"] == state.wagon.total()
    assert totals["advanced_tactics_won"] == col.advanced_tactics + 2
    # a game at its End of the Night shows what was taken so far, marked pending
    ended = run(finished_night(catalog, "lost"), catalog, EndNight())
    assert history_rows(ended)[-1]["pending"] is True
    assert campaign_totals(ended)["lost"] == 1
    assert finished_summary(ended) == {}


def test_vlad_night_uses_each_cards_current_side(catalog) -> None:  # type: ignore[no-untyped-def]
    """Rulebook "Reaction Card - Vlad": a Weakened card shows (and resolves) its Weakened face."""

    from blood_companion.engine import bookkeeping as fx
    from blood_companion.engine.night import enemy as ai
    from blood_companion.engine.night_state import EnemyJob

    weak = catalog.get("vlad_reactions", "vlad-r03")  # two summons Enhanced, one Weakened
    assert len(weak.enhanced.effects) != len(weak.weakened.effects)
    for turned in (False, True):
        state = finished_night(catalog, "won", nemesis="vlad")
        state = state.model_copy(
            update={"vlad_weakened": ["vlad-r03"] if turned else [], "night": None}
        )
        state = setup_night(
            state,
            catalog,
            Chance.fresh(11, 2),
            nemesis="vlad",
            location=catalog.locations_in("catacombs")[0].id,
            minions=[m.id for m in catalog.all("minions")[:2]],
            difficulty=1,
        )
        night = fx.night_of(state)
        assert sorted(night.reaction_deck) == sorted(v.id for v in catalog.all("vlad_reactions"))
        order = ["vlad-r03"] + [c for c in night.reaction_deck if c != "vlad-r03"]
        state = fx.with_night(state, reaction_deck=order)
        state = fx.reveal_reaction(state, catalog, Chance.fresh(0, 0))
        face = weak.weakened if turned else weak.enhanced
        text = words.render(fx.night_of(state).log[-1], catalog)
        assert text.startswith(f"Alert: the Nemesis reveals {face.name}")
        job = EnemyJob(source="reaction", card="vlad-r03", label=face.name, slot=0)
        assert len(ai.job_effects(state, catalog, job)) == len(face.effects)


def test_a_finished_night_must_be_closed_before_another(catalog) -> None:  # type: ignore[no-untyped-def]
    from blood_companion.engine.night import SetupNight

    state = finished_night(catalog, "won")
    again = SetupNight(
        nemesis="lucilla",
        location=catalog.locations_in("garden")[0].id,
        minions=[m.id for m in catalog.all("minions")[:2]],
        difficulty=1,
    )
    with pytest.raises(RuleError, match="close it before setting up another"):
        run(state, catalog, again)
