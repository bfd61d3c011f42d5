"""The engine's invariant for the Enemy cards (issue 23, "Proof"), checked after every step
of a whole night from the night log and the state:

* every Reaction card on the Line is resolved exactly once per Game Turn (in the Nemesis Phase,
  or at once when it is an Interruption): its Resolved token is there exactly when one
  ``job_resolved`` event names it this turn, and never a second time;
* the Threat track moves exactly by the Threat events of the log (no silent move, each event
  starting where the token stands; the Cleanup puts it back on 0), and while a Reaction card
  resolves, by exactly the Threat Elements that card resolves (fewer only when the log says
  one of its Effects was skipped, dodged or left to the table, or the token reached the end of
  the track). An Interruption revealed mid-card resolves inside that card's resolution, so the
  log nests: the card's events, the Interruption's, then the card's again.

Usage: ``checker = NightInvariants(catalog)``, then ``checker.check(state)`` after each step
(it reads only the log entries added since the last call). Limits: a Threat raised between two
Enemy cards by a player's Quick Item in the Nemesis Phase would be counted on the next card (the
bots never use one there)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from blood_companion.engine import bookkeeping as fx
from blood_companion.engine.state import CampaignState

# Events that say an Effect of the card resolving did not apply its Elements in full.
SKIPS = frozenset({
    "no_target", "enemy_condition_fails", "dodges", "free_text_skipped", "free_text_resolved",
})
# Events of an Alert (one Threat move can reveal several cards before any resolves).
REVEALS = frozenset({"reveal", "reveal_interruption", "line_full", "no_reaction_left",
                     "nemesis_reshuffle"})


@dataclass
class Frame:
    """A Reaction card resolving (``card`` None: a Nemesis Phase card not yet named)."""

    card: str | None
    moved: int = 0
    skipped: bool = False
    at_end: bool = False


@dataclass
class NightInvariants:
    catalog: Any
    seen: int = 0  # log entries already read
    threat: int = 0  # where the Threat token stands after the entries read
    resolved: Counter[str] = field(default_factory=Counter)  # this Game Turn
    stack: list[Frame] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)  # Interruptions of the current Alert
    nemesis_phase: bool = False

    def reset(self) -> None:
        self.seen, self.threat, self.nemesis_phase = 0, 0, False
        self.resolved.clear()
        self.stack.clear()
        self.revealed.clear()

    def check(self, state: CampaignState) -> None:
        night = fx.night_of(state)
        if len(night.log) < self.seen:  # another night: start over
            self.reset()
        for k in range(self.seen, len(night.log)):
            entry = night.log[k]
            self._read(state, entry.kind, entry.args, where=f"log entry {k} ({entry.kind})")
        self.seen = len(night.log)
        self._start_revealed()
        assert self.threat == night.threat, (
            f"the Threat token is on {night.threat}, the log moved it to {self.threat}")
        for slot in night.reaction_line:
            n = self.resolved[slot.card]
            assert n == (1 if slot.resolved else 0), (
                f"{slot.card}: Resolved token {slot.resolved}, resolved {n} time(s) this turn")
        if night.result is None and not night.pending and not night.queue:
            assert not self.stack, f"Reaction cards left half resolved: {self.stack}"

    def _read(self, state: CampaignState, kind: str, args: dict[str, Any], where: str) -> None:
        if kind not in REVEALS:
            self._start_revealed()
        if kind == "night_over":
            self.stack.clear()
            self.revealed.clear()
            self.nemesis_phase = False
        elif kind in ("game_turn", "beginning_of_night"):
            self.resolved.clear()
        elif kind == "nemesis_phase":
            self.nemesis_phase = True
        elif kind == "nemesis_phase_over":
            assert not self.stack, f"{where}: the Nemesis Phase ends with {self.stack}"
            self.nemesis_phase = False
        elif kind == "cleanup_done":
            self.threat = 0
        elif kind == "reveal_interruption":
            self.revealed.append(str(args["card"]))
        if kind in REVEALS or kind in ("nemesis_phase", "nemesis_phase_over", "night_over"):
            return
        if self.nemesis_phase and not self.stack:
            self.stack.append(Frame(None))  # the next card of the Line starts resolving
        top = self.stack[-1] if self.stack else None
        if kind == "threat":
            before, after = int(args["before"]), int(args["after"])
            assert before == self.threat, (
                f"{where}: Threat {before} -> {after} while the token is on {self.threat}")
            self.threat = after
            if top is not None:
                top.moved += after - before
                top.at_end |= after == self.catalog.board.threat_track.length
        elif kind in SKIPS and top is not None:
            top.skipped = True
        elif kind == "job_resolved" and args.get("job", {}).get("source") == "reaction":
            self._resolved(state, str(args["job"]["card"]), where)

    def _start_revealed(self) -> None:
        """The Interruptions of an Alert resolve in the order revealed, each before what was
        resolving: the first revealed on top."""
        for card in reversed(self.revealed):
            self.stack.append(Frame(card))
        self.revealed.clear()

    def _resolved(self, state: CampaignState, card: str, where: str) -> None:
        assert self.stack, f"{where}: {card} resolved while no card was resolving"
        frame = self.stack.pop()
        assert frame.card in (None, card), (
            f"{where}: {card} resolved while {frame.card} was resolving (an Interruption "
            "revealed mid-card must resolve first, then the card goes on)")
        assert self.resolved[card] == 0, f"{where}: {card} resolved twice this Game Turn"
        self.resolved[card] += 1
        expected, exact = threat_elements(state, self.catalog, card)
        if not exact:
            return
        said = (f"{where}: {card} moved the Threat by {frame.moved}, its Threat Elements by "
                f"{expected}")
        assert frame.moved <= expected, said
        if not frame.skipped and not frame.at_end:
            assert frame.moved == expected, said + " (none was skipped)"


def threat_elements(state: CampaignState, catalog: Any, card: str) -> tuple[int, bool]:
    """The Threat a Reaction card's Elements add in full, and whether that is exact (every
    Threat Element in an Effect with no target, Condition or Test: else it may apply once per
    target, or not at all)."""
    total, exact = 0, True
    for eff in fx.reaction_face(state, catalog, card).effects:
        n = sum(o.n for o in eff.outcome if o.kind == "threat")
        if not n:
            continue
        total += n * eff.repeat
        if eff.target is not None or eff.condition is not None or eff.test is not None:
            exact = False
    return total, exact
