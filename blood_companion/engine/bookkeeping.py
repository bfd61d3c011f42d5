"""The bookkeeping the app tracks for the Night Part: Wounds, Bites, Threat, Summons, the
Nemesis deck.

Rulebook sections: "Wounds" (Wounding a Trouper / a Nemesis / a Minion), "Threat",
"Summon", "Elements - Symbols" (Bite, Exhausted), "Draw N", "Heal N", "Discard N",
"Use of Items and Tokens" (Vigor).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.content import models as m
from blood_companion.content.face import trouper_name
from blood_companion.engine import trophy, vigor
from blood_companion.engine.box import gain_trophies
from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.night_setup import draw, shuffled
from blood_companion.engine.night_state import (
    EnemyJob,
    MinionSlot,
    NightLogEntry,
    NightState,
    Question,
    ReactionSlot,
)
from blood_companion.engine.state import CampaignState, TrouperState
from blood_companion.engine.table import UNKNOWN, at_table, named_draw, take_cards, take_from_hand
from blood_companion.engine.why import DECISION
from blood_companion.engine.words.names import job_ref, summon_tile
from blood_companion.engine.words.templates import check as check_event
from blood_companion.engine.words.text import SIDE_WORDS

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


# --------------------------------------------------------------------------- state access


def night_of(state: CampaignState) -> NightState:
    if state.night is None:
        raise RuleError("no night is being played", see=("night_setup",))
    return state.night


def with_night(state: CampaignState, **update: Any) -> CampaignState:
    night = night_of(state).model_copy(update=update)
    return state.model_copy(update={"night": night, "phase": night.phase})


def with_trouper(state: CampaignState, i: int, **update: Any) -> CampaignState:
    troupers = list(state.troupers)
    troupers[i] = troupers[i].model_copy(update=update)
    return state.model_copy(update={"troupers": troupers})


def log(state: CampaignState, kind: str, **args: Any) -> CampaignState:
    """Add an event to the night log: a ``kind`` of ``engine/words/templates.py`` with exactly
    its declared fields (checked here), rendered when it is shown."""
    check_event(kind, args)
    n = night_of(state)
    entry = NightLogEntry(turn=n.turn, phase=n.phase, kind=kind, args=args)
    return with_night(state, log=[*n.log, entry])


def ask(state: CampaignState, kind: str, prompt: str, i: int | None = None,
        **fields: Any) -> CampaignState:
    """A :class:`Question` the table answers, after those waiting (``i``: about Trouper ``i``)."""
    mine: dict[str, Any] = {"trouper": i, "candidates": [i]} if i is not None else {}
    question = Question(kind=kind, prompt=prompt, **mine, **fields)
    return with_night(state, pending=[*night_of(state).pending, question])


def tid(state: CampaignState, i: int) -> str:
    return state.troupers[i].trouper


def face_arg(state: CampaignState, card: str) -> dict[str, str]:
    return {"face": "weakened"} if card in state.vlad_weakened else {}


def job_arg(state: CampaignState, job: EnemyJob) -> dict[str, Any]:
    return job_ref(job, weakened=job.card in state.vlad_weakened)


def name_of(state: CampaignState, catalog: Catalog, i: int) -> str:
    return trouper_name(catalog, state.troupers[i].trouper)


# --------------------------------------------------------------------------- cards


def reaction_face(state: CampaignState, catalog: Catalog, card_id: str) -> m.ReactionFace:
    """What a Reaction card shows ("Reaction Card - Vlad": the Weakened face once turned)."""
    vlad = catalog.get("vlad_reactions", card_id)
    if vlad is not None:
        shown: m.ReactionFace = vlad.weakened if card_id in state.vlad_weakened else vlad.enhanced
        return shown
    card = catalog.get("reactions", card_id)
    if card is None:
        raise RuleError(f"unknown Reaction card {card_id!r}")
    face: m.ReactionFace = card.face()
    return face


def item_side(state: CampaignState, catalog: Catalog, owner: int, iid: str) -> m.ItemSide:
    """The side an equipped Item shows (the Advanced side once upgraded)."""
    item = catalog.item(iid)
    if item is None:
        raise RuleError(f"unknown Item card {iid!r}")
    advanced = any(s.item == iid and s.advanced for s in state.troupers[owner].sleeves)
    return item.advanced if advanced and item.advanced is not None else item.starting


def said_name(state: CampaignState, catalog: Catalog, value: object, *,
              target: bool = False) -> str:
    """What an answer names, in the words of the table (for an attack's ``target``: the
    Nemesis, or "Minion B: Castle Wolf"); anything unknown as it is."""
    text = str(value)
    night = state.night
    if target and night is not None:
        if text.casefold() == "nemesis":
            nem = catalog.nemesis(night.nemesis)
            return nem.name if nem is not None else text
        slot = next((ms for ms in night.minions if ms.space.casefold() == text.casefold()), None)
        if slot is not None:
            card = catalog.get("minions", slot.minion)
            return f"Minion {slot.space}: {card.name if card is not None else slot.minion}"
    for i, tr in enumerate(state.troupers):
        if text == tr.trouper:
            return name_of(state, catalog, i)
        if text in tr.equipped.values():
            return item_side(state, catalog, i, text).name
    rec: Any = catalog.find(text) if isinstance(value, str) else None
    if m.instance_of(rec, "VladReactionCard"):
        return str(rec.weakened.name if text in state.vlad_weakened else rec.enhanced.name)
    return str(getattr(rec, "name", text))


def nemesis_card(state: CampaignState, catalog: Catalog) -> m.Nemesis:
    nem = catalog.nemesis(night_of(state).nemesis)
    if nem is None:
        raise RuleError(f"unknown Nemesis {night_of(state).nemesis!r}")
    return nem


def nemesis_level(state: CampaignState, catalog: Catalog) -> m.NemesisLevel:
    n = night_of(state)
    nem = nemesis_card(state, catalog)
    for lv in nem.levels:
        if lv.level == n.difficulty:
            return lv
    raise RuleError(f"{nem.name} has no Difficulty level {n.difficulty}")


def weakness(state: CampaignState, catalog: Catalog, side: str) -> m.WeaknessCard | None:
    for w in catalog.weaknesses_for(night_of(state).nemesis):
        if w.side == side:
            return w
    return None


def fatigue(state: CampaignState, catalog: Catalog) -> tuple[list[int], list[int]]:
    """Physical and Mind Fatigue of every card on the Reaction Line ("Reaction Card")."""
    line = [reaction_face(state, catalog, s.card).fatigue for s in night_of(state).reaction_line]
    return [f.physical for f in line], [f.mind for f in line]


# --------------------------------------------------------------------------- Troupers


def wound_trouper(state: CampaignState, catalog: Catalog, i: int, rng: Chance, n: int = 1
                  ) -> CampaignState:
    """ "Wounding a Trouper": the top card of the deck (the discard pile reshuffled when it is
    empty) goes to Wounds. With both empty (docs/rules-decisions.md) a hand card of the player's
    choice, else an unmarked Wound that counts towards Knocked Out: no Wound is ever lost."""
    for done in range(n):
        t = state.troupers[i]
        pile, discard = list(t.draw_pile), list(t.discard)
        if not pile and discard:
            pile, discard = shuffled(t, discard, rng, at_table(state, "troupers")), []
            state = log(state, "reshuffle", who=tid(state, i))
        if not pile:
            return _wound_without_deck(state, catalog, i, n - done)
        card = pile.pop(0)
        state = with_trouper(state, i, draw_pile=pile, discard=discard, wounds=[*t.wounds, card])
        # An app deck names the card so the player takes that one (engine/table.py).
        seen = {"card": card} if card != UNKNOWN else {}
        state = log(state, "wound", who=tid(state, i), n=len(t.wounds) + 1, **seen)
    return state


def _wound_without_deck(state: CampaignState, catalog: Catalog, i: int, n: int) -> CampaignState:
    t = state.troupers[i]
    if catalog.config.wound_with_no_deck == "from_hand" and t.hand:
        if len(t.hand) <= n:
            state = wound_from_hand(state, i, list(t.hand))
            return unmarked_wounds(state, i, n - len(t.hand))
        return ask(state, "wound", f"{name_of(state, catalog, i)} has no card in deck or "
                   f"discard pile: which {n} card(s) from the hand take the Wound?", i, n=n)
    return unmarked_wounds(state, i, n)


def wound_from_hand(state: CampaignState, i: int, cards: list[str]) -> CampaignState:
    t = state.troupers[i]
    hand = take_from_hand(state, None, i, cards)
    state = with_trouper(state, i, hand=hand, wounds=[*t.wounds, *cards])
    for k in range(len(cards)):
        state = log(state, "wound_from_hand", who=tid(state, i), n=len(t.wounds) + k + 1)
    return state


def unmarked_wounds(state: CampaignState, i: int, n: int) -> CampaignState:
    if n <= 0:
        return state
    t = state.troupers[i]
    state = with_trouper(state, i, unmarked_wounds=t.unmarked_wounds + n)
    return log(state, "unmarked_wound", who=tid(state, i), n=n, total=wound_count(t) + n)


def wound_count(t: TrouperState) -> int:
    """A Trouper's Wounds, the unmarked ones included (for Knocked Out)."""
    return len(t.wounds) + t.unmarked_wounds


def bite_trouper(state: CampaignState, catalog: Catalog, i: int, n: int = 1) -> CampaignState:
    """ "Bite": each covers one uncovered Vigor token, Available or Depleted (engine/vigor.py);
    where the board leaves a choice the table is asked (``bite_placement``), Bites still waiting
    for that answer joining it."""
    tokens = catalog.config.vigor_tokens
    t = state.troupers[i]
    pending = list(state.night.pending) if state.night is not None else []
    waiting = next((k for k, q in enumerate(pending) if q.kind == "bite" and q.trouper == i), None)
    asked = pending[waiting].n if waiting is not None else 0
    placed = max(0, min(n, vigor.layout(t, tokens).uncovered - asked))
    options = vigor.bite_options(t, tokens, asked + placed)
    ask = len(options) > 1 and catalog.config.bite_placement == "ask" and state.night is not None
    if waiting is not None or ask:
        who = name_of(state, catalog, i)
        question = Question(kind="bite", trouper=i, candidates=[i], n=asked + placed, prompt=(
            f"{who} gets {asked + placed} Bite(s): on which Vigor token(s), Available or "
            "Depleted?"))
        if waiting is None:
            pending.append(question)
        else:
            pending[waiting] = question
        state = with_night(state, pending=pending)
    else:
        state = place_bites(state, catalog, i, options[-1], placed - options[-1])
    if placed < n:
        state = log(state, "all_bitten", who=tid(state, i))
    return state


def place_bites(state: CampaignState, catalog: Catalog, i: int, on_depleted: int,
                on_available: int) -> CampaignState:
    before = state.troupers[i]
    t = vigor.bite(before, catalog.config.vigor_tokens, on_available, on_depleted)
    state = with_trouper(state, i, bites=t.bites, bites_on_depleted=t.bites_on_depleted)
    sides = ["depleted"] * on_depleted + ["available"] * on_available
    for k, side in enumerate(sides):
        state = log(state, "bite", who=tid(state, i), n=before.bites + k + 1, on=side)
    return state


def exhaust(state: CampaignState, catalog: Catalog, i: int) -> CampaignState:
    if state.troupers[i].exhausted:
        return state
    state = with_trouper(state, i, exhausted=True)
    return log(state, "exhausted", who=tid(state, i))


def draw_cards(state: CampaignState, catalog: Catalog, i: int, n: int, rng: Chance
               ) -> CampaignState:
    before = len(state.troupers[i].hand)
    t = draw(state.troupers[i], n, rng, table=at_table(state, "troupers"))
    state = with_trouper(state, i, draw_pile=t.draw_pile, hand=t.hand, discard=t.discard)
    new = t.hand[before:]
    # An app deck names the cards drawn, so the player takes those (engine/table.py).
    seen = {"cards": new} if new and UNKNOWN not in new else {}
    return log(state, "draws", who=tid(state, i), n=len(t.hand) - before, **seen)


def discard_cards(state: CampaignState, catalog: Catalog, i: int, cards: list[str]
                  ) -> CampaignState:
    t = state.troupers[i]
    if len(cards) > len(t.hand):
        raise RuleError(f"{len(cards)} cards to discard, but {name_of(state, catalog, i)} holds "
                        f"{len(t.hand)}", hint=f"name at most {len(t.hand)}")
    hand = take_from_hand(state, catalog, i, cards)
    state = with_trouper(state, i, hand=hand, discard=[*t.discard, *cards])
    return log(state, "discards", who=tid(state, i), n=len(cards))


def heal(state: CampaignState, catalog: Catalog, i: int, n: int, cards: list[str] | None = None
         ) -> CampaignState:
    """ "Heal N": N Wound cards of the player's choice (the oldest unless named) discarded."""
    t = state.troupers[i]
    # A Wound card the app did not see (the Trouper decks at the table, engine/table.py) is
    # named now: it goes to the discard pile face up, as the player says.
    def missing(c: str) -> str:
        return f"{c!r} is not among {name_of(state, catalog, i)}'s Wounds"

    chosen = list(cards or [])
    take_cards(state, i, t.wounds, chosen, missing)  # every named card must be a Wound
    chosen = chosen[:n]
    wounds = take_cards(state, i, t.wounds, chosen, missing)
    for c in list(wounds):  # the oldest Wound cards, unless named
        if len(chosen) >= n:
            break
        wounds.remove(c)
        chosen.append(c)
    state = with_trouper(state, i, wounds=wounds, discard=[*t.discard, *chosen])
    return log(state, "heals", who=tid(state, i), n=len(chosen))


# --------------------------------------------------------------------------- Threat


def add_threat(state: CampaignState, catalog: Catalog, n: int, rng: Chance) -> CampaignState:
    """Move the Threat token, each Alert space passed revealing a card ("Game Turns", "Threat")."""
    night = night_of(state)
    track = catalog.board.threat_track
    new = max(0, min(track.length, night.threat + n))
    crossed = [a for a in track.alert_spaces if night.threat < a <= new]
    state = with_night(state, threat=new)
    if n:
        state = log(state, "threat", before=night.threat, after=new)
    queue_before = list(night_of(state).queue)
    for _ in crossed:
        state = reveal_reaction(state, catalog, rng)
    # Interruptions revealed by this Threat resolve in the order they were revealed, before
    # whatever was already waiting ("Game Turns": the Nemesis resolves each one as it appears).
    queue = list(night_of(state).queue)
    revealed = queue[: len(queue) - len(queue_before)]
    if len(revealed) > 1:
        state = with_night(state, queue=[*reversed(revealed), *queue_before])
    return state


def _reaction_deck(state: CampaignState, rng: Chance) -> tuple[CampaignState, list[str]]:
    """The Nemesis deck, the discard pile shuffled in when it is empty ("Wounding a Nemesis")."""
    n = night_of(state)
    deck, discard = list(n.reaction_deck), list(n.reaction_discard)
    if not deck and discard:
        deck, discard = discard, []
        rng.shuffle(deck, "reaction-deck")
        state = with_night(state, reaction_deck=deck, reaction_discard=discard)
        state = log(state, "nemesis_reshuffle")
    return state, deck


def take_reaction(state: CampaignState, rng: Chance) -> tuple[CampaignState, str | None]:
    """The top card of the Nemesis deck ("Wounding a Nemesis"); None when it and the discard
    pile are empty."""
    state, deck = _reaction_deck(state, rng)
    if not deck:
        return state, None
    card = deck.pop(0)
    return with_night(state, reaction_deck=deck), card


def take_named_reaction(
    state: CampaignState, catalog: Catalog, rng: Chance, prompt: str,
    candidates: list[str] | None = None,
) -> tuple[CampaignState, str | None]:
    """The Reaction card the players revealed from the deck they hold (engine/table.py)."""
    state, deck = _reaction_deck(state, rng)
    pool = [c for c in deck if candidates is None or c in candidates]
    if not pool:
        return state, None
    card = named_draw(rng, catalog, "reactions", sorted(set(pool)), prompt, state)
    deck.remove(card)
    return with_night(state, reaction_deck=deck), card


def reveal_reaction(state: CampaignState, catalog: Catalog, rng: Chance) -> CampaignState:
    """An Alert: the top Reaction card to the leftmost free space, an Interruption queued to
    resolve at once; with the Line full, nothing (our reading)."""
    n = night_of(state)
    if len(n.reaction_line) >= catalog.board.reaction_spaces:
        return log(state, "line_full")
    if at_table(state, "reactions"):
        state, card = take_named_reaction(
            state, catalog, rng,
            "Alert: reveal the top card of the Nemesis Reaction deck and put it on the leftmost "
            "free space of the Reaction Line. Which card is it?",
        )
    else:
        state, card = take_reaction(state, rng)
    if card is None:
        return log(state, "no_reaction_left")
    face = reaction_face(state, catalog, card)
    n = night_of(state)
    slot = ReactionSlot(card=card, interruption=face.interruption)
    line = [*n.reaction_line, slot]
    state = with_night(state, reaction_line=line)
    state = log(
        state, "reveal_interruption" if face.interruption else "reveal", card=card,
        **face_arg(state, card),
    )
    if face.interruption:
        job = EnemyJob(source="reaction", card=card, label=face.name, slot=len(line) - 1)
        state = with_night(state, queue=[job, *night_of(state).queue])
    return state


# --------------------------------------------------------------------------- Nemesis wounds


def timed_skills(state: CampaignState, catalog: Catalog, timing: str) -> list[EnemyJob]:
    nem = nemesis_card(state, catalog)
    return [
        EnemyJob(
            source="skill", card=nem.id, label=f"{nem.name}: {sk.name or 'Skill'}", effects=[k])
        for k, sk in enumerate(nem.skills)
        if sk.timing == timing]


def wound_nemesis(
    state: CampaignState, catalog: Catalog, side: str, n: int, rng: Chance,
    by: tuple[int, frozenset[str]] | None = None,
) -> CampaignState:
    """ "Wounding a Nemesis": per Wound, the first Reaction card without Interruption goes under
    the side hit, on-wound Skills and Weakness Effects queued. ``by``: the attacking Trouper and
    the attack's kinds (for the side's Weakness Trophy)."""
    nem = nemesis_card(state, catalog)
    for _ in range(n):
        revealed: list[str] = []
        taken: str | None = None
        if at_table(state, "reactions"):
            state, taken = _table_wound_card(state, catalog, rng, nem.name, side)
        # Every card of the deck and discard may be an Interruption: stop after a full pass.
        night = night_of(state)
        limit = len(night.reaction_deck) + len(night.reaction_discard)
        while taken is None and len(revealed) < limit and not at_table(state, "reactions"):
            state, card = take_reaction(state, rng)
            if card is None:
                break
            if reaction_face(state, catalog, card).interruption:
                revealed.append(card)
            else:
                taken = card
        night = night_of(state)
        deck = [*night.reaction_deck, *revealed]
        rng.shuffle(deck, "reaction-deck")
        wounds = {k: list(v) for k, v in night.nemesis_wounds.items()}
        wounds.setdefault(side, []).append(taken or "-")
        state = with_night(state, reaction_deck=deck, nemesis_wounds=wounds)
        state = log(
            state, "nemesis_wound" if taken else "nemesis_wound_unmarked", nemesis=nem.id,
            side=side, n=len(wounds[side]), **({"card": taken} if taken else {}),
        )
        jobs = timed_skills(state, catalog, "on_wound")
        w = weakness(state, catalog, side)
        if w is not None and any(e.timing == "on_wound" for e in w.effects):
            jobs.append(EnemyJob(
                source="weakness", card=w.id, label=f"{w.name}: {w.effect_name}",
                effects=[k for k, e in enumerate(w.effects) if e.timing == "on_wound"]))
        state = with_night(state, queue=[*jobs, *night_of(state).queue])
        state = _ask_weakness_trophy(state, catalog, side, by)
        state = check_victory(state, catalog)
        if night_of(state).result is not None:
            break
    return state


def _table_wound_card(state: CampaignState, catalog: Catalog, rng: Chance, nemesis: str,
                      side: str) -> tuple[CampaignState, str | None]:
    """ "Wounding a Nemesis" with the Reaction deck at the table: the card the players name
    (the discard pile shuffled in first when the deck holds none without Interruption)."""
    def plain(cards: list[str]) -> list[str]:
        return [c for c in cards if not reaction_face(state, catalog, c).interruption]

    night = night_of(state)
    if not plain(night.reaction_deck) and plain(night.reaction_discard):
        deck = [*night.reaction_deck, *night.reaction_discard]
        rng.shuffle(deck, "reaction-deck")
        state = with_night(state, reaction_deck=deck, reaction_discard=[])
        state = log(state, "nemesis_reshuffle")
    pool = plain(night_of(state).reaction_deck)
    if not pool:
        return state, None
    where = SIDE_WORDS.get(side, side)
    return take_named_reaction(
        state, catalog, rng,
        f"{nemesis} suffers a Wound on the {where}: reveal Reaction cards from the top of its "
        "deck until one without the Interruption symbol; it goes in the Wounds space of that "
        "side, the others are shuffled back. Which card went under the side?",
        candidates=pool,
    )


def _ask_weakness_trophy(state: CampaignState, catalog: Catalog, side: str,
                         by: tuple[int, frozenset[str]] | None = None) -> CampaignState:
    """ "Nemesis Weaknesses", "Nemesis Trophy": a Wound on a side whose Weakness offers a
    Trophy is judged on the state (engine/trophy.py), else asked of the table (``n=1``: the
    known clauses hold, the question defaults to yes)."""
    w = weakness(state, catalog, side)
    night = night_of(state)
    if w is None or not w.trophy or side in night.weakness_trophies:
        return state
    if any(q.about == f"weakness:{side}" for q in night.pending):
        return state
    verdict = None
    if by is not None and catalog.config.weakness_trophy == "decide_from_state":
        t, kinds = by
        tr = state.troupers[t]
        wounds = sum(1 for e in night.log if e.turn == night.turn and e.args.get("side") == side
                     and e.kind in ("nemesis_wound", "nemesis_wound_unmarked"))
        line = tuple(zip(*fatigue(state, catalog), strict=True))
        verdict = trophy.judge(w.trophy, trophy.Moment(
            kinds, name_of(state, catalog, t), tr.bites, tr.insanity, tr.exhausted, wounds, line))
        if verdict.earned is not None:
            state = log(state, "weakness_trophy_met" if verdict.earned else
                        "weakness_trophy_missed", card=w.id, why=verdict.why)
            return weakness_trophy(state, catalog, side, verdict.earned)
    seen = f" (the app sees: {verdict.why})" if verdict is not None and verdict.why else ""
    return ask(state, "confirm",
               f"{w.name} ({side} Weakness): was its Nemesis Trophy earned? {w.trophy}{seen}",
               about=f"weakness:{side}", n=1 if verdict is not None and verdict.default else 0)


def weakness_trophy(state: CampaignState, catalog: Catalog, side: str, earned: bool
                    ) -> CampaignState:
    """A Weakness's Nemesis Trophy earned: a token from the box and the side marked won."""
    w = weakness(state, catalog, side)
    if not earned or w is None:
        return state
    night = night_of(state)
    state, got = gain_trophies(state, catalog, "nemesis", night.nemesis, 1)
    state = with_night(state, weakness_trophies=[*night.weakness_trophies, side])
    return log(state, "weakness_trophy" if got else "weakness_trophy_capped", card=w.id,
               nemesis=night.nemesis)


def check_victory(state: CampaignState, catalog: Catalog) -> CampaignState:
    """The night is won when every side took the Wounds the Difficulty asks ("Wounding a
    Nemesis")."""
    night = night_of(state)
    if night.result is not None:
        return state
    need = nemesis_level(state, catalog).wounds
    if all(len(night.nemesis_wounds.get(s, [])) >= k for s, k in need.items()):
        return end_night(state, "won", "nemesis_defeated")
    return state


def goto(state: CampaignState, phase: str, **update: Any) -> CampaignState:
    """The one writer of the night's ``phase`` (night/phases.py ``advance``; :func:`end_night`
    for the End of the Night)."""
    return with_night(state, phase=phase, **update)


def end_night(state: CampaignState, result: str, reason: str, **args: Any) -> CampaignState:
    """The night is won or lost (``reason``: a code of ``words.REASONS``)."""
    state = goto(state, "over", result=result, reason=reason, pending=[], queue=[], activation=None)
    return log(state, "night_over", result=result, reason=reason, **args)


def check_rule_holds(state: CampaignState, catalog: Catalog, rule: m.CheckRule) -> bool:
    """A Check card's condition. A threshold that no table of this size can reach (more Bites
    than its Vigor tokens, more Knocked Out Troupers than players) is capped at the most the
    table can reach (docs/rules-decisions.md, "Night Part")."""
    night = night_of(state)
    players = len(state.troupers)
    if rule.kind == "always":
        return True
    if rule.kind == "bites_total_at_least":
        cap = catalog.config.vigor_tokens * players
        return sum(t.bites for t in state.troupers) >= min(rule.n, cap)
    if rule.kind == "knocked_out_at_least":
        return sum(t.knocked_out for t in state.troupers) >= min(rule.n, players)
    if rule.kind == "nemesis_discard_at_least":
        return len(night.reaction_discard) >= rule.n
    if rule.kind == "turn_at_least":
        return night.turn >= rule.n
    return False  # pragma: no cover - the model lists every kind


# --------------------------------------------------------------------------- Minions


def wound_minion(state: CampaignState, catalog: Catalog, space: str, n: int = 1) -> CampaignState:
    """ "Wounding a Minion": a Miniature per Wound; a summoned card leaves with its last one."""
    night = night_of(state)
    slots = list(night.minions)
    idx = next((k for k, s in enumerate(slots) if s.space == space), None)
    if idx is None or slots[idx].alive <= 0:
        raise RuleError(f"no Minion stands on space {space}")
    slot = slots[idx]
    alive = max(0, slot.alive - n)
    if alive == 0 and slot.summoned:
        del slots[idx]
        state = with_night(state, minions=slots)
        return log(state, "minion_defeated", minion=slot.minion)
    slots[idx] = slot.model_copy(update={"alive": alive})
    state = with_night(state, minions=slots)
    return log(state, "minion_hit", minion=slot.minion, n=alive)


def summon(
    state: CampaignState, catalog: Catalog, rng: Chance, minion_type: str | None,
    place: Mapping[str, str] | None = None, src: str | None = None,
) -> CampaignState:
    """ "Summon": a random unused Minion card (of the type when one is left) on the first free
    Minion space in Flow order, its Miniature on the Tile ``place`` names (a Distance from the
    source, or a Trouper's Tile), else the Nemesis's. ``src``: who summons (engine/why.py)."""
    night = night_of(state)
    used = {s.minion for s in night.minions}
    taken = {s.space for s in night.minions}
    flow = catalog.board.minion_spaces[2:]
    free = [sp for sp in flow if sp not in taken]
    # the decision record (engine/why.py): what the app chose the card and the space from
    decided: dict[str, Any] = {
        "about": "summon", "src": src or night.nemesis,
        "minion_type": minion_type, "flow": list(flow), "taken": [sp for sp in flow if sp in taken]}
    if not free:
        return log(log(state, DECISION, **decided), "summon_no_space")
    unused = [mi.id for mi in catalog.all("minions") if mi.id not in used]
    types = {mi.id: mi.type for mi in catalog.all("minions")}
    typed = [mid for mid in unused if types[mid] == minion_type]
    pool = typed if minion_type and typed else unused
    decided.update(typed=bool(minion_type and typed), pool=sorted(pool))
    if not pool:
        return log(log(state, DECISION, **decided, no_card=True), "summon_no_card")
    mid = rng.choice(sorted(pool), "summon")
    if at_table(state, "minions"):  # the players drew it from the Minion cards not in play
        kind = f" (a {minion_type.capitalize()} if one is left)" if minion_type and typed else ""
        mid = named_draw(
            rng, catalog, "minions", sorted(pool),
            f"Summon: draw a Minion card at random{kind} among those not in play; it goes on "
            f"Minion space {free[0]} and its Miniature on {summon_tile(catalog, place)}. Which "
            "card is it?", state,
        )
    slot = MinionSlot(space=free[0], minion=mid, summoned=True, alive=1)
    state = with_night(state, minions=[*night.minions, slot])
    state = log(state, DECISION, **decided, card=mid, space=free[0], place=dict(place or {}))
    return log(state, "summon", minion=mid, space=free[0], **dict(place or {}))

