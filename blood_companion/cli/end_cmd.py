"""`blood end ...`: the End of the Night and the step into the next game. Every step prints what
comes next."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from blood_companion.cli import commands, common, session
from blood_companion.cli.common import (
    CARD,
    add_recorder,
    command_group,
    declare_command,
    print_json,
    stdout,
)
from blood_companion.cli.flags import JSON
from blood_companion.content.face import trouper_name
from blood_companion.content.loader import Catalog
from blood_companion.content.models import ARTS
from blood_companion.display import Styled, styled
from blood_companion.engine.actions import Action
from blood_companion.engine.endgame import (
    EndNight,
    FinishGame,
    RollLoot,
    TakeAdvancedTactic,
    WeakenVlad,
    reward_choices,
)
from blood_companion.engine.flow import next_view
from blood_companion.engine.history import finished_summary
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import at_table
from blood_companion.engine.words import (
    counted_all,
    drawn_lines,
    record_name,
    sentence,
    trophy_words,
)
from blood_companion.store import CampaignStore


def _after(state: CampaignState) -> str:
    if state.part == "day":
        return f"Game {state.game} begins with the Day Part (`blood day next`)."
    if state.part == "over":
        if state.mode == "single":
            return ("The game is over. Another Single game starts from the box "
                    "(blood campaign next-game).")
        return "The game is over."
    if state.part == "night" and state.night is not None:
        if state.night.result is None:
            return "The night is still going on (blood status)."
        return "The night is over: clear the board and read the rewards (blood end night)."
    return ""


def _counts(d: dict[str, int], sign: bool = False) -> str:
    return counted_all(d, sign) or "-"


def show_rewards(state: CampaignState, catalog: Catalog) -> None:
    rw = state.rewards
    if rw is None:
        stdout.print(_after(state))
        return
    title = "Victory" if rw.result == "won" else "Defeat"
    vs = "Vlad" if rw.vlad else record_name(catalog, rw.nemesis)
    zone_name = record_name(catalog, rw.zone)
    table = Table(title=f"End of the Night: {title} against {vs} (level {rw.difficulty})",
        title_justify="left")
    table.add_column("reward")
    table.add_column("still owed")
    table.add_column("taken")
    if rw.result == "won" and not rw.vlad:
        table.add_row(f"Vlad cards of {zone_name}", str(rw.vlad_cards),
            ", ".join(_vlad(catalog, c) for c in rw.weakened) or "-")
        table.add_row("Trophy tokens", "-", _trophies(catalog, rw.trophies))
        given = "; ".join(
            trouper_name(catalog, who) + ": "
            + ", ".join(record_name(catalog, c) for c in cards)
            for who, cards in rw.given.items())
        table.add_row("Advanced Tactic cards", str(rw.advanced_tactics), given or "-")
    owed = ", ".join(f"{p.dice} for {p.resource}" for p in rw.loot) or "-"
    rolled = "; ".join(f"{r.faces} = {r.gained} {r.resource}"
                       + (" (physical)" if r.physical else "") for r in rw.rolls)
    table.add_row("Loot rolls" if rw.result == "won" else "Defeat roll", owed, rolled or "-")
    stdout.print(table)
    choices = reward_choices(state, catalog)
    if "vlad_cards" in choices:
        cards = ", ".join(c["name"] for c in choices["vlad_cards"] if c["side"] == "enhanced")
        stdout.print(f"Enhanced Vlad cards of {zone_name}: {cards}")
    if "arts" in choices:
        hidden = at_table(state, "advanced")
        tops = ", ".join(f"{a['art']}: {'(you see it)' if hidden else a['name'] or '-'}"
                         + (f" ({a['left']} left)" if a["left"] else "") for a in choices["arts"])
        stdout.print(f"Tops of the Art decks: {tops}")
        names = ", ".join(trouper_name(catalog, t) for t in choices["troupers"])
        stdout.print(f"Troupers: {names}")
    stdout.print(f"Wagon: {_counts(state.wagon.as_dict())}")
    nxt = next_view(state, catalog)
    stdout.print(Styled(("Next: ", "bold"), nxt.sentence))
    for cmd in commands.for_next(nxt, catalog):
        stdout.print(styled("  " + cmd, style="cyan"))


def show_summary(state: CampaignState, catalog: Catalog, s: dict[str, Any] | None = None) -> None:
    """After `blood end finish`: what the game changed and what carries over (``s``: the
    summary with the night's gains, session.game_summary)."""
    s = finished_summary(state) if s is None else s
    if not s:
        stdout.print(_after(state))
        return
    stdout.print(styled(f"Game {s['game']} is over: {s['result']} against "
                      f"{record_name(catalog, s['nemesis'])}.", style="bold"))
    if s["box_reset"]:
        stdout.print(styled("Vlad is defeated! The box returns to its starting state: Starting "
                          "Tactic cards and Items, empty Personal Reserves and Wagon, no "
                          "trophies, every Vlad card on its Enhanced side, the Advanced Tactic "
                          "decks reshuffled. The campaign history stays.", style="green"))
    vlads = len(catalog.all("vlad_reactions"))
    lines = [
        ("Wagon this game", _counts(s["wagon_delta"], sign=True)),
        ("Resources won / spent", f"{sum(s['earned'].values())} / {s['spent']}"),
        ("Trophy tokens won", _trophies(catalog, s["trophies"])),
        ("Vlad cards weakened", (", ".join(_vlad(catalog, c) for c in s["vlad_weakened"]) or "-")
         + (f" (the box was reset: every Vlad card is Enhanced again, 0 of {vlads} Weakened)"
            if s["box_reset"] else f" (now {s['vlad_weakened_total']} of {vlads})")),
    ]
    for who, cards in s["reserve"].items():
        names = ", ".join(record_name(catalog, c) for c in cards)
        lines.append((f"{trouper_name(catalog, who)}'s Personal Reserve", "+ " + names))
    if s["left_behind"]:
        lines.append(("Left behind", ", ".join(s["left_behind"])))
    table = Table(box=None, pad_edge=False, show_header=False)
    table.add_column(style="dim")
    table.add_column()
    for k, v in lines:
        table.add_row(k, v)
    stdout.print(table)
    carried = s["carried"]
    if not s["box_reset"]:
        weak = len(carried["vlad_weakened"])
        stdout.print(f"Everything carries over (Roguelite): Wagon {_counts(carried['wagon'])}; "
                     f"{weak} Vlad card(s) Weakened; decks, Personal Reserves, Item sides, "
                     "trophies and Bites as they are.")
    stdout.print(Styled(("Next: ", "bold"),
                        f"game {s['next_game']} begins with the Day Part (blood day next)."))


def _vlad(catalog: Catalog, cid: str) -> str:
    rec = catalog.get("vlad_reactions", cid)
    if rec is None:
        return cid
    return f"{rec.enhanced.name} (now {rec.weakened.name})"


def _trophies(catalog: Catalog, held: dict[str, int]) -> str:
    return ", ".join(f"{n} {trophy_words(catalog, k)}" for k, n in held.items() if n) or "-"


def _art(word: str) -> str:
    """An Art by name or unique start (``alch``); unknown words go on for the engine to refuse."""
    key = word.strip().lower()
    hits = [a for a in ARTS if a.startswith(key)] if key else []
    return hits[0] if len(hits) == 1 else key


def _doc(store: CampaignStore, action: Action | None) -> dict[str, Any]:
    """The End of the Night as JSON: the step recorded (if any), what is still owed, the
    choices, what comes next."""
    doc: dict[str, Any] = {"ok": True}
    if action is not None:
        doc["action"] = action.model_dump(mode="json")
        doc["done"] = sentence(action, store.catalog)
    state, catalog = store.state, store.catalog
    rw, nxt = state.rewards, next_view(state, catalog)
    doc.update({
        "part": state.part,
        "phase": state.phase,
        "game": state.game,
        "wagon": state.wagon.as_dict(),
        "vlad_weakened": list(state.vlad_weakened),
        "rewards": rw.model_dump(mode="json") if rw else None,
        "choices": reward_choices(state, catalog),
        "next": nxt.sentence if state.part == "end" and rw else _after(state),
        "commands": commands.for_next(nxt, catalog),
    })
    if isinstance(action, FinishGame):
        doc["summary"] = session.game_summary(store)
    doc.update(log_length=store.log_length, state_hash=store.state_hash)
    return doc


def _show(step: session.Step) -> None:
    if isinstance(step.action, FinishGame):
        show_summary(step.after, step.catalog, session.game_summary(step.store))
        return
    stdout.print(styled(step.done(), style="green"))
    for line in drawn_lines(step.before, step.after, step.catalog):
        stdout.print(line, highlight=False, markup=False)
    step.tell()
    show_rewards(step.after, step.catalog)


_do = session.recorder(lambda step: {**_doc(step.store, step.action),
                                     "instructions": step.told()}, _show)


# Words an End command's fields name (engine/actions.py ``Cli``).
RESOLVE: dict[str, Any] = {**common.RESOLVE, "art": lambda store, word, _: _art(word)}


end_app, register = command_group("end")
# The recorded steps, in the order `blood end --help` lists them (`next` after the first).
add_recorder(end_app, EndNight, _do, RESOLVE, None)


@declare_command(end_app, "next", JSON)
def end_next(as_json: bool = False) -> None:
    """What the table does now at the End of the Night, with the choices."""
    with session.open_session() as store:
        if as_json:
            print_json(_doc(store, None))
        else:
            show_rewards(store.state, store.catalog)


for _cls in (WeakenVlad, TakeAdvancedTactic, RollLoot, FinishGame):
    add_recorder(end_app, _cls, _do, RESOLVE, CARD if _cls is TakeAdvancedTactic else None)
