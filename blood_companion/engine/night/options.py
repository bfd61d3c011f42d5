"""The night's legal actions as typed options (engine/legal.py), and their follow-up questions.

One option per thing the table may do now: the question waiting (a dodge Test, a discard, who
is in range), the Planning Phase player's cards, the Active Trouper's Effects, Supports, Items
and Events, or moving on. Templates ask, in order, what only the players can say: the target
and side of an attack, the Trait, the dice (digital, or typed in from physical dice), the cards
to discard or heal, the Trouper an Effect helps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.engine import effects as fx
from blood_companion.engine.effects import night_of
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import VIEWS, Ask, Next, Option, Pick, register_askers
from blood_companion.engine.night.core import card_name, event_card, tactic_card
from blood_companion.engine.night.phases import PHASES
from blood_companion.engine.night.resolve import attack_need
from blood_companion.engine.night.trouper_tests import test_options
from blood_companion.engine.night.views import activation_options, attack_targets
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

SIDES = ("front", "left", "right")
ALL_TRAITS = ["strength", "dexterity", "cunning", "madness"]


def night_view(state: CampaignState, catalog: Catalog) -> Next:
    night = night_of(state)
    spec = PHASES[night.phase]
    title = f"Turn {night.turn} · {spec.title}"
    if night.phase == "over":
        from blood_companion.engine import narrate

        return Next(
            "night", "over", "End of the Night",
            f"The night is {night.result}: {narrate.night_reason(night, catalog)}. "
            "End of the Night: clear the board and read the rewards.",
            options=(Option("1", "Close the night and read the rewards", "end_night"),),
            default="1",
        )
    if night.pending:
        return _question_view(state, catalog, title)
    if night.phase == "planning":
        return _planning_view(state, catalog, title)
    if night.phase == "tactic" and night.activation is not None:
        return _tactic_view(state, catalog, title)
    text = spec.done_text or f"The {spec.title} resolves."
    return Next(
        "night", night.phase, title, text,
        options=(Option("1", "Continue", "night_continue"),), default="1",
    )


def whose_turn(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """What the table does now, as plain data (`blood night next --json`, `blood status`):
    phase, who acts, the prompt, the question waiting, the hand or the activation. The choices
    themselves are :func:`night_view`'s options."""
    nxt = night_view(state, catalog)
    night = night_of(state)
    out: dict[str, Any] = {
        "turn": night.turn,
        "phase": night.phase,
        "phase_name": PHASES[night.phase].title,
        "who": nxt.who,
        "question": None,
        "prompt": nxt.prompt,
    }
    if night.pending:
        q = night.pending[0]
        out["question"] = q.model_dump()
        if q.kind == "test":
            out["test_options"] = test_options(state, catalog, q.trouper or 0, traits=q.traits,
                                               fixed_dice=q.dice, target=q.target or 0)
        return out
    if night.phase == "planning":
        out.update(nxt.details)
    elif "activation" in nxt.details:
        out["options"] = nxt.details["activation"]
        out["effects"] = list(nxt.info)
    return out


# --------------------------------------------------------------------------- questions


def _question_view(state: CampaignState, catalog: Catalog, title: str) -> Next:
    night = night_of(state)
    q = night.pending[0]
    names = {i: fx.name_of(state, catalog, i) for i in range(len(state.troupers))}
    if q.kind == "test":
        t = q.trouper or 0
        who = names[t]
        opts = test_options(state, catalog, t, traits=q.traits, fixed_dice=q.dice,
                            target=q.target or 0)
        best = opts[0] if opts else None
        options = [
            Option(
                "r",
                f"Roll for {who} here (best odds: {_trait(best['trait'])}, "
                f"{best['probability']:.0%}; digital dice)" if best else f"Roll for {who} here",
                "night_roll",
                {"trait": best["trait"] if best and q.traits else None},
            )
        ]
        for i, o in enumerate(opts):
            options.append(
                Option(
                    str(i + 1),
                    f"{_trait(o['trait'])}: roll {o['pool']}, {o['probability']:.0%} to reach "
                    f"{o['target']}",
                    "night_roll",
                    {"trait": o["trait"] if q.traits else None},
                    needs=("dice",),
                )
            )
        opts_text = " or ".join(_trait(x) for x in q.traits) or (q.dice or "")
        return Next(
            "night", night.phase, title,
            f"{q.prompt}. {who} takes a {opts_text} Test, {q.target}+ Triumphs.",
            who=state.troupers[t].trouper, options=tuple(options), default="r",
        )
    if q.kind == "discard":
        t = q.trouper or 0
        return Next(
            "night", night.phase, title, q.prompt, who=state.troupers[t].trouper,
            options=(Option("1", f"Choose {q.n} card(s) to discard", "night_answer",
                            needs=("cards",)),),
            default="1",
        )
    cands = [state.troupers[i].trouper for i in q.candidates]
    if q.kind == "leader":
        leader = tuple(
            Option(str(k + 1), names[i], "night_answer", {"troupers": [state.troupers[i].trouper]})
            for k, i in enumerate(q.candidates)
        )
        return Next("night", night.phase, title, q.prompt + " (the Leader decides)",
                    options=leader, default="1")
    options_list = [
        Option("1", "Name them (look at the Map)", "night_answer", needs=("troupers",)),
        Option("a", "All of them: " + ", ".join(names[i] for i in q.candidates), "night_answer",
               {"troupers": cands}),
    ]
    if q.kind == "in_range":
        options_list.append(Option("n", "Nobody", "night_answer", {"troupers": []}))
    return Next(
        "night", night.phase, title,
        q.prompt + " (candidates: " + ", ".join(names[i] for i in q.candidates) + ")",
        options=tuple(options_list), default="a",
    )


def _trait(t: str | None) -> str:
    return (t or "").capitalize() if t and t.isalpha() else (t or "")


# --------------------------------------------------------------------------- Planning


def _planning_view(state: CampaignState, catalog: Catalog, title: str) -> Next:
    night = night_of(state)
    t = night.to_play
    assert t is not None
    tr = state.troupers[t]
    who = fx.name_of(state, catalog, t)
    free = night.chain_spaces - len(night.chain)
    must_rest = len(tr.hand) == 1 and not tr.rested_this_turn
    can_rest = not tr.rested_this_turn
    options: list[Option] = []
    info: list[str] = []
    for i, c in enumerate(tr.hand):
        card = catalog.tactic(c)
        extra = ""
        if card is not None:
            extra = (
                f"Threat {card.threat}"
                + (", Cascade" if card.cascade else "")
                + (", Block" if card.block else "")
            )
            from blood_companion.content.render import render_effect

            info.append(f"{i + 1}. {card.name}: " + "; ".join(render_effect(e)
                                                              for e in card.effects))
        options.append(
            Option(
                str(i + 1), f"Play {card_name(catalog, c)} ({extra})", "night_play",
                {"trouper": tr.trouper, "card": c}, enabled=not must_rest,
                why=f"{who} has one card left and must Rest" if must_rest else "",
                group="play",
            )
        )
    if can_rest:
        options.append(
            Option("r", "Rest (a card face down, 1 Threat, Exhausted)", "night_rest",
                   {"trouper": tr.trouper}, needs=("card",), group="rest")
        )
    if night.cascade:
        options.append(
            Option("p", "Pass (no more cards after the Cascade)", "night_pass",
                   {"trouper": tr.trouper}, group="pass")
        )
    if night.cascade and must_rest:
        prompt = f"{who} has one card left: Rest with it, or pass after the Cascade."
    elif night.cascade:
        prompt = f"{who} may play another card after the Cascade ({free} Chain spaces free), " \
                 "Rest, or pass."
    elif must_rest:
        prompt = f"{who} has one card left and must Rest."
    else:
        prompt = f"{who} plays a Tactic card or Rests ({free} Chain spaces free)."
    preferred = (["p"] if night.cascade else []) + (["r"] if must_rest else [])
    preferred += [o.key for o in options if o.group == "play" and o.enabled] + ["r", "p"]
    default = next((k for k in preferred if any(o.key == k and o.enabled for o in options)), None)
    return Next(
        "night", "planning", title, prompt, who=tr.trouper, options=tuple(options),
        default=default, info=tuple(info),
        details={"hand": list(tr.hand), "can_pass": night.cascade, "must_rest": must_rest,
                 "can_rest": can_rest},
    )


# --------------------------------------------------------------------------- Tactic Phase


def _tactic_view(state: CampaignState, catalog: Catalog, title: str) -> Next:
    opt = activation_options(state, catalog)
    who_id = opt["trouper"]
    t = state.trouper_index(who_id)
    who = fx.name_of(state, catalog, t)
    options: list[Option] = []
    info: list[str] = []
    if opt["rest"]:
        if not opt["rest_drawn"]:
            options.append(Option("1", f"Draw up to {catalog.config.hand_size} (discard "
                                       "nothing first)", "night_redraw"))
            options.append(Option("x", "Discard some cards, then draw", "night_redraw",
                                  needs=("discard_any",)))
        prompt = (f"{who} is Active with a Rest: discard any cards and draw up to "
                  f"{catalog.config.hand_size}, then finish.")
    else:
        prompt = (f"{who} is Active with {opt.get('card_name')} (Chain space {opt['space']}). "
                  "Resolve its Effects top to bottom, or skip them:")
    for e in opt["effects"]:
        info.append(f"{e['effect']}. {e['text']}" + ("" if e["open"] else f"  [{e['why']}]"))
        if e["type"] in ("support", "aura"):
            continue
        options.append(_effect_option(state, catalog, t, e))
    for s in opt["supports"]:
        options.append(
            Option(f"s{s['space']}", f"Use the Support of {s['name']} "
                   f"({fx.name_of(state, catalog, state.trouper_index(s['owner']))}): {s['text']}",
                   "night_support", {"slot": s["space"], "effect": s["effect"]}, group="support")
        )
    for k, it in enumerate(opt["items"]):
        options.append(
            Option(f"i{k + 1}", f"Use {it['name']}: {it['text']}", "night_item",
                   {"trouper": who_id, "item": it["item"]},
                   needs=_cost_needs(it.get("discard", 0)), enabled=it["open"], why=it["why"],
                   group="item")
        )
    for ev in opt["events"]:
        for e in ev["effects"]:
            key = f"e{ev['space']}" + (f".{e['effect']}" if len(ev["effects"]) > 1 else "")
            needs: tuple[str, ...] = ()
            if e["attack"]:
                needs += ("target",)
            if e["traits"] or e["test_dice"] or e["attack"]:
                needs += ("trait", "dice")
            needs += _cost_needs(e["discard"])
            options.append(
                Option(key, f"Event {ev['name']}: {e['text']}", "night_event",
                       {"event": str(ev["space"]), "effect": e["effect"]}, needs=needs,
                       group="event")
            )
    options.append(Option("d", "Done: Resolved token, the next card activates", "night_done",
                          group="done"))
    preferred = [o.key for o in options if o.group == "effect" and o.enabled] + ["d"]
    if opt["rest"] and not opt["rest_drawn"]:
        preferred = ["1"]
    default = next((k for k in preferred if any(o.key == k and o.enabled for o in options)), "d")
    return Next("night", "tactic", title, prompt, who=who_id, options=tuple(options),
                default=default, info=tuple(info), details={"activation": opt})


def _cost_needs(discard: int) -> tuple[str, ...]:
    return ("discard",) if discard else ()


def _effect_option(state: CampaignState, catalog: Catalog, t: int, e: dict[str, Any]) -> Option:
    num = e["effect"]
    label = f"Effect {num}: {e['text']}"
    needs: tuple[str, ...] = ()
    if e["attack"]:
        needs = ("target", "side", "trait", "dice")
        kind = "night_attack"
    else:
        kind = "night_effect"
        if e["target"] == "trouper" and len(state.troupers) > 1:
            needs += ("recipient",)
        if e["traits"] or e["test_dice"]:
            needs += ("trait", "dice")
        if e["heal"]:
            needs += ("heal",)
    needs += _cost_needs(e["discard"])
    return Option(str(num), label, kind, {"effect": num}, needs=needs, enabled=e["open"],
                  why=e["why"], group="effect")


# --------------------------------------------------------------------------- follow-ups


def _hand_picks(state: CampaignState, catalog: Catalog, t: int) -> tuple[Pick, ...]:
    return tuple(
        Pick(str(i + 1), f"{card_name(catalog, c)}", c)
        for i, c in enumerate(state.troupers[t].hand)
    )


def _active_trouper(state: CampaignState) -> int:
    night = night_of(state)
    if night.activation is not None:
        return night.activation.trouper
    if night.pending and night.pending[0].trouper is not None:
        return night.pending[0].trouper
    return night.to_play or 0


def _effect_of(state: CampaignState, catalog: Catalog, option: Option) -> m.Effect | None:
    night = night_of(state)
    if option.kind == "night_event":
        k = int(str(option.fields["event"])) - 1
        ev = event_card(catalog, night.chain[k].card)
        return ev.effects[int(option.fields.get("effect", 1)) - 1]
    act = night.activation
    if act is None:
        return None
    slot = night.chain[act.slot]
    if slot.kind != "tactic":
        return None
    return tactic_card(catalog, slot.card).effects[int(option.fields["effect"]) - 1]


def _dice_ask(state: CampaignState, catalog: Catalog, t: int, pool: str) -> Ask:
    who = fx.name_of(state, catalog, t)
    return Ask(
        "dice",
        f"{who} rolls {pool}." if pool else f"{who} rolls.",
        (Pick("r", "The app rolls (digital dice)", []),),
        default="r",
        free=f"the faces of your own dice ({pool}), e.g. \"2 x 1\"" if pool else
        "the faces of your own dice, e.g. \"2 x 1\"",
        parse=lambda text: [text],
    )


def _test_ask(
    state: CampaignState, catalog: Catalog, t: int, traits: list[str], fixed: str | None,
    need: int | None,
) -> tuple[Ask, dict[str, str]]:
    try:
        opts = test_options(state, catalog, t, traits=traits, fixed_dice=fixed,
                            target=need if need is not None else 0)
    except RuleError:
        opts = []
    pools = {o["trait"]: o["pool"] for o in opts}
    picks = []
    for i, o in enumerate(opts):
        chance = f", {o['probability']:.0%} to reach {need}" if need is not None else ""
        picks.append(Pick(str(i + 1), f"{_trait(o['trait'])} (roll {o['pool']}){chance}",
                          o["trait"] if o["trait"] in traits else None))
    question = "Which Trait?" + (f" ({need} Triumphs needed)" if need is not None else "")
    return Ask("trait", question, tuple(picks), default="1" if picks else None), pools


def _night_asker(
    state: CampaignState, catalog: Catalog, option: Option, answers: Mapping[str, Any],
    need: str,
) -> Ask | None:
    night = night_of(state)
    t = _active_trouper(state)
    fields = {**option.fields, **answers}
    if need == "card":  # the card a Rest puts face down
        picks = _hand_picks(state, catalog, t)
        return Ask("card", f"{fx.name_of(state, catalog, t)} Rests: which card goes face down?",
                   picks, default=picks[-1].key if picks else None)
    if need == "cards":  # the discard question
        q = night.pending[0]
        picks = _hand_picks(state, catalog, q.trouper or 0)
        return Ask("cards", f"{q.prompt}: type {q.n} number(s)", picks, many=(q.n, q.n))
    if need == "troupers":
        q = night.pending[0]
        picks = tuple(
            Pick(str(k + 1), fx.name_of(state, catalog, i), state.troupers[i].trouper)
            for k, i in enumerate(q.candidates)
        )
        least = 0 if q.kind == "in_range" else 1
        return Ask("troupers", q.prompt, picks, many=(least, len(picks)),
                   info=("Look at the Map. Type the numbers, e.g. 1 2.",))
    if need == "discard":  # a Cost: the cards the player discards
        eff = _effect_of(state, catalog, option)
        n = sum(c.n for c in eff.cost if c.kind == "discard_card") if eff else 1
        picks = _hand_picks(state, catalog, t)
        return Ask("discard", f"Which {n} card(s) does {fx.name_of(state, catalog, t)} discard "
                   "to pay the Cost?", picks, many=(n, n))
    if need == "discard_any":
        picks = _hand_picks(state, catalog, t)
        return Ask("discard", "Which cards are discarded before drawing?", picks,
                   many=(0, len(picks)))
    if need == "recipient":
        picks = tuple(
            Pick(str(i + 1), fx.name_of(state, catalog, i), tr.trouper)
            for i, tr in enumerate(state.troupers)
        )
        return Ask("recipient", "Which Trouper does the Effect target (within its Distance)?",
                   picks, default=str(t + 1))
    if need == "heal":
        who = state.trouper_index(fields["recipient"]) if fields.get("recipient") else t
        wounds = state.troupers[who].wounds
        picks = tuple(Pick(str(i + 1), card_name(catalog, c), c) for i, c in enumerate(wounds))
        eff = _effect_of(state, catalog, option)
        n = sum(o.n for o in eff.outcome if o.kind == "heal") if eff else 1
        return Ask("heal", f"Which Wound card(s) come back (Heal {n})?", picks,
                   many=(0, min(n, len(picks))), default="*" if len(picks) <= n else None)
    if need == "target":
        eff = _effect_of(state, catalog, option)
        targets = attack_targets(state, catalog, eff) if eff is not None else []
        tpicks: list[Pick] = []
        for tg in targets:
            if tg["target"] == "nemesis":
                needs = tg["needs"]
                tpicks.append(Pick("n", f"{tg['name']} (Wounds still needed: "
                                   + ", ".join(f"{s} {needs[s]}" for s in SIDES) + ")",
                                   "nemesis"))
            else:
                tpicks.append(Pick(tg["target"].lower(), f"Minion {tg['target']}: {tg['name']} "
                                   f"(hit on {tg['defense']}+ Triumphs)", tg["target"]))
        return Ask("target", "Which target?", tuple(tpicks),
                   default=tpicks[0].key if tpicks else None)
    if need == "side":
        if fields.get("target") != "nemesis":
            return None  # a Minion has no sides
        eff = _effect_of(state, catalog, option)
        level = fx.nemesis_level(state, catalog)
        needed: dict[str, int] = {str(k): v for k, v in level.wounds.items()}
        spicks: list[Pick] = []
        for side in SIDES:
            still = max(0, needed.get(side, 0) - len(night.nemesis_wounds.get(side, [])))
            hit = attack_need(state, catalog, eff, "nemesis", side)[1] if eff else None
            spicks.append(Pick(side[0], f"{side.capitalize()} (still needs {still}; hit on "
                               f"{hit}+ Triumphs)", side))
        default = next((p.key for p, side in zip(spicks, SIDES, strict=True)
                        if needed.get(side, 0) > len(night.nemesis_wounds.get(side, []))), "f")
        return Ask("side", "Which side of the Nemesis do you hit (where you stand)?",
                   tuple(spicks), default=default)
    if need == "trait":
        eff = _effect_of(state, catalog, option)
        traits: list[str] = (
            [str(x) for x in eff.test.traits] if eff is not None and eff.test is not None else []
        )
        fixed = eff.test.dice if eff is not None and eff.test is not None else None
        target_need: int | None = None
        if option.kind in ("night_attack", "night_event") and fields.get("target") and eff:
            try:
                target_need = attack_need(state, catalog, eff, str(fields["target"]),
                                          fields.get("side"))[1]
            except RuleError:
                target_need = None
            traits = traits or ([] if fixed else list(ALL_TRAITS))
        elif eff is not None and eff.test is not None:
            target_need = eff.test.target
        ask, _ = _test_ask(state, catalog, t, traits, fixed, target_need)
        return ask
    if need == "dice":
        trait = fields.get("trait")
        pool = ""
        if option.kind == "night_roll":
            q = night.pending[0]
            try:
                opts = test_options(state, catalog, q.trouper or 0, traits=q.traits,
                                    fixed_dice=q.dice, target=q.target or 0)
            except RuleError:
                opts = []
            t = q.trouper or 0
        else:
            eff = _effect_of(state, catalog, option)
            traits = (
                [str(x) for x in eff.test.traits]
                if eff is not None and eff.test is not None else []
            )
            fixed = eff.test.dice if eff is not None and eff.test is not None else None
            if option.kind != "night_effect" and not traits and not fixed:
                traits = list(ALL_TRAITS)
            try:
                opts = test_options(state, catalog, t, traits=traits, fixed_dice=fixed, target=0)
            except RuleError:
                opts = []
        match = [o for o in opts if o["trait"] == trait] or opts[:1]
        pool = match[0]["pool"] if match else ""
        return _dice_ask(state, catalog, t, pool)
    raise KeyError(need)  # pragma: no cover - every need above


register_askers(
    ("night_rest", "night_answer", "night_attack", "night_effect", "night_event", "night_roll",
     "night_item", "night_redraw"),
    _night_asker,
)
VIEWS["night"] = night_view
