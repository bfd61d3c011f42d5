"""The data pack's models of the Reaction cards ("Reaction cards", "Vlad"): a Nemesis's Reaction
deck, Vlad's two-faced cards and the Check a card may carry. Part of the data pack's schema
(content/models.py names them: ``models.ReactionCard``), in a module of its own so that a
command that reads no Reaction card does not create their classes.
"""

from typing import Literal

from pydantic import model_validator

from blood_companion.content.models import Effect, Fatigue, Model, Record


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
