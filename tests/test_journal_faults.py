"""The journal under faults that are not damage, and its one-writer lock.

A full disk, a read-only disk, missing permissions and impossible paths must
never move a healthy journal aside: the kiosk says in one line what is wrong
and how to fix it (exit 2), leaves the file as it is, and resumes the game
once the cause is fixed. A second kiosk on the same journal is refused.

The real faults need root (a size-limited tmpfs for a full disk, a read-only
bind mount, ``chattr +i`` for a folder even root may not write in, which is
how permissions are tested as root); without root those tests skip and say
so, and the injected-error tests below them cover the same classification
on every machine.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.kiosk.resume import resume_if_unfinished
from controller.records.history import export_record
from controller.records.journal import (
    Journal,
    JournalDamaged,
    JournalDiskFull,
    JournalLocked,
    JournalUnavailable,
    _os_problem,
    _sqlite_problem,
)
from controller.records.record import replay
from tests.conftest import run_cli_here
from tests.test_journal import Rig

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60

IS_ROOT = os.geteuid() == 0


def kiosk_arguments(journal: Path, out: Path) -> tuple[str, ...]:
    """The headless kiosk's command line on a journal, as staff would start it."""
    return ("kiosk", "--headless", "--seed", "3", "--journal", str(journal), "--out", str(out))


def kiosk(journal: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """Run the real headless kiosk on a journal in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "controller", *kiosk_arguments(journal, out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=TIMEOUT,
        check=False,
    )


def kiosk_here(journal: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``kiosk``, run in this process: for the journals the kiosk refuses before it plays.

    What a process of its own adds (its start, its exit status, its one line on the real
    standard error) the full-disk test checks with ``kiosk``; a refusal costs a process
    start and the kiosk's imports otherwise, most of each test's time.
    """
    return run_cli_here(*kiosk_arguments(journal, out))


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def fingerprint(folder: Path) -> dict[str, str]:
    """The journal and its write-ahead log with their content hashes (what "untouched" means).

    Not the lock file (it names the last holder) nor ``-shm`` (SQLite's
    shared-memory index of the log, rebuilt by every opener).
    """
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.name in ("journal.sqlite3", "journal.sqlite3-wal") and p.stat().st_size
    }


def game_in_progress(path: Path, actions: int = 9) -> int:
    """A journal at ``path`` with an Oshaka Trick game of ``actions`` player actions."""
    with Rig(path) as rig:
        rig.start()
        rig.play(actions)
        return rig.player_actions()


def resumes(path: Path, actions: int) -> None:
    """The journal opens, nothing was moved, and its game resumes with all its actions."""
    with Rig(path) as rig:
        assert rig.journal.notices == []
        assert resume_if_unfinished(rig.journal, rig.table) is not None
        assert rig.player_actions() == actions
    assert not list(path.parent.glob("*.damaged-*"))


def run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, timeout=TIMEOUT)


def can_mount() -> bool:
    if not IS_ROOT or shutil.which("mount") is None:
        return False
    probe = Path(f"/tmp/cafe-mount-probe-{os.getpid()}")
    probe.mkdir(exist_ok=True)
    try:
        run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe))
    except (subprocess.CalledProcessError, OSError):
        return False
    finally:
        with contextlib.suppress(subprocess.CalledProcessError, OSError):
            run("umount", str(probe))
        probe.rmdir()
    return True


needs_mount = pytest.mark.skipif(
    not can_mount(), reason="mounting a tmpfs or a read-only bind mount needs root"
)


@contextlib.contextmanager
def mounted(*command: str, target: Path) -> Iterator[Path]:
    run(*command)
    try:
        yield target
    finally:
        run("umount", str(target))


def fill(folder: Path) -> Path:
    """Write a filler file until the disk says it is full; delete it to free the space."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"x" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


# --- a full disk -----------------------------------------------------------------------------


@needs_mount
def test_a_full_disk_stops_the_kiosk_in_one_line_and_the_game_resumes(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    with mounted("mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(disk), target=disk):
        journal = disk / "journal.sqlite3"
        actions = game_in_progress(journal)
        filler = fill(disk)
        before = fingerprint(disk)
        done = kiosk(journal, tmp_path / "out")
        assert done.returncode == 75, done.stderr
        line = one_line(done.stderr)
        assert line.startswith("kiosk: ") and "the disk is full; free some space" in line
        assert "moved" not in line and done.stdout == ""
        assert fingerprint(disk) == before  # not moved, not changed
        with pytest.raises(JournalUnavailable, match="disk is full"):
            Journal.open(journal)
        filler.unlink()  # staff free some space
        resumes(journal, actions)


@needs_mount
@pytest.mark.slow  # over 5 s in the quick run on 2 cores (quiet, -n 4)
def test_a_disk_that_fills_mid_game_stops_the_kiosk_and_the_game_resumes(tmp_path: Path) -> None:
    """The real kiosk, a real full disk: the journal's writes fail part way into the game."""
    disk = tmp_path / "disk"
    disk.mkdir()
    with mounted("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk), target=disk):
        filler = fill(disk)
        with filler.open("r+b") as handle:  # leave room for a few journal writes only
            handle.truncate(filler.stat().st_size - 160 * 1024)
        journal, out = disk / "journal.sqlite3", tmp_path / "out"
        done = kiosk(journal, out)
        assert done.returncode == 75, done.stderr
        line = one_line(done.stderr)
        assert (
            line.startswith("kiosk: could not write to the game journal") and "disk is full" in line
        )
        with Journal.open_existing(journal) as reader:
            row = reader.unfinished()
            assert row is not None and reader.entry_count() > 0  # a game was under way
            before = export_record(reader, row.id)
        assert not list(disk.glob("*.damaged-*"))
        filler.unlink()  # staff free some space
        again = kiosk(journal, out)
        assert again.returncode == 0, again.stderr
        assert "Resumed the unfinished game" in again.stderr
        (record,) = out.glob("*.jsonl")
        assert record.read_text(encoding="utf-8").startswith(before)  # nothing lost
        assert replay(record.read_text(encoding="utf-8")).finished


def test_a_write_on_a_full_disk_is_refused_and_nothing_is_half_written(tmp_path: Path) -> None:
    """SQLite's max_page_count makes the next write fail with SQLITE_FULL, on any machine."""
    path = tmp_path / "journal.sqlite3"
    actions = game_in_progress(path, 4)
    with Journal.open(path) as journal:
        pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
        journal._db.execute(f"PRAGMA max_page_count = {pages}")
        big = {"seat": 0, "play": "R1", "note": "x" * 20_000}  # needs new pages
        with pytest.raises(JournalUnavailable, match="the disk is full") as caught:
            journal.action_accepted(big, chance=False)
        assert "moved" not in str(caught.value) and "\n" not in str(caught.value)
        assert journal.player_actions(journal.current_game or 0) == actions
        journal._db.execute("PRAGMA max_page_count = 1073741823")  # space freed
    resumes(path, actions)


# --- read-only disk and permissions ------------------------------------------------------------


@needs_mount
def test_a_read_only_disk_is_not_damage(tmp_path: Path) -> None:
    source, disk = tmp_path / "source", tmp_path / "disk"
    source.mkdir()
    disk.mkdir()
    journal = source / "journal.sqlite3"
    actions = game_in_progress(journal)
    before = fingerprint(source)
    with mounted("mount", "--bind", str(source), str(disk), target=disk):
        run("mount", "-o", "remount,ro,bind", str(disk))
        done = kiosk_here(disk / "journal.sqlite3", tmp_path / "out")
        assert done.returncode == 2, done.stderr
        line = one_line(done.stderr)
        assert "read-only" in line and "remount it read-write" in line
        assert "moved" not in line
        with pytest.raises(JournalUnavailable, match="read-only"):
            Journal.open(disk / "journal.sqlite3")
    assert fingerprint(source) == before
    resumes(journal, actions)  # the disk is writable again


@needs_mount
def test_no_journal_on_a_read_only_disk_says_nothing_moved(tmp_path: Path) -> None:
    source, disk = tmp_path / "source", tmp_path / "disk"
    source.mkdir()
    disk.mkdir()
    with mounted("mount", "--bind", str(source), str(disk), target=disk):
        run("mount", "-o", "remount,ro,bind", str(disk))
        done = kiosk_here(disk / "records" / "journal.sqlite3", tmp_path / "out")
        assert done.returncode == 2
        line = one_line(done.stderr)
        assert "read-only" in line and "moved" not in line
    assert list(source.iterdir()) == []


def lock_folder(folder: Path) -> Callable[[], None]:
    """Make a folder the table may not write in, in a way that holds even for root."""
    if IS_ROOT:
        run("chattr", "+i", str(folder))  # immutable: not even root may create files in it
        return lambda: run("chattr", "-i", str(folder))
    folder.chmod(0o555)
    return lambda: folder.chmod(0o755)


def chattr_works(tmp: Path) -> bool:
    if not IS_ROOT:
        return True  # chmod is enough
    if shutil.which("chattr") is None:
        return False
    probe = tmp / "probe"
    probe.mkdir()
    try:
        run("chattr", "+i", str(probe))
        run("chattr", "-i", str(probe))
    except (subprocess.CalledProcessError, OSError):
        return False
    return True


def test_a_folder_the_table_may_not_write_in_is_not_damage(tmp_path: Path) -> None:
    if not chattr_works(tmp_path):
        pytest.skip("as root only chattr +i stops writes, and this file system lacks it")
    folder = tmp_path / "records"
    folder.mkdir()
    journal = folder / "journal.sqlite3"
    actions = game_in_progress(journal)
    before = fingerprint(folder)
    unlock = lock_folder(folder)
    try:
        done = kiosk_here(journal, tmp_path / "out")
        assert done.returncode == 2, done.stderr
        line = one_line(done.stderr)
        assert "may not write in" in line and "give the table's user write access" in line
        assert "moved" not in line
    finally:
        unlock()
    assert fingerprint(folder) == before
    resumes(journal, actions)


def test_damage_that_cannot_be_moved_aside_says_so(tmp_path: Path) -> None:
    if not chattr_works(tmp_path):
        pytest.skip("as root only chattr +i stops writes, and this file system lacks it")
    folder = tmp_path / "records"
    folder.mkdir()
    journal = folder / "journal.sqlite3"
    journal.write_bytes(b"not a database at all" * 100)
    Journal.open(journal).close()  # (moved aside: a fresh one; now damage it again)
    journal.write_bytes(b"not a database at all" * 100)
    for moved in folder.glob("*.damaged-*"):
        moved.unlink()
    unlock = lock_folder(folder)
    try:
        done = kiosk_here(journal, tmp_path / "out")
    finally:
        unlock()
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert "could not be moved aside" in line and "It was moved" not in line
    assert journal.read_bytes() == b"not a database at all" * 100
    assert not list(folder.glob("*.damaged-*"))


@pytest.mark.parametrize(
    ("code", "words", "kind"),
    [
        (13, "the disk is full", JournalDiskFull),  # SQLITE_FULL: restarted until it passes
        (8, "it is read-only", JournalUnavailable),  # SQLITE_READONLY
        (5, "another program keeps it locked", JournalUnavailable),  # SQLITE_BUSY
        (10 | (12 << 8), "input/output error", JournalUnavailable),  # SQLITE_IOERR_READ
        (3, "check the disk", JournalUnavailable),  # SQLITE_PERM
        (11, "not a readable SQLite database", JournalDamaged),  # SQLITE_CORRUPT
        (26, "not a readable SQLite database", JournalDamaged),  # SQLITE_NOTADB
    ],
)
def test_sqlite_errors_are_told_apart(
    tmp_path: Path, code: int, words: str, kind: type[Exception]
) -> None:
    exc = sqlite3.OperationalError("injected")
    exc.sqlite_errorcode = code
    problem = _sqlite_problem(exc, tmp_path / "journal.sqlite3", "could not write")
    assert type(problem) is kind and words in str(problem)
    assert "\n" not in str(problem)


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (errno.ENOSPC, "the disk is full"),
        (errno.EROFS, "read-only; remount it read-write"),
        (errno.EACCES, "may not write in"),
        (errno.EPERM, "may not write in"),
        (errno.ENOENT, "does not exist; create it"),
        (errno.ENOTDIR, "part of that path is a file"),
    ],
)
def test_system_refusals_say_how_to_fix_them(tmp_path: Path, number: int, words: str) -> None:
    problem = _os_problem(OSError(number, os.strerror(number)), tmp_path / "j.sqlite3", "x")
    assert words in str(problem) and "resumes once that is fixed" in str(problem)


def test_a_disk_problem_while_resuming_never_moves_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    game_in_progress(path, 3)

    class FailingRead(Journal):
        def actions(self, game_id: int) -> list[tuple[dict[str, object], bool]]:
            raise JournalUnavailable("could not read the game journal: the disk is full")

    with Rig(path) as rig:
        rig.journal.__class__ = FailingRead
        with pytest.raises(JournalUnavailable):
            resume_if_unfinished(rig.journal, rig.table)
        assert rig.journal.notices == []
    assert not list(tmp_path.glob("*.damaged-*"))


# --- impossible paths ---------------------------------------------------------------------------


def test_journal_naming_a_folder_is_refused_and_the_folder_kept(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "keep.txt").write_text("x", encoding="utf-8")
    done = kiosk_here(folder, tmp_path / "out")
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert "is a folder, not a journal file" in line and "moved" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records"]
    assert [p.name for p in folder.iterdir()] == ["keep.txt"]


def test_journal_below_a_file_is_refused_in_one_line(tmp_path: Path) -> None:
    plain = tmp_path / "notes.txt"
    plain.write_text("x", encoding="utf-8")
    done = kiosk_here(plain / "journal.sqlite3", tmp_path / "out")
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert "is a file, not a folder" in line and "Traceback" not in done.stderr
    assert plain.read_text(encoding="utf-8") == "x"


@pytest.mark.slow  # over 5 s in the quick run on 2 cores (quiet, -n 4)
def test_a_missing_folder_is_named_and_not_created(tmp_path: Path) -> None:
    """A missing parent is likely an unmounted disk: a fresh journal would hide the real one."""
    journal = tmp_path / "usb" / "records" / "journal.sqlite3"
    done = kiosk(journal, tmp_path / "out")
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert f"the folder {tmp_path / 'usb'} does not exist; create it (or mount the disk" in line
    assert not (tmp_path / "usb").exists()
    (tmp_path / "usb").mkdir()  # mounted: the journal's own folder is made on a first start
    assert kiosk(journal, tmp_path / "out").returncode == 0
    assert journal.exists()


def test_a_path_with_a_newline_stays_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "a\nline 3: forged"
    folder.mkdir()
    done = kiosk_here(folder, tmp_path / "out")
    assert done.returncode == 2
    assert "\\n" in one_line(done.stderr)


# --- one writer -----------------------------------------------------------------------------------

HOLDER = """
import sys
from pathlib import Path
from controller.records.journal import Journal
journal = Journal.open(Path(sys.argv[1]))
print("ready", flush=True)
sys.stdin.read()  # hold the journal until the test closes stdin or kills us
journal.close()
"""


@pytest.mark.slow  # over 5 s on 2 cores
def test_a_second_kiosk_on_the_same_journal_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    actions = game_in_progress(journal, 5)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(journal)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        before = fingerprint(tmp_path)
        done = kiosk(journal, tmp_path / "out")
        assert done.returncode == 75
        line = one_line(done.stderr)
        assert f"in use by another table program (pid {holder.pid}, a kiosk)" in line
        assert "stop that one first" in line and done.stdout == ""
        assert fingerprint(tmp_path) == before  # the second one wrote nothing
        with pytest.raises(JournalLocked):
            Journal.open(journal)
    finally:
        holder.send_signal(signal.SIGKILL)  # a crash: the kernel drops its lock
        holder.wait(timeout=TIMEOUT)
    done = kiosk(journal, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert "Resumed the unfinished game" in done.stderr
    with Journal.open_existing(journal) as reader:
        assert reader.games()[0].status == "finished"
        assert reader.player_actions(1) > actions


def test_readers_do_not_need_the_lock(tmp_path: Path) -> None:
    """history, export and recover only read (WAL): they work while a kiosk holds the lock."""
    journal = tmp_path / "journal.sqlite3"
    game_in_progress(journal, 3)
    with Journal.open(journal), Journal.open_existing(journal) as reader:
        assert reader.player_actions(1) == 3


def test_the_lock_is_released_on_close(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    first = Journal.open(journal)
    with pytest.raises(JournalLocked, match=f"pid {os.getpid()}"):
        Journal.open(journal)
    first.close()
    first.close()  # twice is fine
    Journal.open(journal).close()
