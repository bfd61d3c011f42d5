"""The global options, read once per invocation into one :class:`Settings` value.

``blood --saves-dir DIR --data-dir DIR --campaign NAME`` (anywhere on the command line), else
``BLOOD_SAVES_DIR``, ``BLOOD_DATA_DIR`` and ``BLOOD_CAMPAIGN``, else the defaults. ``cli.entry``
takes the options out of the command line and resolves them; the typer app's callback puts the
value in the typer context (``ctx.obj``) and makes it :func:`current` while the command runs.
Nothing writes the environment, so two invocations in one process (tests, ``blood play``) never
see each other's options. Standard library only (the fast paths use it).
"""

from __future__ import annotations

import os
from contextvars import ContextVar

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (import time counts)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path
    from types import TracebackType

# option -> environment variable read when the option is not given
GLOBAL_OPTIONS = {
    "--saves-dir": "BLOOD_SAVES_DIR",
    "--data-dir": "BLOOD_DATA_DIR",
    "--campaign": "BLOOD_CAMPAIGN",
}
DEFAULT_SAVES_DIR = "saves"


class Settings:
    """Where saves and the owner's data are, and which campaign a command acts on.

    Immutable; the folders as given (``saves_path``, ``data_path``: text, for the light paths
    that never import pathlib) and as :class:`~pathlib.Path` (``saves_dir``, ``data_dir``)."""

    __slots__ = ("saves_path", "data_path", "campaign")
    saves_path: str
    data_path: str | None
    campaign: str | None

    def __init__(
        self,
        saves_dir: str | os.PathLike[str] = DEFAULT_SAVES_DIR,
        data_dir: str | os.PathLike[str] | None = None,
        campaign: str | None = None,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "saves_path", os.fspath(saves_dir))
        set_(self, "data_path", os.fspath(data_dir) if data_dir is not None else None)
        set_(self, "campaign", campaign)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Settings are read once and never changed")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Settings) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Settings(saves_dir={self.saves_path!r}, data_dir={self.data_path!r}, "
            f"campaign={self.campaign!r})"
        )

    def _key(self) -> tuple[str, str | None, str | None]:
        return (self.saves_path, self.data_path, self.campaign)

    @property
    def saves_dir(self) -> Path:
        from pathlib import Path

        return Path(self.saves_path)

    @property
    def data_dir(self) -> Path | None:
        from pathlib import Path

        return Path(self.data_path) if self.data_path is not None else None

    @classmethod
    def resolve(
        cls,
        saves_dir: str | os.PathLike[str] | None = None,
        data_dir: str | os.PathLike[str] | None = None,
        campaign: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> Settings:
        """Options given win; the environment fills the rest; then the defaults."""
        env = os.environ if env is None else env
        saves = saves_dir or env.get("BLOOD_SAVES_DIR") or DEFAULT_SAVES_DIR
        data = data_dir or env.get("BLOOD_DATA_DIR") or None
        return cls(saves, data, campaign or env.get("BLOOD_CAMPAIGN") or None)


_CURRENT: ContextVar[Settings | None] = ContextVar("blood_settings", default=None)


def current() -> Settings:
    """The settings of the command running now (from the environment when none runs)."""
    found = _CURRENT.get()
    return found if found is not None else Settings.resolve()


class using:  # noqa: N801 - used like a function: `with using(settings):`
    """Make ``settings`` :func:`current` while a command runs."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._token = None

    def __enter__(self) -> Settings:
        self._token = _CURRENT.set(self.settings)  # type: ignore[assignment]
        return self.settings

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._token is not None:
            _CURRENT.reset(self._token)
            self._token = None
