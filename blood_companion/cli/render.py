"""The one terminal renderer: every view of the board and the campaign drawn with rich.

Each function draws a document (the engine's typed board, `blood status`; the documents of
``cli/view_docs.py``) as a :data:`View`, rich renderables no wider than ``width``;
:func:`print_view` prints it, :func:`plain` gives its text (the Textual table's panes).
"""

from __future__ import annotations

import io
import os
import sys
import textwrap
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from blood_companion.content.models import Side
from blood_companion.display import console
from blood_companion.engine.board_view import Board, DayBoard, NightBoard, NightTrouper
from blood_companion.engine.words import counted_all

View = list["Text | _Trimmed"]  # one Text per line, one table per table

SIDES: tuple[Side, ...] = ("front", "left", "right")


def width() -> int:
    """The columns to render for: ``COLUMNS``, else the terminal's, within 40..100."""
    try:
        cols = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        cols = 0
    if cols <= 0:
        try:
            cols = os.get_terminal_size(sys.stdout.fileno()).columns
        except (OSError, ValueError, AttributeError):
            cols = 80
    return max(40, min(cols, 100))


def print_view(view: View) -> None:
    """Print a view (styled on a colour terminal); a line is never wrapped (each is drawn to
    fit), a table fits ``width()``."""
    out = console(highlight=False, width=width())
    for part in view:
        out.print(part, soft_wrap=isinstance(part, Text), crop=False)


def plain(view: View, size: int = 80) -> str:
    """The view's text without styles, each line's trailing spaces cut."""
    buf = io.StringIO()
    out = Console(file=buf, width=size, color_system=None, force_terminal=False,
                  highlight=False, legacy_windows=False)
    for part in view:
        out.print(part, soft_wrap=isinstance(part, Text), crop=False)
    return "".join(line.rstrip() + "\n" for line in buf.getvalue().splitlines())


def grid(
    headers: list[str],
    rows: list[list[str]],
    *,
    right: tuple[int, ...] = (),
    header_style: str = "dim",
    styles: list[str] | None = None,
    width: int = 80,
) -> View:
    """A table without borders, columns two spaces apart, the widest column folded first to
    fit ``width``; ``right``: the columns aligned right, ``styles``: a style per row."""
    if not rows:
        return []
    cols = len(headers)
    sizes = [max(len(h), *(len(row[i]) if i < len(row) else 0 for row in rows))
             for i, h in enumerate(headers)]
    while sum(sizes) > width - 2 * (cols - 1):  # fold the widest column until the table fits
        widest = max(range(cols), key=lambda i: sizes[i])
        if sizes[widest] <= 6:
            break
        sizes[widest] -= 1
    table = Table(box=None, padding=(0, 2, 0, 0), pad_edge=False, show_edge=False,
                  header_style=header_style)
    for i, h in enumerate(headers):
        table.add_column(h, justify="right" if i in right else "left", width=sizes[i],
                         overflow="fold")
    for n, row in enumerate(rows):
        table.add_row(*row, style=(styles[n] if styles else None) or None)
    return [_Trimmed(table, sum(sizes) + 2 * (cols - 1))]


class _Trimmed:
    """A table drawn at its own ``width`` (never squeezed to the terminal's), each line ending
    at its last character (rich pads the last cells with spaces)."""

    def __init__(self, table: Table, width: int) -> None:
        self.table = table
        self.width = width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in console.render_lines(self.table, options.update_width(self.width),
                                         pad=False):
            while line and not line[-1].control and not line[-1].text.rstrip():
                line.pop()
            if line:
                last = line.pop()
                line.append(Segment(last.text.rstrip(), last.style))
            yield from line
            yield Segment.line()


# --------------------------------------------------------------------------- the board


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def _line(text: str, width: int, style: str = "") -> Text:
    return Text(_fit(text, width), style)


def _folded(text: str, width: int, style: str = "", lead: str = "", indent: str = "  ") -> View:
    """``text`` folded to ``width`` after ``lead``, its next lines after ``lead + indent``."""
    return [Text(lead + t, style) for t in _wrap(text, width - len(lead), indent)]


def _wrap(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` folded at spaces only (a long word or name stays whole), its spaces single."""
    return textwrap.wrap(" ".join(text.split()), width, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False) or [""]


def _resources(res: dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in res.items())


def track(value: int, length: int, alerts: list[int] | tuple[()] = (), sep: str = " ") -> str:
    """A track (Threat, Insanity): one cell per space, the token as ●, Alert spaces as !."""
    return sep.join("●" if k == value else ("!" if k in alerts else "·")
                    for k in range(length + 1))


def render(doc: Board, width: int = 80) -> View:
    """The whole status screen, no line wider than ``width``."""
    width = max(40, width)
    lines: View = []
    where = f"game {doc['game']} · {doc['mode']}"
    lines.append(_line(f"{doc['name']} · {where} · step {doc['step']}", width, "bold"))
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
        lines += _folded(text, width, "dim")
    nxt = doc["next"]
    if prompt := nxt.get("prompt"):
        lines.append(Text("", ""))
        lines += _folded("Next: " + prompt, width, "green")
        for cmd in nxt.get("commands", [])[:3]:
            lines.append(_line("  $ " + cmd, width, "dim"))
    return lines


def _render_summary(doc: Board, width: int) -> View:
    s = doc["summary"]
    out: View = [Text(f"{doc['part']}" + (f" ({doc['phase']})" if doc["phase"] else ""), "")]
    for t in s["troupers"]:
        lead = " (leader)" if t["trouper"] == s["leader"] else ""
        text = f"  {t['seat']}. {t['trouper']}{lead}: {t['bites']} Bites, Insanity {t['insanity']}"
        out.append(_line(text, width))
    out.append(_line("Wagon: " + _resources(s["wagon"]), width))
    return out


def render_night(v: NightBoard, width: int) -> View:
    """The Night Board: the Nemesis, the Threat track, the Chain, the Reaction Line, the
    Minions, each Trouper and the Auras in play."""
    out: View = []
    nem = v["nemesis"]
    head = f"Night · Turn {v['turn']} · {v['phase_name']}"
    if v["result"]:
        head += f" · night {v['result'].upper()}"
    out.append(_line(head, width, "bold"))
    if v["result"]:
        style = "red" if v["result"] == "lost" else "green"
        out += _folded(f"  {v['reason']}", width, style)
    # the Nemesis
    out.append(_line(f"Nemesis {nem['name']} · level {nem['difficulty']} ({nem['level']})",
                     width, "bold"))
    wounds = "  ".join(
        f"{s[0].upper()}{s[1:]} {nem['wounds'][s]}/{nem['wounds_needed'][s]}"
        + (" ✓" if nem["wounds"][s] >= nem["wounds_needed"][s] else "")
        for s in SIDES
    )
    out.append(_line(f"  Wounds  {wounds}   deck {nem['deck']}, discard {nem['discard']}", width))
    d, f, now = nem["defenses"], nem["fatigue"], nem["defense_after_fatigue"]
    out.append(_line(f"  Defense Physical {d['physical']}-{f['physical']} = {now['physical']}   "
                     f"Mind {d['mind']}-{f['mind']} = {now['mind']}   (Fatigue on the Line)",
                     width))
    for w in nem["weaknesses"]:
        wd = w["defense"]
        won = " ✓ won" if w["trophy_won"] else ""
        trophy = f" · Trophy: {w['trophy']}{won}" if w["trophy"] else ""
        text = (f"  {w['side'].capitalize()} Weakness {w['name']} ({w['effect_name']}): "
                f"Defense P{wd['physical']} M{wd['mind']}{trophy}")
        out += _folded(text, width, "dim", "  ", "     ")
    th = v["threat"]
    alerts = ", ".join(str(a) for a in th["alerts"])
    out.append(_line(f"Threat {th['value']:>2}/{th['length']}  "
                     + track(th["value"], th["length"], th["alerts"]), width))
    out.append(_line(f"           ● token  ! Alert ({alerts})", width, "dim"))
    # the Chain
    out.append(Text(f"Chain {len(v['chain'])}/{v['chain_spaces']}", "bold"))
    if not v["chain"]:
        out.append(Text("  (empty)", "dim"))
    for s in v["chain"]:
        owner = s["owner"] or "event"
        opened = "solved" if s["face_down"] else "open"
        marks = [m for m, on in (("ACTIVE", s["active"]), (opened, s["kind"] == "event"),
                                 ("Resolved", s["resolved"]), ("Sacrifice", s["sacrificed"]))
                 if on]
        name = _fit(s["name"], 30)
        thr = f"thr {s['threat']}" if s["kind"] != "event" else ""
        text = f"  {s['space']:>2} {name:<30} {owner:<8} {thr:<6} {', '.join(marks)}"
        out.append(_line(text.rstrip(), width, "yellow" if s["active"] else ""))
    # the Reaction Line
    line = v["reaction_line"]
    fat = f"Fatigue P{nem['fatigue']['physical']} M{nem['fatigue']['mind']}"
    out.append(Text(f"Reaction Line {len(line)}/{v['reaction_spaces']} · {fat}", "bold"))
    if not line:
        out.append(Text("  (empty)", "dim"))
    for r in line:
        marks = [m for m, on in (("Interruption", r["interruption"]), ("CHECK", r["check"]),
                                 ("Resolved", r["resolved"])) if on]
        fatigue = f"P{r['fatigue']['physical']} M{r['fatigue']['mind']}"
        text = f"  {r['space']:>2} {_fit(r['name'], 30):<30} {fatigue:<6} {', '.join(marks)}"
        out.append(_line(text.rstrip(), width, "red" if r["check"] else ""))
    # the Minions
    out.append(Text("Minions", "bold"))
    for mn in v["minions"]:
        d = mn["defenses"]
        alive = f"{mn['alive']} left" if mn["alive"] else "defeated"
        summoned = " (summoned)" if mn["summoned"] else ""
        text = (f"  {mn['space']:>2} {_fit(mn['name'] + summoned, 30):<30} {mn['type']:<10} "
                f"P{d['physical']} M{d['mind']}  {alive}")
        out.append(_line(text, width, "dim" if not mn["alive"] else ""))
    # the Troupers
    out.append(Text("Troupers", "bold"))
    for t in v["troupers"]:
        flags = [f for f, on in (("Leader", t["leader"]), ("EXHAUSTED", t["exhausted"]),
                                 ("KNOCKED OUT", t["knocked_out"]), ("rested", t["rested"])) if on]
        head = f"  {t['seat']}. {t['name']} ({t['colour']})"
        if flags:
            head += " · " + ", ".join(flags)
        out.append(_line(head, width, "red" if t["knocked_out"] else ""))
        ko, tokens = t["knock_out_at"], t["vigor_tokens"]
        ins = track(t["insanity"], t["insanity_max"], sep="")
        stats = (f"     Wounds {t['wounds']}/{ko}  Vigor {t['vigor']}/{tokens}  Bites {t['bites']}"
                 f"  Insanity {ins}  hand {t['hand']} deck {t['deck']} disc {t['discard']}")
        out.append(_line(stats, width))
        items = ", ".join(i["name"] + (" (depleted)" if i["depleted"] else "")
                          for i in t["items"]) or "none"
        out += _folded("Items: " + items, width, "dim", "     ")
        if tokens_line := _tokens(t):
            out.append(_line("     " + tokens_line, width, "dim"))
    if v["auras"]:
        out.append(Text("Auras in play", "bold"))
        for a in v["auras"]:
            out += _folded(f"{a['source']}: {a['text']}", width, "dim", "  ", "   ")
    return out


def _tokens(t: NightTrouper) -> str:
    """A Trouper's Trap and Whisper tokens: in the Reserve, and Intact/Consumed on the Map."""
    parts = []
    for kind, tok in (("traps", t["traps"]), ("whispers", t["whispers"])):
        if tok["intact"] or tok["consumed"]:
            parts.append(f"{kind.capitalize()} on the Map: {tok['intact']} intact, "
                         f"{tok['consumed']} consumed ({tok['supply']} in reserve)")
    return "; ".join(parts)


def _render_day(v: DayBoard, width: int) -> View:
    out: View = [_line(f"Day Part · {v['title']}", width, "bold")]
    out.append(_line("Wagon: " + _resources(v["wagon"]), width))
    trophies = ", ".join(f"{k} x{n}" for k, n in [*v["location_trophies"].items(),
                                                  *v["nemesis_trophies"].items()] if n)
    if trophies:
        out.append(_line("Trophies: " + trophies, width))
    if v["bought"]:
        out += _folded("Bought today: " + "; ".join(v["bought_names"]), width, "dim")
    sel = v["selection_names"]
    picked = [f"{label} {value}" for label, value in (
        ("Zone", sel["zone"]), ("Location", sel["location"]),
        ("Minions", ", ".join(sel["minions"])), ("Nemesis", sel["nemesis"]),
        ("Level", v["selection"]["difficulty"]), ("Events", ", ".join(sel["events"]))) if value]
    if picked:
        out += _folded("Tonight: " + " · ".join(picked), width)
    if v["purchases_open"]:
        out.append(Text("Affordable now", "bold"))
        if not v["affordable"]:
            out.append(Text("  nothing: the Wagon cannot pay any purchase", "dim"))
        for c in v["affordable"]:
            what = c["kind"].replace("_", " ")
            who = f" ({c['trouper']})" if c.get("trouper") else ""
            art = f" [{c['art']}]" if c.get("art") else ""
            cost = c["cost"] + (f" + {c['trophies']}" if c.get("trophies") else "")
            out.append(_line(f"  {what}{art}: {c['name']}{who} — {cost}", width))
    out.append(Text("Troupers", "bold"))
    for t in v["troupers"]:
        lead = " · Leader" if t["leader"] else ""
        out.append(_line(f"  {t['seat']}. {t['name']} ({t['colour']}){lead}", width))
        out.append(_line(f"     Bites {t['bites']}  Insanity {t['insanity']}  deck {t['deck']} "
                         "cards", width))
        if t["equipped"]:
            out.append(_line("     Equipped: " + ", ".join(t["equipped_names"]), width))
        text = "Reserve: " + (", ".join(t["reserve_names"]) or "empty")
        out += _folded(text, width, "dim", "     ")
    return out


def _render_rewards(doc: Board, width: int) -> View:
    rw = doc["rewards"] or {}
    title = "Victory" if rw["result"] == "won" else "Defeat"
    out: View = [_line(f"End of the Night · {title} against {rw['nemesis']} "
                       f"(level {rw['difficulty']})", width, "bold")]
    if rw["result"] == "won":
        done = ", ".join(rw.get("weakened", [])) or "-"
        text = f"  Vlad cards to weaken: {rw['vlad_cards']} (done: {done})"
        out.append(_line(text, width))
        trophies = ", ".join(f"{k} x{v}" for k, v in rw.get("trophies", {}).items()) or "-"
        out.append(_line(f"  Trophy tokens: {trophies}", width))
        out.append(_line(f"  Advanced Tactic cards to take: {rw['advanced_tactics']} "
                         f"(taken: {len(rw.get('tactics_taken', []))})", width))
    loot = ", ".join(f"{p['dice']} for {p['resource']}" for p in rw.get("loot", [])) or "-"
    out.append(_line(f"  Loot rolls left: {loot}", width))
    gained = ", ".join(f"{v} {k}" for k, v in rw.get("gained", {}).items()) or "-"
    out.append(_line(f"  Gained: {gained}", width))
    out.append(_line("Wagon: " + _resources(doc["wagon"]), width))
    return out


def reaction_cards(night: NightBoard | None, width: int = 0) -> list[str]:
    """The Reaction Line, left to right, each card with its text (`--cards`), folded to
    ``width`` if given."""
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


def without_commands(lines: View) -> View:
    """The view without its `$ blood ...` lines: inside `blood play` and `blood table` the
    prompt's own keys say what to do (issue 26: no shell syntax there)."""
    return [ln for ln in lines if not (isinstance(ln, Text) and ln.plain.startswith("  $ "))]



# --------------------------------------------------------------------------- night next


def night_next(doc: dict[str, Any], width: int = 80) -> View:
    """Whose move it is by night, the question waiting, and the commands that fit."""
    lines: View = [Text(f"Turn {doc.get('turn')} · {doc.get('phase_name', '')}", "bold")]
    lines += [Text(t, "green") for t in _wrap(str(doc.get("prompt", "")), width)]
    for effect in doc.get("effects", []):
        lines += _folded(str(effect), width, "", "  ")
    cards = doc.get("hand_cards")
    if doc.get("hand_hidden"):
        lines.append(Text(f"  hand: {len(doc.get('hand') or [])} cards the app does not see "
                      "(`blood card hand` lists what they can be)", ""))
    elif cards:
        names = [
            f"{c['name']} (Threat {c['threat']})" if c.get("name") else "a card" for c in cards
        ]
        lines += _folded("hand: " + "; ".join(names), width, "", "  ")
    elif doc.get("hand"):
        lines.append(Text("  hand: " + "; ".join(doc["hand"]), ""))
    lines += [Text("  $ " + cmd, "dim") for cmd in doc.get("commands", [])]
    return lines


# --------------------------------------------------------------------------- day next


def _cell(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}:{_cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def choices_table(choices: list[dict[str, Any]], width: int = 80) -> View:
    cols: list[str] = []
    for c in choices:
        cols.extend(k for k in c if k not in cols)
    if "name" in cols:  # names are what the players read and type (--json keeps the ids)
        cols = [c for c in cols if c != "id"]
    rows = [[_cell(c.get(col)) for col in cols] for c in choices]
    return grid([col.replace("_", " ") for col in cols], rows, width=width)


def purchases_table(choices: list[dict[str, Any]], width: int = 80) -> View:
    """What can be bought now, one row each; "ok" when the Wagon (and trophies) can pay."""
    rows = []
    for c in choices:
        kind = c["kind"]
        if kind == "building":
            what = "building"
        elif kind == "advanced_tactic":
            what = f"top {c['art']} ({c['left']})"
        elif kind == "upgrade":
            what = f"upgrade {c['trouper']}"
        else:
            what = kind.replace("special_", "Loc/Nem ")
        cost = c["cost"] + (f" + {c['trophies']}" if c.get("trophies") else "")
        ok = "used" if c.get("used") else ("yes" if c["affordable"] else "-")
        rows.append([what, c.get("name") or c["id"], cost, ok])
    return grid(["buy", "card", "cost", "ok"], rows, width=width)


def equipping_table(choices: list[dict[str, Any]], width: int = 80,
                    names: dict[str, str] | None = None) -> View:
    names = names or {}

    def named(ids: Any) -> str:
        return ", ".join(names.get(str(x), str(x)) for x in ids)

    rows = []
    for c in choices:
        sl = c["sleeves"]
        rows.append([c["trouper"], named(sl.get("protection", [])), named(sl.get("tool", [])),
                     named(sl.get("artifact", [])), named(c["equipped"].values()) or "-"])
    return grid(["trouper", "protection", "tool", "artifact", "equipped"], rows, width=width)


def levels_table(levels: list[dict[str, Any]], width: int = 80) -> View:
    """The Difficulty Levels: what each one means (Nemesis and Location cards)."""
    rows = []
    for lv in levels:
        w = lv["wounds"]
        r = lv["rewards"]
        reward = (f"Vlad cards {r['vlad_cards']}, trophies L{r['location_trophies']} "
                  f"N{r['nemesis_trophies']}, +{r['advanced_tactics']} tactics; loot "
                  + (", ".join(r["loot"]) or "none"))
        rows.append([str(lv["level"]), f"{lv['name']} / {lv['nemesis_level']}",
                     f"{w['front']}/{w['left']}/{w['right']}", str(lv["influence"]), reward])
    return grid(["lvl", "name", "wounds F/L/R", "events", "rewards if won"], rows, width=width)


def day_next(doc: dict[str, Any], width: int = 80) -> View:
    """The Day Part's next step, its legal choices and the commands that fit."""
    lines: View = [Text(str(doc.get("title", "")), "bold")]
    lines += [Text(t, "") for t in _wrap(str(doc.get("sentence", "")), width)]
    step = doc.get("step")
    det = doc.get("details") or {}
    choices = doc.get("choices") or []
    if step == "dusk_difficulty":
        nemesis = det.get("nemesis_name") or det.get("nemesis")
        lines.append(Text(f"Location: {det.get('location_name')}   Nemesis: {nemesis}", ""))
        if det.get("map"):
            lines.append(Text("Map:", "dim"))
            for i, row in enumerate(det["map"]):
                lines.append(Text(("  " if i % 2 else "") + " ".join(row), ""))
            lines += [Text(t, "dim") for t in det.get("map_legend") or []]
        lines += levels_table(choices, width)
    elif step == "purchases":
        lines.append(Text("Wagon: " + counted_all(det["wagon"], zeros=True), ""))
        trophies = [f"{k} x{v}" for k, v in det["location_trophies"].items()]
        trophies += [f"{k} x{v}" for k, v in det["nemesis_trophies"].items()]
        if trophies:
            lines.append(Text("Trophies: " + ", ".join(trophies), ""))
        lines += purchases_table(choices, width)
    elif step == "equipping":
        lines += equipping_table(choices, width, doc.get("item_names"))
    elif choices:
        lines += choices_table(choices, width)
    lines += [Text("  " + cmd, "cyan") for cmd in doc.get("commands", [])]
    return lines


# --------------------------------------------------------------------------- campaign show


def _short(d: dict[str, int]) -> str:
    return " ".join(f"{n}{k[0].upper()}" for k, n in d.items() if n)


def campaign_show(doc: dict[str, Any], width: int = 80) -> View:
    """The campaign at a glance: the table, Wagon, trophies, log, history and totals."""
    where = f"game {doc['game']}, {doc['part']}" + (f" ({doc['phase']})" if doc["phase"] else "")
    lines: View = [Text(f"{doc['name']}  {doc['mode']} · seed {doc['seed']} · {where}", "bold")]
    names = doc.get("names") or {}
    rows = []
    for t in doc["troupers"]:
        who = names.get(t["trouper"], t["trouper"]) + (
            " (leader)" if t["trouper"] == doc.get("leader") else "")
        items = ", ".join(names.get(i, i) for i in t["items"])
        rows.append([str(t["seat"]), who, str(t["deck_size"]), str(t["bites"]),
                     str(t["insanity"]), items])
    lines += grid(["seat", "trouper", "deck", "bites", "insanity", "items"], rows,
                  right=(0, 2, 3, 4), width=width)
    if doc["set_aside"]:
        away = [
            f"{names.get(t['trouper'], t['trouper'])} ({t['colour']}, {t['deck_size']} cards, "
            f"{t['reserve_cards']} in the Reserve, {t['bites']} Bites)"
            for t in doc["set_aside"]
        ]
        text = "Set aside (rejoin with add-trouper): " + "; ".join(away)
        lines += _folded(text, width)
    lines.append(Text("Wagon: " + counted_all(doc["wagon"], zeros=True), ""))
    trophies = {**doc["location_trophies"], **doc["nemesis_trophies"]}
    if trophies:
        lines.append(Text("Trophies: " + ", ".join(f"{names.get(k, k)} ×{v}"
                                                for k, v in trophies.items()), ""))
    redo = f", {doc['redo']} undone (redo-able)" if doc["redo"] else ""
    lines.append(Text(f"Log: {doc['log_length']} steps{redo}", "dim"))
    lines += _history(doc.get("history") or [], doc.get("totals") or {}, width, names)
    return lines


def _history(rows: list[dict[str, Any]], totals: dict[str, Any], width: int,
             names: dict[str, str] | None = None) -> View:
    names = names or {}
    if not rows:
        return []
    table = []
    styles = []
    for r in rows:
        got = [text for text, on in (
            ("+" + _short(r["resources"]), r["resources"]), (f"-{r['spent']}R", r["spent"]),
            (f"{sum(r['trophies'].values())} troph.", r["trophies"]),
            (f"{len(r['advanced_tactics'])} tact.", r["advanced_tactics"]),
            (f"{len(r['vlad_weakened'])} Vlad", r["vlad_weakened"]),
            ("box reset", r["box_reset"])) if on]
        result = (r["result"] or "-") + (" …" if r["pending"] else "")
        styles.append("green" if r["result"] == "won" else "red" if r["result"] == "lost" else "")
        table.append([str(r["game"]), str(len(r["troupers"])),
                      names.get(r["nemesis"], r["nemesis"]) if r["nemesis"] else "-",
                      names.get(r["location"], r["location"]) if r["location"] else "-",
                      str(r["difficulty"] or "-"), result, ", ".join(got) or "-"])
    lines: View = [Text("History", "bold")]
    lines += grid(["#", "P", "nemesis", "location", "lv", "result", "rewards"], table,
                  right=(0, 1, 4), styles=styles, width=width)
    per = ", ".join(f"{names.get(n, n)} {c['won']}-{c['lost']}"
                    for n, c in totals["by_nemesis"].items())
    lines.append(Text(f"Nights won-lost: {totals['won']}-{totals['lost']} ({per})", ""))
    lines.append(Text(f"Vlad cards weakened: {totals['vlad_cards_weakened']} in all, "
                  f"{totals['vlad_weakened_now']} of {totals['vlad_cards']} now; "
                  f"Vlad defeated {totals['vlad_defeats']}×", ""))
    lines.append(Text(f"Resources earned {totals['resources_earned']}, spent "
                  f"{totals['resources_spent']}; Advanced Tactic cards won "
                  f"{totals['advanced_tactics_won']}", ""))
    return lines


# --------------------------------------------------------------------------- campaign log


def campaign_log(doc: dict[str, Any], width: int = 80) -> View:
    """The numbered log in sentences: the head marked, undone steps dimmed."""
    entries = doc.get("entries", [])
    head = doc.get("head")
    lines: View = []
    earlier = doc.get("earlier", 0)
    if earlier:
        more = f"  … {earlier} earlier step(s): `blood campaign log --last 0` lists all"
        lines.append(Text(more, "dim"))
    steps = [e["step"] for e in entries]
    w = len(str(max(steps, default=1)))
    for e in entries:
        marks = "".join(f"  [{m}]" for m in e.get("marks", []))
        if e["status"] == "abandoned":
            head_text, body = f"  {'x':>{w}}  ", f"{e['sentence']}  (abandoned)"
            style = "dim strike"
        else:
            pointer = "→" if e["step"] == head else " "
            head_text, body = f"{pointer} {e['step']:>{w}}. ", f"{e['sentence']}{marks}"
            style = ""
            if e["status"] == "undone":
                body, style = body + "  (undone)", "dim"
        pad = " " * len(head_text)
        for k, text in enumerate(_wrap(body, width - len(head_text))):
            lines.append(Text((head_text if k == 0 else pad) + text, style))
        for result in e.get("results") or []:
            lines += _folded(result, width, "dim", pad)
    return lines


# --------------------------------------------------------------------------- why


def why_view(doc: dict[str, Any], width: int = 80) -> View:
    """Why the app decided for the Nemesis side (``view_docs.why_doc``)."""
    lines: View = []
    step = doc.get("step")
    if step is not None:
        title = f"Why: step {step}" + (f" - {doc['sentence']}" if doc.get("sentence") else "")
        if doc.get("latest") and step != doc.get("head"):
            title += f" (the latest step that made a decision; the log is at step {doc['head']})"
        lines += _folded(title, width, "bold")
    for line in doc.get("lines") or []:
        indent = " " * (len(line) - len(line.lstrip(" ")))
        style = "" if indent else "cyan"
        lines += [Text(indent + t, style)
                  for t in _wrap(line.strip(), max(20, width - len(indent)), "  ")]
    return lines
