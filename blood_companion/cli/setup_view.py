"""The physical Setup of a new campaign as a short checklist, in our own words.

Built from :func:`blood_companion.engine.campaign.table_setup` (who sits where, with what); the
order follows the rulebook's "Setup" ("Player Setup", then "Playing Area Setup").
"""

from __future__ import annotations

from typing import Any


def checklist(plan: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """``[(title, [line, ...]), ...]``: one section per seat, the Leader, the playing area."""
    per = plan["per_colour"]
    sections: list[tuple[str, list[str]]] = []
    for s in plan["seats"]:
        colour = s["colour"]
        lines = [
            f"Trouper Board and Aid Card; the {s['vigor_tokens']} Vigor tokens on the Board, "
            "available side up.",
            f"All the {colour} material as your Personal Reserve: {per['tactic_sleeves']} Tactic "
            f"sleeves, {per['item_sleeves']} Item sleeves, {per['whisper_tokens']} Whisper, "
            f"{per['trap_tokens']} Trap and {per['event_tokens']} Event tokens, "
            f"{per['exhausted_tokens']} Exhausted token, the {colour} base.",
            f"{s['name']}'s Trouper card on the Board; the {s['starting_tactics']} Starting "
            f"Tactic cards in the {colour} sleeves, Effects showing, shuffled, on the deck space.",
            f"The {s['trouper_items']} Trouper Item cards in the {colour} Item sleeves, white "
            f"side showing; the miniature on the {colour} base.",
            "The Insanity cube on the leftmost space of the track.",
        ]
        lead = " (Leader)" if s["leader"] else ""
        sections.append((f"Seat {s['seat']}: {s['name']}, {colour}{lead}", lines))
    leader = next((s for s in plan["seats"] if s["leader"]), None)
    if leader is not None:
        line = f"The Leader token to {leader['name']} (seat {leader['seat']})."
        sections.append(("Leader", [line]))
    area: list[str] = []
    if plan["village"]:
        decks = plan["advanced_decks"]
        area += [
            f"Village Card to one side; the {len(decks)} Advanced Tactic decks sorted by Art "
            f"({sum(decks.values())} cards), each shuffled and face up on its space. "
            + ("When you take a top card, tell the app which it is."
               if plan.get("decks", {}).get("advanced") == "table" else
               "The app keeps its own order of them: take the card it names."),
            f"The Location and Nemesis Item cards ({plan['crafting']}) and the Location and "
            f"Nemesis Tactic cards ({plan['training']}) as two face-up decks on their spaces.",
        ]
    area += [
        "Night Board to one side, the Threat token on its starting space.",
        "Within everyone's reach: Bite and Trophy tokens, dice, Tiles, the Minion, Nemesis, "
        "Reaction, Weakness, Location, Event and Vlad cards, the miniatures and Scenic "
        "Elements.",
        "Resolved tokens and Cubes beside the Night Board, for the player who runs it.",
    ]
    if plan["village"]:
        area.append("The Wagon beside the Village Card, every disk at 0.")
    else:
        area.append(
            "Single Game mode: Starting cards and Items only; the Village Card and the Wagon "
            "stay in the box."
        )
    sections.append(("Playing area", area))
    return sections
