"""Fixtures for the store tests: a factory of fresh campaigns in a private saves folder."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from blood_companion.engine.campaign import Seat, StartCampaign
from blood_companion.store import CampaignStore


def start(name: str = "tuesday", seed: int = 7, troupers: tuple[str, ...] = ("aurel", "zora"),
          mode: str = "roguelite") -> StartCampaign:
    return StartCampaign(
        name=name, seed=seed, mode=mode, seats=[Seat(trouper=t) for t in troupers]  # type: ignore[arg-type]
    )


@pytest.fixture()
def start_of() -> Callable[..., StartCampaign]:
    """`start(name, seed=..., troupers=...)`: a StartCampaign action."""
    return start


@pytest.fixture()
def new_store(saves_dir: Path, catalog: Any) -> Iterator[Callable[..., CampaignStore]]:
    opened: list[CampaignStore] = []

    def make(name: str = "tuesday", **kw: Any) -> CampaignStore:
        store = CampaignStore.create(saves_dir, name, start(name, **kw), catalog)
        opened.append(store)
        return store

    yield make
    for s in opened:
        s.close()
