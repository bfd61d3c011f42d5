"""Paying in Bran: Resources from the Wagon (the "any" Resource in any mix the players
choose) and Trophy tokens; the one purchase pipeline every Show purchase goes through.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from blood_companion.content.models import ResourceCost, TrophyCost
from blood_companion.engine.box import trophy_token
from blood_companion.engine.day.core import day_of, with_day
from blood_companion.engine.errors import RuleError
from blood_companion.engine.state import RESOURCE_NAMES, CampaignState, Wagon
from blood_companion.engine.words.text import counted, counted_all

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

def cost_text(cost: ResourceCost) -> str:
    """``2 coins + 1 any`` (any = any Resource)."""
    parts = [counted(getattr(cost, r), r) for r in RESOURCE_NAMES if getattr(cost, r)]
    if cost.any:
        parts.append(f"{cost.any} any")
    return " + ".join(parts) or "free"


def trophy_text(trophies: Sequence[TrophyCost]) -> str:
    parts = []
    for t in trophies:
        of = t.of or "any"
        parts.append(f"{t.n} {t.kind} trophy ({of})" if t.n == 1 else f"{t.n} {t.kind} ({of})")
    return " + ".join(parts)


def suggest_payment(wagon: Wagon, cost: ResourceCost) -> dict[str, int] | None:
    """A payment the Wagon can make for `cost` (specific Resources first, then the fullest
    disks for the "any" part), or None when the Wagon cannot pay it."""
    have = wagon.as_dict()
    pay = {r: getattr(cost, r) for r in RESOURCE_NAMES}
    if any(have[r] < pay[r] for r in RESOURCE_NAMES):
        return None
    left = cost.any
    for r in sorted(RESOURCE_NAMES, key=lambda r: (-(have[r] - pay[r]), RESOURCE_NAMES.index(r))):
        take = min(left, have[r] - pay[r])
        pay[r] += take
        left -= take
    if left:
        return None
    return {r: n for r, n in pay.items() if n}


def pay_text(pay: Mapping[str, int]) -> str:
    return ",".join(f"{r}={n}" for r, n in pay.items() if n)


def known_resource(r: str) -> None:
    if r not in RESOURCE_NAMES:
        raise RuleError(f"unknown Resource {r!r}", hint="Resources: " + ", ".join(RESOURCE_NAMES))


def can_afford(wagon: Wagon, cost: ResourceCost) -> bool:
    return suggest_payment(wagon, cost) is not None


def pay_resources(
    wagon: Wagon, cost: ResourceCost, pay: Mapping[str, int] | None, what: str
) -> tuple[Wagon, int]:
    """The Wagon after paying `cost` with `pay`, and the number of Resources spent.

    ``pay`` must give at least the specific Resources of the cost and exactly its total, the
    "any" part in any mix ("Resources": the players choose). Without ``pay`` only a cost with no
    "any" part is paid. Raises RuleError for an unknown Resource, an over- or under-payment or a
    payment the Wagon cannot make (the Wagon never goes negative).
    """
    suggestion = suggest_payment(wagon, cost)
    hint = f"e.g. --pay {pay_text(suggestion)}" if suggestion else None
    if pay is None:
        if cost.any:
            raise RuleError(f"{what} costs {cost_text(cost)}: say which Resources pay for it",
                            hint=hint or f"the Wagon holds {wagon_text(wagon)}")
        pay = {r: getattr(cost, r) for r in RESOURCE_NAMES}
    for r, n in pay.items():
        known_resource(r)
        if n < 0:
            raise RuleError(f"a payment cannot be negative ({r}={n})")
    given = {r: int(pay.get(r, 0)) for r in RESOURCE_NAMES}
    for r in RESOURCE_NAMES:
        need = getattr(cost, r)
        if given[r] < need:
            raise RuleError(
                f"{what} costs {cost_text(cost)}: the payment gives {counted(given[r], r)}, "
                f"{need} {'is' if need == 1 else 'are'} needed",
                hint=hint,
            )
    total = sum(given.values())
    if total != cost.total():
        word = "too much" if total > cost.total() else "too little"
        raise RuleError(
            f"{what} costs {cost.total()} Resources ({cost_text(cost)}); the payment gives "
            f"{total}: {word}",
            hint=hint,
        )
    have = wagon.as_dict()
    for r in RESOURCE_NAMES:
        if have[r] < given[r]:
            raise RuleError(f"the Wagon has {have[r]} {r}; paying {what} needs {given[r]}",
                            hint=hint or f"the Wagon holds {wagon_text(wagon)}")
    return Wagon(**{r: have[r] - given[r] for r in RESOURCE_NAMES}), total


def wagon_text(wagon: Wagon) -> str:
    return counted_all(wagon.as_dict(), zeros=True)


def pay_trophies(
    state: CampaignState,
    catalog: Catalog,
    needs: Sequence[TrophyCost],
    given: Mapping[str, int] | None,
    what: str,
) -> tuple[dict[str, int], dict[str, int]]:
    """The Location and Nemesis Trophy holdings after paying `needs`.

    ``given`` maps ``kind:of`` (or just ``of``) to a count; it must give every specific Trophy
    and exactly as many of each kind as the cost asks. Without it the Trophies are taken when
    there is only one way to pay. Raises RuleError otherwise.
    """
    holdings = {"location": dict(state.location_trophies), "nemesis": dict(state.nemesis_trophies)}
    specific: Counter[tuple[str, str]] = Counter()
    per_kind: Counter[str] = Counter()
    for t in needs:
        per_kind[t.kind] += t.n
        if t.of:
            specific[(t.kind, t.of)] += t.n
    if given is None:
        paid: Counter[tuple[str, str]] = Counter(specific)
        for kind, total in per_kind.items():
            left = total - sum(n for (k, _), n in specific.items() if k == kind)
            if not left:
                continue
            spare = {of: n - specific.get((kind, of), 0) for of, n in holdings[kind].items()
                     if n - specific.get((kind, of), 0) > 0}
            if sum(spare.values()) < left:
                raise RuleError(
                    f"{what} needs {trophy_text(needs)}; the players hold {trophies_text(state)}"
                )
            if len(spare) > 1 and sum(spare.values()) != left:
                options = ", ".join(f"{kind}:{of}" for of in sorted(spare))
                raise RuleError(
                    f"{what} needs {left} {kind} Trophy token(s) of any kind: say which",
                    hint=f"--trophies with some of {options}",
                )
            for of in sorted(spare):
                take = min(left, spare[of])
                paid[(kind, of)] += take
                left -= take
    else:
        paid = Counter()
        for key, n in given.items():
            if n < 0:
                raise RuleError(f"a Trophy payment cannot be negative ({key}={n})")
            if n:
                paid[trophy_token(catalog, key)] += n
        for kind in ("location", "nemesis"):
            gave = sum(n for (k, _), n in paid.items() if k == kind)
            if gave != per_kind.get(kind, 0):
                raise RuleError(
                    f"{what} costs {trophy_text(needs) or 'no Trophy tokens'}; the payment "
                    f"gives {gave} {kind} Trophy token(s), {per_kind.get(kind, 0)} are needed"
                )
        for (kind, of), n in specific.items():
            if paid[(kind, of)] < n:
                raise RuleError(
                    f"{what} needs {n} {kind} Trophy token(s) of {of}; the payment gives "
                    f"{paid[(kind, of)]}"
                )
    for (kind, of), n in paid.items():
        have = holdings[kind].get(of, 0)
        if have < n:
            raise RuleError(
                f"the players hold {have} {kind} Trophy token(s) of {of}; {what} needs {n}"
            )
        holdings[kind][of] = have - n
    clean = {k: {of: n for of, n in v.items() if n} for k, v in holdings.items()}
    return clean["location"], clean["nemesis"]


def trophies_text(state: CampaignState) -> str:
    parts = [f"{n} location:{of}" for of, n in sorted(state.location_trophies.items()) if n]
    parts += [f"{n} nemesis:{of}" for of, n in sorted(state.nemesis_trophies.items()) if n]
    return ", ".join(parts) or "no Trophy tokens"


def buy(
    state: CampaignState,
    cost: ResourceCost,
    pay: Mapping[str, int] | None,
    what: str,
    *,
    bought: str,
    day_update: Mapping[str, Any] | None = None,
    trade: Callable[[Wagon], Wagon] | None = None,
    **update: Any,
) -> CampaignState:
    """The one purchase pipeline of the Show: pay `cost` from the Wagon with `pay` (RuleError,
    state unchanged, when it cannot), note what was `bought` on the Day, count the Resources
    spent, and apply the purchase's own changes (`update`: Troupers, decks, trophies...;
    `day_update`: the Day's own flags; `trade`: the Alchemist's exchange after paying)."""
    day = day_of(state)
    wagon, n = pay_resources(state.wagon, cost, pay, what)
    if trade is not None:
        wagon = trade(wagon)
    day = day.model_copy(update={"purchases": [*day.purchases, bought], **(day_update or {})})
    return with_day(state, day, wagon=wagon, resources_spent=state.resources_spent + n, **update)
