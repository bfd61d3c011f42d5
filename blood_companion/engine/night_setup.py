"""Setting a night up: what the Dusk Phase and the Beginning of the Night put on the table (the
Day Part's last step, or the direct setup of "Single Game Mode")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from blood_companion.content.face import minion_miniatures
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_state import ChainSlot, MinionSlot, NightState
from blood_companion.engine.state import CampaignState, Tokens, TrouperState
from blood_companion.engine.table import at_table, hide, named_draw
from blood_companion.engine.words.sentences import zone_name

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def reaction_deck_ids(catalog: Catalog, nemesis: str) -> list[str]:
    """The 12 Reaction cards of a Nemesis (Vlad's with their current sides, by id)."""
    card = catalog.nemesis(nemesis)
    if card is None:
        known = ", ".join(n.id for n in catalog.all("nemeses"))
        raise RuleError(f"unknown Nemesis {nemesis!r}", hint=f"Nemeses: {known}")
    if card.vlad:
        return [v.id for v in catalog.all("vlad_reactions")]
    return [r.id for r in catalog.reactions_for(nemesis)]


def shuffled(t: TrouperState, cards: list[str], rng: Chance, table: bool) -> list[str]:
    """``cards`` shuffled into a new Trouper deck (hidden when the ``table`` shuffles it)."""
    pile = list(cards)
    rng.shuffle(pile, f"trouper-deck:{t.trouper}")
    return hide(pile) if table else pile


def draw(t: TrouperState, n: int, rng: Chance, *, table: bool = False) -> TrouperState:
    """ "Draw N": the discard pile reshuffled when the deck runs out, until both are empty."""
    pile, hand, discard = list(t.draw_pile), list(t.hand), list(t.discard)
    for _ in range(n):
        if not pile:
            if not discard:
                break
            pile, discard = shuffled(t, discard, rng, table), []
        hand.append(pile.pop(0))
    return t.model_copy(update={"draw_pile": pile, "hand": hand, "discard": discard})


def setup_night(state: CampaignState, catalog: Catalog, rng: Chance, *, nemesis: str,
                location: str, minions: list[str], difficulty: int,
                events: list[str] | None = None,
                equipped: Mapping[int, Mapping[str, str]] | None = None) -> CampaignState:
    """Lay out the night and run the Beginning of the Night's draw ("Minions": two different
    cards). `events`: drawn from the Zone when None; `equipped`: a Trouper's items by category
    (else the first of each)."""
    loc = catalog.get("locations", location)
    if loc is None:
        raise RuleError(f"unknown Location card {location!r}")
    nem = catalog.nemesis(nemesis)
    deck = reaction_deck_ids(catalog, nemesis)
    assert nem is not None
    level = next((lv for lv in nem.levels if lv.level == difficulty), None)
    if level is None:
        levels = ", ".join(str(lv.level) for lv in nem.levels)
        raise RuleError(f"{nem.name} has no Difficulty level {difficulty} (levels: {levels})")
    if len(minions) != 2 or len(set(minions)) != 2:
        raise RuleError("a night starts with two different Minion cards (spaces A and B)")
    for mid in minions:
        if catalog.get("minions", mid) is None:
            raise RuleError(f"unknown Minion card {mid!r}")
    zone_events = [e.id for e in catalog.events_in(loc.zone)]
    if events is None:
        events = rng.sample(zone_events, min(level.influence, len(zone_events)), "events")
        if at_table(state, "events"):  # the players drew them: the cards they name
            events = table_events(catalog, rng, zone_events, len(events), loc.zone)
    else:
        for eid in events:
            if eid not in zone_events:
                raise RuleError(f"Event {eid!r} is not an Event card of {loc.zone}")
    board = catalog.board
    if len(events) >= board.chain_spaces:
        raise RuleError("the Events would fill the whole Chain")
    rng.shuffle(deck, "reaction-deck")
    chain = [ChainSlot(kind="event", card=e) for e in events]
    slots = [MinionSlot(space=space, minion=mid, alive=minion_miniatures(catalog, loc.zone, space))
             for space, mid in zip(("A", "B"), minions, strict=True)]
    hand_size = catalog.config.hand_size
    table = at_table(state, "troupers")
    troupers = []
    for i, t in enumerate(state.troupers):
        pile = shuffled(t, t.deck, rng, table)  # "Beginning of the Night": shuffle and draw
        if equipped is not None and i in equipped:
            gear = dict(equipped[i])
        else:
            gear = {}
            for slot in t.sleeves:
                item = catalog.item(slot.item)
                if item is not None and item.category not in gear:
                    gear[item.category] = slot.item
        fresh = t.recovered().model_copy(update={  # the Insanity cube stays where it is
            "insanity": t.insanity, "draw_pile": pile, "equipped": gear, "traps": Tokens(),
            "whispers": Tokens()})
        troupers.append(draw(fresh, hand_size, rng, table=table))
    night = NightState(
        nemesis=nemesis, vlad=nem.vlad, zone=loc.zone, location=location, difficulty=difficulty,
        turn=1, chain=chain, chain_spaces=board.chain_spaces, reaction_deck=deck, minions=slots,
        event_deck=[e for e in zone_events if e not in events], to_play=state.leader)
    return state.model_copy(update={"troupers": troupers, "part": "night", "phase": night.phase,
                                    "night": night})


def table_events(catalog: Catalog, rng: Chance, zone_events: list[str], n: int, zone: str
                 ) -> list[str]:
    """The Event cards the players drew at random from the Zone's deck ("Dusk Phase")."""
    chosen: list[str] = []
    where = zone_name(catalog, zone)
    for k in range(n):
        left = [e for e in zone_events if e not in chosen]
        chosen.append(named_draw(
            rng, catalog, "events", left,
            f"Draw an Event card of {where} at random for Chain space {k + 1}: which card is it?"))
    return chosen
