"""`blood status` as lines of text: the one terminal renderer of the board.

The board is the engine's typed document (``engine/board_view.py``), stored with the commands
that fit by ``cli/view_docs.py``. :func:`render` draws it as (text, style) lines of at most
``width`` columns, :func:`render_night` the Night Board alone, :func:`reaction_cards` the
Reaction Line with each card's text. Standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from blood_companion.content.models import Side
    from blood_companion.engine.board_view import Board, DayBoard, NightBoard, NightTrouper

Line = tuple[str, str]  # (text, style name: "" | "bold" | "dim" | "green" | "yellow" | "red")

SIDES: tuple[Side, ...] = ("front", "left", "right")


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


def track(value: int, length: int, alerts: list[int] | tuple[()] = (), sep: str = " ") -> str:
    """A track (Threat, Insanity): one cell per space, the token as ●, Alert spaces as !."""
    return sep.join("●" if k == value else ("!" if k in alerts else "·")
                    for k in range(length + 1))


def render(doc: Board, width: int = 80) -> list[Line]:
    """The whole status screen as (text, style) lines, none wider than ``width``."""
    width = max(40, width)
    lines: list[Line] = []
    where = f"game {doc['game']} · {doc['mode']}"
    lines.append((_fit(f"{doc['name']} · {where} · step {doc['step']}", width), "bold"))
    if night := doc["night"]:
        lines += render_night(night, width)
    elif day := doc["day"]:
        lines += _render_day(day, width)
    elif doc["rewards"]:
        lines += _render_rewards(doc, width)
    else:
        lines += _render_summary(doc, width)
    if doc["placeholder"]:
        text = ("Placeholder content: " + ", ".join(doc["placeholder"])
                + " (transcribe your box: README, Transcribing your box)")
        lines += [(t, "dim") for t in _wrap(text, width, "  ")]
    nxt = doc["next"]
    if prompt := nxt.get("prompt"):
        lines.append(("", ""))
        for text in _wrap("Next: " + prompt, width, "  "):
            lines.append((text, "green"))
        for cmd in nxt.get("commands", [])[:3]:
            lines.append((_fit("  $ " + cmd, width), "dim"))
    return lines


def _render_summary(doc: Board, width: int) -> list[Line]:
    s = doc["summary"]
    out: list[Line] = [(f"{doc['part']}" + (f" ({doc['phase']})" if doc["phase"] else ""), "")]
    for t in s["troupers"]:
        lead = " (leader)" if t["trouper"] == s["leader"] else ""
        text = f"  {t['seat']}. {t['trouper']}{lead}: {t['bites']} Bites, Insanity {t['insanity']}"
        out.append((_fit(text, width), ""))
    out.append((_fit("Wagon: " + _resources(s["wagon"]), width), ""))
    return out


def render_night(v: NightBoard, width: int) -> list[Line]:
    """The Night Board: the Nemesis, the Threat track, the Chain, the Reaction Line, the
    Minions, each Trouper and the Auras in play."""
    out: list[Line] = []
    nem = v["nemesis"]
    head = f"Night · Turn {v['turn']} · {v['phase_name']}"
    if v["result"]:
        head += f" · night {v['result'].upper()}"
    out.append((_fit(head, width), "bold"))
    if v["result"]:
        style = "red" if v["result"] == "lost" else "green"
        out += [(t, style) for t in _wrap(f"  {v['reason']}", width, "  ")]
    # the Nemesis
    out.append((_fit(f"Nemesis {nem['name']} · level {nem['difficulty']} ({nem['level']})",
                     width), "bold"))
    wounds = "  ".join(
        f"{s[0].upper()}{s[1:]} {nem['wounds'][s]}/{nem['wounds_needed'][s]}"
        + (" ✓" if nem["wounds"][s] >= nem["wounds_needed"][s] else "")
        for s in SIDES
    )
    out.append((_fit(f"  Wounds  {wounds}   deck {nem['deck']}, discard {nem['discard']}",
                     width), ""))
    d, f, now = nem["defenses"], nem["fatigue"], nem["defense_after_fatigue"]
    out.append((_fit(f"  Defense Physical {d['physical']}-{f['physical']} = {now['physical']}   "
                     f"Mind {d['mind']}-{f['mind']} = {now['mind']}   (Fatigue on the Line)",
                     width), ""))
    for w in nem["weaknesses"]:
        wd = w["defense"]
        won = " ✓ won" if w["trophy_won"] else ""
        trophy = f" · Trophy: {w['trophy']}{won}" if w["trophy"] else ""
        text = (f"  {w['side'].capitalize()} Weakness {w['name']} ({w['effect_name']}): "
                f"Defense P{wd['physical']} M{wd['mind']}{trophy}")
        for part in _wrap(text, width - 2, "     "):
            out.append(("  " + part, "dim"))
    th = v["threat"]
    alerts = ", ".join(str(a) for a in th["alerts"])
    out.append((_fit(f"Threat {th['value']:>2}/{th['length']}  "
                     + track(th["value"], th["length"], th["alerts"]), width), ""))
    out.append((_fit(f"           ● token  ! Alert ({alerts})", width), "dim"))
    # the Chain
    out.append((f"Chain {len(v['chain'])}/{v['chain_spaces']}", "bold"))
    if not v["chain"]:
        out.append(("  (empty)", "dim"))
    for s in v["chain"]:
        owner = s["owner"] or "event"
        opened = "solved" if s["face_down"] else "open"
        marks = [m for m, on in (("ACTIVE", s["active"]), (opened, s["kind"] == "event"),
                                 ("Resolved", s["resolved"]), ("Sacrifice", s["sacrificed"]))
                 if on]
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
        marks = [m for m, on in (("Interruption", r["interruption"]), ("CHECK", r["check"]),
                                 ("Resolved", r["resolved"])) if on]
        fatigue = f"P{r['fatigue']['physical']} M{r['fatigue']['mind']}"
        text = f"  {r['space']:>2} {_fit(r['name'], 30):<30} {fatigue:<6} {', '.join(marks)}"
        out.append((_fit(text.rstrip(), width), "red" if r["check"] else ""))
    # the Minions
    out.append(("Minions", "bold"))
    for mn in v["minions"]:
        d = mn["defenses"]
        alive = f"{mn['alive']} left" if mn["alive"] else "defeated"
        summoned = " (summoned)" if mn["summoned"] else ""
        text = (f"  {mn['space']:>2} {_fit(mn['name'] + summoned, 30):<30} {mn['type']:<10} "
                f"P{d['physical']} M{d['mind']}  {alive}")
        out.append((_fit(text, width), "dim" if not mn["alive"] else ""))
    # the Troupers
    out.append(("Troupers", "bold"))
    for t in v["troupers"]:
        flags = [f for f, on in (("Leader", t["leader"]), ("EXHAUSTED", t["exhausted"]),
                                 ("KNOCKED OUT", t["knocked_out"]), ("rested", t["rested"])) if on]
        head = f"  {t['seat']}. {t['name']} ({t['colour']})"
        if flags:
            head += " · " + ", ".join(flags)
        out.append((_fit(head, width), "red" if t["knocked_out"] else ""))
        ko, tokens = t["knock_out_at"], t["vigor_tokens"]
        ins = track(t["insanity"], t["insanity_max"], sep="")
        stats = (f"     Wounds {t['wounds']}/{ko}  Vigor {t['vigor']}/{tokens}  Bites {t['bites']}"
                 f"  Insanity {ins}  hand {t['hand']} deck {t['deck']} disc {t['discard']}")
        out.append((_fit(stats, width), ""))
        items = ", ".join(i["name"] + (" (depleted)" if i["depleted"] else "")
                          for i in t["items"]) or "none"
        for text in _wrap("Items: " + items, width - 5, "  "):
            out.append(("     " + text, "dim"))
        if tokens_line := _tokens(t):
            out.append((_fit("     " + tokens_line, width), "dim"))
    if v["auras"]:
        out.append(("Auras in play", "bold"))
        for a in v["auras"]:
            for text in _wrap(f"{a['source']}: {a['text']}", width - 2, "   "):
                out.append(("  " + text, "dim"))
    return out


def _tokens(t: NightTrouper) -> str:
    """A Trouper's Trap and Whisper tokens: in the Reserve, and Intact/Consumed on the Map."""
    parts = []
    for kind, tok in (("traps", t["traps"]), ("whispers", t["whispers"])):
        if tok["intact"] or tok["consumed"]:
            parts.append(f"{kind.capitalize()} on the Map: {tok['intact']} intact, "
                         f"{tok['consumed']} consumed ({tok['supply']} in reserve)")
    return "; ".join(parts)


def _render_day(v: DayBoard, width: int) -> list[Line]:
    out: list[Line] = [(_fit(f"Day Part · {v['title']}", width), "bold")]
    out.append((_fit("Wagon: " + _resources(v["wagon"]), width), ""))
    trophies = ", ".join(f"{k} x{n}" for k, n in [*v["location_trophies"].items(),
                                                  *v["nemesis_trophies"].items()] if n)
    if trophies:
        out.append((_fit("Trophies: " + trophies, width), ""))
    if v["bought"]:
        for text in _wrap("Bought today: " + "; ".join(v["bought_names"]), width, "  "):
            out.append((text, "dim"))
    sel = v["selection_names"]
    picked = [f"{label} {value}" for label, value in (
        ("Zone", sel["zone"]), ("Location", sel["location"]),
        ("Minions", ", ".join(sel["minions"])), ("Nemesis", sel["nemesis"]),
        ("Level", v["selection"]["difficulty"]), ("Events", ", ".join(sel["events"]))) if value]
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
        out.append((_fit(f"     Bites {t['bites']}  Insanity {t['insanity']}  deck {t['deck']} "
                         "cards", width), ""))
        if t["equipped"]:
            out.append((_fit("     Equipped: " + ", ".join(t["equipped_names"]), width), ""))
        text = "Reserve: " + (", ".join(t["reserve_names"]) or "empty")
        for line in _wrap(text, width - 5, "  "):
            out.append(("     " + line, "dim"))
    return out


def _render_rewards(doc: Board, width: int) -> list[Line]:
    rw = doc["rewards"] or {}
    title = "Victory" if rw["result"] == "won" else "Defeat"
    out: list[Line] = [(_fit(f"End of the Night · {title} against {rw['nemesis']} "
                             f"(level {rw['difficulty']})", width), "bold")]
    if rw["result"] == "won":
        done = ", ".join(rw.get("weakened", [])) or "-"
        out.append((_fit(f"  Vlad cards to weaken: {rw['vlad_cards']} (done: {done})", width), ""))
        trophies = ", ".join(f"{k} x{v}" for k, v in rw.get("trophies", {}).items()) or "-"
        out.append((_fit(f"  Trophy tokens: {trophies}", width), ""))
        out.append((_fit(f"  Advanced Tactic cards to take: {rw['advanced_tactics']} "
                         f"(taken: {len(rw.get('tactics_taken', []))})", width), ""))
    loot = ", ".join(f"{p['dice']} for {p['resource']}" for p in rw.get("loot", [])) or "-"
    out.append((_fit(f"  Loot rolls left: {loot}", width), ""))
    gained = ", ".join(f"{v} {k}" for k, v in rw.get("gained", {}).items()) or "-"
    out.append((_fit(f"  Gained: {gained}", width), ""))
    out.append((_fit("Wagon: " + _resources(doc["wagon"]), width), ""))
    return out


def reaction_cards(night: NightBoard | None, width: int = 0) -> list[str]:
    """The Reaction Line, left to right, each card with its text as printed (`--cards`);
    with a ``width``, each line folded to it."""
    if night is None:
        return ["No night is being played: the Reaction Line is empty."]
    if not night["reaction_line"]:
        return ["Reaction Line: empty"]
    out = ["Reaction Line (left to right):"]
    for r in night["reaction_line"]:
        lines = [(" ", f"{r['space']}. {r['heading']}" + (" [Resolved]" if r["resolved"] else ""))]
        for indent, text in lines + [("    ", line) for line in r["text"]]:
            folded = _wrap(text, width - len(indent), "  ") if width else [text]
            out += [indent + part for part in folded]
    return out


def without_commands(lines: list[Line]) -> list[Line]:
    """The view without its `$ blood ...` lines: inside `blood play` and `blood table` the
    prompt's own keys say what to do (issue 26: no shell syntax there)."""
    return [ln for ln in lines if not ln[0].startswith("  $ ")]


def plain(lines: list[Line]) -> str:
    return "\n".join(text.rstrip() for text, _ in lines) + "\n"
