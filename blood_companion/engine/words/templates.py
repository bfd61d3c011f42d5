"""The one template table: every night log event's kind with its fields and its sentence, the
reasons a night or a Planning Phase ends, the movement instructions, and the sentences of the
physical instructions (engine/physical.py). A leaf: data and the check of an event, nothing
else; :mod:`blood_companion.engine.words` renders them with :func:`~.text.fill`.

A template shows ``{field}`` by the renderer of the same name in ``sentences.KINDS`` (or
``{field:kind}`` by another one); ``[...]`` is shown only when its fields are set. An event's
``fields`` are declared once, as a space-separated list (``name?``: it may be left out; ``*``:
any other field is allowed, for the decision records engine/why.py reads). The engine writes
exactly these fields (:func:`check`, called by ``bookkeeping.log``); old saves' logs are read
leniently (a field left out shows as nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

DECISION = "decision"  # a record for `why` (engine/why.py), not told as it happens
# The key of a physical set-up checklist's question (words.checklists), its lines ticked
SETUP = "_setup"


class Event(NamedTuple):
    """A log event's declared ``fields`` and ``text``; ``variants``: (field, text) pairs, the
    text used instead when that field is set (a card the app drew, named: engine/table.py)."""

    fields: str
    text: str
    variants: tuple[tuple[str, str], ...] = ()

    def declared(self) -> tuple[frozenset[str], frozenset[str], bool]:
        """The required fields, the optional ones, and whether any other is allowed."""
        names = self.fields.split()
        return (frozenset(n for n in names if not n.endswith("?") and n != "*"),
                frozenset(n[:-1] for n in names if n.endswith("?")), "*" in names)


# kind -> Event (the events the engine writes; ``legacy``: those only old saves hold)
EVENTS: dict[str, Event] = {
    DECISION: Event("about *", "A decision of the Nemesis side (`why` shows it)"),
    "text": Event("text", "{text}"),  # legacy: sentences kept from saves of app 0.1.0
    # Troupers' bookkeeping ("Wounds", "Draw N", "Heal N", "Discard N", "Elements - Symbols")
    "reshuffle": Event("who", "{who} reshuffles the discard pile"),
    "no_card_for_wound": Event("who", "{who} has no card left to take a Wound"),  # legacy
    "wound_from_hand": Event(
        "who n", "{who} suffers a Wound with a card from the hand ({n} Wound cards)"),
    "unmarked_wound": Event("who n total", (
        "{who} suffers {n} Wound(s) no card can mark ({total} Wounds in all, for Knocked Out)")),
    "wound": Event("who n card?", "{who} suffers a Wound ({n} Wound cards)", (
        ("card", "{who} suffers a Wound: {card}, the top card of the deck ({n} Wound cards)"),)),
    "all_bitten": Event("who", "{who}: every Vigor token is bitten"),
    "bite": Event("who n on?", "{who} gets a Bite ({n})", (
        ("on", "{who} gets a Bite ({n}): lay a Bite token on one of their {on} Vigor tokens "
               "without one"),)),
    "exhausted": Event("who", "{who} is Exhausted"),
    "draws": Event("who n cards?", "{who} draws {n}", (("cards", "{who} draws {n}: {cards}"),)),
    "discards": Event("who n", "{who} discards {n}"),
    "heals": Event("who n", "{who} heals {n}"),
    "knocked_out": Event(
        "who n", "{who} has {n}+ Wounds and is Knocked Out for the rest of the night"),
    # Threat and the Nemesis deck
    "threat": Event("before after", "Threat {before} -> {after}"),
    "nemesis_reshuffle": Event(
        "", "The Nemesis deck is empty: its discard pile is shuffled into it"),
    "line_full": Event("", "Alert: the Reaction Line is full, no card is revealed"),
    "no_reaction_left": Event("", "Alert: the Nemesis has no Reaction card left"),
    "reveal": Event("card face?", "Alert: the Nemesis reveals {card}"),
    "reveal_interruption": Event(  # face: a Vlad card turned Weakened (bookkeeping.face_arg)
        "card face?", "Alert: the Nemesis reveals {card} (Interruption: it resolves now)"),
    "nemesis_wound": Event(
        "nemesis side n card?", "{nemesis} suffers a Wound on the {side} ({n} there)", (
            ("card", "{nemesis} suffers a Wound on the {side} ({n} there): {card} goes in the "
                     "Wounds space of that side"),)),
    "nemesis_wound_unmarked": Event("nemesis side n", (
        "{nemesis} suffers a Wound on the {side} ({n} there); no Reaction card was left to "
        "mark it")),
    "night_over": Event("result reason job?", "The night is {result}: {reason}"),
    # Minions
    "minion_defeated": Event("minion", "{minion} is defeated; its card leaves the Night Board"),
    "minion_hit": Event("minion n", "{minion} loses a Miniature ({n} left)"),
    "minion_extra_lost": Event("minion n", (
        "{minion}: a Minion takes a single Wound; the attack's {n} other Wound(s) are lost")),
    "summon_no_space": Event("", "Summon ignored: no Minion space is free"),
    "summon_no_card": Event("", "Summon ignored: no Minion card is left"),
    "summon": Event("minion space who? distance? src?",
                    "Summon: {minion} on space {space} - place its Miniature on {tile}"),
    # Enemy cards
    "job_resolved": Event("job", "{job}: resolved (Resolved token)"),
    "check_holds": Event("job check", "{job} is a Check card and its condition holds: {check}"),
    "check_fails": Event(
        "job check", "{job} is a Check card; its condition does not hold ({check})"),
    "no_target": Event("job", "{job}: no valid target, the Effect is ignored"),
    "enemy_move": Event("src outcome", "MOVE {src}: {outcome}"),  # legacy
    "enemy_move_tile": Event("src outcome distance", (  # legacy
        "MOVE {src}: {outcome} to a Tile at Distance {distance} (Leader's Rule picks it)")),
    "enemy_outcome": Event("src outcome who?", "{src}: {outcome}"),
    "enemy_text": Event("job effect", "{job}: {effect}"),
    "enemy_move_toward": Event("src outcome who", "MOVE {src}: {outcome} toward {who}"),  # legacy
    "enemy_move_trouper": Event("src outcome who", "MOVE {src}: {outcome} {who}"),  # legacy
    "enemy_on_trouper": Event("src outcome who", "{src} -> {who}: {outcome}"),
    "answer": Event("whos", "Answer: {whos}"),
    "dodges": Event("who", "{who} dodges"),
    # Phases ("Game Turns")
    "beginning_of_night": Event("n", "Beginning of the Night: each Trouper drew {n} cards"),
    # what the hands hold; the moves themselves are the step's physical instructions
    "hand_dealt": Event("who cards", "{who}'s hand: {cards} (the app drew them)"),
    "hand_drawn": Event("who n", "{who}'s hand: {n} cards the players drew"),
    "player_timing": Event("found", "Players resolve, in an order they agree on: {found}"),
    "game_turn": Event("turn", "Game Turn {turn}"),
    "planning_phase": Event("", "Planning Phase"),
    "planning_ends": Event("reason", "The Planning Phase ends: {reason}"),
    "tactic_phase": Event("", "Tactic Phase"),
    "active": Event("who card space", "{who} is Active ({card}, Chain space {space})"),
    "active_rest": Event("who space", "{who} is Active (a Rest, Chain space {space})"),
    "chain_resolved": Event("", "Every card on the Chain is resolved"),
    "nemesis_phase": Event("", "Nemesis Phase"),
    "nemesis_phase_over": Event("", "The Nemesis Phase is over"),
    "minions_phase": Event("", "Minions Phase"),
    "minions_phase_over": Event("", "The Minions Phase is over"),
    "minions_order": Event("minion space n leader?", (
        "{minion} ({space}): its {n} Miniatures act one at a time, in the order the players "
        "choose; each question names the Miniature that acts"), (
        ("leader", "{minion} ({space}): its {n} Miniatures act one at a time, in the order the "
                   "players agree on ({leader} holds the Leader token and settles a "
                   "disagreement); each question names the Miniature that acts"),)),
    "cleanup_phase": Event("", "Cleanup Phase"),
    "leader_passes": Event("leader", "The Leader token passes to {leader}"),
    "tokens_cleanup": Event("", (
        "Remove Consumed Trap and Whisper tokens from the Map; turn Intact ones to Consumed")),
    "cleanup_done": Event("", "Items refreshed, Exhausted tokens discarded, Threat back to 0"),
    # Trap and Whisper tokens ("Trouper Tokens")
    "token_placed": Event("who token supply", (
        "{who} places a {token} token, Intact side up, on a Tile without one of their Intact "
        "{token}s ({supply} left in their Reserve)")),
    "token_flip": Event("who token supply",
                        "{who} turns their Consumed {token} on that Tile back to its Intact side"),
    "token_moved_consumed": Event("who token supply", (
        "{who} has no {token} left in their Reserve: move one of their Consumed {token}s from "
        "the Map to the Tile, Intact side up")),
    "token_moved_intact": Event("who token supply", (
        "{who} has no {token} left in their Reserve: move one of their Intact {token}s from the "
        "Map to the Tile")),
    "token_none": Event("who token", "{who} has no {token} token to place"),
    "token_none_intact": Event("who token", "{who} has no Intact {token} on the Map to consume"),
    "enemy_condition_fails": Event(
        "job", "{job}: its Condition does not hold, the Effect is skipped"),
    "weakness_applies": Event(
        "card side effect", "{card} ({side} Weakness) helps this attack: {effect}"),
    "weakness_not_now": Event(
        "card side effect",
        "{card} ({side} Weakness): its Condition does not hold for this attack"),
    "weakness_trophy_met": Event("card why", "{card}: its Nemesis Trophy is won ({why})"),
    "weakness_trophy_missed": Event("card why", "{card}: no Nemesis Trophy ({why})"),
    "weakness_trophy": Event(
        "card nemesis", "{card}: the players win a Nemesis Trophy token of {nemesis}"),
    "weakness_trophy_capped": Event("card nemesis", (
        "{card}: the Trophy is earned, but the box holds no more Nemesis Trophy tokens of "
        "{nemesis}")),
    "free_text_resolved": Event("job", "{job}: resolved at the table as printed"),
    "free_text_skipped": Event("job", "{job}: the table says it does not apply"),
    "own_free_text": Event(
        "who words", "{who}: resolve at the table as printed (the app cannot read it): {words}"),
    "timed_skipped": Event(
        "job", "{job}: its Cost cannot be paid or its Condition fails: it is skipped"),
    "timed_attack": Event("job", "{job}: an attack at this moment is resolved by the table"),
    "trap_consumed": Event("who", "{who} turns that Trap to its Consumed side"),
    # Troupers' actions
    "test": Event("who trait label faces extra total target success", (
        "{who} rolls {trait:trait_name} for {label}: {faces}{extra} → {total} Triumph(s), "
        "{target:number} needed: {success:verdict}")),
    "sacrifice": Event("", "Sacrifice: the card goes to Wounds at Cleanup"),
    "test_bonus": Event("who outcome", "{who}: {outcome} on their next Test"),
    "wagon_gain": Event("n resource", "Wagon: +{n} {resource}"),
    "foe_outcome": Event("foe outcome within?",
                         "{foe}: {outcome}, for the players to apply{within}"),
    "move": Event("who outcome", "MOVE {who}: {outcome}"),  # legacy
    "own_outcome": Event("who outcome src?", "{who}: {outcome}"),
    "attacks": Event("who card where defense? need? needs?",
                     "{who} attacks {card} ({where}): {defense} Defense {need}",
                     (("needs", "{who} attacks {card} ({where}): {needs}"),)),
    "attack_elements": Event("who needs landed total", "{who}'s {total} Triumph(s): {landed}"),
    "same_test": Event("who total need", (
        "{who}'s Test for this Effect's first target ({total} Triumph(s)) counts for this one "
        "too: {need} needed")),
    "plays": Event("who card space tags", "{who} plays {card} on Chain space {space}{tags}"),
    "rests": Event("who space", "{who} Rests (a face-down card on Chain space {space})"),
    "card_text": Event("card effect", "{card}: {effect}"),
    "support": Event("who card", "{who} uses the Support of {card}"),
    "uses_item": Event("who item", "{who} uses {item:card}"),
    "quick_effect": Event(
        "who card n", "{who} resolves a Quick Effect of {card} (outside the activation)"),
    "attempts_event": Event("who event", "{who} attempts the Event {event}"),
    "event_solved": Event("event", "Event {event} resolved (face down): reward {event:reward}"),
    "resolved_token": Event("space", "Chain space {space}: Resolved token"),
    # on the Map: the instruction the table carries out (words.narration)
    "movement": Event("move n mover by? toward? away? within?", "{move:movement}"),
    "cube_placed": Event("src n nemesis? distance?", "{src:cube}"),
}

# Why a night ended or a Planning Phase stopped (``reason`` codes).
REASONS: dict[str, str] = {
    "nemesis_defeated": "the Nemesis took every Wound its Difficulty requires",
    "all_knocked_out": "every Trouper is Knocked Out",
    "nobody_can_play": "no Trouper has a card left to play",
    "nobody_can_play_card": "no Trouper can play a card", "chain_full": "the Chain is full",
    "block": "a Block card was played", "everyone_passed": "every Trouper has played",
    "check_holds": "a Check card's condition holds"}

# The movement keywords as instructions for the table ("Elements - Keywords"): what moves, how
# far, and the keyword's constraint. {mover}: the Miniature that moves; {by}: the one whose
# Effect moves it; {n}: the number; {toward}: where to (", toward ...").
MOVES = {
    "step": "MOVE {mover}: Step {n} - up to {n} time(s) to an adjacent Tile{toward} (never onto "
            "an Impassable Tile; on the Nemesis's Tile, a step may change to another side)",
    "run": "MOVE {mover}: Run{toward} - along the most direct path to the chosen Tile (no "
           "Impassable Tiles)",
    "fly": "MOVE {mover}: Fly{toward} - along the most direct path; it may pass over Impassable "
           "Tiles but not stop on one, and triggers no Tile Effects",
    "escape": "MOVE {mover}: Escape {n} - straight back from its Front Side, as far as possible "
              "up to {n} Tile(s), facing unchanged",
    "push": "MOVE {mover}: Pushed {n} by {by} - in one straight line, as far as possible up to "
            "{n} Tile(s)",
    "attract": "MOVE {mover}: Attracted {n} toward {by} - up to {n} Tile(s), each closer, along "
               "the most direct path",
    "move": "MOVE {mover}: Move {n}{toward} - up to {n} time(s) to an adjacent Tile"}

# "Nemesis Movement": the Nemesis's Front turns toward each Tile side it crosses (toward a
# target: the side on the shortest path), except in an Escape, which keeps its facing; on each
# Tile it enters it stands in the center with the Troupers there in front of its Front.
NEMESIS_TURNS = ("; before leaving each Tile, turn its Front toward the side of the Tile it "
                 "crosses{target}")
NEMESIS_ENTERS = ("; on each Tile it enters, set it in the center and place every Trouper on "
                  "that Tile in front of its Front (Leader's Rule for any doubt)")


# --------------------------------------------------------------------------- the physical table

# The physical instructions (engine/physical.py): each path of the state document that names a
# piece the table holds -> how a change to it is told: ("track", what[, a Trouper's]), ("tokens",
# what, more, fewer[, a Trouper's]), ("flag", what, on, off[, a Trouper's]), ("listed", what, on,
# off), ("resources", what), ("zone", where[, ordered]) for cards, or a sentence of
# :data:`SAID` ("side", "equip", "leader"). Fields: {who} the Trouper, {n} how many, {s} a
# plural's s, {space} the space, {name} the card there, {k} the key, {card} the record.
T = "troupers", "{t}"
C, CS = ("night", "chain", "{i}"), "Chain space {space}"
R, RS = ("night", "reaction_line", "{i}"), "Reaction Line space {space}"
M = ("night", "minions", "{i}")
PHYSICAL: dict[tuple[str, ...], tuple[Any, ...]] = {
    # tracks
    ("night", "threat"): ("track", "Threat token"),
    (*T, "insanity"): ("track", "Insanity cube", True),
    # tokens
    (*T, "vigor_depleted"): ("tokens", "Vigor token",
                             "flip {n} Vigor token{s} to the Depleted side",
                             "flip {n} Vigor token{s} back to the Available side"),
    (*T, "bites"): ("tokens", "Bite token", "put {n} Bite token{s} on your Vigor tokens",
                    "take {n} Bite token{s} off your Vigor tokens"),
    (*T, "bites_on_depleted"): ("tokens", "Bite tokens on Depleted Vigor tokens",
                                "move {n} Bite token{s} onto a Depleted Vigor token",
                                "move {n} Bite token{s} onto an Available Vigor token"),
    (*T, "unmarked_wounds"): ("tokens", "Wound", "{n} Wound{s} no card could mark (note them)",
                              "{n} unmarked Wound{s} healed"),
    (*T, "exhausted"): ("flag", "Exhausted token", "{who}: take an Exhausted token",
                        "{who}: put your Exhausted token away"),
    (*T, "knocked_out"): ("flag", "Trouper miniature",
                          "{who}: Knocked Out, lay your miniature down",
                          "{who}: stand your miniature up again"),
    **{(*T, kind, part): ("tokens", f"{name} tokens ({part})", f"{{n}} {name} {more}",
                          f"{{n}} {name} {fewer}")
       for kind, name in (("traps", "Trap"), ("whispers", "Whisper"))
       for part, more, fewer in (
           ("supply", "token{s} back to your Reserve", "token{s} out of your Reserve"),
           ("intact", "token{s} on the Map, Intact side up", "Intact token{s} off the Map"),
           ("consumed", "token{s} on the Map, Consumed side up",
            "Consumed token{s} off the Map"))},
    (*C, "resolved"): ("flag", f"Resolved token on {CS}",
                       f"{CS} ({{name}}): put a Resolved token on it",
                       f"{CS} ({{name}}): take its Resolved token away"),
    (*C, "sacrificed"): ("flag", f"Sacrifice Cube on {CS}",
                         f"{CS} ({{name}}): put a Cube on its Sacrifice symbol",
                         f"{CS} ({{name}}): take the Cube off its Sacrifice symbol"),
    (*C, "face_down"): ("flag", f"card side on {CS}", f"{CS}: turn {{name}} face down",
                        f"{CS}: turn {{name}} face up"),
    (*C, "supports_used"): ("tokens", f"Support Cubes on {CS}",
                            f"{CS} ({{name}}): put {{n}} Cube{{s}} on its used Support Effect",
                            f"{CS} ({{name}}): take {{n}} Cube{{s}} off its Support Effects",
                            False),
    (*C, "quick_used"): ("tokens", f"Quick Cubes on {CS}",
                         f"{CS} ({{name}}): mark {{n}} used Quick Effect{{s}} with a Cube",
                         f"{CS} ({{name}}): take {{n}} Cube{{s}} off its Quick Effects",
                         False),
    (*R, "resolved"): ("flag", f"Resolved token on {RS}", f"{RS}: put a Resolved token on it",
                       f"{RS}: take its Resolved token away"),
    (*M, "alive"): ("tokens", "Minion miniatures on space {space}",
                    "Minion space {space}: put {n} miniature{s} on the Map",
                    "Minion space {space}: take {n} miniature{s} off the Map"),
    (*M, "summoned"): ("flag", "Minion card on space {space}",
                       "Minion space {space}: the Minion is summoned",
                       "Minion space {space}: the Minion is no longer summoned"),
    ("night", "chain_spaces"): ("tokens", "Chain", "the Chain grows by {n} space{s}",
                                "the Chain shrinks by {n} space{s}", False),
    # Items, the Wagon, trophies
    (*T, "depleted_items"): ("listed", "item", "{name}: turn it face down (Depleted)",
                             "{name}: turn it face up again"),
    ("vlad_weakened",): ("listed", "card", "{name}: turn it to its Weakened side",
                         "{name}: turn it back to its Enhanced side"),
    (*T, "sleeves", "{i}", "advanced"): ("side",),
    (*T, "equipped", "{c}"): ("equip",),
    ("wagon", "{k}"): ("resources", "Wagon {k}"),
    ("location_trophies", "{k}"): ("resources", "Location Trophy {card}"),
    ("nemesis_trophies", "{k}"): ("resources", "Nemesis Trophy {card}"),
    ("leader",): ("leader",),
    # cards
    (*T, "hand"): ("zone", "{who}'s hand"),
    (*T, "deck"): ("zone", "{who}'s deck", True),  # the deck space (physical.deck_space)
    (*T, "discard"): ("zone", "{who}'s discard pile"),
    (*T, "wounds"): ("zone", "{who}'s Wounds space"),
    (*T, "reserve_cards"): ("zone", "{who}'s Reserve"),
    (*T, "reserve_items"): ("zone", "{who}'s Reserve (Items)"),
    (*T, "sleeves", "{i}", "item"): ("zone", "{who}'s Item sleeve {space}"),
    (*C, "card"): ("zone", CS),
    (*R, "card"): ("zone", RS),
    (*M, "minion"): ("zone", "Minion space {space}"),
    ("night", "reaction_deck"): ("zone", "the Reaction deck", True),
    ("night", "reaction_discard"): ("zone", "the Nemesis discard pile"),
    ("night", "nemesis_wounds", "{k}"): ("zone", "the Nemesis's {k} Wounds"),
    ("night", "event_deck"): ("zone", "the Event deck", True),
    ("advanced_decks", "{k}"): ("zone", "the {k} Advanced Tactic deck", True),
    ("training",): ("zone", "the Training cards"),
    ("crafting",): ("zone", "the Crafting cards"),
}

# The physical instructions' own sentences (engine/physical.py); ``[...]``: shown when set.
SAID: dict[str, str] = {
    "track": "{what}: {frm} → {to}",
    "track_trouper": "{who}: move your {what} to space {to} (from {frm})",
    "tokens": "[{who}: ]{verb} ({frm} → {to})",
    "item_sleeve": "Item sleeve {k}",
    "item_in_sleeve": "the Item in sleeve {k}",
    "item_upgraded": "{who}: turn {item} to its red (upgraded) side",
    "item_plain": "{who}: turn {item} to its plain side",
    "equip": "{who}: {item} beside your Trouper board ({category})",
    "unequip": "{who}: {item} back to your Reserve",
    "resource_add": "{name}: add {k} ({frm} → {to})",
    "resource_take": "{name}: take away {k} ({frm} → {to})",
    "leader": "{who} is the Leader now",
    "shuffle": "Shuffle {label}",
    "a_card": "a card",
    "cards": "{n} cards",
    "from_box": "{what}: to {to}",
    "to_box": "{what}: from {frm} back to the box",
    "move": "{what}: {frm} → {to}",
}


def check(kind: str, args: Mapping[str, Any]) -> None:
    """An event the engine writes has a declared kind and exactly its fields: anything else is
    a programming error, raised at once (old saves' logs are never checked)."""
    event = EVENTS.get(kind)
    if event is None:
        raise TypeError(f"log event of unknown kind {kind!r} (declare it in words/templates.py)")
    required, optional, open_ = event.declared()
    missing, extra = required - set(args), set(args) - required - optional
    problems = [f"missing {', '.join(sorted(missing))}"] if missing else []
    if extra and not open_:
        problems.append(f"undeclared {', '.join(sorted(extra))}")
    if problems:
        raise TypeError(f"log event {kind!r}: " + "; ".join(problems))
