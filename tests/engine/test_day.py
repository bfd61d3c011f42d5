"""The Day Part as scenarios: seed + actions -> expected state ("Show Phase", "Dusk Phase").

Every accepted action is checked for undo (replaying the log without it gives back the state
before it, hash for hash) and every refusal for leaving the state exactly as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
from recorder import Recorder

from blood_companion.engine import day as d
from blood_companion.engine.campaign import AdjustWagon, Seat, StartCampaign
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import replay
from blood_companion.engine.state import GameRecord, state_hash

TROUPERS = ["aurel", "ioana", "petru", "zora"]


class Table(Recorder):
    """A campaign being played in memory: a log of actions and the state after each."""

    def __init__(self, catalog: Any, n: int = 2, mode: str = "roguelite", seed: int = 11) -> None:
        super().__init__(catalog)
        self.do(
            StartCampaign(
                name="t",
                mode=mode,  # type: ignore[arg-type]
                seed=seed,
                seats=[Seat(trouper=t) for t in TROUPERS[:n]],
            )
        )

    def edit(self, **update: Any) -> None:
        """Set up a table position the Night Part would produce (trophies, bites, history):
        restart the log from that state."""
        state = self.state.model_copy(update=update)
        self.log = []
        self.states = [state]
        self.base = state

    def trouper(self, who: str) -> Any:
        return self.state.troupers[self.state.trouper_index(who)]

    def step(self) -> str:
        assert self.state.day is not None
        return self.state.day.step


def rich(table: Table, n: int = 20) -> None:
    table.do(AdjustWagon(jewels=n, coins=n, trinkets=n, scrolls=n))


def walk_to(table: Table, step: str) -> None:
    """Play the Day with plain choices until `step`."""
    order = list(d.STEP_TITLES)
    target = order.index(step)
    while order.index(table.step()) < target:
        s = table.step()
        if s == "recovery":
            table.do(d.Recover())
        elif s in ("purchases", "zone"):
            table.do(d.ChooseZone(zone="catacombs"))
        elif s == "location":
            table.do(d.RollLocation())
        elif s == "minions":
            table.do(d.DrawMinions())
        elif s == "last_assault":
            table.do(d.LastAssault(face_vlad=False))
        elif s == "nemesis":
            table.do(d.DrawNemesis())
        elif s == "dusk_difficulty":
            table.do(d.ChooseDifficulty(level=2))
        elif s == "dusk_events":
            table.do(d.PlaceEvents())
        elif s == "equipping":
            for t in list(table.state.troupers):
                table.do(d.Equip(trouper=t.trouper, items=first_of_each(table, t.trouper)))
            table.do(d.EndDay())


def first_of_each(table: Table, who: str) -> list[str]:
    gear: dict[str, str] = {}
    for s in table.trouper(who).sleeves:
        item = table.cat.item(s.item)
        gear.setdefault(item.category, s.item)
    return list(gear.values())


# --------------------------------------------------------------------------- whole Day


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_whole_day_for_each_table_size(catalog: Any, n: int) -> None:
    table = Table(catalog, n=n, seed=100 + n)
    rich(table)
    seen = [d.day_next(table.state, catalog).step]
    table.do(d.Recover())
    seen.append(d.day_next(table.state, catalog).step)
    top = table.state.advanced_decks["juggling"][0]
    pay = d.suggest_payment(table.state.wagon, catalog.tactic(top).cost)
    table.do(d.BuyAdvancedTactic(trouper=TROUPERS[n - 1], art="juggling", pay=pay))
    table.do(d.BuyBuilding(building="cartographer", pay={"coins": 4}))
    table.do(d.ChooseZone(zone="garden"))
    seen.append(table.step())
    loc = catalog.locations_in("garden")[2]
    table.do(d.ChooseLocation(location=loc.id))
    seen.append(table.step())
    table.do(d.DrawMinions())
    seen.append(table.step())
    table.do(d.LastAssault(face_vlad=False))
    seen.append(table.step())
    table.do(d.DrawNemesis())
    seen.append(table.step())
    levels = d.difficulty_levels(table.state, catalog)
    assert [lv["level"] for lv in levels] == [1, 2, 3]
    assert all({"wounds", "influence", "rewards"} <= set(lv) for lv in levels)
    table.do(d.ChooseDifficulty(level=3))
    seen.append(table.step())
    table.do(d.PlaceEvents())
    seen.append(table.step())
    for t in TROUPERS[:n]:
        assert t in d.day_next(table.state, catalog).details["waiting"]
        table.do(d.Equip(trouper=t, items=first_of_each(table, t)))
    assert _kinds(table.state, catalog)[0] == "day_end"
    table.do(d.EndDay())
    st = table.state
    assert seen == [
        "recovery",
        "purchases",
        "location",
        "minions",
        "last_assault",
        "nemesis",
        "dusk_difficulty",
        "dusk_events",
        "equipping",
    ]
    assert st.part == "night" and st.day is not None and st.day.step == "done"
    assert st.night is not None
    assert st.night.location == loc.id and st.night.difficulty == 3
    assert st.night.nemesis == st.day.nemesis
    assert [m.minion for m in st.night.minions] == st.day.minions
    assert [c.card for c in st.night.chain] == st.day.events
    nem = catalog.nemesis(st.day.nemesis)
    assert len(st.day.events) == next(lv.influence for lv in nem.levels if lv.level == 3)
    for i, t in enumerate(st.troupers):
        assert set(t.equipped.values()) == set(first_of_each(table, t.trouper))
        assert len(t.hand) == catalog.config.hand_size
        assert t.equipped == st.day.equipped[i]
    assert top in table.trouper(TROUPERS[n - 1]).reserve_cards
    assert d.day_next(st, catalog).part == "night"


def test_walk_is_reproducible_from_the_seed(catalog: Any) -> None:
    a, b = Table(catalog, n=3, seed=5), Table(catalog, n=3, seed=5)
    walk_to(a, "done")
    walk_to(b, "done")
    assert state_hash(a.state) == state_hash(b.state)
    assert state_hash(replay(a.log, catalog)) == state_hash(a.state)


# --------------------------------------------------------------------------- Recovery


def test_recovery_restores_vigor_and_insanity_keeps_bites(catalog: Any) -> None:
    table = Table(catalog, n=2)
    t0 = table.state.troupers[0].model_copy(
        update={"vigor_depleted": 4, "insanity": 5, "bites": 2, "exhausted": True, "hand": ["x"]}
    )
    table.edit(troupers=[t0, table.state.troupers[1]])
    table.do(d.Recover())
    t = table.state.troupers[0]
    assert (t.vigor_depleted, t.insanity, t.bites, t.exhausted, t.hand) == (0, 0, 2, False, [])
    assert table.step() == "purchases" and table.state.phase == "purchases"
    table.refuse(d.Recover(), "not possible now")


# --------------------------------------------------------------------------- buildings


def test_hunting_house_chooses_four_and_reveals_two(catalog: Any) -> None:
    table = Table(catalog)
    rich(table)
    table.do(d.Recover())
    table.do(d.BuyBuilding(building="hunting-house", pay={"coins": 3, "jewels": 3}))
    assert table.state.wagon.coins == 17 and table.state.wagon.jewels == 17
    table.refuse(d.BuyBuilding(building="hunting", pay={"coins": 6}), "already used")
    walk_to(table, "minions")
    four = ["undead-bone-sentinel", "ghoul-crypt-gnawer", "beast-castle-wolf", "aberration-st"]
    table.refuse(d.ChooseMinions(minions=four[:3]), "four different")
    table.refuse(d.ChooseMinions(minions=[*four[:3], four[0]]), "four different")
    table.do(d.ChooseMinions(minions=four))
    day = table.state.day
    assert day is not None and len(day.minion_pool) == 4
    assert len(set(day.minions)) == 2 and set(day.minions) <= set(day.minion_pool)
    assert table.step() == "last_assault"


def test_minions_without_hunting_house(catalog: Any) -> None:
    table = Table(catalog)
    walk_to(table, "minions")
    # at random, or the two cards drawn from the players' own deck
    assert _kinds(table.state, catalog) == ["day_draw_minions", "day_draw_minions"]
    table.refuse(d.ChooseMinions(minions=["undead", "ghoul", "beast", "aberration"]), "Hunting")
    table.refuse(d.DrawMinions(minions=["undead-bone-sentinel"]), "two different")
    table.do(d.DrawMinions())
    assert len(set(table.state.day.minions)) == 2  # type: ignore[union-attr]


def test_cartographer_and_location_roll(catalog: Any) -> None:
    table = Table(catalog)
    walk_to(table, "location")
    table.refuse(d.ChooseLocation(location="catacombs-ossuary-gallery"), "Cartographer")
    table.refuse(d.RollLocation(faces="7"), "no face")
    table.do(d.RollLocation(faces="2"))  # a physical Red die showing two Triumphs
    day = table.state.day
    assert day is not None and day.location_roll == "R-double"
    loc = catalog.get("locations", day.location)
    assert loc.zone == "catacombs" and loc.choice == "R-double"

    digital = Table(catalog, seed=3)
    walk_to(digital, "location")
    digital.do(d.RollLocation())
    assert digital.state.day.location in {x.id for x in catalog.locations_in("catacombs")}  # type: ignore[union-attr]


def test_cartographer_lets_the_players_choose(catalog: Any) -> None:
    table = Table(catalog)
    rich(table)
    table.do(d.Recover())
    table.do(d.BuyBuilding(building="Cartographer's Office", pay={"scrolls": 2, "trinkets": 2}))
    table.do(d.ChooseZone(zone="Halls"))
    table.refuse(d.ChooseLocation(location="catacombs-ossuary-gallery"), "unknown Location")
    loc = catalog.locations_in("halls")[1]
    table.do(d.ChooseLocation(location=loc.id))
    assert table.state.day.location == loc.id  # type: ignore[union-attr]


def test_sanatorium_discards_a_bite(catalog: Any) -> None:
    table = Table(catalog)
    t0 = table.state.troupers[0].model_copy(update={"bites": 2})
    table.edit(
        troupers=[t0, table.state.troupers[1]],
        wagon=table.state.wagon.model_copy(update={"coins": 3}),
    )
    table.do(d.Recover())
    table.refuse(d.BuyBuilding(building="sanatorium", pay={"coins": 1}), "needs a Trouper")
    table.refuse(
        d.BuyBuilding(building="sanatorium", trouper="zora", pay={"coins": 1}), "no Trouper"
    )
    table.refuse(
        d.BuyBuilding(building="sanatorium", trouper="2", pay={"coins": 1}), "no Bite token"
    )
    table.do(d.BuyBuilding(building="sanatorium", trouper="1", pay={"coins": 1}))
    table.do(d.BuyBuilding(building="sanatorium", trouper="crimson", pay={"coins": 1}))
    assert table.state.troupers[0].bites == 0 and table.state.wagon.coins == 1
    table.refuse(d.BuyBuilding(building="sanatorium", trouper="aurel", pay={"coins": 1}), "no Bite")


def test_asylum_chooses_the_nemesis_among_the_available(catalog: Any) -> None:
    table = Table(catalog)
    history = [
        GameRecord(number=1, mode="roguelite", troupers=[], nemesis="lucilla", result="won"),
        GameRecord(number=2, mode="roguelite", troupers=[], nemesis="corvin", result="lost"),
    ]
    table.edit(history=history, wagon=table.state.wagon.model_copy(update={"jewels": 12}))
    assert d.available_nemeses(table.state, catalog) == ["corvin", "saskia", "ilie", "mirela"]
    table.do(d.Recover())
    table.refuse(d.BuyBuilding(building="asylum", pay={"jewels": 9}), "too little")
    table.refuse(d.BuyBuilding(building="asylum", pay={"jewels": 11}), "too much")
    table.do(d.BuyBuilding(building="asylum", pay={"jewels": 10}))
    walk_to(table, "nemesis")
    table.refuse(d.ChooseNemesis(nemesis="lucilla"), "defeated")
    table.refuse(d.ChooseNemesis(nemesis="vlad"), "Last Assault")
    table.refuse(d.ChooseNemesis(nemesis="nobody"), "unknown Nemesis")
    table.do(d.ChooseNemesis(nemesis="saskia"))
    assert table.state.day.nemesis == "saskia" and table.step() == "dusk_difficulty"  # type: ignore[union-attr]


def test_random_nemesis_never_a_defeated_one(catalog: Any) -> None:
    lieutenants = [n.id for n in catalog.lieutenants()]
    history = [
        GameRecord(number=i, mode="roguelite", troupers=[], nemesis=n, result="won")
        for i, n in enumerate(lieutenants[:-1])
    ]
    for seed in range(5):
        table = Table(catalog, seed=seed)
        table.edit(history=history)
        walk_to(table, "nemesis")
        table.refuse(d.ChooseNemesis(nemesis=lieutenants[-1]), "Asylum")
        table.do(d.DrawNemesis())
        assert table.state.day.nemesis == lieutenants[-1]  # type: ignore[union-attr]
    # Beating Vlad resets the box: every lieutenant is back.
    reset = [
        *history,
        GameRecord(number=9, mode="roguelite", troupers=[], nemesis="vlad", result="won"),
    ]
    table = Table(catalog)
    table.edit(history=reset)
    assert d.available_nemeses(table.state, catalog) == lieutenants


def test_alchemists_laboratory_trades_one_resource_for_another(catalog: Any) -> None:
    table = Table(catalog)
    table.do(AdjustWagon(scrolls=4))
    table.do(d.Recover())
    lab = "alchemist"
    table.refuse(d.BuyBuilding(building=lab, pay={"scrolls": 1}), "trades N of one")
    table.refuse(
        d.BuyBuilding(
            building=lab, pay={"scrolls": 1}, trade_from="scrolls", trade_to="scrolls", amount=1
        ),
        "another",
    )
    table.refuse(
        d.BuyBuilding(
            building=lab, pay={"scrolls": 1}, trade_from="scrolls", trade_to="gold", amount=1
        ),
        "unknown Resource",
    )
    table.refuse(
        d.BuyBuilding(
            building=lab, pay={"scrolls": 1}, trade_from="scrolls", trade_to="jewels", amount=4
        ),
        "cannot trade 4",
    )
    table.do(
        d.BuyBuilding(
            building=lab, pay={"scrolls": 1}, trade_from="scrolls", trade_to="jewels", amount=3
        )
    )
    assert table.state.wagon.as_dict() == {"jewels": 3, "coins": 0, "trinkets": 0, "scrolls": 0}
    assert table.state.resources_spent == 1


# --------------------------------------------------------------------------- payments


def test_payment_rules(catalog: Any) -> None:
    table = Table(catalog)
    table.do(AdjustWagon(coins=5, jewels=1))
    table.do(d.Recover())
    table.refuse(d.BuyBuilding(building="cartographer"), "say which")
    table.refuse(d.BuyBuilding(building="cartographer", pay={"gold": 4}), "unknown Resource")
    table.refuse(d.BuyBuilding(building="cartographer", pay={"coins": -1, "jewels": 5}), "negative")
    table.refuse(d.BuyBuilding(building="asylum", pay={"coins": 5, "jewels": 5}), "Wagon has 1")
    table.refuse(d.BuyBuilding(building="nowhere", pay={"coins": 1}), "unknown building")
    table.do(d.BuyBuilding(building="cartographer", pay={"coins": 3, "jewels": 1}))
    assert table.state.wagon.as_dict() == {"jewels": 0, "coins": 2, "trinkets": 0, "scrolls": 0}
    assert table.state.resources_spent == 4


def test_specific_resources_must_be_paid(catalog: Any) -> None:
    table = Table(catalog)
    rich(table)
    table.do(d.Recover())
    item = next(s.item for s in table.trouper("aurel").sleeves if s.item == "aurel-i04")
    # aurel-i04 upgrades for 2 coins + 1 jewel: no "any" part, so no --pay is needed.
    table.refuse(d.UpgradeItem(trouper="aurel", item=item, pay={"jewels": 3}), "gives 0 coins")
    table.do(d.UpgradeItem(trouper="aurel", item=item))
    assert table.state.wagon.coins == 18 and table.state.wagon.jewels == 19


# --------------------------------------------------------------------------- purchases


def test_buy_advanced_tactic_from_the_top_of_the_deck(catalog: Any) -> None:
    table = Table(catalog)
    rich(table, 3)
    table.do(d.Recover())
    deck = table.state.advanced_decks["pacts"]
    card = catalog.tactic(deck[0])
    pay = d.suggest_payment(table.state.wagon, card.cost)
    table.refuse(d.BuyAdvancedTactic(trouper="aurel", art="painting", pay=pay), "unknown Art")
    table.refuse(d.BuyAdvancedTactic(trouper="vlad", art="pacts", pay=pay), "no Trouper")
    table.do(d.BuyAdvancedTactic(trouper="2", art="pac", pay=pay))
    assert table.state.advanced_decks["pacts"] == deck[1:]
    assert table.trouper("ioana").reserve_cards == [deck[0]]
    assert table.state.day.purchases == [deck[0]]  # type: ignore[union-attr]


def test_buy_until_the_wagon_is_empty_never_negative(catalog: Any) -> None:
    table = Table(catalog)
    table.do(AdjustWagon(coins=6))
    table.do(d.Recover())
    table.refuse(d.BuyBuilding(building="sanatorium", trouper="aurel", pay={"coins": 1}), "no Bite")
    t0 = table.trouper("aurel").model_copy(update={"bites": 9})
    table.edit(troupers=[t0, table.state.troupers[1]])
    for _ in range(6):
        table.do(d.BuyBuilding(building="sanatorium", trouper="aurel", pay={"coins": 1}))
    table.refuse(
        d.BuyBuilding(building="sanatorium", trouper="aurel", pay={"coins": 1}), "Wagon has 0"
    )
    assert table.state.wagon.coins == 0


def test_buy_location_and_nemesis_cards_with_trophies(catalog: Any) -> None:
    table = Table(catalog)
    rich(table)
    table.edit(location_trophies={"halls": 1, "catacombs": 2}, nemesis_trophies={"lucilla": 1})
    table.do(d.Recover())
    # loc-halls-t: 2 jewels + 1 any, a Halls trophy and a trophy of any Location.
    table.refuse(
        d.BuySpecialCard(
            trouper="aurel", card="loc-halls-t", pay={"jewels": 3}, trophies={"halls": 2}
        ),
        "players hold 1",
    )
    table.refuse(
        d.BuySpecialCard(
            trouper="aurel", card="loc-halls-t", pay={"jewels": 3}, trophies={"catacombs": 2}
        ),
        "of halls",
    )
    table.refuse(
        d.BuySpecialCard(
            trouper="aurel", card="loc-halls-t", pay={"jewels": 3}, trophies={"halls": 1}
        ),
        "gives 1 location",
    )
    table.refuse(
        d.BuySpecialCard(
            trouper="aurel",
            card="loc-halls-t",
            pay={"jewels": 3},
            trophies={"halls": 1, "catacombs": 1, "lucilla": 1},
        ),
        "gives 1 nemesis",
    )
    table.refuse(
        d.BuySpecialCard(
            trouper="aurel", card="loc-halls-t", pay={"jewels": 3}, trophies={"halls": 1, "moon": 1}
        ),
        "unknown Trophy",
    )
    table.refuse(
        d.BuySpecialCard(trouper="aurel", card="loc-nowhere", pay={"jewels": 3}), "unknown"
    )
    table.do(
        d.BuySpecialCard(
            trouper="aurel",
            card="loc-halls-t",
            pay={"jewels": 3},
            trophies={"location:halls": 1, "catacombs": 1},
        )
    )
    st = table.state
    assert st.location_trophies == {"catacombs": 1} and "loc-halls-t" not in st.training
    assert table.trouper("aurel").reserve_cards == ["loc-halls-t"]
    # A Nemesis Item paid without naming the trophies: only one way to pay.
    table.do(
        d.BuySpecialCard(
            trouper="ioana", card="nem-lucilla-i", pay={"trinkets": 1, "jewels": 1, "coins": 1}
        )
    )
    assert table.state.nemesis_trophies == {}
    assert table.trouper("ioana").reserve_items == ["nem-lucilla-i"]
    assert "nem-lucilla-i" not in table.state.crafting
    table.refuse(
        d.BuySpecialCard(trouper="ioana", card="nem-lucilla-i", pay={"jewels": 3}), "unknown"
    )
    table.refuse(
        d.BuySpecialCard(trouper="ioana", card="nem-corvin-t", pay={"jewels": 4}), "players hold"
    )


def test_ambiguous_any_trophy_must_be_named(catalog: Any) -> None:
    table = Table(catalog)
    rich(table)
    table.edit(location_trophies={"halls": 1, "catacombs": 1, "garden": 1})
    table.do(d.Recover())
    table.refuse(
        d.BuySpecialCard(trouper="aurel", card="loc-halls-t", pay={"jewels": 3}), "say which"
    )
    table.do(
        d.BuySpecialCard(
            trouper="aurel",
            card="loc-halls-t",
            pay={"jewels": 3},
            trophies={"halls": 1, "garden": 1},
        )
    )
    assert table.state.location_trophies == {"catacombs": 1}


def test_upgrade_item(catalog: Any) -> None:
    table = Table(catalog)
    rich(table)
    table.edit(nemesis_trophies={"corvin": 1})
    table.do(d.Recover())
    table.do(d.UpgradeItem(trouper="aurel", item="aurel-i01", pay={"coins": 3}))
    slot = next(s for s in table.trouper("aurel").sleeves if s.item == "aurel-i01")
    assert slot.advanced
    table.refuse(d.UpgradeItem(trouper="aurel", item="aurel-i01", pay={"coins": 3}), "already")
    table.refuse(d.UpgradeItem(trouper="aurel", item="zora-i01", pay={"coins": 3}), "unknown")
    table.do(d.BuySpecialCard(trouper="aurel", card="nem-corvin-i", pay={"coins": 3}))
    table.do(d.SwapItem(trouper="aurel", out="aurel-i03", into="nem-corvin-i"))
    table.refuse(
        d.UpgradeItem(trouper="aurel", item="nem-corvin-i", pay={"coins": 3}), "no Advanced side"
    )


# --------------------------------------------------------------------------- replacing


def _with_reserve(table: Table, who: str, cards: list[str] = (), items: list[str] = ()) -> None:  # type: ignore[assignment]
    idx = table.state.trouper_index(who)
    t = table.state.troupers[idx].model_copy(
        update={"reserve_cards": list(cards), "reserve_items": list(items)}
    )
    troupers = [t if i == idx else x for i, x in enumerate(table.state.troupers)]
    table.edit(troupers=troupers)


def test_swap_tactic_same_art_and_building_rule(catalog: Any) -> None:
    table = Table(catalog)
    _with_reserve(
        table,
        "aurel",
        cards=["adv-funambulism-01", "adv-pacts-01", "loc-garden-t", "adv-juggling-01"],
    )
    table.do(d.Recover())
    # Same Art: a funambulism card for a funambulism card.
    table.do(d.SwapTactic(trouper="aurel", out="aurel-t01", into="adv-funambulism-01"))
    aurel = table.trouper("aurel")
    assert "adv-funambulism-01" in aurel.deck and "aurel-t01" in aurel.reserve_cards
    assert len(aurel.deck) == 12
    # Wrong Art.
    table.refuse(d.SwapTactic(trouper="aurel", out="aurel-t02", into="adv-juggling-01"), "same Art")
    table.refuse(d.SwapTactic(trouper="aurel", out="aurel-t02", into="adv-pacts-01"), "same Art")
    # A Location card counts as every Art.
    table.do(d.SwapTactic(trouper="aurel", out="aurel-t11", into="loc-garden-t"))
    # Taking the Location card out for a Pacts card would break the Building rule.
    table.refuse(
        d.SwapTactic(trouper="aurel", out="loc-garden-t", into="adv-pacts-01"), "Building rule"
    )
    table.refuse(
        d.SwapTactic(trouper="aurel", out="loc-garden-t", into="adv-juggling-01"), "5 juggling"
    )
    table.do(d.SwapTactic(trouper="aurel", out="loc-garden-t", into="aurel-t11"))
    table.refuse(d.SwapTactic(trouper="aurel", out="aurel-t99", into="aurel-t01"), "unknown")
    table.refuse(d.SwapTactic(trouper="aurel", out="aurel-t03", into="zora-t01"), "unknown")
    assert d.building_problem(catalog, "aurel", table.trouper("aurel").deck) is None


def test_swap_item_same_category_and_upgrade_lost(catalog: Any) -> None:
    table = Table(catalog)
    rich(table)
    _with_reserve(table, "aurel", items=["nem-corvin-i", "loc-halls-i"])
    table.do(d.Recover())
    table.do(d.UpgradeItem(trouper="aurel", item="aurel-i03", pay={"coins": 3}))
    corvin, halls = catalog.item("nem-corvin-i"), catalog.item("loc-halls-i")
    tool = next(
        s.item
        for s in table.trouper("aurel").sleeves
        if catalog.item(s.item).category == corvin.category and s.advanced
    )
    wrong = next(
        s.item
        for s in table.trouper("aurel").sleeves
        if catalog.item(s.item).category != corvin.category
    )
    table.refuse(d.SwapItem(trouper="aurel", out=wrong, into="nem-corvin-i"), "same category")
    table.do(d.SwapItem(trouper="aurel", out=tool, into="nem-corvin-i"))
    aurel = table.trouper("aurel")
    assert tool in aurel.reserve_items and "nem-corvin-i" in [s.item for s in aurel.sleeves]
    # Back into a sleeve: the white side.
    table.do(d.SwapItem(trouper="aurel", out="nem-corvin-i", into=tool))
    slot = next(s for s in table.trouper("aurel").sleeves if s.item == tool)
    assert not slot.advanced
    assert halls is not None


def test_swaps_during_equipping_unequip_the_item(catalog: Any) -> None:
    table = Table(catalog)
    _with_reserve(table, "aurel", items=["nem-corvin-i"])
    walk_to(table, "equipping")
    cat_ = catalog.item("nem-corvin-i").category
    gear = first_of_each(table, "aurel")
    table.do(d.Equip(trouper="aurel", items=gear))
    table.do(d.Equip(trouper="ioana", items=first_of_each(table, "ioana")))
    out = next(i for i in gear if catalog.item(i).category == cat_)
    table.do(d.SwapItem(trouper="aurel", out=out, into="nem-corvin-i"))
    table.refuse(d.EndDay(), "still to equip: aurel")
    table.refuse(d.Equip(trouper="aurel", items=gear), "unknown Item")
    gear = [i if i != out else "nem-corvin-i" for i in gear]
    table.do(d.Equip(trouper="aurel", items=gear))
    table.do(d.EndDay())
    assert "nem-corvin-i" in table.state.troupers[0].equipped.values()


def test_equip_refusals(catalog: Any) -> None:
    table = Table(catalog)
    walk_to(table, "equipping")
    prot = [
        s.item
        for s in table.trouper("aurel").sleeves
        if catalog.item(s.item).category == "protection"
    ]
    others = [i for i in first_of_each(table, "aurel") if i not in prot]
    table.refuse(d.Equip(trouper="aurel", items=[prot[0], prot[1], others[0]]), "one Item per")
    table.refuse(d.Equip(trouper="aurel", items=[prot[0], others[0]]), "missing")
    table.refuse(d.Equip(trouper="aurel", items=["ioana-i01", *others]), "unknown Item")
    table.refuse(d.EndDay(), "still to equip")


# --------------------------------------------------------------------------- order & modes


def test_steps_out_of_order_are_refused(catalog: Any) -> None:
    table = Table(catalog)
    rich(table)
    table.refuse(d.BuyBuilding(building="cartographer", pay={"coins": 4}), "Recovery")
    table.refuse(d.ChooseZone(zone="halls"), "not possible now")
    table.refuse(d.ChooseDifficulty(level=1), "not possible now")
    table.refuse(d.EndDay(), "not possible now")
    table.do(d.Recover())
    table.refuse(d.RollLocation(), "not possible now")
    table.refuse(d.Equip(trouper="aurel", items=[]), "not possible now")
    table.refuse(d.ChooseZone(zone="moon"), "unknown Zone")
    walk_to(table, "location")
    table.refuse(d.BuyBuilding(building="cartographer", pay={"coins": 4}), "not possible now")
    table.refuse(d.SwapTactic(trouper="aurel", out="a", into="b"), "not possible now")
    walk_to(table, "dusk_difficulty")
    table.refuse(d.ChooseDifficulty(level=4), "not on both")
    walk_to(table, "done")
    err = table.refuse(d.Recover(), "day part")
    assert "night" in err.message


def test_last_assault_faces_vlad(catalog: Any) -> None:
    table = Table(catalog)
    walk_to(table, "last_assault")
    table.do(d.LastAssault(face_vlad=True))
    assert table.state.day.nemesis == "vlad" and table.step() == "dusk_difficulty"  # type: ignore[union-attr]
    walk_to(table, "done")
    assert table.state.night is not None and table.state.night.vlad


def test_only_vlad_left(catalog: Any) -> None:
    history = [
        GameRecord(number=i, mode="roguelite", troupers=[], nemesis=n.id, result="won")
        for i, n in enumerate(catalog.lieutenants())
    ]
    table = Table(catalog)
    table.edit(history=history)
    walk_to(table, "last_assault")
    assert d.day_next(table.state, catalog).choices == [{"id": "yes"}]
    table.refuse(d.LastAssault(face_vlad=False), "only Vlad")
    table.do(d.LastAssault(face_vlad=True))


def test_single_game_mode_skips_purchases(catalog: Any) -> None:
    table = Table(catalog, n=1, mode="single")
    table.do(d.Recover())
    assert table.step() == "zone"
    table.refuse(d.BuyBuilding(building="sanatorium", trouper="1", pay={"coins": 1}), "Single")
    table.refuse(d.BuyAdvancedTactic(trouper="1", art="pacts", pay={}), "Single")
    table.refuse(d.UpgradeItem(trouper="1", item="aurel-i01", pay={}), "Single")
    table.refuse(d.SwapTactic(trouper="1", out="x", into="y"), "Single")
    walk_to(table, "done")
    assert table.state.part == "night"


def test_events_physical_and_counted(catalog: Any) -> None:
    table = Table(catalog)
    walk_to(table, "dusk_events")
    n = d.influence(table.state, catalog)
    assert n == 2
    zone = catalog.get("locations", table.state.day.location).zone  # type: ignore[union-attr]
    ids = [e.id for e in catalog.events_in(zone)]
    table.refuse(d.PlaceEvents(events=ids[:1]), "puts 2")
    table.refuse(d.PlaceEvents(events=[ids[0], ids[0]]), "twice")
    table.refuse(d.PlaceEvents(events=["halls-e01", ids[0]]), "unknown Event")
    table.do(d.PlaceEvents(events=ids[1:3]))
    assert table.state.day.events == ids[1:3]  # type: ignore[union-attr]


def test_day_next_covers_every_step(catalog: Any) -> None:
    table = Table(catalog, n=2)
    seen = []
    order = list(d.STEP_TITLES)
    for step in order[1:]:
        walk_to(table, step)
        nxt = d.day_next(table.state, catalog)
        assert nxt.sentence and nxt.title
        if nxt.part == "day":
            assert _kinds(table.state, catalog), step
        seen.append(nxt.step)
    assert set(seen) >= {
        "purchases",
        "location",
        "minions",
        "last_assault",
        "nemesis",
        "dusk_difficulty",
        "dusk_events",
        "equipping",
    }
    assert seen[-1] == "night"


def test_match_id() -> None:
    cands = [("adv-pacts-01", "Blood Oath"), ("adv-pacts-02", "Bargain")]
    assert d.match_id("adv-pacts-01", cands, "card") == "adv-pacts-01"
    assert d.match_id("blood oath", cands, "card") == "adv-pacts-01"
    assert d.match_id("barg", cands, "card") == "adv-pacts-02"
    with pytest.raises(RuleError, match="several"):
        d.match_id("adv-pacts", cands, "card")
    with pytest.raises(RuleError, match="unknown card"):
        d.match_id("zzz", cands, "card")


def _kinds(state: Any, catalog: Any) -> list[str]:
    """The action types open now (engine/legal.py), in order."""
    from blood_companion.engine.flow import next_view

    return [o.kind for o in next_view(state, catalog).options if o.enabled]
