"""The Show Phase's selections: Zone, Location card, Minions, Last Assault and Nemesis
("Show Phase", "Zone Selection", "Minion Selection", "Nemesis Selection").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from blood_companion.engine.actions import Cli, Context
from blood_companion.engine.day.core import (
    DayAction,
    available_nemeses,
    day_of,
    match_id,
    named_draws,
)
from blood_companion.engine.day.options import CARD_NAME, CARD_NAMES, at_step, drawn, numbered
from blood_companion.engine.day.steps import advance
from blood_companion.engine.dice import DiceBox, parse_faces, roll_pool
from blood_companion.engine.errors import RuleError
from blood_companion.engine.legal import Ask, Option, Pick
from blood_companion.engine.picks import faces_reader
from blood_companion.engine.state import CampaignState
from blood_companion.engine.table import at_table, named_draw
from blood_companion.engine.words.sentences import zone_name

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

class ChooseZone(DayAction):
    """Zone Selection: ends the purchases and replacements of the Show."""

    type: Literal["day_zone"] = "day_zone"
    command = "day zone"
    summary = "Zone Selection (ends the purchases)."
    doing = "choosing the zone"
    zone: Annotated[str, Cli(help="catacombs, garden, graveyard or halls.", names="zone",
                             complete="zone")]
    asks = {"zone": lambda state, catalog, option, answers: Ask(
        "zone", "Zone Selection: where do you face the Nemesis tonight?",
        numbered((z.name, z.id) for z in catalog.all("zones")), default="1")}

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        if at_step(state, "purchases") is not None:
            return (Option("z", "Done buying: choose the Zone", "day_zone", needs=("zone",)),)
        if at_step(state, "zone") is None:
            return ()
        return tuple(Option(str(i + 1), z.name, "day_zone", {"zone": z.id})
                     for i, z in enumerate(catalog.all("zones")))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        zone = match_id(self.zone, [(z.id, z.name) for z in ctx.catalog.all("zones")], "Zone")
        return advance(state, day_of(state), self.type, zone=zone)

    words = "Zone: {zone:zone}"


class RollLocation(DayAction):
    """Roll the Location die (``faces`` typed from a physical die, or None to roll digitally)
    and take the Zone's Location card that answers the face ("Zone Selection")."""

    type: Literal["day_roll_location"] = "day_roll_location"
    command = "day location --roll"
    doing = "rolling for the location"
    offers_at = "location"
    picked_by = Cli("--roll", "Roll the Location die digitally.")
    faces: Annotated[str | None, Cli("--dice",
                                     "The face of your physical die, e.g. 2 or x.")] = None

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        if at_table(state, "locations"):  # the players roll and take the card themselves
            asked = Option("c", "Name the Location card your die gave", "day_roll_location")
        else:
            asked = Option("r", "Roll the die here (digital)", "day_roll_location")
        return asked, Option("t", "Type the face of your own die", "day_roll_location",
                             needs=("faces",))

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need != "faces":
            return None
        die = catalog.config.location_die
        return Ask("faces", f"Which face does your {die} die show?", (), free=f"the face of "
                   f"your {die} die, e.g. 2", parse=faces_reader(catalog, die))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = day_of(state)
        assert day.zone is not None
        box = DiceBox.from_models(cat.dice)
        pool = [cat.config.location_die]
        if self.faces is None:
            face = roll_pool(pool, box, ctx.chance)[0]
        else:
            face = parse_faces(self.faces, pool, box)[0]
        locs = cat.locations_in(day.zone)
        loc = next((c for c in locs if c.choice == face.label), None)
        if loc is None:
            raise RuleError(f"no Location card of {day.zone} answers the face {face.label!r}")
        if self.faces is None and at_table(state, "locations"):
            # The players rolled their own die and took the card it shows: the card they name.
            lid = named_draw(
                ctx.chance, cat, "locations", [c.id for c in locs],
                f"Roll the {pool[0]} die and take the Location card of "
                f"{zone_name(cat, day.zone)} it shows: which card is it?",
            )
            loc = next(c for c in locs if c.id == lid)
            return advance(state, day, self.type, location=loc.id, location_roll=loc.choice)
        return advance(state, day, self.type, location=loc.id, location_roll=face.label)

    words = (
        "[Location card taken at the table: {drawn[locations]:names}|Rolled the Location die: your "
        "die shows {faces}|Rolled the Location die (the app's die)]"
    )


class ChooseLocation(DayAction):
    """Pick the Location card of the chosen Zone (Cartographer's Office)."""

    type: Literal["day_choose_location"] = "day_choose_location"
    command = "day location"
    summary = "The Location card: by a die roll, or chosen with the Cartographer's Office."
    doing = "choosing the location"
    location: Annotated[str, Cli(help="Cartographer's Office: the Location card.", metavar="card",
                                 names="location")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        day = at_step(state, "location")
        if day is None or not day.cartographer:
            return ()
        return tuple(Option(str(i + 1), f"{loc.name} (die {loc.choice})", "day_choose_location",
                            {"location": loc.id})
                     for i, loc in enumerate(catalog.locations_in(day.zone or "")))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        day = day_of(state)
        assert day.zone is not None
        if not day.cartographer:
            raise RuleError(
                "choosing the Location card needs the Cartographer's Office; roll for it",
                hint="roll for it (digital, or the face of a physical die)",
                see=("day_roll_location",),
            )
        locs = [(loc.id, loc.name) for loc in ctx.catalog.locations_in(day.zone)]
        lid = match_id(self.location, locs, f"Location card of {day.zone}")
        return advance(state, day, self.type, location=lid)

    words = "Location card: {location:name} (Cartographer's Office)"


def minion_picks(catalog: Catalog) -> tuple[Pick, ...]:
    return numbered((f"{mn.name} ({mn.type})", mn.id) for mn in catalog.all("minions"))


class DrawMinions(DayAction):
    """Minion Selection: reveal two Minion cards at random for spaces A and B (``minions``: the
    two cards the players drew from their own shuffled deck, A first)."""

    type: Literal["day_draw_minions"] = "day_draw_minions"
    command = "day minions"
    doing = "revealing the minions"
    picked_by = Cli("--random", "Reveal two Minion cards at random.")
    minions: Annotated[list[str] | None, Cli(
        "--drawn", "The two Minion cards drawn from your own deck, A first (A,B).")] = None
    asks = {"minions": lambda state, catalog, option, answers: Ask(
        "minions", "Which two Minion cards did you draw (A first, then B)?",
        minion_picks(catalog), many=(2, 2), free=CARD_NAMES)}

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        day = at_step(state, "minions")
        if day is None or day.hunting_house:
            return ()
        return drawn(state, "day_draw_minions", "minions", "minions",
                     ("Reveal two at random", "Name the two Minion cards you drew",
                      " from your own deck"))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        ids = [mn.id for mn in cat.all("minions")]
        if len(ids) < 2:
            raise RuleError("the data pack has fewer than two Minion cards")
        if self.minions is None:
            drawn = ctx.chance.sample(ids, 2, "minions")
            if at_table(state, "minions"):  # the players revealed two from their deck
                drawn = named_draws(ctx, "minions", ids, (
                    f"Minion {space}: reveal a Minion card at random: which card is it?"
                    for space in "AB"))
        else:
            cands = [(mn.id, mn.name) for mn in cat.all("minions")]
            drawn = [match_id(x, cands, "Minion card") for x in self.minions]
            if len(drawn) != 2 or len(set(drawn)) != 2:
                raise RuleError("two different Minion cards are revealed (A, then B)")
        return advance(state, day_of(state), self.type, minions=drawn)

    words = "[Minion cards drawn at the table: {minions:names}|Two Minion cards revealed at random]"


class ChooseMinions(DayAction):
    """Hunting House: the players choose four Minion cards; two of them, at random, take
    spaces A and B."""

    type: Literal["day_choose_minions"] = "day_choose_minions"
    command = "day minions"
    summary = ("Minion Selection: two at random (or drawn from your deck), or four chosen with "
               "the Hunting House.")
    doing = "choosing the minions"
    minions: Annotated[list[str], Cli(help="Hunting House: four Minion cards, comma-separated.",
                                      metavar="cards", names="minions")]
    asks = {"minions": lambda state, catalog, option, answers: Ask(
        "minions", "Hunting House: which four Minion cards?", minion_picks(catalog),
        many=(4, 4))}

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        day = at_step(state, "minions")
        if day is None or not day.hunting_house:
            return ()
        return (Option("1", "Choose four Minion cards", "day_choose_minions",
                       needs=("minions",)),)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        day = day_of(state)
        if not day.hunting_house:
            raise RuleError("choosing Minion cards needs the Hunting House; reveal two at random",
                            see=("day_draw_minions",))
        cands = [(mn.id, mn.name) for mn in ctx.catalog.all("minions")]
        pool = [match_id(x, cands, "Minion card") for x in self.minions]
        if len(pool) != 4 or len(set(pool)) != 4:
            raise RuleError(
                f"the Hunting House takes four different Minion cards, not {len(set(pool))}"
            )
        drawn = ctx.chance.sample(pool, 2, "minions")
        if at_table(state, "minions"):  # the players drew two of the four at random
            drawn = named_draws(ctx, "minions", pool, (
                f"Minion {space}: draw one of the four chosen Minion cards at random: which "
                "card is it?" for space in "AB"))
        return advance(state, day, self.type, minion_pool=pool, minions=drawn)

    words = "Hunting House: the players choose {minions:names}"


class LastAssault(DayAction):
    """Last Assault: the players decide whether to face Vlad (then the Nemesis Selection is
    skipped)."""

    type: Literal["day_last_assault"] = "day_last_assault"
    command = "day last-assault"
    summary = "Last Assault: face Vlad (--yes) or not (--no)."
    doing = "the last assault choice"
    offers_at = "last_assault"
    face_vlad: Annotated[bool, Cli("--yes", "Face Vlad tonight?", off="--no", ask="face Vlad")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        yes = Option("y", "Yes: face Vlad", "day_last_assault", {"face_vlad": True})
        if not available_nemeses(state, catalog):
            return (yes,)
        return Option("n", "No: a lieutenant tonight", "day_last_assault",
                      {"face_vlad": False}), yes

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = day_of(state)
        if not self.face_vlad:
            if not available_nemeses(state, cat):
                raise RuleError(
                    "every lieutenant was defeated in this box cycle: only Vlad is left",
                    see=("day_last_assault",),
                )
            return advance(state, day, self.type, last_assault=False)
        vlad = cat.vlad()
        if vlad is None:
            raise RuleError("the data pack has no Vlad Nemesis card")
        return advance(state, day, self.type, last_assault=True, nemesis=vlad.id)

    words = "Last Assault: [{face_vlad:when}facing Vlad|not tonight]"


class DrawNemesis(DayAction):
    """Nemesis Selection: reveal a Nemesis at random from the available lieutenants."""

    type: Literal["day_draw_nemesis"] = "day_draw_nemesis"
    command = "day nemesis"
    doing = "revealing the nemesis"
    picked_by = Cli("--random", "Reveal the Nemesis at random.")
    nemesis: Annotated[str | None, Cli(
        "--drawn", "The Nemesis card drawn from your own shuffled cards.")] = None

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        day = at_step(state, "nemesis")
        if day is None or day.asylum:
            return ()
        return drawn(state, "day_draw_nemesis", "nemesis", "nemeses",
                     ("Reveal at random", "Name the Nemesis card you drew",
                      " from your own cards"))

    @classmethod
    def question(cls, state: CampaignState, catalog: Catalog, option: Option,
                 answers: Mapping[str, Any], need: str) -> Ask | None:
        if need != "nemesis":
            return None
        pool = available_nemeses(state, catalog)
        picks = numbered((n.name, n.id) for n in catalog.all("nemeses") if n.id in pool)
        return Ask("nemesis", "Which Nemesis card did you draw?", picks, free=CARD_NAME)

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        pool = available_nemeses(state, cat)
        if not pool:  # pragma: no cover - LastAssault refuses first
            raise RuleError("no lieutenant is available")
        if self.nemesis is None:
            nem = ctx.chance.choice(pool, "nemesis")
            if at_table(state, "nemeses"):  # the players revealed one from the available cards
                nem = named_draw(
                    ctx.chance, cat, "nemeses", pool,
                    "Reveal a Nemesis card at random among the available ones: which is it?",
                )
        else:
            nem = match_id(self.nemesis, [(n.id, n.name) for n in cat.all("nemeses")], "Nemesis")
            if nem not in pool:
                raise RuleError(f"{nem} is not among the Nemesis cards to reveal from",
                                hint="available: " + ", ".join(pool))
        return advance(state, day_of(state), self.type, nemesis=nem)

    words = "[Nemesis card drawn at the table: {nemesis:name}|The Nemesis card revealed at random]"


class ChooseNemesis(DayAction):
    """Asylum: the players choose the Nemesis among the available lieutenants."""

    type: Literal["day_choose_nemesis"] = "day_choose_nemesis"
    command = "day nemesis"
    summary = ("Nemesis Selection: at random among the available (or drawn at the table), or "
               "chosen with the Asylum.")
    doing = "choosing the nemesis"
    nemesis: Annotated[str, Cli(help="Asylum: the Nemesis chosen.", metavar="card",
                                names="nemesis", complete="nemesis")]

    @classmethod
    def options(cls, state: CampaignState, catalog: Catalog) -> tuple[Option, ...]:
        day = at_step(state, "nemesis")
        if day is None or not day.asylum:
            return ()
        return tuple(Option(str(i + 1), getattr(catalog.nemesis(n), "name", n),
                            "day_choose_nemesis", {"nemesis": n})
                     for i, n in enumerate(available_nemeses(state, catalog)))

    def apply(self, state: CampaignState, ctx: Context) -> CampaignState:
        cat = ctx.catalog
        day = day_of(state)
        if not day.asylum:
            raise RuleError("choosing the Nemesis needs the Asylum; reveal one at random",
                            see=("day_draw_nemesis",))
        nid = match_id(self.nemesis, [(n.id, n.name) for n in cat.all("nemeses")], "Nemesis")
        card = cat.nemesis(nid)
        if card is not None and card.vlad:
            raise RuleError("Vlad is faced only through the Last Assault")
        if nid not in available_nemeses(state, cat):
            raise RuleError(f"{nid} was defeated in this box cycle and is no longer available",
                            hint="available: " + ", ".join(available_nemeses(state, cat)))
        return advance(state, day, self.type, nemesis=nid)

    words = "Nemesis: {nemesis:name} (Asylum)"
