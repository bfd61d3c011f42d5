"""Cards, hands, decks and step results as the table reads them, in lines (for every command
and `blood play`'s prompt). Pure rendering; names, never ids, except where ``--ids`` asks for
them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blood_companion.content.face import card_face, find_card, trouper_name
from blood_companion.content.render import render_effect
from blood_companion.engine.table import (
    DECKS,
    UNKNOWN,
    DrawNeeded,
    done_so_far,
    hand_choices,
    hidden_hand,
    holder,
    holders_text,
)
from blood_companion.engine.words.names import faces_words, record_name
from blood_companion.engine.words.sentences import name, names, render
from blood_companion.engine.words.templates import DECISION
from blood_companion.engine.words.text import counted

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.night_state import NightLogEntry
    from blood_companion.engine.state import CampaignState

REVEALS = ("reveal", "reveal_interruption")


def _style(entry: NightLogEntry, text: str) -> str:
    if entry.kind.startswith("enemy_move") or entry.kind == "move" or text.startswith("MOVE"):
        return "cyan"
    if entry.kind == "test":
        return "yellow"
    if entry.kind == "night_over":
        return "bold red"
    return ""


def entry_lines(entry: NightLogEntry, state: CampaignState | None, catalog: Catalog
                ) -> list[tuple[str, str]]:
    """A log event's lines and styles: the sentence, and for a revealed Reaction card its
    text, as printed on the card."""
    text = render(entry, catalog)
    out = [(text, _style(entry, text))]
    if entry.kind in REVEALS and entry.args.get("card"):
        face = entry.args.get("face")
        lines = card_face(catalog, str(entry.args["card"]), face=face)
        out += [("    " + line.strip(), "dim") for line in lines[1:]]
    return out


def so_far_lines(need: DrawNeeded, before: CampaignState, catalog: Catalog) -> list[str]:
    """What a step already did when it needed a card the players draw (a roll, a reshuffle, a
    card revealed), told before the question that depends on it."""
    return [text for entry in done_so_far(need, before) if entry.kind != DECISION
            for text, _ in entry_lines(entry, need.state, catalog)]


def show_lines(catalog: Catalog, text: str, *, ids: bool = False,
               state: CampaignState | None = None) -> list[str]:
    """The card `text` names (id or name, typo-tolerant) as printed. A Vlad card shows the
    side the campaign shows. Raises RuleError ("did you mean") when nothing fits."""
    cid = find_card(catalog, text)
    face = "weakened" if state is not None and cid in state.vlad_weakened else None
    return card_face(catalog, cid, face=face, with_id=ids)


def hand_lines(state: CampaignState, catalog: Catalog, who: str | None = None) -> list[str]:
    """The hands of the Troupers (or of `who`): the cards, or the size of a hand the app does
    not see and the cards that can be in it; the discard pile and the Wounds as known."""
    if not state.troupers:
        return ["Nobody is at the table yet."]
    idx = [state.trouper_index(who)] if who else range(len(state.troupers))
    out: list[str] = []
    for i in idx:
        t = state.troupers[i]
        name = trouper_name(catalog, t.trouper)
        if state.night is None:
            out.append(f"{name}: no hand outside the night; the deck holds "
                       + ", ".join(record_name(catalog, c) for c in t.deck))
            continue
        if hidden_hand(state, i):
            can = hand_choices(state, i)
            out.append(f"{name} holds {len(t.hand)} card(s) the app does not see. They can be:")
            out += [f"  {k + 1}. {_card_line(catalog, c)}" for k, c in enumerate(can)]
        else:
            out.append(f"{name}'s hand ({len(t.hand)}):")
            out += [f"  {k + 1}. {_card_line(catalog, c)}" for k, c in enumerate(t.hand)]
        out.append(f"  deck {len(t.draw_pile)} · discard pile: " + _known(catalog, t.discard)
                   + " · Wounds: " + _known(catalog, t.wounds))
    return out


def _known(catalog: Catalog, cards: list[str]) -> str:
    if not cards:
        return "none"
    seen = [record_name(catalog, c) for c in cards if c != UNKNOWN]
    hidden = sum(1 for c in cards if c == UNKNOWN)
    parts = seen + ([f"{hidden} card(s) the app did not see"] if hidden else [])
    return ", ".join(parts)


def _card_line(catalog: Catalog, cid: str) -> str:
    card = catalog.tactic(cid)
    if card is None:
        return record_name(catalog, cid)
    tags = (", Cascade" if card.cascade else "") + (", Block" if card.block else "")
    effects = "; ".join(render_effect(e) for e in card.effects)
    return f"{card.name} (Threat {card.threat}{tags}): {effects}"


def decks_lines(state: CampaignState) -> list[str]:
    out = [holders_text(state)]
    for deck, title in DECKS.items():
        who = "the players (real cards)" if holder(state, deck) == "table" else "the app"
        out.append(f"  {deck:<10} {title}: {who}")
    return out


def result_lines(result: dict[str, Any], catalog: Catalog | None, sentence: str = "") -> list[str]:
    """What a step drew and did, a line each (those its own `sentence` already says left
    out)."""
    if not result or catalog is None:
        return []
    out: list[str] = []
    day = result.get("day") or {}
    if day.get("location"):
        roll = f" (the die shows {day['location_roll']})" if day.get("location_roll") else ""
        out.append(f"Location card: {name(catalog, day['location'])}{roll}")
    if day.get("minions"):
        out.append("Minion cards: " + ", ".join(
            f"{space}: {name(catalog, m)}" for space, m in zip("AB", day["minions"], strict=False)))
    if day.get("nemesis"):
        out.append(f"Nemesis: {name(catalog, day['nemesis'])}")
    if day.get("events"):
        out.append("Event cards on the Chain: " + names(catalog, day["events"]))
    for cid in result.get("tactics") or []:
        out.append(f"Advanced Tactic card taken: {name(catalog, cid)}")
    out = [x for x in out if x.split(": ", 1)[-1] not in sentence]
    for roll in result.get("rolls") or []:
        if isinstance(roll, dict):
            out.append(f"Loot roll {roll.get('dice')}: "
                       f"{faces_words(str(roll.get('faces') or ''))} → "
                       f"{counted(int(roll.get('gained') or 0), str(roll.get('resource')))}")
    for event in result.get("events") or []:
        if isinstance(event, dict) and event.get("kind") != DECISION:
            out.append(render(event, catalog))
    return out
