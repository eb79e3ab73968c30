"""Whether the wall clock can be trusted: synchronised by NTP, or just a guess since boot.

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
import ctypes.util
import sys
from collections.abc import Callable
from pathlib import Path

__all__ = ["TIMESYNC_FLAG", "clock_synchronised", "kernel_clock_state"]

TIMESYNC_FLAG = Path("/run/systemd/timesync/synchronized")
"""systemd-timesyncd's flag file: there once the clock is synchronised."""

TIME_ERROR = 5
"""adjtimex(2)'s clock state for a clock that is not synchronised."""

_TIMEX_BYTES = 512  # struct timex is 208 bytes on 64-bit Linux; modes = 0 reads only


def kernel_clock_state() -> int | None:
    """adjtimex(2)'s clock state (0 TIME_OK ... 5 TIME_ERROR), or None where it cannot be asked."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        state = int(libc.adjtimex(ctypes.create_string_buffer(_TIMEX_BYTES)))
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
