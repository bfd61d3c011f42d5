"""The one error family the CLI prints as a clear message and an exit code (cli/common.py)."""

from __future__ import annotations


class BloodError(Exception):
    """A refused rule, bad input or bad file. ``exit_code`` is 1 unless a subclass says so."""

    exit_code = 1

    def __init__(
        self, message: str, *, hint: str | None = None, see: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        # What to do instead, as action types or views ("night_next", "night_roll"): the CLI
        # names its own commands for them (cli/commands.py); the engine never does.
        self.see = tuple(see)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"ok": False, "error": self.message}
        if self.hint:
            out["hint"] = self.hint
        return out


class UsageError(BloodError):
    """Bad command-line input that the argument parser could not catch (exit code 2)."""

    exit_code = 2
