"""Serial readers: a pure ``Decoder`` fed by pyserial's ``ReaderThread`` on an exclusive port.

Framing is split from the port (pyserial's ``ReaderThread`` + ``Protocol``):
each protocol is a pure ``Decoder`` (bytes in, events and replies out, with
a ``tick`` for timeouts), tested without a port; ``SerialStreamReader`` runs
any decoder on a real port. The line protocol (``hardware.line_protocol``),
the link protocol (``hardware.link_reader``) and the 125 kHz readers
(``hardware.rfid125``) are built on it. The PN532
(``hardware.pn532_reader``) answers requests, so it has a polling thread of
its own and uses only ``open_serial_port`` from here.

Only ``_SerialProtocol`` and ``_ReaderThread`` touch pyserial's threading.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from typing import Any, Protocol

import serial
import serial.threaded

from hardware.errors import ReaderUnavailable
from hardware.events import (
    Clock,
    EventQueue,
    InputEvent,
    ReaderOffline,
    ReaderOnline,
    ReaderProblem,
)
from hardware.problems import Offline
from hardware.protocols import MOCK_PORT
from hardware.seat_reader import SeatReader

__all__ = [
    "Decoder",
    "LinkLost",
    "SerialStreamReader",
    "open_serial_port",
]

logger = logging.getLogger(__name__)


class Decoder(Protocol):
    """What a serial reader's pure decoder provides (``line_protocol.SeatLineDecoder`` is one).

    It is driven from the reader thread only: ``reset()`` when the port is
    (re)opened, ``feed()`` with each chunk read, ``tick()`` at least every read
    timeout (it may raise ``LinkLost`` to drop the connection, e.g. for missed
    heartbeats), and ``take_output()`` for bytes to send to the device.
    """

    seat: int
    port: str

    def reset(self) -> None: ...

    def feed(self, chunk: bytes, at: float) -> list[InputEvent]: ...

    def tick(self, now: float) -> list[InputEvent]: ...

    def take_output(self) -> bytes: ...


class LinkLost(Exception):
    """Raised by a decoder to end the connection; the message becomes the offline reason."""


class _SerialProtocol(serial.threaded.Protocol):  # type: ignore[misc]
    """pyserial glue: runs in the ReaderThread, puts events on the queue, writes replies."""

    def __init__(self, decoder: Decoder, events: EventQueue, clock: Clock) -> None:
        super().__init__()
        self._decoder = decoder
        self._events = events
        self._clock = clock
        self._transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self._transport = transport
        self._decoder.reset()
        self._events.put(ReaderOnline(self._decoder.seat, self._decoder.port, self._clock()))
        self._flush()

    def data_received(self, data: bytes) -> None:
        at = self._clock()
        # Never let an exception escape: pyserial would end the thread on it.
        try:
            decoded = self._decoder.feed(data, at)
        except Exception as exc:
            logger.exception("seat %d's reader: could not decode %r", self._decoder.seat, data)
            decoded = [
                ReaderProblem(
                    self._decoder.seat,
                    f"seat {self._decoder.seat}'s reader at {self._decoder.port} sent data "
                    f"that could not be decoded ({exc})",
                    at,
                )
            ]
        for event in decoded:
            self._events.put(event)
        self._flush()

    def tick(self) -> None:
        """Let the decoder act on time (timeouts, retries); ``LinkLost`` ends the connection."""
        for event in self._decoder.tick(self._clock()):
            self._events.put(event)
        self._flush()

    def _flush(self) -> None:
        out = self._decoder.take_output()
        if out and self._transport is not None:
            try:
                self._transport.write(out)
            except Exception as exc:  # a vanished port: the read side will notice and report it
                logger.debug("seat %d's reader: write failed: %s", self._decoder.seat, exc)

    def connection_lost(self, exc: BaseException | None) -> None:
        # pyserial passes None when the thread was stopped on purpose.
        reason = "closed" if exc is None else f"lost the connection: {exc}"
        # A decoder that gave up on a silent board says so with LinkLost.
        kind = Offline.CLOSED if exc is None else Offline.LOST
        if isinstance(exc, LinkLost):
            kind = Offline.SILENT
        if exc is not None:
            logger.warning(
                "seat %d's reader at %s went offline: %s",
                self._decoder.seat,
                self._decoder.port,
                exc,
            )
        self._events.put(
            ReaderOffline(self._decoder.seat, self._decoder.port, reason, self._clock(), kind)
        )


class _ReaderThread(serial.threaded.ReaderThread):  # type: ignore[misc]
    """pyserial's ``ReaderThread`` with a read loop that survives an unplugged device.

    pyserial 3.5 evaluates ``serial.in_waiting`` outside the ``try`` around its
    read; when a USB adapter vanishes that ioctl raises a bare ``OSError``
    (EIO), which kills the thread without calling ``connection_lost`` (see
    pyserial issue #401), so the table would never hear ``ReaderOffline``.
    Here any error while reading ends the loop as a lost connection. After
    every read (data or a read timeout) the protocol's ``tick()`` runs, so
    decoders can keep time (heartbeats, retries, a tag's absence) without a
    thread of their own. The rest (``stop()``, ``close()``, ``write()``) is
    pyserial's.
    """

    def run(self) -> None:
        if not hasattr(self.serial, "cancel_read"):
            self.serial.timeout = 1
        self.protocol = self.protocol_factory()
        try:
            self.protocol.connection_made(self)
        except Exception as exc:
            self.alive = False
            self.protocol.connection_lost(exc)
            self._connection_made.set()
            return
        error: BaseException | None = None
        self._connection_made.set()
        while self.alive and self.serial.is_open:
            try:
                data = self.serial.read(self.serial.in_waiting or 1)
            except Exception as exc:  # SerialException, OSError(EIO), TypeError if closed
                # An error caused by our own close() is not a lost connection.
                error = exc if self.alive else None
                break
            try:
                if data:
                    self.protocol.data_received(data)
                tick = getattr(self.protocol, "tick", None)
                if tick is not None:
                    tick()
            except Exception as exc:  # LinkLost from a decoder, or a bug: end as a lost link
                error = exc
                break
        self.alive = False
        self.protocol.connection_lost(error)
        self.protocol = None


def _unavailable(seat: int, port: str, exc: BaseException) -> ReaderUnavailable:
    """Turn pyserial's open error into a message for staff."""
    code = getattr(exc, "errno", None)
    where = f"seat {seat}'s reader at {port}"
    fallback = f'set the seat\'s reader to "{MOCK_PORT}" in table.toml'
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        text, kind = f"{where} is not there: check its USB cable, or {fallback}", Offline.MISSING
    elif code in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY):
        text = f"{where} is in use by another program: close that program, or {fallback}"
        kind = Offline.BUSY
    elif code in (errno.EACCES, errno.EPERM):
        text = (
            f"{where} cannot be opened (permission denied): add the kiosk user to the "
            f"'dialout' group, or {fallback}"
        )
        kind = Offline.DENIED
    else:
        text = f"{where} cannot be opened ({exc}): check its USB cable, or {fallback}"
        kind = Offline.FAILED
    return ReaderUnavailable(text, kind)


def open_serial_port(
    seat: int,
    port: str,
    *,
    baudrate: int = 115200,
    read_timeout: float = 0.5,
    write_timeout: float = 0.5,
) -> serial.Serial:
    """Open a reader's port exclusively with finite timeouts, or raise ``ReaderUnavailable``.

    Exclusive is ``flock()`` on POSIX (pyserial has no such lock elsewhere), so
    a serial console left open on a reader's port is refused, not shared.
    """
    try:
        return serial.Serial(
            port=port,
            baudrate=baudrate,
            timeout=read_timeout,
            write_timeout=write_timeout,
            exclusive=True if os.name == "posix" else None,
        )
    except (serial.SerialException, OSError, ValueError) as exc:
        raise _unavailable(seat, port, exc) from exc


class SerialStreamReader(SeatReader):
    """A reader on a serial port whose bytes a pure ``Decoder`` turns into events.

    ``open()`` opens the port (exclusively on POSIX, with finite read and write
    timeouts) and starts a ``serial.threaded.ReaderThread``; it raises
    ``ReaderUnavailable`` if the port cannot be opened. If the device is
    unplugged (or the decoder raises ``LinkLost``) the thread ends and
    ``ReaderOffline`` is put on the queue; calling ``open()`` again retries
    (``hardware.supervisor.SupervisedReader`` does so with backoff). ``close()``
    stops the thread (pyserial joins it for at most 2 s) and closes the port.

    The decoder is kept across reconnections (it is ``reset()`` on each), so a
    protocol may remember what it already delivered.
    """

    def __init__(
        self,
        seat: int,
        port: str,
        events: EventQueue,
        decoder: Decoder,
        *,
        baudrate: int = 115200,
        read_timeout: float = 0.5,
        write_timeout: float = 0.5,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(seat, port, events)
        self.decoder = decoder
        self._baudrate = baudrate
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._clock = clock
        self._thread: Any = None  # serial.threaded.ReaderThread while open
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        thread = self._thread
        return thread is not None and bool(thread.is_alive())

    def open(self) -> None:
        with self._lock:
            if self._thread is not None:
                if self._thread.is_alive():
                    return
                # The device went away earlier: tidy up before retrying.
                self._stop_thread()
            port = open_serial_port(
                self.seat,
                self.port,
                baudrate=self._baudrate,
                read_timeout=self._read_timeout,
                write_timeout=self._write_timeout,
            )
            decoder = self.decoder
            decoder.port = self.port  # the port may have been renamed between opens
            thread = _ReaderThread(
                port, lambda: _SerialProtocol(decoder, self._events, self._clock)
            )
            thread.name = f"seat-{self.seat}-reader"
            thread.start()
            self._thread = thread

    def close(self) -> None:
        with self._lock:
            self._stop_thread()

    def _stop_thread(self) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        # ReaderThread.close(): cancel_read(), join(2), then close the port.
        thread.close()
        if thread.is_alive():
            logger.warning("seat %d's reader thread did not stop within 2 s", self.seat)
