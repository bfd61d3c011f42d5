"""Resolving a Trouper's own Effects in the Tactic Phase: the Active card, its Effects top to
bottom, Costs and Conditions (engine/interpreter.py), Distance, and attacks against the Nemesis
or a Minion ("Attacks and Defenses")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.render import TIMING_NAMES
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import chain as ch
from blood_companion.engine import interpreter as interp
from blood_companion.engine.bookkeeping import night_of
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.interpreter import (
    ATTACKS,
    helps_test,
    weakness_always,
    weakness_on_attack,
)
from blood_companion.engine.night.core import minion_card, tactic_card, trouper_index
from blood_companion.engine.night_state import Activation, ChainSlot, NightState
from blood_companion.engine.rolls import attack_target
from blood_companion.engine.rolls.night import effect_test, take_test, use_test_items
from blood_companion.engine.state import CampaignState

# The moments whose Effects the app queues itself (engine/night/phases.py: queue_timed).
TIMED_MOMENTS = frozenset({"beginning_of_night", "beginning_of_turn", "beginning_of_cleanup"})

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.night.quick import UseQuick
    from blood_companion.engine.night.tactic import UseItem, UseSupport


def check_cost_and_condition(state: CampaignState, catalog: Catalog, t: int, eff: m.Effect, *,
                             discard: Sequence[str], item: str | None = None,
                             confirmed: bool = False) -> None:
    """Refuse (RuleError) an Effect whose Condition fails (or is one only the table sees and
    was not `confirmed`) or whose Costs Trouper ``t`` cannot pay with what the players named
    (engine/interpreter.py)."""
    interp.check_costs(
        state, catalog, t, eff, interp.Payment(tuple(discard), item, confirmed=confirmed))


def event_position(ev: m.Event, eff: m.Effect, who: str = "the Active Trouper") -> str:
    """Where the Active Trouper must stand for an Event Effect whose Target is a Tile by its
    Scenic Element ("Events", "Distance"), in words; "" when the Effect asks no such thing. Only
    the Map shows it: the table is asked, never assumed (docs/rules-decisions.md)."""
    target = eff.target
    if target is None or target.kind != "tile" or not ev.scenic_element:
        return ""
    d = target.distance
    where = "next to" if d == "1" else "on" if d == "0" else f"at Distance {d} from"
    return f"{who} stands {where} the {ev.scenic_element}"


def discards(eff: m.Effect) -> int:
    """How many cards of the hand the Effect's Cost discards."""
    return sum(c.n for c in eff.cost if c.kind == "discard_card")


def usable(state: CampaignState, catalog: Catalog, t: int, eff: m.Effect, *,
           discard: Sequence[str] | None = None, item: str | None = None) -> tuple[str, str]:
    """Whether Trouper ``t`` may resolve ``eff`` now, for the screens: ``(why not, Condition to
    confirm)``. The first is "" when they may; the second is the Condition in words when only
    the table can tell whether it holds (its option then asks for a confirmation). A Cost's
    discards are the first cards of the hand unless ``discard`` names them."""
    if discard is None:
        discard = state.troupers[t].hand[:discards(eff)]
    try:
        check_cost_and_condition(state, catalog, t, eff, discard=discard, item=item, confirmed=True)
    except RuleError as exc:
        return exc.message, ""
    if interp.condition_holds(state, t, eff.condition) is None:
        return "", interp.condition_text(eff)
    return "", ""


def token_to_place(state: CampaignState, t: int, eff: m.Effect) -> str | None:
    """"trap" or "whisper" when ``eff`` places a token of which Trouper ``t`` has a Consumed
    one on the Map (the players say whether the new one goes on it: it turns Intact)."""
    for o in eff.outcome:
        if o.kind == "place_trap" and state.troupers[t].traps.consumed:
            return "trap"
        if o.kind == "place_whisper" and state.troupers[t].whispers.consumed:
            return "whisper"
    return None


def pay_costs(state: CampaignState, catalog: Catalog, t: int, eff: m.Effect, *,
              discard: Sequence[str], item: str | None = None,
              slot: int | None = None) -> CampaignState:
    return interp.pay_costs(state, catalog, t, eff, interp.Payment(tuple(discard), item, slot))


def apply_own(state: CampaignState, catalog: Catalog, chance: Chance, t: int,
              outcome: Sequence[m.Outcome], *, target: int | None = None, heal: Sequence[str] = (),
              discard: Sequence[str] = (), token_flip: bool = False, foe: str | None = None,
              every: m.Target | None = None, on: Sequence[str] | None = None) -> CampaignState:
    """A Trouper Effect's Elements, Trouper ``t`` acting on ``target`` (default: themself);
    attacks are resolved by their Test (:func:`attack`). ``foe``: the Enemy the Effect's attack
    targeted ("nemesis" or a Minion space), which its Push, Attract or Move moves. ``every``:
    the Effect's Target, when it is every Minion / every Enemy (``on``: those the players said
    are within its Distance), whose Elements then act on each of them in turn."""
    act = interp.Act(
        catalog, chance, source=fx.tid(state, t), target=t if target is None else target,
        heal=tuple(heal), discard=tuple(discard), token_flip=token_flip,
        foe=foe_ref(state, foe) if foe else None)
    return interp.apply_outcomes(state, interp.every_act(state, act, every, on), outcome)


def own_after_test(
    state: CampaignState, catalog: Catalog, chance: Chance, t: int, eff: m.Effect, ok: bool,
    **how: Any,
) -> CampaignState:
    """An Effect's Elements once its attack or Test is taken: all of them (``how`` as for
    :func:`apply_own`) on a Success while the night goes on; on a Failure only the Trap the
    attack used, which is consumed whether it hit or not."""
    if ok and night_of(state).result is None:
        return apply_own(state, catalog, chance, t, eff.outcome, **how)
    if not ok:
        used = [o for o in eff.outcome if o.kind == "consume_trap"]
        state = apply_own(state, catalog, chance, t, used)
    return state


def foe_ref(state: CampaignState, target: str) -> dict[str, str] | None:
    """An attack's target as a Miniature reference for the log ("nemesis" or a Minion space)."""
    night = night_of(state)
    key = target.strip().lower()
    if key in ("*enemy", "*minion"):  # an Effect on an Enemy the players pick on the Map
        return {"any": key[1:]}
    if key in ("nemesis", "n", "boss"):
        return {"card": night.nemesis}
    space = key.removeprefix("minion:").upper()
    ms = next((x for x in night.minions if x.space == space), None)
    return {"card": ms.minion, "space": space} if ms is not None else None


def active(state: CampaignState) -> tuple[NightState, Activation, ChainSlot]:
    """The Active Trouper's activation (the phase is checked by the phase table)."""
    night = night_of(state)
    act = night.activation
    if act is None:
        raise RuleError("every card on the Chain is resolved", see=("night_continue",))
    return night, act, night.chain[act.slot]


def card_effect(
    catalog: Catalog, act: Activation, slot: ChainSlot, effect: int, area_target: str | None = None
) -> tuple[m.TacticCard, m.Effect, int]:
    """The Active card's Effect number `effect`, if it may be resolved now (top to bottom, each
    as many times as its Repetition). An Effect on a Special Area applies to every valid target
    in it ("Reading Special Areas"): it is resolved once per target (``area_target``), and the
    Nemesis only once. Raises RuleError."""
    if slot.kind == "rest":
        raise RuleError("a Rest card is face down: its Effects are not resolved",
                        see=("night_redraw", "night_done"))
    card = tactic_card(catalog, slot.card)
    k = effect - 1
    if not 0 <= k < len(card.effects):
        raise RuleError(f"{card.name} has Effects 1 to {len(card.effects)}")
    eff = card.effects[k]
    if eff.type == "support":
        raise RuleError("a Support Effect is used by another Trouper later on the Chain")
    if eff.type == "aura":
        raise RuleError("an Aura Effect is always active; there is nothing to resolve")
    if eff.timing in TIMED_MOMENTS:  # the app resolves it at its moment ("Cleanup Phase")
        raise RuleError(f"Effect {effect} of {card.name} is resolved by the app "
                        f"{TIMING_NAMES[eff.timing].lower()}, not in the Tactic Phase")
    if k < act.last:
        raise RuleError(
            f"{card.name}'s Effects resolve top to bottom: Effect {act.last + 1} "
            "is already resolved")
    if is_area(eff) and area_target is not None:
        if area_target == "nemesis" and "nemesis" in act.area_hits.get(k, []):
            raise RuleError(f"Effect {effect} of {card.name} already hit the Nemesis")
        return card, eff, k
    if act.done.get(k, 0) >= eff.repeat:
        raise RuleError(f"Effect {effect} of {card.name} is already resolved")
    if k in slot.quick_used:
        raise RuleError(
            f"Effect {effect} of {card.name} is Quick and was already resolved this turn")
    return card, eff, k


def is_area(eff: m.Effect) -> bool:
    """An Effect resolved once per target: on a Special Area ("Reading Special Areas") or on
    every Minion / every Enemy (the same reading: the Effect applies to each one)."""
    return eff.target is not None and (
        eff.target.distance == "area" or eff.target.kind in interp.EVERY_ENEMY)


def first_test(act: Activation, k: int) -> int | None:
    """rules_config ``many_targets_attack: one_test``: the total of the Test Effect ``k`` took
    on its first target, kept beside its targets hit (under the key ``-1 - k``)."""
    kept = act.area_hits.get(-1 - k)
    return int(kept[0]) if kept else None


def keep_first_test(state: CampaignState, k: int) -> CampaignState:
    """Keep the total of the Test just taken as Effect ``k``'s for its other targets."""
    night = night_of(state)
    act = night.activation
    total = next((e.args["total"] for e in reversed(night.log) if e.kind == "test"), None)
    if act is None or total is None:
        return state
    hits = {**act.area_hits, -1 - k: [str(total)]}
    return fx.with_night(state, activation=act.model_copy(update={"area_hits": hits}))


def mark_done(state: CampaignState, act: Activation, k: int, eff: m.Effect | None = None,
              area_target: str | None = None) -> CampaignState:
    """Effect ``k`` of the Active card is resolved (once more; for a Special Area, on
    ``area_target``); a Quick Effect is marked on the card, so it is not resolved again outside
    the activation ("Quick Effects")."""
    done = dict(act.done)
    done[k] = done.get(k, 0) + 1
    update: dict[str, Any] = {"done": done, "last": k}
    if area_target is not None:
        update["area_hits"] = {**act.area_hits, k: [*act.area_hits.get(k, []), area_target]}
    state = fx.with_night(state, activation=act.model_copy(update=update))
    if eff is not None and eff.type == "quick" and done[k] >= eff.repeat:
        state = mark_quick_used(state, act.slot, k)
    return state


def update_slot(state: CampaignState, slot: int, **update: Any) -> CampaignState:
    """The card at index ``slot`` of the Chain, changed."""
    chain = list(night_of(state).chain)
    chain[slot] = chain[slot].model_copy(update=update)
    return fx.with_night(state, chain=chain)


def mark_quick_used(state: CampaignState, slot: int, k: int) -> CampaignState:
    return update_slot(state, slot, quick_used=[*night_of(state).chain[slot].quick_used, k])


def check_distance(eff: m.Effect, distance: int | None, what: str) -> None:
    """Refuse a target the players declared out of the Effect's reach."""
    if distance is None or eff.target is None:
        return
    d = eff.target.distance
    if d in ("any", "area"):
        return
    lo, _, hi = d.partition("-")
    low, high = int(lo), int(hi or lo)
    if not low <= distance <= high:
        raise RuleError(f"{what} is at Distance {distance}; this Effect reaches Distance {d}")


def support_legal(state: CampaignState, cat: Catalog, space: int, effect: int, *,
                  target: str | None, distance: int | None = None,
                  confirm: bool = True) -> tuple[int, int, m.Effect, str]:
    """Refuse (RuleError) the Support at Chain ``space`` (``effect`` 0: the card's only one)
    the Active Trouper may not use now (the menus ask this too, with ``confirm`` set); else its
    Chain index, the Effect's index, the Effect and the card's id."""
    night, act, _ = active(state)
    k = ch.card_at(night.chain, space)
    slot = night.chain[k]
    if k >= act.slot:
        raise RuleError("a Support is used from a card to the left of the Active card")
    if slot.kind != "tactic" or slot.owner == act.trouper:
        raise RuleError("a Support is used from another Trouper's Tactic card")
    card = tactic_card(cat, slot.card)
    supports = [j for j, e in enumerate(card.effects) if e.type == "support"]
    if not supports:
        raise RuleError(f"{card.name} has no Support Effect")
    j = supports[0] if effect == 0 else effect - 1
    if j not in supports:
        raise RuleError(f"Effect {effect} of {card.name} is not a Support")
    if j in slot.supports_used:
        raise RuleError("that Support already has a Cube on it this turn")
    eff = card.effects[j]
    if slot.sacrificed and any(c.kind == "sacrifice" for c in eff.cost):
        raise RuleError(f"{card.name} is already Sacrificed")
    if target is None and any(o.kind in ATTACKS for o in eff.outcome):
        raise RuleError("name the target of the Support's attack (--target)",
                        see=("night_support",))
    check_distance(eff, distance, "the target")
    # its Condition reads the card owner's board (their tokens: "Support Effect"); its
    # Cost is paid by the Active Trouper who uses it (a Sacrifice: on the Support's card)
    owner = slot.owner if slot.owner is not None else act.trouper
    check_cost_and_condition(state, cat, owner, eff.model_copy(update={"cost": []}),
                             discard=(), confirmed=confirm)
    check_cost_and_condition(state, cat, act.trouper, eff.model_copy(
        update={"condition": None}), discard=())
    return k, j, eff, card.id


def aim(state: CampaignState, eff: m.Effect, t: int, act: Any, attack: str = "") -> int:
    """The Trouper an Effect of ``act`` lands on: the one named (``--for``) where it targets a
    Trouper, else ``t``. Refuses an attack (``attack`` names it) with no target named, and a
    target declared out of reach. Raises RuleError."""
    if attack and act.target is None and any(o.kind in ATTACKS for o in eff.outcome):
        raise RuleError(f"name the target of {attack} (--target)")
    who = t
    if act.recipient and eff.target is not None and eff.target.kind == "trouper":
        who = trouper_index(state, act.recipient)
    check_distance(eff, act.distance, "the target")
    return who


def attack_needs(
    state: CampaignState, catalog: Catalog, eff: m.Effect, target: str, side: str | None
) -> tuple[dict[str, int], str]:
    """What each attack kind of an Effect needs against a target ("Attacks and Defenses"): the
    Triumphs for its Physical and/or Mind Attack Elements (``{"physical": 4, "mind": 3}``, each
    against its own Defense), and the target's name. The Nemesis's Defenses are lowered by the
    Fatigue on the Reaction Line and changed by the Weakness of the side hit; a Test printed
    with its own number uses that number. Raises RuleError for a bad target."""
    kinds = list(dict.fromkeys(
        o.kind.removesuffix("_attack") for o in eff.outcome if o.kind in ATTACKS))
    if not kinds:
        raise RuleError("this Effect makes no attack", see=("night_effect",))
    key = target.strip().lower()
    night = night_of(state)
    needs: dict[str, int] = {}
    if key in ("nemesis", "n", "boss"):
        if side is None or side not in m.SIDES:
            raise RuleError(
                "name the Nemesis side you hit: front, left or right "
                "(at an Intersection, either side next to it)")
        nem = fx.nemesis_card(state, catalog)
        phys, mind = fx.fatigue(state, catalog)
        w = fx.weakness(state, catalog, side)
        for kind in kinds:
            mod = (w.physical_modifier if kind == "physical" else w.mind_modifier) if w else 0
            defense = nem.defenses.physical if kind == "physical" else nem.defenses.mind
            needs[kind] = attack_target(defense, phys if kind == "physical" else mind, mod)
        what = f"{nem.name} ({side})"
    else:
        space = key.removeprefix("minion:").upper()
        slot = next((s for s in night.minions if s.space == space), None)
        if slot is None or slot.alive <= 0:
            raise RuleError(
                f"no Minion stands on space {space}",
                hint="targets: nemesis, or a Minion space "
                + ", ".join(s.space for s in night.minions if s.alive > 0))
        card = minion_card(catalog, slot.minion)
        if (
            eff.target is not None
            and eff.target.minion_type
            and card.type != eff.target.minion_type
        ):
            raise RuleError(
                f"this Effect targets a {eff.target.minion_type.capitalize()}; "
                f"{card.name} is a {card.type.capitalize()}")
        needs = {kind: attack_target(getattr(card.defenses, kind)) for kind in kinds}
        what = f"{card.name} ({space})"
    if eff.test is not None and eff.test.target is not None:
        needs = dict.fromkeys(needs, eff.test.target)
    return needs, what


def attack_need(
    state: CampaignState, catalog: Catalog, eff: m.Effect, target: str, side: str | None
) -> tuple[str, int, str]:
    """An attack's Test against a target: the attack kind (physical or mind; the first one
    printed), the Triumphs the Test needs and the target's name (:func:`attack_needs`). With a
    Physical and a Mind Attack Element the Test needs the lower of their Defenses (it succeeds
    when one of them lands), or the higher one (rules_config ``mixed_attack_test``)."""
    needs, what = attack_needs(state, catalog, eff, target, side)
    pick = max if catalog.config.mixed_attack_test == "highest" else min
    return next(iter(needs)), pick(needs.values()), what


def weakness_asks(state: CampaignState, catalog: Catalog, t: int, side: str) -> str:
    """The Condition (in words) of a Weakness Effect that helps Trouper ``t``'s attack on
    ``side`` and that only the table can see; "" when there is none to ask."""
    for _, _, e in weakness_always(state, catalog, side):
        if helps_test(e) and interp.condition_holds(state, t, e.condition) is None:
            return interp.condition_text(e)
    return ""


def attack(state: CampaignState, catalog: Catalog, rng: Chance, t: int, eff: m.Effect, *,
           target: str, trait: str | None, dice: Sequence[str], reroll: Sequence[str], label: str,
           side: str | None = None, bonus_triumphs: int = 0, distance: int | None = None,
           more_targets: Sequence[str] = (), weakness: bool | None = None,
           same_test: int | None = None) -> tuple[CampaignState, bool]:
    """A Trouper's attack ("Attacks and Defenses"): a Test against the target's Physical or
    Mind Defense (the Nemesis's lowered by the Fatigue on the Reaction Line and changed by the
    Weakness of the side hit); each attack Element of the Effect inflicts a Wound.
    ``same_test``: the total of the Test the Effect took on its first target, compared to this
    target's Defense instead of a new Test (rules_config ``many_targets_attack: one_test``)."""
    tk = eff.target.kind if eff.target is not None else "enemy"
    key = target.strip().lower()
    is_nemesis = key in ("nemesis", "n", "boss")
    space = key.removeprefix("minion:").upper()
    if is_nemesis and tk in ("minion", "minions_all"):
        raise RuleError("this Effect targets a Minion, not the Nemesis")
    if not is_nemesis and tk == "nemesis":
        raise RuleError("this Effect targets the Nemesis")
    check_distance(eff, distance, "the target")
    needs, _ = attack_needs(state, catalog, eff, target, side)
    _, need, _ = attack_need(state, catalog, eff, target, side)
    traits = list(eff.test.traits) if eff.test else []
    fixed = eff.test.dice if eff.test else None
    night = night_of(state)
    if is_nemesis:
        foe, where = night.nemesis, side
    else:
        foe, where = next(s.minion for s in night.minions if s.space == space), space
    state = fx.log(
        state,
        "attacks",
        who=fx.tid(state, t),
        card=foe,
        where=where,
        **({"defense": next(iter(needs)), "need": need} if len(needs) == 1 else
           {"needs": needs}))
    if is_nemesis:
        assert side is not None
        state = weakness_on_attack(state, catalog, rng, t, side, weakness)
    if same_test is None:
        state, result = take_test(state, catalog, rng, t,
                                  traits=traits or list(m.TRAITS) if not fixed else traits,
                                  fixed_dice=fixed, target=need, trait=trait, dice=dice,
                                  reroll=reroll, bonus_triumphs=bonus_triumphs, label=label)
        total = result.total
    else:
        total = same_test
        state = fx.log(state, "same_test", who=fx.tid(state, t), total=total, need=need)
    # each attack Element lands when the Test reaches its own Defense ("Attacks and Defenses")
    landed = {k: n for k, n in needs.items() if total >= n}
    wounds = sum(1 for o in eff.outcome if o.kind.removesuffix("_attack") in landed)
    if len(needs) > 1:
        state = fx.log(state, "attack_elements", who=fx.tid(state, t), needs=needs,
                       landed=sorted(landed), total=total)
    if not wounds:
        return state, False
    if is_nemesis:
        assert side is not None
        state = fx.wound_nemesis(state, catalog, side, wounds, rng, by=(t, frozenset(landed)))
        return state, True
    # "Wounds": a Minion takes a single Wound and is defeated; the Effect's other attack
    # Elements find no Miniature on that target (docs/rules-decisions.md, "Night Part").
    state = fx.wound_minion(state, catalog, space, 1)
    extra = wounds - 1
    others = [o.strip().lower().removeprefix("minion:").upper() for o in more_targets]
    if len(others) > extra:
        raise RuleError(f"this attack has {extra} attack Element(s) left for other Minions, "
                        f"not {len(others)}")
    if space in others or len(set(others)) != len(others):
        raise RuleError("a Minion takes one Wound from an attack: name another Minion for "
                        "each other attack Element")
    for other in others:
        if catalog.config.extra_minion_wounds != "other_minion":
            raise RuleError("the extra Wounds of this attack are lost (rules_config: "
                            "extra_minion_wounds is 'lost')")
        state = fx.wound_minion(state, catalog, other, 1)
        extra -= 1
    if extra > 0:
        state = fx.log(state, "minion_extra_lost", minion=foe, n=extra)
    return state, True


def take_effect_test(
    state: CampaignState, catalog: Catalog, chance: Chance, t: int, eff: m.Effect, said: Any,
    label: str, untargeted: str = "name the target of the attack (--target)", **how: Any,
) -> tuple[CampaignState, bool]:
    """Trouper ``t`` takes the attack (against ``said.target``; ``how`` as for :func:`attack`)
    or the Test of an Effect, with the Quick Items used during it (``said`` names them, the
    Trait and the dice); whether it succeeded (True when it has neither)."""
    if not any(o.kind in ATTACKS for o in eff.outcome):
        if eff.test is None:
            return state, True
        state = use_test_items(state, catalog, chance, t, said.items)
        return effect_test(
            state, catalog, chance, t, eff.test, said.trait, said.dice, said.reroll, label)
    state = use_test_items(state, catalog, chance, t, said.items)
    if said.target is None:
        raise RuleError(untargeted)
    return attack(state, catalog, chance, t, eff, target=said.target, trait=said.trait,
                  dice=said.dice, reroll=said.reroll, label=label, **how)


def test_then_elements(state: CampaignState, catalog: Catalog, chance: Chance, t: int,
                       eff: m.Effect, said: UseItem | UseQuick | UseSupport, *, recipient: int,
                       label: str) -> tuple[CampaignState, bool]:
    """An Effect resolved by Trouper ``t`` after its Cost is paid (``said``: what the players
    named for it): its attack (against ``said.target``) or its Test, with the Quick Items used
    during it, then its Elements on a Success (on ``recipient``; :func:`own_after_test`).
    Returns the state and whether a Test was taken (the caller settles the night then)."""
    state = table_reads(state, t, eff)
    attacks = any(o.kind in ATTACKS for o in eff.outcome)
    state, ok = take_effect_test(state, catalog, chance, t, eff, said, label, side=said.side,
                                 weakness=said.weakness)
    state = own_after_test(state, catalog, chance, t, eff, ok, target=recipient, heal=said.heal,
                           token_flip=said.token_flip, foe=said.target if attacks else None,
                           every=None if attacks else eff.target)
    return state, attacks or eff.test is not None


def table_reads(state: CampaignState, t: int, eff: m.Effect) -> CampaignState:
    """An Effect kept as words (free text): the app applies nothing and tells the table to
    resolve it as printed; it never guesses."""
    if not eff.is_free_text:
        return state
    return fx.log(state, "own_free_text", who=fx.tid(state, t), words=eff.free_text)
