"""The one way CLI commands reach a campaign: open it, record an action, remember it.

A command group prints its recorded steps through one :func:`recorder`; `blood play` and the
others call :func:`record` in a session they opened (:func:`open_session`). The campaign is
``--campaign NAME`` / ``BLOOD_CAMPAIGN``, else the one used last, else the only one in the
saves folder. The catalog is loaded when first needed (reading commands never need it).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from blood_companion.cli.common import print_json, settings, stderr, stdout, warn_data
from blood_companion.cli.draws import name_draw
from blood_companion.cli.render import View, print_view, width
from blood_companion.cli.view_docs import refresh
from blood_companion.content.errors import ContentError
from blood_companion.content.loader import Catalog, load_catalog
from blood_companion.content.paths import overlay_stamp
from blood_companion.display import Styled, styled
from blood_companion.engine import physical
from blood_companion.engine.actions import Action
from blood_companion.engine.endgame import game_gains
from blood_companion.engine.history import finished_summary
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import DrawNeeded
from blood_companion.engine.words import sentence, so_far_lines
from blood_companion.errors import BloodError, UsageError
from blood_companion.store import CampaignStore, saves, seats
from blood_companion.store.errors import StoreError


def saves_dir() -> Path:
    return settings().saves_dir


def catalog() -> Catalog:
    """The validated catalog: shipped pack plus --data-dir (cached per data folder and its
    files); the overlay's files of no kind are named on stderr once per command."""
    data_dir = settings().data_dir
    # keyed by the overlay's files too: a card transcribed while `blood play` waits reaches it
    found: Catalog = warn_data(_catalog_for(data_dir, overlay_stamp(data_dir)))
    return found


# Refusals by data folder and the stamp of its files (a file fixed since is read again): a
# broken overlay is read and refused once, not once per use (`campaign log` asked per step).
_failed: dict[tuple[Path | None, str], BloodError] = {}


@cache
def _catalog_for(data_dir: Path | None, stamp: str = "") -> Catalog:
    """The catalog of this data folder as its files stand (``stamp``: the cache key)."""
    key = (data_dir, stamp)
    if key in _failed:
        raise _failed[key]
    try:
        return load_catalog(data_dir)
    except ContentError as exc:
        if len(_failed) > 16:
            _failed.clear()
        _failed[key] = exc
        raise


def campaign_name(explicit: str | None = None) -> str:
    """Which campaign a command acts on. Raises StoreError when none can be chosen."""
    name = explicit or settings().campaign
    if name:
        return name
    folder = saves_dir()
    last = saves.read_last_used(folder)
    names = saves.campaign_names(folder)
    if last and last in names:
        return last
    if len(names) == 1:
        return names[0]
    if not names:
        raise StoreError(
            f"no campaign in {folder}",
            hint="`blood campaign new NAME --troupers A,B` starts one "
            "(or pass --saves-dir DIR)",
        )
    raise StoreError(
        "which campaign? " + ", ".join(names),
        hint="pass --campaign NAME (or set BLOOD_CAMPAIGN)",
    )


def open_session(name: str | None = None) -> CampaignStore:
    """Open the selected campaign and remember it as the last used."""
    chosen = campaign_name(name)
    store = CampaignStore.open(saves_dir(), chosen, catalog)
    saves.write_last_used(store.saves_dir, store.name)
    return store


def record(
    action: Action, store: CampaignStore | None = None, draws: list[str] | None = None,
    expect: tuple[int, str] | None = None, by: str | None = None,
) -> CampaignState:
    """Apply and store one action on the selected campaign (or on `store`), its status stored
    anew; the new state. A refused action raises RuleError and leaves the save unchanged.

    ``draws`` (a command's ``--draw`` values) names the cards drawn from the decks the players
    hold (engine/table.py), in order, else they are asked on a terminal, else refused with how
    to name them; ``None`` (`blood play`) lets DrawNeeded through. ``expect`` (head, state
    hash): checked inside the write transaction (HeadMoved). ``by`` (a seat's Trouper name,
    "the laptop") is noted at once as who recorded the step (store/seats.py)."""
    with open_session() if store is None else nullcontext(store) as opened:
        data_notice(opened)
        state = _record(action, opened, draws, expect)
        if by is not None:
            seats.note_by(opened.saves_dir, opened.name, opened.drawn_from(), by)
        refresh(opened)
        return state


def _record(action: Action, store: CampaignStore, draws: list[str] | None,
            expect: tuple[int, str] | None = None) -> CampaignState:
    if draws is None:
        return store.record(action, expect)

    left = list(draws)
    for _ in range(64):
        try:
            state = store.record(action, expect)
        except DrawNeeded as need:
            done = so_far_lines(need, store.state, store.catalog)
            action = name_draw(action, need, left, done=done)
            continue
        if left:
            raise UsageError(
                f"--draw {left[0]!r}: this step drew no card for it (nothing was recorded)",
                hint="name only the cards the step draws, in order",
            )
        return state
    raise BloodError("too many cards to draw in one step")  # pragma: no cover


class Step(NamedTuple):
    """A recorded step as its command prints it."""

    store: CampaignStore
    before: CampaignState
    action: Action
    after: CampaignState

    @property
    def catalog(self) -> Catalog:
        return self.store.catalog

    def done(self) -> str:
        """The step in a sentence, its cards named as before it (engine/words/sentences.py)."""
        return sentence(self.action, self.catalog, self.before)

    def told(self) -> list[dict[str, object]]:
        return told(self.before, self.after, self.catalog)

    def tell(self) -> None:
        tell(self.before, self.after, self.catalog)


def recorder(doc: Callable[[Step], dict[str, Any]], show: Callable[[Step], None], *,
             prepare: Callable[[CampaignStore, Action, bool], Action] | None = None,
             draws: bool = True) -> Callable[[Any, bool, list[str] | None], None]:
    """The one skeleton of a command recording a step: open the campaign, build the action
    (``build(store)``, or the action itself), let ``prepare(store, action, as_json)`` settle
    it, record it (``draws``: naming drawn cards, :func:`record`), print ``doc(step)`` as JSON
    or ``show(step)``."""

    def run(build: Any, as_json: bool, named: list[str] | None = None) -> None:
        with open_session() as store:
            before = store.state
            action: Action = build(store) if callable(build) else build
            if prepare is not None:
                action = prepare(store, action, as_json)
            after = record(action, store, list(named or []) if draws else None)
            step = Step(store, before, action, after)
            if as_json:
                print_json(doc(step))
            else:
                show(step)

    return run


def view(build: Callable[[CampaignStore], dict[str, Any]],
         render: Callable[[dict[str, Any], int], View], as_json: bool) -> None:
    """Print the document ``build(store)`` of the selected campaign, as JSON or rendered."""
    with open_session() as store:
        doc = build(store)
    if as_json:
        print_json(doc)
    else:
        print_view(render(doc, width()))


def told(before: CampaignState, after: CampaignState, catalog: Catalog) -> list[dict[str, object]]:
    """A recorded step's physical instructions (engine/physical.py) as its ``--json`` says."""
    return physical.as_json(physical.instructions(before, after, catalog))


def tell(before: CampaignState, after: CampaignState, catalog: Catalog, indent: str = "") -> None:
    """Print what the table moves after a recorded step, under "At the table:" (if any)."""
    lines = physical.lines(before, after, catalog)
    if lines:
        stdout.print(styled(indent + "At the table:", style="bold"))
        for line in lines:
            stdout.print(styled(f"{indent}  • {line}"), highlight=False)


def data_notice(store: CampaignStore) -> None:
    """Say once, on stderr, that the data pack changed under this campaign (never fails)."""
    try:
        text = store.data_notice()
    except BloodError:
        return
    if text:
        stderr.print(Styled(("Note: ", "yellow"), text[0].upper() + text[1:] + "."))


def game_summary(store: CampaignStore) -> dict[str, object]:
    """What the game just finished changed (engine/history.py), its gains counted from the
    night's set-up to the finish (engine/endgame.py): empty unless the last step finished it."""
    summary = finished_summary(store.state)
    if not summary or store.head < 2:
        return summary
    steps = [i + 1 for i, kind in enumerate(store.step_types()[: store.head - 1])
             if kind in ("day_end", "night_setup")]  # the steps that set a night up
    if not steps:
        return summary
    return game_gains(summary, store.state_at(steps[-1]), store.state_at(store.head - 1))
