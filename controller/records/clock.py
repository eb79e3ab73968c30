"""Honest time: whether the wall clock can be trusted, and a steady clock beside it.

The journal stamps every game and entry with three readings of ``TableClock``
(``Stamp``): the wall clock, ``CLOCK_BOOTTIME`` (seconds since boot, counting
suspend, never stepped) and the kernel's boot id, which says which boot that
steady reading belongs to. Durations come from the steady clock within one
boot, never from two wall-clock readings; a wall clock that jumps between two
stamps of one boot is seen (its delta differs from the steady delta) and the
journal corrects the open game's stamps from the steady clock.

Whether the wall clock is synchronised:

A Pi has no real-time clock. Until systemd-timesyncd (or another NTP client)
has set it, the wall clock starts from the last shutdown's time saved by
timesyncd, or from 1970: opening hours read from it can blank a café's
table for hours in the middle of the day. The kiosk therefore asks, before
it lets ``[display] sleep`` darken the table, whether the clock is
synchronised:

* systemd-timesyncd creates ``/run/systemd/timesync/synchronized`` once it
  has synchronised the clock (systemd 239 and later): synchronised;
* else the kernel's own view, ``adjtimex(2)`` read without changing
  anything: ``TIME_ERROR`` means the clock is not synchronised (the kernel
  sets it until an NTP client clears ``STA_UNSYNC``); any other state means
  it is.

Where neither can be asked (not Linux), the clock is taken as set: a PC's
clock has a battery.
"""

from __future__ import annotations

import ctypes
import datetime as dt
import functools
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "BOOT_ID",
    "JUMP_SECONDS",
    "TIMESYNC_FLAG",
    "Stamp",
    "TableClock",
    "boot_id",
    "clock_synchronised",
    "kernel_clock_state",
    "steady_seconds",
    "trusted_wall",
]

TIMESYNC_FLAG = Path("/run/systemd/timesync/synchronized")
"""systemd-timesyncd's flag file: there once the clock is synchronised."""

TIME_ERROR = 5
"""adjtimex(2)'s clock state for a clock that is not synchronised."""

_TIMEX_BYTES = 512  # struct timex is 208 bytes on 64-bit Linux; modes = 0 reads only


@functools.cache
def _libc() -> ctypes.CDLL:
    """The C library: the process's own symbols (``dlopen(NULL)``), libc's among them,
    opened once. Not ``ctypes.util.find_library("c")``: it runs ``ldconfig -p`` (a
    process: 50 ms of the kiosk's start on a loaded x86 host, more on a Pi), and the
    journal asks the clock at every write."""
    return ctypes.CDLL(None, use_errno=True)


def kernel_clock_state() -> int | None:
    """adjtimex(2)'s clock state (0 TIME_OK ... 5 TIME_ERROR), or None where it cannot be asked."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        state = int(_libc().adjtimex(ctypes.create_string_buffer(_TIMEX_BYTES)))
    except (OSError, AttributeError):
        return None
    return None if state < 0 else state


def clock_synchronised(
    flag: Path = TIMESYNC_FLAG, state: Callable[[], int | None] = kernel_clock_state
) -> bool:
    """Whether the wall clock is synchronised (see the module doc)."""
    if flag.exists():
        return True
    return state() != TIME_ERROR


BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
"""The kernel's id of this boot: a steady reading means something only within its boot."""

JUMP_SECONDS = 5.0
"""A difference this large between the wall and steady deltas is a jump of the wall clock.

NTP slews offsets below 0.128 s and steps larger ones; timesyncd's first sync
after a boot from 1970 steps by decades. Five seconds ignores every slew and
the rounding of stamps to the second, and catches every step worth correcting.
"""


def steady_seconds() -> float:
    """Seconds since boot, suspend included, never stepped (``CLOCK_BOOTTIME``)."""
    boottime = getattr(time, "CLOCK_BOOTTIME", None)
    return time.clock_gettime(boottime) if boottime is not None else time.monotonic()


_PROCESS_BOOT = f"process-{uuid.uuid4()}"  # where the kernel has no boot id: this process


def boot_id(path: Path = BOOT_ID) -> str:
    """The kernel's boot id, or one for this process where the kernel has none to say."""
    try:
        return path.read_text(encoding="ascii").strip() or _PROCESS_BOOT
    except OSError:
        return _PROCESS_BOOT


@functools.cache
def this_boot() -> str:
    """``boot_id()`` read once: a process never outlives its boot (suspend keeps the id),
    and the journal stamps every action, so the file is not read again on every tap."""
    return boot_id()


def _local_now() -> dt.datetime:
    return dt.datetime.now().astimezone()


@dataclass(frozen=True)
class Stamp:
    """One moment as the journal keeps it: wall time, steady time, its boot, and trust."""

    wall: dt.datetime
    steady: float
    boot: str
    synced: bool

    @property
    def text(self) -> str:
        """The wall time as the journal writes it (ISO 8601 with offset, to the second)."""
        return self.wall.isoformat(timespec="seconds")

    def jump_since(self, earlier: Stamp) -> float | None:
        """How far the wall clock jumped since ``earlier`` (seconds, + forward), or None
        when it did not (or the two stamps are of different boots: nothing to compare)."""
        if earlier.boot != self.boot:
            return None
        wall = (self.wall - earlier.wall).total_seconds()
        jump = wall - (self.steady - earlier.steady)
        return jump if abs(jump) >= JUMP_SECONDS else None

    def wall_at(self, steady: float) -> dt.datetime:
        """The wall time, by this stamp's clock, of an earlier steady reading of its boot."""
        return self.wall - dt.timedelta(seconds=self.steady - steady)


@dataclass
class TableClock:
    """The table's clocks, one object so tests can shift, step and freeze them together."""

    wall: Callable[[], dt.datetime] = _local_now
    steady: Callable[[], float] = steady_seconds
    boot: Callable[[], str] = field(default=this_boot)
    synced: Callable[[], bool] = field(default=clock_synchronised)

    def stamp(self) -> Stamp:
        """Now, read from every clock."""
        return Stamp(self.wall(), self.steady(), self.boot(), self.synced())


EARLIEST_TRUE = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
"""No true stamp of this table is older than its software: such a stamp is a clock not set."""


def trusted_wall(text: str | None, synced: bool | None) -> dt.datetime | None:
    """A journaled wall time, if it can be believed: taken from a synchronised clock (or
    journaled before the journal said, ``synced`` None) and not before ``EARLIEST_TRUE``."""
    if text is None or synced is False:
        return None
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.astimezone()
    return when if when >= EARLIEST_TRUE else None
