"""Stopping when told: SIGTERM, SIGINT and SIGHUP become a request the kiosk's loop sees.

``systemctl stop``, ``restart``, a reboot and every upgrade send SIGTERM; a
person at a terminal sends SIGINT (Ctrl+C); a closed terminal or a careless
``kill -HUP`` sends SIGHUP. In every mode (windowed or headless, locked or
not) the kiosk must then finish or skip the input it is on, tell systemd
``STOPPING=1``, close the journal, darken the LEDs, close the readers and
exit 0, well inside the unit's ``TimeoutStopSec``.

Two things stood in the way, and this module handles both:

* SDL installs its own SIGINT and SIGTERM handlers when its event system
  starts (unless one other than the default is already there) and turns the
  signal into a quit event, which a locked window drops. ``install()`` sets
  the ``SDL_NO_SIGNAL_HANDLERS`` hint in the environment, which SDL reads at
  ``SDL_Init``, and puts Python's handlers in place first.
* The loop sleeps on the input queue. A Python signal handler runs in the
  main thread between byte codes (CPython interrupts the queue's timed wait
  to run it), so the handler only records the request and puts a ``Wakeup``
  on the queue: the loop's wait ends at once and the loop looks at
  ``requested`` before it takes the next input. Nothing is raised inside the
  loop, so no input is ever half handled. (``SimpleQueue.put`` is documented
  as safe to call from a signal handler.)
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Self

from hardware.events import EventQueue, Wakeup

__all__ = ["STOP_SIGNALS", "StopSignals"]

logger = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
"""The signals that ask the kiosk to stop cleanly."""

SDL_HINT = "SDL_NO_SIGNAL_HANDLERS"


class StopSignals:
    """While installed (``with StopSignals(events):``), a stop signal is a request, not a kill.

    ``requested`` names the first signal received (``"SIGTERM"``), or is None.
    A second signal while stopping is ignored: the first request is already
    being carried out and must not be cut short. On ``close()`` the
    handlers that were there before are put back.
    """

    def __init__(
        self, events: EventQueue | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._events = events
        self._clock = clock
        self._previous: dict[int, object] = {}
        # Wakes ``wait`` (a SimpleQueue: its put is safe inside a signal handler, where
        # a threading.Event's lock could deadlock against the code it interrupted).
        self._waiters: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.requested: str | None = None
        # Signals that came after the first request and were ignored (a test waits for
        # them before it puts the old handlers back, which would otherwise run them).
        self.ignored = 0

    def attach(self, events: EventQueue) -> None:
        """Wake this queue's loop on a request (a request already made wakes it at once)."""
        self._events = events
        if self.requested is not None:
            events.put(Wakeup(self._clock(), self.requested))

    def install(self) -> Self:
        """Take SIGTERM, SIGINT and SIGHUP over, and keep SDL off them.

        Only the main thread may set handlers: elsewhere (a test running the kiosk
        on a thread) nothing is installed and only ``request`` stops the loop.
        """
        if threading.current_thread() is not threading.main_thread():
            return self
        os.environ[SDL_HINT] = "1"
        for number in STOP_SIGNALS:
            if number not in self._previous:
                self._previous[number] = signal.signal(number, self._on_signal)
        return self

    def close(self) -> None:
        """Put the earlier handlers back; safe to call twice."""
        previous, self._previous = self._previous, {}
        for number, handler in previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]

    def __enter__(self) -> Self:
        return self.install()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def request(self, name: str) -> None:
        """Ask the loop to stop as a signal would (tests, and code that must stop the kiosk)."""
        if self.requested is None:
            self.requested = name
            self._waiters.put(name)
            if self._events is not None:
                self._events.put(Wakeup(self._clock(), name))

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for a stop request (outside the loop: waiting for the
        display); True if one came."""
        if self.requested is not None:
            return True
        try:
            self._waiters.get(timeout=timeout)
        except queue.Empty:
            return self.requested is not None
        return True

    def _on_signal(self, number: int, frame: FrameType | None) -> None:
        name = signal.Signals(number).name
        if self.requested is not None:
            # Logging from a handler could deadlock on the logging lock held by the
            # interrupted code; a repeat is rare and harmless, so it goes unlogged.
            self.ignored += 1
            return
        self.request(name)
