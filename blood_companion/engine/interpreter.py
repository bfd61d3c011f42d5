"""The one Effect interpreter: what every Condition, Cost, Target and Outcome element means,
whoever's card it is printed on. One handler table per element kind of ``content/models.py``
(``tests/engine/test_interpreter.py`` fails on a kind without one); what only the Map shows is
written to the night log for the table.

Rulebook sections: "Reading an Effect", "Reading the Elements of a Target/Cost/Condition",
"Elements - Keywords", "Elements - Symbols".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from blood_companion.content import models as m
from blood_companion.content.render import CONDITION_NAMES, render_effect
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import vigor
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_state import Bonus, EnemyJob
from blood_companion.engine.state import CampaignState, TrouperState
from blood_companion.engine.table import take_from_hand

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

ATTACKS = ("physical_attack", "mind_attack")
TEST_BONUS_KINDS = ("bonus_triumphs", "reroll", "bonus_die")
# Movement keywords: the source moves itself (toward its target) or moves the target.
SELF_MOVES = ("step", "run", "fly", "escape")
TARGET_MOVES = ("push", "attract", "move")


def helps_test(eff: m.Effect) -> bool:
    """An Effect made only of Test bonuses: offered inside the Test it helps."""
    return bool(eff.outcome) and all(o.kind in TEST_BONUS_KINDS for o in eff.outcome)


class Act(NamedTuple):
    """One Effect being resolved: ``source`` (a Trouper, Nemesis or Minion id) acts on the
    Trouper at index ``target``; ``heal``, ``discard`` and ``tile`` are what the players named."""

    catalog: Catalog
    chance: Chance
    source: str
    enemy: bool = False
    target: int | None = None
    heal: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    tile: str | None = None
    skip_attacks: bool = True
    token_flip: bool = False  # a placed token goes on one of the player's Consumed ones
    # the Enemy a Trouper's attack targets ({"card": Nemesis or Minion id, "space": "A"}): a
    # Push, Attract or Move of that Effect moves it
    foe: Mapping[str, str] | None = None
    # an Effect on every Minion / every Enemy whose Distance only the table sees: the Elements
    # for each Enemy are written for the players, who apply them to those within it
    within: str | None = None
    every: Sequence[Mapping[str, str]] | None = None  # every Minion / Enemy: each one, in order


def dump(o: m.Outcome) -> dict[str, Any]:
    """An Outcome element as log data (engine/words renders it)."""
    out: dict[str, Any] = o.model_dump(mode="json", exclude_defaults=True)
    return out


# --------------------------------------------------------------------------- Conditions

ConditionCheck = Callable[[CampaignState, int, m.Condition], "bool | None"]


def _night_threat(state: CampaignState) -> int:
    return state.night.threat if state.night is not None else 0


def _on_map(count: int) -> bool | None:
    """A token Condition: False with none of the player's tokens on the Map, else the table's."""
    return False if count == 0 else None


CONDITIONS: dict[str, ConditionCheck] = {
    "bites_at_least": lambda s, t, c: s.troupers[t].bites >= c.n,
    "hand_below": lambda s, t, c: len(s.troupers[t].hand) < c.n,
    "wounds_at_least": lambda s, t, c: len(s.troupers[t].wounds) >= c.n,
    "exhausted": lambda s, t, c: s.troupers[t].exhausted,
    "insanity_at_least": lambda s, t, c: s.troupers[t].insanity >= c.n,
    "threat_at_least": lambda s, t, c: _night_threat(s) >= c.n,
    "target_on_intact_trap": lambda s, t, c: _on_map(s.troupers[t].traps.intact),
    "target_on_trap": lambda s, t, c: _on_map(
        s.troupers[t].traps.intact + s.troupers[t].traps.consumed
    ),
    "active_on_whisper": lambda s, t, c: _on_map(
        s.troupers[t].whispers.intact + s.troupers[t].whispers.consumed
    ),
    "text": lambda s, t, c: None,  # only the table knows
}


def enemy_condition(state: CampaignState, cond: m.Condition) -> bool | None:
    """An Enemy Effect's Condition: the Threat is checked, the rest is the table's (None)."""
    if cond.kind == "threat_at_least":
        return _night_threat(state) >= cond.n
    return None


def condition_holds(state: CampaignState, t: int, cond: m.Condition | None) -> bool | None:
    """True/False when the app can tell; None when only the table knows."""
    if cond is None:
        return True
    return CONDITIONS[cond.kind](state, t, cond)


def condition_text(eff: m.Effect) -> str:
    c = eff.condition
    if c is None:
        return ""
    return c.text or "" if c.kind == "text" else CONDITION_NAMES[c.kind].format(n=c.n)


# --------------------------------------------------------------------------- Costs


class Payment(NamedTuple):
    """What the players named to pay Costs (``slot``: the card's Chain space, for a Sacrifice)."""

    discard: tuple[str, ...] = ()
    item: str | None = None
    slot: int | None = None
    confirmed: bool = False  # the table confirmed a Condition only it can see


def _check_vigor(s: CampaignState, cat: Catalog, t: int, cost: m.Cost, p: Payment) -> None:
    vigor.check_deplete(s.troupers[t], cat.config.vigor_tokens, cost.n, fx.name_of(s, cat, t))


def _check_discard(s: CampaignState, cat: Catalog, t: int, cost: m.Cost, p: Payment) -> None:
    if len(p.discard) != cost.n:
        raise RuleError(f"name the {cost.n} card(s) to discard for the Cost (--discard)")
    take_from_hand(s, cat, t, list(p.discard))  # a hidden hand too (engine/table.py)


def _check_bite(s: CampaignState, cat: Catalog, t: int, cost: m.Cost, p: Payment) -> None:
    if s.troupers[t].bites < cost.n:
        raise RuleError(f"{fx.name_of(s, cat, t)} has no Bite to discard")


def _check_item(s: CampaignState, cat: Catalog, t: int, cost: m.Cost, p: Payment) -> None:
    if p.item is not None and p.item in s.troupers[t].depleted_items:
        raise RuleError(f"{p.item} is already depleted")


def _pay_vigor(s: CampaignState, cat: Catalog, t: int, cost: m.Cost, p: Payment) -> CampaignState:
    paid = vigor.deplete(s.troupers[t], cat.config.vigor_tokens, cost.n, fx.name_of(s, cat, t))
    return fx.with_trouper(s, t, vigor_depleted=paid.vigor_depleted)


def _pay_bite(s: CampaignState, cat: Catalog, t: int, cost: m.Cost, p: Payment) -> CampaignState:
    left = vigor.remove_bites(s.troupers[t], cat.config.vigor_tokens, cost.n)
    return fx.with_trouper(s, t, bites=left.bites, bites_on_depleted=left.bites_on_depleted)


def _pay_item(s: CampaignState, cat: Catalog, t: int, cost: m.Cost, p: Payment) -> CampaignState:
    if p.item is None:
        return s
    return fx.with_trouper(s, t, depleted_items=[*s.troupers[t].depleted_items, p.item])


def _pay_sacrifice(s: CampaignState, cat: Catalog, t: int, cost: m.Cost, p: Payment
                   ) -> CampaignState:
    if p.slot is None:
        return s
    night = fx.night_of(s)
    chain = list(night.chain)
    chain[p.slot] = chain[p.slot].model_copy(update={"sacrificed": True})
    s = fx.with_night(s, chain=chain)
    return fx.log(s, "sacrifice")


CostCheck = Callable[[CampaignState, "Catalog", int, m.Cost, Payment], None]
CostPay = Callable[[CampaignState, "Catalog", int, m.Cost, Payment], CampaignState]

COSTS: dict[str, tuple[CostCheck, CostPay]] = {
    "deplete_vigor": (_check_vigor, _pay_vigor),
    "discard_card": (_check_discard, lambda s, cat, t, cost, p: fx.discard_cards(
        s, cat, t, list(p.discard))),
    "discard_bite": (_check_bite, _pay_bite),
    "deplete_item": (_check_item, _pay_item),
    # the card is on the Chain: it can always go to Wounds at Cleanup
    "sacrifice": (lambda s, cat, t, cost, p: None, _pay_sacrifice),
}


def check_costs(state: CampaignState, catalog: Catalog, t: int, eff: m.Effect, pay: Payment
                ) -> None:
    """Refuse a Cost Trouper ``t`` cannot pay or a Condition not met (or not confirmed)."""
    holds = condition_holds(state, t, eff.condition)
    if holds is False:
        raise RuleError(f"the Condition is not met: {render_effect(eff)}")
    if holds is None and not pay.confirmed:
        raise RuleError(
            f"only the table can tell whether the Condition holds: {condition_text(eff)}",
            hint="confirm that it does (--confirm), or resolve another Effect",
        )
    for cost in eff.cost:
        COSTS[cost.kind][0](state, catalog, t, cost, pay)


def pay_costs(state: CampaignState, catalog: Catalog, t: int, eff: m.Effect, pay: Payment
              ) -> CampaignState:
    for cost in eff.cost:
        state = COSTS[cost.kind][1](state, catalog, t, cost, pay)
    return state


# --------------------------------------------------------------------------- Targets

TrouperRule = Literal["self", "chosen", "all", "attack", "every", "none"]
EnemyRule = Literal["none", "priority", "all"]
# Targets that are every Minion / every Enemy on the board (not one the players pick)
EVERY_ENEMY = ("minions_all", "enemies_all")


class TargetRule(NamedTuple):
    """How a Target kind designates its target on a Trouper's card and on an Enemy's card."""

    trouper: TrouperRule
    enemy: EnemyRule
    tile: bool = False


TARGETS: dict[str, TargetRule] = {
    "self": TargetRule("self", "none"),
    "trouper": TargetRule("chosen", "priority"),
    "troupers_all": TargetRule("all", "all"),
    "enemy": TargetRule("attack", "none"),
    "nemesis": TargetRule("attack", "none"),
    "minion": TargetRule("attack", "none"),
    "tile": TargetRule("self", "none", tile=True),
    "event": TargetRule("self", "none"),
    "minions_all": TargetRule("every", "none"),
    "enemies_all": TargetRule("every", "none"),
}


def target_rule(eff: m.Effect) -> TargetRule:
    return TARGETS[eff.target.kind] if eff.target is not None else TargetRule("self", "none")


# --------------------------------------------------------------------------- Outcomes

OutcomeHandler = Callable[[CampaignState, Act, m.Outcome], CampaignState]


def _target_id(state: CampaignState, act: Act) -> str | None:
    return fx.tid(state, act.target) if act.target is not None else None


def _no_trouper(state: CampaignState, act: Act, o: m.Outcome) -> CampaignState:
    """An Element for a Trouper when the Effect designates none: the table reads it."""
    return fx.log(state, "enemy_outcome" if act.enemy else "own_outcome", src=act.source,
                  who=act.source, outcome=dump(o))


def _on_trouper(
    fn: Callable[[CampaignState, Act, m.Outcome, int], CampaignState],
) -> OutcomeHandler:
    def handler(state: CampaignState, act: Act, o: m.Outcome) -> CampaignState:
        if act.target is None:
            return _no_trouper(state, act, o)
        return fn(state, act, o, act.target)

    return handler


def _discard(s: CampaignState, a: Act, o: m.Outcome, t: int) -> CampaignState:
    """ "Discard N": the cards named, a hand of N or fewer whole, else the table is asked."""
    hand = s.troupers[t].hand
    if a.discard:
        return fx.discard_cards(s, a.catalog, t, list(a.discard[: o.n]))
    if len(hand) <= o.n:
        return fx.discard_cards(s, a.catalog, t, list(hand))
    who = fx.name_of(s, a.catalog, t)
    return fx.ask(s, "discard", f"{who} discards {o.n} card(s) of their choice from their hand",
                  t, n=o.n)


def _bonus(s: CampaignState, a: Act, o: m.Outcome, t: int) -> CampaignState:
    night = fx.night_of(s)
    b = night.bonuses.get(t, Bonus())
    if o.kind == "bonus_triumphs":
        b = b.model_copy(update={"triumphs": b.triumphs + o.n})
    elif o.kind == "reroll":
        b = b.model_copy(update={"rerolls": b.rerolls + o.n})
    else:
        b = b.model_copy(update={"dice": [*b.dice, o.die or "G"]})
    s = fx.with_night(s, bonuses={**night.bonuses, t: b})
    return fx.log(s, "test_bonus", who=fx.tid(s, t), outcome=dump(o))


def _summon(s: CampaignState, a: Act, o: m.Outcome) -> CampaignState:
    """ "Summon": the Miniature goes on the Tile the Effect names, else the Nemesis's."""
    place: dict[str, str] | None = None
    if a.enemy and a.target is not None:
        place = {"who": fx.tid(s, a.target)}
    elif a.tile is not None:
        place = {"distance": a.tile, "src": a.source}
    return fx.summon(s, a.catalog, a.chance, o.minion_type, place, src=a.source)


def _gain(s: CampaignState, a: Act, o: m.Outcome) -> CampaignState:
    res = o.resource or "coins"
    wagon = s.wagon.model_copy(update={res: getattr(s.wagon, res) + o.n})
    s = s.model_copy(update={"wagon": wagon})
    return fx.log(s, "wagon_gain", n=o.n, resource=res)


def _place_token(s: CampaignState, a: Act, o: m.Outcome) -> CampaignState:
    """ "Trouper Tokens": a Trap or Whisper of the acting player goes on a Tile, or turns one of
    their Consumed ones Intact (``token_flip``); with the supply empty, one of theirs moves from
    the Map ("Placing a Trap or Whisper Token"), asked when both sides are there."""
    kind = "traps" if o.kind == "place_trap" else "whispers"
    t = s.trouper_index(a.source)
    tok = getattr(s.troupers[t], kind)
    who = fx.tid(s, t)
    if a.token_flip and tok.consumed:
        new, how = tok.model_copy(update={"consumed": tok.consumed - 1,
                                          "intact": tok.intact + 1}), "token_flip"
    elif tok.supply:
        new, how = tok.model_copy(update={"supply": tok.supply - 1,
                                          "intact": tok.intact + 1}), "token_placed"
    elif tok.consumed and tok.intact:
        word = "Trap" if kind == "traps" else "Whisper"
        return fx.ask(s, "token", f"{fx.name_of(s, a.catalog, t)} has no {word} token left in "
                      f"their Reserve: which of their {word} tokens on the Map moves, an Intact or "
                      "a Consumed one?", t, n=1, about=kind)
    elif tok.consumed or tok.intact:
        return move_token(s, t, kind, "consumed" if tok.consumed else "intact")
    else:  # pragma: no cover - eight tokens are always somewhere
        return fx.log(s, "token_none", who=who, token=kind)
    s = fx.with_trouper(s, t, **{kind: new})
    return fx.log(s, how, who=who, token=kind, supply=new.supply)


def move_token(s: CampaignState, t: int, kind: str, side: str) -> CampaignState:
    """One of Trouper ``t``'s ``kind`` tokens on the Map, of ``side``, moves Intact side up."""
    tok = getattr(s.troupers[t], kind)
    if side not in ("intact", "consumed") or not getattr(tok, side):
        raise RuleError(f"no {side} token of that kind on the Map",
                        hint="answer intact or consumed")
    new = tok
    if side == "consumed":
        new = tok.model_copy(update={"consumed": tok.consumed - 1, "intact": tok.intact + 1})
    s = fx.with_trouper(s, t, **{kind: new})
    return fx.log(s, f"token_moved_{side}", who=fx.tid(s, t), token=kind, supply=new.supply)


def _consume_trap(s: CampaignState, a: Act, o: m.Outcome) -> CampaignState:
    t = s.trouper_index(a.source)
    tok = s.troupers[t].traps
    if not tok.intact:
        return fx.log(s, "token_none_intact", who=fx.tid(s, t), token="traps")
    new = tok.model_copy(update={"intact": tok.intact - 1, "consumed": tok.consumed + 1})
    s = fx.with_trouper(s, t, traps=new)
    return fx.log(s, "trap_consumed", who=fx.tid(s, t))


def _movement(s: CampaignState, a: Act, o: m.Outcome) -> CampaignState:
    """Movement is on the Map: the instruction the table carries out, naming who moves."""
    who = _target_id(s, a)
    args: dict[str, Any] = {"move": o.kind, "n": o.n}
    me = _miniature(s, a.source, a.enemy)
    if a.foe is not None and o.kind in TARGET_MOVES:  # the Enemy the Effect targets moves
        args.update(mover=dict(a.foe), by=me, **({"within": a.within} if a.within else {}))
    elif a.enemy:
        if o.kind in SELF_MOVES or who is None:
            args["mover"] = me  # the Enemy moves itself
            if a.tile is not None:
                args["toward"] = {"distance": a.tile}
            elif who is not None:
                args["toward"] = {"trouper": who}
        else:
            args.update(mover={"trouper": who}, by=me)
    elif o.kind in SELF_MOVES:
        args["mover"] = {"trouper": who or a.source}
    elif who is not None and who != a.source:
        args.update(mover={"trouper": who}, by=me)
    else:
        args.update(mover=None, by=me)  # the Effect's target: the table knows which
    if o.toward is not None:  # "Step 1 toward the closest Trouper": the card names where to
        args["toward"] = goal(s, o.toward)
        if o.away:
            args["away"] = True
    return fx.log(s, "movement", **args)


def _place_cube(s: CampaignState, a: Act, o: m.Outcome) -> CampaignState:
    """ "Other Components": a Cube goes on the Tile the Effect targets (the table is told)."""
    night = s.night
    return fx.log(s, "cube_placed", src=a.source, n=o.n,
                  **({"nemesis": night.nemesis} if night is not None else {}),
                  **({"distance": a.tile} if a.tile is not None else {}))


# The Target Priorities only the Map can settle ("Nemesis Target Priority"): the table is told
DISTANCE_PRIORITIES = ("closest", "farthest")


# Nemesis Target Priorities the app evaluates: what it counts of a Trouper, and whether the
# fewest (1) or the most (-1) is kept. Every Wound counts, those taken with no card left to
# mark them too ("Wounds"); "Exhausted first" keeps the Exhausted.
_MEASURES: dict[str, tuple[Callable[[TrouperState], int], int]] = {
    "fewest_bites": (lambda t: t.bites, 1),
    "most_bites": (lambda t: t.bites, -1),
    "fewest_wounds": (fx.wound_count, 1),
    "most_wounds": (fx.wound_count, -1),
    "fewest_cards_in_hand": (lambda t: len(t.hand), 1),
    "most_cards_in_hand": (lambda t: len(t.hand), -1),
    "exhausted": (lambda t: int(t.exhausted), -1),
    "not_exhausted": (lambda t: int(t.exhausted), 1),
    "lowest_insanity": (lambda t: t.insanity, 1),
    "highest_insanity": (lambda t: t.insanity, -1)}


def priority_values(state: CampaignState, priority: str, cands: list[int]) -> dict[int, int]:
    """What a Target Priority the app evaluates counts of each candidate."""
    measure = _MEASURES.get(priority)
    if measure is None:
        return {}
    return {i: measure[0](state.troupers[i]) for i in cands}


def tie_break(state: CampaignState, priority: str, cands: list[int]) -> list[int]:
    """Keep the candidates that best match one Nemesis Target Priority the app can evaluate."""
    measure = _MEASURES.get(priority)
    if measure is None or not cands:
        return cands
    sign = measure[1]
    values = priority_values(state, priority, cands)
    best = min(sign * v for v in values.values())
    return [i for i in cands if sign * values[i] == best]


def goal(s: CampaignState, target: m.Target) -> dict[str, Any]:
    """Where a movement toward a Target goes: a Trouper by the priorities the app can judge,
    else the Troupers left and the priority the table applies; an Enemy; a Tile."""
    if target.kind == "trouper":
        cands = list(range(len(s.troupers)))
        for p in target.priority:
            if len(cands) <= 1:
                break
            if p in DISTANCE_PRIORITIES:
                return {"among": [fx.tid(s, i) for i in cands], "by": p}
            cands = tie_break(s, p, cands)
        if len(cands) == 1:
            return {"trouper": fx.tid(s, cands[0])}
        return {"among": [fx.tid(s, i) for i in cands], "by": "leader"}
    if target.kind == "nemesis" and s.night is not None:
        return {"card": s.night.nemesis}
    if target.kind == "tile":
        return {"distance": target.distance}
    near = next((p for p in target.priority if p in DISTANCE_PRIORITIES), None)
    return {"goal": target.kind, **({"type": target.minion_type} if target.minion_type else {}),
            **({"by": near} if near else {})}


def _miniature(s: CampaignState, source: str, enemy: bool) -> dict[str, str]:
    if not enemy and any(t.trouper == source for t in s.troupers):
        return {"trouper": source}
    return {"card": source}


def _attack(s: CampaignState, a: Act, o: m.Outcome) -> CampaignState:
    """A Trouper's attack is resolved by its Test (engine/rolls/night.py), an Enemy's is read."""
    if not a.enemy and a.skip_attacks:
        return s
    return _read(s, a, o)


def _read(s: CampaignState, a: Act, o: m.Outcome) -> CampaignState:
    """An Element the app does not track: written for the table to apply."""
    who = _target_id(s, a)
    if a.enemy:
        if who is None:
            return fx.log(s, "enemy_outcome", src=a.source, outcome=dump(o))
        return fx.log(s, "enemy_on_trouper", src=a.source, outcome=dump(o), who=who)
    return fx.log(s, "own_outcome", who=who or a.source, outcome=dump(o))


_EXHAUST = _on_trouper(lambda s, a, o, t: fx.exhaust(s, a.catalog, t))
OUTCOMES: dict[str, OutcomeHandler] = {
    **{k: _movement for k in (*SELF_MOVES, *TARGET_MOVES)},
    "draw": _on_trouper(lambda s, a, o, t: fx.draw_cards(s, a.catalog, t, o.n, a.chance)),
    "discard": _on_trouper(_discard),
    "heal": _on_trouper(lambda s, a, o, t: fx.heal(s, a.catalog, t, o.n, list(a.heal))),
    "deplete": _read,
    "rest": _EXHAUST,
    "summon": _summon,
    "wound": _on_trouper(lambda s, a, o, t: fx.wound_trouper(s, a.catalog, t, a.chance, o.n)),
    "bite": _on_trouper(lambda s, a, o, t: fx.bite_trouper(s, a.catalog, t, o.n)),
    "exhausted": _EXHAUST,
    "physical_attack": _attack,
    "mind_attack": _attack,
    "threat": lambda s, a, o: fx.add_threat(s, a.catalog, o.n, a.chance),
    **{k: _on_trouper(_bonus) for k in TEST_BONUS_KINDS},
    "place_trap": _place_token,
    "place_whisper": _place_token,
    "place_cube": _place_cube,
    "consume_trap": _consume_trap,
    "gain_resource": _gain,
    "text": _read,
}


def apply_outcomes(state: CampaignState, act: Act, outcomes: Sequence[m.Outcome]) -> CampaignState:
    """Apply an Effect's Outcome elements in order until the night ends; on every Enemy
    (``act.every``) those of :data:`PER_ENEMY` apply to each one in turn."""
    for o in outcomes:
        if act.every is not None and o.kind in PER_ENEMY:
            for foe in act.every:
                each = act._replace(foe=foe)
                state = (_wound_enemy(state, each, o) if o.kind == "wound"
                         else _movement(state, each, o))
                if state.night is not None and state.night.result is not None:
                    return state
            continue
        state = OUTCOMES[o.kind](state, act, o)
        if state.night is not None and state.night.result is not None:
            break
    return state


# The Elements of an Effect on every Minion / every Enemy that act on each of them; the others
# (a Step of the source, a Draw, Threat...) apply once.
PER_ENEMY = (*TARGET_MOVES, "wound")


def every_enemy(
    state: CampaignState, catalog: Catalog, target: m.Target, named: Sequence[str] | None = None
) -> list[dict[str, str]]:
    """The Enemies an every-Minion / every-Enemy Target designates, in order
    (docs/rules-decisions.md): the Nemesis, then each Minion Miniature space by space.
    ``named``: those the players said are within the Distance (None: all)."""
    night = state.night
    if night is None:
        return []
    keep = None if named is None else {
        n.strip().lower().removeprefix("minion:") for n in named} - {"none"}
    known = {"nemesis", "n", "boss"} | {ms.space.lower() for ms in night.minions}
    if keep is not None and keep - known:
        raise RuleError(f"no Enemy {sorted(keep - known)[0]!r} on the board",
                        hint="name the Nemesis (nemesis) or Minion spaces: "
                        + ", ".join(ms.space for ms in night.minions))
    out = []
    if target.kind == "enemies_all" and (keep is None or keep & {"nemesis", "n", "boss"}):
        out.append({"card": night.nemesis})
    for ms in night.minions:
        card = catalog.get("minions", ms.minion)
        if target.minion_type and getattr(card, "type", None) != target.minion_type:
            continue
        if keep is None or ms.space.lower() in keep:
            out += [{"card": ms.minion, "space": ms.space} for _ in range(ms.alive)]
    return out


def _wound_enemy(s: CampaignState, a: Act, o: m.Outcome) -> CampaignState:
    """A Wound without an attack: a Minion in reach is defeated ("Wounds"); the rest (the
    Nemesis, a Minion only the table sees in range) is written for the players."""
    foe = a.foe or {}
    if "space" in foe and a.within is None:
        return fx.wound_minion(s, a.catalog, foe["space"], 1)
    return fx.log(s, "foe_outcome", foe=dict(foe), outcome=dump(o),
                  **({"within": a.within} if a.within else {}))


def every_act(
    state: CampaignState, act: Act, target: m.Target | None, named: Sequence[str] | None = None
) -> Act:
    """``act`` with the Enemies an every-Enemy ``target`` applies to (and the Distance only
    the table sees, none being named); any other Target: ``act`` as is."""
    if target is None or target.kind not in EVERY_ENEMY:
        return act
    within = target.distance if target.distance != "any" and named is None else None
    return act._replace(every=every_enemy(state, act.catalog, target, named), within=within)


# --------------------------------------------------------------------------- Nemesis Weaknesses


def weakness_always(state: CampaignState, catalog: Catalog, side: str
                    ) -> list[tuple[m.WeaknessCard, int, m.Effect]]:
    """The always active Effects of the side's Weakness card ("Nemesis Weaknesses")."""
    w = fx.weakness(state, catalog, side)
    if w is None:
        return []
    return [(w, k, e) for k, e in enumerate(w.effects) if e.timing in (None, "always")]


def weakness_on_attack(state: CampaignState, catalog: Catalog, rng: Chance, t: int, side: str,
                       holds: bool | None) -> CampaignState:
    """ "Nemesis Weaknesses": the side's Test bonuses go to Trouper ``t``'s attack when their
    Condition holds (``holds``: the table's word), the others resolve after it as Enemy Effects."""
    jobs: list[EnemyJob] = []
    for w, k, e in weakness_always(state, catalog, side):
        if e.is_free_text or not helps_test(e):
            jobs.append(EnemyJob(source="weakness", card=w.id, effects=[k],
                                 label=f"{w.name}: {w.effect_name}"))
            continue
        cond = condition_holds(state, t, e.condition)
        if cond is None:
            if holds is None:
                raise RuleError(
                    f"only the table can tell whether {w.name} ({side} Weakness) helps this "
                    f"attack: {condition_text(e)}",
                    hint="say whether its Condition holds (--weakness or --no-weakness)")
            cond = holds
        if not cond:
            state = fx.log(state, "weakness_not_now", card=w.id, side=side, effect=k)
            continue
        state = fx.log(state, "weakness_applies", card=w.id, side=side, effect=k)
        act = Act(catalog, rng, source=fx.night_of(state).nemesis, target=t)
        state = apply_outcomes(state, act, e.outcome)
    if jobs:
        state = fx.with_night(state, queue=[*fx.night_of(state).queue, *jobs])
    return state
