"""Keeping seat readers connected: reconnection with backoff.

A reader that is unplugged mid-game must not stop the table: its seat shows
it offline, the game waits, and when the cable comes back the reader is
reopened without anyone touching the Pi.

* ``SupervisedReader`` wraps any ``SeatReader`` (built by a factory that is
  handed the queue to put its events on). Its ``open()`` never fails for a
  missing device: it reports ``ReaderOffline`` (with the staff message of the
  ``ReaderUnavailable`` it caught) and retries in its own thread on an
  exponential ``Backoff``, capped. When the inner reader loses its device
  (``ReaderOffline`` with a reason other than ``"closed"``) the same retry
  loop starts. Success puts the inner reader's ``ReaderOnline`` on the queue
  again. One offline report per outage: retries that fail are only logged.

Naming ports so that a replugged reader is found again is ``hardware.port_names``.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

from hardware.errors import ReaderUnavailable
from hardware.events import Clock, EventQueue, InputEvent, ReaderOffline
from hardware.seat_reader import SeatReader

__all__ = ["Backoff", "SupervisedReader"]

logger = logging.getLogger(__name__)


class Backoff:
    """Exponential delays: ``first``, ``first*factor``, ... up to ``cap``; ``reset()`` restarts."""

    def __init__(self, first: float = 0.5, factor: float = 2.0, cap: float = 10.0) -> None:
        if first <= 0 or factor < 1 or cap < first:
            raise ValueError("backoff needs first > 0, factor >= 1 and cap >= first")
        self.first = first
        self.factor = factor
        self.cap = cap
        self._next = first

    def next_delay(self) -> float:
        """The delay before the next attempt; each call lengthens the following one."""
        delay = self._next
        self._next = min(self.cap, self._next * self.factor)
        return delay

    def reset(self) -> None:
        """Start again from ``first`` (after a success)."""
        self._next = self.first


class _Relay(queue.SimpleQueue[InputEvent]):
    """The inner reader's "queue": forwards every event, and tells the supervisor of a lost link.

    Only ``put`` is used by readers; nothing is stored here.
    """

    def __init__(self, target: EventQueue, on_lost: Callable[[], None]) -> None:
        super().__init__()
        self._target = target
        self._on_lost = on_lost

    def put(self, item: InputEvent, block: bool = True, timeout: float | None = None) -> None:
        self._target.put(item, block, timeout)
        if isinstance(item, ReaderOffline) and item.reason != "closed":
            self._on_lost()


class SupervisedReader(SeatReader):
    """A seat reader that reconnects itself, with backoff, whenever its device comes back.

    ``build(events)`` makes the inner reader (e.g. ``lambda q: LinkReader(seat,
    port, q)``); it is built once and reopened on every retry, so a protocol
    may keep state across reconnections. ``attempts`` counts open attempts.
    """

    def __init__(
        self,
        seat: int,
        port: str,
        events: EventQueue,
        build: Callable[[EventQueue], SeatReader],
        *,
        backoff: Backoff | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(seat, port, events)
        self._backoff = backoff if backoff is not None else Backoff()
        self._clock = clock
        self.inner = build(_Relay(events, self._lost))
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._running = False
        self._offline_reported = False
        self.attempts = 0

    @property
    def is_open(self) -> bool:
        """Whether the supervisor is running (the device itself may be offline)."""
        return self._running

    @property
    def online(self) -> bool:
        """Whether the inner reader is currently connected."""
        return self.inner.is_open

    def open(self) -> None:
        """Try the device once now, then keep it connected in the background. Never raises
        ``ReaderUnavailable``: a missing device is reported as ``ReaderOffline``."""
        with self._lock:
            if self._running:
                return
            self._running = True
            self._stop.clear()
            self._wake.clear()
            self._offline_reported = False
            self._backoff.reset()
            if not self._attempt():
                self._wake.set()
            self._thread = threading.Thread(
                target=self._run, name=f"seat-{self.seat}-supervisor", daemon=True
            )
            self._thread.start()

    def close(self) -> None:
        """Stop retrying (bounded join) and close the inner reader. Idempotent."""
        with self._lock:
            if not self._running:
                return
            self._running = False
            self._stop.set()
            self._wake.set()
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(2.0)
            if thread.is_alive():
                logger.warning("seat %d's reader supervisor did not stop within 2 s", self.seat)
        self.inner.close()
        if self._offline_reported and not self.inner.is_open:
            # Already reported offline; say it is now closed on purpose.
            self._events.put(ReaderOffline(self.seat, self.port, "closed", self._clock()))

    def _lost(self) -> None:
        """Called (from the inner reader's thread) when its link was lost."""
        self._offline_reported = True
        self._wake.set()

    def _attempt(self) -> bool:
        """One open attempt; True if the reader is now connected."""
        self.attempts += 1
        try:
            self.inner.open()
        except ReaderUnavailable as exc:
            if not self._offline_reported:
                self._offline_reported = True
                self._events.put(
                    ReaderOffline(self.seat, self.port, str(exc), self._clock(), exc.kind)
                )
            logger.debug("seat %d: reopening %s failed: %s", self.seat, self.port, exc)
            return False
        self._offline_reported = False
        self._backoff.reset()
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            if self._stop.is_set():
                return
            self._wake.clear()
            # Retry until connected: wait, try, lengthen the wait.
            while not self._stop.is_set() and not self.inner.is_open:
                if self._stop.wait(self._backoff.next_delay()):
                    return
                with self._lock:
                    if not self._running:
                        return
                    if self._attempt():
                        break
