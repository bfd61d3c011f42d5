"""blood_companion.fileio: paths the system refuses, files that are not regular files, caps,
atomic writes and the temporary files a killed process leaves behind (issue 14, items 3, 9, 16)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from blood_companion.fileio import (
    FileProblem,
    check_file_path,
    check_path,
    read_regular,
    read_text,
    remove_stale_tmp,
    write_atomic,
)


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """A read that blocks (a FIFO, /dev/zero) fails the test instead of hanging it."""

    def fail(*_: object) -> None:
        raise TimeoutError("the read blocked")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def test_long_names_are_refused_with_a_message(tmp_path: Path) -> None:
    with pytest.raises(FileProblem, match="name of 300 bytes"):
        check_path(tmp_path / ("A" * 300), "the saves folder")
    with pytest.raises(FileProblem, match="as a full path"):
        check_path(tmp_path.joinpath(*["B" * 200] * 25), "the export file")
    with pytest.raises(FileProblem, match="not valid UTF-8"):
        check_path(tmp_path / "x\udcff", "the export file")
    assert check_path(tmp_path / "ok", "f") == tmp_path / "ok"


def test_the_message_quotes_a_short_excerpt(tmp_path: Path) -> None:
    with pytest.raises(FileProblem) as info:
        check_path("C" * 4000, "the data folder")
    assert len(info.value.message) < 200


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "reactions.yaml"
    os.mkfifo(fifo)
    with pytest.raises(FileProblem, match="named pipe"):
        read_regular(fifo, limit=1000)


def test_devices_and_symlinks_to_devices_are_refused(tmp_path: Path) -> None:
    link = tmp_path / "zz.yaml"
    link.symlink_to("/dev/zero")
    for path in (Path("/dev/zero"), link):
        with pytest.raises(FileProblem, match="is a device"):
            read_regular(path, limit=1 << 20)


def test_folders_dangling_symlinks_and_loops(tmp_path: Path) -> None:
    with pytest.raises(FileProblem, match="is a folder"):
        read_regular(tmp_path, limit=10)
    dangling = tmp_path / "gone.yaml"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileProblem, match="symlink to a file that does not exist"):
        read_regular(dangling, limit=10)
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    with pytest.raises(FileProblem, match="loop of symlinks"):
        read_regular(loop, limit=10)
    with pytest.raises(FileProblem, match="cannot be read: No such file"):
        read_regular(tmp_path / "missing.yaml", limit=10)


def test_the_size_cap(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as fh:
        fh.truncate(50 << 20)  # sparse: costs no disk
    started = time.perf_counter()
    with pytest.raises(FileProblem, match=r"is 50\.0 MB; at most 2\.0 MB"):
        read_regular(big, limit=2 << 20)
    assert time.perf_counter() - started < 1
    small = tmp_path / "small.yaml"
    small.write_bytes(b"- a\n")
    assert read_regular(small, limit=4) == b"- a\n"
    assert read_text(small, limit=4) == "- a\n"
    small.write_bytes(b"\xff\n")
    with pytest.raises(FileProblem, match="not UTF-8"):
        read_text(small, limit=10)


def test_write_atomic_leaves_no_partial_file(tmp_path: Path) -> None:
    target = tmp_path / "cache.json"
    write_atomic(target, b"one")
    assert target.read_bytes() == b"one"
    with pytest.raises(OSError):
        write_atomic(tmp_path / "missing-folder" / "x", b"two")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache.json"]


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_tmp_files_of_dead_processes_are_removed(tmp_path: Path) -> None:
    dead = tmp_path / f"catalog-abc.pickle.{_dead_pid()}.tmp"
    mine = tmp_path / f"catalog-abc.pickle.{os.getpid()}.tmp"
    old = tmp_path / "rules-1234.marshal.1.tmp"
    keep = tmp_path / "catalog-abc.pickle"
    for p in (dead, mine, old, keep):
        p.write_bytes(b"partial")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    assert remove_stale_tmp(tmp_path) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, keep.name])
    assert remove_stale_tmp(tmp_path / "no-such-folder") == 0


def test_a_path_that_must_name_a_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    for path, why in (("", "names a folder"), (".", "names a folder"), ("x/", "names a folder"),
                      (str(tmp_path), "is a folder"), ("/dev/zero", "is a device"),
                      (str(tmp_path / "pipe.json"), "named pipe")):
        with pytest.raises(FileProblem, match=why):
            check_file_path(path, "the file to import")
    assert check_file_path(tmp_path / "new.json", "f") == tmp_path / "new.json"
