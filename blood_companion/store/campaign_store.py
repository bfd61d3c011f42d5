"""CampaignStore: the engine-facing session over one campaign's SQLite save.

``CampaignStore.open(saves_dir, "tuesday", catalog).record(AdjustWagon(coins=2))`` applies the
action and stores it in one small transaction. The class is the front of the store's three
parts: store/writer.py (the connection, the lock, the transaction and the head: how a write
keeps games safe), store/repository.py (the rows, read side: log, states, verify, export) and
store/migrations.py (the checks of a file opened and the upgrade of older saves).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blood_companion.engine.actions import Action, seed_for
from blood_companion.engine.chance import Chance
from blood_companion.engine.flow import apply
from blood_companion.engine.state import CampaignState
from blood_companion.engine.upcast import ACTION_SCHEMA
from blood_companion.store import docs, migrations, saves
from blood_companion.store import repository as repo
from blood_companion.store import writer as wr
from blood_companion.store.errors import CampaignNotFound, StoreError
from blood_companion.store.files import build_file, refuse_existing
from blood_companion.store.names import check_campaign_name
from blood_companion.store.repository import APP, LogEntry, VerifyReport, parse_stored
from blood_companion.store.writer import BACKUP_EVERY, LOCK_TIMEOUT, Writer

if TYPE_CHECKING:
    from blood_companion.content.loader import Catalog

__all__ = ["APP", "BACKUP_EVERY", "CampaignStore", "LogEntry", "VerifyReport", "parse_stored"]


class CampaignStore(Writer):
    """One open campaign save. Use :meth:`open` or :meth:`create`; close it (or use `with`)."""

    @classmethod
    def open(
        cls, saves_dir: Path, name: str, catalog: Catalog | Callable[[], Catalog] | None = None, *,
        timeout: float = LOCK_TIMEOUT,
    ) -> CampaignStore:
        """Open an existing campaign at its head, upgrading an older file after a backup.
        Raises BadNameError, CampaignNotFound, DamagedSave (file untouched), SaveInUse."""
        path = saves.save_path(saves_dir, name)
        if not path.is_file():
            other = saves.same_name_different_case(saves_dir, name)
            names = saves.campaign_names(saves_dir)
            hint = (
                f"did you mean {other!r}?"
                if other
                else ("campaigns here: " + ", ".join(names) if names else "")
                + ("; " if names else "")
                + "`blood campaign new NAME --troupers A,B` starts one"
            )
            raise CampaignNotFound(f"no campaign {name!r} in {saves_dir}", hint=hint)
        conn, ident = wr.connect_file(path, timeout)
        store = cls(saves_dir, name, path, conn, catalog)
        store._timeout = timeout
        store._ident = ident
        try:
            store._open_current()
            with store._reading() as conn:
                store._load_from(conn)
        except BaseException:
            store._conn.close()
            raise
        return store

    def _open_current(self) -> None:
        migrations.open_current(self)

    @classmethod
    def create(
        cls, saves_dir: Path, name: str, start: Action, catalog: Catalog | Callable[[], Catalog],
    ) -> CampaignStore:
        """Create campaign `name` starting with `start` (a StartCampaign). Raises
        BadNameError, CampaignExists or RuleError (nothing is written then)."""
        name = check_campaign_name(name)
        saves.ensure_dir(saves_dir)
        path = saves.save_path(saves_dir, name)
        refuse_existing(saves_dir, name, path)
        cat = catalog() if callable(catalog) else catalog
        chance = Chance.fresh(seed_for(CampaignState(), start), 0)
        state = apply(CampaignState(), start, cat, 0, chance)
        first = docs.StepSource(start.type, start.model_dump_json(), ACTION_SCHEMA,
                                wr.chance_json(chance), APP, cat.fingerprint(), docs.now())
        rows, snapshots = docs.chain_rows([first], [docs.state_doc(state)], head=1)
        build_file(
            saves_dir, name, rows, head=1, snapshots=snapshots,
            meta={"mode": state.mode, "seed": str(state.seed), "data_fp": cat.fingerprint()},
            datapacks={cat.fingerprint(): (cat.record_prints(), 1)}, install=True,
        )
        store = cls.open(saves_dir, name, cat)
        with contextlib.suppress(StoreError, OSError):
            store.backup("new campaign")
        return store

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> CampaignStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def log(self, *, include_abandoned: bool = False, last: int | None = None
            ) -> list[LogEntry]:
        with self._reading(lenient=True) as conn:
            return repo.log_entries(conn, self, lambda: self.catalog,
                                    include_abandoned=include_abandoned, last=last)

    def actions(self) -> list[Action]:
        with self._reading() as conn:
            return repo.actions(conn, self)

    def step_types(self) -> list[str]:
        with self._reading(lenient=True) as conn:
            return repo.step_types(conn)

    def step_results(self, first: int = 1) -> dict[int, dict[str, Any]]:
        with self._reading(lenient=True) as conn:
            return repo.results(conn, first)

    def state_at(self, step: int) -> CampaignState:
        """The recorded state after `step` (done or undone), without moving the head."""
        with self._reading() as conn:
            if not 1 <= step <= self._max_step:
                raise repo.no_step(step, self._max_step)
            return repo.rebuild_state(conn, self, step)[0]

    def marks(self) -> dict[str, int]:
        with self._reading() as conn:
            return repo.marks(conn)

    def verify(self) -> VerifyReport:
        catalog = self.catalog
        with self._reading(lenient=True) as conn:
            return repo.verify(conn, self, catalog, (self._head, self._hash))

    def export_doc(self) -> dict[str, Any]:
        with self._reading(lenient=True) as conn:
            return repo.export_doc(conn, self, self._hash, self._doc)
