"""Typed legal actions: what the table may do now, as data every screen is built from.

:class:`Next` is what the table may do at any moment of a campaign (``flow.next_view``): the
part and step, a sentence for the table, who acts, and the :class:`Option` list. An option is
either a complete action (``needs`` empty) or a template whose ``needs`` are answered one by
one; for each need, its action's asker (``flow.ask``) gives the follow-up question
(:class:`Ask`) with its :class:`Pick` answers, the default, and whether free text (e.g.
physical dice faces) is accepted. The option becomes an action by ``flow.build``.

`blood play`'s menus, `blood night next`, `blood day next`, `blood end next` and
`blood status` are all built from this; the CLI names its own commands for an option
(``cli/commands.py``); no engine module names a CLI command.

Option keys are stable within a step (a purchase keeps its key while others are bought), so a
key typed from an earlier screen never means something else.

A Test asks its throws as follow-ups too: the first roll, then each Re-roll (the best one as
the default) until the players keep the result. Such a need is *repeated* (``Option.repeat``):
its asker is consulted again after each answer and returns None once it is done. An answer
``Pick`` may add to another need than its question's (``Pick.need``: an Item used during the
Test), and a pick worth :data:`ROLL` means "the app rolls": the walker asks ``Ask.roll`` for
the faces with a :class:`~blood_companion.engine.chance.Chance` of its own, so what the app
rolled is written into the action like dice typed in, and replays exactly.
"""


from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from blood_companion.engine.state import CampaignState

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog
    from blood_companion.engine.actions import Action
    from blood_companion.engine.chance import Chance

# The value of a pick meaning "the app rolls the dice now" (see Ask.roll).
ROLL = "<the app rolls>"


class Pick(NamedTuple):
    """One answer to a follow-up question."""

    key: str
    label: str
    value: Any
    enabled: bool = True
    why: str = ""  # why it is disabled
    warn: str = ""  # a legal answer the players probably do not mean: confirm it first
    need: str | None = None  # this pick adds its value to another need's list


class Ask(NamedTuple):
    """The follow-up question for one need of an option."""

    need: str
    prompt: str
    picks: tuple[Pick, ...] = ()
    default: str | None = None  # the key Enter means ("*": every pick; `many`: keys, spaced)
    many: tuple[int, int] | None = None  # several picks: (at least, at most)
    free: str | None = None  # free text is accepted: what to type ("the faces of your dice")
    parse: Callable[[str], Any] | None = None  # free text -> value (raises ValueError)
    info: tuple[str, ...] = ()
    append: bool = False  # the answer is added to a list (a throw, a Re-roll)
    roll: "Callable[[Chance], Any] | None" = None  # the value of a ROLL pick: the app rolls
    auto: bool = False  # nothing to decide: the walker takes the default without asking
    test: Mapping[str, Any] | None = None  # the Test being taken: pool, target, odds
    most_why: str = ""  # `many`: why no more can be chosen ("Aurel holds 3 card(s)")


class Option(NamedTuple):
    """One thing the table may do now: a complete action, or a template with needs. (A
    NamedTuple: a frozen dataclass costs ~0.5 ms to create, on every command.)"""

    key: str
    label: str
    kind: str  # the action type
    fields: Mapping[str, Any] = {}  # read only: one empty mapping shared by the options
    needs: tuple[str, ...] = ()
    enabled: bool = True
    why: str = ""
    group: str = ""
    repeat: tuple[str, ...] = ()  # needs asked again until their asker says they are done

    @property
    def complete(self) -> bool:
        return not self.needs


class Next(NamedTuple):
    """What the table does now: every surface renders this (`blood play`'s top menu,
    `night next`, `day next`, the `end` commands, `blood status`). (A NamedTuple: a frozen
    dataclass costs ~0.5 ms to create, on every command.)"""

    part: str
    step: str
    title: str
    prompt: str  # the question `blood play` asks
    who: str | None = None  # the Trouper id who acts, if one does
    options: tuple[Option, ...] = ()
    default: str | None = None  # the key Enter means
    info: tuple[str, ...] = ()
    details: Mapping[str, Any] = {}  # read only, as the two below
    end: bool = False  # nothing is left to do (the campaign is over)
    moment: str = ""  # the moment in one sentence when it is not the prompt (:attr:`sentence`)
    choices: list[dict[str, Any]] = []  # what is on offer, as data

    @property
    def sentence(self) -> str:
        """The moment in one sentence, as `next` and the board say it (else the prompt)."""
        return self.moment or self.prompt

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)


# Option kind -> the follow-up question for a need, given the answers so far (None: the need
# does not apply to these answers, e.g. the side of a Minion).
Asker = Callable[[CampaignState, "Catalog", Option, Mapping[str, Any], str], "Ask | None"]
# An action's question for one of its needs (``Action.asks``): the same, the need aside.
NeedAsker = Callable[[CampaignState, "Catalog", Option, Mapping[str, Any]], "Ask | None"]


def gathered(moves: "Iterable[type[Action]]", state: CampaignState,
             catalog: "Catalog") -> tuple[Option, ...]:
    """The menu options ``moves`` offer now (each action's ``options``), in their order: what a
    phase's view lists."""
    return tuple(o for m in moves for o in m.options(state, catalog))
