"""The night's legal actions as typed options (engine/legal.py), and their follow-up questions.

One option per thing the table may do now: the question waiting (a dodge Test, a discard, who
is in range), the Planning Phase player's cards, the Active Trouper's Effects, Supports, Items
and Events, the Quick Effects and Quick Items usable outside an activation (engine/night/
quick.py), or moving on. Templates ask, in order, what only the players can say: the target
and side of an attack (only targets of the type the Effect allows), the Trait (with the pool
the Trouper really rolls and the exact odds), the throws (engine/night/test_flow.py: the roll,
then each Re-roll, the best one as the default), the cards to discard or heal, the Trouper an
Effect helps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.render import render_effect
from blood_companion.engine import effects as fx
from blood_companion.engine import interpreter as interp
from blood_companion.engine import narrate
from blood_companion.engine.effects import night_of
from blood_companion.engine.interpreter import ATTACKS
from blood_companion.engine.legal import VIEWS, Ask, Next, Option, Pick, register_askers
from blood_companion.engine.night.core import box_of, card_name, event_card, tactic_card
from blood_companion.engine.night.phases import PHASES
from blood_companion.engine.night.quick import quick_now
from blood_companion.engine.night.resolve import attack_need, token_to_place
from blood_companion.engine.night.test_flow import TestSpec, setup_of, throw_ask
from blood_companion.engine.night.trouper_tests import item_side, test_options
from blood_companion.engine.night.views import activation_options, attack_targets
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import UNKNOWN, hand_choices, hidden_hand, unseen
from blood_companion.engine.tests_procedure import odds_for_test, prepare_test
from blood_companion.engine.words import SETUP, checklist_ask

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

SIDES = ("front", "left", "right")
ALL_TRAITS = ["strength", "dexterity", "cunning", "madness"]
TEST = ("trait", "dice")  # the needs of a Test: the Trait, then the throws (repeated)


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
        nxt = _question_view(state, catalog, title)
    elif night.phase == "planning":
        nxt = _planning_view(state, catalog, title)
    elif night.phase == "tactic" and night.activation is not None:
        nxt = _tactic_view(state, catalog, title)
    elif night.phase == "beginning_of_night" and not night.started:
        # "Beginning of the Night": the physical set-up, a line to tick each (engine/words.py)
        nxt = Next(
            "night", night.phase, title, "Set up the table for the night, then begin it.",
            options=(Option("1", "Begin the night: set up the table (a checklist, Enter ticks "
                            "each line)", "night_continue", needs=(SETUP,), repeat=(SETUP,)),),
            default="1",
        )
    else:
        text = spec.done_text or f"The {spec.title} resolves."
        nxt = Next(
            "night", night.phase, title, text,
            options=(Option("1", "Continue", "night_continue"),), default="1",
        )
    return _with_quick(state, catalog, nxt)


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


# --------------------------------------------------------------------------- Quick Effects


def _effect_needs(entry: Mapping[str, Any], many_troupers: bool) -> tuple[str, ...]:
    """The questions an Effect asks before it resolves (an entry of activation_options or
    quick_now): its Cost first (paid before the Effect), then its target and its Test."""
    needs: tuple[str, ...] = ("confirm",) if entry.get("confirm") else ()
    needs += _cost_needs(entry.get("discard", 0))
    if entry.get("attack"):
        needs += ("target", "side", *TEST)
    else:
        if entry.get("target") == "trouper" and many_troupers:
            needs += ("recipient",)
        if entry.get("traits") or entry.get("test_dice") or entry.get("test"):
            needs += TEST
        if entry.get("heal"):
            needs += ("heal",)
    if entry.get("token"):
        needs += ("token_flip",)
    return needs


def _with_quick(state: CampaignState, catalog: Catalog, nxt: Next) -> Next:
    """Every view also offers the Quick Effects and Quick Items usable now ("Quick
    Effects"); none of them is ever the default."""
    extra = []
    many = len(state.troupers) > 1
    taken = {o.key for o in nxt.options}
    for q in quick_now(state, catalog):
        if q["key"] in taken:
            continue
        needs = _effect_needs(q, many)
        if q["kind"] == "card":
            extra.append(Option(
                q["key"], f"{q['name']} ({q['owner_name']}, Chain space {q['space']}): "
                f"{q['text']}", "night_quick", {"slot": q["space"], "effect": q["effect"]},
                needs=needs, repeat=("dice",) if "dice" in needs else (), group="quick",
            ))
        else:
            extra.append(Option(
                q["key"], f"Quick Item: {q['owner_name']} uses {q['name']}: {q['text']}",
                "night_item", {"trouper": q["owner"], "item": q["item"]}, needs=needs,
                repeat=("dice",) if "dice" in needs else (), group="quick",
            ))
    if not extra:
        return nxt
    from dataclasses import replace

    return replace(nxt, options=(*nxt.options, *extra))


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
        def trait_of(o: Mapping[str, Any]) -> str | None:
            return str(o["trait"]) if q.traits else None

        options = [
            Option(
                "r",
                f"Roll for {who}: {_trait(best['trait'])}, {best['pool']}, "
                f"{best['probability']:.0%} to succeed" if best else f"Roll for {who}",
                "night_roll", {"trait": trait_of(best) if best else None},
                needs=("dice",), repeat=("dice",),
            )
        ]
        if len(opts) > 1:
            for i, o in enumerate(opts):
                options.append(Option(
                    str(i + 1), f"{_trait(o['trait'])}: roll {o['pool']}, "
                    f"{o['probability']:.0%} to reach {o['target']}", "night_roll",
                    {"trait": trait_of(o)}, needs=("dice",), repeat=("dice",),
                ))
        opts_text = " or ".join(_trait(x) for x in q.traits) or (q.dice or "")
        return Next(
            "night", night.phase, title,
            f"{q.prompt}. {who} takes a {opts_text} Test, {q.target}+ Triumphs.",
            who=state.troupers[t].trouper, options=tuple(options), default="r",
        )
    if q.kind in ("discard", "wound"):
        t = q.trouper or 0
        what = "to discard" if q.kind == "discard" else "that take the Wounds"
        return Next(
            "night", night.phase, title, q.prompt, who=state.troupers[t].trouper,
            options=(Option("1", f"Choose {q.n} card(s) {what}", "night_answer",
                            needs=("cards",)),),
            default="1",
        )
    if q.kind == "confirm":
        # A Condition of the Nemesis's own card is taken as printed unless the table says it
        # does not hold; a Weakness's Trophy is earned only when the players say so.
        trophy = q.about.startswith("weakness:")
        return Next(
            "night", night.phase, title, q.prompt,
            options=(
                Option("y", "Yes" + (": the Trophy is earned" if trophy else ": it holds"),
                       "night_answer", {"yes": True}),
                Option("n", "No" + (": not earned" if trophy else ": it does not hold"),
                       "night_answer", {"yes": False}),
            ),
            default="n" if trophy else "y",
        )
    if q.kind == "order":
        shown = ", ".join(narrate.record_name(catalog, c) for c in q.cards)
        return Next(
            "night", night.phase, title, q.prompt,
            options=(
                Option("1", f"In this order: {shown}", "night_answer", {"cards": list(q.cards)}),
                Option("o", "Another order", "night_answer", needs=("cards",)),
            ),
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
    if hidden_hand(state, t):
        return _hidden_planning_view(state, catalog, title, t)
    for i, c in enumerate(tr.hand):
        card = catalog.tactic(c)
        extra = ""
        if card is not None:
            extra = (
                f"Threat {card.threat}"
                + (", Cascade" if card.cascade else "")
                + (", Block" if card.block else "")
            )
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
    default = _planning_default(state, catalog, t, options)
    return Next(
        "night", "planning", title, prompt, who=tr.trouper, options=tuple(options),
        default=default, info=tuple(info),
        details={"hand": list(tr.hand), "can_pass": night.cascade, "must_rest": must_rest,
                 "can_rest": can_rest},
    )


def _hidden_planning_view(state: CampaignState, catalog: Catalog, title: str, t: int) -> Next:
    """The Planning Phase of a Trouper whose hand the app does not see (the Trouper decks at
    the table): the player says which card they play or Rest with."""
    night = night_of(state)
    tr = state.troupers[t]
    who = fx.name_of(state, catalog, t)
    free = night.chain_spaces - len(night.chain)
    must_rest = len(tr.hand) == 1 and not tr.rested_this_turn
    can_rest = not tr.rested_this_turn
    options = [
        Option("1", "Play a card from the hand (say which)", "night_play",
               {"trouper": tr.trouper}, needs=("card",), enabled=not must_rest,
               why=f"{who} has one card left and must Rest" if must_rest else "", group="play"),
    ]
    if can_rest:
        options.append(Option("r", "Rest (a card face down, 1 Threat, Exhausted)", "night_rest",
                              {"trouper": tr.trouper}, needs=("card",), group="rest"))
    if night.cascade:
        options.append(Option("p", "Pass (no more cards after the Cascade)", "night_pass",
                              {"trouper": tr.trouper}, group="pass"))
    what = "may play another card after the Cascade, Rest, or pass" if night.cascade else (
        "has one card left and must Rest" if must_rest else "plays a Tactic card or Rests")
    prompt = f"{who} {what} ({free} Chain spaces free; {len(tr.hand)} cards in hand)."
    info = ("The app does not see this hand: it asks which card.",)
    default = "r" if must_rest and can_rest else ("p" if night.cascade and must_rest else "1")
    if not any(o.key == default and o.enabled for o in options):
        default = next((o.key for o in options if o.enabled), "1")
    return Next(
        "night", "planning", title, prompt, who=tr.trouper, options=tuple(options),
        default=default, info=info,
        details={"hand": list(tr.hand), "can_pass": night.cascade, "must_rest": must_rest,
                 "can_rest": can_rest, "hand_hidden": True,
                 "can_be": hand_choices(state, t)},
    )


def _planning_default(
    state: CampaignState, catalog: Catalog, t: int, options: list[Option]
) -> str | None:
    """What Enter does in the Planning Phase: the choice that keeps a hand. Cards come back
    only through a Rest's draw (and Draw Effects), and a night with no card in any hand at the
    Cleanup is lost ("Rest"; docs/rules-decisions.md). So a Trouper who has not Rested this
    turn Rests once their hand is down to two cards, when the last Chain space is left, or
    before a Block card would end the Planning Phase; after a Cascade they pass; otherwise
    they play their first card that does not end the Planning Phase."""
    night = night_of(state)
    tr = state.troupers[t]
    enabled = [o.key for o in options if o.enabled]
    plays = [o for o in options if o.group == "play" and o.enabled]
    free = night.chain_spaces - len(night.chain)
    can_rest = "r" in enabled
    if night.cascade and "p" in enabled and (len(tr.hand) > 2 or not can_rest):
        return "p"
    if can_rest and (len(tr.hand) <= 2 or free <= 1 or not plays):
        return "r"
    if night.cascade and "p" in enabled:
        return "p"
    open_ended = [o.key for o in plays if not _blocks(catalog, o)]
    if can_rest and not open_ended:
        return "r"  # only Block cards left: Rest before one ends the Planning Phase
    return next((k for k in (*open_ended, *(o.key for o in plays), "r", "p") if k in enabled),
                None)


def _blocks(catalog: Catalog, option: Option) -> bool:
    card = catalog.tactic(str(option.fields.get("card")))
    return card is not None and card.block


# --------------------------------------------------------------------------- Tactic Phase


def _tactic_view(state: CampaignState, catalog: Catalog, title: str) -> Next:
    opt = activation_options(state, catalog)
    who_id = opt["trouper"]
    t = state.trouper_index(who_id)
    who = fx.name_of(state, catalog, t)
    many = len(state.troupers) > 1
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
        options.append(_effect_option(e, many))
    for s in opt["supports"]:
        s_needs = (("confirm",) if s.get("confirm") else ()) + (
            ("token_flip",) if s.get("token") else ())
        options.append(
            Option(f"s{s['space']}", f"Use the Support of {s['name']} "
                   f"({fx.name_of(state, catalog, state.trouper_index(s['owner']))}): {s['text']}",
                   "night_support", {"slot": s["space"], "effect": s["effect"]}, needs=s_needs,
                   enabled=s.get("open", True), why=s.get("why", ""), group="support")
        )
    for k, it in enumerate(opt["items"]):
        entry = _item_entry(state, catalog, t, it["item"])
        item_needs = _effect_needs(entry, many) if entry else _cost_needs(it.get("discard", 0))
        options.append(
            Option(f"i{k + 1}", f"Use {it['name']}: {it['text']}", "night_item",
                   {"trouper": who_id, "item": it["item"]}, needs=item_needs,
                   repeat=("dice",) if "dice" in item_needs else (), enabled=it["open"],
                   why=it["why"], group="item")
        )
    for ev in opt["events"]:
        for e in ev["effects"]:
            key = f"e{ev['space']}" + (f".{e['effect']}" if len(ev["effects"]) > 1 else "")
            needs: tuple[str, ...] = ("confirm",) if e.get("confirm") else ()
            needs += _cost_needs(e["discard"])
            if e["attack"]:
                needs += ("target",)
            if e["traits"] or e["test_dice"] or e["attack"]:
                needs += TEST
            if e.get("token"):
                needs += ("token_flip",)
            enabled, why = True, ""
            if e["attack"]:
                eff = event_card(catalog, ev["event"]).effects[e["effect"] - 1]
                if not attack_targets(state, catalog, eff):
                    enabled, why = False, _no_target_why(eff)
            options.append(
                Option(key, f"Event {ev['name']}: {e['text']}", "night_event",
                       {"event": str(ev["space"]), "effect": e["effect"]}, needs=needs,
                       repeat=("dice",) if "dice" in needs else (), enabled=enabled, why=why,
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


def _no_target_why(eff: m.Effect) -> str:
    want = eff.target.minion_type if eff.target is not None else None
    if want:
        return f"no {want.capitalize()} Minion on the board"
    return "no target on the board"


def _item_entry(state: CampaignState, catalog: Catalog, t: int, iid: str
                ) -> dict[str, Any] | None:
    side = item_side(state, catalog, t, iid)
    if not side.effects:
        return None
    eff = side.effects[0]
    attack = next((o.kind for o in eff.outcome if o.kind in ATTACKS), None)
    return {
        "attack": attack,
        "target": eff.target.kind if eff.target is not None else None,
        "test": eff.test is not None,
        "heal": any(o.kind == "heal" for o in eff.outcome),
        "discard": sum(c.n for c in eff.cost if c.kind == "discard_card"),
        "confirm": interp.condition_text(eff)
        if interp.condition_holds(state, t, eff.condition) is None else "",
        "token": token_to_place(state, t, eff),
    }


def _cost_needs(discard: int) -> tuple[str, ...]:
    return ("discard",) if discard else ()


def _effect_option(e: dict[str, Any], many: bool) -> Option:
    num = e["effect"]
    needs = _effect_needs(e, many)
    kind = "night_attack" if e["attack"] else "night_effect"
    return Option(str(num), f"Effect {num}: {e['text']}", kind, {"effect": num}, needs=needs,
                  repeat=("dice",) if "dice" in needs else (), enabled=e["open"],
                  why=e["why"], group="effect")


# --------------------------------------------------------------------------- follow-ups


def _hand_picks(state: CampaignState, catalog: Catalog, t: int) -> tuple[Pick, ...]:
    """The cards of Trouper ``t``'s hand to choose from; a hand the app does not see (the
    Trouper decks at the table, engine/table.py) offers every card that can be in it."""
    return tuple(
        Pick(str(i + 1), _card_label(catalog, c), c)
        for i, c in enumerate(hand_choices(state, t))
    )


def _card_label(catalog: Catalog, c: str) -> str:
    card = catalog.tactic(c)
    if card is None:
        return card_name(catalog, c)
    tags = (", Cascade" if card.cascade else "") + (", Block" if card.block else "")
    return f"{card.name} (Threat {card.threat}{tags})"


def _actor(state: CampaignState, option: Option) -> int:
    """The Trouper who acts for an option: the Item's owner, the Quick card's owner, the
    Trouper a question waits on, or the Active one."""
    night = night_of(state)
    if option.kind == "night_item" and option.fields.get("trouper"):
        return state.trouper_index(str(option.fields["trouper"]))
    if option.kind == "night_quick":
        slot = night.chain[int(option.fields["slot"]) - 1]
        return slot.owner or 0
    if option.kind in ("night_roll", "night_answer") and night.pending:
        return night.pending[0].trouper or 0
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
    if option.kind == "night_item":
        t = _actor(state, option)
        side = item_side(state, catalog, t, str(option.fields["item"]))
        return side.effects[0] if side.effects else None
    if option.kind in ("night_quick", "night_support"):
        slot = night.chain[int(option.fields["slot"]) - 1]
        return tactic_card(catalog, slot.card).effects[int(option.fields["effect"]) - 1]
    act = night.activation
    if act is None:
        return None
    slot = night.chain[act.slot]
    if slot.kind != "tactic":
        return None
    return tactic_card(catalog, slot.card).effects[int(option.fields["effect"]) - 1]


def test_spec(
    state: CampaignState, catalog: Catalog, option: Option, fields: Mapping[str, Any]
) -> TestSpec | None:
    """The Test an option takes with the answers so far (None: it takes none, or its
    target is not named yet)."""
    night = night_of(state)
    if option.kind == "night_roll":
        q = night.pending[0]
        return TestSpec(q.trouper or 0, tuple(q.traits), q.dice, q.target or 0, "dodge",
                        against_enemy=True)
    eff = _effect_of(state, catalog, option)
    if eff is None:
        return None
    t = _actor(state, option)
    traits = [str(x) for x in eff.test.traits] if eff.test is not None else []
    fixed = eff.test.dice if eff.test is not None else None
    if any(o.kind in ATTACKS for o in eff.outcome):
        if not fields.get("target"):
            return None
        need = attack_need(state, catalog, eff, str(fields["target"]), fields.get("side"))[1]
        if not traits and not fixed:
            traits = list(ALL_TRAITS)
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
        key, setup = setup_of(state, catalog, spec, trait)
        ts = prepare_test(setup, box)
        p = odds_for_test(setup, box).probability
        rows.append((float(p), trait, " ".join(ts.pool), ts.notes))
    rows.sort(key=lambda r: -r[0])
    picks = tuple(
        Pick(str(i + 1), f"{_trait(trait)}: roll {pool}, {p:.0%} to reach {spec.target}", trait)
        for i, (p, trait, pool, _) in enumerate(rows)
    )
    notes = rows[0][3]
    info = tuple(notes)
    return Ask("trait", f"Which Trait? ({spec.target} Triumph(s) needed)", picks, default="1",
               info=info)


def _night_asker(
    state: CampaignState, catalog: Catalog, option: Option, answers: Mapping[str, Any],
    need: str,
) -> Ask | None:
    if need == SETUP:
        return checklist_ask(state, catalog, "night", "Beginning of the Night", answers)
    night = night_of(state)
    t = _actor(state, option)
    fields = {**option.fields, **answers}
    if need == "card" and option.kind == "night_play":  # a hand the app does not see
        picks = _hand_picks(state, catalog, t)
        return Ask("card", f"Which card does {fx.name_of(state, catalog, t)} play? (the cards "
                   "that can be in the hand; type its number or name)", picks)
    if need == "card":  # the card a Rest puts face down
        picks = _hand_picks(state, catalog, t)
        hidden = hidden_hand(state, t)
        return Ask("card", f"{fx.name_of(state, catalog, t)} Rests: which card goes face down?"
                   + (" (the cards that can be in the hand)" if hidden else ""),
                   picks, default=picks[-1].key if picks and not hidden else None)
    if need == "cards" and night.pending and night.pending[0].kind == "order":
        q = night.pending[0]
        picks = tuple(Pick(str(i + 1), narrate.record_name(catalog, c), c)
                      for i, c in enumerate(q.cards))
        return Ask("cards", "Type the cards in the order their Effects resolve, e.g. "
                   + " ".join(p.key for p in reversed(picks)), picks,
                   many=(len(picks), len(picks)), default=" ".join(p.key for p in picks))
    if need == "cards":  # the discard question, or the cards that take the Wounds
        q = night.pending[0]
        picks = _hand_picks(state, catalog, q.trouper or 0)
        n = min(q.n, len(picks))
        hidden = hidden_hand(state, q.trouper or 0)
        return Ask("cards", f"{q.prompt}: type {n} number(s)", picks, many=(n, n),
                   default=" ".join(p.key for p in picks[-n:]) if picks and not hidden
                   else None)
    if need == "confirm":
        eff = _effect_of(state, catalog, option)
        text = interp.condition_text(eff) if eff is not None else ""
        return Ask("confirm", f"Does the Condition hold at the table? {text}", (
            Pick("y", "Yes: it holds (look at the Map)", True),
            Pick("n", "No: then this Effect cannot be resolved now", False, enabled=False,
                 why="choose another Effect (`back`)"),
        ), default="y")
    if need == "token_flip":
        eff = _effect_of(state, catalog, option)
        kind = token_to_place(state, t, eff) if eff is not None else None
        if kind is None:
            return None
        word = kind.capitalize()
        return Ask("token_flip", f"Where does the new {word} token go?", (
            Pick("n", f"On a Tile without one of your Consumed {word} tokens", False),
            Pick("y", f"On a Tile with one of your Consumed {word} tokens: it turns Intact",
                 True),
        ), default="n")
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
        hidden = hidden_hand(state, t)
        return Ask("discard", f"Which {n} card(s) does {fx.name_of(state, catalog, t)} discard "
                   "to pay the Cost?", picks, many=(n, n),
                   default=" ".join(p.key for p in picks[-n:])
                   if len(picks) >= n and not hidden else None)
    if need == "discard_any":
        picks = _hand_picks(state, catalog, t)
        return Ask("discard", "Which cards are discarded before drawing?", picks,
                   many=(0, len(picks)))
    if need == "recipient":
        eff = _effect_of(state, catalog, option)
        heals = eff is not None and any(o.kind == "heal" for o in eff.outcome)
        dist = eff.target.distance if eff is not None and eff.target is not None else "any"
        picks = tuple(
            Pick(str(i + 1), fx.name_of(state, catalog, i)
                 + (f" ({len(tr.wounds)} Wound(s))" if heals else ""), tr.trouper)
            for i, tr in enumerate(state.troupers)
        )
        chosen = t
        if heals:
            # the most wounded Trouper, the acting one first among equals
            order = sorted(range(len(state.troupers)),
                           key=lambda i: (-len(state.troupers[i].wounds), i != t))
            chosen = order[0]
        where = "" if dist == "any" else f" (at Distance {dist}: look at the Map)"
        return Ask("recipient", f"Which Trouper does the Effect target{where}?", picks,
                   default=str(chosen + 1))
    if need == "heal":
        who = state.trouper_index(fields["recipient"]) if fields.get("recipient") else t
        wounds = state.troupers[who].wounds
        if not wounds:
            return None
        known = [c for c in wounds if c != UNKNOWN]
        picks = tuple(Pick(str(i + 1), card_name(catalog, c), c) for i, c in enumerate(known))
        if UNKNOWN in wounds:  # the Trouper decks at the table: name the card going back
            could = [c for c in unseen(state, who) if c not in known]
            picks += tuple(
                Pick(str(len(picks) + k + 1), f"{card_name(catalog, c)} (if it is among the "
                     "Wound cards)", c) for k, c in enumerate(could))
        eff = _effect_of(state, catalog, option)
        n = sum(o.n for o in eff.outcome if o.kind == "heal") if eff else 1
        hidden = UNKNOWN in wounds
        return Ask("heal", f"Which Wound card(s) come back (Heal {n})?"
                   + (" The discard pile shows them: name them." if hidden else ""), picks,
                   many=(0, min(n, len(picks))),
                   default="*" if len(picks) <= n and not hidden else None)
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
                                   f"({tg['type']}, hit on {tg['defense']}+ Triumphs)",
                                   tg["target"]))
        want = eff.target.minion_type if eff is not None and eff.target is not None else None
        question = "Which target?" + (f" (a {want.capitalize()} Minion)" if want else "")
        return Ask("target", question, tuple(tpicks),
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
        if option.kind == "night_roll":
            return None  # chosen with the option
        spec = test_spec(state, catalog, option, fields)
        return _trait_ask(state, catalog, spec) if spec is not None else None
    if need == "dice":
        spec = test_spec(state, catalog, option, fields)
        if spec is None:
            return None
        return throw_ask(state, catalog, spec, fields)
    raise KeyError(need)  # pragma: no cover - every need above


register_askers(
    ("night_continue", "night_play", "night_rest", "night_answer", "night_attack",
     "night_effect", "night_event", "night_roll", "night_item", "night_redraw", "night_quick",
     "night_support"),
    _night_asker,
)
VIEWS["night"] = night_view
