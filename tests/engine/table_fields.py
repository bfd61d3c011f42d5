"""What the table does not hold, and the changed fields engine/physical.py tells no sentence of:
a step that changes a field in neither :data:`physical.TABLE` nor :data:`QUIET` fails its test
with the field's path."""

from __future__ import annotations

from blood_companion.engine.physical import Path, _match, _row, _same, leaves
from blood_companion.engine.state import CampaignState
from blood_companion.engine.words.templates import T

# What the table does not hold: the engine's cursor and log, choices, identities.
QUIET: tuple[Path, ...] = (
    ("schema_version",), ("name",), ("mode",), ("seed",), ("started",), ("game",), ("part",),
    ("phase",), ("history", "*"), ("day", "*"), ("rewards", "*"), ("resources_earned",),
    ("resources_spent",), ("vlad_defeats",), ("decks", "*"), ("set_aside", "*"),
    (*T, "seat"), (*T, "colour"), (*T, "trouper"), (*T, "rested_this_turn"),
    ("night", "chain", "{i}", "kind"), ("night", "chain", "{i}", "owner"),
    ("night", "chain", "{i}", "threat"), ("night", "chain", "{i}", "space"),
    ("night", "reaction_line", "{i}", "interruption"), ("night", "minions", "{i}", "space"),
    *[("night", k) for k in ("nemesis", "vlad", "zone", "location", "difficulty", "turn",
                             "phase", "to_play", "passed", "cascade", "rightmost_player",
                             "active", "event_used", "result", "reason", "phase_done",
                             "after_play", "rest_exhaust", "activated", "started",
                             # which Weakness cards gave their Trophy: the token itself is told
                             # once, as the Nemesis Trophy it is ("nemesis_trophies")
                             "weakness_trophies")],
    ("night", "log", "*"), ("night", "pending", "*"), ("night", "queue", "*"),
    ("night", "activation", "*"), ("night", "bonuses", "*"), ("night",), ("day",),
    ("rewards",),
)


def _quiet(path: Path) -> bool:
    for pattern in QUIET:
        if pattern[-1] == "*" and len(path) >= len(pattern) - 1:
            if _match(pattern[:-1], path[: len(pattern) - 1]) is not None:
                return True
        elif _match(pattern, path) is not None:
            return True
    return False


def unmapped(before: CampaignState, after: CampaignState) -> list[str]:
    """The changed paths neither :data:`TABLE` nor :data:`QUIET` names (a test failure)."""
    return sorted(".".join(p) for p in changed(before, after) if _row(p) is None and not _quiet(p))


def changed(before: CampaignState, after: CampaignState) -> list[Path]:
    """Every leaf path whose value the step changed (appeared, went or differs)."""
    a, b = leaves(before), leaves(after)
    return [p for p in {**a, **b} if not _same(a.get(p), b.get(p))]


