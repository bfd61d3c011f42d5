"""`blood --help` answered from a stored text, like the stored views (``cli/views.py``).

The listing is a pure function of the app's code and the terminal, so the first run of a kind
renders it with typer and rich (most of its cost, issue 29) and stores it in the cache folder;
the next run with the same :func:`help_key` prints it without importing typer, rich or
pydantic. Anything unusual (no cache, a damaged or foreign file) renders in full."""

from __future__ import annotations

import hashlib
import os
import sys

from blood_companion.cli.settings import GLOBAL_OPTIONS, Settings

FORMAT = 1
MAX_HELP_BYTES = 1 << 20  # a listing is a few KB
# Variables rich and typer read to draw a help text (plus the app's own, GLOBAL_OPTIONS).
ENV_WORDS = ("COLOR", "COLOUR", "TERM", "COLUMNS", "LINES", "TTY", "TYPER", "WIDTH", "JUPYTER")
ENV_NAMES = ("GITHUB_ACTIONS", "DATABRICKS_RUNTIME_VERSION", "LANG", "LC_ALL", "LC_CTYPE")


def help_key() -> str:
    """The key of the listing this process would print."""
    from blood_companion import __version__

    h = hashlib.sha256(f"{FORMAT}|{__version__}|{sys.version}|{sys.platform}".encode())
    hash_code(h, ("cli",))
    for fd in (0, 1, 2):
        try:
            tty = os.isatty(fd)
            size: object = tuple(os.get_terminal_size(fd)) if tty else None
        except (OSError, ValueError):
            tty, size = False, None
        h.update(f"|fd{fd}:{tty}:{size}".encode())
    h.update(f"|{getattr(sys.stdout, 'encoding', None)}|{_isatty(sys.stdout)}".encode())
    for name in sorted(os.environ):
        if name in ENV_NAMES or name in GLOBAL_OPTIONS.values() or any(
            w in name.upper() for w in ENV_WORDS
        ):
            h.update(f"|{name}={os.environ[name]}".encode(errors="surrogateescape"))
    return h.hexdigest()[:32]


def hash_code(h: hashlib._Hash, packages: tuple[str, ...]) -> None:
    """Add to the hash `h` the name, size and time of each module of these subpackages."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for sub in packages:
        with os.scandir(os.path.join(root, sub)) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    st = entry.stat()
                    h.update(f"|{sub}/{entry.name}|{st.st_size}|{st.st_mtime_ns}".encode())


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


def help_path(key: str) -> str:
    from blood_companion.dirs import user_cache_dir

    return os.path.join(user_cache_dir(), "help", f"help-{key}.txt")


def help_main(settings: Settings) -> int:
    """Print `blood --help`: the stored text of this key, else rendered by the app (and
    stored when it renders without a problem)."""
    try:
        key = help_key()
        path = help_path(key)
        text = _read(path)
    except (OSError, ValueError):
        key, path, text = "", "", None
    if text is not None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    code, text = _render(settings)
    sys.stdout.write(text)
    sys.stdout.flush()
    if code == 0 and path and text:
        store_text(path, text)
    return code


def store_text(path: str, text: str, keep: int = 0) -> None:
    """Store a printed text in the cache folder (a read-only one only costs speed); with
    ``keep``, only the newest ``keep`` texts of that folder stay."""
    from blood_companion.errors import BloodError
    from blood_companion.fileio import remove_stale_tmp, write_atomic

    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        remove_stale_tmp(folder)
        write_atomic(path, text.encode("utf-8", errors="surrogateescape"))
        old = sorted((e.stat().st_mtime_ns, e.path) for e in os.scandir(folder)
                     if keep and e.name.endswith(".txt") and e.path != path)
        for _, stale in old[: max(0, len(old) - (keep - 1))]:
            os.unlink(stale)
    except (OSError, ValueError, BloodError):
        pass


def _read(path: str) -> str | None:
    """The stored text, or None when there is none (or it is not one we wrote)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    try:
        import stat

        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not 0 < st.st_size <= MAX_HELP_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_HELP_BYTES + 1)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class _Capture:
    """What the app prints, kept; it answers as the real stdout does about the terminal."""

    def __init__(self, real: object) -> None:
        self._real = real
        self._parts: list[str] = []
        self.encoding = getattr(real, "encoding", None) or "utf-8"
        self.errors = getattr(real, "errors", None)

    def write(self, text: str | bytes) -> int:
        # click may write bytes (its echo of a file without a text layer)
        self._parts.append(text if isinstance(text, str) else text.decode(self.encoding))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return _isatty(self._real)

    def fileno(self) -> int:
        return self._real.fileno()  # type: ignore[attr-defined]

    def text(self) -> str:
        return "".join(self._parts)


def _render(settings: Settings) -> tuple[int, str]:
    from blood_companion.cli.app import run

    real = sys.stdout
    capture = _Capture(real)
    sys.stdout = capture
    try:
        code = run(["--help"], settings)
    finally:
        sys.stdout = real
    return code, capture.text()
