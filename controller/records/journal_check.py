"""How much of the journal file SQLite checks when the kiosk starts.

Every start used to run a full ``PRAGMA integrity_check`` before READY=1:
7.7 s for a year of play and 28 s for five on a fast x86 core, several times
that on a Pi's SD card, against the unit's ``TimeoutStartSec=90``.

Now the kiosk marks the journal open while it runs (``OPEN_MARK`` in its
meta table) and clears the mark when it closes it. A start after a clean
stop runs ``PRAGMA quick_check`` (the pages and records, not every index
against its table) for at most ``QUICK_SECONDS``: a timer thread interrupts
it there (``sqlite3_interrupt``), and what it covered found nothing. (Not the
progress handler: SQLite walks a whole B-tree in one virtual-machine step, so
on SQLite 3.40 the handler was first called after 1.5 s of a five-year
journal, whatever its bound.) A start after an
unclean stop (a power cut, SIGKILL, a crash) runs the full
``integrity_check``, however long it takes, and keeps systemd's start
timeout from running out meanwhile (``keep_alive``, which the kiosk turns
into ``EXTEND_TIMEOUT_USEC``). ``cafe-table doctor`` and the journal
commands, which open the file with ``Journal.open_existing``, always run the
full check.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable

__all__ = ["KEEP_ALIVE_EVERY", "OPEN_MARK", "QUICK_SECONDS", "left_open", "page_problems"]

logger = logging.getLogger(__name__)

OPEN_MARK = "kiosk-open"
"""The meta key a running kiosk sets to "1" and clears to "0" when it closes the journal."""

QUICK_SECONDS = 0.25
"""How long a start after a clean stop may spend on ``quick_check``.

A quarter of a second covers the first few thousand pages (the schema, the
oldest games) of a large journal and the whole of a small one; the start-up
target is two seconds to READY=1, Python's start and imports included."""

KEEP_ALIVE_EVERY = 5.0
"""Seconds between two ``keep_alive`` calls during a long check."""

_STEPS = 20_000  # SQLite virtual machine steps between two looks at the clock


def left_open(db: sqlite3.Connection) -> bool:
    """Whether the last kiosk to open this journal did not close it (an unclean stop)."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (OPEN_MARK,)).fetchone()
    return row is not None and str(row[0]) == "1"


def page_problems(
    db: sqlite3.Connection,
    *,
    quick: bool,
    keep_alive: Callable[[], None] | None = None,
    seconds: float = QUICK_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> list[str]:
    """SQLite's findings (``[]`` when the file is sound): a time-bounded ``quick_check`` with
    ``quick``, else the full ``integrity_check``."""
    started = clock()
    last_alive = [started]

    def progress() -> int:
        now = clock()
        if keep_alive is not None and now - last_alive[0] >= KEEP_ALIVE_EVERY:
            last_alive[0] = now
            keep_alive()
        return 1 if quick and now - started >= seconds else 0  # non-zero interrupts

    db.set_progress_handler(progress, _STEPS)
    running = threading.Lock()
    checking = [True]

    def interrupt() -> None:
        with running:
            if checking[0]:  # never a later statement: only the check itself
                db.interrupt()

    timer = threading.Timer(seconds, interrupt) if quick else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        rows = db.execute("PRAGMA quick_check" if quick else "PRAGMA integrity_check").fetchall()
    except sqlite3.OperationalError as exc:
        if quick and "interrupt" in str(exc):
            logger.info("journal quick check: nothing found in the first %.2f s", seconds)
            return []
        raise
    finally:
        with running:
            checking[0] = False
        if timer is not None:
            timer.cancel()
        db.set_progress_handler(None, 0)
    took = clock() - started
    if not quick and took >= 1.0:
        logger.warning("journal: full integrity check after an unclean stop took %.1f s", took)
    problems = [str(row[0]) for row in rows]
    return [] if problems == ["ok"] else problems
