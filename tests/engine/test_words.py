"""Every sentence of the one template table (engine/words/templates.py), each tested once with
its template: a log event of each kind (and each variant its extra field picks) rendered with
the shipped data pack, the sentence asserted whole. The engine writes only declared events
(``bookkeeping.log`` checks the kind and the fields), every kind a played night logs has its
template, and an old save's event missing a field is still told.
"""

from __future__ import annotations

from typing import Any

import pytest
from night_bot import new_table, play_night

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import physical, words
from blood_companion.engine.table import UNKNOWN
from blood_companion.engine.words.templates import EVENTS, MOVES, PHYSICAL, REASONS, check

JOB = {"source": "reaction", "card": "corvin-r01"}
SKILL = {"source": "skill", "card": "corvin", "effects": [0]}
MINION_JOB = {"source": "minion", "card": "undead-bone-sentinel", "space": "A", "miniature": 1,
              "of": 2}
OUT = {"kind": "wound", "n": 2}

# (kind, or kind/variant), the event's fields, its sentence
CASES: list[tuple[str, dict[str, Any], str]] = [
    ('decision', {'about': 'target', 'job': JOB, 'effect': 0, 'steps': []},
     'A decision of the Nemesis side (`why` shows it)'),
    ('text', {'text': 'Corvin wakes'},
     'Corvin wakes'),
    ('reshuffle', {'who': 'aurel'},
     'Aurel, the Thread-Walker reshuffles the discard pile'),
    ('no_card_for_wound', {'who': 'aurel'},
     'Aurel, the Thread-Walker has no card left to take a Wound'),
    ('wound_from_hand', {'who': 'aurel', 'n': 2},
     'Aurel, the Thread-Walker suffers a Wound with a card from the hand (2 Wound cards)'),
    ('unmarked_wound',
     {'who': 'aurel', 'n': 1, 'total': 6},
     'Aurel, the Thread-Walker suffers 1 Wound(s) no card can mark (6 Wounds in all, for '
     'Knocked Out)'),
    ('wound', {'who': 'aurel', 'n': 2},
     'Aurel, the Thread-Walker suffers a Wound (2 Wound cards)'),
    ('wound/card',
     {'who': 'aurel', 'n': 2, 'card': 'aurel-t01'},
     'Aurel, the Thread-Walker suffers a Wound: Lunge from the Wire, the top card of the '
     'deck (2 Wound cards)'),
    ('all_bitten', {'who': 'zora'},
     'Zora Blackcandle: every Vigor token is bitten'),
    ('bite', {'who': 'zora', 'n': 1},
     'Zora Blackcandle gets a Bite (1)'),
    ('bite/on',
     {'who': 'zora', 'n': 2, 'on': 'Depleted'},
     'Zora Blackcandle gets a Bite (2): lay a Bite token on one of their Depleted Vigor '
     'tokens without one'),
    ('exhausted', {'who': 'petru'},
     'Petru the Iron Jaw is Exhausted'),
    ('draws', {'who': 'petru', 'n': 2},
     'Petru the Iron Jaw draws 2'),
    ('draws/cards', {'who': 'petru', 'n': 2, 'cards': ['aurel-t01', 'aurel-t02']},
     'Petru the Iron Jaw draws 2: Lunge from the Wire and Balancing-Pole Sweep'),
    ('discards', {'who': 'petru', 'n': 1},
     'Petru the Iron Jaw discards 1'),
    ('heals', {'who': 'ioana', 'n': 1},
     'Ioana of the Seven Veils heals 1'),
    ('knocked_out', {'who': 'ioana', 'n': 6},
     'Ioana of the Seven Veils has 6+ Wounds and is Knocked Out for the rest of the night'),
    ('threat', {'before': 3, 'after': 5},
     'Threat 3 -> 5'),
    ('nemesis_reshuffle', {},
     'The Nemesis deck is empty: its discard pile is shuffled into it'),
    ('line_full', {},
     'Alert: the Reaction Line is full, no card is revealed'),
    ('no_reaction_left', {},
     'Alert: the Nemesis has no Reaction card left'),
    ('reveal', {'card': 'corvin-r01'},
     "Alert: the Nemesis reveals Gravedigger's Reach"),
    ('reveal_interruption', {'card': 'vlad-r01', 'face': 'weakened'},
     'Alert: the Nemesis reveals Weary Descent (Interruption: it resolves now)'),
    ('nemesis_wound', {'nemesis': 'corvin', 'side': 'left', 'n': 1},
     'Corvin the Gravewarden suffers a Wound on the Left Side (1 there)'),
    ('nemesis_wound/card',
     {'nemesis': 'corvin', 'side': 'front', 'n': 2, 'card': 'corvin-r02'},
     'Corvin the Gravewarden suffers a Wound on the Front (2 there): Call the Hungry goes '
     'in the Wounds space of that side'),
    ('nemesis_wound_unmarked',
     {'nemesis': 'corvin', 'side': 'right', 'n': 3},
     'Corvin the Gravewarden suffers a Wound on the Right Side (3 there); no Reaction card '
     'was left to mark it'),
    ('night_over', {'result': 'won', 'reason': 'nemesis_defeated'},
     'The night is won: the Nemesis took every Wound its Difficulty requires'),
    ('night_over/check', {'result': 'lost', 'reason': 'check_holds', 'job': JOB},
     "The night is lost: Gravedigger's Reach: its rule"),
    ('minion_defeated', {'minion': 'undead-bone-sentinel'},
     'Bone Sentinel is defeated; its card leaves the Night Board'),
    ('minion_hit', {'minion': 'undead-bone-sentinel', 'n': 1},
     'Bone Sentinel loses a Miniature (1 left)'),
    ('minion_extra_lost', {'minion': 'undead-bone-sentinel', 'n': 2},
     "Bone Sentinel: a Minion takes a single Wound; the attack's 2 other Wound(s) are lost"),
    ('summon_no_space', {},
     'Summon ignored: no Minion space is free'),
    ('summon_no_card', {},
     'Summon ignored: no Minion card is left'),
    ('summon', {'minion': 'undead-hollow-chorister', 'space': 'B'},
     "Summon: Hollow Chorister on space B - place its Miniature on the Nemesis's Tile"),
    ('summon/who',
     {'minion': 'undead-hollow-chorister', 'space': 'B', 'who': 'aurel'},
     'Summon: Hollow Chorister on space B - place its Miniature on the Tile of Aurel, the '
     'Thread-Walker'),
    ('summon/distance',
     {'minion': 'undead-hollow-chorister', 'space': 'A', 'distance': '2', 'src': 'corvin'},
     'Summon: Hollow Chorister on space A - place its Miniature on a Tile at Distance 2 '
     "from Corvin the Gravewarden (Leader's Rule picks it)"),
    ('job_resolved', {'job': MINION_JOB},
     'Bone Sentinel (A, Miniature 1 of 2): resolved (Resolved token)'),
    ('check_holds', {'job': JOB, 'check': True},
     "Gravedigger's Reach is a Check card and its condition holds: its rule"),
    ('check_fails', {'job': JOB, 'check': True},
     "Gravedigger's Reach is a Check card; its condition does not hold (its rule)"),
    ('no_target', {'job': SKILL},
     'Corvin the Gravewarden: Supper Bell: no valid target, the Effect is ignored'),
    ('enemy_move', {'src': 'corvin', 'outcome': {'kind': 'step', 'n': 1}},
     'MOVE Corvin the Gravewarden: Step 1'),
    ('enemy_move_tile', {'src': 'corvin', 'outcome': {'kind': 'run'}, 'distance': 2},
     "MOVE Corvin the Gravewarden: Run to a Tile at Distance 2 (Leader's Rule picks it)"),
    ('enemy_outcome', {'src': 'corvin', 'outcome': {'kind': 'threat', 'n': 1}, 'who': 'corvin'},
     'Corvin the Gravewarden: +1 Threat'),
    ('enemy_text', {'job': JOB, 'effect': 0},
     "Gravedigger's Reach: Attract 3"),
    ('enemy_move_toward', {'src': 'corvin', 'outcome': {'kind': 'step', 'n': 1}, 'who': 'aurel'},
     'MOVE Corvin the Gravewarden: Step 1 toward Aurel, the Thread-Walker'),
    ('enemy_move_trouper', {'src': 'corvin', 'outcome': {'kind': 'push', 'n': 1}, 'who': 'aurel'},
     'MOVE Corvin the Gravewarden: Push 1 Aurel, the Thread-Walker'),
    ('enemy_on_trouper', {'src': 'corvin', 'outcome': OUT, 'who': 'aurel'},
     'Corvin the Gravewarden -> Aurel, the Thread-Walker: 2x Wound'),
    ('answer', {'whos': ['aurel', 'zora']},
     'Answer: Aurel, the Thread-Walker, Zora Blackcandle'),
    ('answer/nobody', {'whos': []},
     'Answer: nobody'),
    ('dodges', {'who': 'zora'},
     'Zora Blackcandle dodges'),
    ('beginning_of_night', {'n': 5},
     'Beginning of the Night: each Trouper drew 5 cards'),
    ('hand_dealt',
     {'who': 'aurel', 'cards': ['aurel-t01', 'aurel-t02', 'aurel-t03']},
     "Aurel, the Thread-Walker's hand: Lunge from the Wire, Balancing-Pole Sweep and Sudden"
     ' Somersault (the app drew them)'),
    ('hand_drawn', {'who': 'aurel', 'n': 5},
     "Aurel, the Thread-Walker's hand: 5 cards the players drew"),
    ('player_timing',
     {'found': [['aurel', 'aurel-t01'], ['zora', 'aurel-i01']]},
     'Players resolve, in an order they agree on: Aurel, the Thread-Walker: Lunge from the '
     'Wire; Zora Blackcandle: Padded Doublet'),
    ('game_turn', {'turn': 2},
     'Game Turn 2'),
    ('planning_phase', {},
     'Planning Phase'),
    ('planning_ends', {'reason': 'everyone_passed'},
     'The Planning Phase ends: every Trouper has played'),
    ('tactic_phase', {},
     'Tactic Phase'),
    ('active', {'who': 'aurel', 'card': 'aurel-t01', 'space': 2},
     'Aurel, the Thread-Walker is Active (Lunge from the Wire, Chain space 2)'),
    ('active_rest', {'who': 'aurel', 'space': 3},
     'Aurel, the Thread-Walker is Active (a Rest, Chain space 3)'),
    ('chain_resolved', {},
     'Every card on the Chain is resolved'),
    ('nemesis_phase', {},
     'Nemesis Phase'),
    ('nemesis_phase_over', {},
     'The Nemesis Phase is over'),
    ('minions_phase', {},
     'Minions Phase'),
    ('minions_phase_over', {},
     'The Minions Phase is over'),
    ('minions_order',
     {'minion': 'undead-bone-sentinel', 'space': 'A', 'n': 2},
     'Bone Sentinel (A): its 2 Miniatures act one at a time, in the order the players '
     'choose; each question names the Miniature that acts'),
    ('minions_order/leader',
     {'minion': 'undead-bone-sentinel', 'space': 'A', 'n': 2, 'leader': 'ioana'},
     'Bone Sentinel (A): its 2 Miniatures act one at a time, in the order the players agree'
     ' on (Ioana of the Seven Veils holds the Leader token and settles a disagreement); '
     'each question names the Miniature that acts'),
    ('cleanup_phase', {},
     'Cleanup Phase'),
    ('leader_passes', {'leader': 'petru'},
     'The Leader token passes to Petru the Iron Jaw'),
    ('tokens_cleanup', {},
     'Remove Consumed Trap and Whisper tokens from the Map; turn Intact ones to Consumed'),
    ('cleanup_done', {},
     'Items refreshed, Exhausted tokens discarded, Threat back to 0'),
    ('token_placed',
     {'who': 'zora', 'token': 'traps', 'supply': 2},
     'Zora Blackcandle places a Trap token, Intact side up, on a Tile without one of their '
     'Intact Traps (2 left in their Reserve)'),
    ('token_flip', {'who': 'zora', 'token': 'whispers', 'supply': 1},
     'Zora Blackcandle turns their Consumed Whisper on that Tile back to its Intact side'),
    ('token_moved_consumed',
     {'who': 'zora', 'token': 'traps', 'supply': 0},
     'Zora Blackcandle has no Trap left in their Reserve: move one of their Consumed Traps '
     'from the Map to the Tile, Intact side up'),
    ('token_moved_intact',
     {'who': 'zora', 'token': 'whispers', 'supply': 0},
     'Zora Blackcandle has no Whisper left in their Reserve: move one of their Intact '
     'Whispers from the Map to the Tile'),
    ('token_none', {'who': 'zora', 'token': 'traps'},
     'Zora Blackcandle has no Trap token to place'),
    ('token_none_intact', {'who': 'zora', 'token': 'traps'},
     'Zora Blackcandle has no Intact Trap on the Map to consume'),
    ('enemy_condition_fails', {'job': JOB},
     "Gravedigger's Reach: its Condition does not hold, the Effect is skipped"),
    ('weakness_applies', {'card': 'corvin-w-front', 'side': 'front', 'effect': 0},
     'Lantern of Bone (Front Weakness) helps this attack: (an Effect no longer in the data pack)'),
    ('weakness_not_now', {'card': 'corvin-w-front', 'side': 'left', 'effect': 0},
     'Lantern of Bone (Left Side Weakness): its Condition does not hold for this attack'),
    ('weakness_trophy_met', {'card': 'corvin-w-front', 'why': '3 Wounds on its Front'},
     'Lantern of Bone: its Nemesis Trophy is won (3 Wounds on its Front)'),
    ('weakness_trophy_missed', {'card': 'corvin-w-front', 'why': 'no Wound on its Front'},
     'Lantern of Bone: no Nemesis Trophy (no Wound on its Front)'),
    ('weakness_trophy', {'card': 'corvin-w-front', 'nemesis': 'corvin'},
     'Lantern of Bone: the players win a Nemesis Trophy token of Corvin the Gravewarden'),
    ('weakness_trophy_capped',
     {'card': 'corvin-w-front', 'nemesis': 'corvin'},
     'Lantern of Bone: the Trophy is earned, but the box holds no more Nemesis Trophy '
     'tokens of Corvin the Gravewarden'),
    ('free_text_resolved', {'job': JOB},
     "Gravedigger's Reach: resolved at the table as printed"),
    ('free_text_skipped', {'job': JOB},
     "Gravedigger's Reach: the table says it does not apply"),
    ('own_free_text',
     {'who': 'aurel', 'words': 'Swap places with an adjacent ally.'},
     'Aurel, the Thread-Walker: resolve at the table as printed (the app cannot read it): '
     'Swap places with an adjacent ally.'),
    ('timed_skipped',
     {'job': SKILL},
     'Corvin the Gravewarden: Supper Bell: its Cost cannot be paid or its Condition fails: '
     'it is skipped'),
    ('timed_attack', {'job': SKILL},
     'Corvin the Gravewarden: Supper Bell: an attack at this moment is resolved by the table'),
    ('trap_consumed', {'who': 'zora'},
     'Zora Blackcandle turns that Trap to its Consumed side'),
    ('test',
     {'who': 'aurel',
      'trait': 'agility',
      'label': 'aurel-t01',
      'faces': 'R0x G1 B2',
      'extra': 1,
      'total': 4,
      'target': 3,
      'success': True},
     'Aurel, the Thread-Walker rolls Agility for Lunge from the Wire: Red die: a Defeat; '
     'Grey die: 1 Triumph; Black die: 2 Triumphs +1 → 4 Triumph(s), 3 needed: Success'),
    ('test/dodge',
     {'who': 'aurel',
      'trait': 'R2',
      'label': 'dodge',
      'faces': 'G0',
      'extra': 0,
      'total': 0,
      'target': 1,
      'success': False},
     'Aurel, the Thread-Walker rolls R2 for the dodge: Grey die: a blank face → 0 '
     'Triumph(s), 1 needed: Failure'),
    ('sacrifice', {},
     'Sacrifice: the card goes to Wounds at Cleanup'),
    ('test_bonus', {'who': 'aurel', 'outcome': {'kind': 'bonus_triumph', 'n': 1}},
     'Aurel, the Thread-Walker: bonus_triumph on their next Test'),
    ('wagon_gain', {'n': 1, 'resource': 'coins'},
     'Wagon: +1 coin'),
    ('foe_outcome',
     {'foe': {'card': 'undead-bone-sentinel', 'space': 'A'},
      'outcome': OUT,
      'within': 2},
     'the Bone Sentinel Minion on space A: 2x Wound, for the players to apply (only if it '
     "stands within Distance 2 of the Effect's source)"),
    ('move', {'who': 'aurel', 'outcome': {'kind': 'step', 'n': 2}},
     'MOVE Aurel, the Thread-Walker: Step 2'),
    ('own_outcome', {'who': 'aurel', 'outcome': {'kind': 'heal', 'n': 1}},
     'Aurel, the Thread-Walker: Heal 1'),
    ('attacks',
     {'who': 'aurel', 'card': 'corvin', 'where': 'front', 'defense': 'physical', 'need': 3},
     'Aurel, the Thread-Walker attacks Corvin the Gravewarden (front): Physical Defense 3'),
    ('attacks/needs',
     {'who': 'aurel', 'card': 'corvin', 'where': 'left', 'needs': {'physical': 3, 'mind': 2}},
     'Aurel, the Thread-Walker attacks Corvin the Gravewarden (left): Physical Defense 3, '
     'Mind Defense 2'),
    ('attack_elements',
     {'who': 'aurel', 'needs': {'physical': 3, 'mind': 2}, 'landed': ['physical'], 'total': 3},
     "Aurel, the Thread-Walker's 3 Triumph(s): the Physical Attack lands, the Mind Attack "
     'misses (2 needed)'),
    ('same_test',
     {'who': 'aurel', 'total': 3, 'need': 2},
     "Aurel, the Thread-Walker's Test for this Effect's first target (3 Triumph(s)) counts "
     'for this one too: 2 needed'),
    ('plays', {'who': 'aurel', 'card': 'aurel-t01', 'space': 1, 'tags': ['Cascade']},
     'Aurel, the Thread-Walker plays Lunge from the Wire on Chain space 1 (Cascade)'),
    ('rests', {'who': 'aurel', 'space': 2},
     'Aurel, the Thread-Walker Rests (a face-down card on Chain space 2)'),
    ('card_text', {'card': 'aurel-t01', 'effect': 0},
     'Lunge from the Wire: Step 2'),
    ('support', {'who': 'aurel', 'card': 'aurel-t02'},
     'Aurel, the Thread-Walker uses the Support of Balancing-Pole Sweep'),
    ('uses_item', {'who': 'aurel', 'item': 'aurel-i01'},
     'Aurel, the Thread-Walker uses Padded Doublet'),
    ('quick_effect',
     {'who': 'aurel', 'card': 'aurel-t03', 'n': 1},
     'Aurel, the Thread-Walker resolves a Quick Effect of Sudden Somersault (outside the '
     'activation)'),
    ('attempts_event', {'who': 'aurel', 'event': 'catacombs-e01'},
     'Aurel, the Thread-Walker attempts the Event Desecrate the Bone Altar'),
    ('event_solved', {'event': 'catacombs-e01'},
     'Event Desecrate the Bone Altar resolved (face down): reward +1 Chain space, +1 scroll'),
    ('resolved_token', {'space': 4},
     'Chain space 4: Resolved token'),
    ('movement',
     {'move': 'step', 'n': 2, 'mover': {'trouper': 'aurel'}},
     'MOVE Aurel, the Thread-Walker: Step 2 - up to 2 time(s) to an adjacent Tile (never '
     "onto an Impassable Tile; on the Nemesis's Tile, a step may change to another side)"),
    ('movement/nemesis',
     {'move': 'run', 'n': 1, 'mover': {'card': 'corvin'}, 'toward': {'trouper': 'zora'}},
     'MOVE Corvin the Gravewarden: Run toward Zora Blackcandle - along the most direct path'
     ' to the chosen Tile (no Impassable Tiles); before leaving each Tile, turn its Front '
     'toward the side of the Tile it crosses (the side on the shortest path to its target);'
     ' on each Tile it enters, set it in the center and place every Trouper on that Tile in'
     " front of its Front (Leader's Rule for any doubt)"),
    ('movement/escape',
     {'move': 'escape',
      'n': 2,
      'mover': {'card': 'corvin'},
      'toward': {'trouper': 'zora'},
      'away': True},
     'MOVE Corvin the Gravewarden: Escape 2 - straight back from its Front Side, as far as '
     'possible up to 2 Tile(s), facing unchanged; on each Tile it enters, set it in the '
     "center and place every Trouper on that Tile in front of its Front (Leader's Rule for "
     'any doubt)'),
    ('movement/push',
     {'move': 'push',
      'n': 1,
      'mover': {'any': 'minion'},
      'by': {'trouper': 'petru'},
      'within': 'area'},
     'MOVE the Minion the Effect targets (on the Map): Pushed 1 by Petru the Iron Jaw - in '
     'one straight line, as far as possible up to 1 Tile(s) (only if it stands within the '
     "Special Area of the Effect's source)"),
    ('movement/fly',
     {'move': 'fly',
      'n': 1,
      'mover': {'card': 'undead-bone-sentinel', 'space': 'B'},
      'toward': {'goal': 'trouper', 'by': 'closest'}},
     'MOVE the Bone Sentinel Minion on space B: Fly toward the closest Trouper (the Map '
     "shows which; a tie: the Leader's Rule) - along the most direct path; it may pass over"
     ' Impassable Tiles but not stop on one, and triggers no Tile Effects'),
    ('movement/attract',
     {'move': 'attract',
      'n': 2,
      'mover': {'among': ['aurel', 'zora'], 'by': 'closest'},
      'by': {'card': 'corvin'}},
     'MOVE the closest of Aurel, the Thread-Walker and Zora Blackcandle (the Map shows '
     "which; a tie: the Leader's Rule): Attracted 2 toward Corvin the Gravewarden - up to 2"
     ' Tile(s), each closer, along the most direct path'),
    ('movement/tile',
     {'move': 'move', 'n': 1, 'mover': None, 'toward': {'distance': '2'}},
     "MOVE the Effect's target: Move 1 toward a Tile at Distance 2 (Leader's Rule picks it)"
     ' - up to 1 time(s) to an adjacent Tile'),
    ('cube_placed', {'src': 'corvin', 'n': 1, 'nemesis': 'corvin'},
     "PLACE a Cube (Corpse) on the Tile Corvin the Gravewarden's Effect targets"),
    ('cube_placed/distance',
     {'src': 'aurel', 'n': 2, 'distance': 2},
     "PLACE 2 Cubes on a Tile at Distance 2 from Aurel, the Thread-Walker (Leader's Rule "
     'picks it)'),
]


@pytest.mark.parametrize(("key", "args", "said"), CASES, ids=[c[0] for c in CASES])
def test_each_event_is_told_by_its_template(catalog: Any, key: str, args: dict[str, Any],
                                            said: str) -> None:
    kind = key.partition("/")[0]
    check(kind, args)  # the case is an event the engine may write
    assert words.render({"kind": kind, "args": args}, catalog) == said


def test_every_template_and_variant_of_the_table_has_its_case() -> None:
    keys = {c[0] for c in CASES}
    kinds = {k.partition("/")[0] for k in keys}
    assert kinds == set(EVENTS)
    for kind, event in EVENTS.items():
        for field, _ in event.variants:
            assert any(k.startswith(kind + "/") and field in a
                       for k, a, _ in CASES), (kind, field)
    moves = {a["move"] for k, a, _ in CASES if k.startswith("movement")}
    assert moves == set(MOVES)
    told = {a["reason"] for k, a, _ in CASES if "reason" in a}
    assert told <= set(REASONS)


@pytest.mark.parametrize("reason", sorted(REASONS))
def test_each_reason_a_night_or_a_planning_phase_ends(catalog: Any, reason: str) -> None:
    said = words.render({"kind": "planning_ends", "args": {"reason": reason}}, catalog)
    assert said == "The Planning Phase ends: " + REASONS[reason]


def test_a_kind_the_table_does_not_know_is_shown_with_its_fields(catalog: Any) -> None:
    entry = {"kind": "bell_rings", "args": {"times": 3}}
    assert words.render(entry, catalog) == "(bell rings: times 3)"


def test_an_old_saves_event_missing_a_field_is_still_told(catalog: Any) -> None:
    """Old logs are read leniently: a field the event lacks shows as nothing."""
    assert words.render({"kind": "heals", "args": {"who": "aurel"}}, catalog) == (
        "Aurel, the Thread-Walker heals ")
    assert words.render({"kind": "game_turn"}, catalog) == "Game Turn "


@pytest.mark.parametrize(("kind", "args", "error"), [
    ("bell_rings", {}, "unknown kind 'bell_rings'"),
    ("heals", {"who": "aurel"}, "'heals': missing n"),
    ("heals", {"who": "aurel", "n": 1, "card": "x"}, "'heals': undeclared card"),
    ("wound", {"n": 1, "card": "x", "why": 2}, "'wound': missing who; undeclared why"),
])
def test_the_engine_cannot_log_an_undeclared_event(catalog: Any, kind: str,
                                                   args: dict[str, Any], error: str) -> None:
    table = new_table(catalog, 2)
    with pytest.raises(TypeError, match=error):
        fx.log(table.state, kind, **args)


def test_an_optional_field_and_a_weakened_face_may_be_logged(catalog: Any) -> None:
    check("wound", {"who": "aurel", "n": 1})
    check("wound", {"who": "aurel", "n": 1, "card": "aurel-t01"})
    check("reveal", {"card": "vlad-r01", "face": "weakened"})
    check("decision", {"about": "target", "anything": 1})  # engine/why.py's open record


@pytest.mark.parametrize(("players", "nemesis", "seed"), [(2, "corvin", 3), (4, "lucilla", 5)])
def test_every_kind_a_played_night_logs_has_its_template(catalog: Any, players: int,
                                                         nemesis: str, seed: int) -> None:
    table = play_night(new_table(catalog, players, nemesis=nemesis, seed=seed, bot_seed=seed))
    assert table.night.log
    for entry in table.night.log:
        assert entry.kind in EVENTS
        check(entry.kind, entry.args)
        said = words.render(entry, catalog)
        assert said and not said.startswith("("), (entry.kind, said)


# --------------------------------------------------------------------------- physical


def _pairs(say: Any) -> list[tuple[Any, Any]]:
    """The changes a row's sentences are tested on: up then down, on then off, in then out."""
    made = getattr(say, "__qualname__", "")
    if "listed" in made:
        return [([], ["aurel-i01"]), (["front"], [])]
    if "flag" in made or made == "side":
        return [(False, True), (True, False)]
    if made == "equip":
        return [(None, "aurel-i01"), ("aurel-i01", None)]
    if made == "leader":
        return [(0, 1)]
    return [(1, 3), (3, 1)]


# Each row of the physical table (a state path), with the sentences its two changes make, or
# the zone's name for a row of cards.
PHYSICAL_CASES: list[tuple[str, Any]] = [
    ('night.threat', ['Threat token: 1 → 3', 'Threat token: 3 → 1']),
    ('troupers.{t}.insanity', [
      'Aurel: move your Insanity cube to space 4 (from 2)',
      'Aurel: move your Insanity cube to space 2 (from 4)']),
    ('troupers.{t}.vigor_depleted', [
      'Aurel: flip 2 Vigor tokens to the Depleted side (1 → 3)',
      'Aurel: flip 2 Vigor tokens back to the Available side (3 → 1)']),
    ('troupers.{t}.bites', [
      'Aurel: put 2 Bite tokens on your Vigor tokens (1 → 3)',
      'Aurel: take 2 Bite tokens off your Vigor tokens (3 → 1)']),
    ('troupers.{t}.bites_on_depleted', [
      'Aurel: move 2 Bite tokens onto a Depleted Vigor token (1 → 3)',
      'Aurel: move 2 Bite tokens onto an Available Vigor token (3 → 1)']),
    ('troupers.{t}.unmarked_wounds', [
      'Aurel: 2 Wounds no card could mark (note them) (1 → 3)',
      'Aurel: 2 unmarked Wounds healed (3 → 1)']),
    ('troupers.{t}.exhausted', [
      'Aurel: take an Exhausted token',
      'Aurel: put your Exhausted token away']),
    ('troupers.{t}.knocked_out', [
      'Aurel: Knocked Out, lay your miniature down',
      'Aurel: stand your miniature up again']),
    ('troupers.{t}.traps.supply', [
      'Aurel: 2 Trap tokens back to your Reserve (1 → 3)',
      'Aurel: 2 Trap tokens out of your Reserve (3 → 1)']),
    ('troupers.{t}.traps.intact', [
      'Aurel: 2 Trap tokens on the Map, Intact side up (1 → 3)',
      'Aurel: 2 Trap Intact tokens off the Map (3 → 1)']),
    ('troupers.{t}.traps.consumed', [
      'Aurel: 2 Trap tokens on the Map, Consumed side up (1 → 3)',
      'Aurel: 2 Trap Consumed tokens off the Map (3 → 1)']),
    ('troupers.{t}.whispers.supply', [
      'Aurel: 2 Whisper tokens back to your Reserve (1 → 3)',
      'Aurel: 2 Whisper tokens out of your Reserve (3 → 1)']),
    ('troupers.{t}.whispers.intact', [
      'Aurel: 2 Whisper tokens on the Map, Intact side up (1 → 3)',
      'Aurel: 2 Whisper Intact tokens off the Map (3 → 1)']),
    ('troupers.{t}.whispers.consumed', [
      'Aurel: 2 Whisper tokens on the Map, Consumed side up (1 → 3)',
      'Aurel: 2 Whisper Consumed tokens off the Map (3 → 1)']),
    ('night.chain.{i}.resolved', [
      'Chain space 1 (Light the Old Lamps): put a Resolved token on it',
      'Chain space 1 (Light the Old Lamps): take its Resolved token away']),
    ('night.chain.{i}.sacrificed', [
      'Chain space 1 (Light the Old Lamps): put a Cube on its Sacrifice symbol',
      'Chain space 1 (Light the Old Lamps): take the Cube off its Sacrifice symbol']),
    ('night.chain.{i}.face_down', [
      'Chain space 1: turn Light the Old Lamps face down',
      'Chain space 1: turn Light the Old Lamps face up']),
    ('night.chain.{i}.supports_used', [
      'Chain space 1 (Light the Old Lamps): put 2 Cubes on its used Support Effect (1 → 3)',
      'Chain space 1 (Light the Old Lamps): take 2 Cubes off its Support Effects (3 → 1)']),
    ('night.chain.{i}.quick_used', [
      'Chain space 1 (Light the Old Lamps): mark 2 used Quick Effects with a Cube (1 → 3)',
      'Chain space 1 (Light the Old Lamps): take 2 Cubes off its Quick Effects (3 → 1)']),
    ('night.reaction_line.{i}.resolved', [
      'Reaction Line space 1: put a Resolved token on it',
      'Reaction Line space 1: take its Resolved token away']),
    ('night.minions.{i}.alive', [
      'Minion space 1: put 2 miniatures on the Map (1 → 3)',
      'Minion space 1: take 2 miniatures off the Map (3 → 1)']),
    ('night.minions.{i}.summoned', [
      'Minion space 1: the Minion is summoned',
      'Minion space 1: the Minion is no longer summoned']),
    ('night.chain_spaces', [
      'the Chain grows by 2 spaces (1 → 3)',
      'the Chain shrinks by 2 spaces (3 → 1)']),
    ('troupers.{t}.depleted_items', [
      'Padded Doublet: turn it face down (Depleted)',
      'Front: turn it face up again']),
    ('vlad_weakened', [
      'Padded Doublet: turn it to its Weakened side',
      'Front: turn it back to its Enhanced side']),
    ('troupers.{t}.sleeves.{i}.advanced', [
      'Aurel: turn Padded Doublet to its red (upgraded) side',
      'Aurel: turn Padded Doublet to its plain side']),
    ('troupers.{t}.equipped.{c}', [
      'Aurel: Padded Doublet beside your Trouper board (body)',
      'Aurel: Padded Doublet back to your Reserve']),
    ('wagon.{k}', ['Wagon Coins: add 2 (1 → 3)', 'Wagon Coins: take away 2 (3 → 1)']),
    ('location_trophies.{k}', [
      'Location Trophy The Catacombs: add 2 (1 → 3)',
      'Location Trophy The Catacombs: take away 2 (3 → 1)']),
    ('nemesis_trophies.{k}', [
      'Nemesis Trophy Corvin the Gravewarden: add 2 (1 → 3)',
      'Nemesis Trophy Corvin the Gravewarden: take away 2 (3 → 1)']),
    ('leader', ['Ioana is the Leader now']),
    ('troupers.{t}.hand', "Aurel's hand"),
    ('troupers.{t}.deck', "Aurel's deck"),
    ('troupers.{t}.discard', "Aurel's discard pile"),
    ('troupers.{t}.wounds', "Aurel's Wounds space"),
    ('troupers.{t}.reserve_cards', "Aurel's Reserve"),
    ('troupers.{t}.reserve_items', "Aurel's Reserve (Items)"),
    ('troupers.{t}.sleeves.{i}.item', "Aurel's Item sleeve 1"),
    ('night.chain.{i}.card', 'Chain space 1'),
    ('night.reaction_line.{i}.card', 'Reaction Line space 1'),
    ('night.minions.{i}.minion', 'Minion space 1'),
    ('night.reaction_deck', 'the Reaction deck'),
    ('night.reaction_discard', 'the Nemesis discard pile'),
    ('night.nemesis_wounds.{k}', "the Nemesis's Front Wounds"),
    ('night.event_deck', 'the Event deck'),
    ('advanced_decks.{k}', 'the Aurel Advanced Tactic deck'),
    ('training', 'the Training cards'),
    ('crafting', 'the Crafting cards'),
]


@pytest.mark.parametrize(("path", "said"), PHYSICAL_CASES, ids=[c[0] for c in PHYSICAL_CASES])
def test_each_physical_row_is_told_by_its_sentences(catalog: Any, path: str, said: Any) -> None:
    state = new_table(catalog, 2).state
    ctx = physical.Ctx(state, state, catalog)
    parts = tuple(path.split("."))
    k = {"location_trophies": "catacombs", "nemesis_trophies": "corvin", "night": "front",
         "advanced_decks": "aurel"}.get(parts[0], "coins")
    bound = {n: v for n, v in {"t": "aurel", "i": "0", "k": k, "c": "body"}.items()
             if "{" + n + "}" in parts}
    say = physical.TABLE[parts]
    if isinstance(say, tuple):  # a zone of cards: its name
        assert physical._label(say[1], bound, ctx) == said
        return
    assert [i.text for o, n in _pairs(say) for i in say(ctx, bound, o, n)] == said


def test_every_row_of_the_physical_table_has_its_case() -> None:
    assert {c[0] for c in PHYSICAL_CASES} == {".".join(p) for p in PHYSICAL}


@pytest.mark.parametrize(("route", "cards", "said"), [
    (("Aurel's hand", physical.BOX, "x"), ["aurel-t01"],
     "Lunge from the Wire: from Aurel's hand back to the box"),
    ((physical.BOX, "the Training cards", "x"),
     ["aurel-t01", "aurel-t02", "aurel-t03", "aurel-t04"], "4 cards: to the Training cards"),
    (("Aurel's deck", "Aurel's hand", "f.hand"), [UNKNOWN], "a card: Aurel's deck → Aurel's hand"),
    (("Aurel's deck", "Aurel's discard pile", "f"), [UNKNOWN, UNKNOWN],
     "2 cards: Aurel's deck → Aurel's discard pile"),
])
def test_each_card_move_sentence(catalog: Any, route: tuple[str, str, str], cards: list[str],
                                 said: str) -> None:
    state = new_table(catalog, 2).state
    assert physical._move(physical.Ctx(state, state, catalog), route, cards).text == said


def test_a_deck_shuffled_at_the_table(catalog: Any) -> None:
    before = new_table(catalog, 2).state
    assert before.night is not None
    night = before.night.model_copy(update={"reaction_deck": before.night.reaction_deck[::-1]})
    after = before.model_copy(update={"night": night})
    assert physical.lines(before, after, catalog) == ["Shuffle the Reaction deck"]
