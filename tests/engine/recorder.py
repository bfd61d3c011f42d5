"""A campaign played in memory, for the engine's tests: the log of actions and the state after
each, every action checked as the store relies on it (undo: replaying the log without it gives
the state before it; the action survives its JSON form) and every refusal checked to change
nothing."""

from __future__ import annotations

from typing import Any

import pytest

from blood_companion.engine.actions import Action
from blood_companion.engine.errors import RuleError
from blood_companion.engine.flow import apply, parse_action, replay
from blood_companion.engine.state import CampaignState, state_hash


class Recorder:
    def __init__(self, catalog: Any, base: CampaignState | None = None) -> None:
        self.cat = catalog
        self.log: list[Action] = []
        self.base = base if base is not None else CampaignState()  # the state before the log
        self.states = [self.base]

    @property
    def state(self) -> CampaignState:
        return self.states[-1]

    def do(self, action: Action) -> CampaignState:
        before = self.state
        new = apply(before, action, self.cat, len(self.log))
        self.log.append(action)
        self.states.append(new)
        # Undo: replaying the log without the action gives the state before it.
        again = replay(self.log[:-1], self.cat, start=self.base)
        assert state_hash(again) == state_hash(before)
        # The action survives its JSON form (the store saves it so).
        assert parse_action(action.model_dump(mode="json")) == action
        return new

    def refuse(self, action: Action, match: str) -> RuleError:
        before = state_hash(self.state)
        with pytest.raises(RuleError, match=match) as info:
            apply(self.state, action, self.cat, len(self.log))
        assert state_hash(self.state) == before
        return info.value
