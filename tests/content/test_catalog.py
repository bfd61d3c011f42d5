"""The shipped pack is complete in counts and consistent; overlays and the cache behave."""

from __future__ import annotations

import os
import pickle
import time
from pathlib import Path
from typing import Any

import pytest

from blood_companion.content import loader
from blood_companion.content import models as m
from blood_companion.content.loader import load_catalog, shipped_data_dir, validate_layers
from blood_companion.content.render import render_effect

EXPECTED = {
    "nemeses": 6,
    "reaction_cards": 60,
    "vlad_reaction_cards": 12,
    "weakness_cards": 18,
    "minions": 8,
    "zones": 4,
    "locations": 16,
    "events": 24,
    "troupers": 4,
    "starting_tactic_cards": 48,
    "trouper_items": 24,
    "village_buildings": 5,
    "dice": 3,
}


def test_shipped_counts(catalog) -> None:  # type: ignore[no-untyped-def]
    counts = catalog.counts()
    for key, n in EXPECTED.items():
        assert counts[key] == n, key
    assert counts["advanced_tactic_cards"] >= 6 * 6


def test_every_card_is_marked(catalog) -> None:  # type: ignore[no-untyped-def]
    for kind, records in catalog.records.items():
        for r in records:
            assert r.source in ("rulebook", "placeholder"), (kind, r.id)


def test_bran_buildings_as_printed(catalog) -> None:  # type: ignore[no-untyped-def]
    costs = {b.name: b.cost.any for b in catalog.village.buildings}
    assert costs == {
        "Hunting House": 6,
        "Cartographer's Office": 4,
        "Sanatorium": 1,
        "Asylum": 10,
        "Alchemist's Laboratory": 1,
    }
    assert all(b.source == "rulebook" for b in catalog.village.buildings)


def test_each_nemesis_has_its_cards(catalog) -> None:  # type: ignore[no-untyped-def]
    assert catalog.nemesis("lucilla") is not None
    assert catalog.vlad() is not None
    for n in catalog.lieutenants():
        assert len(catalog.reactions_for(n.id)) == 12
    for n in catalog.all("nemeses"):
        assert sorted(w.side for w in catalog.weaknesses_for(n.id)) == ["front", "left", "right"]


def test_vlad_cards_have_two_sides_three_per_zone(catalog) -> None:  # type: ignore[no-untyped-def]
    for zone in ("catacombs", "garden", "graveyard", "halls"):
        assert len(catalog.vlad_reactions_in(zone)) == 3


def test_trouper_decks_follow_building(catalog) -> None:  # type: ignore[no-untyped-def]
    for t in catalog.all("troupers"):
        deck = catalog.starting_tactics_for(t.id)
        assert len(deck) == 12
        for rule in t.building:
            assert sum(1 for c in deck if c.art == rule.art) == rule.count
        cats = {i.category for i in catalog.items_for(t.id)}
        assert cats == set(m.ITEM_CATEGORIES)


def test_advanced_decks_cover_six_arts(catalog) -> None:  # type: ignore[no-untyped-def]
    for art in m.ARTS:
        assert catalog.advanced_deck(art), art


def test_locations_one_per_red_face(catalog) -> None:  # type: ignore[no-untyped-def]
    faces = {f.label for f in catalog.die("R").faces}
    for zone in ("catacombs", "garden", "graveyard", "halls"):
        assert {loc.choice for loc in catalog.locations_in(zone)} == faces


def test_every_effect_renders(catalog) -> None:  # type: ignore[no-untyped-def]
    n = 0
    for records in catalog.records.values():
        for r in records:
            for eff in _effects(r):
                text = render_effect(eff)
                assert text and "None" not in text, (r.id, text)
                n += 1
    assert n > 200


def _effects(obj: object) -> list[m.Effect]:
    out: list[m.Effect] = []
    if isinstance(obj, m.Effect):
        return [obj]
    if isinstance(obj, m.Model):
        for name in type(obj).model_fields:
            out.extend(_effects(getattr(obj, name)))
    elif isinstance(obj, list):
        for x in obj:
            out.extend(_effects(x))
    return out


def test_render_reads_like_the_rulebook() -> None:
    eff = m.Effect(
        target=m.Target(kind="trouper", distance="any", priority=["closest", "fewest_bites"]),
        outcome=[m.Outcome(kind="run"), m.Outcome(kind="wound"), m.Outcome(kind="bite")],
        test=m.EffectTest(traits=["strength", "dexterity"], target=5),
    )
    assert render_effect(eff) == (
        "Target: Trouper (any distance; closest then fewest Bites). "
        "Outcome: Run, Wound, Bite (Strength / Dexterity 5)."
    )


OVERRIDE = """\
- id: {id}
  name: Transcribed Name
  source: rulebook
  type: beast
  defenses: {{physical: 3, mind: 2}}
  effects: []
"""


def test_overlay_overrides_and_adds(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    first = catalog.all("minions")[0]
    (tmp_path / "minions.yaml").write_text(OVERRIDE.format(id=first.id))
    cat = validate_layers([shipped_data_dir(), tmp_path])
    assert cat.get("minions", first.id).name == "Transcribed Name"
    assert len(cat.all("minions")) == 8


def test_cache_is_invalidated_by_a_change(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    first = catalog.all("minions")[0]
    f = tmp_path / "minions.yaml"
    f.write_text(OVERRIDE.format(id=first.id))
    a = load_catalog(tmp_path)
    b = load_catalog(tmp_path)
    assert a.get("minions", first.id).name == b.get("minions", first.id).name == "Transcribed Name"
    time.sleep(0.01)
    f.write_text(OVERRIDE.format(id=first.id).replace("Transcribed Name", "Second Edit"))
    c = load_catalog(tmp_path)
    assert c.get("minions", first.id).name == "Second Edit"


def test_cache_does_not_hide_errors(tmp_path: Path) -> None:
    from blood_companion.content.errors import ContentError

    (tmp_path / "minions.yaml").write_text("- id: [\n")
    with pytest.raises(ContentError):
        load_catalog(tmp_path)
    with pytest.raises(ContentError):
        load_catalog(tmp_path)


def test_cached_catalog_equals_the_validated_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache gives every record (nested models too) exactly as validation made it, with
    the same set fields, prints and fingerprint, and the same places in the same files."""
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path))
    fresh = validate_layers([shipped_data_dir()])
    load_catalog(use_cache=True)  # writes the cache
    (cache_file,) = tmp_path.glob("catalog-*")

    def no_validation(layers: list[Path]) -> Any:
        raise AssertionError("validated again: the cache was not read")

    monkeypatch.setattr(loader, "validate_layers", no_validation)
    cached = load_catalog(use_cache=True)
    for kind, records in fresh.records.items():
        again = cached.all(kind)
        assert [r.id for r in again] == [r.id for r in records]
        for a, b in zip(records, again, strict=True):
            assert type(a) is type(b)
            assert a == b and a.model_dump() == b.model_dump()
            assert a.model_fields_set == b.model_fields_set
    assert cached.record_prints() == fresh.record_prints()
    assert cached.fingerprint() == fresh.fingerprint()
    assert cached.counts() == fresh.counts()
    assert dict(cached.origins) == dict(fresh.origins)
    assert cached.get("dice", "red").faces[0].label == fresh.get("dice", "red").faces[0].label


def _junk_pickles() -> list[bytes]:
    return [
        b"", b"\x80\x04junk", b"not a pickle at all", b"\xff" * 64,
        pickle.dumps((2, "another key", {}, [], {})),  # another format and key
        pickle.dumps(["a", "list"]),  # not the cache's shape
        pickle.dumps(object),
    ]


@pytest.mark.parametrize("junk", _junk_pickles())
def test_a_damaged_cache_is_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, junk: bytes
) -> None:
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path))
    load_catalog(use_cache=True)
    (cache_file,) = tmp_path.glob("catalog-*")
    cache_file.write_bytes(junk)
    assert load_catalog(use_cache=True).get("dice", "red") is not None
    assert cache_file.read_bytes() != junk  # validated again and written anew


def test_a_cache_file_others_may_write_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pickle runs code when it is read: a cache file anybody else may write is not read
    (the pack is validated again, and the file written anew as the user's own)."""
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path))
    load_catalog(use_cache=True)
    (cache_file,) = tmp_path.glob("catalog-*")
    cache_file.chmod(0o666)
    validated: list[int] = []
    real = loader.validate_layers

    def counted(layers: list[Path]) -> Any:
        validated.append(1)
        return real(layers)

    monkeypatch.setattr(loader, "validate_layers", counted)
    assert load_catalog(use_cache=True).get("dice", "red") is not None
    assert validated == [1]
    assert not cache_file.stat().st_mode & 0o022
    assert load_catalog(use_cache=True).get("dice", "red") is not None
    assert validated == [1]  # the file written anew is read
    cache_file.unlink()
    before = os.umask(0o002)  # a umask that lets the user's group write
    try:
        load_catalog(use_cache=True)
    finally:
        os.umask(before)
    assert validated == [1, 1]
    load_catalog(use_cache=True)
    assert validated == [1, 1]  # the cache written under that umask is read


def test_old_cache_files_are_removed_and_a_few_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One file per pack in use on this machine, the newest few; files of an earlier format
    (``catalog-*.marshal``) go."""
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path))
    old = tmp_path / "catalog-0123.marshal"
    others = [tmp_path / f"catalog-{n:04}.pickle" for n in range(loader.KEEP_CACHES + 2)]
    for n, path in enumerate([old, *others]):
        path.write_bytes(b"x")
        os.utime(path, ns=(n * 10**9, n * 10**9))
    load_catalog(use_cache=True)
    kept = sorted(p.name for p in tmp_path.glob("catalog-*"))
    assert old.name not in kept and len(kept) == loader.KEEP_CACHES
    assert others[-1].name in kept and others[0].name not in kept
