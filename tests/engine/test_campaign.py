"""Campaign-level actions: the table, the box's Trophy tokens, Single games, the Setup.

Tests named ``test_NN_...`` prove the numbered items 12-16 of issue 15 ("Day and campaign").
Every accepted action is checked for undo (replaying the log without it gives back the state
before it) and every refusal for leaving the state exactly as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
from recorder import Recorder

from blood_companion.engine.box import (
    NeedsDayPart,
    gain_trophies,
    require_single_game_setup,
    table_setup,
    trophy_cap,
)
from blood_companion.engine.campaign import (
    AddTrouper,
    AdjustTrophies,
    NextSingleGame,
    RetireTrouper,
    Seat,
    StartCampaign,
)
from blood_companion.engine.chance import Chance
from blood_companion.engine.day import Equip, Recover
from blood_companion.engine.day_state import DayState
from blood_companion.engine.endgame import EndNight, FinishGame
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply, replay
from blood_companion.engine.night_setup import setup_night
from blood_companion.engine.state import PLAYER_COLOURS, CampaignState, ItemSlot, state_hash


class Table(Recorder):
    """A campaign in memory, from its StartCampaign or from a given state."""

    def __init__(self, catalog: Any, start: StartCampaign | CampaignState) -> None:
        super().__init__(catalog, None if isinstance(start, StartCampaign) else start)
        if isinstance(start, StartCampaign):
            self.do(start)


def start(troupers: tuple[str, ...] = ("aurel", "zora"), mode: str = "roguelite") -> StartCampaign:
    return StartCampaign(
        name="t",
        mode=mode,  # type: ignore[arg-type]
        seed=11,
        seats=[Seat(trouper=t) for t in troupers],
    )


def finish_night(state: CampaignState, catalog: Any, result: str, step: int) -> CampaignState:
    """Lay a night out (as `night setup` does) and end it with `result`."""
    location = catalog.locations_in("garden")[0].id
    minions = [m.id for m in catalog.all("minions")[:2]]
    state = setup_night(
        state,
        catalog,
        Chance.fresh(11, step),
        nemesis="lucilla",
        location=location,
        minions=minions,
        difficulty=2,
    )
    assert state.night is not None
    night = state.night.model_copy(update={"result": result, "phase": "over"})
    return state.model_copy(update={"night": night})


# --------------------------------------------------------------------------- item 12


def _with_progress(table: Table) -> CampaignState:
    """Zora as a few games leave her: an Advanced card in the Reserve and one in the deck, an
    upgraded Item, a Location Item in the Reserve, two Bites, a night's Insanity."""
    st = table.state
    art = next(iter(st.advanced_decks))
    deck_card, reserve_card = st.advanced_decks[art][:2]
    zora = st.troupers[1]
    special_item = st.crafting[0]
    zora = zora.model_copy(
        update={
            "deck": [deck_card, *zora.deck[1:]],
            "reserve_cards": [zora.deck[0], reserve_card],
            "reserve_items": [special_item],
            "sleeves": [ItemSlot(item=zora.sleeves[0].item, advanced=True), *zora.sleeves[1:]],
            "bites": 2,
            "insanity": 3,
            "vigor_depleted": 2,
        }
    )
    return st.model_copy(
        update={
            "troupers": [st.troupers[0], zora],
            "advanced_decks": {**st.advanced_decks, art: st.advanced_decks[art][2:]},
            "crafting": st.crafting[1:],
        }
    )


def test_12_a_retired_trouper_is_set_aside_with_everything_and_rejoins_with_it(
    catalog: Any,
) -> None:
    table = Table(catalog, start())
    table = Table(catalog, _with_progress(table))
    zora = table.state.troupers[1]
    decks = {a: list(d) for a, d in table.state.advanced_decks.items()}

    table.do(RetireTrouper(trouper="zora"))
    st = table.state
    assert [t.trouper for t in st.troupers] == ["aurel"]
    (away,) = st.set_aside
    # Everything the Trouper owns stays theirs ("Roguelite Mode": the status of the materials).
    assert away.deck == zora.deck and away.reserve_cards == zora.reserve_cards
    assert away.reserve_items == zora.reserve_items and away.sleeves == zora.sleeves
    assert away.bites == 2 and away.colour == zora.colour
    # The board is put away as a Recovery leaves it: Insanity leftmost, Vigor available.
    assert away.insanity == 0 and away.vigor_depleted == 0
    # Her Advanced cards neither vanish nor go back to the Village Card's decks.
    assert st.advanced_decks == decks
    assert zora.deck[0] in away.deck and zora.reserve_cards[1] in away.reserve_cards

    table.do(AddTrouper(trouper="petru"))
    table.do(RetireTrouper(trouper="petru"))
    table.do(AddTrouper(trouper="zora"))
    st = table.state
    assert [t.trouper for t in st.troupers] == ["aurel", "zora"]
    back = st.troupers[1]
    assert back.seat == 1 and back.colour == zora.colour
    assert back.model_copy(update={"insanity": 3, "vigor_depleted": 2}) == zora
    assert [t.trouper for t in st.set_aside] == ["petru"]
    # Petru comes back as he left: the Starting deck he was given.
    table.do(AddTrouper(trouper="petru"))
    assert table.state.troupers[2].deck == [c.id for c in catalog.starting_tactics_for("petru")]
    assert table.state.set_aside == []


def test_12_the_state_document_keeps_its_shape_until_someone_leaves(catalog: Any) -> None:
    """A campaign nobody left dumps exactly as before `set_aside` existed (old hashes hold); a
    set-aside Trouper is in the document and reads back."""
    state = replay([start()], catalog)
    assert "set_aside" not in state.model_dump(mode="json")
    state = apply(state, RetireTrouper(trouper="zora"), catalog, 1)
    doc = state.model_dump(mode="json")
    assert [t["trouper"] for t in doc["set_aside"]] == ["zora"]
    assert CampaignState.model_validate(doc) == state


def test_12_a_rejoining_trouper_takes_a_free_colour_when_theirs_is_taken(catalog: Any) -> None:
    table = Table(catalog, start())
    zora_colour = table.state.troupers[1].colour
    table.do(RetireTrouper(trouper="zora"))
    table.do(AddTrouper(trouper="petru", colour=zora_colour))
    table.do(AddTrouper(trouper="zora"))
    colours = [t.colour for t in table.state.troupers]
    assert len(set(colours)) == 3 and colours[2] != zora_colour
    table.refuse(AddTrouper(trouper="ioana", colour="purple"), "unknown colour")


def test_12_leaving_during_equipping_keeps_the_others_equipment(catalog: Any) -> None:
    table = Table(catalog, start(("aurel", "zora", "petru")))
    st = table.state
    day = (st.day or DayState()).model_copy(update={"step": "equipping"})
    table = Table(catalog, st.model_copy(update={"day": day, "phase": "equipping"}))
    for who in ("aurel", "petru"):
        t = table.state.troupers[table.state.trouper_index(who)]
        firsts: dict[str, str] = {}
        for s in t.sleeves:
            item = catalog.item(s.item)
            firsts.setdefault(item.category, s.item)
        table.do(Equip(trouper=who, items=list(firsts.values())))
    petru_gear = table.state.day.equipped[2]  # type: ignore[union-attr]
    table.do(RetireTrouper(trouper="aurel"))
    day = table.state.day
    assert day is not None and day.equipped == {1: petru_gear}


def test_12_vlads_defeat_returns_set_aside_troupers_to_the_box(catalog: Any) -> None:
    table = Table(catalog, start())
    table = Table(catalog, _with_progress(table))
    table.do(RetireTrouper(trouper="zora"))
    state = finish_night(table.state.model_copy(update={"part": "night"}), catalog, "won", 3)
    night = state.night
    assert night is not None
    state = state.model_copy(update={"night": night.model_copy(update={"vlad": True})})
    state = apply(state, EndNight(), catalog, 5)
    state = apply(state, FinishGame(), catalog, 6)
    assert state.vlad_defeats == 1 and state.set_aside == []
    state = apply(state, AddTrouper(trouper="zora"), catalog, 7)
    zora = state.troupers[1]
    assert zora.bites == 0 and zora.reserve_cards == [] and not zora.sleeves[0].advanced


# --------------------------------------------------------------------------- item 13


def test_13_trophies_never_pass_the_box(catalog: Any) -> None:
    state = replay([start()], catalog)
    assert trophy_cap(catalog, "location", "halls") == 3
    assert trophy_cap(catalog, "nemesis", "lucilla") == 3
    assert trophy_cap(catalog, "nemesis", "vlad") == 0  # 15 tokens for the five lieutenants
    state, got = gain_trophies(state, catalog, "location", "halls", 2)
    assert got == 2 and state.location_trophies == {"halls": 2}
    state, got = gain_trophies(state, catalog, "location", "halls", 2)
    assert got == 1 and state.location_trophies == {"halls": 3}
    same, got = gain_trophies(state, catalog, "location", "halls", 1)
    assert got == 0 and same is state


def test_13_an_event_reward_past_the_box_is_given_back_at_the_end_of_the_night(
    catalog: Any,
) -> None:
    """An Event reward that put a fourth Garden token on the table (engine/night.py's UseEvent
    adds them without the cap today): the End of the Night brings the holdings back to the box's
    three before reading the column, which then gives no Garden token."""
    state = replay([start()], catalog)
    state = finish_night(state.model_copy(update={"part": "night"}), catalog, "won", 1)
    state = state.model_copy(update={"location_trophies": {"garden": 4, "halls": 1}})
    state = apply(state, EndNight(), catalog, 5)
    assert state.location_trophies == {"garden": 3, "halls": 1}
    assert state.rewards is not None and "location:garden" not in state.rewards.trophies


def test_13_manual_correction_of_trophies(catalog: Any) -> None:
    table = Table(catalog, start())
    table.do(AdjustTrophies(changes={"halls": 2, "nemesis:lucilla": 1}, reason="Event forgotten"))
    assert table.state.location_trophies == {"halls": 2}
    assert table.state.nemesis_trophies == {"lucilla": 1}
    table.do(AdjustTrophies(changes={"location:halls": -2}))
    assert table.state.location_trophies == {}
    table.refuse(AdjustTrophies(changes={"halls": -1}), "cannot lose 1")
    table.refuse(AdjustTrophies(changes={"garden": 4}), "the box holds 3")
    table.refuse(AdjustTrophies(changes={"vlad": 1}), "the box holds 0")
    table.refuse(AdjustTrophies(changes={"moon": 1}), "unknown Trophy token")
    table.refuse(AdjustTrophies(changes={"halls": 0}), "nothing to change")
    table.refuse(AdjustTrophies(changes={"halls": 1, "location:halls": 1}), "named twice")
    step = AdjustTrophies(changes={"halls": 1, "lucilla": -1}, reason="slip")
    assert step.describe() == "Trophies adjusted: +1 halls, -1 lucilla (slip)"


# --------------------------------------------------------------------------- item 14


def test_14_a_direct_night_setup_is_refused_in_roguelite(catalog: Any) -> None:
    state = replay([start()], catalog)
    before = state_hash(state)
    with pytest.raises(NeedsDayPart, match="prepared by the Day Part") as info:
        require_single_game_setup(state, catalog)
    assert "Recovery" in info.value.message and "Single Game mode" in info.value.message
    assert state_hash(state) == before
    single = replay([start(mode="single")], catalog)
    assert require_single_game_setup(single, catalog) is single


def test_14_setup_night_action_refuses_roguelite(catalog: Any) -> None:
    from blood_companion.engine.night import SetupNight

    state = replay([start()], catalog)
    action = SetupNight(
        nemesis="lucilla",
        location=catalog.locations_in("garden")[0].id,
        minions=[m.id for m in catalog.all("minions")[:2]],
        difficulty=1,
    )
    with pytest.raises(NeedsDayPart):
        apply(state, action, catalog, 1)


# --------------------------------------------------------------------------- item 15


def test_15_a_second_single_game_starts_from_the_box_and_is_numbered(catalog: Any) -> None:
    state = replay([start(mode="single")], catalog)
    state = finish_night(state.model_copy(update={"part": "night"}), catalog, "lost", 1)
    scarred = [t.model_copy(update={"bites": 2, "insanity": 4}) for t in state.troupers]
    state = state.model_copy(update={"troupers": scarred})
    state = apply(state, EndNight(), catalog, 2)
    assert state.part == "over" and [g.number for g in state.history] == [1]
    over = state

    table = Table(catalog, over)
    table.refuse(Recover(), "day part")
    table.do(NextSingleGame())
    st = table.state
    assert (st.game, st.part, st.phase) == (2, "day", "recovery")
    fresh = replay([start(mode="single")], catalog).troupers
    assert st.troupers == fresh  # no Bites, no Insanity: the box's starting state
    # The direct setup (SetupNight, once it calls the check) starts the same next game.
    assert state_hash(require_single_game_setup(over, catalog)) == state_hash(st)

    state = finish_night(st.model_copy(update={"part": "night"}), catalog, "won", 3)
    state = apply(state, EndNight(), catalog, 4)
    assert [g.number for g in state.history] == [1, 2]
    assert [g.result for g in state.history] == ["lost", "won"]


def test_15_a_roguelite_campaign_has_no_next_single_game(catalog: Any) -> None:
    table = Table(catalog, start())
    table.refuse(NextSingleGame(), "over part")


# --------------------------------------------------------------------------- item 16


def test_16_troupers_colours_and_leader_drawn_at_random_are_recorded(catalog: Any) -> None:
    drawn = StartCampaign(
        name="t",
        seed=5,
        seats=[Seat(trouper="aurel"), Seat(), Seat()],
        random_colours=True,
        random_leader=True,
    )
    chance = Chance.fresh(5, 0)
    state = apply(CampaignState(), drawn, catalog, 0, chance)
    ids = [t.trouper for t in state.troupers]
    assert ids[0] == "aurel" and len(set(ids)) == 3
    assert {t.colour for t in state.troupers} <= set(PLAYER_COLOURS)
    assert len({t.colour for t in state.troupers}) == 3
    assert 0 <= state.leader < 3
    labels = [o["l"] for o in chance.outcomes]
    assert {"setup:troupers", "setup:colours", "setup:leader"} <= set(labels)
    # Replay from the recorded outcomes gives the same table.
    again = apply(CampaignState(), drawn, catalog, 0, Chance.replay(chance.outcomes))
    assert state_hash(again) == state_hash(state)
    # The draws come after the Advanced decks' shuffles: the same decks as a named table.
    named = replay([StartCampaign(name="t", seed=5, seats=[Seat(trouper=t) for t in ids])], catalog)
    assert named.advanced_decks == state.advanced_decks
    # Over a few seeds the draws differ (they are not the first free ones in order).
    tables = set()
    for seed in range(12):
        st = replay([drawn.model_copy(update={"seed": seed})], catalog)
        tables.add((tuple(t.trouper for t in st.troupers), st.troupers[0].colour, st.leader))
    assert len(tables) > 3
    assert drawn.describe() == (
        "Started roguelite campaign 't' with aurel, 2 Troupers drawn at random "
        "(seed 5; colours and Leader drawn at random)"
    )


def test_16_random_draw_refusals(catalog: Any) -> None:
    too_many = StartCampaign(name="t", seed=1, seats=[Seat() for _ in range(5)])
    with pytest.raises(RuleError, match="1 to 4 Troupers"):
        replay([too_many], catalog)
    with pytest.raises(RuleError, match="unknown Trouper"):
        replay([StartCampaign(name="t", seed=1, seats=[Seat(trouper="nobody"), Seat()])], catalog)
    with pytest.raises(RuleError, match="unknown colour"):
        replay([StartCampaign(name="t", seed=1, seats=[Seat(colour="purple")])], catalog)


def test_16_the_setup_checklist_data(catalog: Any) -> None:
    start_ = StartCampaign(name="t", seed=3, seats=[Seat(trouper="zora"), Seat(trouper="petru")])
    plan = table_setup(replay([start_.model_copy(update={"leader": 1})], catalog), catalog)
    assert [(s["seat"], s["trouper"], s["leader"]) for s in plan["seats"]] == [
        (1, "zora", False),
        (2, "petru", True),
    ]
    assert plan["leader"] == "petru" and plan["village"] is True
    seat = plan["seats"][0]
    assert (seat["starting_tactics"], seat["trouper_items"], seat["vigor_tokens"]) == (12, 6, 6)
    assert plan["per_colour"]["trap_tokens"] == 8 and plan["per_colour"]["exhausted_tokens"] == 1
    assert len(plan["advanced_decks"]) == 6
    single = start_.model_copy(update={"mode": "single"})
    assert table_setup(replay([single], catalog), catalog)["village"] is False
