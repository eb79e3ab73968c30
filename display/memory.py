"""Giving memory back to the system when the table goes quiet.

A game fills the display's caches (pictures, fitted words, open font sizes:
tens of megabytes at 1080p); back on the attract screen the table may stand
idle for the rest of the night. The renderer then drops its caches, and
``release_memory`` collects and hands the freed heap back to the system, so
a kiosk that has played 500 games idles at about the size of one that has
played one.
"""

from __future__ import annotations

import ctypes
import functools
import gc
from collections.abc import Callable


def release_memory() -> bool:
    """Collect garbage and return free heap to the system; True if the heap was trimmed.

    ``malloc_trim`` is glibc's (Raspberry Pi OS, Debian): without it (macOS, musl)
    the collection still runs and the memory stays with the process for reuse.
    """
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(None)  # the process's own symbols, the C library's among them
    except OSError:
        return None
    trim: Callable[[int], int] | None = getattr(libc, "malloc_trim", None)
    return trim
