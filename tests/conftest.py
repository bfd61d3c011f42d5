"""Shared fixtures: a private catalog cache and saves folder for every test session."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# Never read or write the user's real cache from tests.
os.environ.setdefault("BLOOD_CACHE_DIR", tempfile.mkdtemp(prefix="blood-cache-"))
os.environ.pop("BLOOD_DATA_DIR", None)
# ...nor the cards an owner transcribed into their user data folder (the default overlay).
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="blood-userdata-")
os.environ.pop("BLOOD_CAMPAIGN", None)


@pytest.fixture(scope="session")
def catalog():  # type: ignore[no-untyped-def]
    from blood_companion.content.loader import load_catalog

    return load_catalog()


@pytest.fixture()
def saves_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "saves"
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(d))
    return d
