"""A PN532 seat reader on a serial port, driven by Adafruit's ``adafruit_pn532`` library.

We write no PN532 frames ourselves: ``adafruit_pn532.uart.PN532_UART`` does,
over a pyserial port (it needs only ``read``, ``write``, ``in_waiting`` and
``reset_input_buffer``, which ``serial.Serial`` has). The PN532 answers
requests rather than streaming, so this reader is not a ``ReaderThread``:
one thread per reader polls ``read_passive_target(timeout=poll_timeout)``
and feeds the firmware's own ``Debouncer`` (``firmware.board``), so a card
held still is one tap and a missed poll is not a removal.

* The port is opened exclusively with finite read and write timeouts, so
  every call into the library returns in bounded time and ``close()`` joins
  promptly.
* A garbled answer (the library raises ``RuntimeError`` or ``BusyError``) is
  a ``ReaderProblem`` (rate limited) and the polling goes on; after
  ``max_errors`` in a row, or any serial error, the reader reports
  ``ReaderOffline`` and its thread ends, and a ``SupervisedReader`` reopens it.
* ``open()`` raises ``ReaderUnavailable`` if the port cannot be opened or no
  PN532 answers on it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import serial

from firmware.board import Debouncer
from firmware.link import GONE
from hardware.errors import ReaderUnavailable
from hardware.events import (
    Clock,
    EventQueue,
    InputEvent,
    ReaderOffline,
    ReaderOnline,
    TagPresented,
    TagRemoved,
)
from hardware.problems import Offline, ProblemLimiter
from hardware.seat_reader import SeatReader
from hardware.serial_stream import open_serial_port

__all__ = ["PN532Reader", "adafruit_pn532_uart"]

logger = logging.getLogger(__name__)


class _WatchedPort:
    """The pyserial port as the PN532 driver sees it, remembering any I/O failure.

    Adafruit's driver swallows an ``OSError`` from a write (``send_command``
    returns False), so an unplugged adapter would look like "no card" for
    ever; this wrapper keeps the error so the polling loop can report the
    reader offline.
    """

    def __init__(self, port: Any) -> None:
        self._port = port
        self.error: BaseException | None = None

    def _guard(self, call: Callable[..., Any], *args: Any) -> Any:
        try:
            return call(*args)
        except Exception as exc:  # any failure of the port itself is a lost device
            self.error = exc
            raise

    @property
    def in_waiting(self) -> int:
        return int(self._guard(lambda: self._port.in_waiting))

    def read(self, size: int = 1) -> bytes:
        return bytes(self._guard(self._port.read, size))

    def write(self, data: bytes) -> int | None:
        result: int | None = self._guard(self._port.write, data)
        return result

    def reset_input_buffer(self) -> None:
        self._guard(self._port.reset_input_buffer)

    def close(self) -> None:
        self._port.close()


def adafruit_pn532_uart(port: Any) -> Any:
    """Adafruit's PN532 driver on an open pyserial port (it wakes the chip and checks it)."""
    from adafruit_pn532.uart import PN532_UART

    return PN532_UART(port)


class PN532Reader(SeatReader):
    """A PN532 breakout on a USB serial adapter (HSU mode, 115200 baud).

    ``make_pn532(port)`` builds the driver on the opened port (Adafruit's by
    default; tests pass a fake); ``open_port(seat, port)`` opens the port
    (exclusive, finite timeouts by default).
    """

    def __init__(
        self,
        seat: int,
        port: str,
        events: EventQueue,
        *,
        poll_timeout: float = 0.1,
        read_timeout: float = 0.1,
        write_timeout: float = 0.5,
        baudrate: int = 115200,
        confirm: int = 1,
        release: int = 2,
        max_errors: int = 10,
        problem_every: float = 1.0,
        make_pn532: Callable[[Any], Any] = adafruit_pn532_uart,
        open_port: Callable[[int, str], Any] | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(seat, port, events)
        self._poll_timeout = poll_timeout
        self._read_timeout = read_timeout
        # Generous on purpose: pyserial's POSIX write raises a timeout after a
        # write that succeeded if the deadline passed meanwhile (pyserial
        # issue 281), so a short one turns a busy moment into a lost reader.
        self._write_timeout = write_timeout
        self._baudrate = baudrate
        self._confirm = confirm
        self._release = release
        self._max_errors = max_errors
        self._problem_every = problem_every
        self._make_pn532 = make_pn532
        self._open_port = open_port
        self._clock = clock
        self._lock = threading.Lock()
        self._stop = threading.Event()
        # Set by the thread just before it says ReaderOffline: whoever takes that event
        # off the queue already sees the reader closed, though the thread is still ending.
        self._ended = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: Any = None
        self.polls = 0

    @property
    def is_open(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive() and not self._ended.is_set()

    def open(self) -> None:
        with self._lock:
            if self._thread is not None:
                if self._thread.is_alive() and not self._ended.is_set():
                    return
                self._thread.join(2.0)  # an ended thread is only finishing its last line
                self._thread = None
                self._release_port()  # the thread ended after a lost link: tidy up
            if self._open_port is not None:
                port = self._open_port(self.seat, self.port)
            else:
                port = open_serial_port(
                    self.seat,
                    self.port,
                    baudrate=self._baudrate,
                    read_timeout=self._read_timeout,
                    write_timeout=self._write_timeout,
                )
            watched = _WatchedPort(port)
            try:
                pn532 = self._make_pn532(watched)
            except Exception as exc:  # RuntimeError("Failed to detect the PN532"), serial errors
                port.close()
                raise ReaderUnavailable(
                    f"seat {self.seat}'s PN532 reader at {self.port} does not answer ({exc}): "
                    "check its wiring and that its switches select UART (HSU)",
                    Offline.SILENT,
                ) from exc
            self._serial = port
            self._stop.clear()
            self._ended.clear()
            self._events.put(ReaderOnline(self.seat, self.port, self._clock()))
            self._thread = threading.Thread(
                target=self._run,
                args=(pn532, watched),
                name=f"seat-{self.seat}-pn532",
                daemon=True,
            )
            self._thread.start()

    def close(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
            if thread is None:
                return
            self._stop.set()
            # The thread puts ReaderOffline("closed") itself as it ends, unless it
            # already ended on a lost link (and said so).
            thread.join(2.0)
            if thread.is_alive():
                logger.warning("seat %d's PN532 thread did not stop within 2 s", self.seat)
            self._release_port()

    def _release_port(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except Exception as exc:  # closing a vanished device may fail; nothing to do
                logger.debug("seat %d: closing %s: %s", self.seat, self.port, exc)

    def _run(self, pn532: Any, port: _WatchedPort) -> None:
        debouncer = Debouncer(confirm=self._confirm, release=self._release)
        errors = 0
        problems = ProblemLimiter(self._problem_every)
        reason = "closed"
        while not self._stop.is_set():
            try:
                raw = pn532.read_passive_target(timeout=self._poll_timeout)
            except (serial.SerialException, OSError) as exc:
                reason = f"lost the connection: {exc}"
                break
            except Exception as exc:  # RuntimeError, BusyError: a garbled answer
                if port.error is not None:
                    reason = f"lost the connection: {port.error}"
                    break
                errors += 1
                at = self._clock()
                if errors >= self._max_errors:
                    reason = f"lost the connection: {errors} garbled answers in a row ({exc})"
                    break
                problem = problems.report(
                    self.seat,
                    f"seat {self.seat}'s PN532 reader at {self.port} sent a garbled answer: {exc}",
                    at,
                )
                if problem is not None:
                    self._events.put(problem)
                continue
            if port.error is not None:  # the driver swallowed a failed write
                reason = f"lost the connection: {port.error}"
                break
            errors = 0
            self.polls += 1
            uid = bytes(raw).hex().upper() if raw else None
            if uid is not None and not 8 <= len(uid) <= 20:
                uid = None  # not an ISO 14443 uid we can name: treat as nothing seen
            at = self._clock()
            for kind, tag in debouncer.update(uid):
                event: InputEvent = (
                    TagRemoved(self.seat, at) if kind == GONE else TagPresented(self.seat, tag, at)
                )
                self._events.put(event)
        if reason != "closed":
            logger.warning("seat %d's PN532 reader at %s: %s", self.seat, self.port, reason)
        kind = Offline.CLOSED if reason == "closed" else Offline.LOST
        self._ended.set()
        self._events.put(ReaderOffline(self.seat, self.port, reason, self._clock(), kind))
