"""The End of the Night's legal actions as typed options (engine/legal.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from blood_companion.engine import endgame as eg
from blood_companion.engine import leader
from blood_companion.engine.legal import Ask, Next, Option, Pick
from blood_companion.engine.state import RESOURCE_NAMES, CampaignState
from blood_companion.engine.table import at_table

if TYPE_CHECKING:
    from collections.abc import Callable

    from blood_companion.content.loader import Catalog
    from blood_companion.engine.board_view import PartBoard


def end_view(state: CampaignState, catalog: Catalog) -> Next:
    rw = state.rewards
    if rw is None:
        return Next("end", "end", "End of the Night", "Nothing is owed.", end=True)
    title = "End of the Night · " + ("Victory" if rw.result == "won" else "Defeat")
    prompt = eg.rewards_next(state, catalog)
    forfeit = Option("f", "Finish the game now, leaving the rest", "finish_game", {"forfeit": True})
    if rw.vlad_cards:
        cards = [v for v in catalog.vlad_reactions_in(rw.zone) if v.id not in state.vlad_weakened]
        opts = [Option(str(i + 1), f"Turn {v.enhanced.name} to its Weakened side "
                       f"({v.weakened.name})", "weaken_vlad", {"cards": [v.id]})
                for i, v in enumerate(cards)]
        return Next("end", "vlad_cards", title, prompt, options=(*opts, forfeit),
                    default="1" if opts else "f")
    if rw.advanced_tactics:
        from blood_companion.engine.day.options import arts_of

        opts = []
        used = {a for t in state.troupers for a in arts_of(catalog, t.trouper)}
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
        # round the table: the Trouper whose turn it is takes an Art their deck uses
        turn = len(rw.tactics_taken) % max(1, len(state.troupers))
        mine = arts_of(catalog, state.troupers[turn].trouper) if state.troupers else set()
        default = next((o.key for o in opts if o.fields["art"] in mine),
                       next((o.key for o in opts if o.fields["art"] in used),
                            opts[0].key if opts else "f"))
        return Next("end", "advanced_tactics", title, prompt, options=(*opts, forfeit),
                    default=default)
    if rw.loot:
        roll = rw.loot[0]
        needs: tuple[str, ...] = ("resource",) if roll.resource == "any" else ()
        table = at_table(state, "loot")  # the players roll the loot dice: they type the faces
        typed = Option("t", f"Type the faces of your {'' if table else 'own '}dice ({roll.dice})",
                       "roll_loot", needs=(*needs, "faces"))
        rolled = () if table else (Option("r", f"Roll {roll.dice} here (digital)", "roll_loot",
                                          needs=needs),)
        return Next("end", "loot", title, prompt, options=(*rolled, typed, forfeit),
                    default="t" if table else "r")
    return Next("end", "finish", title, prompt,
                options=(Option("1", "Finish the game", "finish_game"),), default="1")


def end_asker(
    state: CampaignState, catalog: Catalog, option: Option, answers: Mapping[str, Any],
    need: str,
) -> Ask | None:
    rw = state.rewards
    if need == "trouper":
        from blood_companion.engine.day.options import art_picks

        # round the table, each card to the next Trouper whose Building rule uses its Art
        turn = len(rw.tactics_taken) % max(1, len(state.troupers)) if rw else 0
        art = str(option.fields.get("art"))
        picks, default = art_picks(state, catalog, art, first=turn)
        return Ask("trouper", f"Who takes the top {art} card into their Personal Reserve? "
                   f"({leader.settles(state, catalog)})", picks, default=default)
    if need == "resource":
        return Ask("resource", "Which Resource do the Triumphs give?",
                   tuple(Pick(str(i + 1), r.capitalize(), r)
                         for i, r in enumerate(RESOURCE_NAMES)), default="1")
    if need == "faces":
        from blood_companion.engine.day.options import faces_reader

        dice = rw.loot[0].dice if rw and rw.loot else ""
        return Ask("faces", f"The faces of your dice ({dice})", (),
                   free=f"the faces of your dice ({dice}), e.g. \"2 x 1\"",
                   parse=faces_reader(catalog, dice) if dice else (lambda t: t))
    return None


# The End's options that ask follow-up questions (engine/flow.py: the End phase's askers).
ASKED = ("take_advanced_tactic", "roll_loot")


def end_board(state: CampaignState, catalog: Catalog, view: Next | None,
              commands: Callable[[Next | None], list[str]]) -> PartBoard:
    """The End of the Night's section of the board (``flow.board``): the rewards owed."""
    rewards = state.rewards.model_dump(mode="json") if state.rewards is not None else None
    return "rewards", rewards, {"title": "End of the Night",
                                "prompt": eg.rewards_next(state), "commands": commands(None)}
