"""A small deterministic "player bot" for whole-night tests: it answers the app's questions
and plays cards the way a (not very clever) table would. Every move is an ordinary action, so a
night it plays can be replayed from its log."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from blood_companion.engine import vigor
from blood_companion.engine.actions import Action
from blood_companion.engine.campaign import Seat, StartCampaign
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply, replay
from blood_companion.engine.night import (
    AnswerQuestion,
    Attack,
    FinishActivation,
    NextPhase,
    PassCascade,
    PlayCard,
    ResolveEffect,
    Rest,
    RestRedraw,
    RollTest,
    SetupNight,
)
from blood_companion.engine.state import CampaignState

TROUPERS = ["aurel", "ioana", "petru", "zora"]
SIDES = ["front", "left", "right"]


@dataclass
class Table:
    catalog: Any
    state: CampaignState
    log: list[Action] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    phases_seen: list[tuple[int, str]] = field(default_factory=list)

    def do(self, action: Action) -> CampaignState:
        self.state = apply(self.state, action, self.catalog, len(self.log))
        self.log.append(action)
        return self.state

    def try_do(self, action: Action) -> bool:
        try:
            self.do(action)
        except RuleError:
            return False
        return True

    @property
    def night(self):  # type: ignore[no-untyped-def]
        assert self.state.night is not None
        return self.state.night

    def replayed(self) -> CampaignState:
        return replay(self.log, self.catalog)


def new_table(
    catalog: Any,
    players: int,
    *,
    seed: int = 1,
    nemesis: str = "lucilla",
    location: str | None = None,
    minions: list[str] | None = None,
    difficulty: int = 1,
    bot_seed: int = 0,
) -> Table:
    table = Table(catalog, CampaignState(), rng=random.Random(bot_seed))
    seats = [Seat(trouper=t) for t in TROUPERS[:players]]
    table.do(StartCampaign(name="t", mode="single", seed=seed, seats=seats))
    loc = location or catalog.locations_in("catacombs")[0].id
    mins = minions or [m.id for m in catalog.all("minions")[:2]]
    table.do(SetupNight(nemesis=nemesis, location=loc, minions=mins, difficulty=difficulty))
    return table


def answer(table: Table, in_range: float = 0.7) -> None:
    q = table.night.pending[0]
    names = [table.state.troupers[i].trouper for i in q.candidates]
    if q.kind == "test":
        table.do(RollTest())
    elif q.kind in ("discard", "wound"):
        t = table.state.troupers[q.trouper]
        table.do(AnswerQuestion(cards=list(t.hand[: q.n])))
    elif q.kind == "confirm":
        table.do(AnswerQuestion(yes=table.rng.random() < 0.5))
    elif q.kind == "order":
        cards = list(q.cards)
        table.rng.shuffle(cards)
        table.do(AnswerQuestion(cards=cards))
    elif q.kind == "bite":  # on Depleted tokens first, the way the app placed them before
        layout = vigor.layout(table.state.troupers[q.trouper], table.catalog.config.vigor_tokens)
        down = min(q.n, layout.depleted)
        table.do(AnswerQuestion(cards=["depleted"] * down + ["available"] * (q.n - down)))
    elif q.kind == "token":  # a Consumed one moves, as the app chose before it asked
        table.do(AnswerQuestion(cards=["consumed"]))
    elif q.kind == "in_range":
        chosen = [n for n in names if table.rng.random() < in_range]
        table.do(AnswerQuestion(troupers=chosen))
    elif q.kind in ("closest", "farthest"):
        k = table.rng.randint(1, len(names))
        table.do(AnswerQuestion(troupers=table.rng.sample(names, k)))
    else:
        table.do(AnswerQuestion(troupers=[table.rng.choice(names)]))


def play_planning(table: Table, *, rest_bias: float = 0.15) -> None:
    night = table.night
    i = night.to_play
    t = table.state.troupers[i]
    if night.cascade:
        if t.hand and table.try_do(PlayCard(trouper=t.trouper, card=t.hand[0])):
            return
        table.do(PassCascade(trouper=t.trouper))
        return
    if len(t.hand) == 1 and not t.rested_this_turn:
        table.do(Rest(trouper=t.trouper, card=t.hand[0]))
        return
    if not t.rested_this_turn and table.rng.random() < rest_bias:
        table.do(Rest(trouper=t.trouper, card=t.hand[-1]))
        return
    card = table.rng.choice(t.hand)
    table.do(PlayCard(trouper=t.trouper, card=card))


def play_activation(table: Table) -> None:
    night = table.night
    act = night.activation
    slot = night.chain[act.slot]
    if slot.kind == "rest":
        table.do(RestRedraw())
        table.do(FinishActivation())
        return
    card = table.catalog.tactic(slot.card)
    for k, eff in enumerate(card.effects, start=1):
        if table.night.phase != "tactic" or table.night.pending:
            return
        if eff.type in ("support", "aura"):
            continue
        if any(o.kind in ("physical_attack", "mind_attack") for o in eff.outcome):
            targets = []
            if eff.target is None or eff.target.kind in ("enemy", "nemesis"):
                targets.append(("nemesis", table.rng.choice(SIDES)))
            if eff.target is None or eff.target.kind in ("enemy", "minion"):
                for ms in table.night.minions:
                    if ms.alive > 0:
                        targets.append((ms.space, None))
            for target, side in targets[:2]:
                if table.try_do(Attack(effect=k, target=target, side=side, confirm=True)):
                    break
        else:
            table.try_do(ResolveEffect(effect=k, confirm=True))
    if table.night.phase == "tactic" and not table.night.pending:
        table.do(FinishActivation())


def step(table: Table) -> None:
    """One bot move."""
    night = table.night
    if night.pending:
        answer(table)
    elif night.phase == "planning":
        play_planning(table)
    elif night.phase == "tactic" and night.activation is not None:
        play_activation(table)
    else:
        table.do(NextPhase())
        table.phases_seen.append((table.night.turn, table.night.phase))


def play_night(table: Table, max_actions: int = 3000) -> Table:
    for _ in range(max_actions):
        if table.night.phase == "over":
            return table
        step(table)
    raise AssertionError("the night did not end")
