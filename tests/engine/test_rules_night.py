"""Issue 15, night items: one test (or a few) per numbered item, named after it. Each one
fails on the code before the item was built (the behaviour did not exist or was wrong)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from night_bot import Table, new_table

from blood_companion.content import models as m
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import why, words
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night import (
    AnswerQuestion,
    Attack,
    NextPhase,
    ResolveEffect,
    Rest,
    settle,
)
from blood_companion.engine.night import enemy as ai
from blood_companion.engine.night.views import board_view
from blood_companion.engine.night_state import Activation, ChainSlot, EnemyJob, Question
from blood_companion.engine.state import state_hash
from blood_companion.engine.words import movement_text

WIN = "2 2 2"  # three dice showing two Triumphs each: every Test here succeeds


def with_config(catalog: Any, **update: Any) -> Any:
    config = catalog.config.model_copy(update=update)
    return dataclasses.replace(catalog, records={**catalog.records, "rules_config": [config]})


def printed(catalog: Any, kind: str, ids: list[str], **update: Any) -> Any:
    """The catalog whose records ``ids`` of ``kind`` are printed with ``update``: a test builds
    the cards it needs, whatever the data pack holds."""
    records = [r.model_copy(update=update) if r.id in ids else r for r in catalog.all(kind)]
    return dataclasses.replace(catalog, records={**catalog.records, kind: records})


def active(table: Table, card: str, trouper: int = 0) -> None:
    """``card`` is the Active card of ``trouper`` in the Tactic Phase (the Chain's Events
    before it already resolved)."""
    night = table.night
    events = [s.model_copy(update={"resolved": True, "face_down": True}) for s in night.chain]
    chain = [*events, ChainSlot(kind="tactic", card=card, owner=trouper)]
    table.state = fx.with_night(
        table.state, chain=chain, phase="tactic", phase_done=False, pending=[], queue=[],
        activation=Activation(slot=len(chain) - 1, trouper=trouper),
    )


def texts(table: Table) -> list[str]:
    return [words.render(e, table.catalog) for e in why.told(table.night.log)]


def refused(table: Table, action: Any, match: str) -> None:
    before = state_hash(table.state)
    with pytest.raises(RuleError, match=match):
        table.do(action)
    assert state_hash(table.state) == before


@pytest.fixture()
def corvin(catalog: Any) -> Table:
    return new_table(catalog, 2, seed=3, nemesis="corvin")


# --------------------------------------------------------------------------- 1 Minion overkill


def test_01_a_minion_takes_one_wound_and_the_extra_element_is_lost(corvin: Table) -> None:
    active(corvin, "aurel-t05")  # Vertigo Kick: two Physical attack Elements at Distance 0
    corvin.do(Attack(effect=2, target="A", trait="dexterity", dice=[WIN]))
    assert corvin.night.minions[0].alive == 2  # one Miniature, not two
    said = texts(corvin)[-1]
    assert said.endswith("a Minion takes a single Wound; the attack's 1 other Wound(s) are lost")


def test_01_the_extra_element_may_go_to_another_minion_when_the_table_says_so(
    catalog: Any,
) -> None:
    table = new_table(with_config(catalog, extra_minion_wounds="other_minion"), 2, seed=3,
                      nemesis="corvin")
    active(table, "aurel-t05")
    refused(table, Attack(effect=2, target="A", trait="dexterity", dice=[WIN], also=["A"]),
            "another")
    table.do(Attack(effect=2, target="A", trait="dexterity", dice=[WIN], also=["B"]))
    assert [s.alive for s in table.night.minions[:2]] == [2, 2]


# --------------------------------------------------------------------------- 2 Special Areas


def test_02_a_special_area_effect_takes_every_minion_in_it(corvin: Table) -> None:
    active(corvin, "aurel-t08")  # Torches in a Row: one Test per Minion in the Area
    corvin.do(Attack(effect=1, target="A", trait="dexterity", dice=[WIN]))
    corvin.do(Attack(effect=1, target="B", trait="dexterity", dice=[WIN]))
    # a second Miniature of space A standing in the Area is another Minion: another Test
    corvin.do(Attack(effect=1, target="A", trait="dexterity", dice=[WIN]))
    assert [s.alive for s in corvin.night.minions[:2]] == [1, 2]
    refused(corvin, Attack(effect=1, target="nemesis", side="front", trait="dexterity",
                           dice=[WIN]), "Minion")


# --------------------------------------------------------------------------- 3 Wounds with no deck


def test_03_a_wound_with_no_deck_nor_discard_takes_a_card_the_player_names(
    corvin: Table,
) -> None:
    hand = list(corvin.state.troupers[0].hand)
    corvin.state = fx.with_trouper(corvin.state, 0, draw_pile=[], discard=[])
    corvin.state = fx.wound_trouper(corvin.state, corvin.catalog, 0, Chance.fresh(0, 0))
    q = corvin.night.pending[0]
    assert q.kind == "wound" and q.trouper == 0 and q.n == 1
    refused(corvin, AnswerQuestion(cards=["not-a-card"]), "not in")
    corvin.do(AnswerQuestion(cards=[hand[2]]))
    t = corvin.state.troupers[0]
    assert t.wounds == [hand[2]] and hand[2] not in t.hand and not corvin.night.pending


def test_03_or_the_wound_stays_unmarked_and_still_counts(catalog: Any) -> None:
    table = new_table(with_config(catalog, wound_with_no_deck="unmarked"), 2, seed=3,
                      nemesis="corvin")
    table.state = fx.with_trouper(table.state, 0, draw_pile=[], discard=[])
    state = fx.wound_trouper(table.state, table.catalog, 0, Chance.fresh(0, 0), 2)
    t = state.troupers[0]
    assert t.unmarked_wounds == 2 and fx.wound_count(t) == 2
    said = words.render(fx.night_of(state).log[-1], catalog)
    assert "suffers 2 Wound(s) no card can mark (2 Wounds in all" in said


# --------------------------------------------------------------------------- 5 Order


def test_05_interruptions_resolve_in_the_order_they_were_revealed(catalog: Any) -> None:
    table = new_table(catalog, 2, seed=3, nemesis="corvin", difficulty=1)
    state = table.state
    deck = fx.night_of(state).reaction_deck
    catalog = printed(catalog, "reactions", deck[-2:], interruption=True)  # two Interruptions
    interrupts = [c for c in deck if fx.reaction_face(state, catalog, c).interruption][:2]
    assert len(interrupts) == 2
    rest = [c for c in deck if c not in interrupts]
    alerts = catalog.board.threat_track.alert_spaces
    state = fx.with_night(state, reaction_deck=[*interrupts, *rest], threat=alerts[0] - 1,
                          after_play="next")
    state = fx.add_threat(state, catalog, alerts[1] - alerts[0] + 1, Chance.fresh(0, 0))
    assert [j.card for j in fx.night_of(state).queue[:2]] == interrupts


def test_05_a_rest_takes_its_exhausted_token_after_its_threat(corvin: Table) -> None:
    card = corvin.state.troupers[0].hand[0]
    corvin.do(Rest(trouper="aurel", card=card))
    log = [e.kind for e in corvin.night.log]
    assert corvin.state.troupers[0].exhausted
    assert log.index("exhausted", log.index("rest") if "rest" in log else 0) > max(
        i for i, k in enumerate(log) if k == "threat"
    )


def test_05_a_resting_trouper_is_not_yet_exhausted_while_the_alert_resolves(
    corvin: Table,
) -> None:
    deck = corvin.night.reaction_deck
    interrupt = deck[-1]
    corvin.catalog = catalog = printed(corvin.catalog, "reactions", [interrupt], interruption=True)
    alerts = catalog.board.threat_track.alert_spaces
    corvin.state = fx.with_night(corvin.state, threat=alerts[0] - 1,
                                 reaction_deck=[interrupt, *[c for c in deck if c != interrupt]])
    corvin.do(Rest(trouper="aurel", card=corvin.state.troupers[0].hand[0]))
    night = corvin.night
    if night.pending or night.queue:  # the Interruption waits on the table
        assert night.rest_exhaust == 0 and not corvin.state.troupers[0].exhausted
    else:
        log = [e.kind for e in night.log]
        assert log.index("exhausted") > log.index("reveal_interruption")


def test_05_minion_spaces_activate_one_at_a_time_and_a_summoned_minion_acts(
    corvin: Table,
) -> None:
    catalog = corvin.catalog
    state = fx.with_night(corvin.state, chain=[], reaction_line=[], phase="nemesis",
                          phase_done=True, queue=[], pending=[])
    corvin.state = state
    corvin.do(NextPhase())  # to the Minions Phase: space A's Miniatures are queued
    night = corvin.night
    assert night.phase == "minions" and night.activated == ["A"]
    assert {j.card for j in night.queue} == {night.minions[0].minion}
    assert any("act one at a time" in t for t in texts(corvin))
    # a Minion summoned now takes a free space and is activated in its turn
    corvin.state = fx.summon(corvin.state, catalog, Chance.fresh(0, 0), None)
    summoned = corvin.night.minions[-1]
    assert summoned.summoned
    spaces = []
    for _ in range(200):
        night = corvin.night
        if night.phase != "minions":
            break
        if night.pending:
            q = night.pending[0]
            if q.kind == "test":
                corvin.state = ai.answer_test(corvin.state, catalog, Chance.fresh(0, 1), True)
            elif q.kind in ("discard", "wound"):
                who = corvin.state.troupers[q.trouper or 0]
                corvin.do(AnswerQuestion(cards=who.hand[: q.n]))
                continue
            elif q.kind == "confirm":
                corvin.do(AnswerQuestion(yes=True))
                continue
            elif q.kind == "order":
                corvin.do(AnswerQuestion(cards=list(q.cards)))
                continue
            else:
                corvin.do(AnswerQuestion(troupers=[corvin.state.troupers[q.candidates[0]]
                                                   .trouper]))
                continue
            corvin.state = settle(corvin.state, catalog, Chance.fresh(0, 2))
            continue
        spaces = list(night.activated)
        if night.phase_done:
            break
        corvin.do(NextPhase())
    assert summoned.space in corvin.night.activated and summoned.space in spaces


# --------------------------------------------------------------------------- 7 Trap and Whisper


def test_07_a_trap_is_placed_from_the_reserve_and_read_by_a_condition(corvin: Table) -> None:
    active(corvin, "aurel-t09")  # Caltrop Scatter: place a Trap
    before = corvin.state.troupers[0].traps
    corvin.do(ResolveEffect(effect=1))
    traps = corvin.state.troupers[0].traps
    assert (traps.supply, traps.intact) == (before.supply - 1, before.intact + 1)
    # Ricochet needs its target on one of Aurel's intact Traps: the table confirms the Map
    active(corvin, "aurel-t10")
    refused(corvin, Attack(effect=1, target="A", trait="dexterity", dice=[WIN]), "only the table")
    corvin.do(Attack(effect=1, target="A", trait="dexterity", dice=[WIN], confirm=True))
    traps = corvin.state.troupers[0].traps
    assert (traps.intact, traps.consumed) == (0, 1)  # the attack consumed it


def test_07_no_intact_trap_means_the_condition_fails_without_asking(corvin: Table) -> None:
    active(corvin, "aurel-t10")
    refused(corvin, Attack(effect=1, target="A", trait="dexterity", dice=[WIN], confirm=True),
            "not met")


def test_07_a_new_token_may_turn_a_consumed_one_and_cleanup_flips_and_removes(
    corvin: Table,
) -> None:
    tokens = corvin.state.troupers[0].traps.model_copy(update={"supply": 6, "consumed": 2})
    corvin.state = fx.with_trouper(corvin.state, 0, traps=tokens)
    active(corvin, "aurel-t09")
    corvin.do(ResolveEffect(effect=1, token_flip=True))
    traps = corvin.state.troupers[0].traps
    assert (traps.supply, traps.intact, traps.consumed) == (6, 1, 1)
    from blood_companion.engine.night import cleanup

    after = cleanup(corvin.state, corvin.catalog).troupers[0].traps
    assert (after.supply, after.intact, after.consumed) == (7, 0, 1)
    assert board_view(corvin.state, corvin.catalog)["troupers"][0]["traps"]["intact"] == 1


# --------------------------------------------------------------------------- 8 timed Effects


def _timed_catalog(catalog: Any) -> Any:
    """Two of the players' Items resolve at the Beginning of the Turn (placeholder data has
    none)."""
    items = []
    for it in catalog.all("trouper_items"):
        if it.id in ("aurel-i01", "ioana-i01"):
            eff = m.Effect(type="quick", timing="beginning_of_turn", target=m.Target(kind="self"),
                           outcome=[m.Outcome(kind="draw", n=1)])
            it = it.model_copy(update={"starting": it.starting.model_copy(
                update={"effects": [eff]})})
        items.append(it)
    return dataclasses.replace(catalog, records={**catalog.records, "trouper_items": items})


def test_08_the_players_timed_effects_resolve_in_the_order_they_choose(catalog: Any) -> None:
    timed = _timed_catalog(catalog)
    table = new_table(timed, 2, seed=3, nemesis="corvin")
    equipped = [set(t.equipped.values()) for t in table.state.troupers]
    assert "aurel-i01" in equipped[0] and "ioana-i01" in equipped[1]
    # Game Turn 1 begins: both Items wait, and the players say in which order
    q = table.night.pending[0]
    assert table.night.phase == "start_of_turn"
    assert q.kind == "order" and sorted(q.cards) == ["aurel-i01", "ioana-i01"]
    hands = [len(t.hand) for t in table.state.troupers]
    refused(table, AnswerQuestion(cards=["ioana-i01"]), "every card")
    table.do(AnswerQuestion(cards=["ioana-i01", "aurel-i01"]))
    assert [len(t.hand) for t in table.state.troupers] == [h + 1 for h in hands]
    draws = [e.args.get("who") for e in table.night.log if e.kind == "draws"]
    assert draws[-2:] == ["ioana", "aurel"]  # in the order chosen
    # the queue keeps the Nemesis's own Effects where they were
    assert not table.night.pending


def test_08_auras_in_play_are_shown(corvin: Table) -> None:
    auras = board_view(corvin.state, corvin.catalog)["auras"]
    assert any(a["source"].startswith("Corvin") for a in auras)


# --------------------------------------------------------------------------- 9 Weaknesses


def test_09_weakness_cards_are_shown_and_a_trophy_is_asked_after_a_wound(corvin: Table) -> None:
    catalog = corvin.catalog
    view = board_view(corvin.state, catalog)["nemesis"]["weaknesses"]
    assert {w["side"] for w in view} == {"front", "left", "right"}
    assert all(w["trophy"] for w in view)
    before = corvin.state.nemesis_trophies.get("corvin", 0)
    state = fx.wound_nemesis(corvin.state, catalog, "front", 1, Chance.fresh(0, 0))
    q = next(q for q in fx.night_of(state).pending if q.about == "weakness:front")
    assert q.kind == "confirm" and "Trophy" in q.prompt
    corvin.state = fx.with_night(state, pending=[q], queue=[])
    corvin.do(AnswerQuestion(yes=True))
    assert corvin.state.nemesis_trophies.get("corvin", 0) == before + 1
    assert corvin.night.weakness_trophies == ["front"]
    # one Trophy per side a night: the next Wound there asks nothing
    state = fx.wound_nemesis(corvin.state, catalog, "front", 1, Chance.fresh(0, 1))
    assert not any(q.about == "weakness:front" for q in fx.night_of(state).pending)


# --------------------------------------------------------------------------- 10 table Conditions


def test_10_a_condition_only_the_map_shows_is_confirmed_never_assumed(corvin: Table) -> None:
    # Applause from Nowhere draws while Aurel stands on one of their Whisper tokens: the app
    # knows whether one is on the Map, only the table knows where Aurel stands
    # (its Support, used by Ioana, the Active Trouper, from Aurel's card to her left)
    from blood_companion.engine.night import UseSupport

    active(corvin, "ioana-t01", trouper=1)
    chain = list(corvin.night.chain)
    chain.insert(-1, ChainSlot(kind="tactic", card="aurel-t11", owner=0, resolved=True))
    act = corvin.night.activation.model_copy(update={"slot": len(chain) - 1})
    corvin.state = fx.with_night(corvin.state, chain=chain, activation=act)
    space = len(chain) - 1
    refused(corvin, UseSupport(slot=space, confirm=True), "not met")  # no Whisper on the Map
    whispers = corvin.state.troupers[0].whispers.model_copy(update={"supply": 7, "intact": 1})
    corvin.state = fx.with_trouper(corvin.state, 0, whispers=whispers)
    hand = len(corvin.state.troupers[1].hand)
    refused(corvin, UseSupport(slot=space), "only the table can tell")
    corvin.do(UseSupport(slot=space, confirm=True))
    assert len(corvin.state.troupers[1].hand) == hand + 1


def test_10_an_enemy_effect_with_a_table_condition_asks_yes_or_no(corvin: Table) -> None:
    catalog = corvin.catalog
    eff = m.Effect(condition=m.Condition(kind="text", text="a Trouper stands on a Rock Tile"),
                   outcome=[m.Outcome(kind="threat", n=2)])
    nem = catalog.nemesis("corvin")
    nem2 = nem.model_copy(update={"skills": [eff.model_copy(update={"timing":
                                                                     "beginning_of_turn"})]})
    cat2 = dataclasses.replace(catalog, records={**catalog.records, "nemeses": [
        nem2 if n.id == "corvin" else n for n in catalog.all("nemeses")]})
    job = EnemyJob(source="skill", card="corvin", label="Corvin: test", effects=[0])
    state = fx.with_night(corvin.state, queue=[job], pending=[])
    state = ai.run_queue(state, cat2, Chance.fresh(0, 0))
    q = fx.night_of(state).pending[0]
    assert q.kind == "confirm" and "Rock Tile" in q.prompt
    threat = fx.night_of(state).threat
    no = ai.answer_confirm(state, cat2, Chance.fresh(0, 0), False)
    assert fx.night_of(no).threat == threat
    yes = ai.answer_confirm(state, cat2, Chance.fresh(0, 0), True)
    assert fx.night_of(yes).threat == threat + 2 and not fx.night_of(yes).queue


# --------------------------------------------------------------------------- 11 movement lines


def test_11_a_push_on_an_enemy_moves_the_enemy(corvin: Table) -> None:
    active(corvin, "aurel-t12")  # Dizzying Bow: Effect 2 pushes an Enemy at Distance 0-1
    corvin.do(ResolveEffect(effect=2))
    line = texts(corvin)[-1] if "MOVE" in texts(corvin)[-1] else next(
        t for t in reversed(texts(corvin)) if t.startswith("MOVE"))
    assert line.startswith("MOVE the Enemy the Effect targets")
    assert "straight line" in line and "Aurel" in line


def test_11_a_push_after_an_attack_names_the_minion_hit(corvin: Table) -> None:
    """An Effect that attacks a Minion and pushes it: the push names the Minion hit."""
    sweep = corvin.catalog.tactic("aurel-t02").effects[0]  # Balancing-Pole Sweep: an attack
    both = sweep.model_copy(update={"target": m.Target(kind="minion", distance="0-1"),
                                    "outcome": [*sweep.outcome, m.Outcome(kind="push", n=2)]})
    corvin.catalog = printed(corvin.catalog, "starting_tactics", ["aurel-t02"], effects=[both])
    active(corvin, "aurel-t02")
    corvin.do(Attack(effect=1, target="A", trait="dexterity", dice=[WIN]))
    hit = corvin.night.minions[0].minion
    assert [e.kind for e in corvin.night.log[-2:]] == ["minion_hit", "movement"]
    assert corvin.night.log[-1].args["mover"] == {"card": hit, "space": "A"}
    line = texts(corvin)[-1]
    assert line.startswith("MOVE the ") and "Minion on space A" in line and "Pushed 2" in line
    assert corvin.catalog.get("minions", hit).name in line


@pytest.mark.parametrize(
    "move,words",
    [("step", "Impassable"), ("run", "most direct path"), ("fly", "pass over Impassable"),
     ("escape", "straight back"), ("push", "straight line"), ("attract", "most direct path"),
     ("move", "adjacent Tile")],
)
def test_11_every_movement_keyword_is_an_instruction_with_its_constraint(
    catalog: Any, move: str, words: str
) -> None:
    args = {"move": move, "n": 2, "mover": {"card": "corvin"}, "by": {"trouper": "aurel"}}
    line = movement_text(catalog, args)
    assert words in line and "Corvin" in line


def test_11_an_enemy_moving_toward_a_trouper_names_both(catalog: Any) -> None:
    line = words.movement_text(catalog, {"move": "run", "n": 1, "mover": {"card": "corvin"},
                                           "toward": {"trouper": "ioana"}})
    assert line.startswith("MOVE Corvin") and "toward Ioana" in line


def test_11_questions_are_models_with_their_new_fields() -> None:
    q = Question(kind="order", prompt="x", cards=["a", "b"])
    assert q.cards == ["a", "b"] and q.about == ""


# --------------------------------------------------------------------------- keywords


def test_block_ends_the_planning_phase_after_its_threat(corvin: Table) -> None:
    from blood_companion.engine.night import PlayCard

    block = corvin.state.troupers[0].hand[0]  # printed as a Block card with no Effect
    corvin.catalog = printed(corvin.catalog, "starting_tactics", [block], block=True,
                             cascade=False, threat=2, effects=[])
    corvin.state = fx.with_trouper(corvin.state, 0, hand=[block, *corvin.state.troupers[0]
                                                          .hand[1:]])
    threat = corvin.night.threat
    corvin.do(PlayCard(trouper="aurel", card=block))
    assert corvin.night.threat > threat and not corvin.night.queue
    while corvin.night.pending:
        q = corvin.night.pending[0]
        if q.kind == "test":
            corvin.state = ai.answer_test(corvin.state, corvin.catalog, Chance.fresh(0, 0), True)
            corvin.state = settle(corvin.state, corvin.catalog, Chance.fresh(0, 1))
        else:
            corvin.do(AnswerQuestion(troupers=[corvin.state.troupers[q.candidates[0]].trouper]))
    assert corvin.night.phase != "planning"  # Ioana never played: the Block ended it


# --------------------------------------------------------------------------- free text (18.5)


def test_an_enemy_effect_kept_as_words_is_asked_never_guessed(corvin: Table) -> None:
    catalog = corvin.catalog
    eff = m.Effect(free_text="Every Trouper on a Tomb Tile loses 1 Vigor.")
    nem = catalog.nemesis("corvin")
    nem2 = nem.model_copy(update={"skills": [eff.model_copy(update={"timing":
                                                                     "beginning_of_turn"})]})
    cat2 = dataclasses.replace(catalog, records={**catalog.records, "nemeses": [
        nem2 if n.id == "corvin" else n for n in catalog.all("nemeses")]})
    job = EnemyJob(source="skill", card="corvin", label="Corvin: words", effects=[0])
    state = fx.with_night(corvin.state, queue=[job], pending=[])
    state = ai.run_queue(state, cat2, Chance.fresh(0, 0))
    q = fx.night_of(state).pending[0]
    assert q.kind == "confirm" and q.about == "free_text" and "Tomb Tile" in q.prompt
    done = ai.answer_confirm(state, cat2, Chance.fresh(0, 0), True)
    assert fx.night_of(done).log[-1].kind == "free_text_resolved"
    skipped = ai.answer_confirm(state, cat2, Chance.fresh(0, 0), False)
    assert any(e.kind == "free_text_skipped" for e in fx.night_of(skipped).log[-3:])


def test_a_players_effect_kept_as_words_tells_the_table_to_resolve_it(corvin: Table) -> None:
    catalog = corvin.catalog
    card = catalog.tactic("aurel-t01")
    words = m.Effect(free_text="Swap places with an adjacent ally.")
    card2 = card.model_copy(update={"effects": [words, *card.effects[1:]]})
    kind = next(k for k, recs in catalog.records.items() if card in recs)
    cat2 = dataclasses.replace(catalog, records={**catalog.records, kind: [
        card2 if c.id == card.id else c for c in catalog.records[kind]]})
    corvin.catalog = cat2
    active(corvin, "aurel-t01")
    corvin.do(ResolveEffect(effect=1))
    assert any("Swap places with an adjacent ally" in t and "at the table" in t
               for t in texts(corvin))
