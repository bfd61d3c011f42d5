"""`blood status` as data and as lines of text.

Two halves with different costs:

* :func:`build_doc` turns a campaign (state + catalog) into one plain JSON-able document: the
  phase and what comes next, the Night Board, the Nemesis, each Trouper, the Day's Wagon and
  purchases, the End of the Night's rewards. It asks the engine's own views (``board_view``,
  ``whose_turn``, ``day_next``, ``rewards_next``) and adds nothing but display facts.
* :func:`render` turns that document into lines of at most ``width`` columns, each with an
  optional style name. It needs only the standard library, so the fast path of `blood status`
  (cli/status_fast.py) can render a cached document without importing pydantic or the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.state import CampaignState

Line = tuple[str, str]  # (text, style name: "" | "bold" | "dim" | "green" | "yellow" | "red")

DOC_VERSION = 2
SIDES = ("front", "left", "right")


# --------------------------------------------------------------------------- the document


def build_doc(
    state: CampaignState, catalog: Catalog, *, name: str, head: int, state_hash: str
) -> dict[str, Any]:
    """Everything `blood status` shows, as plain data (also `blood status --json`)."""
    doc: dict[str, Any] = {
        "doc_version": DOC_VERSION,
        "name": name,
        "mode": state.mode,
        "game": state.game,
        "part": state.part,
        "phase": state.phase,
        "step": head,
        "state_hash": state_hash,
        "leader": state.troupers[state.leader].trouper if state.troupers else None,
        "wagon": state.wagon.as_dict(),
        "location_trophies": dict(state.location_trophies),
        "nemesis_trophies": dict(state.nemesis_trophies),
        "summary": _summary(state),
        "night": None,
        "day": None,
        "rewards": None,
        "next": None,
    }
    if state.night is not None and state.part in ("night", "over"):
        from blood_companion.engine.night import PHASE_NAMES, board_view, whose_turn
        from blood_companion.engine.rolls.procedure import attack_target

        view = board_view(state, catalog)
        nem = view["nemesis"]
        nem["defense_after_fatigue"] = {
            k: attack_target(nem["defenses"][k], [nem["fatigue"][k]]) for k in ("physical", "mind")
        }
        view["phase_name"] = PHASE_NAMES.get(view["phase"], view["phase"])
        _trouper_limits(view["troupers"], catalog)
        _faces(view, state, catalog)
        doc["night"] = view
        nxt = whose_turn(state, catalog)
        nxt["title"] = f"Turn {nxt['turn']} · {nxt['phase_name']}"
        nxt["commands"] = _commands(state, catalog)
        doc["next"] = nxt
    elif state.part == "day" and state.day is not None:
        doc["day"], doc["next"] = _day_view(state, catalog)
    elif state.part == "end" and state.rewards is not None:
        from blood_companion.engine.endgame import rewards_next

        doc["rewards"] = state.rewards.model_dump(mode="json")
        doc["next"] = {
            "title": "End of the Night",
            "prompt": rewards_next(state),
            "commands": _commands(state, catalog),
        }
    elif state.part == "over" and state.mode == "single":
        doc["next"] = {
            "title": "Over",
            "prompt": "The game is over; another Single game starts from the box.",
            "commands": ["blood campaign next-game"],
        }
    else:
        done = "The game is over." if state.part == "over" else "Nothing to do yet."
        doc["next"] = {"title": state.part.capitalize(), "prompt": done, "commands": []}
    doc["placeholder"] = _placeholders(state, catalog)
    return doc


def _commands(state: CampaignState, catalog: Catalog) -> list[str]:
    """The commands of the options open now (engine/legal.py, cli/commands.py)."""
    from blood_companion.cli.commands import for_next
    from blood_companion.engine.legal import next_view

    return for_next(next_view(state, catalog), catalog)


def _placeholders(state: CampaignState, catalog: Catalog) -> list[str]:
    """Which cards on the table are our placeholder content, not the box's (DESIGN: the mark is
    shown wherever such content appears)."""
    found: list[str] = []

    def mark(label: str, records: list[Any]) -> None:
        if any(r is not None and r.source == "placeholder" for r in records):
            found.append(label)

    mark("Troupers", [catalog.trouper(t.trouper) for t in state.troupers])
    if state.night is not None:
        mark("Nemesis", [catalog.nemesis(state.night.nemesis)])
        mark("Location", [catalog.get("locations", state.night.location)])
        mark("Minions", [catalog.get("minions", s.minion) for s in state.night.minions])
    mark("dice", list(catalog.dice))
    return found


def _summary(state: CampaignState) -> dict[str, Any]:
    """The table, the Wagon and the trophies (every Part)."""
    return {
        "troupers": [
            {"seat": t.seat + 1, "trouper": t.trouper, "bites": t.bites, "insanity": t.insanity}
            for t in state.troupers
        ],
        "leader": state.troupers[state.leader].trouper if state.troupers else None,
        "wagon": state.wagon.as_dict(),
        "location_trophies": state.location_trophies,
        "nemesis_trophies": state.nemesis_trophies,
    }


def _trouper_limits(troupers: list[dict[str, Any]], catalog: Catalog) -> None:
    cfg = catalog.config
    for t in troupers:
        t["knock_out_at"] = cfg.knock_out_wounds
        t["vigor_tokens"] = cfg.vigor_tokens
        t["insanity_max"] = len(catalog.insanity.spaces) - 1


def _faces(view: dict[str, Any], state: CampaignState, catalog: Catalog) -> None:
    """What the served board shows beside the names (issue 28): each Reaction card's text as
    printed, each Item's side (starting or advanced) with that side's name, and each Trouper's
    Vigor tokens by side and Bite."""
    from blood_companion.content.face import card_face

    for r in view["reaction_line"]:
        face = "weakened" if r["card"] in state.vlad_weakened else None
        r["text"] = [line.strip() for line in card_face(catalog, r["card"], face=face)[1:]]
    from blood_companion.engine.vigor import layout

    for t, tr in zip(view["troupers"], state.troupers, strict=False):
        lay = layout(tr, catalog.config.vigor_tokens)  # each token by side and Bite
        t["vigor_tokens_by_side"] = {
            "available": lay.available, "available_bitten": lay.available_bitten,
            "depleted": lay.depleted, "depleted_bitten": lay.depleted_bitten,
        }
        advanced = {s.item for s in tr.sleeves if s.advanced}
        for i in t["items"]:
            item = catalog.item(i["item"])
            up = i["item"] in advanced and item is not None and item.advanced is not None
            i["side"] = "advanced" if up else "starting"
            if item is not None:
                side = item.advanced if up and item.advanced is not None else item.starting
                i["side_name"] = side.name


def _day_view(state: CampaignState, catalog: Catalog) -> tuple[dict[str, Any], dict[str, Any]]:
    from blood_companion.engine import day as d

    day = state.day
    assert day is not None
    nxt = d.day_next(state, catalog)
    troupers = []
    for i, t in enumerate(state.troupers):
        card = catalog.trouper(t.trouper)
        troupers.append(
            {
                "seat": t.seat + 1,
                "trouper": t.trouper,
                "name": card.name if card is not None else t.trouper,
                "colour": t.colour,
                "leader": i == state.leader,
                "bites": t.bites,
                "insanity": t.insanity,
                "deck": len(t.deck),
                "reserve_cards": list(t.reserve_cards),
                "reserve_items": list(t.reserve_items),
                "sleeves": [s.item + ("+" if s.advanced else "") for s in t.sleeves],
                "equipped": dict(day.equipped.get(i, {})),
                # what players read (issue 17: names, not ids)
                "reserve_names": [_name(catalog, c) for c in [*t.reserve_cards,
                                                               *t.reserve_items]],
                "equipped_names": [_name(catalog, c)
                                   for c in day.equipped.get(i, {}).values()],
            }
        )
    buying = d.purchases_open(state)
    choices = d.purchase_choices(state, catalog) if buying else []
    view = {
        "step": day.step,
        "title": nxt.title,
        "wagon": state.wagon.as_dict(),
        "location_trophies": dict(state.location_trophies),
        "nemesis_trophies": dict(state.nemesis_trophies),
        "bought": list(day.purchases),
        "bought_names": [_name(catalog, c) for c in day.purchases],
        "affordable": [c for c in choices if c.get("affordable")],
        "purchases_open": buying,
        "selection": {
            "zone": day.zone,
            "location": day.location,
            "minions": list(day.minions),
            "nemesis": day.nemesis,
            "difficulty": day.difficulty,
            "events": list(day.events),
        },
        "selection_names": {
            "zone": _name(catalog, day.zone),
            "location": _name(catalog, day.location),
            "minions": [_name(catalog, m) for m in day.minions],
            "nemesis": _name(catalog, day.nemesis),
            "events": [_name(catalog, e) for e in day.events],
        },
        "troupers": troupers,
    }
    return view, {
        "title": nxt.title,
        "prompt": nxt.sentence,
        "commands": _commands(state, catalog),
        "step": nxt.step,
    }


def _name(catalog: Catalog, cid: str | None) -> str:
    """A card's (or Zone's) name as printed; an Item on the side it shows."""
    if not cid:
        return ""
    item = catalog.item(cid.rstrip("+"))
    if item is not None:
        side = item.advanced if cid.endswith("+") and item.advanced is not None else item.starting
        return str(side.name)
    from blood_companion.engine.narrate import record_name

    return record_name(catalog, cid)


# --------------------------------------------------------------------------- rendering


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def _wrap(text: str, width: int, indent: str = "") -> list[str]:
    """Word-wrap without textwrap's import cost (small texts only)."""
    out: list[str] = []
    line = ""
    for word in text.split():
        cand = f"{line} {word}" if line else (indent if out else "") + word
        if len(cand) > width and line:
            out.append(line)
            line = indent + word
        else:
            line = cand
    if line:
        out.append(line)
    return out or [""]


def _resources(res: dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in res.items())


def _trophies(doc: dict[str, Any]) -> str:
    parts = [f"{k} x{v}" for k, v in doc.get("location_trophies", {}).items() if v]
    parts += [f"{k} x{v}" for k, v in doc.get("nemesis_trophies", {}).items() if v]
    return ", ".join(parts)


def track(value: int, length: int, alerts: list[int]) -> str:
    """The Threat track: one cell per space, the token as ●, Alert spaces as !."""
    cells = []
    for k in range(length + 1):
        cells.append("●" if k == value else ("!" if k in alerts else "·"))
    return " ".join(cells)


def render(doc: dict[str, Any], width: int = 80) -> list[Line]:
    """The whole status screen as (text, style) lines, none wider than ``width``."""
    width = max(40, width)
    lines: list[Line] = []
    where = f"game {doc['game']} · {doc['mode']}"
    lines.append((_fit(f"{doc['name']} · {where} · step {doc['step']}", width), "bold"))
    if doc.get("night"):
        lines += _render_night(doc["night"], width)
    elif doc.get("day"):
        lines += _render_day(doc["day"], width)
    elif doc.get("rewards"):
        lines += _render_rewards(doc, width)
    else:
        lines += _render_summary(doc, width)
    if doc.get("placeholder"):
        text = (
            "Placeholder content: "
            + ", ".join(doc["placeholder"])
            + " (transcribe your box: README, Transcribing your box)"
        )
        lines += [(t, "dim") for t in _wrap(text, width, "  ")]
    nxt = doc.get("next") or {}
    if nxt.get("prompt"):
        lines.append(("", ""))
        for text in _wrap("Next: " + nxt["prompt"], width, "  "):
            lines.append((text, "green"))
        for cmd in nxt.get("commands", [])[:3]:
            lines.append((_fit("  $ " + cmd, width), "dim"))
    return lines


def _render_summary(doc: dict[str, Any], width: int) -> list[Line]:
    s = doc["summary"]
    out: list[Line] = [(f"{doc['part']}" + (f" ({doc['phase']})" if doc["phase"] else ""), "")]
    for t in s["troupers"]:
        lead = " (leader)" if t["trouper"] == s["leader"] else ""
        out.append(
            (
                _fit(
                    f"  {t['seat']}. {t['trouper']}{lead}: {t['bites']} Bites, "
                    f"Insanity {t['insanity']}",
                    width,
                ),
                "",
            )
        )
    out.append((_fit("Wagon: " + _resources(s["wagon"]), width), ""))
    return out


def _render_night(v: dict[str, Any], width: int) -> list[Line]:
    out: list[Line] = []
    nem = v["nemesis"]
    head = f"Night · Turn {v['turn']} · {v.get('phase_name', v['phase'])}"
    if v["result"]:
        head += f" · night {v['result'].upper()}"
    out.append((_fit(head, width), "bold"))
    if v["result"]:
        out += [
            (t, "red" if v["result"] == "lost" else "green")
            for t in _wrap(f"  {v['reason']}", width, "  ")
        ]
    # the Nemesis
    out.append(
        (
            _fit(
                f"Nemesis {nem['name']} · level {nem['difficulty']} ({nem['level']})",
                width,
            ),
            "bold",
        )
    )
    wounds = "  ".join(
        f"{s[0].upper()}{s[1:]} {nem['wounds'][s]}/{nem['wounds_needed'][s]}"
        + (" ✓" if nem["wounds"][s] >= nem["wounds_needed"][s] else "")
        for s in SIDES
    )
    out.append(
        (_fit(f"  Wounds  {wounds}   deck {nem['deck']}, discard {nem['discard']}", width), "")
    )
    d, f = nem["defenses"], nem["fatigue"]
    now = nem.get("defense_after_fatigue", {"physical": d["physical"], "mind": d["mind"]})
    out.append(
        (
            _fit(
                f"  Defense Physical {d['physical']}-{f['physical']} = {now['physical']}   "
                f"Mind {d['mind']}-{f['mind']} = {now['mind']}   (Fatigue on the Line)",
                width,
            ),
            "",
        )
    )
    for w in nem.get("weaknesses", []):
        wd = w["defense"]
        won = " ✓ won" if w["trophy_won"] else ""
        trophy = f" · Trophy: {w['trophy']}{won}" if w["trophy"] else ""
        text = (f"  {w['side'].capitalize()} Weakness {w['name']} ({w['effect_name']}): "
                f"Defense P{wd['physical']} M{wd['mind']}{trophy}")
        for part in _wrap(text, width - 2, "     "):
            out.append(("  " + part, "dim"))
    th = v["threat"]
    alerts = ", ".join(str(a) for a in th["alerts"])
    out.append(
        (
            _fit(
                f"Threat {th['value']:>2}/{th['length']}  "
                + track(th["value"], th["length"], th["alerts"]),
                width,
            ),
            "",
        )
    )
    out.append((_fit(f"           ● token  ! Alert ({alerts})", width), "dim"))
    # the Chain
    out.append((f"Chain {len(v['chain'])}/{v['chain_spaces']}", "bold"))
    if not v["chain"]:
        out.append(("  (empty)", "dim"))
    for s in v["chain"]:
        owner = s["owner"] or "event"
        marks = []
        if s["active"]:
            marks.append("ACTIVE")
        if s["kind"] == "event":
            marks.append("solved" if s["face_down"] else "open")
        if s["resolved"]:
            marks.append("Resolved")
        if s["sacrificed"]:
            marks.append("Sacrifice")
        name = _fit(s["name"], 30)
        thr = f"thr {s['threat']}" if s["kind"] != "event" else ""
        text = f"  {s['space']:>2} {name:<30} {owner:<8} {thr:<6} {', '.join(marks)}"
        out.append((_fit(text.rstrip(), width), "yellow" if s["active"] else ""))
    # the Reaction Line
    line = v["reaction_line"]
    fat = f"Fatigue P{nem['fatigue']['physical']} M{nem['fatigue']['mind']}"
    out.append((f"Reaction Line {len(line)}/{v['reaction_spaces']} · {fat}", "bold"))
    if not line:
        out.append(("  (empty)", "dim"))
    for r in line:
        marks = [
            m
            for m, on in (
                ("Interruption", r["interruption"]),
                ("CHECK", r["check"]),
                ("Resolved", r["resolved"]),
            )
            if on
        ]
        fatigue = f"P{r['fatigue']['physical']} M{r['fatigue']['mind']}"
        text = f"  {r['space']:>2} {_fit(r['name'], 30):<30} {fatigue:<6} {', '.join(marks)}"
        out.append((_fit(text.rstrip(), width), "red" if r["check"] else ""))
    # the Minions
    out.append(("Minions", "bold"))
    for mn in v["minions"]:
        d = mn["defenses"]
        alive = f"{mn['alive']} left" if mn["alive"] else "defeated"
        summoned = " (summoned)" if mn["summoned"] else ""
        text = (
            f"  {mn['space']:>2} {_fit(mn['name'] + summoned, 30):<30} {mn['type']:<10} "
            f"P{d['physical']} M{d['mind']}  {alive}"
        )
        out.append((_fit(text, width), "dim" if not mn["alive"] else ""))
    # the Troupers
    out.append(("Troupers", "bold"))
    for t in v["troupers"]:
        flags = [
            f
            for f, on in (
                ("Leader", t["leader"]),
                ("EXHAUSTED", t["exhausted"]),
                ("KNOCKED OUT", t["knocked_out"]),
                ("rested", t["rested"]),
            )
            if on
        ]
        head = f"  {t['seat']}. {t['name']} ({t['colour']})"
        if flags:
            head += " · " + ", ".join(flags)
        out.append((_fit(head, width), "red" if t["knocked_out"] else ""))
        ko = t.get("knock_out_at", 8)
        tokens = t.get("vigor_tokens", 6)
        ins_max = t.get("insanity_max", 6)
        ins = "".join("●" if k == t["insanity"] else "·" for k in range(ins_max + 1))
        stats = (
            f"     Wounds {t['wounds']}/{ko}  Vigor {t['vigor']}/{tokens}  Bites {t['bites']}"
            f"  Insanity {ins}  hand {t['hand']} deck {t['deck']} disc {t['discard']}"
        )
        out.append((_fit(stats, width), ""))
        items = (
            ", ".join(i["name"] + (" (depleted)" if i["depleted"] else "") for i in t["items"])
            or "none"
        )
        for text in _wrap("Items: " + items, width - 5, "  "):
            out.append(("     " + text, "dim"))
        tokens_line = _tokens(t)
        if tokens_line:
            out.append((_fit("     " + tokens_line, width), "dim"))
    if v.get("auras"):
        out.append(("Auras in play", "bold"))
        for a in v["auras"]:
            for text in _wrap(f"{a['source']}: {a['text']}", width - 2, "   "):
                out.append(("  " + text, "dim"))
    return out


def _tokens(t: dict[str, Any]) -> str:
    """A Trouper's Trap and Whisper tokens: in the Reserve, and Intact/Consumed on the Map."""
    parts = []
    for kind in ("traps", "whispers"):
        tok = t.get(kind)
        if tok and (tok["intact"] or tok["consumed"]):
            parts.append(f"{kind.capitalize()} on the Map: {tok['intact']} intact, "
                         f"{tok['consumed']} consumed ({tok['supply']} in reserve)")
    return "; ".join(parts)


def _render_day(v: dict[str, Any], width: int) -> list[Line]:
    out: list[Line] = [(_fit(f"Day Part · {v['title']}", width), "bold")]
    out.append((_fit("Wagon: " + _resources(v["wagon"]), width), ""))
    trophies = ", ".join(
        [f"{k} x{n}" for k, n in v["location_trophies"].items() if n]
        + [f"{k} x{n}" for k, n in v["nemesis_trophies"].items() if n]
    )
    if trophies:
        out.append((_fit("Trophies: " + trophies, width), ""))
    if v["bought"]:
        bought = v.get("bought_names") or v["bought"]
        for text in _wrap("Bought today: " + "; ".join(bought), width, "  "):
            out.append((text, "dim"))
    sel = {**v["selection"], **(v.get("selection_names") or {})}
    picked = [
        f"{label} {value}"
        for label, value in (
            ("Zone", sel["zone"]),
            ("Location", sel["location"]),
            ("Minions", ", ".join(sel["minions"])),
            ("Nemesis", sel["nemesis"]),
            ("Level", sel["difficulty"]),
            ("Events", ", ".join(sel["events"])),
        )
        if value
    ]
    if picked:
        for text in _wrap("Tonight: " + " · ".join(picked), width, "  "):
            out.append((text, ""))
    if v["purchases_open"]:
        out.append(("Affordable now", "bold"))
        if not v["affordable"]:
            out.append(("  nothing: the Wagon cannot pay any purchase", "dim"))
        for c in v["affordable"]:
            what = c["kind"].replace("_", " ")
            who = f" ({c['trouper']})" if c.get("trouper") else ""
            art = f" [{c['art']}]" if c.get("art") else ""
            cost = c["cost"] + (f" + {c['trophies']}" if c.get("trophies") else "")
            out.append((_fit(f"  {what}{art}: {c['name']}{who} — {cost}", width), ""))
    out.append(("Troupers", "bold"))
    for t in v["troupers"]:
        lead = " · Leader" if t["leader"] else ""
        out.append((_fit(f"  {t['seat']}. {t['name']} ({t['colour']}){lead}", width), ""))
        out.append(
            (
                _fit(
                    f"     Bites {t['bites']}  Insanity {t['insanity']}  deck {t['deck']} cards",
                    width,
                ),
                "",
            )
        )
        if t["equipped"]:
            gear = t.get("equipped_names") or list(t["equipped"].values())
            out.append((_fit("     Equipped: " + ", ".join(gear), width), ""))
        res = t.get("reserve_names", t["reserve_cards"] + t["reserve_items"])
        text = "Reserve: " + (", ".join(res) if res else "empty")
        for line in _wrap(text, width - 5, "  "):
            out.append(("     " + line, "dim"))
    return out


def _render_rewards(doc: dict[str, Any], width: int) -> list[Line]:
    rw = doc["rewards"]
    title = "Victory" if rw["result"] == "won" else "Defeat"
    out: list[Line] = [
        (
            _fit(
                f"End of the Night · {title} against {rw['nemesis']} (level {rw['difficulty']})",
                width,
            ),
            "bold",
        )
    ]
    if rw["result"] == "won":
        done = ", ".join(rw.get("weakened", [])) or "-"
        out.append((_fit(f"  Vlad cards to weaken: {rw['vlad_cards']} (done: {done})", width), ""))
        trophies = ", ".join(f"{k} x{v}" for k, v in rw.get("trophies", {}).items()) or "-"
        out.append((_fit(f"  Trophy tokens: {trophies}", width), ""))
        out.append(
            (
                _fit(
                    f"  Advanced Tactic cards to take: {rw['advanced_tactics']} "
                    f"(taken: {len(rw.get('tactics_taken', []))})",
                    width,
                ),
                "",
            )
        )
    loot = ", ".join(f"{p['dice']} for {p['resource']}" for p in rw.get("loot", [])) or "-"
    out.append((_fit(f"  Loot rolls left: {loot}", width), ""))
    gained = ", ".join(f"{v} {k}" for k, v in rw.get("gained", {}).items()) or "-"
    out.append((_fit(f"  Gained: {gained}", width), ""))
    out.append((_fit("Wagon: " + _resources(doc["wagon"]), width), ""))
    return out


def plain(lines: list[Line]) -> str:
    return "\n".join(text.rstrip() for text, _ in lines) + "\n"
