"""What the night's Effect actions offer and ask (engine/legal.py: an option's needs asked
one by one): :class:`EffectAction`, the base of the actions resolving an Effect (the Active
card's, a Support, an Item, an Event, a Quick Effect), whose options :func:`effect_option`
builds and whose questions are which target and side, which Trouper, which Trait, each throw
of a Test, a Condition the table confirms, where a token goes."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import chain as ch
from blood_companion.engine import interpreter as interp
from blood_companion.engine.bookkeeping import item_side, night_of
from blood_companion.engine.interpreter import ATTACKS
from blood_companion.engine.legal import Ask, Option, Pick
from blood_companion.engine.night.core import (
    NightAction,
    box_of,
    card_name,
    event_card,
    tactic_card,
)
from blood_companion.engine.night.hands import actor, from_hand
from blood_companion.engine.night.resolve import (
    attack_need,
    attack_needs,
    discards,
    event_position,
    token_to_place,
    weakness_asks,
)
from blood_companion.engine.night.views import area_hits, attack_targets, wounds_needed
from blood_companion.engine.rolls.night import TestSpec, setup_of, throw_ask
from blood_companion.engine.rolls.procedure import odds_for_test, prepare_test
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import UNKNOWN, unseen
from blood_companion.engine.words.text import percent

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


# What an Effect's option may ask, in this order: its Cost first (paid before the Effect), then
# its target and its Test.
NEEDS = ("confirm", "discard", "target", "side", "weakness", "recipient", "trait", "dice", "heal",
         "token_flip")


def effect_option(action: type[NightAction], key: str, label: str, fields: Mapping[str, Any],
                  entry: Mapping[str, Any] | None, many: bool, **more: Any) -> Option:
    """An option resolving an Effect (``entry``: as engine/night/views.py describes it) with
    ``action``: it asks what the Effect needs among the fields the action declares (a
    Support's Heal also with its attack); the throws are asked until the result is kept."""
    e = entry or {}
    kind = action.model_fields["type"].default
    attack = bool(e.get("attack"))
    wanted = {"confirm": e.get("confirm"), "discard": e.get("discard"), "target": attack,
              "side": attack, "weakness": attack, "token_flip": e.get("token"),
              "recipient": not attack and e.get("target") == "trouper" and many,
              "trait": attack or e.get("traits") or e.get("test_dice") or e.get("test"),
              "heal": e.get("heal") and (not attack or kind == "night_support")}
    wanted["dice"] = wanted["trait"]
    needs = tuple(n for n in NEEDS if wanted[n] and n in action.model_fields)
    return Option(key, label, kind, fields, needs=needs, repeat=("dice",) if "dice" in needs
                  else (), **more)


def trait_name(t: str | None) -> str:
    return (t or "").capitalize() if t and t.isalpha() else (t or "")


# --------------------------------------------------------------------------- follow-ups


def _position(catalog: Catalog, night: Any, option: Option, eff: m.Effect | None,
              who: str) -> str:
    """Where an Event Effect's option needs the Active Trouper to stand (its Scenic Element);
    "" for any other option."""
    if option.kind != "night_event" or eff is None:
        return ""
    slot = night.chain[ch.card_at(night.chain, int(str(option.fields["event"])))]
    return event_position(event_card(catalog, slot.card), eff, who)


def _effect_of(state: CampaignState, catalog: Catalog, option: Option) -> m.Effect | None:
    night = night_of(state)
    if option.kind == "night_event":
        k = ch.card_at(night.chain, int(str(option.fields["event"])))
        ev = event_card(catalog, night.chain[k].card)
        return ev.effects[int(option.fields.get("effect", 1)) - 1]
    if option.kind == "night_item":
        t = actor(state, option)
        side = item_side(state, catalog, t, str(option.fields["item"]))
        return side.effects[0] if side.effects else None
    if option.kind in ("night_quick", "night_support"):
        slot = night.chain[ch.card_at(night.chain, int(str(option.fields["slot"])))]
    elif night.activation is None or night.chain[night.activation.slot].kind != "tactic":
        return None
    else:  # the Active card's
        slot = night.chain[night.activation.slot]
    return tactic_card(catalog, slot.card).effects[int(option.fields["effect"]) - 1]


def test_spec(
    state: CampaignState, catalog: Catalog, option: Option, fields: Mapping[str, Any]
) -> TestSpec | None:
    """The Test an option takes with the answers so far (None: it takes none, or its
    target is not named yet)."""
    eff = _effect_of(state, catalog, option)
    if eff is None:
        return None
    t = actor(state, option)
    traits = [str(x) for x in eff.test.traits] if eff.test is not None else []
    fixed = eff.test.dice if eff.test is not None else None
    if any(o.kind in ATTACKS for o in eff.outcome):
        if not fields.get("target"):
            return None
        need = attack_need(state, catalog, eff, str(fields["target"]), fields.get("side"))[1]
        if not traits and not fixed:
            traits = list(m.TRAITS)
        if fields["target"] == "nemesis" and fields.get("side"):
            # the Weakness of the side hit may help the Test: the odds count it
            return TestSpec(t, tuple(traits), fixed, need, "Test", side=str(fields["side"]),
                            weakness=fields.get("weakness"))
    elif eff.test is not None:
        need = eff.test.target or 0
    else:
        return None
    return TestSpec(t, tuple(traits), fixed, need, "Test")


def _trait_ask(state: CampaignState, catalog: Catalog, spec: TestSpec) -> Ask | None:
    """Which Trait, each with the dice really rolled and the exact odds; not asked when the
    Test has one way only."""
    if len(spec.traits) <= 1:
        return None
    box = box_of(catalog)
    rows = []
    for trait in spec.traits:
        setup = setup_of(state, catalog, spec, trait)[1]
        ts = prepare_test(setup, box)
        p = odds_for_test(setup, box).probability
        rows.append((float(p), trait, " ".join(ts.pool), ts.notes))
    rows.sort(key=lambda r: -r[0])
    picks = tuple(
        Pick(str(i + 1), f"{trait_name(trait)}: roll {pool}, {percent(p)} to reach {spec.target}",
             trait)
        for i, (p, trait, pool, _) in enumerate(rows))
    return Ask("trait", f"Which Trait? ({spec.target} Triumph(s) needed)", picks, default="1",
               info=tuple(rows[0][3]))


def _hit_on(state: CampaignState, catalog: Catalog, eff: m.Effect | None, side: str) -> str:
    """The Triumphs an attack needs on a side of the Nemesis: "4+", or each attack kind's
    ("Physical 5+ / Mind 3+") when it has both."""
    if eff is None:
        return "?"
    needs, _ = attack_needs(state, catalog, eff, "nemesis", side)
    if len(needs) == 1:
        return f"{next(iter(needs.values()))}+"
    return " / ".join(f"{k.capitalize()} {n}+" for k, n in needs.items())


# the needs whose question reads the option's Effect
_OF_EFFECT = frozenset({"confirm", "token_flip", "discard", "recipient", "heal", "target", "side"})


class EffectAction(NightAction):
    """A night action resolving an Effect: its options (:func:`effect_option`) ask what the
    Effect needs (:data:`NEEDS`)."""

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        night = night_of(state)
        t = actor(state, option)
        who = fx.name_of(state, catalog, t)
        fields = {**option.fields, **answers}
        eff = _effect_of(state, catalog, option) if need in _OF_EFFECT else None
        if need == "confirm":  # only the Map shows it: no default, the table says (issue 39)
            said = interp.condition_text(eff) if eff is not None else ""
            text = "; ".join(x for x in (_position(catalog, night, option, eff, who), said) if x)
            return Ask("confirm", f"Does this hold at the table? {text[:1].upper()}{text[1:]}.", (
                Pick("y", "Yes: it holds (look at the Map)", True),
                Pick("n", "No: then this Effect cannot be resolved now", False, enabled=False,
                     why="choose another Effect (`back`)"),
            ), info=("Look at the Map: type y if it holds (Enter says nothing here).",))
        if need == "token_flip":
            kind = token_to_place(state, t, eff) if eff is not None else None
            if kind is None:
                return None
            word = kind.capitalize()
            return Ask("token_flip", f"Where does the new {word} token go?", (
                Pick("n", f"On a Tile without one of your Consumed {word} tokens", False),
                Pick("y", f"On a Tile with one of your Consumed {word} tokens: it turns Intact",
                     True),
            ), default="n")
        if need == "discard":  # a Cost: the cards the player discards
            n = discards(eff) if eff else 1
            return from_hand(state, catalog, t, "discard",
                              f"Which {n} card(s) does {who} discard to pay the Cost?", n)
        if need == "recipient":
            heals = eff is not None and any(o.kind == "heal" for o in eff.outcome)
            dist = eff.target.distance if eff is not None and eff.target is not None else "any"
            picks = tuple(
                Pick(str(i + 1), fx.name_of(state, catalog, i)
                     + (f" ({len(tr.wounds)} Wound(s))" if heals else ""), tr.trouper)
                for i, tr in enumerate(state.troupers))
            # a Heal: the most wounded Trouper, the acting one first among equals
            chosen = min(range(len(state.troupers)),
                         key=lambda i: (-len(state.troupers[i].wounds), i != t)) if heals else t
            where = "" if dist == "any" else f" (at Distance {dist}: look at the Map)"
            return Ask("recipient", f"Which Trouper does the Effect target{where}?", picks,
                       default=str(chosen + 1))
        if need == "heal":
            healed = state.trouper_index(fields["recipient"]) if fields.get("recipient") else t
            whose = fx.name_of(state, catalog, healed)
            wounds = state.troupers[healed].wounds
            if not wounds:
                return None
            known = [c for c in wounds if c != UNKNOWN]
            picks = tuple(Pick(str(i + 1), card_name(catalog, c), c) for i, c in enumerate(known))
            hidden = UNKNOWN in wounds
            if hidden:  # the Trouper decks at the table: name the card going back
                could = [c for c in unseen(state, healed) if c not in known]
                picks += tuple(
                    Pick(str(len(picks) + k + 1), f"{card_name(catalog, c)} (if it is among the "
                         "Wound cards)", c) for k, c in enumerate(could))
            n = sum(o.n for o in eff.outcome if o.kind == "heal") if eff else 1
            return Ask("heal", f"Heal {n}: which card(s) go from {whose}'s "
                       "Wounds space to the Discard Pile?"
                       + (" The Wounds space shows them: name them." if hidden else ""), picks,
                       many=(0, min(n, len(picks), len(wounds))),
                       most_why=f"Heal {n}; {whose} has {len(wounds)} Wound card(s)",
                       # the players' own choice, the app sees the cards: as many as Heal allows
                       default=None if hidden else
                       "*" if len(picks) <= n else " ".join(p.key for p in picks[:n]))
        if need == "target":
            already = (area_hits(night.activation, int(option.fields["effect"]) - 1)
                       if option.kind == "night_attack" else [])
            targets = attack_targets(state, catalog, eff, already) if eff is not None else []
            tpicks: list[Pick] = []
            for tg in targets:
                if tg["target"] == "nemesis":
                    needs = tg["needs"]
                    tpicks.append(Pick("n", f"{tg['name']} (Wounds still needed: "
                                       + ", ".join(f"{s} {needs[s]}" for s in m.SIDES) + ")",
                                       "nemesis"))
                else:
                    tpicks.append(Pick(tg["target"].lower(), f"Minion {tg['target']}: {tg['name']} "
                                       f"({tg['type']}, hit on {tg['defense']}+ Triumphs)",
                                       tg["target"]))
            want = eff.target.minion_type if eff is not None and eff.target is not None else None
            reach = eff.target.distance if eff is not None and eff.target is not None else "any"
            question = "Which target?" + (f" (a {want.capitalize()} Minion)" if want else "")
            if reach != "any":  # only the Map shows what is in reach: the table names it
                where = ("in the card's Special Area" if reach == "area"
                         else f"at Distance {reach} from {who}")
                return Ask("target", f"{question} Only a target {where}: look at the Map.",
                           tuple(tpicks), info=("Type the target's key or name (Enter says nothing "
                                                "here).",))
            return Ask("target", question, tuple(tpicks), default=tpicks[0].key if tpicks else None)
        if need == "side":
            if fields.get("target") != "nemesis":
                return None  # a Minion has no sides
            still = wounds_needed(state, catalog)
            spicks = tuple(Pick(side[0], f"{side.capitalize()} (still needs {still[side]}; hit on "
                                f"{_hit_on(state, catalog, eff, side)} Triumphs)", side)
                           for side in m.SIDES)
            return Ask("side", "Which side of the Nemesis do you hit (where you stand)?", spicks,
                       default=next((p.key for p in spicks if still[p.value]), "f"))
        if need == "weakness":  # a Weakness Effect helping this attack, on a table Condition
            hit_side = str(fields.get("side") or "")
            if fields.get("target") != "nemesis" or not hit_side:
                return None
            text = weakness_asks(state, catalog, t, hit_side)
            if not text:
                return None
            return Ask("weakness", f"The {hit_side.capitalize()} Weakness helps this attack if its "
                       f"Condition holds: {text}. Does it hold at the table?", (
                           Pick("y", "Yes: its Effect helps the Test", True),
                           Pick("n", "No: the Test is taken without it", False)))
        if need == "trait":
            spec = test_spec(state, catalog, option, fields)
            return _trait_ask(state, catalog, spec) if spec is not None else None
        if need == "dice":
            spec = test_spec(state, catalog, option, fields)
            if spec is None:
                return None
            return throw_ask(state, catalog, spec, fields)
        raise KeyError(need)  # pragma: no cover - every need above
