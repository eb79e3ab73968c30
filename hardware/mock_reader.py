"""A scriptable seat reader for tests and the simulator: no port, no thread."""

from __future__ import annotations

import threading
import time
from collections import deque

from hardware.errors import DeviceClosed
from hardware.events import (
    Clock,
    EventQueue,
    InputEvent,
    ReaderOffline,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
)
from hardware.protocols import MOCK_PORT
from hardware.seat_reader import SeatReader
from hardware.uids import normalize_uid

__all__ = ["MOCK_HISTORY", "MockReader"]

MOCK_HISTORY = 64
"""How many of its latest events a ``MockReader`` keeps in ``sent`` by default."""


class MockReader(SeatReader):
    """A scriptable reader for tests and the simulator.

    ``present(uid)`` and ``remove()`` put events on the queue at once, in the
    calling thread, with the same ordering rules as a real reader. The last
    ``history`` events put on the queue are also kept in ``sent`` (oldest
    first); older ones are dropped, so a simulator that runs for months keeps
    a flat memory.
    """

    def __init__(
        self,
        seat: int,
        events: EventQueue,
        *,
        clock: Clock = time.monotonic,
        port: str = MOCK_PORT,
        history: int = MOCK_HISTORY,
    ) -> None:
        super().__init__(seat, port, events)
        self._clock = clock
        self._open = False
        self._uid: str | None = None
        # A lock because the simulator may script the mock from a UI thread
        # while the composition root closes it from another.
        self._lock = threading.Lock()
        self.sent: deque[InputEvent] = deque(maxlen=history)

    @property
    def is_open(self) -> bool:
        return self._open

    @property
    def present_uid(self) -> str | None:
        """The uid of the tag on the reader, or ``None``."""
        return self._uid

    def open(self) -> None:
        with self._lock:
            if self._open:
                return
            self._open = True
            self._uid = None
            self._send(ReaderOnline(self.seat, self.port, self._clock()))

    def close(self) -> None:
        self._go_offline("closed")

    def present(self, uid: str) -> None:
        """Place a tag on the reader. Raises ``HardwareConfigError`` for a bad uid."""
        clean = normalize_uid(uid)
        with self._lock:
            self._require_open("present a tag")
            if clean == self._uid:
                return
            at = self._clock()
            if self._uid is not None:
                self._send(TagRemoved(self.seat, at))
            self._uid = clean
            self._send(TagPresented(self.seat, clean, at))

    def remove(self) -> None:
        """Take the tag away; does nothing if no tag is present."""
        with self._lock:
            self._require_open("remove a tag")
            if self._uid is None:
                return
            self._uid = None
            self._send(TagRemoved(self.seat, self._clock()))

    def report_problem(self, message: str) -> None:
        """Put a ``ReaderProblem`` on the queue, as a real reader does for a corrupt line."""
        with self._lock:
            self._require_open("report a problem")
            self._send(ReaderProblem(self.seat, message, self._clock()))

    def unplug(self, reason: str = "lost the connection: unplugged", kind: str = "lost") -> None:
        """Simulate the cable being pulled: ``ReaderOffline`` with ``reason`` (and ``kind``,
        one of ``hardware.problems.Offline``), then closed."""
        self._go_offline(reason, kind)

    def _go_offline(self, reason: str, kind: str = "") -> None:
        with self._lock:
            if not self._open:
                return
            self._open = False
            self._uid = None
            self._send(ReaderOffline(self.seat, self.port, reason, self._clock(), kind))

    def _require_open(self, doing: str) -> None:
        if not self._open:
            raise DeviceClosed(f"cannot {doing} on seat {self.seat}'s mock reader: it is closed")

    def _send(self, event: InputEvent) -> None:
        self.sent.append(event)
        self._events.put(event)
