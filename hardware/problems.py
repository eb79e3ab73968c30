"""Reporting what a reader sent wrongly: at most one ``ReaderProblem`` a second per reader.

A reader fed noise (a loose cable, the wrong baud rate) can produce hundreds
of bad frames a second; one problem event each would flood the table and its
log. Every serial protocol's decoder reports through a ``ProblemLimiter``
instead: the first problem goes out at once, later ones within ``every``
seconds are counted, and the next one that goes out says how many were held
back.
"""

from __future__ import annotations

from hardware.events import Offline, ReaderProblem

__all__ = ["Offline", "ProblemLimiter", "show_bytes"]


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
