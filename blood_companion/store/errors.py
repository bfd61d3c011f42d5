"""Typed errors of the save store (BloodErrors): each says what is wrong and how to recover."""

from __future__ import annotations

from pathlib import Path

from blood_companion.errors import BloodError
from blood_companion.fileio import SAVE_SUFFIX


class StoreError(BloodError):
    """A save that cannot be read, written or found."""


class BadNameError(StoreError):
    """A campaign or mark name that is not allowed (nothing is written)."""


class CampaignNotFound(StoreError):
    """No campaign of that name in the saves folder."""


class CampaignExists(StoreError):
    """`new` or `import` would overwrite a campaign."""


def disk_full(what: str) -> StoreError:
    return StoreError(f"the disk is full{what}", hint="free some space and run the command again")


class SaveInUse(StoreError):
    """Another process held the campaign longer than we were willing to wait."""


class HeadMoved(StoreError):
    """An answer made at a step the campaign has left (issue 42), checked inside the write
    transaction: of two answers to one question exactly one is recorded."""

    def __init__(self, expected: int, head: int, state_hash: str) -> None:
        moved = "moved on" if head != expected else "changed"
        super().__init__(
            f"already answered: the campaign {moved} since step {expected} (now step {head}); "
            "nothing was recorded",
            hint="answer the question asked now",
        )
        self.expected = expected
        self.head = head
        self.state_hash = state_hash


class DamagedSave(StoreError):
    """A truncated, corrupted, hand-edited or unknown-version save file (left untouched)."""

    def __init__(self, path: Path, problem: str, *, hint: str | None = None) -> None:
        name = path.name.removesuffix(SAVE_SUFFIX)
        super().__init__(
            f"the save file {path} cannot be used: {problem}. The file was left untouched.",
            hint=hint
            or (
                f"`blood campaign recover --campaign {name}` keeps every step it can prove "
                "(the damaged file is kept beside the backups)"
            ),
        )
        self.path = path
        self.problem = problem


class NothingToUndo(StoreError):
    """Undo (or undo --to) asked for more steps than the log has."""


class NothingToRedo(StoreError):
    """Redo with no undone steps (none, or replaced by a newer action)."""


class ImportRefused(StoreError):
    """An import file that does not validate; nothing was stored."""
