"""The global options (``--saves-dir``, ``--data-dir``, ``--campaign``, else their ``BLOOD_*``
variables, else the defaults), read once per invocation into one :class:`Settings` value that is
:func:`current` while the command runs; nothing writes the environment, so two invocations in
one process never see each other's options. Standard library only (`blood rules` uses it)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from blood_companion.cli.flags import Opt
from blood_companion.dirs import user_data_dir

if TYPE_CHECKING:  # pathlib is imported when a Path is asked for (`blood rules` needs none)
    from pathlib import Path

# The global options, declared once: cli.entry takes them out of any command line, the typer
# app's callback (cli/app.py) is made of them (cli/flags.py).
GLOBALS = (
    Opt("saves_dir", "--saves-dir", kind="path", envvar="BLOOD_SAVES_DIR", metavar="DIR",
        help="Folder of campaign saves (default: ./saves when the working folder has one,"
        " else saves/ in your user data folder; `blood campaign list` says which)."),
    Opt("data_dir", "--data-dir", kind="path", envvar="BLOOD_DATA_DIR", metavar="DIR",
        help="Your data layered over the shipped pack."),
    Opt("campaign", "--campaign", envvar="BLOOD_CAMPAIGN", metavar="NAME", complete="campaign",
        help="Campaign to act on (default: the last one used)."),
)
# option -> environment variable read when the option is not given
GLOBAL_OPTIONS = {o.flags[0]: str(o.envvar) for o in GLOBALS}
DEFAULT_SAVES_DIR = "saves"
# Where the saves folder of an invocation came from (`blood campaign list` says it).
SAVES_FROM_OPTION = "--saves-dir"
SAVES_FROM_ENV = "BLOOD_SAVES_DIR"
SAVES_FROM_CWD = "./saves in the working folder"
SAVES_FROM_USER = "the user data folder"
SAVES_GIVEN = "given by the caller"


def default_saves_dir(env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """The saves folder when neither --saves-dir nor BLOOD_SAVES_DIR names one, and where it
    came from: ``./saves`` when the working folder has that folder (a checkout, a folder kept
    for the game), else ``saves`` in the platform's user data folder
    (``$XDG_DATA_HOME/blood-companion/saves``, ``~/.local/share/...``: :mod:`blood_companion.dirs`),
    the same from any working folder. Nothing is created here."""
    if os.path.isdir(DEFAULT_SAVES_DIR):
        return DEFAULT_SAVES_DIR, SAVES_FROM_CWD
    return os.path.join(user_data_dir(env), DEFAULT_SAVES_DIR), SAVES_FROM_USER


class Settings:
    """Where saves and the owner's data are, and which campaign a command acts on. Immutable;
    the folders as text (``saves_path``, ``data_path``) and as Paths (``saves_dir``...)."""

    __slots__ = ("saves_path", "data_path", "campaign", "saves_from")
    saves_path: str
    data_path: str | None
    campaign: str | None
    saves_from: str  # where the saves folder came from: one of the SAVES_* words above

    def __init__(self, saves_dir: str | os.PathLike[str] = DEFAULT_SAVES_DIR,
                 data_dir: str | os.PathLike[str] | None = None, campaign: str | None = None,
                 saves_from: str = SAVES_GIVEN) -> None:
        set_ = object.__setattr__
        set_(self, "saves_path", os.fspath(saves_dir))
        set_(self, "data_path", os.fspath(data_dir) if data_dir is not None else None)
        set_(self, "campaign", campaign)
        set_(self, "saves_from", saves_from)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Settings are read once and never changed")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Settings) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Settings(saves_dir={self.saves_path!r}, data_dir={self.data_path!r}, "
                f"campaign={self.campaign!r})")

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
    def resolve(cls, saves_dir: str | os.PathLike[str] | None = None,
                data_dir: str | os.PathLike[str] | None = None, campaign: str | None = None,
                env: Mapping[str, str] | None = None) -> Settings:
        """Options given win; the environment fills the rest; then the defaults (the saves
        folder: :func:`default_saves_dir`)."""
        env = os.environ if env is None else env
        saves: str | os.PathLike[str]
        if saves_dir:
            saves, source = saves_dir, SAVES_FROM_OPTION
        elif env.get("BLOOD_SAVES_DIR"):
            saves, source = env["BLOOD_SAVES_DIR"], SAVES_FROM_ENV
        else:
            saves, source = default_saves_dir(env)
        data = data_dir or env.get("BLOOD_DATA_DIR") or None
        return cls(saves, data, campaign or env.get("BLOOD_CAMPAIGN") or None, source)


_CURRENT: ContextVar[Settings | None] = ContextVar("blood_settings", default=None)


def current() -> Settings:
    """The settings of the command running now (from the environment when none runs)."""
    found = _CURRENT.get()
    return found if found is not None else Settings.resolve()


@contextmanager
def using(settings: Settings) -> Iterator[Settings]:
    """Make ``settings`` :func:`current` while a command runs."""
    token = _CURRENT.set(settings)
    try:
        yield settings
    finally:
        _CURRENT.reset(token)


# No argument (nor a line typed at a `blood play` prompt) is longer: nothing a player types is,
# and it keeps every number typed below Python's 4,300-digit limit for int().
MAX_ARG = 4096
_BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def argument_problem(text: str) -> str | None:
    """Why a typed argument cannot be taken, or None when it can."""
    if len(text) > MAX_ARG:
        return f"is {len(text)} characters long (at most {MAX_ARG})"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        byte = f" (byte 0x{code - 0xDC00:02X})" if 0xDC80 <= code <= 0xDCFF else ""
        return f"is not valid UTF-8 text{byte}"
    for ch in text:
        if (ch < " " and ch not in "\t\n") or "\x7f" <= ch <= "\x9f" or ch in _BIDI:
            return f"contains the control character U+{ord(ch):04X}"
    for word in text.replace(",", " ").replace("=", " ").replace(":", " ").split():
        if word.isdigit() and not word.isdecimal():
            return f"has {word[:20]!r}, which is not a number (type the digits 0-9)"
    return None
