"""Issue 29, Speed: a cached catalog builds the records a lookup returns, not whole kinds.

A recorded step asks the catalog for a few records by id (a Trouper, its Items, a Nemesis);
building every record of each kind asked for (2,425 records for 21 lookups) was a tenth of the
command. The records built per id are the ones the whole kind holds: equal, and the same
objects once the kind is built.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from blood_companion.content import loader
from blood_companion.content.raw import shipped_data_dir


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> loader.Catalog:
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("BLOOD_NO_CACHE", raising=False)
    loader.load_layers([shipped_data_dir()])  # writes the cache
    found = loader.load_layers([shipped_data_dir()])
    assert isinstance(found.records, loader.LazyRecords)
    return found


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    built: list[str] = []
    real = loader.construct

    def counted(cls: Any, data: dict[str, Any], *fields_set: Any) -> Any:
        if fields_set:  # a record (its nested models are built with two arguments)
            built.append(cls.__name__)
        return real(cls, data, *fields_set)

    monkeypatch.setattr(loader, "construct", counted)
    return built


def test_a_lookup_by_id_builds_only_that_record(
    cached: loader.Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = loader.validate_layers([shipped_data_dir()])
    built = _counting(monkeypatch)
    trouper = cached.trouper("aurel")
    assert trouper == fresh.trouper("aurel")
    assert built == ["Trouper"]  # its kind holds more: none of them built
    assert len(fresh.all("troupers")) > 1
    assert cached.trouper("nobody") is None and built == ["Trouper"]
    card_id = fresh.all("advanced_tactics")[3].id
    assert cached.tactic(card_id) == fresh.tactic(card_id)
    assert cached.find(card_id) == fresh.find(card_id)
    assert built.count("TacticCard") == 1  # the same record again: built once
    assert len(built) < 10


def test_lookups_by_field_build_only_their_records(
    cached: loader.Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = loader.validate_layers([shipped_data_dir()])
    built = _counting(monkeypatch)
    items = cached.items_for("aurel")
    assert items == fresh.items_for("aurel") and items
    assert len(built) == len(items) < len(fresh.all("trouper_items"))
    assert cached.starting_tactics_for("zora") == fresh.starting_tactics_for("zora")
    assert cached.lieutenants() == fresh.lieutenants()
    assert cached.vlad() == fresh.vlad()
    zone = fresh.all("locations")[0].zone
    assert cached.locations_in(zone) == fresh.locations_in(zone)
    assert cached.advanced_deck("alchemy") == fresh.advanced_deck("alchemy")


def test_a_whole_kind_holds_the_records_built_by_id(cached: loader.Catalog) -> None:
    one = cached.trouper("zora")
    every = cached.all("troupers")
    assert any(t is one for t in every)
    assert cached.trouper("zora") is one
    fresh = loader.validate_layers([shipped_data_dir()])
    assert every == fresh.all("troupers")
    assert cached.counts() == fresh.counts()
