"""Backups that stay small (issue 19 item 4): compressed, thinned by generation, never
weakening recovery."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

from blood_companion.engine.campaign import AdjustWagon
from blood_companion.store import CampaignStore
from blood_companion.store import saves as sv
from blood_companion.store.manage import recover_campaign


def _names(n: int) -> list[Path]:
    return [Path(f"20260101T{i:012d}-g{i + 1:06d}-auto.blood.db.gz") for i in range(n)]


def test_thinning_keeps_the_newest_the_first_and_doubling_distances() -> None:
    names = _names(100)
    kept = sv.backups_to_keep(names)
    gens = sorted(sv.generation(p) or 0 for p in kept)
    assert gens == [1, 64, 80, 88, 96, 98, 99, 100]
    assert len(sv.backups_to_keep(_names(10_000))) <= 20  # logarithmic in the backups made


def test_thinning_is_stable_a_kept_backup_is_dropped_only_for_a_newer_one() -> None:
    alive: set[Path] = set()
    names = _names(300)
    for k in range(1, len(names) + 1):
        keep = sv.backups_to_keep(names[:k])
        dropped_now = alive - keep
        assert not (keep - alive - {names[k - 1]})  # nothing deleted ever comes back
        alive = keep
        assert names[k - 1] in keep and names[0] in keep
        assert len(dropped_now) <= 2


def test_protected_and_old_style_copies(tmp_path: Path) -> None:
    names = [*_names(5), Path("20250101T000000000000-deleted.blood.db"),
             Path("20250101T000000000001-before-migration-from-v1.blood.db"),
             *(Path(f"2025010{i}T000000000000-end-of-night.blood.db") for i in range(1, 6))]
    kept = sv.backups_to_keep(names)
    assert Path("20250101T000000000000-deleted.blood.db") in kept
    assert Path("20250101T000000000001-before-migration-from-v1.blood.db") in kept
    old = sorted(p.name for p in kept if "end-of-night" in p.name)
    assert old == ["20250104T000000000000-end-of-night.blood.db",
                   "20250105T000000000000-end-of-night.blood.db"]


def test_the_store_writes_compressed_backups_and_prunes_them(new_store: Any,
                                                            saves_dir: Path) -> None:
    store = new_store()
    for i in range(40):
        store.record(AdjustWagon(coins=1, reason=f"#{i}"))
        store.backup("test")
    folder = saves_dir / ".backups" / "tuesday"
    files = sorted(p.name for p in folder.iterdir())
    assert all(n.endswith(".blood.db.gz") for n in files)
    assert len(files) <= 9  # 41 taken (with "new campaign")
    newest = max(folder.iterdir(), key=lambda p: p.name)
    with gzip.open(newest) as f:
        assert f.read(16) == b"SQLite format 3\x00"


def test_recover_from_a_compressed_backup_and_skip_a_broken_one(
    new_store: Any, saves_dir: Path, catalog: Any
) -> None:
    store = new_store()
    store.record(AdjustWagon(coins=2))
    store.backup("good")
    store.record(AdjustWagon(coins=3))
    bad = store.backup("will break")
    store.close()
    bad.write_bytes(bad.read_bytes()[:200])  # a cut compressed file
    path = saves_dir / "tuesday.blood.db"
    path.write_bytes(b"not a save at all" * 100)
    result = recover_campaign(saves_dir, "tuesday", catalog)
    assert result.restored_from.name.endswith("-good.blood.db.gz")
    with CampaignStore.open(saves_dir, "tuesday", catalog) as back:
        assert back.state.wagon.coins == 2


def test_a_compressed_backup_that_inflates_too_far_is_refused(tmp_path: Path,
                                                             monkeypatch: Any) -> None:
    monkeypatch.setattr(sv, "MAX_BACKUP_BYTES", 1000)
    big = tmp_path / "x-g000001-auto.blood.db.gz"
    big.write_bytes(gzip.compress(b"\0" * 5000))
    import pytest

    from blood_companion.store.errors import StoreError

    with pytest.raises(StoreError, match="inflates"):
        sv.restore_copy(big, tmp_path / "out.blood.db")
