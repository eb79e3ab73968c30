"""The staff PIN's lockout, carried across restarts from the journal.

After ``[staff] tries`` wrong PINs the staff desk locks for ``lockout``
seconds (``controller.tags.staff_pin.PinGuard``). The lock lived only in memory,
so pulling the power and trying again undid it. Every lock is journaled
(``staff-pin-locked``, with its wall-clock time and length, among the staff
security events); at start the kiosk reads the latest one back and locks
again for what is left of it.

A Pi has no real-time clock, so the wall clock after a power cut may be
behind the journaled time (not yet synchronised) or far ahead (synchronised
after a long time off). Ahead, the lock has run out. Behind, nobody can say
how long the table was off, so the lock starts again in full: for a lockout
the safe error is the longer one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

__all__ = ["LOCKED", "lock_left"]

LOCKED = "staff-pin-locked"
"""The staff event a ``PinGuard`` reports when it locks (``controller.tags.staff_pin``)."""


def lock_left(events: Iterable[Mapping[str, object]], now: dt.datetime) -> float:
    """Seconds the latest journaled PIN lock still has to run at wall time ``now`` (0: none)."""
    latest = None
    for event in events:
        if event.get("kind") == LOCKED:
            latest = event
    if latest is None:
        return 0.0
    seconds = latest.get("seconds")
    at = latest.get("at")
    if not isinstance(seconds, int | float) or not isinstance(at, str) or seconds <= 0:
        return 0.0
    try:
        locked_at = dt.datetime.fromisoformat(at)
    except ValueError:
        return float(seconds)  # an unreadable time: lock in full, as for a clock behind
    if locked_at.tzinfo is None or now.tzinfo is None:
        locked_at, now = locked_at.replace(tzinfo=None), now.replace(tzinfo=None)
    passed = (now - locked_at).total_seconds()
    if passed < 0:
        return float(seconds)  # the clock is behind the lock: it starts again in full
    return max(0.0, float(seconds) - passed)
