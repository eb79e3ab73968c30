"""A full disk mid-game halts play in place: said at the centre, no play taken, the game
kept, and play goes on by itself once there is room (issue 33, item 3).

The journal lives on a real, small tmpfs that the test mounts (as root; CI runs as
root) and fills with a file until the kernel says ENOSPC, so SQLite meets the full
disk exactly as on a table's SD card. Time between looks for room is a fake clock.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.kiosk.disk_full import HALTED, POLL, DiskFullHalt, room_for_journal
from controller.records.journal import Journal, JournalDiskFull
from controller.view import Screen, TableView
from hardware.events import Button, ButtonPressed
from tests.mock_gpio import FakeClock

GAME = "oshaka-trick"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 16 MiB tmpfs of its own, unmounted afterwards."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"mounting a tmpfs needs root: {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte with one file; the file, to free the space again."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for size in (1 << 16, 1 << 12, 1):  # big pieces, then the last page's bytes
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def actions_in(journal_path: Path) -> int:
    with Journal.open_existing(journal_path) as journal:
        row = journal.unfinished()
        return 0 if row is None else len(journal.actions(row.id))


class Shown:
    """What the kiosk hands the display, turn by turn."""

    def __init__(self) -> None:
        self.views: list[TableView] = []

    def __call__(self, view: TableView) -> object:
        self.views.append(view)
        return None


def turns(kiosk: Kiosk, shown: Shown, count: int) -> None:
    for _ in range(count):
        kiosk.run_frame(shown, most=0.0)


def test_a_full_disk_mid_game_halts_play_keeps_the_game_and_resumes_by_itself(
    small_disk: Path, tmp_path: Path
) -> None:
    journal_path = small_disk / "journal.sqlite3"
    kiosk = Kiosk.create(
        TableConfig.simulated(bots=4),
        seed=7,
        auto_game=GAME,
        journal_path=journal_path,
        records_dir=tmp_path / "records",
    )
    clock = FakeClock()
    assert kiosk.disk_full is not None
    kiosk.disk_full.clock = clock
    shown = Shown()
    with kiosk:
        kiosk.resume()
        for _ in range(400):  # the bots start the game and play into it
            turns(kiosk, shown, 1)
            if kiosk.table.game is not None and len(kiosk.table.game.recorder.actions) > 6:
                break
        assert kiosk.table.screen is Screen.PLAY
        filler = fill(small_disk)

        for _ in range(200):  # play on until a play cannot be journaled
            turns(kiosk, shown, 1)
            if kiosk.halted:
                break
        assert kiosk.halted and kiosk.table.screen is Screen.PLAY
        kept = actions_in(journal_path)
        assert kept > 6
        halted_view = shown.views[-1]
        assert halted_view.halted == HALTED and halted_view.screen is Screen.PLAY

        # Halted: no play is taken, by a bot or by a person, and nothing crashes.
        kiosk.events.put(ButtonPressed(0, Button.OK, clock.now))
        turns(kiosk, shown, 20)
        assert kiosk.halted and kiosk.events.empty()
        assert actions_in(journal_path) == kept
        clock.now += POLL  # a look finds the disk still full
        turns(kiosk, shown, 1)
        assert kiosk.halted

        filler.unlink()
        turns(kiosk, shown, 1)
        assert kiosk.halted  # not yet time to look again
        clock.now += POLL
        turns(kiosk, shown, 1)
        assert not kiosk.halted
        game = kiosk.table.game
        assert game is not None and len(game.recorder.actions) == kept
        assert shown.views[-1].halted is None

        for _ in range(5000):  # and the game plays on to its end
            turns(kiosk, shown, 1)
            if kiosk.finished():
                break
        assert kiosk.finished()
    assert list((tmp_path / "records").glob(f"*{GAME}*"))


def test_the_probe_says_whether_the_folder_takes_a_write(small_disk: Path) -> None:
    assert room_for_journal(small_disk)
    filler = fill(small_disk)
    assert not room_for_journal(small_disk)
    assert os.listdir(small_disk) == ["filler"]  # the probe leaves nothing behind
    filler.unlink()
    assert room_for_journal(small_disk)


def test_a_halt_looks_for_room_every_poll_and_recovers_once(tmp_path: Path) -> None:
    clock = FakeClock()
    recovered: list[bool] = []
    room = [False]
    halt = DiskFullHalt(
        tmp_path, lambda: recovered.append(True), room=lambda _: room[0], clock=clock
    )
    assert not halt.halted and halt.look()
    halt.halt(JournalDiskFull("the disk is full"))
    assert halt.halted and halt.wait() == POLL
    room[0] = True
    assert not halt.look() and recovered == []  # not yet due
    clock.now += POLL
    assert halt.look() and recovered == [True] and not halt.halted


def test_recovery_that_meets_the_full_disk_again_stays_halted(tmp_path: Path) -> None:
    clock = FakeClock()

    def still_full() -> Any:
        raise JournalDiskFull("still full")

    halt = DiskFullHalt(tmp_path, still_full, room=lambda _: True, clock=clock)
    halt.halt(JournalDiskFull("the disk is full"))
    clock.now += POLL
    assert not halt.look() and halt.halted
    assert halt.wait() == POLL  # and looks again a poll later
