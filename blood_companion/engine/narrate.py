"""The night log as data, and its sentences.

The engine records what happened as events (``NightLogEntry``: the turn, the phase, a ``kind``
and ``args`` made of ids and numbers); the sentences players read are rendered here, at the
edge, from the data pack in use *now*. A card the owner transcribed shows its new name in old
logs, and the wording below can change freely without touching any save.

Argument conventions (what :func:`render` does with each key):

* ``who``, ``leader`` — a Trouper id, shown by its name; ``whos`` — a list of Trouper ids;
* ``card``, ``src``, ``nemesis``, ``minion``, ``item``, ``event`` — any record id, by its name
  (``face: "weakened"`` picks the Weakened face of a Vlad Reaction card);
* ``job`` — the Enemy card being resolved (:func:`job_ref`), shown as the card's name, the
  Skill or Weakness Effect, or the Minion's space;
* ``outcome`` / ``outcomes`` — Outcome elements as stored in the data (kind, n, ...), shown as
  the rulebook writes them;
* ``effect`` (with ``card``) — the text of that Effect of the card;
* ``reason`` — a code from :data:`REASONS`; ``check`` (with ``job``) — the Check card's rule;
* anything else is printed as it is.

``text`` events are sentences kept from saves of app 0.1.0.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.face import event_reward_text, trouper_name
from blood_companion.content.render import render_outcome
from blood_companion.engine.plain import SIDE_WORDS, counted, fill, listing

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.night_state import EnemyJob, NightLogEntry, NightState

# kind -> sentence template ({key} fields; see the module docstring for how keys render)
TEMPLATES: dict[str, str] = {
    "text": "{text}",
    # Troupers' bookkeeping ("Wounds", "Draw N", "Heal N", "Discard N", "Elements - Symbols")
    "reshuffle": "{who} reshuffles the discard pile",
    "no_card_for_wound": "{who} has no card left to take a Wound",
    "wound_from_hand": "{who} suffers a Wound with a card from the hand ({n} Wound cards)",
    "unmarked_wound": (
        "{who} suffers {n} Wound(s) no card can mark ({total} Wounds in all, for Knocked Out)"),
    "wound": "{who} suffers a Wound ({n} Wound cards)",
    "all_bitten": "{who}: every Vigor token is bitten",
    "bite": "{who} gets a Bite ({n})",
    "exhausted": "{who} is Exhausted",
    "draws": "{who} draws {n}",
    "discards": "{who} discards {n}",
    "heals": "{who} heals {n}",
    "knocked_out": "{who} has {n}+ Wounds and is Knocked Out for the rest of the night",
    # Threat and the Nemesis deck
    "threat": "Threat {before} -> {after}",
    "nemesis_reshuffle": "The Nemesis deck is empty: its discard pile is shuffled into it",
    "line_full": "Alert: the Reaction Line is full, no card is revealed",
    "no_reaction_left": "Alert: the Nemesis has no Reaction card left",
    "reveal": "Alert: the Nemesis reveals {card}",
    "reveal_interruption": "Alert: the Nemesis reveals {card} (Interruption: it resolves now)",
    "nemesis_wound": "{nemesis} suffers a Wound on the {side} ({n} there)",
    "nemesis_wound_unmarked": (
        "{nemesis} suffers a Wound on the {side} ({n} there); no Reaction card was left to "
        "mark it"),
    "night_over": "The night is {result}: {reason}",
    # Minions
    "minion_defeated": "{minion} is defeated; its card leaves the Night Board",
    "minion_hit": "{minion} loses a Miniature ({n} left)",
    "minion_extra_lost": (
        "{minion}: a Minion takes a single Wound; the attack's {n} other Wound(s) are lost"),
    "summon_no_space": "Summon ignored: no Minion space is free",
    "summon_no_card": "Summon ignored: no Minion card is left",
    "summon": "Summon: {minion} on space {space} - place its Miniature on {tile}",
    # Enemy cards
    "job_resolved": "{job}: resolved (Resolved token)",
    "check_holds": "{job} is a Check card and its condition holds: {check}",
    "check_fails": "{job} is a Check card; its condition does not hold ({check})",
    "no_target": "{job}: no valid target, the Effect is ignored",
    "enemy_move": "MOVE {src}: {outcome}",
    "enemy_move_tile": (
        "MOVE {src}: {outcome} to a Tile at Distance {distance} (Leader's Rule picks it)"),
    "enemy_outcome": "{src}: {outcome}",
    "enemy_text": "{job}: {effect}",
    "enemy_move_toward": "MOVE {src}: {outcome} toward {who}",
    "enemy_move_trouper": "MOVE {src}: {outcome} {who}",
    "enemy_on_trouper": "{src} -> {who}: {outcome}",
    "answer": "Answer: {whos}",
    "dodges": "{who} dodges",
    # Phases ("Game Turns")
    "beginning_of_night": "Beginning of the Night: each Trouper drew {n} cards",
    # what the hands hold; the moves themselves are the step's physical instructions
    "hand_dealt": "{who}'s hand: {cards} (the app drew them)",
    "hand_drawn": "{who}'s hand: {n} cards the players drew",
    "player_timing": "Players resolve, in an order they agree on: {found}",
    "game_turn": "Game Turn {turn}",
    "planning_phase": "Planning Phase",
    "planning_ends": "The Planning Phase ends: {reason}",
    "tactic_phase": "Tactic Phase",
    "active": "{who} is Active ({card}, Chain space {space})",
    "active_rest": "{who} is Active (a Rest, Chain space {space})",
    "chain_resolved": "Every card on the Chain is resolved",
    "nemesis_phase": "Nemesis Phase",
    "nemesis_phase_over": "The Nemesis Phase is over",
    "minions_phase": "Minions Phase",
    "minions_phase_over": "The Minions Phase is over",
    "minions_order": (
        "{minion} ({space}): its {n} Miniatures act one at a time, in the order the players "
        "choose; each question names the Miniature that acts"),
    "cleanup_phase": "Cleanup Phase",
    "leader_passes": "The Leader token passes to {leader}",
    "tokens_cleanup": (
        "Remove Consumed Trap and Whisper tokens from the Map; turn Intact ones to Consumed"),
    "cleanup_done": "Items refreshed, Exhausted tokens discarded, Threat back to 0",
    # Trap and Whisper tokens ("Trouper Tokens")
    "token_placed": (
        "{who} places a {token} token, Intact side up, on a Tile without one of their Intact "
        "{token}s ({supply} left in their Reserve)"),
    "token_flip": "{who} turns their Consumed {token} on that Tile back to its Intact side",
    "token_moved_consumed": (
        "{who} has no {token} left in their Reserve: move one of their Consumed {token}s from "
        "the Map to the Tile, Intact side up"),
    "token_moved_intact": (
        "{who} has no {token} left in their Reserve: move one of their Intact {token}s from the "
        "Map to the Tile"),
    "token_none": "{who} has no {token} token to place",
    "token_none_intact": "{who} has no Intact {token} on the Map to consume",
    "enemy_condition_fails": "{job}: its Condition does not hold, the Effect is skipped",
    "weakness_applies": "{card} ({side} Weakness) helps this attack: {effect}",
    "weakness_not_now": "{card} ({side} Weakness): its Condition does not hold for this attack",
    "weakness_trophy_met": "{card}: its Nemesis Trophy is won ({why})",
    "weakness_trophy_missed": "{card}: no Nemesis Trophy ({why})",
    "weakness_trophy": "{card}: the players win a Nemesis Trophy token of {nemesis}",
    "weakness_trophy_capped": (
        "{card}: the Trophy is earned, but the box holds no more Nemesis Trophy tokens of "
        "{nemesis}"),
    "free_text_resolved": "{job}: resolved at the table as printed",
    "free_text_skipped": "{job}: the table says it does not apply",
    "own_free_text": "{who}: resolve at the table as printed (the app cannot read it): {words}",
    "timed_skipped": "{job}: its Cost cannot be paid or its Condition fails: it is skipped",
    "timed_attack": "{job}: an attack at this moment is resolved by the table",
    "trap_consumed": "{who} turns that Trap to its Consumed side",
    # Troupers' actions
    "test": "{who} rolls {trait} for {label}: {faces}{extra} → {total} Triumph(s), {target} "
            "needed: {verdict}",
    "sacrifice": "Sacrifice: the card goes to Wounds at Cleanup",
    "test_bonus": "{who}: {outcome} on their next Test",
    "wagon_gain": "Wagon: +{n} {resource}",
    "foe_outcome": "{foe}: {outcome}, for the players to apply{within}",
    "move": "MOVE {who}: {outcome}",
    "own_outcome": "{who}: {outcome}",
    "attacks": "{who} attacks {card} ({where}): {defense} Defense {need}",
    "attack_elements": "{who}'s {total} Triumph(s): {landed}",
    "same_test": "{who}'s Test for this Effect's first target ({total} Triumph(s)) counts for "
                 "this one too: {need} needed",
    "plays": "{who} plays {card} on Chain space {space}{tags}",
    "rests": "{who} Rests (a face-down card on Chain space {space})",
    "card_text": "{card}: {effect}",
    "support": "{who} uses the Support of {card}",
    "uses_item": "{who} uses {item}",
    "quick_effect": "{who} resolves a Quick Effect of {card} (outside the activation)",
    "attempts_event": "{who} attempts the Event {event}",
    "event_solved": "Event {event} resolved (face down): reward {reward}",
    "resolved_token": "Chain space {space}: Resolved token"}

# The sentence of an event when it carries this extra argument (a card the app drew from a
# deck it holds, named so the players take that one: engine/table.py).
WITH_ARG: dict[tuple[str, str], str] = {
    ("minions_order", "leader"): (
        "{minion} ({space}): its {n} Miniatures act one at a time, in the order the players "
        "agree on ({leader} holds the Leader token and settles a disagreement); each question "
        "names the Miniature that acts"),
    ("wound", "card"): "{who} suffers a Wound: {card}, the top card of the deck ({n} Wound cards)",
    ("draws", "cards"): "{who} draws {n}: {cards}",
    ("bite", "on"): (
        "{who} gets a Bite ({n}): lay a Bite token on one of their {on} Vigor tokens without one"),
    ("attacks", "needs"): "{who} attacks {card} ({where}): {needs}",
    ("nemesis_wound", "card"): (
        "{nemesis} suffers a Wound on the {side} ({n} there): {card} goes in the Wounds space "
        "of that side")}

# Why a night ended or a Planning Phase stopped (``reason`` codes).
REASONS: dict[str, str] = {
    "nemesis_defeated": "the Nemesis took every Wound its Difficulty requires",
    "all_knocked_out": "every Trouper is Knocked Out",
    "nobody_can_play": "no Trouper has a card left to play",
    "nobody_can_play_card": "no Trouper can play a card", "chain_full": "the Chain is full",
    "block": "a Block card was played", "everyone_passed": "every Trouper has played",
    "check_holds": "a Check card's condition holds"}

_NAME_KEYS = {"card", "src", "nemesis", "minion", "item", "event"}


def job_ref(job: EnemyJob, *, weakened: bool = False) -> dict[str, Any]:
    """The ``job`` argument of an event: which Enemy card (and which part of it) acts."""
    ref: dict[str, Any] = {"source": job.source, "card": job.card}
    if job.effects is not None:
        ref["effects"] = list(job.effects)
    if job.space is not None:
        ref["space"] = job.space
    if job.miniature:
        ref["miniature"] = job.miniature
        ref["of"] = job.miniatures
    if weakened:
        ref["face"] = "weakened"
    return ref


def record_name(catalog: Catalog, id: Any, face: str | None = None) -> str:
    """A record's name in the data pack in use (its id when the pack no longer has it)."""
    rec: Any = catalog.find(str(id))
    if rec is None:
        return str(id)
    if m.instance_of(rec, "VladReactionCard"):
        return str(rec.weakened.name if face == "weakened" else rec.enhanced.name)
    return str(getattr(rec, "name", id))


def job_label(catalog: Catalog, ref: Mapping[str, Any]) -> str:
    """How players call the Enemy card of a ``job`` argument."""
    source, card = ref.get("source"), str(ref.get("card", ""))
    name = record_name(catalog, card, ref.get("face"))
    if source == "skill":
        nem = catalog.nemesis(card)
        effects = ref.get("effects") or []
        if nem is not None and effects and 0 <= effects[0] < len(nem.skills):
            return f"{nem.name}: {nem.skills[effects[0]].name or 'Skill'}"
        return f"{name}: Skill"
    if source == "weakness":
        w = catalog.get("weaknesses", card)
        return f"{w.name}: {w.effect_name}" if w is not None else name
    if source == "minion":
        space = ref.get("space", "?")
        if ref.get("of", 0) and ref["of"] > 1:
            return f"{name} ({space}, Miniature {ref.get('miniature')} of {ref['of']})"
        return f"{name} ({space})"
    return name


def _effects_of(catalog: Catalog, ref: Mapping[str, Any]) -> list[m.Effect]:
    """The Effects of the card an event names (a job or a plain card)."""
    card = str(ref.get("card", ""))
    rec = catalog.find(card)
    if rec is None:
        return []
    if m.instance_of(rec, "VladReactionCard"):
        return list(rec.weakened.effects if ref.get("face") == "weakened" else rec.enhanced.effects)
    if isinstance(rec, m.Nemesis):
        return list(rec.skills)
    effects = getattr(rec, "effects", None)
    if effects is None and hasattr(rec, "starting"):  # an Item card: its Starting side
        effects = rec.starting.effects
    return list(effects or [])


def effect_of(catalog: Catalog, ref: Mapping[str, Any], k: int) -> m.Effect | None:
    """Effect ``k`` of the card an event names (None when the data pack no longer has it)."""
    effects = _effects_of(catalog, ref)
    return effects[k] if 0 <= k < len(effects) else None


def _effect_text(catalog: Catalog, args: Mapping[str, Any]) -> str:
    ref = args.get("job") or args
    k = args.get("effect")
    effects = _effects_of(catalog, ref)
    if isinstance(k, int) and 0 <= k < len(effects):
        eff = effects[k]
        return eff.text or ", ".join(render_outcome(o) for o in eff.outcome)
    return str(args.get("effect_text", "(an Effect no longer in the data pack)"))


def _check_text(catalog: Catalog, ref: Mapping[str, Any]) -> str:
    rec: Any = catalog.find(str(ref.get("card", "")))
    check = None
    if m.instance_of(rec, "VladReactionCard"):
        check = (rec.weakened if ref.get("face") == "weakened" else rec.enhanced).check
    elif rec is not None:
        check = getattr(rec, "check", None)
    if check is None:
        return "its rule"
    return str(check.text or check.kind.replace("_", " "))


def _outcome(value: Any) -> str:
    try:
        return render_outcome(m.Outcome.model_validate(value))
    except Exception:  # noqa: BLE001 - an element from another data version: show its kind
        return str(value.get("kind", value)) if isinstance(value, dict) else str(value)


# Keys shown without the data pack: (the value, the event's args) -> words.
_PLAIN: dict[str, Callable[[Any, Mapping[str, Any]], str]] = {
    "tags": lambda v, args: "".join(f" ({t})" for t in v or []),
    "within": lambda v, args: _within(args),
    "extra": lambda v, args: f" +{v}" if v else "",
    "verdict": lambda v, args: "Success" if args.get("success") else "Failure",
    "side": lambda v, args: SIDE_WORDS.get(str(v), str(v)),
    "trait": lambda v, args: str(v).capitalize() if v and str(v).isalpha() else str(v),
    "token": lambda v, args: "Trap" if v == "traps" else "Whisper",
    "defense": lambda v, args: str(v).capitalize()}


def _value(catalog: Catalog, key: str, args: Mapping[str, Any]) -> str:
    v = args.get(key)
    if key in _PLAIN:
        return _PLAIN[key](v, args)
    if key in ("who", "leader"):
        return trouper_name(catalog, v)
    if key == "whos":
        names = [trouper_name(catalog, x) for x in (v or [])]
        return ", ".join(names) or "nobody"
    if key in _NAME_KEYS:
        return record_name(catalog, v, args.get("face"))
    if key == "job":
        return job_label(catalog, v or {})
    if key == "outcome":
        return _outcome(v)
    if key == "effect":
        return _effect_text(catalog, args)
    if key == "check":
        return _check_text(catalog, args.get("job") or args)
    if key == "reward":
        ev = catalog.get("events", str(args.get("event", "")))
        return event_reward_text(ev.reward) if ev is not None else "(not in the data pack)"
    if key == "reason":
        if v == "check_holds" and args.get("job"):
            ref = args["job"]
            return f"{job_label(catalog, ref)}: {_check_text(catalog, ref)}"
        return REASONS.get(str(v), str(v))
    if key == "cards":
        return listing(record_name(catalog, c) for c in v) if v else ""
    if key == "faces" and isinstance(v, str):
        return faces_words(v)
    if key == "found":
        return "; ".join(
            f"{trouper_name(catalog, who)}: {record_name(catalog, card)}" for who, card in v or [])
    if key == "resource" and isinstance(v, str):  # "+1 coin", "+2 coins"
        return counted(int(args.get("n", 0)), v).partition(" ")[2]
    if key == "foe":
        return miniature_name(catalog, v)
    if key == "label":
        if v in (None, "", "dodge", "test"):
            return "the dodge" if v == "dodge" else "a Test"
        return record_name(catalog, v)
    if key == "tile":
        return summon_tile(catalog, args)
    if key == "needs" and isinstance(v, Mapping):  # each attack kind against its own Defense
        return ", ".join(f"{str(k).capitalize()} Defense {n}" for k, n in v.items())
    if key == "landed":
        needs = args.get("needs") or {}
        return ", ".join(
            f"the {str(k).capitalize()} Attack "
            + ("lands" if k in (v or []) else f"misses ({n} needed)")
            for k, n in needs.items())
    return "" if v is None else str(v)


def summon_tile(catalog: Catalog, place: Mapping[str, Any] | None) -> str:
    """Where a summoned Minion's Miniature goes ("Summon"): the Tile of the Trouper the Effect
    targets (``who``), a Tile at the Effect's Distance from its source (``distance``, ``src``),
    else the Nemesis's Tile."""
    if place and place.get("who"):
        return f"the Tile of {trouper_name(catalog, place['who'])}"
    if place and place.get("distance"):
        src = record_name(catalog, place.get("src", ""))
        if place["distance"] in ("any", "area"):
            return f"the Tile {src}'s Effect names (Leader's Rule picks it)"
        return f"a Tile at Distance {place['distance']} from {src} (Leader's Rule picks it)"
    return "the Nemesis's Tile"


def night_reason(night: NightState, catalog: Catalog) -> str:
    """Why the night ended, in words (``NightState.reason`` holds a code of :data:`REASONS`,
    or a sentence in saves of app 0.1.0)."""
    for entry in reversed(night.log):
        if entry.kind == "night_over":
            return _value(catalog, "reason", entry.args)
    return REASONS.get(night.reason, night.reason)


def render(entry: NightLogEntry | Mapping[str, Any], catalog: Catalog) -> str:
    """The sentence of one log event, in the words and names of the data pack in use."""
    if isinstance(entry, Mapping):
        kind, args = str(entry.get("kind", "")), entry.get("args") or {}
    else:
        kind, args = entry.kind, entry.args
    if kind == "movement":
        return movement_text(catalog, args)
    if kind == "decision":  # a record for `why` (engine/why.py), not told as it happens
        return "A decision of the Nemesis side (`why` shows it)"
    if kind == "cube_placed":
        return cube_text(catalog, args)
    template = TEMPLATES.get(kind)
    for (k, arg), text in WITH_ARG.items():
        if k == kind and args.get(arg):
            template = text
    if template is None:
        return f"({kind.replace('_', ' ')}: {', '.join(f'{k} {v}' for k, v in args.items())})"
    return fill(template, args.get, lambda field, _, v: _value(catalog, field, args))


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


def miniature_name(catalog: Catalog, ref: Mapping[str, Any] | None) -> str:
    """A Miniature on the Map: a Trouper, the Nemesis, a Minion (with its space)."""
    if not ref:
        return "the Effect's target"
    if "trouper" in ref:
        return trouper_name(catalog, ref["trouper"])
    if "any" in ref:
        what = "Minion" if ref["any"] == "minion" else "Enemy"
        return f"the {what} the Effect targets (on the Map)"
    if "goal" in ref:  # an Enemy a movement goes toward: the players see which on the Map
        kind = str(ref["goal"]).capitalize()
        what = f"{str(ref['type']).capitalize()} {kind}" if ref.get("type") else kind
        near = f"{ref['by']} " if ref.get("by") else ""
        return f"the {near}{what} (the Map shows which; a tie: the Leader's Rule)"
    if "distance" in ref:
        if ref["distance"] == "any":
            return "a Tile (Leader's Rule picks it)"
        return f"a Tile at Distance {ref['distance']} (Leader's Rule picks it)"
    if "among" in ref:
        names = listing(trouper_name(catalog, t) for t in ref["among"])
        if ref.get("by") in ("closest", "farthest"):
            return (f"the {ref['by']} of {names} (the Map shows which; a tie: the Leader's "
                    "Rule)")
        return f"one of {names} (tied after its Target Priorities: the Leader's Rule)"
    rec = catalog.find(str(ref.get("card", "")))
    name = record_name(catalog, ref.get("card"))
    if isinstance(rec, m.Minion):
        return f"the {name} Minion" + (f" on space {ref['space']}" if ref.get("space") else "")
    return name


def movement_text(catalog: Catalog, args: Mapping[str, Any]) -> str:
    """A movement log event as the instruction the table carries out."""
    kind = str(args.get("move", "move"))
    template = MOVES.get(kind, MOVES["move"])
    toward = args.get("toward")
    text = template.format(
        mover=miniature_name(catalog, args.get("mover")),
        by=miniature_name(catalog, args.get("by")) if args.get("by") else "its source",
        n=args.get("n") or 1,
        toward=(f" {'away from' if args.get('away') else 'toward'} "
                f"{miniature_name(catalog, toward)}" if toward else ""))
    mover = args.get("mover") or {}
    if isinstance(catalog.find(str(mover.get("card", ""))), m.Nemesis):
        if kind != "escape":
            aim = (" (the side on the shortest path to its target)"
                   if toward or kind == "attract" else "")
            text += NEMESIS_TURNS.format(target=aim)
        text += NEMESIS_ENTERS
    return text + _within(args)


def cube_text(catalog: Catalog, args: Mapping[str, Any]) -> str:
    """A Cube placed on a Tile ("Other Components"), as the table places it."""
    src = args.get("src")
    who = trouper_name(catalog, src) if catalog.trouper(str(src)) else record_name(catalog, src)
    nemesis = catalog.find(str(args.get("nemesis", "")))
    stands = getattr(nemesis, "cube_name", None)
    n = int(args.get("n") or 1)
    what = ("a Cube" if n == 1 else f"{n} Cubes") + (f" ({stands})" if stands else "")
    tile = (f"a Tile at Distance {args['distance']} from {who} (Leader's Rule picks it)"
            if args.get("distance") else f"the Tile {who}'s Effect targets")
    return f"PLACE {what} on {tile}"


def _within(args: Mapping[str, Any]) -> str:
    """An Effect on every Minion / Enemy whose Distance only the table sees."""
    d = args.get("within")
    return f" (only if it stands within {'the Special Area' if d == 'area' else f'Distance {d}'}" \
        " of the Effect's source)" if d else ""


def faces_words(text: str) -> str:
    """Recorded faces spelled out: "R0x G1" -> "Red die: a Defeat; Grey die: 1 Triumph"
    (an entry it cannot read, a face label, stays as written)."""
    from blood_companion.engine.dice import DIE_NAMES

    out = []
    for entry in text.split():
        found = re.fullmatch(r"([RGB]?):?(\d*)(?:/(\d+))?(x*)", entry)
        if found is None or not any(found.groups()[1:]):
            out.append(entry)
            continue
        die, won, lost, xs = found.groups()
        n, k = int(won or 0), int(lost) if lost else len(xs)
        face = " and ".join(([f"{n} Triumph" + "s" * (n != 1)] if n else [])
                            + (["a Defeat" if k == 1 else f"{k} Defeats"] if k else []))
        out.append((f"{DIE_NAMES[die]} die: " if die else "") + (face or "a blank face"))
    return "; ".join(out)
