"""The board as the table sees it: one typed view, built once from the state and the data pack.

:class:`Board` holds what the board shows in every Part, what comes next and the last log lines,
cards named. A tree of ``TypedDict``s, the typed view and its JSON document are one value
(`blood status --json`, the served page, cli/views.py); :func:`build` is the one place it is
gathered, every surface renders it and adds nothing. Its annotations are objects (no postponed
strings), the names only a type checker imports quoted.
"""

from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.content.models import Side
    from blood_companion.engine.state import CampaignState

DOC_VERSION = 2

class Pair(TypedDict):
    physical: int
    mind: int


class Threat(TypedDict):
    value: int
    length: int
    alerts: list[int]


class ChainSpace(TypedDict):
    space: int
    kind: str  # "tactic" | "event" | "rest"
    card: str | None
    name: str
    owner: str | None
    threat: int
    resolved: bool
    sacrificed: bool
    face_down: bool
    supports_used: list[int]
    active: bool


class ReactionCard(TypedDict):
    space: int
    card: str
    name: str
    resolved: bool
    interruption: bool
    check: bool
    fatigue: Pair
    text: list[str]  # its lines as printed below the heading (the Vlad side the campaign shows)
    heading: str  # its first line as printed (name, kind)


class Weakness(TypedDict):
    side: str
    card: str
    name: str
    effect_name: str
    defense: Pair
    effects: list[str]
    trophy: str | None
    trophy_won: bool


class Nemesis(TypedDict):
    id: str
    name: str
    difficulty: int
    level: str
    defenses: Pair
    fatigue: Pair  # on the Reaction Line now
    wounds: "dict[Side, int]"  # taken on each side (front, left, right)
    wounds_needed: "dict[Side, int]"
    deck: int
    discard: int
    weaknesses: list[Weakness]
    defense_after_fatigue: Pair


class Aura(TypedDict):
    source: str
    name: str
    text: str
    timing: str | None


class Minion(TypedDict):
    space: str
    minion: str
    name: str
    type: str
    summoned: bool
    alive: int
    defenses: Pair


class Tokens(TypedDict):
    supply: int
    intact: int
    consumed: int


class VigorBySide(TypedDict):
    available: int
    available_bitten: int
    depleted: int
    depleted_bitten: int


class TrouperItem(TypedDict):
    category: str
    item: str
    name: str
    depleted: bool
    side: str  # "starting" | "advanced"
    side_name: str


class NightTrouper(TypedDict):
    seat: int
    trouper: str
    name: str
    colour: str
    leader: bool
    hand: int
    hand_cards: list[str]
    deck: int
    discard: int
    wounds: int
    vigor: int
    vigor_depleted: int
    bites: int
    bites_on_depleted: int
    insanity: int
    exhausted: bool
    knocked_out: bool
    rested: bool
    traps: Tokens
    whispers: Tokens
    items: list[TrouperItem]
    knock_out_at: int
    vigor_tokens: int
    insanity_max: int
    vigor_tokens_by_side: VigorBySide


class NightBoard(TypedDict):
    turn: int
    phase: str
    result: str | None
    reason: str
    nemesis: Nemesis
    auras: list[Aura]
    location: str
    threat: Threat
    chain: list[ChainSpace]
    chain_spaces: int
    reaction_line: list[ReactionCard]
    reaction_spaces: int
    minions: list[Minion]
    minion_spaces: list[str]
    troupers: list[NightTrouper]
    pending: list[dict[str, Any]]
    queue: list[str]
    phase_name: str


class Selection(TypedDict):
    zone: str | None
    location: str | None
    minions: list[str]
    nemesis: str | None
    difficulty: int | None
    events: list[str]


class SelectionNames(TypedDict):
    zone: str
    location: str
    minions: list[str]
    nemesis: str
    events: list[str]


class DayTrouper(TypedDict):
    seat: int
    trouper: str
    name: str
    colour: str
    leader: bool
    bites: int
    insanity: int
    deck: int
    reserve_cards: list[str]
    reserve_items: list[str]
    sleeves: list[str]
    equipped: dict[str, str]
    reserve_names: list[str]
    equipped_names: list[str]


class DayBoard(TypedDict):
    step: str
    title: str
    wagon: dict[str, int]
    location_trophies: dict[str, int]
    nemesis_trophies: dict[str, int]
    bought: list[str]
    bought_names: list[str]
    affordable: list[dict[str, Any]]  # engine/day/views.purchase_choices' entries
    purchases_open: bool
    selection: Selection
    selection_names: SelectionNames
    troupers: list[DayTrouper]


class SeatSummary(TypedDict):
    seat: int
    trouper: str
    bites: int
    insanity: int


class Summary(TypedDict):
    troupers: list[SeatSummary]
    leader: str | None
    wagon: dict[str, int]
    location_trophies: dict[str, int]
    nemesis_trophies: dict[str, int]


class Next(TypedDict, total=False):
    """What comes next: a title, the prompt and the commands that fit (by night also the
    engine's ``whose_turn`` keys: turn, phase, who, question...)."""

    title: str
    prompt: str
    commands: list[str]
    step: str


class LogLine(TypedDict):
    step: int
    sentence: str
    status: str


class Board(TypedDict):
    doc_version: int
    name: str
    mode: str
    game: int
    part: str
    phase: str
    step: int
    state_hash: str
    leader: str | None
    wagon: dict[str, int]
    location_trophies: dict[str, int]
    nemesis_trophies: dict[str, int]
    summary: Summary
    night: NightBoard | None
    day: DayBoard | None
    rewards: dict[str, Any] | None
    next: Next
    placeholder: list[str]
    log: list[LogLine]


# A part's own section of the board: its key ("night", "day", "rewards"), the section, and
# what comes next (engine/flow.py ``Phase.board``).
PartBoard = tuple[str, Any, Next]


def build(state: "CampaignState", catalog: "Catalog", *, name: str, head: int, state_hash: str,
          log: list[LogLine], part: PartBoard | None = None) -> Board:
    """The board of ``state``: ``part`` is the section its phase built (``flow.board``)."""
    night = day = rewards = None
    nxt: Next
    if part is not None:
        key, section, nxt = part
        night, day, rewards = (section if key == k else None for k in ("night", "day", "rewards"))
    elif state.part == "over" and state.mode == "single":
        nxt = {"title": "Over", "prompt": "The game is over; another Single game starts from "
               "the box.", "commands": ["blood campaign next-game"]}
    else:
        done = "The game is over." if state.part == "over" else "Nothing to do yet."
        nxt = {"title": state.part.capitalize(), "prompt": done, "commands": []}
    leader = state.troupers[state.leader].trouper if state.troupers else None
    seats: list[SeatSummary] = [{"seat": t.seat + 1, "trouper": t.trouper, "bites": t.bites,
                                 "insanity": t.insanity} for t in state.troupers]
    return {"doc_version": DOC_VERSION, "name": name, "mode": state.mode, "game": state.game,
            "part": state.part, "phase": state.phase, "step": head, "state_hash": state_hash,
            "leader": leader, "wagon": state.wagon.as_dict(),
            "location_trophies": dict(state.location_trophies),
            "nemesis_trophies": dict(state.nemesis_trophies),
            "summary": {"troupers": seats, "leader": leader, "wagon": state.wagon.as_dict(),
                        "location_trophies": dict(state.location_trophies),
                        "nemesis_trophies": dict(state.nemesis_trophies)},
            "night": night, "day": day, "rewards": rewards, "next": nxt,
            "placeholder": placeholders(state, catalog), "log": log}


def placeholders(state: "CampaignState", catalog: "Catalog") -> list[str]:
    """Which cards on the table are our placeholder content (DESIGN: marked wherever shown)."""
    found: list[str] = []

    def mark(label: str, records: list[Any]) -> None:
        if any(r is not None and r.source == "placeholder" for r in records):
            found.append(label)

    mark("Troupers", [catalog.trouper(t.trouper) for t in state.troupers])
    if state.night is not None:
        mark("Nemesis", [catalog.nemesis(state.night.nemesis)])
        mark("Location", [catalog.get("locations", state.night.location)])
        mark("Minions", [catalog.get("minions", s.minion) for s in state.night.minions])
    mark("dice", list(catalog.dice))
    return found
