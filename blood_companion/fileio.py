"""Reading and writing the files users hand us, safely: one place for the checks.

* :func:`check_path` refuses a path the operating system would refuse with a traceback: a name
  longer than a file system takes (``OSError`` 36), a path longer than ``PATH_MAX``, bytes that
  are not UTF-8, a NUL.
* :func:`read_regular` reads a *regular* file with a size cap. A FIFO, ``/dev/zero``, a socket
  or a folder (directly or through a symlink) is refused with a clear message instead of hanging
  or filling the memory; a dangling symlink says so.
* :func:`write_atomic` writes a whole file or nothing (temporary file + rename), and
  :func:`remove_stale_tmp` clears the temporary files a killed process left behind.

Standard library only, and no ``pathlib`` or ``typing`` at import time: the fast paths
(``blood rules``, ``blood status``) use it too.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time

from blood_companion.errors import BloodError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (import time counts)
if TYPE_CHECKING:
    from pathlib import Path

MAX_NAME_BYTES = 255  # one file or folder name (ext4, APFS, NTFS, btrfs, ...)
MAX_PATH_BYTES = 4095  # PATH_MAX on Linux, less its NUL
STALE_TMP_SECONDS = 3600  # a temporary file this old belongs to nobody any more


class FileProblem(BloodError):
    """A file or folder that cannot be used; ``reason`` is the short why (for data problems)."""

    def __init__(self, path: Path | str, what: str, reason: str, *, hint: str | None = None):
        super().__init__(f"{what} {shown_path(path)} {reason}", hint=hint)
        self.path = path
        self.reason = reason


def shown_path(path: Path | str, limit: int = 80) -> str:
    """A path for a message: quoted, escaped, and shortened in the middle when very long."""
    text = os.fspath(path)
    if len(text) > limit:
        text = text[: limit // 2] + "…" + text[-(limit // 2) :]
    return repr(text)


def check_path(path: Path | str, what: str) -> Path:
    """Return ``Path(path)`` if the operating system can take it; raise FileProblem if not.

    ``what`` names the path in the message ("the saves folder", "the export file").
    """
    from pathlib import Path

    _check(os.fspath(path), what)
    return Path(path)


def _check(text: str, what: str) -> None:
    hint = "choose a shorter path (each name at most 255 bytes)"
    if "\0" in text:
        raise FileProblem(text, what, "contains a NUL character")
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError:
        raise FileProblem(
            text, what, "is not valid UTF-8 text", hint="rename it with UTF-8 characters only"
        ) from None
    for part in encoded.split(b"/"):
        if len(part) > MAX_NAME_BYTES:
            raise FileProblem(
                text, what, f"has a name of {len(part)} bytes (at most {MAX_NAME_BYTES})",
                hint=hint,
            )
    try:
        absolute = len(os.fsencode(os.path.abspath(text))) if text else 0
    except OSError:  # the current folder was deleted: judge the path as given
        absolute = len(encoded)
    if absolute > MAX_PATH_BYTES:
        raise FileProblem(
            text, what, f"is {absolute} bytes long as a full path (at most {MAX_PATH_BYTES})",
            hint=hint,
        )


def check_file_path(path: Path | str, what: str) -> Path:
    """:func:`check_path` for a path that must name a regular file (existing or not): not
    empty, ``.``, ``..`` or ending in ``/``; if it exists, not a folder, FIFO or device (an
    import of ``/dev/zero`` read until MemoryError). Raises FileProblem."""
    text = os.fspath(path)
    checked = check_path(text, what)
    if not text.strip() or text.endswith(("/", os.sep)) or checked.name in ("", ".", ".."):
        raise FileProblem(text, what, "names a folder, not a file", hint="e.g. tuesday.json")
    try:
        mode = os.stat(text).st_mode
    except (OSError, ValueError):
        return checked  # missing (or unreachable): the command that opens it says so
    if not stat.S_ISREG(mode):
        raise FileProblem(text, what, _describe_mode(mode), hint="e.g. tuesday.json")
    return checked


def _describe_mode(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def size_text(n: int) -> str:
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.0f} KB"
    return f"{n} bytes"


def read_regular(path: Path | str, *, limit: int, what: str = "the file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; raise FileProblem otherwise.

    The file is opened without blocking (a FIFO would wait for a writer forever) and checked
    on the open descriptor, so a symlink to a device or a file swapped meanwhile is refused too.
    """
    path = os.fspath(path)
    _check(path, what)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ENOENT and os.path.islink(path):
            raise FileProblem(path, what, "is a symlink to a file that does not exist") from None
        if exc.errno == errno.ELOOP:
            raise FileProblem(path, what, "is a loop of symlinks") from None
        raise FileProblem(path, what, f"cannot be read: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(path, what, _describe_mode(st.st_mode))
        if st.st_size > limit:
            raise FileProblem(
                path, what, f"is {size_text(st.st_size)}; at most {size_text(limit)} is read"
            )
        # A regular file never blocks; read one byte past the cap in case it grew meanwhile.
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileProblem(path, what, f"is larger than {size_text(limit)}")
        return b"".join(chunks)
    except OSError as exc:  # EIO, EISDIR on odd file systems, ...
        raise FileProblem(path, what, f"cannot be read: {exc.strerror}") from None
    finally:
        os.close(fd)


def read_text(path: Path | str, *, limit: int, what: str = "the file") -> str:
    """:func:`read_regular` decoded as UTF-8; raise FileProblem for bytes that are not UTF-8."""
    raw = read_regular(path, limit=limit, what=what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FileProblem(path, what, f"is not UTF-8 text (line {line})") from None


def write_atomic(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (raises OSError; no partial file stays)."""
    path = os.fspath(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError, ValueError):
        return True  # someone else's process: not ours to judge
    return True


def remove_stale_tmp(folder: Path | str, prefix: str = "") -> int:
    """Delete ``NAME.PID.tmp`` files in ``folder`` left by a process that is gone (or that are
    over an hour old). Never raises; returns how many were removed."""
    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        name = entry.name
        if not name.endswith(".tmp") or not name.startswith(prefix):
            continue
        pid_text = name[:-4].rpartition(".")[2]
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        stale = now - st.st_mtime > STALE_TMP_SECONDS
        if not stale and pid_text.isascii() and pid_text.isdigit() and len(pid_text) < 10:
            stale = not _pid_alive(int(pid_text))
        if stale:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed += 1
    return removed
