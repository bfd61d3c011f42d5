"""Actions: every change to a campaign is one small pydantic value applied by the engine.

* Each action class has a unique ``type`` literal; :func:`parse_action` validates only the class
  it names (not the union of every action, issue 29); :func:`action_adapter` is that union.
* :func:`apply` runs one action with a :class:`Context` whose :class:`Chance` answers every
  shuffle, draw and die roll: fresh from the generator when a step is recorded, from the
  outcomes recorded with it when it is replayed (``engine/chance.py``). A refused action raises
  :class:`RuleError`; the input state is untouched.
* An action declares once the `blood` command recording it: ``command``, ``summary`` and a
  :class:`Cli` on each field it takes, from which the CLI derives the typer command, the command
  table and the legal options' templates (cli/commands.py); its log sentence is its ``words``.
"""


import json
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, NamedTuple, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
)

from blood_companion.engine.chance import Chance
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

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

_REGISTRY: "dict[str, type[Action]]" = {}
# part -> the legality check of that part's phase/step table (registered by engine/night and
# engine/day): refuses an action outside its phase with the phase's own words.
PHASE_CHECKS: "dict[str, Callable[[CampaignState, Action, Catalog], None]]" = {}

# The module defining each action, by its ``type``: a step is parsed (and its phase checked)
# with only its own module imported, not every action's (issue 29). An action it does not list
# is still found (:func:`action_class` then imports every action module), only slower: the
# speed tests (tests/cli/test_speed_imports.py) check that it lists every one.
ACTION_HOMES: dict[str, str] = {
    **dict.fromkeys(("add_trouper", "adjust_trophies", "adjust_wagon", "next_single_game",
                     "retire_trouper", "set_decks", "set_leader", "start_campaign"), "campaign"),
    "take_test": "rolls.recorded",
    **dict.fromkeys(("day_difficulty", "day_end", "day_equip", "day_place_events"), "day.dusk"),
    **dict.fromkeys(("day_choose_location", "day_choose_minions", "day_choose_nemesis",
                     "day_draw_minions", "day_draw_nemesis", "day_last_assault",
                     "day_roll_location", "day_zone"), "day.selection"),
    **dict.fromkeys(("day_buy_advanced", "day_buy_building", "day_buy_card", "day_recover",
                     "day_swap_item", "day_swap_tactic", "day_upgrade_item"), "day.show"),
    **dict.fromkeys(("night_begin", "night_pass", "night_play", "night_rest", "night_setup"),
                    "night.planning"),
    **dict.fromkeys(("night_answer", "night_continue", "night_roll"), "night.answers"),
    **dict.fromkeys(("night_attack", "night_done", "night_effect", "night_event", "night_item",
                     "night_redraw", "night_support"), "night.tactic"),
    "night_quick": "night.quick",
    **dict.fromkeys(("end_night", "finish_game", "roll_loot", "take_advanced_tactic",
                     "weaken_vlad"), "endgame"),
}
# Modules that define actions; all imported before the union is built.
ACTION_MODULES = tuple(
    f"blood_companion.engine.{home}" for home in dict.fromkeys(ACTION_HOMES.values()))


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
    # Its sentence in the log, rendered by engine/words.py ``say``: "{trouper:who} plays
    # {card:name}" (the kinds are words.KINDS; ``[...]`` groups: plain.fill). Empty: a ``said``
    # or ``describe`` of its own says it.
    words: ClassVar[str] = ""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        field = cls.model_fields.get("type")
        default = field.default if field is not None else None
        if isinstance(default, str) and default:
            if default in _REGISTRY and _REGISTRY[default] is not cls:
                raise TypeError(f"duplicate action type {default!r}")
            _REGISTRY[default] = cls

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

    def said(self, c: "Catalog | None", s: CampaignState | None) -> str | None:
        """The action in words with the names of catalog `c` (its ids without one), `s` the
        state before it: its ``words`` rendered (engine/words.py ``say``); None without."""
        if not self.words:
            return None
        from blood_companion.engine.words.sentences import say

        return say(self, c, s)

    def describe(self) -> str:
        """The action in words without the data pack (ids as they are): its ``said``, else its
        kind and fields; the sentences players read, with names, come from ``engine/words.py``
        (``sentence``)."""
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


def _import_action_modules() -> None:
    import importlib

    for name in ACTION_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


@cache
def action_adapter() -> TypeAdapter[Any]:
    """A TypeAdapter for the discriminated union of every registered action."""
    _import_action_modules()
    classes = tuple(_REGISTRY.values())
    if len(classes) == 1:
        return TypeAdapter(classes[0])
    union = Annotated[Union[classes], Field(discriminator="type")]  # type: ignore[valid-type]  # noqa: UP007
    return TypeAdapter(union)


def action_types() -> dict[str, type[Action]]:
    return dict(_registry())


@cache
def _registry() -> dict[str, type[Action]]:
    """Every action class by its ``type`` (the action modules imported once)."""
    _import_action_modules()
    return _REGISTRY


def declared(group: str) -> list[type[Action]]:
    """The actions whose `blood` command, in `group` ("night"), the CLI builds from their
    declaration (they have a ``summary``): those of the package ``engine.<group>`` (imported
    here) and any other imported so far."""
    import importlib

    for home in dict.fromkeys(ACTION_HOMES.values()):
        if home.startswith(f"{group}."):
            importlib.import_module(f"blood_companion.engine.{home}")
    return [c for c in _REGISTRY.values() if c.summary and c.command.split()[0] == group]


def action_class(tag: str) -> type[Action] | None:
    """The action class of a ``type``: one already imported, else its module's
    (:data:`ACTION_HOMES`) imported, no other; else (a type the table does not list) found
    after importing every action module. None for a type no action has."""
    found = _REGISTRY.get(tag)
    home = ACTION_HOMES.get(tag) if found is None else None
    if home is not None:
        import importlib

        importlib.import_module(f"blood_companion.engine.{home}")
        found = _REGISTRY.get(tag)
    return found or _registry().get(tag)


def parse_action(data: dict[str, Any] | str) -> Action:
    """An action from its JSON form; raises RuleError for an unknown or malformed action.

    Validates only the class its ``type`` names, as the discriminated union of every action
    would (same object, same error words: the union itself answers what no class takes)."""
    raw: Any = data
    if isinstance(data, str):
        try:
            raw = json.loads(data)
        except ValueError:
            raw = None
    tag = raw.get("type") if isinstance(raw, dict) else None
    cls = action_class(tag) if isinstance(tag, str) else None
    try:
        if cls is None:  # not an object, no `type`, an unknown one: the union's own refusal
            adapter = action_adapter()
            found: Action = (adapter.validate_json(data) if isinstance(data, str)
                             else adapter.validate_python(data))
            return found
        if isinstance(data, str):
            return cls.model_validate_json(data)
        return cls.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = err["loc"] if cls is None else (tag, *err["loc"])  # the union names the tag
        loc = ".".join(str(x) for x in where)
        raise RuleError(f"malformed action ({loc}: {err['msg']})") from exc


def apply(
    state: CampaignState, action: Action, catalog: "Catalog", index: int,
    chance: Chance | None = None,
) -> CampaignState:
    """Apply one action at log position `index`. Raises RuleError when refused.

    `chance` answers what is random (default: fresh from the generator); the caller that
    records the step keeps ``chance.outcomes`` with it."""
    if action.parts is not None and state.part not in action.parts:
        allowed = " or ".join(action.parts)
        raise RuleError(
            f"'{action.type.replace('_', ' ')}' is for the {allowed} part; "
            f"the campaign is in the {state.part} part"
        )
    check = PHASE_CHECKS.get(state.part)
    if check is not None:
        check(state, action, catalog)
    if chance is None:
        chance = Chance.fresh(seed_for(state, action), index)
    chance.name_draws(action.drawn)
    ctx = Context(catalog=catalog, chance=chance, index=index)
    new = action.apply(state, ctx)
    if not isinstance(new, CampaignState):  # pragma: no cover - programming error
        raise TypeError(f"{type(action).__name__}.apply returned {type(new).__name__}")
    left = chance.unnamed_left()
    if left:
        named = "; ".join(f"{deck}: {', '.join(cards)}" for deck, cards in left.items())
        raise RuleError(
            f"named as drawn, but this step draws no (more) such card: {named}",
            hint="name only the cards the step draws",
        )
    return new


def replay(
    actions: list[Action], catalog: "Catalog", start: CampaignState | None = None, first: int = 0
) -> CampaignState:
    """Rebuild the state by applying `actions` (log positions first, first+1, ...)."""
    state = start if start is not None else CampaignState()
    for offset, action in enumerate(actions):
        state = apply(state, action, catalog, first + offset)
    return state
