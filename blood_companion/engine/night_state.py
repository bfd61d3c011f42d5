"""The Night Board as state (data only): Chain, Reaction Line, Threat, Minion spaces, the
Nemesis deck. Section names refer to the rulebook's "Night Part" and "Rules Compendium"."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

NightPhase = Literal[
    "beginning_of_night", "start_of_turn", "planning", "tactic", "nemesis", "minions", "cleanup",
    "over"]


class NightModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ChainSlot(NightModel):
    """One occupied Chain space: an Event card (from the Dusk Phase) or a played Tactic card."""

    kind: Literal["event", "tactic", "rest"]
    card: str  # Event or Tactic card id (a Rest is a face-down Tactic card)
    owner: int | None = None  # index into CampaignState.troupers (None for Events)
    threat: int = 0
    resolved: bool = False  # a Resolved token on it
    sacrificed: bool = False  # a Cube on its Sacrifice symbol: goes to Wounds at Cleanup
    face_down: bool = False  # an Event solved (turned face down) or a Rest card
    supports_used: list[int] = []  # Support effects with a Cube
    quick_used: list[int] = []  # Quick Effects already resolved
    # The 0-based Chain space it lies on when that is not its place in the list (an Event kept
    # beside a gap, engine/chain.py); None: its place in the list, as in every older save.
    space: int | None = None

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Without a gap a card has the shape it had before `space` existed, so the hashes of
        # older saves (which rebuilding and verifying them check) do not change.
        data: dict[str, Any] = handler(self)
        if self.space is None:
            data.pop("space", None)
        return data


class ReactionSlot(NightModel):
    """One Reaction card on the Reaction Line."""

    card: str
    resolved: bool = False
    interruption: bool = False


class MinionSlot(NightModel):
    """A Minion card on a Minion space; `alive` counts its Miniatures on the Map."""

    space: str  # "A", "B", then the summon spaces in Flow order
    minion: str
    summoned: bool = False
    alive: int = 1


class NightLogEntry(NightModel):
    """One event of the night log as data (a ``kind`` of ``engine/words/templates.py`` and its
    ``args``), rendered when shown so wording and card names can change under old saves."""

    turn: int
    phase: str
    kind: str
    args: dict[str, Any] = Field(default_factory=dict)


class Question(NightModel):
    """Something only the table knows, which the engine waits for: which ``candidates`` are
    ``in_range`` (any subset), ``closest`` / ``farthest`` (several when tied), the ``leader``'s
    pick (one); ``trouper``'s dodge ``test``, cards to ``discard`` or to take a ``wound`` from the
    hand, the side of each new ``bite`` or of a ``token`` moved from the Map; ``confirm`` what
    only the table sees; the ``order`` of the timed Effects of ``cards``."""

    kind: Literal[
        "in_range", "closest", "farthest", "leader", "test", "discard", "wound", "confirm",
        "order", "bite", "token"]
    prompt: str
    candidates: list[int] = []
    trouper: int | None = None
    traits: list[str] = []
    dice: str | None = None
    target: int | None = None
    n: int = 0
    cards: list[str] = []  # "order": the cards whose Effects wait
    about: str = ""  # what a "confirm" question decides ("weakness:front": a Trophy)
    # The queued EnemyJob (its ``id``) whose Effect asked it; 0 when no job did (a discard, a
    # Trophy, an order) or in a save from before job ids, where the front job asked it.
    job: int = 0


class EnemyJob(NightModel):
    """One Enemy card (or Skill) being resolved, with a cursor to resume after a question.
    ``id`` names it in the queue whatever is queued in front of it meanwhile (numbered by
    ``engine/night/enemy.py``'s :func:`number_jobs`, older saves included)."""

    id: int = 0
    source: Literal["reaction", "minion", "skill", "weakness", "trouper", "event"]
    card: str
    label: str
    slot: int | None = None
    space: str | None = None
    effects: list[int] | None = None  # only these Effect indexes (None: all)
    effect: int = 0  # position in the Effect list being resolved
    rep: int = 0  # repetition of that Effect already done
    stage: Literal["start", "priorities", "tests"] = "start"
    candidates: list[int] = []
    priority_at: int = 0  # next Target Priority to apply
    targets: list[int] = []  # chosen targets still to resolve
    check_done: bool = False
    confirmed: bool = False  # the table confirmed the current Effect's Condition
    owner: int | None = None  # a Trouper's (or an Event's) timed Effect: who resolves it
    miniature: int = 0  # a Minion's Miniature being resolved (1-based; 0: not a Minion)
    miniatures: int = 0  # of how many on the card


class Bonus(NightModel):
    """Test modifiers a Trouper has gained for their next Test (Items, Supports)."""

    triumphs: int = 0
    rerolls: int = 0
    dice: list[Literal["R", "G", "B"]] = []


class Activation(NightModel):
    """The Active Trouper's activation in the Tactic Phase ("Tactic Phase")."""

    slot: int  # Chain index of the card being resolved
    trouper: int
    done: dict[int, int] = Field(default_factory=dict)  # effect index -> times resolved
    last: int = -1  # the lowest index still allowed is last (top to bottom)
    event_used: bool = False
    rest_drawn: bool = False
    area_hits: dict[int, list[str]] = Field(default_factory=dict)  # Special Area: targets hit


def _no_wounds() -> dict[str, list[str]]:
    return {"front": [], "left": [], "right": []}


class NightState(NightModel):
    """Everything the Night Board and the Nemesis card hold during a night."""

    nemesis: str
    vlad: bool = False
    zone: str
    location: str
    difficulty: int
    turn: int = 0
    phase: NightPhase = "beginning_of_night"
    threat: int = 0
    chain: list[ChainSlot] = []
    chain_spaces: int = 8  # may grow with Event rewards ("Events")
    reaction_line: list[ReactionSlot] = []
    reaction_deck: list[str] = []  # top first
    reaction_discard: list[str] = []
    # Reaction cards taken as Wounds, under the side they were inflicted on ("Wounding a Nemesis").
    nemesis_wounds: dict[str, list[str]] = Field(default_factory=_no_wounds)
    minions: list[MinionSlot] = []
    event_deck: list[str] = []  # the Zone's Events not on the Chain
    # Planning Phase bookkeeping
    to_play: int | None = None  # the Trouper whose turn it is to play on the Chain
    passed: list[int] = []  # Troupers who can no longer play this turn
    cascade: bool = False  # the current player may play again (Cascade)
    rightmost_player: int | None = None  # who placed the rightmost card (Leader passes after)
    # Tactic Phase bookkeeping
    active: int | None = None  # chain index being resolved
    event_used: bool = False  # one Event Effect per activation
    # End
    result: Literal["won", "lost"] | None = None
    reason: str = ""
    log: list[NightLogEntry] = []
    # Engine cursor (engine/night/): questions waiting for the table (asks.py), Enemy cards
    # queued (enemy.py).
    pending: list[Question] = []
    queue: list[EnemyJob] = []
    activation: Activation | None = None
    bonuses: dict[int, Bonus] = Field(default_factory=dict)  # Trouper index -> next Test
    phase_done: bool = False  # the automatic phase finished; `continue` moves on
    after_play: Literal["next", "cascade", "end"] | None = None  # planning, after Interruptions
    rest_exhaust: int | None = None  # a Rest's Trouper, Exhausted once its Threat is resolved
    activated: list[str] = []  # Minion spaces done this Minions Phase
    weakness_trophies: list[str] = []  # sides whose Trophy was won
    started: bool = False  # the Beginning of the Night has been resolved
