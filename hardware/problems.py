"""Reporting what a reader sent wrongly: at most one ``ReaderProblem`` a second per reader.

A reader fed noise (a loose cable, the wrong baud rate) can produce hundreds
of bad frames a second; one problem event each would flood the table and its
log. Every serial protocol's decoder reports through a ``ProblemLimiter``
instead: the first problem goes out at once, later ones within ``every``
seconds are counted, and the next one that goes out says how many were held
back.
"""

from __future__ import annotations

from enum import StrEnum

from hardware.events import ReaderProblem

__all__ = ["Offline", "ProblemLimiter", "show_bytes"]


class Offline(StrEnum):
    """Why a reader is offline, as a kind the table can put into words.

    The hardware never imports the controller, so its sentences stay English
    staff-log lines (``ReaderOffline.reason``, ``str(ReaderUnavailable)``); the
    kind travels beside them and the controller maps it to a translated
    message (``controller.devices.offline_words``).
    """

    CLOSED = "closed"  # closed on purpose by the program
    MISSING = "missing"  # the device file is not there (unplugged, renamed)
    BUSY = "busy"  # another program holds the port
    DENIED = "denied"  # no permission to open the port
    SILENT = "silent"  # the port opens but the reader does not answer
    LOST = "lost"  # the connection broke (cable pulled, I/O errors)
    FAILED = "failed"  # anything else


def show_bytes(raw: bytes, limit: int = 24) -> str:
    """A short printable rendering of bad bytes for a message (the first ``limit`` bytes)."""
    shown = repr(bytes(raw[:limit]))
    return shown + ("..." if len(raw) > limit else "")


class ProblemLimiter:
    """One reader's problem reports, rate limited; pure apart from the ``at`` it is given.

    ``count`` is every problem seen, reported or not (for tests, benchmarks and logs).
    """

    def __init__(self, every: float = 1.0) -> None:
        self._every = every
        self._last: float | None = None
        self._held = 0
        self.count = 0

    def report(self, seat: int, text: str, at: float) -> ReaderProblem | None:
        """The ``ReaderProblem`` to send for ``text`` at ``at``, or ``None`` if it is held back."""
        self.count += 1
        if self._last is not None and at - self._last < self._every:
            self._held += 1
            return None
        more = f" (and {self._held} more since)" if self._held else ""
        self._last = at
        self._held = 0
        return ReaderProblem(seat, f"{text}{more}", at)
