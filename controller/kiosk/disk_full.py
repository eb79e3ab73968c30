"""A full disk mid-game: the table says so, stops taking plays, keeps the game, and goes on
by itself once there is room again.

The journal is written before anything is shown (``controller.records.journal``),
so when the disk fills, the play being journaled is not on the disk, and the
engine has already taken it. Exiting (status 75) and resuming at the next start
kept the game, but the screen went black until systemd's restart, over and
over while the disk stayed full. Now the kiosk halts in place instead:

* the centre of the screen says the disk is full (``HALTED``, in the table's
  language), over the game, which stays on the seats' panels;
* input is taken off the queue and dropped, and bots do not move: a tap or
  press while halted is not a play (the journal could not keep it);
* every ``POLL`` seconds a small file is written and synced beside the journal;
  once that works, the table is rebuilt from the journal, exactly as a restart
  would (``Kiosk.resume``): the game as it was before the play that failed, and
  the players make that play again.

One log line when it halts, one when it goes on; nothing in between.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.games.words import say
from controller.records.journal import JournalDiskFull

__all__ = ["HALTED", "POLL", "PROBE_BYTES", "DiskFullHalt", "room_for_journal"]

logger = logging.getLogger(__name__)

POLL = 5.0
"""Seconds between looks at whether the disk has room again."""

PROBE_BYTES = 256 * 1024
"""What the probe writes: room for a few journal pages and SQLite's -wal growth."""

HALTED = say(
    "The table's disk is full, so no play can be kept: play is paused, and the game so far "
    "is safe. Staff: free some space on the table's disk (old records, logs); the game "
    "goes on by itself."
)


def room_for_journal(folder: Path, size: int = PROBE_BYTES) -> bool:
    """Whether ``size`` bytes can be written and synced in ``folder`` now (then removed)."""
    probe = folder / f".cafe-table-room-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, b"\0" * size)
            os.fsync(fd)
        finally:
            os.close(fd)
        return True
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()


@dataclass
class DiskFullHalt:
    """Whether the kiosk is halted on a full disk, and when to look for room again.

    ``room`` and ``clock`` are injected in tests; ``recover`` (the kiosk's) rebuilds the
    table from the journal and raises ``JournalDiskFull`` again if the disk is still full.
    """

    folder: Path
    recover: Callable[[], object]
    room: Callable[[Path], bool] = room_for_journal
    clock: Callable[[], float] = time.monotonic
    since: float | None = None
    next_look: float = field(default=0.0)

    @property
    def halted(self) -> bool:
        return self.since is not None

    def halt(self, problem: JournalDiskFull) -> None:
        """The journal could not be written: stop taking plays (said once in the log)."""
        now = self.clock()
        if self.since is None:
            self.since = now
            logger.error("%s; play is paused and resumes by itself once there is room", problem)
        self.next_look = now + POLL

    def wait(self) -> float:
        """Seconds until the next look for room (0: due now)."""
        return max(0.0, self.next_look - self.clock())

    def look(self) -> bool:
        """If a look is due and the disk has room, rebuild the table; True once it goes on."""
        if self.since is None:
            return True
        now = self.clock()
        if now < self.next_look:
            return False
        self.next_look = now + POLL
        if not self.room(self.folder):
            return False
        try:
            self.recover()
        except JournalDiskFull:
            return False  # room for the probe, not for the journal: look again later
        logger.warning("the disk has room again after %.0f s: play goes on", now - self.since)
        self.since = None
        return True
