"""Quick Effects outside the owner's activation ("Quick Effects", "Types of Effects"): a Quick
Effect of a Tactic card on the Chain, and a Quick Item, may be resolved at any moment of the
night their Cost can be paid and their Condition holds, by paying that Cost.

:class:`UseQuick` resolves a Quick Effect of a card on the Chain once per card (resolving it in
the card's own activation counts too: ``ChainSlot.quick_used``); what may be used now is its
:meth:`UseQuick.options`. An Effect timed "right after a Wound" (``timing: on_wound``) is
offered while its owner holds a Wound card: the table knows the moment
(docs/rules-decisions.md, "Quick Effects").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from blood_companion.content import models as m
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import chain as ch
from blood_companion.engine.actions import (
    Cli,
    Confirm,
    Context,
    Dice,
    Discard,
    Flip,
    Heal,
    Items,
    Reroll,
    Side,
    Target,
    Trait,
    Weakness,
)
from blood_companion.engine.bookkeeping import night_of
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import Option
from blood_companion.engine.night.asks import EffectAction, effect_option
from blood_companion.engine.night.core import tactic_card
from blood_companion.engine.night.phases import settle
from blood_companion.engine.night.resolve import (
    aim,
    check_cost_and_condition,
    mark_quick_used,
    pay_costs,
    test_then_elements,
)
from blood_companion.engine.night.views import quick_cards
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

class UseQuick(EffectAction):
    """A Quick Effect of a Tactic card on the Chain, resolved outside its owner's activation
    (its owner resolves it, paying its Cost). An attack names its target (and side) and takes
    its Test like any attack; a Trouper target is named with ``recipient``."""

    type: Literal["night_quick"] = "night_quick"
    doing = "a Quick Effect"
    command = "night quick"
    summary = """Resolve a Quick Effect of a card on the Chain outside its owner's activation.

    Any moment its Cost can be paid and its Condition holds."""
    # 1-based Chain space of the card
    slot: Annotated[int, Cli(help="Chain space of the card with the Quick Effect.",
                             metavar="space")]
    # 1-based Effect number on the card
    effect: Annotated[int, Cli("--effect", "Effect number on the card (1 = top).")] = 1
    recipient: Annotated[str | None, Cli("--for", "The Trouper the Effect targets.")] = None
    target: Target = None
    side: Side = None
    trait: Trait = None
    dice: Dice = []
    reroll: Reroll = []
    distance: int | None = None
    items: Items = []
    heal: Heal = []
    discard: Discard = []
    weakness: Weakness = None  # the table's word on a Weakness Effect's Condition
    confirm: Confirm = False  # the table confirms a Condition only it can see (the Map)
    token_flip: Flip = False  # a placed Trap/Whisper turns one's Consumed one on that Tile

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The Quick Effects of the cards on the Chain usable now."""
        return tuple(effect_option(
            cls, q["key"], f"{q['name']} ({q['owner_name']}, Chain space {q['space']}): "
            f"{q['text']}", {"slot": q["space"], "effect": q["effect"]}, q,
            len(state.troupers) > 1, group="quick", enabled=q.get("open", True),
            why=q.get("why", "")) for q in quick_cards(state, catalog))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        night = night_of(state)
        k, j, eff = quick_effect(state, cat, self.slot, self.effect)
        slot = night.chain[k]
        assert slot.owner is not None
        t = slot.owner
        target = aim(state, eff, t, self, "the Quick attack")
        check_cost_and_condition(state, cat, t, eff, discard=self.discard, confirmed=self.confirm)
        state = pay_costs(state, cat, t, eff, discard=self.discard, slot=k)
        state = mark_quick_used(state, k, j)
        card = tactic_card(cat, slot.card)
        state = fx.log(state, "quick_effect", who=fx.tid(state, t), card=card.id, n=j + 1)
        state, _ = test_then_elements(state, cat, ctx.chance, t, eff, self, recipient=target,
                                      label=card.name)
        return settle(state, cat, ctx.chance)

    words = (
        "Quick Effect {effect} of {slot:chain} (Chain space {slot})[ on {target:target}]"
        "[ for {recipient:who}]"
    )


def quick_effect(
    state: CampaignState, catalog: Catalog, space: int, effect: int
) -> tuple[int, int, m.Effect]:
    """The Chain index, Effect index and Effect of a Quick Effect that may be resolved now
    outside its card's activation. Raises RuleError."""
    night = night_of(state)
    k = ch.card_at(night.chain, space)
    slot = night.chain[k]
    if slot.kind != "tactic" or slot.owner is None:
        raise RuleError(f"Chain space {space} holds no face-up Tactic card")
    card = tactic_card(catalog, slot.card)
    j = effect - 1
    if not 0 <= j < len(card.effects):
        raise RuleError(f"{card.name} has Effects 1 to {len(card.effects)}")
    eff = card.effects[j]
    if eff.type != "quick":
        raise RuleError(
            f"Effect {effect} of {card.name} is not Quick: it is resolved in its activation")
    if j in slot.quick_used:
        raise RuleError(f"the Quick Effect of {card.name} was already resolved this turn")
    act = night.activation
    if act is not None and act.slot == k:
        raise RuleError(f"{card.name} is the Active card: resolve its Effect in the activation",
                        see=("night_effect", "night_attack"))
    if slot.sacrificed and any(c.kind == "sacrifice" for c in eff.cost):
        raise RuleError(f"{card.name} is already Sacrificed")
    return k, j, eff
