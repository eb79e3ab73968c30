"""Bounded storage: finished games leave the journal after the retention, at idle.

``[journal] retention`` (days, default ``DEFAULT_DAYS``) is how long a finished
game stays in the journal. It leaves only once it is safe elsewhere: its
record file is written (and the café's hub has confirmed the record, when the
table has a hub); see ``Journal.expired_games`` for how a game's age is told
from the journal's order and trusted (synchronised) times only.

``JournalUpkeep`` runs from the kiosk loop, and does anything only while the
table is idle (the attract screen, no game open): ``FIRST`` seconds after the
start, then every ``EVERY`` seconds (every second while there is more to do), it
lets at most ``BATCH`` games leave and gives at most ``PAGES`` free pages back
to the file system (``PRAGMA incremental_vacuum``). Each step is small, so the
loop still draws and feeds the watchdog; a five-year journal shrinks to the
retention over a few idle hours. Never during a game: a game's writes never
wait for it.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from controller.records.journal import Journal, JournalError

__all__ = ["BATCH", "DEFAULT_DAYS", "EVERY", "FIRST", "PAGES", "JournalUpkeep"]

logger = logging.getLogger(__name__)

DEFAULT_DAYS = 183
"""About six months: a season of league nights, and every dispute long settled."""

FIRST = 60.0
"""Seconds after the start before the first look: the start and a first game come first."""

EVERY = 600.0
"""Seconds between two looks at the journal while idle (sooner while games are leaving).

A look reads every game's end time (a five-year journal: tens of milliseconds
here, more on a Pi's SD card), so not more often than this."""

BATCH = 20
"""Games that leave in one step (one transaction: about 4,000 entries)."""

PAGES = 256
"""Free pages (4 KiB each) given back in one step."""


@dataclass
class JournalUpkeep:
    """Retention and compaction of the kiosk's journal, a little at a time while idle."""

    journal: Journal
    retention_days: int = DEFAULT_DAYS
    hub: bool = False  # a café hub is configured: a game leaves only once the hub has it
    steady: Callable[[], float] = time.monotonic
    every: float = EVERY
    first: float = FIRST
    _due: float | None = None
    forgotten: int = 0  # games that left the journal since the start (for the log and tests)
    reclaimed: int = 0  # pages given back since the start

    def run(self, idle: bool) -> None:
        """One turn of the loop: a small step of upkeep when idle and due, else nothing."""
        now = self.steady()
        if self._due is None:
            self._due = now + self.first
        if not idle or now < self._due:
            return
        self._due = now + self.every
        try:
            self.step()
        except JournalError as exc:  # a full disk, say: the game journal itself says more
            logger.warning("journal upkeep skipped: %s", exc)

    def step(self) -> tuple[int, int]:
        """Let at most ``BATCH`` expired games leave, give back at most ``PAGES`` pages."""
        journal = self.journal
        if journal.unfinished() is not None:
            return 0, 0  # a game waits to be resumed: its writes come first
        expired = journal.expired_games(
            dt.timedelta(days=self.retention_days), journal.time.stamp(), hub=self.hub, limit=BATCH
        )
        journal.forget(expired)
        pages = journal.reclaim(PAGES)
        if expired:
            self.forgotten += len(expired)
            logger.info("journal: %d games older than %d days left it (games %d to %d)",
                        len(expired), self.retention_days, expired[0], expired[-1])  # fmt: skip
        if len(expired) == BATCH or pages == PAGES:
            self._due = self.steady() + 1.0  # more to do: the next step soon
        self.reclaimed += pages
        return len(expired), pages
