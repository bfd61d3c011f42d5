"""Actions: every change to a campaign is one small pydantic value applied by the engine.

* Each action class has a unique ``type`` literal. The game's definition (``engine/flow.py``)
  lists every action class as a move of its phase; it parses a logged action
  (``flow.parse_action``) and applies one (``flow.apply``) with a :class:`Context` whose
  :class:`Chance` answers every shuffle, draw and die roll: fresh from the generator when a step
  is recorded, from the outcomes recorded with it when it is replayed (``engine/chance.py``). A
  refused action raises :class:`RuleError`; the input state is untouched.
* An action declares once the `blood` command recording it: ``command``, ``summary`` and a
  :class:`Cli` on each field it takes, from which the CLI derives the typer command, the command
  table and the legal options' templates (cli/commands.py); its log sentence is its ``words``;
  an action may offer its own menu options (:meth:`Action.options`) and ask their follow-up
  questions (``asks``, by need, or :meth:`Action.question`) beside its ``apply``.
"""


from typing import TYPE_CHECKING, Annotated, Any, ClassVar, NamedTuple

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from blood_companion.engine.chance import Chance
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from collections.abc import Mapping

    from blood_companion.content.loader import Catalog
    from blood_companion.engine.legal import Ask, NeedAsker, Option


class Cli(NamedTuple):
    """How the `blood` command recording an action takes one field (``Annotated[T, Cli(...)]``):
    plain data the CLI reads; the engine never does. (A NamedTuple: a frozen dataclass costs
    ~0.5 ms to create, on every command.)"""

    flag: str = ""  # "--for"; empty: a positional argument, in field order
    help: str = ""
    metavar: str = ""  # a positional's name in the usage line (else the field's)
    many: bool = False  # a list typed once per entry (each throw's --dice), not comma-separated
    off: str = ""  # the flag of a yes/no field's "no" ("--no-weakness")
    ask: str = ""  # a yes/no that must be answered: what "yes" means, said when it is missing
    choices: tuple[str, ...] = ()  # the words it takes (any case)
    # what the typed word names, found by the CLI: "trouper", "hand" (a card), "held" (cards of
    # the paying Trouper's hand, by position, name or id)
    names: str = ""
    complete: str = ""  # the shell completion of its values (a cli/completion.py function)


def cli_fields(cls: type[BaseModel]) -> dict[str, Cli]:
    """The fields a command takes, in declaration order, with how it takes them."""
    return {name: meta for name, f in cls.model_fields.items()
            for meta in f.metadata if isinstance(meta, Cli)}


# The fields every Test takes the same way (a card's, an Item's, a Support's, a dodge).
Trait = Annotated[str | None, Cli("--trait", "Trait for the Test [the best odds].")]
Dice = Annotated[list[str], Cli(
    "--dice", 'Faces of your physical dice, e.g. "2 x 1" or "B3 R0 Gx"; repeat for each '
    "Re-roll. Without it the app rolls.", metavar="FACES", many=True)]
Reroll = Annotated[list[str], Cli(
    "--reroll", "Dice re-rolled (1-based, e.g. 1,3; i1,3 for the Insanity Re-roll).",
    metavar="N,N", many=True)]
Items = Annotated[list[str], Cli(
    "--items", "Quick Items used during the Test (Bonus Triumphs, Re-rolls), by id or name, "
    "comma-separated.")]
Bonus = Annotated[int, Cli("--bonus", "Bonus Triumphs from other Effects.")]
Distance = Annotated[int | None, Cli("--distance", "Distance to the target.")]
Discard = Annotated[list[str], Cli("--discard", "Card(s) discarded as a Cost: position in "
                                   "hand, name or id, comma-separated.", names="held")]
Heal = Annotated[list[str], Cli("--heal", "Wound card(s) to heal.")]
Side = Annotated[str | None, Cli("--side", "Nemesis side hit: front, left or right.",
                                 choices=("front", "left", "right"))]
Target = Annotated[str | None, Cli("--target", "An attack: nemesis or a Minion space.")]
Weakness = Annotated[bool | None, Cli(
    "--weakness", "An attack on the Nemesis: whether the Condition of its Weakness Effect on "
    "that side holds (one only the table sees).", off="--no-weakness")]
Confirm = Annotated[bool, Cli(
    "--confirm", "The table confirms the Effect's Condition holds (one only the Map shows, "
    "e.g. adjacent to a Rock Tile), or that the Active Trouper stands where an Event's Target "
    "says (e.g. next to its Scenic Element).")]
Flip = Annotated[bool, Cli(
    "--flip", "The Trap or Whisper placed goes on one of yours whose Consumed side is up (it "
    "turns Intact).")]
# The Day's: a Trouper named by id, colour or seat; the Resources paid.
Who = Annotated[str, Cli(help="Trouper id, colour or seat.", names="trouper", complete="trouper")]
Pay = Annotated[dict[str, int] | None, Cli(
    "--pay", "Resources paid, e.g. coins=2,jewels=1 (needed for 'any' costs).", names="pay")]

def seed_for(state: CampaignState, action: "Action") -> int:
    """The seed an action's chance derives from: the campaign's, or the new campaign's own."""
    if state.started:
        return state.seed
    seed = getattr(action, "seed", 0)
    return seed if isinstance(seed, int) else 0


class Context(NamedTuple):
    catalog: "Catalog"
    chance: Chance
    index: int = 0  # type: ignore[assignment]  # a field, shadowing tuple.index


class Action(BaseModel):
    """Base of every action. Subclasses set ``type: Literal["..."] = "..."``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    type: str
    # The cards the players drew from decks they hold (engine/table.py), deck -> cards in the
    # order drawn, by id or name. Recorded with the action so every replay draws the same.
    drawn: dict[str, list[str]] = Field(default_factory=dict)

    # Actions allowed in these parts of the game (None: any).
    parts: ClassVar[tuple[str, ...] | None] = None
    # What the action is, in words, for refusals ("playing a card").
    doing: ClassVar[str] = ""
    # The words of the `blood` command recording it ("night effect"; empty: the type's words)
    # and, for a command the CLI builds from this declaration, its help.
    command: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    # Of several actions one command records (cli/common.py ``add_recorder``): the flag that
    # records this one with none of its fields ("--random").
    picked_by: ClassVar[Cli | None] = None
    # Its sentence in the log, rendered by engine/words/sentences.py ``say``: "{trouper:who}
    # plays {card:name}" (the kinds are words.sentences.KINDS; ``[...]`` groups: words/text.py
    # ``fill``). Empty: a ``said`` or ``describe`` of its own says it.
    words: ClassVar[str] = ""
    # The follow-up questions of its own :meth:`options`, by need (see :meth:`question`).
    asks: ClassVar["Mapping[str, NeedAsker]"] = {}

    @model_serializer(mode="wrap")
    def _shape(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # An action without named draws keeps the shape it had before `drawn` existed.
        data: dict[str, Any] = handler(self)
        if not self.drawn:
            data.pop("drawn", None)
        return data

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        """Return the new state; raise RuleError to refuse."""
        raise NotImplementedError

    @classmethod
    def options(cls, state: CampaignState, catalog: "Catalog") -> "tuple[Option, ...]":
        """The menu options this action offers now besides those of its phase's view (a view of
        its own: ``flow.next_view`` adds them); none by default."""
        return ()

    @classmethod
    def question(cls, state: CampaignState, catalog: "Catalog", option: "Option",
                 answers: "Mapping[str, Any]", need: str) -> "Ask | None":
        """The follow-up question for ``need`` of one of its :meth:`options` (None: the need
        does not apply to these answers): its ``asks``' for that need. An action whose questions
        share their work overrides it instead."""
        asker = cls.asks.get(need)
        return asker(state, catalog, option, answers) if asker is not None else None

    def said(self, c: "Catalog | None", s: CampaignState | None) -> str | None:
        """The action in words with the names of catalog `c` (its ids without one), `s` the
        state before it: its ``words`` rendered (engine/words/sentences.py ``say``); None
        without."""
        if not self.words:
            return None
        from blood_companion.engine.words.sentences import say

        return say(self, c, s)

    def describe(self) -> str:
        """The action in words without the data pack (ids as they are): its ``said``, else its
        kind and fields; the sentences players read, with names, come from the ``engine/words/``
        package (``sentence``)."""
        try:
            text = self.said(None, None)
        except Exception:  # noqa: BLE001 - the fallback of every log sentence: never fails
            text = None
        if text is not None:
            return text
        from blood_companion.engine.words.text import listing

        title = self.type.replace("night_", "").replace("day_", "").replace("_", " ")
        parts = []
        for key, value in self.model_dump(mode="json").items():
            if key in ("type", "drawn") or value in (None, [], {}, "", False, 0):
                continue
            shown = listing(str(v) for v in value) if isinstance(value, list) else str(value)
            parts.append(f"{key.replace('_', ' ')} {shown}")
        return title[:1].upper() + title[1:] + (f": {', '.join(parts)}" if parts else "")
