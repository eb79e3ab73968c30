"""A rate limit between one seat's reader and the table's queue, so no reader can flood the loop.

A faulty board (or a stuck tag at the edge of the field, or firmware in a
loop) can send valid ``TAG`` lines as fast as USB carries them: tens of
thousands a second. Garbage is already rate limited (``hardware.problems``),
but valid tags were not: they filled the table's unbounded queue, and one
loop turn spent 209 s handling them while the screen froze and the
watchdog starved.

``ReaderThrottle`` stands where the reader's queue would be (readers only
``put``), and passes a seat's taps on through a token bucket: ``burst``
taps at once, then ``rate`` a second, far more than a person can tap. Past
that the seat is flooding: it is reported once (``ReaderFlooding``) and
every tap from it is dropped until it has sent none for ``calm`` seconds (a
tap from a faulty board means nothing). A dropped ``TagPresented`` takes
the ``TagRemoved`` that belongs to it along (the alternation the table
relies on is kept); status events (online, offline, problems) always pass.
Other seats have their own throttle, so they are never starved.

This bounds what one reader can add to the queue by time (``burst`` plus
``rate`` a second), well below what the loop handles a second
(``controller.table.turn_budget``), so the queue stays short however fast the
board sends.
"""

from __future__ import annotations

import logging
import queue
import time

from hardware.events import Clock, EventQueue, InputEvent, ReaderFlooding, TagPresented, TagRemoved

__all__ = ["BURST", "CALM", "RATE", "ReaderThrottle"]

logger = logging.getLogger(__name__)

RATE = 50.0
"""Taps a second a reader may keep up: a quick player taps two or three, staff enrolling a
deck (or a script over the serial line) more; a faulty board sends thousands."""

BURST = 100
"""Taps a reader may send at once: a whole deck enrolled in one go."""

CALM = 5.0
"""Seconds without a dropped tap before a flooding seat counts as calm again."""


class ReaderThrottle(queue.SimpleQueue[InputEvent]):
    """One seat's rate limit in front of the table's queue; nothing is stored here.

    ``passed`` and ``dropped`` count taps (for tests, logs and benchmarks).
    """

    def __init__(
        self,
        target: EventQueue,
        seat: int,
        *,
        rate: float = RATE,
        burst: int = BURST,
        calm: float = CALM,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__()
        if rate <= 0 or burst < 1:
            raise ValueError("a reader throttle needs rate > 0 and burst >= 1")
        self._target = target
        self.seat = seat
        self._rate = rate
        self._burst = float(burst)
        self._calm = calm
        self._clock = clock
        self._tokens = float(burst)
        self._filled_at: float | None = None
        self._drop_removal = False
        self._flooding = False
        self._last_drop = 0.0
        self.passed = 0
        self.dropped = 0

    def put(self, item: InputEvent, block: bool = True, timeout: float | None = None) -> None:
        """Pass the event on, unless it is a tap (or its removal) over the rate."""
        if isinstance(item, TagPresented):
            now = self._clock()
            if not self._take(now):
                self._drop(now)
                return
            self._drop_removal = False
            self.passed += 1
        elif isinstance(item, TagRemoved) and self._drop_removal:
            self._drop_removal = False
            return
        self._target.put(item, block, timeout)

    def _take(self, now: float) -> bool:
        """One token from the bucket, refilled for the time since the last tap."""
        if self._filled_at is not None:
            self._tokens = min(self._burst, self._tokens + (now - self._filled_at) * self._rate)
        self._filled_at = now
        if self._flooding:
            if now - self._last_drop < self._calm:
                return False  # still flooding: nothing from this seat until it is calm
            self._flooding = False
            logger.warning("seat %d's reader is calm again (%d taps dropped)",
                           self.seat, self.dropped)  # fmt: skip
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def _drop(self, now: float) -> None:
        self.dropped += 1
        self._drop_removal = True
        self._last_drop = now
        if not self._flooding:
            self._flooding = True
            self._target.put(ReaderFlooding(self.seat, self._rate, now))
