"""The one file writer (issue 24, item 4): `fileio.write_file` for the files a user names,
`fileio.write_atomic` for the app's own. Neither writes through a link, onto a FIFO, a device,
a folder or a campaign save, nor (user files) into the saves folder or over a file without
``force``; each writes whole or not at all."""

from __future__ import annotations

import os
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blood_companion.fileio import FileProblem, folder_problem, write_atomic, write_file


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    def fail(*_: object) -> None:
        raise TimeoutError("blocked")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_new_file_is_written_and_an_existing_one_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "cards.txt"
    assert write_file(out, b"one") is True
    assert out.read_bytes() == b"one"
    with pytest.raises(FileProblem, match="already exists") as info:
        write_file(out, b"two")
    assert info.value.hint == "add --force to overwrite it"
    assert out.read_bytes() == b"one"
    assert write_file(out, b"one") is False  # the same bytes: nothing to overwrite
    assert write_file(out, b"two", force=True) is True
    assert out.read_bytes() == b"two"
    assert names(tmp_path) == ["cards.txt"]  # no temporary file left


def test_overwriting_keeps_the_file_mode(tmp_path: Path) -> None:
    out = tmp_path / "cards.txt"
    out.write_bytes(b"old")
    out.chmod(0o600)
    write_file(out, b"new", force=True)
    assert out.stat().st_mode & 0o777 == 0o600


def test_symlinks_are_never_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    link = tmp_path / "link.txt"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "nowhere")
    for target in (link, dangling):
        for writer in (lambda p: write_file(p, b"x", force=True), lambda p: write_atomic(p, b"x")):
            with pytest.raises(FileProblem, match="is a symlink"):
                writer(target)
    assert victim.read_bytes() == b"precious"
    assert not (tmp_path / "nowhere").exists()


def test_hard_links_are_refused(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    other = tmp_path / "other.txt"
    os.link(victim, other)
    with pytest.raises(FileProblem, match="2 names"):
        write_file(other, b"x", force=True)
    with pytest.raises(FileProblem, match="2 names"):
        write_atomic(other, b"x")
    assert victim.read_bytes() == b"precious" == other.read_bytes()


def test_fifos_devices_and_folders_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FileProblem, match="named pipe"):
        write_file(fifo, b"x", force=True)
    with pytest.raises(FileProblem, match="named pipe"):
        write_atomic(fifo, b"x")
    with pytest.raises(FileProblem, match="is a device"):
        write_file("/dev/null", b"x", force=True)
    with pytest.raises(FileProblem, match="is a folder"):
        write_file(tmp_path, b"x", force=True)
    with pytest.raises(FileProblem, match="names a folder"):
        write_file(str(tmp_path) + "/", b"x", force=True)
    assert names(tmp_path) == ["pipe"]


def test_campaign_saves_are_never_written_over(tmp_path: Path) -> None:
    save = tmp_path / "elsewhere.db"
    conn = sqlite3.connect(save)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    before = save.read_bytes()
    with pytest.raises(FileProblem, match="SQLite database"):
        write_file(save, b"x", force=True)
    with pytest.raises(FileProblem, match="SQLite database"):
        write_atomic(save, b"x")
    assert save.read_bytes() == before
    with pytest.raises(FileProblem, match="campaign save's name"):
        write_file(tmp_path / "new.blood.db", b"x")
    assert not (tmp_path / "new.blood.db").exists()


def test_nothing_is_written_inside_the_saves_folder(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    (saves / "sub").mkdir(parents=True)
    (tmp_path / "alias").symlink_to(saves)
    for target in (saves / "notes.txt", saves / "sub" / "x.json", saves / "..." / ".." / "x",
                   tmp_path / "alias" / "x.txt", tmp_path / "other" / ".." / "saves" / "y"):
        with pytest.raises(FileProblem, match="inside the saves folder"):
            write_file(target, b"x", force=True, saves_dir=saves)
    assert names(saves) == ["sub"] and names(saves / "sub") == []
    write_file(tmp_path / "saves-not.txt", b"x", saves_dir=saves)  # a sibling is fine


def test_check_only_writes_nothing(tmp_path: Path) -> None:
    assert write_file(tmp_path / "a.txt", b"x", check_only=True) is True
    assert names(tmp_path) == []


def test_os_errors_are_one_line_problems(tmp_path: Path) -> None:
    with pytest.raises(FileProblem, match="cannot be written: No such file"):
        write_file(tmp_path / "missing" / "x.txt", b"x")
    with pytest.raises(OSError):  # the app's own files: the caller decides (a cache is optional)
        write_atomic(tmp_path / "missing" / "x.txt", b"x")
    assert names(tmp_path) == []


def test_folder_problems(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    file = tmp_path / "file"
    file.write_text("x")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert folder_problem(loop) == "is a loop of symlinks"
    assert folder_problem(file) == "is a file, not a folder"
    assert folder_problem(file / "below") == "is inside something that is not a folder"
    assert "named pipe" in (folder_problem(fifo) or "")
    assert folder_problem(tmp_path) is None and folder_problem(tmp_path / "new") is None


KINDS = ("missing", "file", "symlink", "hardlink", "fifo", "folder", "save", "loop")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), force=st.booleans(), data=st.binary(max_size=64),
       name=st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\0"),
                    min_size=1, max_size=40).filter(
                        lambda n: n not in (".", "..") and not n.endswith(".tmp")))
def test_whatever_is_there_the_victim_is_untouched(
    tmp_path_factory: pytest.TempPathFactory, kind: str, force: bool, data: bytes, name: str
) -> None:
    folder = tmp_path_factory.mktemp("w")
    victim = folder / "victim"
    victim.write_bytes(b"precious")
    target = folder / name
    if kind == "file":
        target.write_bytes(b"old")
    elif kind == "symlink":
        target.symlink_to(victim)
    elif kind == "hardlink":
        os.link(victim, target)
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    elif kind == "save":
        conn = sqlite3.connect(target)
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
        conn.close()
    elif kind == "loop":
        target.symlink_to(target)
    allowed = kind == "missing" or (kind == "file" and (force or data == b"old"))
    if name.endswith(tuple(".blood.db" + s for s in ("", "-journal", "-wal", "-shm"))):
        allowed = False
    try:
        write_file(target, data, force=force)
    except FileProblem as exc:
        assert not allowed, exc
        assert "\n" not in exc.message
    else:
        assert allowed
        assert target.read_bytes() == data
    assert victim.read_bytes() == b"precious"
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
