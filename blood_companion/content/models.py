"""Pydantic models of the YAML data pack.

Every record carries ``source``: ``rulebook`` when the alpha rulebook prints it, ``placeholder``
when it is our own authored stand-in (card texts, dice faces, track lengths, reward tables).
Models are frozen and forbid unknown fields so a typo in a transcribed card is reported, not
silently ignored.
"""


from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator, model_validator


def instance_of(value: object, *names: str) -> bool:
    """``isinstance(value, (models.NAME, ...))``."""
    return isinstance(value, tuple(globals()[name] for name in names))


# `transcribed`: typed in by an owner from their own printed card (`blood data transcribe`,
# `blood data import-text`); it replaces a placeholder record with the same id.
Source = Literal["rulebook", "placeholder", "transcribed"]
Trait = Literal["strength", "dexterity", "cunning", "madness"]
TRAITS: tuple[Trait, ...] = get_args(Trait)
Art = Literal["funambulism", "delirium", "alchemy", "juggling", "enchantment", "pacts"]
ARTS: tuple[Art, ...] = get_args(Art)
Resource = Literal["jewels", "coins", "trinkets", "scrolls"]
RESOURCES: tuple[Resource, ...] = get_args(Resource)
Side = Literal["front", "left", "right"]
SIDES: tuple[Side, ...] = get_args(Side)
ItemCategory = Literal["protection", "tool", "artifact"]
ITEM_CATEGORIES: tuple[ItemCategory, ...] = get_args(ItemCategory)
# "Enemies - Minions" prints Abomination, "Summon" prints Aberration: see docs/rules-decisions.md.
MinionType = Literal["undead", "aberration", "ghoul", "beast"]
MINION_TYPES: tuple[MinionType, ...] = get_args(MinionType)
DieLetter = Literal["R", "G", "B"]
PoolText = Annotated[str, Field(pattern=r"^\s*(\d*\s*[RGBrgb]\s*)+$")]


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Record(Model):
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=64)]
    name: str
    source: Source


# --------------------------------------------------------------------------- effects


class Target(Model):
    """Who or what an Effect applies to ("Reading the Elements of a Target")."""

    # `*_all`: every Trouper / Minion / Enemy (the Nemesis and every Minion) the Target reaches
    kind: Literal["self", "trouper", "troupers_all", "enemy", "nemesis", "minion", "tile", "event",
                  "minions_all", "enemies_all"]
    # "0", "0-1", "1", "0-3", "any" (the infinity sign), or "area" for a Special Area.
    distance: Annotated[
        str, Field(pattern=r"^(any|area|\d+(-\d+)?)$"),
        # hand-written YAML may say `distance: 0` (an int): the editor's schema accepts it too
        WithJsonSchema({"anyOf": [{"type": "string", "pattern": r"^(any|area|\d+(-\d+)?)$"},
                                  {"type": "integer", "minimum": 0}], "default": "any"}),
    ] = "any"
    # Tie breakers in order (Nemesis Target Priority); the Leader's Rule follows them all.
    priority: list[
        Literal[
            "closest", "farthest", "fewest_bites", "most_bites", "fewest_wounds", "most_wounds",
            "fewest_cards_in_hand", "most_cards_in_hand", "exhausted", "not_exhausted",
            "lowest_insanity", "highest_insanity",
        ]
    ] = Field(default_factory=list)
    # Special Area diagram as axial offsets "q,r" from the Trouper's Tile ("Reading Special Areas")
    area: (
        Annotated[list[Annotated[str, Field(pattern=r"^-?\d+,-?\d+$")]], Field(min_length=1)]
        | None
    ) = None
    minion_type: MinionType | None = None

    @field_validator("distance", mode="before")
    @classmethod
    def _plain_number(cls, v: object) -> object:
        # `distance: 0` in hand-written YAML is an int; the infinity sign means any distance.
        if isinstance(v, int) and not isinstance(v, bool):
            return str(v)
        if isinstance(v, str) and v.strip() in ("∞", "inf", "infinite"):
            return "any"
        return v


class Cost(Model):
    """What must be paid for an Effect ("Reading the Elements of a Cost")."""

    kind: Literal["deplete_vigor", "discard_card", "discard_bite", "sacrifice", "deplete_item"]
    n: Annotated[int, Field(ge=1, le=6)] = 1


class Condition(Model):
    """What must hold for an Effect ("Reading the Elements of a Condition")."""

    kind: Literal[
        "bites_at_least", "hand_below", "wounds_at_least", "exhausted", "insanity_at_least",
        "threat_at_least",
        # Trap and Whisper tokens ("Trouper Tokens"): where they lie is on the Map only
        "target_on_intact_trap", "target_on_trap", "active_on_whisper", "text",
    ]
    n: int = 0
    text: str | None = None


OutcomeKind = Literal[
    # movement keywords (Rules Compendium, "Elements - Keywords")
    "step", "run", "fly", "escape", "push", "attract", "move",
    # general keywords
    "draw", "discard", "heal", "deplete", "rest", "summon",
    # symbols and other elements
    "wound", "bite", "exhausted", "physical_attack", "mind_attack", "threat", "bonus_triumphs",
    "reroll", "bonus_die", "place_trap", "place_whisper",
    "place_cube",  # a Cube on a Tile (what it stands for: the Nemesis's `cube_name`)
    "consume_trap", "gain_resource", "text",
]
KEYWORDS_WITH_N = {"step", "escape", "push", "attract", "move", "draw", "discard", "heal"}
# The movements an Outcome may direct toward (or away from) a Target of its own
DIRECTED_MOVES = ("step", "run", "fly", "move")


class Outcome(Model):
    """One Element of an Outcome line, e.g. ``Push 2``, a Wound, a Physical Attack."""

    kind: OutcomeKind
    n: Annotated[int, Field(ge=0, le=20)] = 1
    minion_type: MinionType | None = None  # Summon of a given type
    die: DieLetter | None = None  # bonus_die
    resource: Resource | None = None  # gain_resource
    text: str | None = None
    # A Step, Run, Fly or Move toward a Target ("Step 1 toward the closest Trouper"), or away
    # from it (`away`): the Target is chosen by its priorities, the table moves the Miniature.
    toward: Target | None = None
    away: bool = False

    @model_validator(mode="before")
    @classmethod
    def _grey_by_default(cls, v: object) -> object:
        # A Bonus die with no colour is the grey one (the engine's reading); say so in the data
        # so the rendered text and the record agree.
        if isinstance(v, dict) and v.get("kind") == "bonus_die" and v.get("die") is None:
            return {**v, "die": "G"}
        return v

    @model_validator(mode="after")
    def _toward_a_target(self) -> "Outcome":
        if self.away and self.toward is None:
            raise ValueError("'away' moves away from a Target: give it as 'toward'")
        if self.toward is not None:
            if self.kind not in DIRECTED_MOVES:
                raise ValueError(f"only {', '.join(DIRECTED_MOVES)} move toward a Target")
            if self.toward.kind in ("self", "troupers_all", "minions_all", "enemies_all"):
                raise ValueError("a movement goes toward one Trouper, Enemy, Nemesis, Minion or "
                                 "Tile")
        return self


class EffectTest(Model):
    """A Test in parentheses after an Outcome: success cancels the Elements before it."""

    traits: list[Trait] = Field(default_factory=list)
    dice: PoolText | None = None  # a fixed pool instead of a Trait, e.g. "2B R"
    target: Annotated[int, Field(ge=0, le=12)] | None = None  # None: the target's Defense

    @model_validator(mode="after")
    def _traits_or_dice(self) -> "EffectTest":
        if not self.traits and not self.dice:
            raise ValueError("a Test needs at least one Trait or a dice pool")
        return self


class Effect(Model):
    """A structured Effect: type, target, cost, condition, outcome, test and repetition."""

    type: Literal["standard", "aura", "support", "quick"] = "standard"
    name: str | None = None
    timing: (
        Literal[
            "beginning_of_night", "beginning_of_turn", "beginning_of_cleanup", "on_wound", "always",
        ]
        | None
    ) = None
    target: Target | None = None
    cost: list[Cost] = Field(default_factory=list)
    condition: Condition | None = None
    outcome: list[Outcome] = Field(default_factory=list)
    test: EffectTest | None = None
    # On a failed Test (Test symbol form) these apply instead; success applies `outcome`.
    on_failure: list[Outcome] = Field(default_factory=list)
    repeat: Annotated[int, Field(ge=1, le=6)] = 1
    text: str | None = None  # a descriptive note printed with the Elements
    # The Effect as printed, kept as words because it could not be structured: the app does not
    # resolve it; the table reads it and resolves it (see `is_free_text`).
    free_text: str | None = None

    @model_validator(mode="after")
    def _free_text_alone(self) -> "Effect":
        if self.free_text is None:
            return self
        if not self.free_text.strip():
            raise ValueError("free_text is empty: type the Effect's words as printed")
        structured = [
            f
            for f in ("target", "cost", "condition", "outcome", "test", "on_failure", "text")
            if getattr(self, f)
        ]
        if structured:
            raise ValueError(
                "a free-text Effect has no structured parts; found " + ", ".join(structured)
            )
        return self

    @property
    def is_free_text(self) -> bool:
        """True when the Effect is only words the table must resolve (nothing to automate)."""
        return self.free_text is not None


# --------------------------------------------------------------------------- dice & tracks


class DieFace(Model):
    triumphs: Annotated[int, Field(ge=0, le=5)]
    defeats: Annotated[int, Field(ge=0, le=5)] = 0
    label: str | None = None


class Die(Record):
    letter: DieLetter
    colour: Literal["red", "grey", "black"]
    shape: Literal["d4", "d6", "d8"]
    count_in_box: Annotated[int, Field(ge=1)]
    faces: list[DieFace]

    @model_validator(mode="after")
    def _faces_match_shape(self) -> "Die":
        expected = int(self.shape[1:])
        if len(self.faces) != expected:
            raise ValueError(f"a {self.shape} has {expected} faces, found {len(self.faces)}")
        return self


class ThreatTrack(Record):
    length: Annotated[int, Field(ge=2, le=40)]  # spaces after the starting space
    alert_spaces: list[int]

    @model_validator(mode="after")
    def _alerts_on_track(self) -> "ThreatTrack":
        for a in self.alert_spaces:
            if not 1 <= a <= self.length:
                raise ValueError(f"alert space {a} is off the track (1..{self.length})")
        if sorted(set(self.alert_spaces)) != self.alert_spaces:
            raise ValueError("alert spaces must be strictly increasing")
        return self


class InsanityBonus(Model):
    kind: Literal["reroll", "bonus_triumphs"]
    n: Annotated[int, Field(ge=1, le=3)] = 1


class InsanitySpace(Model):
    bonus: InsanityBonus | None = None


class InsanityTrack(Record):
    spaces: list[InsanitySpace]  # spaces[0] is the leftmost, where the cube starts


class NightBoard(Record):
    chain_spaces: Annotated[int, Field(ge=2, le=20)]
    reaction_spaces: Annotated[int, Field(ge=1, le=12)]
    # Minion spaces in Flow order: A and B first, then the spaces for summoned Minions.
    minion_spaces: list[str]
    threat_track: ThreatTrack

    @field_validator("minion_spaces")
    @classmethod
    def _a_b_first(cls, v: list[str]) -> list[str]:
        if v[:2] != ["A", "B"]:
            raise ValueError("the first two Minion spaces must be A and B")
        if len(set(v)) != len(v):
            raise ValueError("Minion space names must be unique")
        return v


# --------------------------------------------------------------------------- costs


class ResourceCost(Model):
    jewels: Annotated[int, Field(ge=0)] = 0
    coins: Annotated[int, Field(ge=0)] = 0
    trinkets: Annotated[int, Field(ge=0)] = 0
    scrolls: Annotated[int, Field(ge=0)] = 0
    any: Annotated[int, Field(ge=0)] = 0  # the Resource symbol: any mix, chosen by the players

    def total(self) -> int:
        return self.jewels + self.coins + self.trinkets + self.scrolls + self.any


class TrophyCost(Model):
    kind: Literal["location", "nemesis"]
    of: str | None = None  # a Location (zone) or Nemesis id; None = any
    n: Annotated[int, Field(ge=1)] = 1


# --------------------------------------------------------------------------- the village
# The village of Bran ("Day Part"): its Buildings.


class Building(Record):
    cost: ResourceCost
    effect: Literal["hunting_house", "cartographer", "sanatorium", "asylum", "alchemist"]
    text: str


class Village(Record):
    buildings: list[Building]


# --------------------------------------------------------------------------- tactics & items


class TacticCard(Record):
    kind: Literal["starting", "advanced", "location", "nemesis"]
    art: Art | None = None  # None for Location/Nemesis cards: they count as every Art
    threat: Annotated[int, Field(ge=0, le=6)]
    cascade: bool = False
    block: bool = False
    trouper: str | None = None  # Starting cards: the owner
    location: str | None = None  # Location cards: the zone whose Location it belongs to
    nemesis: str | None = None  # Nemesis cards
    cost: ResourceCost | None = None  # Advanced/Location/Nemesis purchase cost
    trophies: list[TrophyCost] = Field(default_factory=list)
    effects: list[Effect]

    @model_validator(mode="after")
    def _art_by_kind(self) -> "TacticCard":
        if self.kind in ("starting", "advanced") and self.art is None:
            raise ValueError(f"a {self.kind} Tactic card needs an art")
        if self.kind in ("location", "nemesis") and self.art is not None:
            raise ValueError(f"a {self.kind} Tactic card has no art (it counts as every Art)")
        if self.kind != "starting" and self.cost is None:
            raise ValueError(f"a {self.kind} Tactic card needs a purchase cost")
        if self.kind == "location" and not self.location:
            raise ValueError("a location Tactic card names its location")
        if self.kind == "nemesis" and not self.nemesis:
            raise ValueError("a nemesis Tactic card names its nemesis")
        return self


class ItemSide(Model):
    name: str
    quick: bool = False
    effects: list[Effect]


class ItemCard(Record):
    kind: Literal["trouper", "location", "nemesis"]
    category: ItemCategory
    trouper: str | None = None
    location: str | None = None
    nemesis: str | None = None
    starting: ItemSide  # the white side; Location/Nemesis items print the same on both sides
    advanced: ItemSide | None = None  # the red side, Trouper items only
    upgrade_cost: ResourceCost | None = None
    cost: ResourceCost | None = None  # Location/Nemesis items: resource part of the cost
    trophies: list[TrophyCost] = Field(default_factory=list)

    @model_validator(mode="after")
    def _sides(self) -> "ItemCard":
        if self.kind == "trouper" and (self.advanced is None or self.upgrade_cost is None):
            raise ValueError("a Trouper Item has an advanced side and an upgrade cost")
        if self.kind != "trouper" and (self.cost is None or not self.trophies):
            raise ValueError(f"a {self.kind} Item has a resource cost and a trophy cost")
        return self


class BuildingRule(Model):
    art: Art
    count: Annotated[int, Field(ge=1, le=12)]


class Trouper(Record):
    narrative: str
    traits: dict[Trait, PoolText]
    building: list[BuildingRule]

    @field_validator("traits")
    @classmethod
    def _four_traits(cls, v: dict[str, str]) -> dict[str, str]:
        if missing := [t for t in TRAITS if t not in v]:
            raise ValueError(f"missing Trait(s): {', '.join(missing)}")
        return v


# --------------------------------------------------------------------------- enemies


class Defenses(Model):
    physical: Annotated[int, Field(ge=0, le=12)]
    mind: Annotated[int, Field(ge=0, le=12)]


class Fatigue(Model):
    physical: Annotated[int, Field(ge=0, le=6)] = 0
    mind: Annotated[int, Field(ge=0, le=6)] = 0


class WeaknessCard(Record):
    nemesis: str
    side: Side
    effect_name: str
    # How this side is easier or harder to hurt: added to the Defense on this side.
    physical_modifier: Annotated[int, Field(ge=-6, le=6)] = 0
    mind_modifier: Annotated[int, Field(ge=-6, le=6)] = 0
    trophy: str | None = None  # what earns a Nemesis Trophy Token here (players judge it)
    effects: list[Effect] = Field(default_factory=list)


class NemesisLevel(Model):
    level: Annotated[int, Field(ge=1, le=5)]
    name: str
    wounds: dict[Side, Annotated[int, Field(ge=0, le=12)]]
    influence: Annotated[int, Field(ge=0, le=6)]

    @field_validator("wounds")
    @classmethod
    def _three_sides(cls, v: dict[str, int]) -> dict[str, int]:
        if missing := [s for s in SIDES if s not in v]:
            raise ValueError(f"wounds are given for every side; missing: {', '.join(missing)}")
        return v


class Nemesis(Record):
    vlad: bool = False
    background: str
    levels: list[NemesisLevel]
    defenses: Defenses
    skills: list[Effect] = Field(default_factory=list)
    cube_name: str | None = None  # what a Cube stands for with this Nemesis ("Other Components")


class Minion(Record):
    type: MinionType
    defenses: Defenses
    effects: list[Effect]

    @field_validator("type", mode="before")
    @classmethod
    def _alias(cls, v: object) -> object:
        # "Abomination" (Enemies - Minions) and "Aberration" (Summon) name the same type.
        if isinstance(v, str) and v.lower() == "abomination":
            return "aberration"
        return v


# --------------------------------------------------------------------------- reaction cards
# A Nemesis's Reaction deck, Vlad's two-faced cards ("Reaction cards", "Vlad") and the Check
# a card may carry.


class CheckRule(Model):
    """When a Check card is resolved and this holds, the night is lost."""

    kind: Literal[
        "bites_total_at_least", "knocked_out_at_least", "nemesis_discard_at_least", "turn_at_least",
        "always",
    ]
    n: int = 0
    text: str | None = None


class ReactionFace(Model):
    """What a Reaction card shows (a Vlad card has two such faces)."""

    name: str
    fatigue: Fatigue = Fatigue.model_construct()  # no schema built at import
    interruption: bool = False
    check: CheckRule | None = None
    effects: list[Effect]


class ReactionCard(Record):
    nemesis: str
    background: str | None = None
    fatigue: Fatigue = Fatigue.model_construct()  # no schema built at import
    interruption: bool = False
    check: CheckRule | None = None
    effects: list[Effect]

    def face(self) -> ReactionFace:
        return ReactionFace(**{f: getattr(self, f) for f in ReactionFace.model_fields})


class VladReactionCard(Record):
    zone: str  # the Zone whose victories can weaken this card
    enhanced: ReactionFace
    weakened: ReactionFace

    @model_validator(mode="after")
    def _interruptions_same_both_sides(self) -> "VladReactionCard":
        # "Assembling Game Components": Vlad's Interruption cards print the same on both sides.
        if (self.enhanced.interruption or self.weakened.interruption) and (
            self.enhanced != self.weakened
        ):
            raise ValueError("a Vlad Interruption card shows the same face on both sides")
        return self


# --------------------------------------------------------------------------- zones & locations
# The Tiles of each Zone's Map ("Zones" > "Tiles").


class TileGroup(Model):
    symbol: Literal[
        "nemesis", "large_scenic", "small_scenic", "minion_a", "minion_b", "trouper", "none"
    ]
    count: Annotated[int, Field(ge=0, le=19)]


class Zone(Record):
    tiles: list[TileGroup]
    location_trophies: Annotated[int, Field(ge=0)] = 3

    def tile_count(self) -> int:
        return sum(g.count for g in self.tiles)


class LootRoll(Model):
    dice: PoolText
    resource: Resource | Literal["any"]  # each Triumph rolled gives one of this resource


class LocationReward(Model):
    level: Annotated[int, Field(ge=1, le=5)]
    vlad_cards: Annotated[int, Field(ge=0, le=12)] = 0
    location_trophies: Annotated[int, Field(ge=0)] = 0
    nemesis_trophies: Annotated[int, Field(ge=0)] = 0
    advanced_tactics: Annotated[int, Field(ge=0)] = 0
    loot: list[LootRoll] = Field(default_factory=list)
    defeat_roll: LootRoll


class Location(Record):
    zone: str
    choice: str  # the face label of the location die that picks this card
    map: list[str]  # the Map pattern: rows of tile symbols (placeholder)
    rewards: list[LocationReward]


class EventReward(Model):
    chain_spaces: Annotated[int, Field(ge=0)] = 0
    resources: ResourceCost = ResourceCost.model_construct()
    location_trophies: Annotated[int, Field(ge=0)] = 0


class Event(Record):
    zone: str
    event_type: Literal["scenic_element", "minion", "action"]
    background: str | None = None
    scenic_element: str | None = None
    # "Scenic Elements": a Large one goes on the Map's L Tile, a Small one on an S Tile
    scenic_size: Literal["large", "small"] | None = None
    minion_type: MinionType | None = None
    effects: list[Effect]
    reward: EventReward


# --------------------------------------------------------------------------- misc
# The box itself: the Difficulty Levels and the component counts ("Components").


class DifficultyLevel(Record):
    level: Annotated[int, Field(ge=1, le=5)]
    summary: str


class ComponentCount(Model):
    name: str
    count: Annotated[int, Field(ge=0)]
    per: str | None = None


class Components(Record):
    items: list[ComponentCount]


class RulesConfig(Record):
    """Where the alpha rulebook is silent or contradicts itself (docs/rules-decisions.md)."""

    tiles_per_zone: Annotated[int, Field(ge=1)]
    location_die: DieLetter
    defeats_cancel_triumphs: bool = False
    insanity_reroll_reading: Literal["any_dice", "one_die"] = "any_dice"
    knock_out_wounds: Annotated[int, Field(ge=1)] = 8
    hand_size: Annotated[int, Field(ge=1)] = 5
    vigor_tokens: Annotated[int, Field(ge=1)] = 6
    max_troupers: Annotated[int, Field(ge=1)] = 4
    lose_when_all_knocked_out: bool = True
    lose_when_nobody_can_play: bool = True
    # An attack with several attack Elements on a Minion: the Minion takes one Wound (it is
    # defeated); the others are "lost", or go to "other_minion"s the players name.
    extra_minion_wounds: Literal["lost", "other_minion"] = "lost"
    # "Nemesis Trophy": a Weakness's Trophy sentence judged from the app's state where it can
    # be ("decide_from_state", engine/trophy.py), or always asked of the table ("ask").
    weakness_trophy: Literal["decide_from_state", "ask"] = "decide_from_state"
    # A Wound with deck and discard pile empty: a card "from_hand" (the player's choice), or
    # kept "unmarked" (it counts towards Knocked Out; no card marks it).
    wound_with_no_deck: Literal["from_hand", "unmarked"] = "from_hand"
    # "Bite": the player chooses the Vigor token a Bite covers. With both Available and Depleted
    # uncovered tokens the app asks ("ask"), or lays it on a Depleted one ("depleted_first":
    # the placement that keeps the most Vigor usable).
    bite_placement: Literal["ask", "depleted_first"] = "ask"
    # An Effect with a Physical and a Mind Attack Element: one Test, each Element against its
    # own Defense; the Test itself (Insanity) needs the "lowest" of them, or the "highest".
    mixed_attack_test: Literal["lowest", "highest"] = "lowest"
    # "Scenic Elements": an L or S Tile whose Scenic Element no Event card on the Chain names
    # takes one of that size the players choose ("impassable"), or stays "empty" (passable).
    unnamed_scenic_tiles: Literal["impassable", "empty"] = "impassable"
    # An attack on each target of a Special Area or of every Minion / every Enemy: one Test
    # for each target ("test_each"), or the first target's Test for all of them ("one_test").
    many_targets_attack: Literal["test_each", "one_test"] = "test_each"


def effects_in(value: object) -> list[Effect]:
    """Every Effect held by a record (its effects, skills, item sides, Vlad faces), in order."""
    found: list[Effect] = []
    stack: list[object] = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, Effect):
            found.append(v)
        elif isinstance(v, BaseModel):
            stack.extend(reversed([getattr(v, f) for f in type(v).model_fields]))
        elif isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            stack.extend(reversed(list(v.values())))
    return found
