"""The staff PIN's lockout, carried across restarts from the journal.

After ``[staff] tries`` wrong PINs the staff desk locks for ``lockout``
seconds (``controller.tags.staff_pin.PinGuard``). The lock lived only in memory,
so pulling the power and trying again undid it. Every lock is journaled
(``staff-pin-locked``, with its wall-clock time, steady reading, boot and
whether the clock was synchronised, and its length, among the staff security
events); at start the kiosk reads the latest one back and locks again for
what is left of it.

How much of it has passed, honestly (a Pi has no real-time clock: after a
power cut its wall clock may be behind the lock, not yet synchronised, or
set wrong far ahead):

* **the same boot** (the kiosk restarted, the machine did not): the steady
  clock says exactly how long ago the lock began;
* **another boot, both clocks synchronised** (at the lock and now): the wall
  clock can be believed, as long as it does not run backwards;
* **another boot, either clock not synchronised**: only what is certain
  counts, the time this boot has run (the lock began before it); the rest
  of the lock runs again. For a lockout the safe error is the longer one.

A lock journaled before steady readings were kept falls back to the wall
clock, and to the full lock when that is behind it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Protocol

__all__ = ["LOCKED", "Moment", "lock_left"]

LOCKED = "staff-pin-locked"
"""The staff event a ``PinGuard`` reports when it locks (``controller.tags.staff_pin``)."""


class Moment(Protocol):
    """Now, read from every clock: the journal's ``controller.records.clock.Stamp``."""

    @property
    def wall(self) -> dt.datetime: ...

    @property
    def steady(self) -> float: ...

    @property
    def boot(self) -> str: ...

    @property
    def synced(self) -> bool: ...


def lock_left(events: Iterable[Mapping[str, object]], now: Moment) -> float:
    """Seconds the latest journaled PIN lock still has to run ``now`` (0: none)."""
    latest = None
    for event in events:
        if event.get("kind") == LOCKED:
            latest = event
    if latest is None:
        return 0.0
    seconds = latest.get("seconds")
    if not isinstance(seconds, int | float) or seconds <= 0:
        return 0.0
    passed = _passed_since(latest, now)
    return float(seconds) if passed is None else max(0.0, float(seconds) - passed)


def _passed_since(event: Mapping[str, object], now: Moment) -> float | None:
    """Seconds known to have passed since ``event`` (None: nothing known, lock in full)."""
    steady, boot = event.get("steady"), event.get("boot")
    if isinstance(steady, int | float) and isinstance(boot, str):
        if boot == now.boot:
            return max(0.0, now.steady - steady)
        walls = _wall_passed(event, now) if event.get("synced") is True and now.synced else None
        return max(now.steady, walls) if walls is not None else now.steady
    return _wall_passed(event, now)  # journaled before steady readings were kept


def _wall_passed(event: Mapping[str, object], now: Moment) -> float | None:
    """Wall-clock seconds since ``event``; None when unreadable or the clock is behind it."""
    at = event.get("at")
    if not isinstance(at, str):
        return None
    try:
        locked_at = dt.datetime.fromisoformat(at)
    except ValueError:
        return None
    wall = now.wall
    if locked_at.tzinfo is None or wall.tzinfo is None:
        locked_at, wall = locked_at.replace(tzinfo=None), wall.replace(tzinfo=None)
    passed = (wall - locked_at).total_seconds()
    return passed if passed >= 0 else None
