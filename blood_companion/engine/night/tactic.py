"""Actions of the Tactic Phase: the Active Trouper's Effects, Supports, Items and Events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import chain as ch
from blood_companion.engine.actions import (
    Bonus,
    Cli,
    Confirm,
    Context,
    Dice,
    Discard,
    Distance,
    Flip,
    Heal,
    Items,
    Reroll,
    Side,
    Target,
    Trait,
    Weakness,
)
from blood_companion.engine.bookkeeping import item_side, night_of
from blood_companion.engine.box import gain_trophies
from blood_companion.engine.errors import RuleError
from blood_companion.engine.interpreter import ATTACKS, EVERY_ENEMY
from blood_companion.engine.legal import Ask, Option
from blood_companion.engine.night.asks import EffectAction, effect_option
from blood_companion.engine.night.core import NightAction, event_card, trouper_index
from blood_companion.engine.night.hands import actor, hand_picks, holds
from blood_companion.engine.night.phases import activate_next, settle
from blood_companion.engine.night.resolve import (
    active,
    aim,
    apply_own,
    card_effect,
    check_cost_and_condition,
    check_distance,
    event_position,
    first_test,
    is_area,
    keep_first_test,
    mark_done,
    own_after_test,
    pay_costs,
    support_legal,
    table_reads,
    take_effect_test,
    test_then_elements,
    update_slot,
)
from blood_companion.engine.night.views import (
    active_now,
    attack_targets,
    card_entries,
    effect_entry,
    event_entries,
    item_entries,
    no_target_why,
    quick_items,
    support_entries,
)
from blood_companion.engine.night_state import NightState
from blood_companion.engine.rolls.night import find_item
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import hidden_hand

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


class Attack(EffectAction):
    """The Active Trouper resolves an attack Effect of their card: target ``nemesis`` (with
    the side hit) or a Minion space; the Test's Trait and dice (typed in, or rolled)."""

    type: Literal["night_attack"] = "night_attack"
    doing = "an attack"
    command = "night attack"
    summary = "Tactic Phase: the Active Trouper attacks with an Effect of their card."
    effect: Annotated[int, Cli(help="Effect number on the Active card (1 = top).")]
    target: Annotated[str, Cli(help="nemesis, or a Minion space (A, B, C...).")]
    side: Side = None
    trait: Trait = None
    dice: Dice = []
    reroll: Reroll = []
    bonus_triumphs: Bonus = 0
    distance: Distance = None
    items: Items = []
    discard: Discard = []
    # Minion spaces for the other attack Elements (extra_minion_wounds)
    also: Annotated[list[str], Cli("--also", "Minion spaces for the other attack Elements (if "
                                   "the table's rules give them to another Minion).")] = []
    weakness: Weakness = None  # the table's word on a Weakness Effect's Condition
    confirm: Confirm = False  # the table confirms a Condition only it can see (the Map)
    token_flip: Flip = False  # a placed Trap/Whisper turns one's Consumed one on that Tile

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The Active card's attack Effects."""
        return _card_options(cls, state, catalog, attack=True)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, slot = active(state)
        key = self.target.strip().lower()
        area_key = "nemesis" if key in ("nemesis", "n", "boss") else key.removeprefix("minion:")
        card, eff, k = card_effect(cat, act, slot, self.effect, area_target=area_key)
        if not any(o.kind in ATTACKS for o in eff.outcome):
            raise RuleError(f"Effect {self.effect} of {card.name} makes no attack",
                            see=("night_effect",))
        t = act.trouper
        first_hit = act.done.get(k, 0) == 0
        if first_hit:  # a Special Area's Cost is paid once, for every target in it
            check_cost_and_condition(
                state, cat, t, eff, discard=self.discard, confirmed=self.confirm)
            state = pay_costs(state, cat, t, eff, discard=self.discard, slot=act.slot)
        state = mark_done(state, act, k, eff, area_key if is_area(eff) else None)
        # one Test per target, or the first target's for all (rules_config)
        one_test = is_area(eff) and cat.config.many_targets_attack == "one_test"
        same = first_test(act, k) if one_test else None
        state, ok = take_effect_test(
            state, cat, ctx.chance, t, eff, self, card.id, side=self.side,
            bonus_triumphs=self.bonus_triumphs, distance=self.distance, more_targets=self.also,
            weakness=self.weakness, same_test=same)
        if one_test and same is None:
            state = keep_first_test(state, k)
        state = own_after_test(state, cat, ctx.chance, t, eff, ok, token_flip=self.token_flip,
                               foe=self.target)
        return settle(state, cat, ctx.chance)

    words = (
        "[{actor}|The Active Trouper] attacks {target:target}[ ({side:side})]"
        "[ with {active}| with Effect {effect}]{trait:trait}{dice:dice}[, using {items:items}]"
    )


class ResolveEffect(EffectAction):
    """The Active Trouper resolves a non-attack Effect of their card (Step, Heal, Draw, a
    Test for a bonus, ...): the app applies what it tracks and shows the movements."""

    type: Literal["night_effect"] = "night_effect"
    doing = "resolving an Effect"
    command = "night effect"
    summary = "Tactic Phase: resolve a non-attack Effect (Step, Heal, Draw, a bonus...)."
    effect: Annotated[int, Cli(help="Effect number on the Active card (1 = top).",
                               metavar="number")]
    recipient: Annotated[str | None, Cli("--for", "The Trouper an ally Effect applies to.")] = None
    trait: Trait = None
    dice: Dice = []
    reroll: Reroll = []
    distance: Distance = None
    items: Items = []
    # every Minion / every Enemy: those the players say are within the Distance (None: unsaid)
    on: Annotated[list[str] | None, Cli(
        "--on", "Every Minion / every Enemy: those within the Distance (nemesis, Minion "
        "spaces); unsaid, the app writes it for the table.")] = None
    heal: Heal = []
    discard: Discard = []
    confirm: Confirm = False  # the table confirms a Condition only it can see (the Map)
    token_flip: Flip = False  # a placed Trap/Whisper turns one's Consumed one on that Tile

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The Active card's other Effects (Supports and Auras are not resolved)."""
        return _card_options(cls, state, catalog, attack=False)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, slot = active(state)
        card, eff, k = card_effect(cat, act, slot, self.effect)
        if self.on is not None and (eff.target is None or eff.target.kind not in EVERY_ENEMY):
            raise RuleError(f"Effect {self.effect} of {card.name} is not on every Minion or "
                            "every Enemy: it names no Enemies in range (--on)")
        if any(o.kind in ATTACKS for o in eff.outcome):
            raise RuleError(f"Effect {self.effect} of {card.name} is an attack",
                            see=("night_attack",))
        t = act.trouper
        who = aim(state, eff, t, self)
        check_cost_and_condition(state, cat, t, eff, discard=self.discard, confirmed=self.confirm)
        state = pay_costs(state, cat, t, eff, discard=self.discard, slot=act.slot)
        state = mark_done(state, act, k, eff)
        state, ok = take_effect_test(state, cat, ctx.chance, t, eff, self, card.id)
        if ok:
            on_enemy = eff.target is not None and eff.target.kind in ("enemy", "minion")
            state = apply_own(
                state, cat, ctx.chance, t, eff.outcome, target=who, heal=self.heal,
                token_flip=self.token_flip,
                foe=f"*{eff.target.kind}" if on_enemy and eff.target is not None else None,
                every=eff.target, on=self.on)
        if eff.text:
            state = fx.log(state, "card_text", card=card.id, effect=k)
        state = table_reads(state, t, eff)
        return settle(state, cat, ctx.chance)

    words = (
        "[{actor}|The Active Trouper] resolves Effect {effect}[ of {active}][ for {recipient:who}]"
        "[, healing {heal:names}][, discarding {discard:names}]{tested}"
    )


def _card_options(cls: type[EffectAction], state: CampaignState, catalog: Catalog,
                  attack: bool) -> tuple[Option, ...]:
    many = len(state.troupers) > 1
    return tuple(
        effect_option(cls, str(e["effect"]), f"Effect {e['effect']}: {e['text']}"
                      + (" (again, on another target in the Special Area)" if e.get("again")
                         else ""),
                      {"effect": e["effect"]}, e, many, enabled=e["open"], why=e["why"],
                      group="effect")
        for e in card_entries(state, catalog, attack))


class UseSupport(EffectAction):
    """The Active Trouper uses a Support Effect of another Trouper's card to the left on the
    Chain; a Cube marks it used for this turn ("Support Effect"). The Effect is added to the
    Active card's: a Support that attacks names its target (and the Nemesis side) and takes
    its Test like the card's own attack; one with a Test takes it; a Sacrifice Cost puts the
    Cube on that card's Sacrifice symbol (it goes to its owner's Wounds at Cleanup)."""

    type: Literal["night_support"] = "night_support"
    doing = "using a Support"
    command = "night support"
    summary = """Tactic Phase: use another Trouper's Support Effect from a card to the left.

    A Support that attacks names its target and takes its Test like a card's."""
    slot: Annotated[int, Cli(help="Chain space of the card with the Support.", metavar="space")]
    # 1-based; 0: the card's only Support Effect
    effect: Annotated[int, Cli("--effect", "Effect number [its Support Effect].")] = 0
    target: Target = None  # an attack: "nemesis" or a Minion space
    side: Side = None
    trait: Trait = None
    dice: Dice = []
    reroll: Reroll = []
    distance: int | None = None
    items: Items = []  # Quick Items used during its Test
    heal: Heal = []
    weakness: Weakness = None  # the table's word on a Weakness Effect's Condition
    confirm: Confirm = False  # the table confirms a Condition only it can see (the Map)
    token_flip: Flip = False  # a placed Trap/Whisper turns one's Consumed one on that Tile

    words = (
        "[{actor}|The Active Trouper] uses the Support of {slot:chain} (Chain space {slot})"
        "[ on {target:target}][ ({side:side})]{tested}"
    )

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The Supports to the left, added to the Active card: an attack or a Test asks as the
        card's."""
        supports = support_entries(state, catalog)
        per_space = Counter(s["space"] for s in supports)
        many = len(state.troupers) > 1
        return tuple(effect_option(
            cls, f"s{s['space']}" + (f".{s['effect']}" if per_space[s["space"]] > 1 else ""),
            f"Use the Support of {s['name']} "
            f"({fx.name_of(state, catalog, state.trouper_index(s['owner']))}): {s['text']}",
            {"slot": s["space"], "effect": s["effect"]}, s, many, enabled=s.get("open", True),
            why=s.get("why", ""), group="support") for s in supports)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        k, j, eff, cid = support_legal(state, cat, self.slot, self.effect, target=self.target,
                                       distance=self.distance, confirm=self.confirm)
        act = active(state)[1]
        state = pay_costs(state, cat, act.trouper, eff, discard=(), slot=k)
        state = update_slot(state, k, supports_used=[*night_of(state).chain[k].supports_used, j])
        state = fx.log(state, "support", who=fx.tid(state, act.trouper), card=cid)
        state, _ = test_then_elements(state, cat, ctx.chance, act.trouper, eff, self,
                                      recipient=act.trouper, label=cid)
        return settle(state, cat, ctx.chance)


class UseItem(EffectAction):
    """An equipped Item's Effect ("Using an Item"); a Quick Item also outside the owner's
    activation, e.g. during a dodge Test. Depleted until the Cleanup Phase. An Item that
    attacks names its target (and the Nemesis side) and takes its Test like a card's; one that
    targets a Trouper names who (``recipient``)."""

    type: Literal["night_item"] = "night_item"
    doing = "using an Item"
    command = "night item"
    summary = """Use an equipped Item (a Quick one also outside your activation).

    An Item that attacks names its target and takes its Test like a card's."""
    trouper: Annotated[str, Cli(help="Trouper id, colour or seat.", names="trouper")]
    item: Annotated[str, Cli(help="Equipped Item: id, prefix or name.", metavar="ITEM")]
    recipient: Annotated[str | None, Cli("--for", "The Trouper the Item's Effect targets.")] = None
    target: Target = None  # an attack: "nemesis" or a Minion space
    side: Side = None
    trait: Trait = None
    dice: Dice = []
    reroll: Reroll = []
    distance: int | None = None
    items: Items = []  # other Quick Items used during its Test
    heal: Heal = []
    discard: Discard = []
    weakness: Weakness = None  # the table's word on a Weakness Effect's Condition
    confirm: Confirm = False  # the table confirms a Condition only it can see (the Map)
    token_flip: Flip = False  # a placed Trap/Whisper turns one's Consumed one on that Tile

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The Active Trouper's Items, then the Quick Items usable now outside their owner's
        activation ("Quick Effects")."""
        many = len(state.troupers) > 1
        act = active_now(state)
        t = act.trouper if act is not None else 0
        out = [effect_option(
            cls, f"i{k + 1}", f"Use {it['name']}: {it['text']}",
            {"trouper": state.troupers[t].trouper, "item": it["item"]},
            _item_entry(state, catalog, t, it["item"]), many, enabled=it["open"], why=it["why"],
            group="item") for k, it in enumerate(item_entries(state, catalog))]
        out += [effect_option(
            cls, q["key"], f"Quick Item: {q['owner_name']} uses {q['name']}: {q['text']}",
            {"trouper": q["owner"], "item": q["item"]}, q, many, group="quick",
            enabled=q.get("open", True), why=q.get("why", "")) for q in quick_items(state, catalog)]
        return tuple(out)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night = night_of(state)
        t = trouper_index(state, self.trouper)
        tr = state.troupers[t]
        who = fx.name_of(state, cat, t)
        iid = find_item(state, cat, self.item, t)
        side = item_side(state, cat, t, iid)
        if iid in tr.depleted_items:
            raise RuleError(f"{side.name} is depleted until the Cleanup Phase")
        active = night.activation.trouper if night.activation is not None else None
        if not side.quick and (night.phase != "tactic" or active != t or night.pending):
            raise RuleError(f"{side.name} is not Quick: use it during {who}'s activation")
        if not side.effects:
            raise RuleError(f"{side.name} has no Effect to use")
        eff = side.effects[0]
        target = aim(state, eff, t, self, f"{side.name}'s attack")
        check_cost_and_condition(
            state, cat, t, eff, discard=self.discard, item=iid, confirmed=self.confirm)
        state = pay_costs(state, cat, t, eff, discard=self.discard, item=iid)
        if not any(c.kind == "deplete_item" for c in eff.cost):
            state = fx.with_trouper(
                state, t, depleted_items=[*state.troupers[t].depleted_items, iid])
        state = fx.log(state, "uses_item", who=tr.trouper, item=iid)
        state, tested = test_then_elements(state, cat, ctx.chance, t, eff, self,
                                           recipient=target, label=side.name)
        if tested:
            return settle(state, cat, ctx.chance)
        return state

    words = "{trouper:who} uses {item:item}[ on {target:target}][ for {recipient:who}]{tested}"


def _item_entry(state: CampaignState, catalog: Catalog, t: int, iid: str) -> dict[str, Any] | None:
    side = item_side(state, catalog, t, iid)
    if not side.effects:
        return None
    eff = side.effects[0]
    return {**effect_entry(state, t, eff, 1), "test": eff.test is not None}


class UseEvent(EffectAction):
    """One Event Effect per activation ("Event Effects"): Cost, Test, then Success (the Event
    turns face down, its reward and Outcome apply) or Failure (``on_failure`` on the Active
    Trouper)."""

    type: Literal["night_event"] = "night_event"
    doing = "an Event Effect"
    command = "night event"
    summary = "Tactic Phase: attempt one Event Effect during your activation."
    # card id, unique prefix, or 1-based Chain space
    event: Annotated[str, Cli(help="Event id, prefix or Chain space.", metavar="EVENT")]
    effect: Annotated[int, Cli("--effect", "Effect number on the Event card.")] = 1
    # a Minion space for attack Events
    target: Annotated[str | None, Cli("--target", "Minion space for an attack Event.")] = None
    trait: Trait = None
    dice: Dice = []
    reroll: Reroll = []
    distance: Annotated[int | None, Cli("--distance", "Distance to the Event's target.")] = None
    items: Items = []  # Quick Items used during the Test
    discard: Discard = []
    confirm: Confirm = False  # the table confirms a Condition only it can see (the Map)
    token_flip: Flip = False  # a placed Trap/Whisper turns one's Consumed one on that Tile

    words = (
        "[{actor}|The Active Trouper] attempts the Event {event:chain}[ on {target:target}]{tested}"
    )

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The open Event Effects; a Cost no answer can pay, or an attack without a target, is
        shown, not offered."""
        act = active_now(state)
        t = act.trouper if act is not None else 0
        held = len(state.troupers[t].hand)
        out = []
        for ev in event_entries(state, catalog):
            for e in ev["effects"]:
                why = ""
                if e["discard"] > held:
                    why = (f"the Cost discards {e['discard']} Tactic card(s); "
                           f"{fx.name_of(state, catalog, t)} holds {held}")
                elif e["attack"]:
                    eff = event_card(catalog, ev["event"]).effects[e["effect"] - 1]
                    if not attack_targets(state, catalog, eff):
                        why = no_target_why(eff)
                out.append(effect_option(
                    cls, f"e{ev['space']}" + (f".{e['effect']}" if len(ev["effects"]) > 1 else ""),
                    f"Event {ev['name']}: {e['text']}",
                    {"event": str(ev["space"]), "effect": e["effect"]}, e,
                    len(state.troupers) > 1, enabled=not why, why=why, group="event"))
        return tuple(out)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, _ = active(state)
        if act.event_used:
            raise RuleError("one Event Effect per activation")
        k = event_slot(night, self.event)
        slot = night.chain[k]
        ev = event_card(cat, slot.card)
        if not 0 <= self.effect - 1 < len(ev.effects):
            raise RuleError(f"{ev.name} has Effects 1 to {len(ev.effects)}")
        eff = ev.effects[self.effect - 1]
        t = act.trouper
        check_distance(eff, self.distance, "the Event's target")
        where = event_position(ev, eff, fx.name_of(state, cat, t))
        if where and not self.confirm:  # a fact of the Map: the table says it, never assumed
            raise RuleError(f"only the table can tell whether {where}",
                            hint="confirm that it does (--confirm), or resolve another Effect")
        check_cost_and_condition(state, cat, t, eff, discard=self.discard, confirmed=self.confirm)
        state = pay_costs(state, cat, t, eff, discard=self.discard)
        state = fx.with_night(state, activation=act.model_copy(update={"event_used": True}))
        state = fx.log(state, "attempts_event", who=fx.tid(state, t), event=ev.id)
        state, ok = take_effect_test(
            state, cat, ctx.chance, t, eff, self, ev.id,
            "name the Minion space the Event's attack targets (--target)")
        if night_of(state).result is not None:
            return state
        if ok:
            r = ev.reward
            wagon = state.wagon.model_copy(update={
                res: getattr(state.wagon, res) + getattr(r.resources, res)
                for res in ("jewels", "coins", "trinkets", "scrolls")})
            state = state.model_copy(update={"wagon": wagon})
            if r.location_trophies:  # capped by the box ("Trophies")
                state, _ = gain_trophies(state, cat, "location", ev.zone, r.location_trophies)
            state = update_slot(state, k, face_down=True, resolved=True)
            state = fx.with_night(state, chain_spaces=night_of(state).chain_spaces + r.chain_spaces)
            state = fx.log(state, "event_solved", event=ev.id)
            state = table_reads(state, t, eff)
            state = apply_own(state, cat, ctx.chance, t, eff.outcome, token_flip=self.token_flip,
                              foe=self.target)
        else:
            state = apply_own(state, cat, ctx.chance, t, eff.on_failure, token_flip=self.token_flip)
        return settle(state, cat, ctx.chance)


def event_slot(night: NightState, key: str) -> int:
    events = [(k, s.card) for k, s in enumerate(night.chain) if s.kind == "event"]
    if key.isdigit():
        at = ch.index_at(night.chain, int(key))
        if at is None or night.chain[at].kind != "event":
            raise RuleError(f"Chain space {key} holds no Event card")
        found = [at]
    else:
        found = [k for k, c in events if c == key] or [k for k, c in events if c.startswith(key)]
    if len(found) != 1:
        raise RuleError(f"no single Event {key!r} on the Chain",
                        hint="Events: " + ", ".join(c for _, c in events))
    if night.chain[found[0]].face_down:
        raise RuleError("that Event is already resolved")
    return found[0]


class RestRedraw(NightAction):
    """A Rest card's activation: discard any cards from hand, then draw up to five
    ("Rest")."""

    type: Literal["night_redraw"] = "night_redraw"
    doing = "a Rest's redraw"
    command = "night redraw"
    summary = "Tactic Phase, a Rest card: discard any cards, then draw up to five."
    discard: Annotated[list[str], Cli("--discard", "Card(s) to discard first: position in hand, "
                                      "name or id, comma-separated.", names="held")] = []

    words = (
        "[{actor}|The Resting Trouper] [discards {discard:names}, then ]"
        "draws up to {hand_size} cards"
    )

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """A Rest card's activation, before it draws: draw now, or discard some first."""
        night = state.night
        act = active_now(state)
        if act is None or night is None or night.chain[act.slot].kind != "rest" \
                or act.rest_drawn:
            return ()
        return (Option("1", f"Draw up to {catalog.config.hand_size} (discard nothing first)",
                       "night_redraw"),
                Option("x", "Discard some cards, then draw", "night_redraw",
                       needs=("discard",)))

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need != "discard":
            return None
        t = actor(state, option)  # a Rest: any cards of the hand
        picks = hand_picks(state, catalog, t)
        held = len(state.troupers[t].hand)
        return Ask("discard", f"Which cards does {fx.name_of(state, catalog, t)} discard before "
                   f"drawing up to {catalog.config.hand_size}? (names or numbers, Enter: none)",
                   picks, many=(0, held), default="none", most_why=holds(state, catalog, t),
                   info=(f"{holds(state, catalog, t)}: name at most {held}.",) + (
                       ("The app does not see this hand: the cards that can be in it.",)
                       if hidden_hand(state, t) else ()))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night, act, slot = active(state)
        if slot.kind != "rest":
            raise RuleError("only a Rest card's activation discards and draws up to five")
        if act.rest_drawn:
            raise RuleError("this Rest has already drawn")
        t = act.trouper
        if self.discard:
            state = fx.discard_cards(state, cat, t, list(self.discard))
        need = max(0, cat.config.hand_size - len(state.troupers[t].hand))
        state = fx.draw_cards(state, cat, t, need, ctx.chance)
        return fx.with_night(state, activation=act.model_copy(update={"rest_drawn": True}))


class FinishActivation(NightAction):
    """The Active Trouper is done: a Resolved token on the card; the next one activates."""

    type: Literal["night_done"] = "night_done"
    doing = "finishing an activation"
    command = "night done"
    summary = "Tactic Phase: the Active Trouper finishes (Resolved token); the next one activates."

    words = "Done: Resolved token, the next card activates"

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The Active Trouper finishing."""
        if active_now(state) is None:
            return ()
        return (Option("d", "Done: Resolved token, the next card activates", "night_done",
                       group="done"),)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        night, act, _ = active(state)
        state = fx.with_night(update_slot(state, act.slot, resolved=True), activation=None)
        state = fx.log(state, "resolved_token", space=ch.number(night.chain, act.slot))
        return activate_next(state)
