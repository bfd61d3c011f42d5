"""Issue 26, Build item 2 (the Weakness half): a Weakness's Nemesis Trophy is decided from the
app's state where the state decides it (the kind of attack, Bites, Exhausted, Wounds this Game
Turn, Fatigue on the Reaction Line), with the reason said; asked only for what the table alone
knows, its default then matching the state. On the code before, every Trophy was asked with
the default No, and a Yes was accepted whatever the state said."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import yaml
from night_bot import Table, new_table

from blood_companion.content.effect_text import parse_effect
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import trophy, words
from blood_companion.engine.chance import Chance
from blood_companion.engine.night import Attack, options
from blood_companion.engine.night_state import Activation, ChainSlot, ReactionSlot

WIN = "2 2 2"  # every Test succeeds
CARD = "aurel-t08"
DATA = Path(__file__).resolve().parents[2] / "data"


def table_with(catalog: Any, effect: str, trophy: str, **config: Any) -> Table:
    """Aurel (Trouper 0) active with CARD printing ``effect``; Corvin's Front Weakness offers
    its Trophy for ``trophy``."""
    cards = [c.model_copy(update={"effects": [parse_effect(effect)]}) if c.id == CARD else c
             for c in catalog.records["starting_tactics"]]
    weak = [w.model_copy(update={"trophy": trophy, "effects": []})
            if w.nemesis == "corvin" and w.side == "front" else w
            for w in catalog.records["weaknesses"]]
    rules = catalog.config.model_copy(update=config)
    catalog = dataclasses.replace(catalog, records={
        **catalog.records, "starting_tactics": cards, "weaknesses": weak,
        "rules_config": [rules]})
    table = new_table(catalog, 2, seed=3, nemesis="corvin")
    events = [s.model_copy(update={"resolved": True, "face_down": True})
              for s in table.night.chain]
    chain = [*events, ChainSlot(kind="tactic", card=CARD, owner=0)]
    table.state = fx.with_night(
        table.state, chain=chain, phase="tactic", phase_done=False, pending=[], queue=[],
        activation=Activation(slot=len(chain) - 1, trouper=0),
    )
    return table


def with_trouper(table: Table, **update: Any) -> None:
    troupers = list(table.state.troupers)
    troupers[0] = troupers[0].model_copy(update=update)
    table.state = table.state.model_copy(update={"troupers": troupers})


MIND = "Target: Nemesis (Distance 0-1). Outcome: Mind Attack."
PHYSICAL = "Target: Nemesis (Distance 0-1). Outcome: Physical Attack (Dexterity)."


def hit(table: Table, trait: str = "madness") -> None:
    table.do(Attack(effect=1, target="nemesis", side="front", trait=trait, dice=[WIN]))


def trophy_questions(table: Table) -> list[Any]:
    return [q for q in table.night.pending if q.about == "weakness:front"]


def said(table: Table) -> list[str]:
    return [words.render(e, table.catalog) for e in table.night.log]


def test_a_state_meeting_the_condition_wins_the_trophy_without_a_question(catalog: Any) -> None:
    table = table_with(catalog, MIND, "Wound his Front with a Mind Attack while your Trouper "
                                      "carries at least 2 Bites.")
    with_trouper(table, bites=2)
    before = table.state.nemesis_trophies.get("corvin", 0)
    hit(table)
    assert not trophy_questions(table)
    assert table.state.nemesis_trophies.get("corvin", 0) == before + 1
    assert table.night.weakness_trophies == ["front"]
    won = "Trophy is won (a Mind Attack, Aurel, the Thread-Walker carries 2 Bites)"
    assert any(won in s for s in said(table))


def test_fatigue_on_the_line_meets_the_condition(catalog: Any) -> None:
    table = table_with(catalog, PHYSICAL, "Wound his Front with a Physical Attack while a "
                                          "Reaction Card with Fatigue is on his Reaction Line.")
    tired = next(r.id for r in catalog.all("reactions")
                 if r.nemesis == "corvin" and (r.fatigue.physical or r.fatigue.mind))
    table.state = fx.with_night(table.state, reaction_line=[ReactionSlot(card=tired)])
    hit(table, "dexterity")
    assert not trophy_questions(table)
    assert table.night.weakness_trophies == ["front"]


def test_a_bitten_trouper_on_a_no_bites_trophy_gets_none(catalog: Any) -> None:
    table = table_with(catalog, MIND, "Wound his Front while your Trouper carries no Bites.")
    with_trouper(table, bites=1)
    before = table.state.nemesis_trophies.get("corvin", 0)
    hit(table)
    assert not trophy_questions(table)  # no Yes to give: the state says no
    assert table.state.nemesis_trophies.get("corvin", 0) == before
    assert table.night.weakness_trophies == []
    assert any("no Nemesis Trophy (Aurel, the Thread-Walker carries 1 Bite, the card asks for "
               "no Bites)" in s
               for s in said(table))


def test_the_wrong_kind_of_attack_gets_no_trophy_even_with_a_table_clause(catalog: Any) -> None:
    table = table_with(catalog, PHYSICAL, "Wound his Front with a Mind Attack while no Minion "
                                          "is on his Tile.")
    hit(table, "dexterity")
    assert not trophy_questions(table)
    assert table.night.weakness_trophies == []


def test_a_clause_only_the_table_knows_asks_with_the_default_of_the_known_ones(
    catalog: Any,
) -> None:
    table = table_with(catalog, MIND, "Wound his Front with a Mind Attack while no Minion is "
                                      "on his Tile.")
    hit(table)
    (q,) = trophy_questions(table)
    assert "a Mind Attack" in q.prompt
    table.state = fx.with_night(table.state, pending=[q], queue=[])
    assert options.night_view(table.state, table.catalog).default == "y"


def test_an_unrecognised_clause_asks_and_the_default_follows_the_known_clauses(
    catalog: Any,
) -> None:
    table = table_with(catalog, MIND, "Wound his Front with a Mind Attack while the moon is "
                                      "full.")
    assert [c.kind for c in trophy.read(table_trophy(table))] == ["attack", "unknown"]
    hit(table)
    (q,) = trophy_questions(table)
    table.state = fx.with_night(table.state, pending=[q], queue=[])
    assert options.night_view(table.state, table.catalog).default == "y"


def test_wounds_this_game_turn_are_counted_from_the_log(catalog: Any) -> None:
    table = table_with(catalog, MIND, "Wound his Front twice in the same Game Turn.")
    hit(table)
    assert table.night.weakness_trophies == []  # one Wound this turn: not yet
    assert not trophy_questions(table)
    table.state = fx.wound_nemesis(table.state, table.catalog, "front", 1,
                                   Chance.fresh(0, 0), by=(0, frozenset({"mind"})))
    assert table.night.weakness_trophies == ["front"]


def test_the_table_may_keep_asking_every_trophy(catalog: Any) -> None:
    table = table_with(catalog, MIND, "Wound his Front while your Trouper carries no Bites.",
                       weakness_trophy="ask")
    with_trouper(table, bites=1)
    hit(table)
    (q,) = trophy_questions(table)
    assert q.n == 0


def test_every_placeholder_trophy_is_read_fully() -> None:
    texts = [w["trophy"] for w in yaml.safe_load((DATA / "weaknesses.yaml").read_text())
             if w.get("trophy")]
    assert len(texts) >= 18
    for text in texts:
        clauses = trophy.read(text)
        assert clauses and all(c.kind != "unknown" for c in clauses), (text, clauses)


def table_trophy(table: Table) -> str:
    w = fx.weakness(table.state, table.catalog, "front")
    assert w is not None and w.trophy
    return w.trophy


def test_a_trophy_only_the_table_can_judge_defaults_to_no(catalog: Any) -> None:
    table = table_with(catalog, MIND, "Wound his Front while no Aberration is on the Map.")
    hit(table)
    (q,) = trophy_questions(table)
    table.state = fx.with_night(table.state, pending=[q], queue=[])
    assert options.night_view(table.state, table.catalog).default == "n"
