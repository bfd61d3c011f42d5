"""Issue 29, Speed: the catalog cache is keyed by the pack's content, not where it is installed
(``content/raw.py``): two installs of one pack share one cache file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

# --------------------------------------------------------------------------- the catalog cache


def _install(where: Path) -> Path:
    """A copy of the shipped pack at ``where`` (another install of the same pack)."""
    import shutil

    from blood_companion.content.raw import shipped_data_dir

    shutil.copytree(shipped_data_dir(), where)
    return where


def test_the_cache_key_is_the_same_for_two_install_paths_of_one_pack(tmp_path: Path) -> None:
    from blood_companion.content.raw import _fingerprint

    a, b = _install(tmp_path / "one" / "data"), _install(tmp_path / "two" / "site" / "_data")
    assert _fingerprint([a]) == _fingerprint([b])
    (b / "dice.yaml").write_text((b / "dice.yaml").read_text() + "\n# a comment\n")
    assert _fingerprint([a]) != _fingerprint([b])  # what the pack holds is the key


def test_two_installs_share_one_cache_and_read_their_own_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from blood_companion.content import loader

    cache = tmp_path / "cache"
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(cache))
    monkeypatch.delenv("BLOOD_NO_CACHE", raising=False)
    a, b = _install(tmp_path / "one" / "data"), _install(tmp_path / "two" / "data")
    first = loader.load_layers([a])
    (written,) = cache.glob("catalog-*")

    def no_validation(layers: list[Path]) -> Any:
        raise AssertionError("validated again: the other install's cache was not used")

    monkeypatch.setattr(loader, "validate_layers", no_validation)
    second = loader.load_layers([b])
    assert list(cache.glob("catalog-*")) == [written]
    assert second.fingerprint() == first.fingerprint()
    assert second.layers == [b]
    origin = second.origins[("dice", "red")]
    assert origin.file.is_relative_to(b) and origin.file.is_file()
    assert first.origins[("dice", "red")].file.is_relative_to(a)
    monkeypatch.undo()
    monkeypatch.setenv("BLOOD_CACHE_DIR", str(cache))
    # an install of another pack adds its own cache file and leaves the first one in place
    (b / "dice.yaml").write_text((b / "dice.yaml").read_text() + "\n# a comment\n")
    loader.load_layers([b])
    assert written.is_file() and len(list(cache.glob("catalog-*"))) == 2


# --------------------------------------------------------------------------- data validate


def test_counts_of_a_cached_pack_build_no_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from blood_companion.content import loader
    from blood_companion.content.raw import shipped_data_dir

    monkeypatch.setenv("BLOOD_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("BLOOD_NO_CACHE", raising=False)
    fresh = loader.validate_layers([shipped_data_dir()])
    loader.load_layers([shipped_data_dir()])  # writes the cache
    cached = loader.load_layers([shipped_data_dir()])
    assert isinstance(cached.records, loader.LazyRecords)

    def no_build(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a record was built to be counted")

    monkeypatch.setattr(loader, "construct", no_build)
    counts = cached.counts()
    assert counts == fresh.counts()
    assert counts["placeholder_records"] == sum(
        1 for recs in fresh.records.values() for r in recs if r.source == "placeholder"
    )
    monkeypatch.undo()
    cached.all("nemeses")  # once built, a kind is counted from its records: the same
    assert cached.counts() == fresh.counts()


# --------------------------------------------------------------------------- the stored help
