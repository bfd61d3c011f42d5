"""The menus of `blood play`, built from the engine's own "what next" views.

Pure: no terminal, no store. :func:`build_menu` reads the campaign state and asks the engine
what comes next (``day_next``, ``whose_turn`` with its ``options``, the End of the Night's
rewards), then lists the legal answers as :class:`Choice` objects. Every choice ends in one
of the very Action classes the subcommands record (``blood day ...``, ``blood night ...``,
``blood end ...``), so `blood play` holds no rule of its own: a refused action is refused by
the engine, with the engine's message. :func:`resolve` turns a typed answer into an Action or
a follow-up Menu (the side of the Nemesis after the attack, the dice after the Trait).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from blood_companion.content.render import render_effect
from blood_companion.engine import day as d
from blood_companion.engine import endgame as eg
from blood_companion.engine import narrate
from blood_companion.engine import night as n
from blood_companion.engine.actions import Action
from blood_companion.engine.campaign import NextSingleGame
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import RESOURCE_NAMES, CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

SIDES = ("front", "left", "right")


class MenuError(ValueError):
    """An answer that matches no choice (the question is asked again)."""


@dataclass
class Choice:
    key: str
    label: str
    action: Action | None = None
    then: Callable[[], Menu] | None = None


@dataclass
class Menu:
    """One question: the choices, the default (Enter), free-text answers, multi-picks."""

    title: str
    question: str
    choices: list[Choice] = field(default_factory=list)
    default: str | None = None
    info: list[str] = field(default_factory=list)
    free: Callable[[str], Action | Menu] | None = None
    free_hint: str = ""
    multi: Callable[[list[Choice]], Action] | None = None
    none_ok: bool = False  # a multi-pick may be "none"
    end: bool = False  # nothing left to ask (the game is over)

    def choice(self, key: str) -> Choice | None:
        return next((c for c in self.choices if c.key == key), None)

    def to_json(self) -> dict[str, Any]:
        """The question as data (`blood play --json`): each choice with the action it records
        (or whether it leads to a follow-up question)."""
        return {
            "title": self.title,
            "question": self.question,
            "info": list(self.info),
            "default": self.default,
            "free_text": self.free_hint or None if self.free is not None else None,
            "multi": self.multi is not None,
            "end": self.end,
            "choices": [
                {
                    "key": c.key,
                    "label": c.label,
                    "action": c.action.model_dump(mode="json") if c.action is not None else None,
                    "follow_up": c.then is not None,
                }
                for c in self.choices
            ],
        }


def _pick_default(choices: list[Choice], preferred: list[str], avoid: set[str]) -> str | None:
    for key in preferred:
        if key not in avoid and any(c.key == key for c in choices):
            return key
    return None


def _match(menu: Menu, word: str) -> Choice | None:
    low = word.strip().lower()
    exact = menu.choice(low)
    if exact is not None:
        return exact
    hits = [c for c in menu.choices if c.label.lower().startswith(low)]
    if len(hits) == 1:
        return hits[0]
    hits = [c for c in menu.choices if low in c.label.lower()]
    return hits[0] if len(hits) == 1 else None


def resolve(menu: Menu, answer: str) -> Action | Menu:
    """The Action (or follow-up Menu) an answer selects. Raises MenuError."""
    text = answer.strip()
    if not text:
        if menu.default is None:
            raise MenuError("there is no default here: type one of the choices")
        text = menu.default
        if menu.multi is not None and text == "*":
            return menu.multi(list(menu.choices))
    if menu.multi is not None:
        words = [w for w in text.replace(",", " ").split() if w]
        if menu.none_ok and [w.lower() for w in words] == ["none"]:
            return menu.multi([])
        if [w.lower() for w in words] == ["all"]:
            return menu.multi(list(menu.choices))
        picked = [_match(menu, w) for w in words]
        if words and all(p is not None for p in picked):
            return menu.multi([p for p in picked if p is not None])
    else:
        hit = _match(menu, text)
        if hit is not None:
            if hit.then is not None:
                return hit.then()
            if hit.action is not None:
                return hit.action
    if menu.free is not None:
        return menu.free(text)
    keys = ", ".join(c.key for c in menu.choices)
    raise MenuError(f"{text!r} is not one of the choices ({keys})")


# --------------------------------------------------------------------------- entry point


def build_menu(state: CampaignState, catalog: Catalog, avoid: set[str] | None = None) -> Menu:
    """The question the table answers now. ``avoid``: answers already refused for this state
    (the default moves past them, so Enter never repeats a refused move)."""
    avoid = avoid or set()
    if state.part == "day":
        return day_menu(state, catalog, avoid)
    if state.part == "night" and state.night is not None:
        if state.night.result is not None:
            return Menu(
                title="End of the Night",
                question=(
                    f"The night is {state.night.result}: "
                    f"{narrate.night_reason(state.night, catalog)}."
                ),
                choices=[Choice("1", "Close the night and read the rewards", eg.EndNight())],
                default="1",
            )
        return night_menu(state, catalog, avoid)
    if state.part == "end":
        return rewards_menu(state, catalog, avoid)
    if state.part == "over":
        if state.mode == "single":
            # "Single Game Mode": each game starts from the box; another one may follow.
            return Menu(
                title="Game over",
                question=f"Game {state.game} is over. Play another Single game? (quit stops here)",
                choices=[
                    Choice(
                        "1",
                        f"Start game {state.game + 1} from the box's starting state",
                        NextSingleGame(),
                    )
                ],
            )
        return Menu(title="Game over", question="The game is over.", end=True)
    return Menu(title=state.part, question="Nothing to play yet.", end=True)


# --------------------------------------------------------------------------- Day Part


def _trouper_menu(
    state: CampaignState, title: str, question: str, make: Callable[[str], Action]
) -> Menu:
    choices = [
        Choice(str(i + 1), f"{t.trouper} ({t.colour})", make(t.trouper))
        for i, t in enumerate(state.troupers)
    ]
    return Menu(title=title, question=question, choices=choices, default="1")


def _cost_of(catalog: Catalog, c: dict[str, Any]) -> Any:
    kind = c["kind"]
    if kind == "building":
        return d.building_for(catalog, c["id"]).cost
    if kind == "upgrade":
        item = catalog.item(c["id"])
        return item.upgrade_cost if item is not None else None
    card = catalog.tactic(c["id"]) or catalog.item(c["id"])
    return card.cost if card is not None else None


def _purchase_choice(state: CampaignState, catalog: Catalog, key: str, c: dict[str, Any]) -> Choice:
    cost = _cost_of(catalog, c)
    pay = d.suggest_payment(state.wagon, cost) if cost is not None else None
    paid = f" (pay {d.pay_text(pay)})" if pay else ""
    kind = c["kind"]
    title = "Purchases"
    if kind == "building":
        building = d.building_for(catalog, c["id"])
        label = f"{c['name']}{paid}"
        if building.effect == "sanatorium":
            bitten = [t for t in state.troupers if t.bites]

            def sanatorium() -> Menu:
                menu = _trouper_menu(
                    state,
                    title,
                    "Whose Bite does the Sanatorium discard?",
                    lambda who: d.BuyBuilding(building=c["id"], pay=pay, trouper=who),
                )
                menu.choices = [
                    ch for ch in menu.choices if any(ch.label.startswith(t.trouper) for t in bitten)
                ] or menu.choices
                menu.default = menu.choices[0].key
                return menu

            return Choice(key, label, then=sanatorium)
        return Choice(key, label, d.BuyBuilding(building=c["id"], pay=pay))
    if kind == "advanced_tactic":
        label = f"Top {c['art']} Advanced Tactic card{paid}"
        return Choice(
            key,
            label,
            then=lambda: _trouper_menu(
                state,
                title,
                f"Who takes the {c['art']} card into their Personal Reserve?",
                lambda who: d.BuyAdvancedTactic(trouper=who, art=c["art"], pay=pay),
            ),
        )
    if kind == "upgrade":
        label = f"Upgrade {c['trouper']}'s {c['name']}{paid}"
        return Choice(key, label, d.UpgradeItem(trouper=c["trouper"], item=c["id"], pay=pay))
    label = f"{c['name']} ({kind.replace('special_', 'Location/Nemesis ')}){paid}"
    return Choice(
        key,
        label,
        then=lambda: _trouper_menu(
            state,
            title,
            f"Who takes {c['name']} into their Personal Reserve?",
            lambda who: d.BuySpecialCard(trouper=who, card=c["id"], pay=pay),
        ),
    )


def _zone_menu(catalog: Catalog, title: str) -> Menu:
    zones = catalog.all("zones")
    return Menu(
        title=title,
        question="Zone Selection: where do you face the Nemesis tonight?",
        choices=[Choice(str(i + 1), z.name, d.ChooseZone(zone=z.id)) for i, z in enumerate(zones)],
        default="1",
    )


def day_menu(state: CampaignState, catalog: Catalog, avoid: set[str]) -> Menu:
    nxt = d.day_next(state, catalog)
    title = f"Game {state.game} · Day Part · {nxt.title}"
    step = nxt.step
    day = state.day
    assert day is not None
    if step == "recovery":
        return Menu(title, nxt.sentence, [Choice("1", "Recover", d.Recover())], default="1")
    if step == "purchases":
        wagon = ", ".join(f"{v} {k}" for k, v in state.wagon.as_dict().items())
        choices = [
            _purchase_choice(state, catalog, str(k + 1), c)
            for k, c in enumerate(c for c in nxt.choices if c.get("affordable"))
        ]
        choices.append(
            Choice("z", "Done buying: choose the Zone", then=lambda: _zone_menu(catalog, title))
        )
        info = [f"Wagon: {wagon}"]
        if len(choices) == 1:
            info.append("Nothing is affordable with this Wagon.")
        info.append("Swaps and the Alchemist: `blood day swap-tactic`, `swap-item`, `buy`.")
        return Menu(title, "Buy something, or finish buying?", choices, default="z", info=info)
    if step == "zone":
        return _zone_menu(catalog, title)
    if step == "location":
        locs = (
            [
                Choice(
                    str(i + 1),
                    f"{c['name']} (die {c.get('face')})",
                    d.ChooseLocation(location=c["id"]),
                )
                for i, c in enumerate(nxt.choices)
            ]
            if day.cartographer
            else []
        )
        locs.append(Choice("r", "Roll the die here (digital)", d.RollLocation()))
        die = catalog.config.location_die
        return Menu(
            title,
            nxt.sentence,
            locs,
            default="r",
            free=lambda text: d.RollLocation(faces=text),
            free_hint=f"or type the face of your own {die} die (e.g. 2 or x)",
        )
    if step == "minions":
        if day.hunting_house:
            ch = [
                Choice(str(i + 1), f"{c['name']} ({c['type']})", None)
                for i, c in enumerate(nxt.choices)
            ]
            ids = {str(i + 1): c["id"] for i, c in enumerate(nxt.choices)}
            return Menu(
                title,
                nxt.sentence + " Type four numbers, e.g. 1 3 5 7.",
                ch,
                multi=lambda picked: d.ChooseMinions(minions=[ids[p.key] for p in picked]),
            )
        return Menu(
            title, nxt.sentence, [Choice("1", "Reveal two at random", d.DrawMinions())], default="1"
        )
    if step == "last_assault":
        ch = [
            Choice("n", "No: a lieutenant tonight", d.LastAssault(face_vlad=False)),
            Choice("y", "Yes: face Vlad", d.LastAssault(face_vlad=True)),
        ]
        ch = [c for c in ch if {"y": "yes", "n": "no"}[c.key] in {x["id"] for x in nxt.choices}]
        return Menu(title, nxt.sentence, ch, default=ch[0].key)
    if step == "nemesis":
        if day.asylum:
            ch = [
                Choice(str(i + 1), c["name"], d.ChooseNemesis(nemesis=c["id"]))
                for i, c in enumerate(nxt.choices)
            ]
            return Menu(title, nxt.sentence, ch, default="1")
        return Menu(
            title, nxt.sentence, [Choice("1", "Reveal at random", d.DrawNemesis())], default="1"
        )
    if step == "dusk_difficulty":
        det = nxt.details
        info = [f"Location: {det.get('location_name')}   Nemesis: {det.get('nemesis')}"]
        info += ["Map: " + " ".join(row) for row in det.get("map", [])]
        ch = []
        for lv in nxt.choices:
            w = lv["wounds"]
            ch.append(
                Choice(
                    str(lv["level"]),
                    f"{lv['name']} / {lv['nemesis_level']}: wounds F{w['front']} L{w['left']} "
                    f"R{w['right']}, {lv['influence']} Event(s)",
                    d.ChooseDifficulty(level=lv["level"]),
                )
            )
        return Menu(
            title, "Choose the Difficulty Level.", ch, default=ch[0].key if ch else None, info=info
        )
    if step == "dusk_events":
        return Menu(
            title,
            nxt.sentence,
            [Choice("1", "Draw them at random here", d.PlaceEvents())],
            default="1",
            free=lambda text: d.PlaceEvents(events=[x for x in text.replace(",", " ").split()]),
            free_hint="or type the ids of the Event cards you drew",
        )
    if step == "equipping":
        waiting = nxt.details.get("waiting", [])
        if not waiting:
            return Menu(title, nxt.sentence, [Choice("1", "End the Day", d.EndDay())], default="1")
        who = waiting[0]
        row = next(c for c in nxt.choices if c["trouper"] == who)
        first = [ids[0].rstrip("+") for ids in row["sleeves"].values() if ids]
        info = [
            f"{cat}: " + "; ".join(_item_label(catalog, i) for i in ids)
            for cat, ids in row["sleeves"].items()
        ]
        names = ", ".join(_item_label(catalog, i) for i in first)
        return Menu(
            title,
            f"Equipping {who}: three Items, one per category.",
            [Choice("1", "Equip " + names, d.Equip(trouper=who, items=first))],
            default="1",
            info=info,
            free=lambda text: d.Equip(
                trouper=who, items=[x for x in text.replace(",", " ").split()]
            ),
            free_hint="or type three Item ids",
        )
    return Menu(title, nxt.sentence, [Choice("1", "End the Day", d.EndDay())], default="1")


def _item_label(catalog: Catalog, raw: str) -> str:
    """An Item as players read it: its name on the side it shows, then its id ("+" marks the
    Advanced side)."""
    item = catalog.item(raw.rstrip("+"))
    if item is None:
        return raw
    side = item.advanced if raw.endswith("+") and item.advanced is not None else item.starting
    return f"{side.name} ({raw})"


# --------------------------------------------------------------------------- Night Part


def _dice_menu(
    title: str, question: str, make: Callable[[list[str]], Action], pool: str = ""
) -> Menu:
    hint = "or type the faces of your own dice" + (f" ({pool})" if pool else "")
    return Menu(
        title,
        question,
        [Choice("r", "The app rolls (digital dice)", make([]))],
        default="r",
        free=lambda text: make([text]),
        free_hint=hint + ', e.g. "2 x 1"',
    )


def _trait_menu(
    state: CampaignState,
    catalog: Catalog,
    trouper: str,
    title: str,
    traits: list[str],
    make: Callable[[str | None, list[str]], Action],
    need: int | None = None,
) -> Menu:
    """Which Trait (best odds by default), then the dice (digital or typed in). With the
    Triumphs needed known (an attack), each Trait shows its exact chance."""
    card = catalog.trouper(trouper)
    pools = {str(k): str(v) for k, v in card.traits.items()} if card is not None else {}
    t = state.trouper_index(trouper)
    tr = state.troupers[t]
    note = " (Exhausted/Knocked Out: 3 Red)" if tr.exhausted or tr.knocked_out else ""
    chance: dict[str, str] = {}
    best = ""
    if need is not None and traits:
        try:
            options = n.test_options(state, catalog, t, traits=traits, target=need)
        except RuleError:
            options = []
        for o in options:
            chance[o["trait"]] = f", {o['probability']:.0%} to reach {need}"
        if options:
            best = f": {options[0]['trait'].capitalize()}, {options[0]['probability']:.0%}"
    ch = [
        Choice(
            "b",
            f"Best odds (the app picks the Trait{best})",
            then=lambda: _dice_menu(title, "Roll the dice.", lambda dice: make(None, dice)),
        )
    ]
    for i, trait in enumerate(traits):
        pool = pools.get(trait, "")

        def pick(trait: str = trait, pool: str = pool) -> Menu:
            return _dice_menu(
                title,
                f"Roll {trait.capitalize()} ({pool}){note}.",
                lambda dice: make(trait, dice),
                pool + note,
            )

        label = f"{trait.capitalize()} ({pool}){chance.get(trait, '')}"
        ch.append(Choice(str(i + 1), label, then=pick))
    question = "Which Trait?" + (f" ({need} Triumphs needed)" if need is not None else "")
    return Menu(title, question, ch, default="b")


def night_menu(state: CampaignState, catalog: Catalog, avoid: set[str]) -> Menu:
    nxt = n.whose_turn(state, catalog)
    title = f"Game {state.game} · Turn {nxt['turn']} · {nxt['phase_name']}"
    q = nxt.get("question")
    if q is not None:
        return _question_menu(state, catalog, nxt, q, title)
    phase = nxt["phase"]
    if phase == "planning":
        return _planning_menu(state, catalog, nxt, title, avoid)
    if phase == "tactic" and nxt.get("options"):
        return _tactic_menu(state, catalog, nxt, title, avoid)
    return Menu(title, nxt["prompt"], [Choice("1", "Continue", n.NextPhase())], default="1")


def _question_menu(
    state: CampaignState, catalog: Catalog, nxt: dict[str, Any], q: dict[str, Any], title: str
) -> Menu:
    kind = q["kind"]
    names = {i: state.troupers[i].trouper for i in range(len(state.troupers))}
    if kind == "test":
        who = state.troupers[q["trouper"] or 0].trouper
        opts = nxt.get("test_options", [])
        info = [
            f"{o['trait']}: roll {o['pool']}, {o['probability']:.0%} to reach {o['target']}"
            for o in opts
        ]
        best = opts[0] if opts else {"trait": None, "pool": ""}
        traits = [o["trait"] for o in opts if o["trait"] in q.get("traits", [])]
        pools = {o["trait"]: o["pool"] for o in opts}
        ch = [
            Choice(
                "r",
                f"Roll for {who} here (best: {best['trait']}, digital dice)",
                n.RollTest(trait=best["trait"] if traits else None),
            )
        ]
        for i, t in enumerate(traits):
            ch.append(
                Choice(
                    str(i + 1),
                    f"{t.capitalize()} ({pools[t]})",
                    then=lambda t=t: _dice_menu(
                        title,
                        f"{who} rolls {t.capitalize()}.",
                        lambda dice: n.RollTest(trait=t, dice=dice),
                        pools[t],
                    ),
                )
            )
        return Menu(
            title,
            nxt["prompt"],
            ch,
            default="r",
            info=info,
            free=lambda text: n.RollTest(trait=best["trait"] if traits else None, dice=[text]),
            free_hint=f"or type your dice faces for {best['trait']} ({best['pool']})",
        )
    if kind == "discard":
        t = state.troupers[q["trouper"] or 0]
        ch = [Choice(str(i + 1), f"{n.card_name(catalog, c)} ({c})") for i, c in enumerate(t.hand)]
        cards = {str(i + 1): c for i, c in enumerate(t.hand)}
        need = q.get("n", 1)
        menu = Menu(
            title,
            nxt["prompt"] + f" Type {need} number(s).",
            ch,
            multi=lambda picked: n.AnswerQuestion(cards=[cards[p.key] for p in picked]),
        )
        menu.default = " ".join(str(i + 1) for i in range(min(need, len(t.hand))))
        return menu
    cands = q.get("candidates", [])
    ch = [Choice(str(k + 1), names[i]) for k, i in enumerate(cands)]
    ids = {str(k + 1): names[i] for k, i in enumerate(cands)}
    if kind == "leader":
        ch = [Choice(c.key, c.label, n.AnswerQuestion(troupers=[ids[c.key]])) for c in ch]
        return Menu(title, nxt["prompt"] + " (the Leader decides)", ch, default="1")
    menu = Menu(
        title,
        nxt["prompt"],
        ch,
        multi=lambda picked: n.AnswerQuestion(troupers=[ids[p.key] for p in picked]),
        none_ok=kind == "in_range",
        info=[
            "Look at the Map. Type the numbers (e.g. 1 2), 'all'"
            + (" or 'none'." if kind == "in_range" else ".")
        ],
    )
    menu.default = "*"
    return menu


def _planning_menu(
    state: CampaignState, catalog: Catalog, nxt: dict[str, Any], title: str, avoid: set[str]
) -> Menu:
    who = nxt["who"]
    t = state.troupers[state.trouper_index(who)]
    info = []
    ch: list[Choice] = []
    for i, c in enumerate(t.hand):
        card = catalog.tactic(c)
        extra = ""
        if card is not None:
            extra = (
                f", Threat {card.threat}"
                + (", Cascade" if card.cascade else "")
                + (", Block" if card.block else "")
            )
        label = f"Play {n.card_name(catalog, c)} ({c}{extra})"
        if not nxt.get("must_rest"):
            ch.append(Choice(str(i + 1), label, n.PlayCard(trouper=who, card=c)))
        if card is not None:
            info.append(
                f"{i + 1}. {card.name}: " + "; ".join(render_effect(e) for e in card.effects)
            )
    if nxt.get("can_rest") or nxt.get("must_rest"):
        cards = list(t.hand)

        def rest_menu() -> Menu:
            rc = [
                Choice(str(i + 1), f"{n.card_name(catalog, c)} ({c})", n.Rest(trouper=who, card=c))
                for i, c in enumerate(cards)
            ]
            return Menu(title, f"{who} Rests: which card goes face down?", rc, default=str(len(rc)))

        ch.append(Choice("r", "Rest (a card face down, 1 Threat, Exhausted)", then=rest_menu))
    if nxt.get("can_pass"):
        ch.append(Choice("p", "Pass (no more cards after the Cascade)", n.PassCascade(trouper=who)))
    preferred = ["p"] if nxt.get("can_pass") else []
    preferred += ["r"] if nxt.get("must_rest") else []
    preferred += [str(i + 1) for i in range(len(t.hand))] + ["r", "p"]
    return Menu(title, nxt["prompt"], ch, default=_pick_default(ch, preferred, avoid), info=info)


def _tactic_menu(
    state: CampaignState, catalog: Catalog, nxt: dict[str, Any], title: str, avoid: set[str]
) -> Menu:
    opt = nxt["options"]
    who = opt["trouper"]
    t = state.troupers[state.trouper_index(who)]
    ch: list[Choice] = []
    info: list[str] = []
    if opt["rest"] and not opt["rest_drawn"]:
        ch.append(Choice("1", "Draw up to five (discard nothing)", n.RestRedraw()))
    for e in opt["effects"]:
        line = f"{e['effect']}. {e['text']}" + ("" if e["open"] else f"  [{e['why']}]")
        info.append(line)
        if not e["open"] or e["type"] in ("support", "aura"):
            continue
        discard = list(t.hand[: e["discard"]])
        ch.append(_effect_choice(state, catalog, title, who, e, discard))
    for s in opt["supports"]:
        ch.append(
            Choice(
                f"s{s['space']}",
                f"Use the Support of {s['name']} ({s['owner']}): {s['text']}",
                n.UseSupport(slot=s["space"], effect=s["effect"]),
            )
        )
    for k, it in enumerate(opt["items"]):
        if it["open"]:
            ch.append(
                Choice(
                    f"i{k + 1}",
                    f"Use {it['name']}: {it['text']}",
                    n.UseItem(trouper=who, item=it["item"]),
                )
            )
    for ev in opt["events"]:
        for e in ev["effects"]:
            ch.append(_event_choice(state, catalog, title, who, ev, e))
    ch.append(Choice("d", "Done: Resolved token, the next card activates", n.FinishActivation()))
    preferred = [c.key for c in ch if c.key.isdigit()] + ["d"]
    question = (
        f"{who} is Active with "
        + (opt.get("card_name") or "a Rest")
        + f" (Chain space {opt['space']})."
    )
    return Menu(title, question, ch, default=_pick_default(ch, preferred, avoid), info=info)


def _effect_choice(
    state: CampaignState,
    catalog: Catalog,
    title: str,
    who: str,
    e: dict[str, Any],
    discard: list[str],
) -> Choice:
    num = e["effect"]
    traits = e["traits"] or (
        [] if e["test_dice"] else ["strength", "dexterity", "cunning", "madness"]
    )
    if e["attack"]:

        def targets() -> Menu:
            tc: list[Choice] = []
            for _k, tg in enumerate(e["targets"]):
                if tg["target"] == "nemesis":
                    needs = tg["needs"]
                    tc.append(
                        Choice(
                            "n",
                            f"{tg['name']} (Wounds needed: "
                            + ", ".join(f"{s} {needs[s]}" for s in SIDES)
                            + ")",
                            then=lambda needs=needs, defense=tg.get("defense"): _side_menu(
                                state, catalog, title, who, num, needs, traits, discard, defense
                            ),
                        )
                    )
                else:
                    space = tg["target"]
                    tc.append(
                        Choice(
                            space.lower(),
                            f"Minion {space}: {tg['name']}"
                            + (f" (hit on {tg['defense']}+)" if "defense" in tg else ""),
                            then=lambda space=space, need=tg.get("defense"): _trait_menu(
                                state,
                                catalog,
                                who,
                                title,
                                traits,
                                lambda tr, dice, space=space: n.Attack(
                                    effect=num, target=space, trait=tr, dice=dice, discard=discard
                                ),
                                need,
                            ),
                        )
                    )
            return Menu(
                title,
                f"Attack ({e['attack']}): which target?",
                tc,
                default=tc[0].key if tc else None,
            )

        return Choice(str(num), f"Effect {num}: {e['text']}", then=targets)
    if e["traits"] or e["test_dice"]:
        return Choice(
            str(num),
            f"Effect {num}: {e['text']}",
            then=lambda: _trait_menu(
                state,
                catalog,
                who,
                title,
                e["traits"],
                lambda tr, dice: n.ResolveEffect(effect=num, trait=tr, dice=dice, discard=discard),
            ),
        )
    return Choice(
        str(num), f"Effect {num}: {e['text']}", n.ResolveEffect(effect=num, discard=discard)
    )


def _side_menu(
    state: CampaignState,
    catalog: Catalog,
    title: str,
    who: str,
    num: int,
    needs: dict[str, int],
    traits: list[str],
    discard: list[str],
    defense: dict[str, int] | None = None,
) -> Menu:
    ch = []
    for s in SIDES:
        need = defense.get(s) if defense else None
        ch.append(
            Choice(
                s[0],
                f"{s.capitalize()} (still needs {needs[s]}"
                + (f"; hit on {need}+ Triumphs" if need is not None else "")
                + ")",
                then=lambda s=s, need=need: _trait_menu(
                    state,
                    catalog,
                    who,
                    title,
                    traits,
                    lambda tr, dice: n.Attack(
                        effect=num, target="nemesis", side=s, trait=tr, dice=dice, discard=discard
                    ),
                    need,
                ),
            )
        )
    default = next((s[0] for s in SIDES if needs[s] > 0), "f")
    return Menu(
        title, "Which side of the Nemesis do you hit (where you stand)?", ch, default=default
    )


def _event_choice(
    state: CampaignState,
    catalog: Catalog,
    title: str,
    who: str,
    ev: dict[str, Any],
    e: dict[str, Any],
) -> Choice:
    key = f"e{ev['space']}" + (f".{e['effect']}" if len(ev["effects"]) > 1 else "")
    label = f"Event {ev['name']}: {e['text']}"
    event = str(ev["space"])
    discard = list(state.troupers[state.trouper_index(who)].hand[: e["discard"]])
    if e["attack"]:
        night = state.night
        assert night is not None
        spaces = [ms.space for ms in night.minions if ms.alive > 0]

        def target() -> Menu:
            tc = [
                Choice(
                    sp.lower(),
                    f"Minion {sp}",
                    then=lambda sp=sp: _trait_menu(
                        state,
                        catalog,
                        who,
                        title,
                        e["traits"] or ["strength", "dexterity"],
                        lambda tr, dice: n.UseEvent(
                            event=event,
                            effect=e["effect"],
                            target=sp,
                            trait=tr,
                            dice=dice,
                            discard=discard,
                        ),
                    ),
                )
                for sp in spaces
            ]
            return Menu(
                title,
                "Which Minion does the Event's attack target?",
                tc,
                default=tc[0].key if tc else None,
            )

        return Choice(key, label, then=target)
    if e["traits"] or e["test_dice"]:
        return Choice(
            key,
            label,
            then=lambda: _trait_menu(
                state,
                catalog,
                who,
                title,
                e["traits"],
                lambda tr, dice: n.UseEvent(
                    event=event, effect=e["effect"], trait=tr, dice=dice, discard=discard
                ),
            ),
        )
    return Choice(key, label, n.UseEvent(event=event, effect=e["effect"], discard=discard))


# --------------------------------------------------------------------------- End of the Night


def rewards_menu(state: CampaignState, catalog: Catalog, avoid: set[str]) -> Menu:
    rw = state.rewards
    assert rw is not None
    title = f"Game {state.game} · End of the Night · " + (
        "Victory" if rw.result == "won" else "Defeat"
    )
    question = eg.rewards_next(state)
    forfeit = Choice("f", "Finish the game now, leaving the rest", eg.FinishGame(forfeit=True))
    if rw.vlad_cards:
        cards = [v for v in catalog.vlad_reactions_in(rw.zone) if v.id not in state.vlad_weakened]
        ch = [
            Choice(str(i + 1), f"{v.id}", eg.WeakenVlad(cards=[v.id])) for i, v in enumerate(cards)
        ]
        return Menu(title, question, [*ch, forfeit], default="1" if ch else "f")
    if rw.advanced_tactics:
        arts = [a for a, deck in state.advanced_decks.items() if deck]
        turn = len(rw.tactics_taken) % max(1, len(state.troupers))

        def art_menu(art: str) -> Menu:
            menu = _trouper_menu(
                state,
                title,
                f"Who takes the top {art} card?",
                lambda who: eg.TakeAdvancedTactic(art=art, trouper=who),
            )
            menu.default = str(turn + 1)
            return menu

        ch = [
            Choice(
                str(i + 1),
                f"Top {a} card ({len(state.advanced_decks[a])} left)",
                then=lambda a=a: art_menu(a),
            )
            for i, a in enumerate(arts)
        ]
        return Menu(title, question, [*ch, forfeit], default="1" if ch else "f")
    if rw.loot:
        roll = rw.loot[0]
        if roll.resource == "any":
            ch = [
                Choice(
                    str(i + 1),
                    r.capitalize(),
                    then=lambda r=r: _dice_menu(
                        title,
                        f"Roll {roll.dice} for {r}.",
                        lambda dice: eg.RollLoot(faces=dice[0] if dice else None, resource=r),
                        roll.dice,
                    ),
                )
                for i, r in enumerate(RESOURCE_NAMES)
            ]
            return Menu(
                title,
                question + " Which Resource do the Triumphs give?",
                [*ch, forfeit],
                default="1",
            )
        return Menu(
            title,
            question,
            [Choice("r", f"Roll {roll.dice} here (digital)", eg.RollLoot()), forfeit],
            default="r",
            free=lambda text: eg.RollLoot(faces=text),
            free_hint=f"or type the faces of your own dice ({roll.dice})",
        )
    return Menu(title, question, [Choice("1", "Finish the game", eg.FinishGame())], default="1")


# --------------------------------------------------------------------------- what changed


def changes(before: CampaignState, after: CampaignState, catalog: Catalog) -> list[str]:
    """A short summary of what an action changed on the board (Nemesis and Minion phases)."""
    out: list[str] = []
    if before.night is None or after.night is None:
        return out
    b, a = before.night, after.night
    if a.threat != b.threat:
        out.append(f"Threat {b.threat} -> {a.threat}")
    if len(a.reaction_line) != len(b.reaction_line):
        out.append(f"Reaction Line {len(b.reaction_line)} -> {len(a.reaction_line)} card(s)")
    for s in SIDES:
        wb, wa = len(b.nemesis_wounds.get(s, [])), len(a.nemesis_wounds.get(s, []))
        if wa != wb:
            out.append(f"Nemesis {s} Wounds {wb} -> {wa}")
    mb = {m.space: m.alive for m in b.minions}
    for m in a.minions:
        if mb.get(m.space) != m.alive:
            was = mb.get(m.space)
            out.append(
                f"Minion {m.space}: "
                + (f"summoned ({m.alive})" if was is None else f"{was} -> {m.alive} Miniature(s)")
            )
    for tb, ta in zip(before.troupers, after.troupers, strict=False):
        diffs = []
        for label, x, y in (
            ("Wounds", len(tb.wounds), len(ta.wounds)),
            ("Bites", tb.bites, ta.bites),
            ("Insanity", tb.insanity, ta.insanity),
            ("hand", len(tb.hand), len(ta.hand)),
            ("Vigor used", tb.vigor_depleted, ta.vigor_depleted),
        ):
            if x != y:
                diffs.append(f"{label} {x} -> {y}")
        if ta.exhausted and not tb.exhausted:
            diffs.append("Exhausted")
        if ta.knocked_out and not tb.knocked_out:
            diffs.append("KNOCKED OUT")
        if diffs:
            out.append(f"{ta.trouper}: " + ", ".join(diffs))
    if a.result and not b.result:
        out.append(f"The night is {a.result}: {narrate.night_reason(a, catalog)}")
    return out
