"""The views `night next`, `day next`, `campaign show` and `campaign log` as (text, style)
lines, from their plain documents (``cli/view_docs.py``): the one place each is drawn. Standard
library only.
"""

from __future__ import annotations

from typing import Any

from blood_companion.cli.status_view import _wrap
from blood_companion.cli.textview import Line, grid
from blood_companion.engine.words import counted_all

# --------------------------------------------------------------------------- night next


def night_next(doc: dict[str, Any], width: int = 80) -> list[Line]:
    """Whose move it is by night, the question waiting, and the commands that fit."""
    lines: list[Line] = [(f"Turn {doc.get('turn')} · {doc.get('phase_name', '')}", "bold")]
    lines += [(t, "green") for t in _wrap(str(doc.get("prompt", "")), width)]
    for effect in doc.get("effects", []):
        lines += [("  " + t, "") for t in _wrap(str(effect), width - 2, "  ")]
    cards = doc.get("hand_cards")
    if doc.get("hand_hidden"):
        lines.append((f"  hand: {len(doc.get('hand') or [])} cards the app does not see "
                      "(`blood card hand` lists what they can be)", ""))
    elif cards:
        names = [
            f"{c['name']} (Threat {c['threat']})" if c.get("name") else "a card" for c in cards
        ]
        lines += [("  " + t, "") for t in _wrap("hand: " + "; ".join(names), width - 2, "  ")]
    elif doc.get("hand"):
        lines.append(("  hand: " + "; ".join(doc["hand"]), ""))
    lines += [("  $ " + cmd, "dim") for cmd in doc.get("commands", [])]
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


def choices_table(choices: list[dict[str, Any]], width: int = 80) -> list[Line]:
    cols: list[str] = []
    for c in choices:
        cols.extend(k for k in c if k not in cols)
    if "name" in cols:  # names are what the players read and type (--json keeps the ids)
        cols = [c for c in cols if c != "id"]
    rows = [[_cell(c.get(col)) for col in cols] for c in choices]
    return grid([col.replace("_", " ") for col in cols], rows, width=width)


def purchases_table(choices: list[dict[str, Any]], width: int = 80) -> list[Line]:
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
                    names: dict[str, str] | None = None) -> list[Line]:
    names = names or {}

    def named(ids: Any) -> str:
        return ", ".join(names.get(str(x), str(x)) for x in ids)

    rows = []
    for c in choices:
        sl = c["sleeves"]
        rows.append([c["trouper"], named(sl.get("protection", [])), named(sl.get("tool", [])),
                     named(sl.get("artifact", [])), named(c["equipped"].values()) or "-"])
    return grid(["trouper", "protection", "tool", "artifact", "equipped"], rows, width=width)


def levels_table(levels: list[dict[str, Any]], width: int = 80) -> list[Line]:
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


def day_next(doc: dict[str, Any], width: int = 80) -> list[Line]:
    """The Day Part's next step, its legal choices and the commands that fit."""
    lines: list[Line] = [(str(doc.get("title", "")), "bold")]
    lines += [(t, "") for t in _wrap(str(doc.get("sentence", "")), width)]
    step = doc.get("step")
    det = doc.get("details") or {}
    choices = doc.get("choices") or []
    if step == "dusk_difficulty":
        nemesis = det.get("nemesis_name") or det.get("nemesis")
        lines.append((f"Location: {det.get('location_name')}   Nemesis: {nemesis}", ""))
        if det.get("map"):
            lines.append(("Map:", "dim"))
            for i, row in enumerate(det["map"]):
                lines.append((("  " if i % 2 else "") + " ".join(row), ""))
            lines += [(t, "dim") for t in det.get("map_legend") or []]
        lines += levels_table(choices, width)
    elif step == "purchases":
        lines.append(("Wagon: " + counted_all(det["wagon"], zeros=True), ""))
        trophies = [f"{k} x{v}" for k, v in det["location_trophies"].items()]
        trophies += [f"{k} x{v}" for k, v in det["nemesis_trophies"].items()]
        if trophies:
            lines.append(("Trophies: " + ", ".join(trophies), ""))
        lines += purchases_table(choices, width)
    elif step == "equipping":
        lines += equipping_table(choices, width, doc.get("item_names"))
    elif choices:
        lines += choices_table(choices, width)
    lines += [("  " + cmd, "cyan") for cmd in doc.get("commands", [])]
    return lines


# --------------------------------------------------------------------------- campaign show


def _short(d: dict[str, int]) -> str:
    return " ".join(f"{n}{k[0].upper()}" for k, n in d.items() if n)


def campaign_show(doc: dict[str, Any], width: int = 80) -> list[Line]:
    """The campaign at a glance: the table, Wagon, trophies, log, history and totals."""
    where = f"game {doc['game']}, {doc['part']}" + (f" ({doc['phase']})" if doc["phase"] else "")
    lines: list[Line] = [(f"{doc['name']}  {doc['mode']} · seed {doc['seed']} · {where}", "bold")]
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
        lines += [(t, "") for t in _wrap(text, width, "  ")]
    lines.append(("Wagon: " + counted_all(doc["wagon"], zeros=True), ""))
    trophies = {**doc["location_trophies"], **doc["nemesis_trophies"]}
    if trophies:
        lines.append(("Trophies: " + ", ".join(f"{names.get(k, k)} ×{v}"
                                                for k, v in trophies.items()), ""))
    redo = f", {doc['redo']} undone (redo-able)" if doc["redo"] else ""
    lines.append((f"Log: {doc['log_length']} steps{redo}", "dim"))
    lines += _history(doc.get("history") or [], doc.get("totals") or {}, width, names)
    return lines


def _history(rows: list[dict[str, Any]], totals: dict[str, Any], width: int,
             names: dict[str, str] | None = None) -> list[Line]:
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
    lines: list[Line] = [("History", "bold")]
    lines += grid(["#", "P", "nemesis", "location", "lv", "result", "rewards"], table,
                  right=(0, 1, 4), styles=styles, width=width)
    per = ", ".join(f"{names.get(n, n)} {c['won']}-{c['lost']}"
                    for n, c in totals["by_nemesis"].items())
    lines.append((f"Nights won-lost: {totals['won']}-{totals['lost']} ({per})", ""))
    lines.append((f"Vlad cards weakened: {totals['vlad_cards_weakened']} in all, "
                  f"{totals['vlad_weakened_now']} of {totals['vlad_cards']} now; "
                  f"Vlad defeated {totals['vlad_defeats']}×", ""))
    lines.append((f"Resources earned {totals['resources_earned']}, spent "
                  f"{totals['resources_spent']}; Advanced Tactic cards won "
                  f"{totals['advanced_tactics_won']}", ""))
    return lines


# --------------------------------------------------------------------------- campaign log


def campaign_log(doc: dict[str, Any], width: int = 80) -> list[Line]:
    """The numbered log in sentences: the head marked, undone steps dimmed."""
    entries = doc.get("entries", [])
    head = doc.get("head")
    lines: list[Line] = []
    earlier = doc.get("earlier", 0)
    if earlier:
        more = f"  … {earlier} earlier step(s): `blood campaign log --last 0` lists all"
        lines.append((more, "dim"))
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
            lines.append(((head_text if k == 0 else pad) + text, style))
        for result in e.get("results") or []:
            for text in _wrap(result, width - len(pad), "  "):
                lines.append((pad + text, "dim"))
    return lines


# --------------------------------------------------------------------------- why


def why_view(doc: dict[str, Any], width: int = 80) -> list[Line]:
    """Why the app decided for the Nemesis side (``view_docs.why_doc``): the step, then each
    decision record in words, wrapped under its own indent."""
    lines: list[Line] = []
    step = doc.get("step")
    if step is not None:
        title = f"Why: step {step}" + (f" - {doc['sentence']}" if doc.get("sentence") else "")
        if doc.get("latest") and step != doc.get("head"):
            title += f" (the latest step that made a decision; the log is at step {doc['head']})"
        lines += [(t, "bold") for t in _wrap(title, width, "  ")]
    for line in doc.get("lines") or []:
        indent = " " * (len(line) - len(line.lstrip(" ")))
        style = "" if indent else "cyan"
        lines += [(indent + t, style)
                  for t in _wrap(line.strip(), max(20, width - len(indent)), "  ")]
    return lines
