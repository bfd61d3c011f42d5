"""The game in one definition, as boardgame.io's flow: the Day, the Night and the End.

Each :class:`Phase` lists its ``moves`` (the action classes played in it) and plain functions:
``enter`` (what opens it), ``end`` (what closes it), ``over`` (whether it is done) and ``next``
(the part that follows), ``view`` (what the table may do now: engine/legal.py ``Next``),
``check`` (its one legality check) and ``board`` (its section of the board, where ``shows``).
:data:`FLOW` holds the three; :data:`ANYTIME` the actions of the campaign itself (setting it up,
its Troupers, a Test taken at any moment).

Everything the engine looks up by name is derived from it: an action class by its ``type``
(:func:`action_class`, parsing a logged action: :func:`parse_action`), the check of the part
being played (:func:`apply`), its view (:func:`next_view`), the asker of an option
(:func:`ask`), the commands a CLI group declares (:func:`declared`). A new action is one class
and one row: its phase's ``moves`` (:func:`extend` adds one to a phase). Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache, partial
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, Union

from pydantic import Field, TypeAdapter, ValidationError

from blood_companion.engine import campaign, end_options, endgame, night_setup
from blood_companion.engine.actions import Action, Context, seed_for
from blood_companion.engine.box import next_game
from blood_companion.engine.chance import Chance
from blood_companion.engine.day import dusk, selection, show
from blood_companion.engine.day import steps as day_steps
from blood_companion.engine.day import views as day_views
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import Ask, Asker, Next, Option, gathered
from blood_companion.engine.night import answers, planning, quick, tactic
from blood_companion.engine.night import options as night_options
from blood_companion.engine.night import phases as night_phases
from blood_companion.engine.rolls import recorded
from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.board_view import PartBoard

View = Callable[[CampaignState, "Catalog"], Next]
Check = Callable[[CampaignState, Action, "Catalog"], None]
Board = Callable[[CampaignState, "Catalog", "Next | None", Callable[["Next | None"], list[str]]],
                 "PartBoard"]


class Phase(NamedTuple):
    """One part of a game (``state.part``) and how it is played."""

    name: str  # the part: "day", "night", "end"
    title: str
    moves: tuple[type[Action], ...]  # the actions played in it, in the order commands list
    view: View  # what the table may do now (its options; their questions: ``Action.question``)
    board: Board  # its section of the board
    shows: Callable[[CampaignState], bool]  # whether the board shows its section of a state
    enter: Callable[..., CampaignState]  # what opens it (from the part before)
    end: Callable[..., CampaignState] | None  # what closes it (None: its last move leads on)
    over: Callable[[CampaignState], bool]  # whether it is done (its last move was played)
    next: Callable[[CampaignState], str]  # the part that follows once it is over
    check: Check | None = None  # its one legality check of an action (None: each its own)
    added: tuple[type[Action], ...] = ()  # moves added by :func:`extend` (their options follow)


def _after_game(state: CampaignState) -> str:
    """A Single game is over with its night; a campaign's goes on to its End of the Night."""
    return "over" if state.mode == "single" else "end"


DAY = Phase(
    "day", "Day Part",
    moves=(dusk.ChooseDifficulty, dusk.PlaceEvents, dusk.Equip, dusk.EndDay,
           selection.ChooseZone, selection.RollLocation, selection.ChooseLocation,
           selection.DrawMinions, selection.ChooseMinions, selection.LastAssault,
           selection.DrawNemesis, selection.ChooseNemesis,
           show.Recover, show.BuyBuilding, show.BuyAdvancedTactic, show.BuySpecialCard,
           show.UpgradeItem, show.SwapTactic, show.SwapItem),
    view=day_views.day_next,
    board=day_views.day_part_board,
    shows=lambda state: state.part == "day" and state.day is not None,
    enter=next_game,
    end=None,  # its Equipping's last step (``day_end``) sets the night up: the Night's enter
    over=lambda state: state.part != "day",
    next=lambda state: "night",
    check=partial(day_steps.check_step, view=day_views.day_next),
)

NIGHT = Phase(
    "night", "Night Part",
    moves=(planning.SetupNight, planning.BeginNight, planning.PlayCard, planning.Rest,
           planning.PassCascade,
           answers.AnswerQuestion, answers.RollTest, answers.NextPhase,
           tactic.Attack, tactic.ResolveEffect, tactic.UseSupport, tactic.UseItem,
           tactic.UseEvent, tactic.RestRedraw, tactic.FinishActivation,
           quick.UseQuick,
           endgame.EndNight),  # the End of the Night
    view=night_options.night_view,
    board=night_options.night_board,
    shows=lambda state: state.night is not None and state.part in ("night", "over"),
    enter=night_setup.setup_night,
    end=endgame.end_of_night,  # the End of the Night: the board cleared, the rewards read
    over=lambda state: state.night is not None and state.night.result is not None,
    next=_after_game,
    check=night_phases.check_phase,
)

END = Phase(
    "end", "End of the Night",
    moves=(endgame.WeakenVlad, endgame.TakeAdvancedTactic, endgame.RollLoot,
           endgame.FinishGame),
    view=end_options.end_view,
    board=end_options.end_board,
    shows=lambda state: state.part == "end" and state.rewards is not None,
    enter=endgame.end_of_night,
    end=next_game,  # the campaign's next game begins with its Day
    over=lambda state: state.part != "end",
    next=lambda state: "day",
)

# The phases of a game, in the order they are played.
FLOW: tuple[Phase, ...] = (DAY, NIGHT, END)
# The campaign's own actions, played in any part (each checks where it may be played).
ANYTIME: tuple[type[Action], ...] = (
    campaign.StartCampaign, campaign.AddTrouper, campaign.RetireTrouper, campaign.SetLeader,
    campaign.AdjustWagon, campaign.AdjustTrophies, campaign.NextSingleGame, campaign.SetDecks,
    recorded.TakeTest,
)


def phase(part: str) -> Phase | None:
    """The phase played in ``part`` (None: the campaign's setup, a game over)."""
    return next((p for p in FLOW if p.name == part), None)


def extend(part: str, *added: type[Action]) -> Callable[[], None]:
    """Add moves to a phase: a new action is its class and this one row (its options and
    questions come with the class: ``Action.options``, ``Action.question``). Returns what
    undoes it."""
    global FLOW
    before = FLOW
    FLOW = tuple(p._replace(moves=(*p.moves, *added), added=(*p.added, *added))
                 if p.name == part else p for p in FLOW)

    def undo() -> None:
        global FLOW
        FLOW = before
        _forget()

    _forget()
    return undo


def _forget() -> None:
    _derived.cache_clear()
    action_adapter.cache_clear()


def moves() -> tuple[type[Action], ...]:
    """Every action class: the campaign's, then each phase's."""
    return (*ANYTIME, *(m for p in FLOW for m in p.moves))


def _tag(cls: type[Action]) -> str:
    default = cls.model_fields["type"].default
    assert isinstance(default, str), cls
    return default


@cache
def _derived() -> tuple[dict[str, type[Action]], dict[str, Asker]]:
    """Derived from the flow: every action class by its ``type``; the question of every move
    that asks any (its ``asks``, or a ``question`` of its own), by option kind."""
    classes: dict[str, type[Action]] = {}
    for cls in moves():
        tag = _tag(cls)
        if classes.setdefault(tag, cls) is not cls:
            raise TypeError(f"duplicate action type {tag!r}")
    found: dict[str, Asker] = {
        _tag(cls): cls.question for p in FLOW for cls in p.moves
        if cls.asks or next(c for c in cls.__mro__ if "question" in vars(c)) is not Action}
    return classes, found


def action_class(tag: str) -> type[Action] | None:
    """The action class of a ``type`` (None for a type no action has)."""
    return _derived()[0].get(tag)


def askers() -> dict[str, Asker]:
    """The follow-up questions of every option kind that asks any."""
    return dict(_derived()[1])


def declared(group: str) -> list[type[Action]]:
    """The actions whose `blood` command, in ``group`` ("night"), the CLI builds from their
    declaration (they have a ``summary``), in the flow's order."""
    return [c for c in moves() if c.summary and c.command.split()[0] == group]


@cache
def action_adapter() -> TypeAdapter[Any]:
    """A TypeAdapter for the discriminated union of every action."""
    classes = tuple(_derived()[0].values())
    union = Annotated[Union[classes], Field(discriminator="type")]  # type: ignore[valid-type]  # noqa: UP007
    return TypeAdapter(union)


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
    state: CampaignState, action: Action, catalog: Catalog, index: int,
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
    playing = phase(state.part)
    if playing is not None and playing.check is not None:
        playing.check(state, action, catalog)
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
    actions: list[Action], catalog: Catalog, start: CampaignState | None = None, first: int = 0
) -> CampaignState:
    """Rebuild the state by applying `actions` (log positions first, first+1, ...)."""
    state = start if start is not None else CampaignState()
    for offset, action in enumerate(actions):
        state = apply(state, action, catalog, first + offset)
    return state


def next_view(state: CampaignState, catalog: Catalog) -> Next:
    """What the table does now, whatever the part of the campaign: the phase's view (the options
    its moves offer, gathered), with those of the moves :func:`extend` added."""
    playing = phase(state.part)
    if playing is not None:
        nxt = playing.view(state, catalog)
        extra = gathered(playing.added, state, catalog)
        return nxt._replace(options=(*nxt.options, *extra)) if extra else nxt
    if state.part == "over":
        if state.mode == "single":
            # "Single Game Mode": each game starts from the box; another one may follow.
            another = Option("1", f"Start game {state.game + 1} from the box's starting state",
                             "next_single_game")
            return Next("over", "over", "Game over", f"Game {state.game} is over. Play another "
                        "Single game? (quit stops here)", options=(another,))
        return Next("over", "over", "Game over", "The campaign is over.", end=True)
    return Next(state.part, state.part, state.part, "Nothing to play yet.", end=True)


def ask(
    state: CampaignState, catalog: Catalog, option: Option, answers: Mapping[str, Any]
) -> Ask | None:
    """The next follow-up question of `option` (None when every need is answered)."""
    for need in option.needs:
        if need not in answers or need in option.repeat:
            asker = _derived()[1].get(option.kind)
            if asker is None:  # pragma: no cover - every template kind has its asker
                raise KeyError(f"no follow-up questions for {option.kind!r}")
            question = asker(state, catalog, option, answers, need)
            if question is not None:
                if question.need != need and need not in option.repeat:  # pragma: no cover
                    # (its answer would never count: the same question forever)
                    raise ValueError(f"the question for {need!r} of {option.kind!r} answers "
                                     f"{question.need!r}")
                return question
    return None


def build(option: Option, answers: Mapping[str, Any] | None = None) -> Action:
    """The action of `option`, with the answers to its needs (keys starting with ``_`` are the
    walker's own). Raises RuleError if malformed."""
    given = {k: v for k, v in dict(answers or {}).items() if not k.startswith("_")}
    return parse_action({"type": option.kind, **dict(option.fields), **given})


def board(state: CampaignState, catalog: Catalog, view: Next | None,
          commands: Callable[[Next | None], list[str]]) -> PartBoard | None:
    """The section of the board of the part being played (engine/board_view.py ``build``):
    ``commands(view)`` names the commands of the options open now (``view``: the view of now
    when already built)."""
    shown = next((p for p in FLOW if p.shows(state)), None)
    return shown.board(state, catalog, view, commands) if shown is not None else None
