"""Reading and writing the files users hand us, safely: one place for the checks.

* :func:`check_path` refuses a path the system would refuse with a traceback (a name or path
  too long, bytes that are not UTF-8, a NUL).
* :func:`read_regular` reads a *regular* file with a size cap: a FIFO, ``/dev/zero``, a socket
  or a folder (even through a symlink) is refused clearly instead of hanging or filling memory.
* :func:`write_file` is the one way the app writes a user's file: whole or not at all, never
  through a symlink or onto a hard link, a FIFO, a device, a folder, a campaign save or into the
  saves folder, over an existing file only with ``--force``. :func:`write_atomic` is the same
  for the app's own files, which it replaces freely.

Standard library only, and no ``pathlib`` or ``typing`` at import time: `blood rules`,
answered before typer, uses it too.
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
    from collections.abc import Callable, Iterator
    from pathlib import Path

MAX_NAME_BYTES = 255  # one file or folder name (ext4, APFS, NTFS, btrfs, ...)
MAX_PATH_BYTES = 4095  # PATH_MAX on Linux, less its NUL
STALE_TMP_SECONDS = 3600  # a temporary file this old belongs to nobody any more
# reading never waits (a FIFO would wait for a writer forever) and no child process inherits it
READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


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
    """``Path(path)`` if the system can take it, else FileProblem naming it as ``what``."""
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
    """:func:`check_path` for a path that must name a regular file (existing or not): no
    folder name, FIFO or device (an import of ``/dev/zero``). Raises FileProblem."""
    text = os.fspath(path)
    checked = check_path(text, what)
    if not text.strip() or text.endswith(("/", os.sep)) or checked.name in ("", ".", ".."):
        raise FileProblem(text, what, "names a folder, not a file", hint="e.g. tuesday.json")
    try:
        mode = os.stat(text).st_mode
    except (OSError, ValueError):
        return checked  # missing (or unreachable): the command that opens it says so
    if not stat.S_ISREG(mode):
        raise FileProblem(text, what, describe_mode(mode), hint="e.g. tuesday.json")
    return checked


def describe_mode(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def folder_problem(path: Path | str) -> str | None:
    """Why ``path`` cannot be used as a folder, or None (a folder, or nothing yet)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None if not os.path.islink(path) else "is a symlink to nothing"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a loop of symlinks"
        if exc.errno == errno.ENOTDIR:
            return "is inside something that is not a folder"
        return f"cannot be used: {exc.strerror}"
    except ValueError:
        return "is not a usable path"
    if stat.S_ISDIR(st.st_mode):
        return None
    if stat.S_ISREG(st.st_mode):
        return "is a file, not a folder"
    return describe_mode(st.st_mode).replace("regular file", "folder")


def size_text(n: int) -> str:
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.0f} KB"
    return f"{n} bytes"


def read_regular(path: Path | str, *, limit: int, what: str = "the file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, else FileProblem: opened
    without blocking and checked on the descriptor (a link to a device or a swap is refused)."""
    path = os.fspath(path)
    _check(path, what)
    try:
        fd = os.open(path, READ_FLAGS)
    except OSError as exc:
        if exc.errno == errno.ENOENT and os.path.islink(path):
            raise FileProblem(path, what, "is a symlink to a file that does not exist") from None
        if exc.errno == errno.ELOOP:
            raise FileProblem(path, what, "is a loop of symlinks") from None
        raise FileProblem(path, what, f"cannot be read: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(path, what, describe_mode(st.st_mode))
        if st.st_size > limit:
            raise FileProblem(
                path, what, f"is {size_text(st.st_size)}; at most {size_text(limit)} is read"
            )
        # A regular file never blocks; read one byte past the cap in case it grew meanwhile.
        data = _read_fd(fd, limit + 1)
        if len(data) > limit:
            raise FileProblem(path, what, f"is larger than {size_text(limit)}")
        return data
    except OSError as exc:  # EIO, EISDIR on odd file systems, ...
        raise FileProblem(path, what, f"cannot be read: {exc.strerror}") from None
    finally:
        os.close(fd)


def read_text(path: Path | str, *, limit: int, what: str = "the file") -> str:
    raw = read_regular(path, limit=limit, what=what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FileProblem(path, what, f"is not UTF-8 text (line {line})") from None


SAVE_SUFFIX = ".blood.db"  # how store/saves.py names campaign saves
SQLITE_MAGIC = b"SQLite format 3\x00"
FORCE_HINT = "add --force to overwrite it"
DISK_FULL = (errno.ENOSPC, errno.EFBIG)  # errors of a write that found no room


def write_file(
    path: Path | str, data: bytes, *, what: str = "the file", force: bool = False,
    saves_dir: Path | str | None = None, check_only: bool = False,
) -> bool:
    """Write ``data`` to a file a user named (``--out``, an export): :func:`write_atomic`'s
    checks, over a file only with ``force``, never inside ``saves_dir``. False when it already
    held ``data``. ``check_only``: the checks alone. Raises FileProblem (a full disk too)."""
    text = os.fspath(path)
    if saves_dir is not None and is_inside(text, os.fspath(saves_dir)):
        raise FileProblem(
            text, what, "is inside the saves folder; a file written there could replace a save",
            hint="write it to another folder, e.g. your home folder",
        )
    try:
        return _write(text, data, what=what, replace=force, check_only=check_only)
    except OSError as exc:
        if exc.errno in (*DISK_FULL, getattr(errno, "EDQUOT", errno.ENOSPC)):
            raise FileProblem(text, what, "was not written: the disk is full",
                              hint="free some space and run the command again") from None
        raise FileProblem(text, what, f"cannot be written: {exc.strerror or exc}") from None


def write_atomic(path: Path | str, data: bytes) -> None:
    """Write one of the app's own files whole or not at all, replacing it. FileProblem for a
    symlink, a hard link, not a regular file or a save; OSError (no partial file stays)."""
    _write(os.fspath(path), data, what="the file", replace=True)


def is_inside(path: Path | str, folder: Path | str) -> bool:
    """Whether ``path`` is ``folder`` or inside it, symlinks followed."""
    try:
        target = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(path)),
                                               os.path.basename(path) or "."))
        root = os.path.realpath(folder)
    except (OSError, ValueError):
        return False
    return target == root or target.startswith(root.rstrip(os.sep) + os.sep)


def _write(path: str, data: bytes, *, what: str, replace: bool, check_only: bool = False) -> bool:
    _check(path, what)
    name = os.path.basename(path)
    if not path.strip() or path.endswith(("/", os.sep)) or name in ("", ".", ".."):
        raise FileProblem(path, what, "names a folder, not a file", hint="e.g. cards.txt")
    if name.endswith(tuple(SAVE_SUFFIX + end for end in ("", "-journal", "-wal", "-shm"))):
        raise FileProblem(path, what, "is a campaign save's name; the app never writes over one",
                          hint="choose another file name")
    try:
        st: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None:
        _refuse_existing(path, st, data, what=what, replace=replace)
        if not replace:
            return False  # the same bytes are there already
    if check_only:
        return True
    folder = os.path.dirname(path) or "."
    tmp = os.path.join(folder, f".{name[:100]}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)  # our own leftover (this PID): never another process's
    fd = os.open(tmp, flags, 0o666)
    try:
        try:
            if st is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        # Checked again just before the swap: a name turned into a link meanwhile is refused
        # (the rename itself would replace the link, never write through it).
        try:
            now = os.lstat(path)
        except FileNotFoundError:
            pass
        else:
            if st is None or (now.st_ino, now.st_dev) != (st.st_ino, st.st_dev):
                _refuse_existing(path, now, None, what=what, replace=replace)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return True


def _refuse_existing(
    path: str, st: os.stat_result, data: bytes | None, *, what: str, replace: bool
) -> None:
    """FileProblem unless ``path`` (lstat ``st``) may be replaced, or (not ``replace``)
    already holds ``data``."""
    if stat.S_ISLNK(st.st_mode):
        raise FileProblem(path, what, "is a symlink; the app does not write through links",
                          hint="name the file itself, or remove the link first")
    if not stat.S_ISREG(st.st_mode):
        raise FileProblem(path, what, describe_mode(st.st_mode), hint="choose another file name")
    if st.st_nlink > 1:
        raise FileProblem(
            path, what, f"has {st.st_nlink} names (hard links); the app does not write over it",
            hint="choose another file name",
        )
    compare = not replace and data is not None
    head = _head(path, max(len(SQLITE_MAGIC), len(data) + 1) if compare and data is not None
                 else len(SQLITE_MAGIC))
    if head.startswith(SQLITE_MAGIC):
        raise FileProblem(path, what, "is an SQLite database (a campaign save?); the app never "
                          "writes over one", hint="choose another file name")
    if replace:
        return
    if compare and head == data:
        return
    raise FileProblem(path, what, "already exists", hint=FORCE_HINT)


def _head(path: str, limit: int) -> bytes:
    """Up to ``limit`` bytes of a regular file, not following a link (b"" when unreadable)."""
    try:
        fd = os.open(path, READ_FLAGS | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return b""
    try:
        return _read_fd(fd, limit) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


def _read_fd(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while total < limit:
        chunk = os.read(fd, min(1 << 20, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


@contextlib.contextmanager
def unlinking(path: Path | str) -> Iterator[None]:
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


def pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError, ValueError):
        return True  # someone else's process: not ours to judge
    return True


def _stale_entries(folder: Path | str, pid_of: Callable[[str], str | None]
                   ) -> Iterator[tuple[str, os.stat_result]]:
    """(path, lstat) of each leftover (``pid_of`` reads a PID) over an hour old or whose
    process is gone."""
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        pid_text = pid_of(entry.name)
        if pid_text is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if now - st.st_mtime > STALE_TMP_SECONDS or (
            pid_text.isascii() and pid_text.isdigit() and len(pid_text) < 10
            and not pid_alive(int(pid_text))
        ):
            yield entry.path, st


def remove_stale_tmp(folder: Path | str, prefix: str = "") -> int:
    """Delete the ``NAME.PID.tmp`` (and ``-journal``) files of gone processes; how many."""

    def pid_of(name: str) -> str | None:
        name = name.removesuffix("-journal")
        if not name.endswith(".tmp") or not name.startswith(prefix):
            return None
        return name[:-4].rpartition(".")[2]

    removed = 0
    for path, st in _stale_entries(folder, pid_of):
        if stat.S_ISREG(st.st_mode):
            with contextlib.suppress(OSError):
                os.unlink(path)
                removed += 1
    return removed


def private_tmp_dir(prefix: str) -> str:
    """A new ``PREFIX-PID-xxxx`` temporary folder, after removing those of killed processes."""
    import tempfile

    base = tempfile.gettempdir()
    remove_stale_dirs(base, prefix)
    return tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=base)


def remove_stale_dirs(folder: Path | str, prefix: str) -> int:
    """Delete our ``PREFIX-PID-...`` folders of gone processes (or over an hour old); how many."""
    import shutil

    def pid_of(name: str) -> str | None:
        return name[len(prefix):].partition("-")[0] if name.startswith(prefix) else None

    removed = 0
    uid = os.getuid() if hasattr(os, "getuid") else None
    for path, st in _stale_entries(folder, pid_of):
        if stat.S_ISDIR(st.st_mode) and (uid is None or st.st_uid == uid):
            shutil.rmtree(path, ignore_errors=True)
            removed += not os.path.lexists(path)
    return removed
