"""End of the Night: rewards, the campaign history, and the Roguelite loop to Vlad and back.

Rulebook sections: "End of the Night", "The Players Were Defeated", "The Players Won",
"Roguelite Mode", "Reaction Card - Vlad". Every roll is physical (the faces the players typed)
or digital.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from blood_companion.content.models import ARTS, LocationReward, LootRoll
from blood_companion.engine import leader
from blood_companion.engine.actions import Action, Cli, Context
from blood_companion.engine.box import (
    box_start,
    gain_trophies,
    next_game,
    trophies_within_box,
    village_start,
)
from blood_companion.engine.day.core import match_id, replace_trouper, top_card
from blood_companion.engine.dice import DiceBox, Face, parse_faces, parse_pool, roll_pool
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import Ask, Option, Pick
from blood_companion.engine.picks import art_picks, arts_of, faces_reader
from blood_companion.engine.reward_state import PendingLoot, RewardState, RollMade
from blood_companion.engine.state import (
    RESOURCE_NAMES,
    CampaignState,
    GameRecord,
    TrouperState,
    Wagon,
)
from blood_companion.engine.table import at_table
from blood_companion.engine.words.sentences import zone_name

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog


def _roll(catalog: Catalog, ctx: Context, dice: str, faces: list[Face] | str | None) -> list[Face]:
    box = DiceBox.from_models(catalog.dice)
    pool = parse_pool(dice, box)
    if faces is None:
        return list(roll_pool(pool, box, ctx.chance))
    if isinstance(faces, str):
        return list(parse_faces(faces, pool, box))
    if [f.die for f in faces] != list(pool):
        raise RuleError(f"enter one face per die of {dice} in that order")
    return list(faces)


def _gain(state: CampaignState, resource: str, n: int) -> CampaignState:
    if resource not in RESOURCE_NAMES:
        raise RuleError(f"choose which Resource the Triumphs give: {', '.join(RESOURCE_NAMES)}")
    wagon = state.wagon.as_dict()
    wagon[resource] += n
    return state.model_copy(
        update={"wagon": Wagon(**wagon), "resources_earned": state.resources_earned + n}
    )


def _rewards(state: CampaignState) -> RewardState:
    if state.part != "end" or state.rewards is None:
        raise RuleError("there are no rewards to take now; the night is not over")
    return state.rewards


class EndNight(Action):
    """Close a finished night: clear the board and read the Location card's reward column."""

    type: Literal["end_night"] = "end_night"
    command = "end night"
    summary = "Close a won or lost night: clear the board and read the Location card's rewards."
    parts = ("night",)

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        night = state.night
        if night is None or night.phase != "over":
            return ()
        return (Option("1", "Close the night and read the rewards", "end_night"),)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        return end_of_night(state, ctx.catalog)

    words = "The night ended; the board was cleared and the rewards read"


def end_of_night(state: CampaignState, catalog: Catalog) -> CampaignState:
    """ "End of the Night" (the Night's end in engine/flow.py): the board cleared, the game
    recorded, the Location card's reward column read (Single Game mode: the game ends)."""
    night = state.night
    if night is None or night.result is None:
        raise RuleError("the night is still going on: it ends when it is won or lost")
    location = catalog.get("locations", night.location)
    if location is None:
        raise RuleError(f"unknown Location card {night.location!r}")
    column = next((r for r in location.rewards if r.level == night.difficulty), None)
    if column is None:
        raise RuleError(f"{location.name} has no reward column for level {night.difficulty}")
    record = GameRecord(number=state.game, mode=state.mode,
                        troupers=[t.trouper for t in state.troupers], nemesis=night.nemesis,
                        zone=night.zone, location=night.location, difficulty=night.difficulty,
                        result=night.result)
    troupers = [_after_night(t) for t in state.troupers]
    base = state.model_copy(update={"troupers": troupers, "night": None,
                                    "history": [*state.history, record]})
    # Trophy tokens past the box's count (an Event reward gained during the night without
    # the cap) go back to the Common Reserve before anything is won.
    base = trophies_within_box(base, catalog)
    if state.mode == "single":
        # "End of the Night": in Single Game mode the game simply ends.
        return base.model_copy(update={"part": "over", "phase": "game over"})
    rewards = RewardState(result=night.result, nemesis=night.nemesis, zone=night.zone,
                          location=night.location, difficulty=night.difficulty, vlad=night.vlad)
    if night.result == "lost":
        # "The Players Were Defeated": one roll in the level's column.
        rewards = rewards.model_copy(update={"loot": [_pending(column.defeat_roll)]})
    elif not night.vlad:
        # "The Players Won". Against Vlad nothing is taken: the box returns to its starting
        # state at once ("Game Mode Presentation"), see FinishGame.
        enhanced = [v for v in catalog.vlad_reactions_in(night.zone)
                    if v.id not in state.vlad_weakened]
        in_decks = sum(len(d) for d in state.advanced_decks.values())
        base, taken = _take_trophies(base, catalog, night.zone, night.nemesis, column)
        rewards = rewards.model_copy(update={
            "vlad_cards": min(column.vlad_cards, len(enhanced)),
            "advanced_tactics": min(column.advanced_tactics + len(state.troupers), in_decks),
            "loot": [_pending(x) for x in column.loot], "trophies": taken})
    return base.model_copy(update={"part": "end", "phase": "rewards", "rewards": rewards})


def _pending(roll: LootRoll) -> PendingLoot:
    return PendingLoot(dice=roll.dice, resource=roll.resource)


def _after_night(t: TrouperState) -> TrouperState:
    """Cards back into the Trouper deck; Vigor, Bites and Insanity wait for the Recovery ("Show
    Phase")."""
    return t.recovered().model_copy(update={
        "vigor_depleted": t.vigor_depleted, "bites_on_depleted": t.bites_on_depleted,
        "insanity": t.insanity})


def _take_trophies(state: CampaignState, catalog: Catalog, zone: str, nemesis: str,
                   column: LocationReward) -> tuple[CampaignState, dict[str, int]]:
    """The column's Trophy tokens, limited by the box ("Components")."""
    taken: dict[str, int] = {}
    for kind, of, n in (("location", zone, column.location_trophies),
                        ("nemesis", nemesis, column.nemesis_trophies)):
        state, got = gain_trophies(state, catalog, kind, of, n)
        if got:
            taken[f"{kind}:{of}"] = got
    return state, taken


class WeakenVlad(Action):
    """Turn Vlad Reaction cards of the night's Zone to their Weakened side."""

    type: Literal["weaken_vlad"] = "weaken_vlad"
    command = "end weaken"
    summary = "Turn Vlad Reaction cards of the night's Zone to their Weakened side."
    cards: Annotated[list[str], Cli(
        help="Vlad Reaction cards of the night's Zone (id, name or a unique start).", many=True,
    )] = Field(min_length=1)
    parts = ("end",)

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The Zone's Vlad Reaction cards still Enhanced, while Vlad cards are owed."""
        if owed_now(state) != "vlad_cards":
            return ()
        rw = _rewards(state)
        cards = [v for v in catalog.vlad_reactions_in(rw.zone) if v.id not in state.vlad_weakened]
        return tuple(Option(str(i + 1), f"Turn {v.enhanced.name} to its Weakened side "
                            f"({v.weakened.name})", "weaken_vlad", {"cards": [v.id]})
                     for i, v in enumerate(cards))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        rw = _rewards(state)
        if rw.vlad_cards < len(self.cards):
            raise RuleError(f"the Location card lets you weaken {rw.vlad_cards} more Vlad "
                            f"card(s), not {len(self.cards)}")
        zone_cards = [(v.id, v.name) for v in ctx.catalog.vlad_reactions_in(rw.zone)]
        every = [(v.id, v.name) for v in ctx.catalog.all("vlad_reactions")]
        weakened = list(state.vlad_weakened)
        chosen: list[str] = []
        for text in self.cards:
            cid = match_id(text, every, "Vlad Reaction card")
            if cid not in {c for c, _ in zone_cards}:
                left = [c for c, _ in zone_cards if c not in weakened]
                raise RuleError(f"{cid!r} is not a Vlad Reaction card of {rw.zone}",
                                hint="choose among: " + (", ".join(left) or "none left"))
            if cid in weakened:
                raise RuleError(f"{cid} already shows its Weakened side")
            weakened.append(cid)
            chosen.append(cid)
        rw = rw.model_copy(update={"vlad_cards": rw.vlad_cards - len(chosen),
                                   "weakened": [*rw.weakened, *chosen]})
        return state.model_copy(update={"vlad_weakened": weakened, "rewards": rw})

    words = "Vlad card(s) turned to the Weakened side: {cards:names}"


class TakeAdvancedTactic(Action):
    """Take the top card of an Art's Advanced Tactic deck into a Trouper's Personal Reserve."""

    type: Literal["take_advanced_tactic"] = "take_advanced_tactic"
    command = "end take"
    summary = "Take the top Advanced Tactic card of an Art into a Trouper's Personal Reserve."
    art: Annotated[str, Cli(help="The Art deck to take the top card of.", names="art",
                            complete="art")]
    trouper: Annotated[str, Cli(help="Who gets it (Trouper id, colour or seat).",
                                names="trouper", complete="trouper")]
    parts = ("end",)

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The top card of each Art's deck not empty, while Advanced Tactic cards are owed."""
        if owed_now(state) != "advanced_tactics":
            return ()
        opts = []
        for i, art in enumerate(a for a, deck in state.advanced_decks.items() if deck):
            deck = state.advanced_decks[art]
            top = catalog.tactic(deck[0])
            users = [t.trouper for t in state.troupers if art in arts_of(catalog, t.trouper)]
            who = (" - for " + ", ".join(u.capitalize() for u in users)) if users \
                else " - nobody's deck uses it"
            shown = "the app asks which" if at_table(state, "advanced") else (
                top.name if top else deck[0])
            opts.append(Option(str(i + 1), f"Top {art} card: {shown} "
                               f"({len(deck)} left){who}", "take_advanced_tactic", {"art": art},
                               needs=("trouper",)))
        return tuple(opts)

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need != "trouper":
            return None
        rw = state.rewards
        # round the table, each card to the next Trouper whose Building rule uses its Art
        turn = len(rw.tactics_taken) % max(1, len(state.troupers)) if rw else 0
        art = str(option.fields.get("art"))
        picks, default = art_picks(state, catalog, art, first=turn)
        return Ask("trouper", f"Who takes the top {art} card into their Personal Reserve? "
                   f"({leader.settles(state, catalog)})", picks, default=default)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        rw = _rewards(state)
        if rw.advanced_tactics <= 0:
            raise RuleError("no Advanced Tactic cards are left to take")
        if self.art not in ARTS:
            raise RuleError(f"unknown Art {self.art!r}", hint="Arts: " + ", ".join(ARTS))
        if not state.advanced_decks.get(self.art):
            raise RuleError(f"the {self.art} deck is empty; take from another Art")
        idx = state.trouper_index(self.trouper)
        card, deck = top_card(state, ctx, self.art, "")
        t = state.troupers[idx]
        troupers = replace_trouper(state, idx, t.model_copy(
            update={"reserve_cards": [*t.reserve_cards, card]}))
        rw = rw.model_copy(update={
            "advanced_tactics": rw.advanced_tactics - 1, "tactics_taken": [*rw.tactics_taken, card],
            "given": {**rw.given, t.trouper: [*rw.given.get(t.trouper, []), card]}})
        return state.model_copy(update={"troupers": troupers, "rewards": rw,
                                        "advanced_decks": {**state.advanced_decks, self.art: deck}})

    words = "{trouper:who} takes the top card of the {art:cap} deck"


class RollLoot(Action):
    """Make the next loot roll of the column (or the defeat roll): each Triumph gives one
    Resource of the roll's type, or of the players' choice for "any"."""

    type: Literal["roll_loot"] = "roll_loot"
    command = "end loot"
    summary = "Make the next loot roll (or the defeat roll) into the Wagon."
    resource: Annotated[str | None, Cli("--resource", "Your choice when the roll gives any.",
                                        names="resource")] = None
    # None rolls digitally
    faces: Annotated[str | None, Cli(
        "--dice", 'Physical dice as you see them, e.g. "2 x 1" (else rolled here).')] = None
    parts = ("end",)

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """The next loot roll: the faces typed, or (unless the players roll) rolled here."""
        if owed_now(state) != "loot":
            return ()
        roll = _rewards(state).loot[0]
        needs: tuple[str, ...] = ("resource",) if roll.resource == "any" else ()
        table = at_table(state, "loot")  # the players roll the loot dice: they type the faces
        typed = Option("t", f"Type the faces of your {'' if table else 'own '}dice ({roll.dice})",
                       "roll_loot", needs=(*needs, "faces"))
        rolled = () if table else (Option("r", f"Roll {roll.dice} here (digital)", "roll_loot",
                                          needs=needs),)
        return (*rolled, typed)

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        rw = state.rewards
        if need == "resource":
            return Ask("resource", "Which Resource do the Triumphs give?",
                       tuple(Pick(str(i + 1), r.capitalize(), r)
                             for i, r in enumerate(RESOURCE_NAMES)), default="1")
        if need == "faces":
            dice = rw.loot[0].dice if rw and rw.loot else ""
            return Ask("faces", f"The faces of your dice ({dice})", (),
                       free=f"the faces of your dice ({dice}), e.g. \"2 x 1\"",
                       parse=faces_reader(catalog, dice) if dice else (lambda t: t))
        return None

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        rw = _rewards(state)
        if not rw.loot:
            raise RuleError("there is no loot roll left to make")
        roll, rest = rw.loot[0], rw.loot[1:]
        resource = roll.resource
        if resource == "any":
            if self.resource is None:
                raise RuleError(f"this roll ({roll.dice}) gives any Resource: choose one with "
                                "--resource", hint="jewels, coins, trinkets or scrolls")
            resource = self.resource.strip().lower()
        elif self.resource not in (None, resource):
            raise RuleError(f"this roll gives {resource}, not {self.resource}")
        if self.faces is None and at_table(state, "loot"):
            raise RuleError(f"the players roll the loot dice ({roll.dice}): type the faces "
                            "they show", hint="e.g. --dice \"2 1\" (one face per die, in order)",
                            see=("roll_loot",))
        faces = _roll(ctx.catalog, ctx, roll.dice, self.faces)
        n = sum(f.triumphs for f in faces)
        state = _gain(state, resource, n)
        gained = {**rw.gained, resource: rw.gained.get(resource, 0) + n}
        made = RollMade(dice=roll.dice,
                        faces=" ".join(f"{f.die}{f.triumphs}" + "x" * f.defeats for f in faces),
                        physical=self.faces is not None, resource=resource, gained=n)
        rw = rw.model_copy(update={"loot": rest, "gained": gained, "rolls": [*rw.rolls, made]})
        return state.model_copy(update={"rewards": rw})

    words = "Loot roll with [physical dice {faces}|digital dice][ for {resource}]"


class FinishGame(Action):
    """End the game: write the rewards into the history, then start the next Day (Roguelite)
    or, after Vlad falls, return the box to its starting state (the history stays)."""

    type: Literal["finish_game"] = "finish_game"
    command = "end finish"
    summary = "Finish the game: record it in the history, say what changed, start the next Day."
    forfeit: Annotated[bool, Cli("--forfeit", "Leave untaken rewards behind.")] = False
    parts = ("end",)

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        """Finish the game; while rewards are owed, finish leaving them (the forfeit)."""
        owed = owed_now(state)
        if owed is None:
            return ()
        if owed != "finish":
            return (Option("f", "Finish the game now, leaving the rest", "finish_game",
                           {"forfeit": True}),)
        return (Option("1", "Finish the game", "finish_game"),)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        rw = _rewards(state)
        left = _still_owed(rw)
        if left and not self.forfeit:
            raise RuleError("rewards are still waiting: " + ", ".join(left),
                            hint="take them, or finish with --forfeit to leave them")
        reset = rw.result == "won" and rw.vlad
        earlier = [g.rewards.get("spent_total", 0) for g in state.history[:-1] if g.rewards]
        spent_before = earlier[-1] if earlier else 0
        record = state.history[-1].model_copy(update={"rewards": {
            "resources": rw.gained, "rolls": [r.model_dump(mode="json") for r in rw.rolls],
            "trophies": rw.trophies, "vlad_weakened": rw.weakened,
            "advanced_tactics": rw.tactics_taken, "given": rw.given, "left_behind": left,
            "spent": state.resources_spent - spent_before, "spent_total": state.resources_spent,
            "wagon": state.wagon.as_dict(),
            "wagon_next": Wagon().as_dict() if reset else state.wagon.as_dict(),
            "vlad_weakened_total": len(state.vlad_weakened), "box_reset": reset}})
        history = [*state.history[:-1], record]
        if reset:
            return _reset_box(state, ctx, history)
        return next_game(state, history=history)

    words = "Game finished[{forfeit:when} (rewards left behind)]"


def owed_now(state: CampaignState) -> str | None:
    """The step of the End of the Night: the reward taken now, else "finish" (None: none owed)."""
    rw = state.rewards
    if rw is None:
        return None
    if rw.vlad_cards:
        return "vlad_cards"
    if rw.advanced_tactics:
        return "advanced_tactics"
    return "loot" if rw.loot else "finish"


def _still_owed(rw: RewardState) -> list[str]:
    owed = ((rw.vlad_cards, "Vlad card(s) to weaken"),
            (rw.advanced_tactics, "Advanced Tactic card(s)"), (len(rw.loot), "loot roll(s)"))
    return [f"{n} {what}" for n, what in owed if n]


def _reset_box(state: CampaignState, ctx: Context, history: list[GameRecord]) -> CampaignState:
    """Vlad is defeated: "Roguelite Mode" returns the box to where it started (history stays)."""
    return box_start(state, ctx.catalog, history=history, **village_start(ctx),
                     vlad_defeats=state.vlad_defeats + 1)


# --------------------------------------------------------------------------- views


def rewards_next(state: CampaignState, catalog: Catalog | None = None) -> str:
    """What the table does now at the End of the Night (one sentence)."""
    rw = state.rewards
    if state.part != "end" or rw is None:
        return ""
    if rw.vlad_cards:
        where = zone_name(catalog, rw.zone)
        return f"Turn {rw.vlad_cards} Vlad Reaction card(s) of {where} to the Weakened side."
    if rw.advanced_tactics:
        return f"Take {rw.advanced_tactics} Advanced Tactic card(s) from the tops of the Art decks."
    if rw.loot:
        roll = rw.loot[0]
        if roll.resource == "any":
            return f"Roll {roll.dice}: each Triumph gives one Resource of your choice."
        return f"Roll {roll.dice} for {roll.resource}."
    if rw.result == "won" and rw.vlad:
        return "Vlad is defeated! Finish the game: the box returns to its starting state."
    return "All rewards taken: finish the game."


def reward_choices(state: CampaignState, catalog: Catalog) -> dict[str, Any]:
    """The legal choices of the End of the Night, as data."""
    rw = state.rewards
    if state.part != "end" or rw is None:
        return {}
    out: dict[str, Any] = {"loot": [p.model_dump() for p in rw.loot],
                           "troupers": [t.trouper for t in state.troupers]}
    if rw.vlad_cards:
        out["vlad_cards"] = [{"id": v.id, "name": v.name, "side": "weakened" if v.id in
                              state.vlad_weakened else "enhanced"}
                             for v in catalog.vlad_reactions_in(rw.zone)]
    if rw.advanced_tactics:
        decks = {art: state.advanced_decks.get(art, []) for art in ARTS}
        out["arts"] = [{"art": art, "top": deck[0] if deck else None,
                        "name": getattr(catalog.tactic(deck[0]), "name", None) if deck else None,
                        "left": len(deck)} for art, deck in decks.items()]
    return out


def game_gains(summary: dict[str, Any], start: CampaignState, end: CampaignState) -> dict[str, Any]:
    """The finished game's summary with everything the table won from the night's set-up
    (``start``) to the finish (``end``), the night's Event rewards and Trophies included."""
    earned = {r: n for r in RESOURCE_NAMES
              if (n := getattr(end.wagon, r) - getattr(start.wagon, r)) > 0}
    trophies = {f"{kind}:{of}": n
                for kind in ("location", "nemesis")
                for of, held in getattr(end, f"{kind}_trophies").items()
                if (n := held - getattr(start, f"{kind}_trophies").get(of, 0)) > 0}
    return {**summary, "earned": earned, "trophies": trophies}
