"""The catalog cache is keyed by the pack's content, not where it is installed
(``content/raw.py``): two installs of one pack share one cache file, each reading its own files.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from blood_companion.content import loader
from blood_companion.content.loader import _fingerprint
from blood_companion.content.raw import shipped_data_dir


def _install(where: Path) -> Path:
    """A copy of the shipped pack at ``where`` (another install of the same pack)."""
    shutil.copytree(shipped_data_dir(), where)
    return where


def test_the_cache_key_is_the_same_for_two_install_paths_of_one_pack(tmp_path: Path) -> None:
    a, b = _install(tmp_path / "one" / "data"), _install(tmp_path / "two" / "site" / "_data")
    assert _fingerprint([a]) == _fingerprint([b])
    (b / "dice.yaml").write_text((b / "dice.yaml").read_text() + "\n# a comment\n")
    assert _fingerprint([a]) != _fingerprint([b])  # what the pack holds is the key


def test_two_installs_share_one_cache_and_read_their_own_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
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
