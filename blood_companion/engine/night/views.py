"""What the table sees: the board as data, the Active Trouper's options, what comes next."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.face import card_face
from blood_companion.content.render import render_effect
from blood_companion.engine import bookkeeping as fx
from blood_companion.engine import chain as ch
from blood_companion.engine import interpreter as interp
from blood_companion.engine import vigor
from blood_companion.engine.board_view import (
    Aura,
    ChainSpace,
    Minion,
    NightBoard,
    NightTrouper,
    ReactionCard,
    TrouperItem,
    Weakness,
)
from blood_companion.engine.bookkeeping import item_side, night_of
from blood_companion.engine.errors import RuleError
from blood_companion.engine.interpreter import ATTACKS, helps_test
from blood_companion.engine.night.core import (
    card_name,
    event_card,
    item_card,
    minion_card,
    tactic_card,
)
from blood_companion.engine.night.phases import PHASE_NAMES, PHASES
from blood_companion.engine.night.resolve import (
    attack_need,
    card_effect,
    discards,
    event_position,
    is_area,
    support_legal,
    token_to_place,
    usable,
)
from blood_companion.engine.night_state import Activation
from blood_companion.engine.rolls import attack_target
from blood_companion.engine.state import CampaignState
from blood_companion.engine.words.sentences import night_reason

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def effect_entry(state: CampaignState, t: int, eff: m.Effect, number: int) -> dict[str, Any]:
    attack = next((o.kind for o in eff.outcome if o.kind in ATTACKS), None)
    target = eff.target
    return {
        "effect": number,
        "text": render_effect(eff),
        "type": eff.type,
        "attack": attack.removesuffix("_attack") if attack else None,
        "target": target.kind if target is not None else None,
        "distance": target.distance if target is not None else None,
        "minion_type": target.minion_type if target is not None else None,
        "traits": list(eff.test.traits) if eff.test is not None else [],
        "test_dice": eff.test.dice if eff.test is not None else None,
        "discard": discards(eff),
        "heal": any(o.kind == "heal" for o in eff.outcome),
        # the Condition in words when only the table can tell (asked before it resolves)
        "confirm": interp.condition_text(eff)
        if interp.condition_holds(state, t, eff.condition) is None else "",
        "token": token_to_place(state, t, eff),  # a placed token may flip a Consumed one
    }


def _event_entry(state: CampaignState, t: int, ev: m.Event, eff: m.Effect, number: int
                 ) -> dict[str, Any]:
    """An Event Effect as :func:`effect_entry`, where the Active Trouper must stand (a Tile by
    its Scenic Element) asked with its Condition: only the Map shows either."""
    entry = effect_entry(state, t, eff, number)
    entry["confirm"] = "; ".join(x for x in (event_position(ev, eff), entry["confirm"]) if x)
    return entry


def attack_targets(
    state: CampaignState, catalog: Catalog, eff: m.Effect, hit: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """Who an attack Effect may hit: the Nemesis (with the Wounds each side still needs) and
    the Minion spaces with Miniatures of the right type. ``hit``: the targets a Special Area
    Effect already hit this activation (the Nemesis is hit once)."""
    night = night_of(state)
    kind = eff.target.kind if eff.target is not None else "enemy"
    out: list[dict[str, Any]] = []
    if kind not in ("minion", "minions_all") and "nemesis" not in hit:
        out.append(
            {
                "target": "nemesis",
                "name": fx.nemesis_card(state, catalog).name,
                "needs": wounds_needed(state, catalog),
                # Triumphs the attack needs on each side (Defense, Fatigue, Weakness)
                "defense": {s: attack_need(state, catalog, eff, "nemesis", s)[1] for s in m.SIDES}})
    if kind != "nemesis":
        want = eff.target.minion_type if eff.target is not None else None
        for ms in night.minions:
            mc = minion_card(catalog, ms.minion)
            if ms.alive > 0 and (want is None or mc.type == want):
                out.append({
                    "target": ms.space, "name": mc.name, "type": mc.type, "alive": ms.alive,
                    "defense": attack_need(state, catalog, eff, ms.space, None)[1]})
    return out


def wounds_needed(state: CampaignState, catalog: Catalog) -> dict[str, int]:
    """The Wounds each side of the Nemesis still needs."""
    level, night = fx.nemesis_level(state, catalog), night_of(state)
    return {s: max(0, level.wounds.get(s, 0) - len(night.nemesis_wounds.get(s, [])))
            for s in m.SIDES}


def no_target_why(eff: m.Effect) -> str:
    want = eff.target.minion_type if eff.target is not None else None
    return f"no {want.capitalize()} Minion on the board" if want else "no target on the board"


def area_hits(act: Activation | None, k: int) -> list[str]:
    """The targets Effect ``k`` of the Active card hit so far ("Reading Special Areas")."""
    return list(act.area_hits.get(k, [])) if act is not None else []


def active_now(state: CampaignState) -> Activation | None:
    """The activation the Tactic Phase's menu is about (None: nobody is Active, or a question
    waits)."""
    night = state.night
    if night is None or night.phase != "tactic" or night.pending or night.result is not None:
        return None
    return night.activation


def card_entries(state: CampaignState, catalog: Catalog,
                 attack: bool | None = None) -> list[dict[str, Any]]:
    """The Active card's Effects, each with whether it can be resolved now (and why not) and
    an attack's targets; ``attack``: only its attacks (True) or its other Effects resolved
    (False: neither Supports nor Auras)."""
    act = active_now(state)
    night = night_of(state)
    if act is None or night.chain[act.slot].kind != "tactic":
        return []
    slot, t = night.chain[act.slot], act.trouper
    out = []
    for k, eff in enumerate(tactic_card(catalog, slot.card).effects):
        if attack is not None and (eff.type in ("support", "aura")
                                   or attack != any(o.kind in ATTACKS for o in eff.outcome)):
            continue
        entry = effect_entry(state, t, eff, k + 1)
        # a Special Area attack stays open for each other target in it ("Reading Special
        # Areas"): one Test per target, the Nemesis once
        area = bool(is_area(eff) and entry["attack"] and act.done.get(k, 0) > 0)
        try:
            card_effect(catalog, act, slot, k + 1, area_target="minion" if area else None)
            why, entry["confirm"] = usable(state, catalog, t, eff)
            entry["open"], entry["why"] = not why, why
        except RuleError as exc:
            entry["open"], entry["why"] = False, exc.message
        if entry["attack"]:
            entry["targets"] = attack_targets(state, catalog, eff, area_hits(act, k))
            entry["again"] = area  # for another target in the Special Area
            if entry["open"] and not entry["targets"]:
                entry["open"], entry["why"] = False, no_target_why(eff)
        out.append(entry)
    return out


def support_entries(state: CampaignState, catalog: Catalog) -> list[dict[str, Any]]:
    """The Support Effects of the other Troupers' cards to the left of the Active card."""
    act = active_now(state)
    if act is None:
        return []
    night, t = night_of(state), act.trouper
    out = []
    for k, s in enumerate(night.chain[: act.slot]):
        if s.kind != "tactic" or s.owner == t:
            continue
        other = tactic_card(catalog, s.card)
        for j, eff in enumerate(other.effects):
            if eff.type == "support" and j not in s.supports_used:
                space = ch.number(night.chain, k)
                try:  # the action's own check, the target named for now
                    support_legal(state, catalog, space, j + 1, target="nemesis")
                    why = ""
                except RuleError as exc:
                    why = exc.message
                # its Condition reads the owner's board: asked when only the table can tell
                unsure = interp.condition_holds(state, s.owner or 0, eff.condition) is None
                entry = effect_entry(state, t, eff, j + 1)
                entry.update({
                    "space": space, "owner": state.troupers[s.owner or 0].trouper,
                    "name": other.name, "open": not why, "why": why,
                    "confirm": interp.condition_text(eff) if unsure and not why else ""})
                if entry["attack"]:  # a Support that attacks needs a target on the board
                    entry["targets"] = attack_targets(state, catalog, eff)
                    if entry["open"] and not entry["targets"]:
                        entry["open"], entry["why"] = False, "no target on the board"
                out.append(entry)
    return out


def item_entries(state: CampaignState, catalog: Catalog) -> list[dict[str, Any]]:
    """The Active Trouper's equipped Items, each with whether it can be used now."""
    act = active_now(state)
    if act is None:
        return []
    t = act.trouper
    tr = state.troupers[t]
    out = []
    for iid in tr.equipped.values():
        side = item_side(state, catalog, t, iid)
        entry = {"item": iid, "name": side.name, "quick": side.quick, "open": True, "why": ""}
        entry["text"] = render_effect(side.effects[0]) if side.effects else ""
        if iid in tr.depleted_items:
            entry["open"], entry["why"] = False, "depleted until the Cleanup Phase"
        elif side.effects and side.effects[0].timing == "on_wound" and not tr.wounds:
            entry["open"], entry["why"] = False, "only right after suffering a Wound"
        elif side.effects:
            eff = side.effects[0]
            why, entry["confirm"] = usable(state, catalog, t, eff, item=iid)
            entry["open"], entry["why"] = not why, why
            entry["token"] = token_to_place(state, t, eff)
        out.append(entry)
    return out


def event_entries(state: CampaignState, catalog: Catalog) -> list[dict[str, Any]]:
    """The open Event cards on the Chain and their Effects (one Event Effect per activation)."""
    act = active_now(state)
    if act is None or act.event_used:
        return []
    night = night_of(state)
    out = []
    for k, s in enumerate(night.chain):
        if s.kind != "event" or s.face_down:
            continue
        ev = event_card(catalog, s.card)
        out.append({
            "space": ch.number(night.chain, k), "event": s.card, "name": ev.name,
            "effects": [_event_entry(state, act.trouper, ev, e, j + 1)
                        for j, e in enumerate(ev.effects)]})
    return out


def activation_options(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """The Active Trouper's legal moves as data (for menus such as `blood play`): the card's
    Effects with whether each can be resolved now (and why not), the targets of attacks, the
    Supports to the left, the equipped Items and the open Event Effects. Empty when nobody is
    Active. Pure: it only asks the checks the actions themselves make."""
    act = active_now(state)
    if act is None:
        return {}
    night = night_of(state)
    slot = night.chain[act.slot]
    out: dict[str, Any] = {
        "trouper": state.troupers[act.trouper].trouper, "space": ch.number(night.chain, act.slot),
        "rest": slot.kind == "rest", "rest_drawn": act.rest_drawn,
        "card": slot.card if slot.kind == "tactic" else None,
        "effects": card_entries(state, catalog), "supports": support_entries(state, catalog),
        "items": item_entries(state, catalog), "events": event_entries(state, catalog)}
    if slot.kind == "tactic":
        out["card_name"] = tactic_card(catalog, slot.card).name
    return out


def board_view(state: CampaignState, catalog: Catalog) -> NightBoard:
    """The Night Board as the table sees it (engine/board_view.py: `blood status`, `blood
    night board`, the served page): each card named, each Reaction card with its text, each
    Item on the side it shows, each Trouper's Vigor tokens by side and Bite."""
    night = night_of(state)
    nem = fx.nemesis_card(state, catalog)
    level = fx.nemesis_level(state, catalog)
    phys, mind = fx.fatigue(state, catalog)
    cfg, track = catalog.config, catalog.board.threat_track
    chain: list[ChainSpace] = []
    for k, s in enumerate(night.chain):
        if s.kind == "event":
            ev = catalog.get("events", s.card)
            name = ev.name if ev is not None else s.card
        else:
            name = "Rest (face down)" if s.kind == "rest" else card_name(catalog, s.card)
        chain.append({
            "space": ch.number(night.chain, k), "kind": s.kind, "card": s.card, "name": name,
            "owner": state.troupers[s.owner].trouper if s.owner is not None else None,
            "threat": s.threat, "resolved": s.resolved, "sacrificed": s.sacrificed,
            "face_down": s.face_down, "supports_used": s.supports_used,
            "active": night.activation is not None and night.activation.slot == k})
    line: list[ReactionCard] = []
    for k, r in enumerate(night.reaction_line):
        face = fx.reaction_face(state, catalog, r.card)
        printed = card_face(catalog, r.card,
                            face="weakened" if r.card in state.vlad_weakened else None)
        line.append({
            "space": k + 1, "card": r.card, "name": face.name, "resolved": r.resolved,
            "interruption": face.interruption, "check": face.check is not None,
            "fatigue": {"physical": face.fatigue.physical, "mind": face.fatigue.mind},
            "text": [x.strip() for x in printed[1:]], "heading": printed[0]})
    minions: list[Minion] = []
    for ms in night.minions:
        mc = minion_card(catalog, ms.minion)
        minions.append({
            "space": ms.space, "minion": ms.minion, "name": mc.name, "type": mc.type,
            "summoned": ms.summoned, "alive": ms.alive,
            "defenses": {"physical": mc.defenses.physical, "mind": mc.defenses.mind}})
    troupers: list[NightTrouper] = []
    tokens = cfg.vigor_tokens
    for i, t in enumerate(state.troupers):
        lay = vigor.layout(t, tokens)  # each token by side and Bite
        troupers.append({
            "seat": t.seat + 1, "trouper": t.trouper, "name": fx.name_of(state, catalog, i),
            "colour": t.colour, "leader": i == state.leader, "hand": len(t.hand),
            "hand_cards": list(t.hand), "deck": len(t.draw_pile), "discard": len(t.discard),
            "wounds": len(t.wounds), "vigor": vigor.usable(t, tokens),
            "vigor_depleted": t.vigor_depleted, "bites": t.bites,
            "bites_on_depleted": lay.depleted_bitten, "insanity": t.insanity,
            "exhausted": t.exhausted, "knocked_out": t.knocked_out,
            "rested": t.rested_this_turn,
            "traps": {"supply": t.traps.supply, "intact": t.traps.intact,
                      "consumed": t.traps.consumed},
            "whispers": {"supply": t.whispers.supply, "intact": t.whispers.intact,
                         "consumed": t.whispers.consumed},
            "items": [_item(state, catalog, i, c, iid) for c, iid in sorted(t.equipped.items())],
            "knock_out_at": cfg.knock_out_wounds,
            "vigor_tokens": tokens,
            "insanity_max": len(catalog.insanity.spaces) - 1,
            "vigor_tokens_by_side": {
                "available": lay.available, "available_bitten": lay.available_bitten,
                "depleted": lay.depleted, "depleted_bitten": lay.depleted_bitten}})
    fatigue = {"physical": sum(phys), "mind": sum(mind)}
    return {
        "turn": night.turn,
        "phase": night.phase,
        "result": night.result,
        "reason": night_reason(night, catalog),
        "nemesis": {
            "id": nem.id,
            "name": nem.name,
            "difficulty": night.difficulty,
            "level": level.name,
            "defenses": {"physical": nem.defenses.physical, "mind": nem.defenses.mind},
            "fatigue": {"physical": fatigue["physical"], "mind": fatigue["mind"]},
            "wounds": {s: len(night.nemesis_wounds.get(s, [])) for s in m.SIDES},
            "wounds_needed": dict(level.wounds),
            "deck": len(night.reaction_deck),
            "discard": len(night.reaction_discard),
            "weaknesses": weaknesses_view(state, catalog),
            "defense_after_fatigue": {
                "physical": attack_target(nem.defenses.physical, [fatigue["physical"]]),
                "mind": attack_target(nem.defenses.mind, [fatigue["mind"]])}},
        "auras": auras_view(state, catalog),
        "location": night.location,
        "threat": {
            "value": night.threat, "length": track.length, "alerts": list(track.alert_spaces)},
        "chain": chain,
        "chain_spaces": night.chain_spaces,
        "reaction_line": line,
        "reaction_spaces": catalog.board.reaction_spaces,
        "minions": minions,
        "minion_spaces": list(catalog.board.minion_spaces),
        "troupers": troupers,
        "pending": [q.model_dump() for q in night.pending],
        "queue": [j.label for j in night.queue],
        "phase_name": PHASE_NAMES.get(night.phase, night.phase)}


def _item(state: CampaignState, catalog: Catalog, i: int, category: str, iid: str) -> TrouperItem:
    """An equipped Item: its name, and the side it shows (starting or advanced) by name."""
    item, side = item_card(catalog, iid), item_side(state, catalog, i, iid)
    return {"category": category, "item": iid, "name": item.name,
            "depleted": iid in state.troupers[i].depleted_items,
            "side": "advanced" if side is item.advanced else "starting", "side_name": side.name}


def weaknesses_view(state: CampaignState, catalog: Catalog) -> list[Weakness]:
    """The Nemesis's Weakness cards beside its sides ("Weakness Cards"): what each side's
    Defense becomes, its Effects, and the Nemesis Trophy it may give (and whether it was won
    tonight)."""
    night = night_of(state)
    nem = fx.nemesis_card(state, catalog)
    out: list[Weakness] = []
    for side in m.SIDES:
        w = fx.weakness(state, catalog, side)
        if w is None:
            continue
        out.append({
            "side": side,
            "card": w.id,
            "name": w.name,
            "effect_name": w.effect_name,
            "defense": {"physical": nem.defenses.physical + w.physical_modifier,
                        "mind": nem.defenses.mind + w.mind_modifier},
            "effects": [render_effect(e) for e in w.effects],
            "trophy": w.trophy,
            "trophy_won": side in night.weakness_trophies})
    return out


def auras_view(state: CampaignState, catalog: Catalog) -> list[Aura]:
    """The Aura Effects in play now ("Aura Effect": active while the component showing it is in
    play): the Nemesis's Skills, the Items equipped, the face-up Tactic cards on the Chain. A
    timed Aura is resolved by the app at its moment; the others are reminders for the table."""
    night = night_of(state)
    out: list[Aura] = []
    nem = fx.nemesis_card(state, catalog)
    for sk in nem.skills:
        if sk.type == "aura":
            out.append({"source": nem.name, "name": sk.name or "", "text": render_effect(sk),
                        "timing": sk.timing})
    for i, t in enumerate(state.troupers):
        for iid in t.equipped.values():
            if catalog.item(iid) is None:
                continue
            side = item_side(state, catalog, i, iid)
            for e in side.effects:
                if e.type == "aura":
                    out.append({"source": f"{side.name} ({fx.name_of(state, catalog, i)})",
                                "name": "", "text": render_effect(e), "timing": e.timing})
    for slot in night.chain:
        if slot.kind != "tactic" or slot.face_down:
            continue
        card = catalog.tactic(slot.card)
        if card is None:
            continue
        for e in card.effects:
            if e.type == "aura":
                owner = fx.name_of(state, catalog, slot.owner) if slot.owner is not None else ""
                out.append({"source": f"{card.name} ({owner})", "name": "",
                            "text": render_effect(e), "timing": e.timing})
    return out


# --------------------------------------------------------------------------- Quick Effects

# the actions resolving a Quick Effect or Item outside an activation (night/quick.py, tactic.py)
QUICK = frozenset({"night_quick", "night_item"})


def _holds(state: CampaignState, catalog: Catalog, t: int, eff: m.Effect,
           item: str | None = None) -> str:
    """Why Trouper ``t`` cannot resolve ``eff`` now ("" when they can)."""
    if state.troupers[t].knocked_out:
        return "Knocked Out"
    if eff.timing == "on_wound" and not state.troupers[t].wounds:
        return "only right after suffering a Wound"
    return usable(state, catalog, t, eff, item=item)[0]


def _quick_open(state: CampaignState) -> bool:
    """Whether Quick Effects may be resolved now: in the phases whose table allows them."""
    night = night_of(state)
    return night.result is None and bool(PHASES[night.phase].actions & QUICK)


def quick_cards(state: CampaignState, catalog: Catalog) -> list[dict[str, Any]]:
    """The Quick Effects of the cards on the Chain that may be resolved now outside an
    activation, each with what its questions need."""
    night = night_of(state)
    out: list[dict[str, Any]] = []
    if not _quick_open(state):
        return out
    act = night.activation
    for k, slot in enumerate(night.chain):
        if slot.kind != "tactic" or slot.owner is None:
            continue
        if act is not None and act.slot == k:
            continue  # the Active card's Effects are offered in its activation
        card = catalog.tactic(slot.card)
        if card is None:
            continue
        quick = [j for j, e in enumerate(card.effects) if e.type == "quick"]
        for j in quick:
            eff = card.effects[j]
            if j in slot.quick_used or _holds(state, catalog, slot.owner, eff):
                continue
            out.append(_entry(state, catalog, "card", slot.owner, eff, {
                "space": ch.number(night.chain, k), "effect": j + 1, "card": card.id,
                "name": card.name,
                "key": f"q{ch.number(night.chain, k)}" + (f".{j + 1}" if len(quick) > 1 else "")}))
    return out


def quick_items(state: CampaignState, catalog: Catalog) -> list[dict[str, Any]]:
    """The Quick Items that may be used now outside their owner's activation (not those that
    only help a Test), each with what its questions need."""
    out: list[dict[str, Any]] = []
    if not _quick_open(state):
        return out
    act = night_of(state).activation
    for i, tr in enumerate(state.troupers):
        for cat_name, iid in sorted(tr.equipped.items()):
            side = item_side(state, catalog, i, iid)
            used = side.effects[0] if side.quick and side.effects else None
            if act is not None and act.trouper == i:
                continue  # offered with the Active Trouper's own Items
            if used is None or helps_test(used):
                continue
            # a depleted Item is shown with why, never offered and then refused
            why = ("depleted until the Cleanup Phase" if iid in tr.depleted_items
                   else _holds(state, catalog, i, used, item=iid))
            if why and iid not in tr.depleted_items:
                continue
            out.append(_entry(state, catalog, "item", i, used, {
                "item": iid, "name": side.name, "key": f"i{tr.seat + 1}{cat_name[0]}",
                "open": not why, "why": why}))
    return out


def _entry(state: CampaignState, catalog: Catalog, kind: str, t: int, eff: m.Effect,
           extra: dict[str, Any]) -> dict[str, Any]:
    return {**effect_entry(state, t, eff, 0), "kind": kind,
            "owner": state.troupers[t].trouper, "owner_name": fx.name_of(state, catalog, t),
            "test": eff.test is not None,
            "confirm": usable(state, catalog, t, eff, discard=(), item=extra.get("item"))[1],
            **extra}
