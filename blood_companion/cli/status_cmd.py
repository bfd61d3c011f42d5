"""`blood status`: the table at a glance. One function per Part: the Night Board during the
Night Part, a short summary otherwise (the Day Part may add its own view)."""

from __future__ import annotations

from typing import Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from blood_companion.cli import session
from blood_companion.cli.common import JSON_HELP, print_json, stdout
from blood_companion.engine.state import CampaignState


def register(app: typer.Typer) -> None:
    app.command("status")(status)


def status(as_json: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """The whole table: the Night Board during a night, else the campaign summary."""
    with session.open_session() as store:
        state = store.state
        doc: dict[str, Any] = {
            "name": store.name,
            "game": state.game,
            "part": state.part,
            "phase": state.phase,
            "state_hash": store.state_hash,
            "night": None,
            "next": None,
        }
        if state.night is not None and state.part in ("night", "over"):
            from blood_companion.engine.night import board_view, whose_turn

            doc["night"] = board_view(state, store.catalog)
            doc["next"] = whose_turn(state, store.catalog)
        else:
            doc["summary"] = day_summary(state)
    if as_json:
        print_json(doc)
        return
    if doc["night"] is not None:
        print_night(doc["night"])
        nxt = doc["next"]
        stdout.print(Text(f"Next: {nxt['prompt']}", style="green"))
        for cmd in nxt.get("commands", []):
            stdout.print(Text("  $ " + cmd, style="dim"))
    else:
        print_summary(doc)


def day_summary(state: CampaignState) -> dict[str, Any]:
    """Outside a night: the table, the Wagon and the trophies."""
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


def print_summary(doc: dict[str, Any]) -> None:
    s = doc["summary"]
    where = f"game {doc['game']}, {doc['part']}" + (f" ({doc['phase']})" if doc["phase"] else "")
    stdout.print(Text.assemble((doc["name"], "bold"), f"  {where}"))
    for t in s["troupers"]:
        lead = " (leader)" if t["trouper"] == s["leader"] else ""
        stdout.print(
            f"  {t['seat']}. {t['trouper']}{lead}: {t['bites']} Bites, Insanity {t['insanity']}"
        )
    stdout.print("Wagon: " + ", ".join(f"{v} {k}" for k, v in s["wagon"].items()))


def _mark(flag: bool, text: str) -> str:
    return text if flag else ""


def print_night(v: dict[str, Any]) -> None:
    """The Night Board in about 80 columns (plain text when piped or NO_COLOR)."""
    nem = v["nemesis"]
    head = (
        f"Turn {v['turn']} · {v['phase'].replace('_', ' ')} · {nem['name']} "
        f"(level {nem['difficulty']}, {nem['level']})"
    )
    if v["result"]:
        head += f" · night {v['result'].upper()}: {v['reason']}"
    stdout.print(Text(head, style="bold"))
    wounds = "  ".join(
        f"{s} {nem['wounds'][s]}/{nem['wounds_needed'][s]}" for s in ("front", "left", "right")
    )
    stdout.print(
        f"Nemesis wounds: {wounds}  ·  Defense P{nem['defenses']['physical']}"
        f"-{nem['fatigue']['physical']} M{nem['defenses']['mind']}-{nem['fatigue']['mind']}"
        f"  ·  deck {nem['deck']}, discard {nem['discard']}"
    )
    th = v["threat"]
    cells = []
    for k in range(th["length"] + 1):
        mark = "●" if k == th["value"] else ("!" if k in th["alerts"] else "·")
        cells.append(mark)
    stdout.print(f"Threat {th['value']:>2}: " + " ".join(cells) + "   (! = Alert)")

    chain = Table(
        title=f"Chain ({len(v['chain'])}/{v['chain_spaces']})",
        box=box.SIMPLE,
        pad_edge=False,
        title_justify="left",
    )
    for col in ("#", "card", "owner", "thr", "state"):
        chain.add_column(col, no_wrap=col != "card")
    for s in v["chain"]:
        state = ", ".join(
            x
            for x in (
                _mark(s["active"], "ACTIVE"),
                _mark(s["resolved"], "resolved"),
                _mark(s["sacrificed"], "sacrifice"),
                _mark(s["face_down"] and s["kind"] == "event", "solved"),
            )
            if x
        )
        chain.add_row(str(s["space"]), s["name"], s["owner"] or "event", str(s["threat"]), state)
    stdout.print(chain)

    line = Table(
        title=f"Reaction Line ({len(v['reaction_line'])}/{v['reaction_spaces']})",
        box=box.SIMPLE,
        pad_edge=False,
        title_justify="left",
    )
    for col in ("#", "card", "fatigue", "state"):
        line.add_column(col)
    for r in v["reaction_line"]:
        fat = f"P{r['fatigue']['physical']} M{r['fatigue']['mind']}"
        state = ", ".join(
            x
            for x in (
                _mark(r["interruption"], "interruption"),
                _mark(r["check"], "CHECK"),
                _mark(r["resolved"], "resolved"),
            )
            if x
        )
        line.add_row(str(r["space"]), r["name"], fat, state)
    stdout.print(line)

    mins = Table(title="Minions", box=box.SIMPLE, pad_edge=False, title_justify="left")
    for col in ("space", "minion", "type", "def", "alive"):
        mins.add_column(col)
    for mn in v["minions"]:
        d = mn["defenses"]
        mins.add_row(
            mn["space"],
            mn["name"] + (" (summoned)" if mn["summoned"] else ""),
            mn["type"],
            f"P{d['physical']} M{d['mind']}",
            str(mn["alive"]),
        )
    stdout.print(mins)

    tr = Table(title="Troupers", box=box.SIMPLE, pad_edge=False, title_justify="left")
    for col in ("trouper", "hand", "deck", "disc", "wnd", "vig", "bite", "ins", "state"):
        tr.add_column(col, no_wrap=True)
    for t in v["troupers"]:
        state = ", ".join(
            x
            for x in (
                _mark(t["leader"], "leader"),
                _mark(t["exhausted"], "exhausted"),
                _mark(t["knocked_out"], "KO"),
                _mark(t["rested"], "rested"),
            )
            if x
        )
        items = ", ".join(i["name"] + (" (used)" if i["depleted"] else "") for i in t["items"])
        tr.add_row(
            t["name"],
            str(t["hand"]),
            str(t["deck"]),
            str(t["wounds"]),
            str(t["vigor"]),
            str(t["bites"]),
            str(t["insanity"]),
            state,
            items,
        )
    stdout.print(tr)
    for q in v["pending"]:
        stdout.print(Text(f"Waiting: {q['prompt']}", style="yellow"))
