"""Seat card readers: the interface, a scriptable mock, and a serial line reader.

Each seat has one reader. A reader is a ``SeatReader``: it is built with the
seat number and the table's one event queue, claims nothing until ``open()``
(or ``with``), and puts ``ReaderOnline``, ``TagPresented``, ``TagRemoved``,
``ReaderProblem`` and ``ReaderOffline`` events on the queue. ``close()`` is
idempotent and joins any thread with a bounded wait.

Backends, side by side:

* ``MockReader``: scripted with ``present(uid)`` / ``remove()``; events are
  put on the queue synchronously and kept in ``sent``.
* ``SerialLineReader``: a reader board on a USB serial port speaking the line
  protocol below, read by pyserial's ``serial.threaded.ReaderThread``.
* ``SerialStreamReader``: the same machinery for any pure ``Decoder`` (bytes
  in, events and replies out, with a ``tick`` for timeouts); the link
  protocol (``hardware.link_reader``) and the 125 kHz readers
  (``hardware.rfid125``) are built on it. The PN532 (``hardware.pn532_reader``)
  answers requests, so it has a polling thread of its own.

``reader_for(seat, port, protocol, events)`` builds any of them from a seat's
table.toml settings, wrapped in ``hardware.supervisor.SupervisedReader``
(reconnection with backoff); ``reader_from_setting`` is the older, line-only
factory.

The line protocol (reader board -> Pi), ASCII, one message per line, ending
in ``\\n`` (a ``\\r`` before it is ignored), at most ``MAX_LINE`` bytes::

    TAG 04A1B2C3D4E5F6     a tag is on the reader; 8 to 20 hex digits (even count)
    GONE                   the tag was taken away
    HELLO cafe-reader 1.0  optional banner at start-up; logged, no event

Blank lines are ignored. Anything else (an unknown word, a bad uid, non-ASCII
bytes, an over-long line) becomes one ``ReaderProblem`` event and never a tag.
A repeated ``TAG`` for the tag already present is ignored (boards may repeat
themselves); a ``TAG`` for a different uid while one is present is reported as
``TagRemoved`` then ``TagPresented``; ``GONE`` with no tag present is ignored.

Framing is split from the port: ``LineParser`` turns byte chunks, split at any
point, into ``ReaderFrame`` values, and ``SeatLineDecoder`` turns those into
events; both are pure and tested without a port. Only ``_SerialProtocol``
touches pyserial.
"""

from __future__ import annotations

import errno
import logging
import os
import string
import threading
import time
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

import serial
import serial.threaded

from hardware.device import Device
from hardware.errors import DeviceClosed, HardwareConfigError, ReaderUnavailable
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

__all__ = [
    "MAX_LINE",
    "MOCK_PORT",
    "READER_PROTOCOLS",
    "BadLine",
    "Decoder",
    "GoneLine",
    "HelloLine",
    "LineParser",
    "LinkLost",
    "MockReader",
    "ReaderFrame",
    "SeatLineDecoder",
    "SeatReader",
    "SerialLineReader",
    "SerialStreamReader",
    "TagLine",
    "normalize_uid",
    "open_serial_port",
    "reader_for",
    "reader_from_setting",
]

logger = logging.getLogger(__name__)

MAX_LINE = 64
"""Longest line (in bytes, without the newline) a reader may send."""

MOCK_PORT = "mock"
"""The ``port`` that mock readers report, and the table.toml setting that selects one."""

_HEX_DIGITS = frozenset(string.hexdigits)
_UID_MIN_BYTES = 4  # ISO 14443 single-size UID (MIFARE Classic)
_UID_MAX_BYTES = 10  # ISO 14443 triple-size UID


def normalize_uid(text: str) -> str:
    """Return a tag uid as upper-case hex without separators, or raise ``HardwareConfigError``.

    Accepts 4 to 10 bytes written as an even number of hex digits, in either case.
    """
    uid = text.strip().upper()
    if not uid or any(ch not in _HEX_DIGITS for ch in uid):
        raise HardwareConfigError(f"tag uid {text!r} is not hexadecimal")
    if len(uid) % 2 or not _UID_MIN_BYTES * 2 <= len(uid) <= _UID_MAX_BYTES * 2:
        raise HardwareConfigError(
            f"tag uid {text!r} should be {_UID_MIN_BYTES} to {_UID_MAX_BYTES} bytes "
            f"({_UID_MIN_BYTES * 2} to {_UID_MAX_BYTES * 2} hex digits, an even count)"
        )
    return uid


# --- pure framing -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TagLine:
    """``TAG <uid>``: a tag is on the reader (uid already normalised)."""

    uid: str


@dataclass(frozen=True, slots=True)
class GoneLine:
    """``GONE``: the tag was taken away."""


@dataclass(frozen=True, slots=True)
class HelloLine:
    """``HELLO <text>``: the board's start-up banner."""

    text: str


@dataclass(frozen=True, slots=True)
class BadLine:
    """Something that is not a valid line; ``message`` says what was wrong."""

    message: str


ReaderFrame: TypeAlias = TagLine | GoneLine | HelloLine | BadLine
"""One parsed line of the reader protocol."""


def _show(raw: bytes) -> str:
    """A short printable rendering of bad bytes for a log message."""
    shown = repr(bytes(raw[:24]))
    return shown + ("..." if len(raw) > 24 else "")


def parse_line(raw: bytes) -> ReaderFrame | None:
    """Parse one line (without its ``\\n``); ``None`` for a blank line."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if not raw.strip():
        return None
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return BadLine(f"sent bytes that are not ASCII text: {_show(raw)}")
    if not text.isprintable():
        return BadLine(f"sent control characters: {_show(raw)}")
    word, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if word == "TAG":
        try:
            return TagLine(normalize_uid(rest))
        except HardwareConfigError as exc:
            return BadLine(f"sent a TAG line with a bad uid: {exc}")
    if word == "GONE" and not rest:
        return GoneLine()
    if word == "HELLO":
        return HelloLine(rest)
    return BadLine(f"sent an unknown line: {text!r}")


class LineParser:
    """Turns byte chunks, split at any point, into ``ReaderFrame`` values.

    Pure: no port, no clock, no logging. Bytes of an unfinished line are kept
    until its ``\\n`` arrives. A line longer than ``max_line`` bytes is reported
    once as a ``BadLine`` and the rest of it, up to the next ``\\n``, is dropped,
    so a babbling board cannot make the buffer grow without bound.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self._max_line = max_line
        self._buffer = bytearray()
        self._discarding = False

    def feed(self, chunk: bytes) -> list[ReaderFrame]:
        """Take the next bytes from the port; return the frames they complete, in order."""
        frames: list[ReaderFrame] = []
        start = 0
        while start < len(chunk):
            newline = chunk.find(b"\n", start)
            end = len(chunk) if newline < 0 else newline
            if not self._discarding:
                self._buffer += chunk[start:end]
                if len(self._buffer) > self._max_line + 1:  # +1: a '\r' may precede '\n'
                    frames.append(self._too_long(bytes(self._buffer)))
                    self._buffer.clear()
                    self._discarding = True
            if newline < 0:
                break
            if self._discarding:
                self._discarding = False
            else:
                line = bytes(self._buffer).removesuffix(b"\r")
                frame = self._too_long(line) if len(line) > self._max_line else parse_line(line)
                if frame is not None:
                    frames.append(frame)
            self._buffer.clear()
            start = newline + 1
        return frames

    def _too_long(self, line: bytes) -> BadLine:
        return BadLine(f"sent a line longer than {self._max_line} bytes: {_show(line)}")

    def reset(self) -> None:
        """Forget any unfinished line (e.g. after the port was reopened)."""
        self._buffer.clear()
        self._discarding = False


class SeatLineDecoder:
    """Turns one seat's raw bytes into input events; pure apart from the ``at`` it is given.

    Keeps the uid currently on the reader so that events alternate strictly
    (see the module docstring for repeated ``TAG`` and stray ``GONE``).
    """

    def __init__(self, seat: int, port: str, max_line: int = MAX_LINE) -> None:
        self.seat = seat
        self.port = port
        self._parser = LineParser(max_line)
        self.present_uid: str | None = None

    def feed(self, chunk: bytes, at: float) -> list[InputEvent]:
        """Decode ``chunk`` (read at monotonic time ``at``) into events, in order."""
        events: list[InputEvent] = []
        for frame in self._parser.feed(chunk):
            match frame:
                case TagLine(uid=uid):
                    if uid == self.present_uid:
                        continue
                    if self.present_uid is not None:
                        events.append(TagRemoved(self.seat, at))
                    self.present_uid = uid
                    events.append(TagPresented(self.seat, uid, at))
                case GoneLine():
                    if self.present_uid is not None:
                        self.present_uid = None
                        events.append(TagRemoved(self.seat, at))
                case HelloLine(text=text):
                    logger.info("seat %d's reader at %s says hello: %s", self.seat, self.port, text)
                case BadLine(message=message):
                    events.append(
                        ReaderProblem(
                            self.seat, f"seat {self.seat}'s reader at {self.port} {message}", at
                        )
                    )
        return events

    def reset(self) -> None:
        """Start afresh: no unfinished line, no tag present."""
        self._parser.reset()
        self.present_uid = None

    def tick(self, now: float) -> list[InputEvent]:
        """Nothing happens with time in the line protocol."""
        return []

    def take_output(self) -> bytes:
        """The line protocol sends nothing to the board."""
        return b""


class Decoder(Protocol):
    """What a serial reader's pure decoder provides (``SeatLineDecoder`` is one).

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


# --- the interface ------------------------------------------------------------


class SeatReader(Device):
    """One seat's card reader: the methods every backend provides.

    Construct with the seat number and the event queue; nothing is claimed
    until ``open()``. ``open()`` and ``close()`` are idempotent; ``close()``
    waits a bounded time for any thread. Use as a context manager.
    """

    def __init__(self, seat: int, port: str, events: EventQueue) -> None:
        self.seat = seat
        self.port = port
        self._events = events

    @abstractmethod
    def open(self) -> None:
        """Start listening; put ``ReaderOnline`` on the queue. Does nothing if already open."""

    @abstractmethod
    def close(self) -> None:
        """Stop listening and release the device; ``ReaderOffline`` follows. Idempotent."""

    @property
    @abstractmethod
    def is_open(self) -> bool:
        """Whether the reader is currently listening."""

    def __repr__(self) -> str:
        state = "open" if self.is_open else "closed"
        return f"{type(self).__name__}(seat={self.seat}, port={self.port!r}, {state})"


# --- the mock -----------------------------------------------------------------


class MockReader(SeatReader):
    """A scriptable reader for tests and the simulator.

    ``present(uid)`` and ``remove()`` put events on the queue at once, in the
    calling thread, with the same ordering rules as a real reader. Everything
    put on the queue is also appended to ``sent``.
    """

    def __init__(
        self,
        seat: int,
        events: EventQueue,
        *,
        clock: Clock = time.monotonic,
        port: str = MOCK_PORT,
    ) -> None:
        super().__init__(seat, port, events)
        self._clock = clock
        self._open = False
        self._uid: str | None = None
        # A lock because the simulator may script the mock from a UI thread
        # while the composition root closes it from another.
        self._lock = threading.Lock()
        self.sent: list[InputEvent] = []

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

    def unplug(self, reason: str = "lost the connection: unplugged") -> None:
        """Simulate the cable being pulled: ``ReaderOffline`` with ``reason``, then closed."""
        self._go_offline(reason)

    def _go_offline(self, reason: str) -> None:
        with self._lock:
            if not self._open:
                return
            self._open = False
            self._uid = None
            self._send(ReaderOffline(self.seat, self.port, reason, self._clock()))

    def _require_open(self, doing: str) -> None:
        if not self._open:
            raise DeviceClosed(f"cannot {doing} on seat {self.seat}'s mock reader: it is closed")

    def _send(self, event: InputEvent) -> None:
        self.sent.append(event)
        self._events.put(event)


# --- the serial backend ---------------------------------------------------------


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
        if exc is not None:
            logger.warning(
                "seat %d's reader at %s went offline: %s",
                self._decoder.seat,
                self._decoder.port,
                exc,
            )
        self._events.put(
            ReaderOffline(self._decoder.seat, self._decoder.port, reason, self._clock())
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
        text = f"{where} is not there: check its USB cable, or {fallback}"
    elif code in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY):
        text = f"{where} is in use by another program: close that program, or {fallback}"
    elif code in (errno.EACCES, errno.EPERM):
        text = (
            f"{where} cannot be opened (permission denied): add the kiosk user to the "
            f"'dialout' group, or {fallback}"
        )
    else:
        text = f"{where} cannot be opened ({exc}): check its USB cable, or {fallback}"
    return ReaderUnavailable(text)


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


class SerialLineReader(SerialStreamReader):
    """A seat reader board on a serial port, speaking the line protocol of this module."""

    def __init__(
        self,
        seat: int,
        port: str,
        events: EventQueue,
        *,
        baudrate: int = 115200,
        read_timeout: float = 0.5,
        write_timeout: float = 0.5,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(
            seat,
            port,
            events,
            SeatLineDecoder(seat, port),
            baudrate=baudrate,
            read_timeout=read_timeout,
            write_timeout=write_timeout,
            clock=clock,
        )


def reader_from_setting(
    seat: int, setting: str, events: EventQueue, *, clock: Clock = time.monotonic
) -> SeatReader:
    """Build the reader a table.toml setting names: ``"mock"`` or a serial port path."""
    if setting == MOCK_PORT:
        return MockReader(seat, events, clock=clock)
    return SerialLineReader(seat, setting, events, clock=clock)


READER_PROTOCOLS = ("line", "link", "rdm6300", "id12la", "pn532")
"""The protocols ``reader_for`` knows (table.toml's ``seat.protocol``)."""


def reader_for(
    seat: int,
    port: str,
    protocol: str,
    events: EventQueue,
    *,
    clock: Clock = time.monotonic,
    supervise: bool = True,
) -> SeatReader:
    """Build a seat's reader from its table.toml ``reader`` and ``protocol`` settings.

    ``port == "mock"`` gives a ``MockReader`` whatever the protocol. Otherwise
    the protocol picks the backend: ``"line"`` (``SerialLineReader``),
    ``"link"`` (our reader firmware, ``LinkReader``), ``"rdm6300"`` and
    ``"id12la"`` (125 kHz readers, ``Rfid125Reader``) or ``"pn532"``
    (``PN532Reader``). With ``supervise`` (the default) the reader is wrapped
    in a ``SupervisedReader``: it never fails to open, reports itself offline
    at its seat and reconnects with backoff when the device comes back.
    Raises ``HardwareConfigError`` for an unknown protocol.
    """
    if port == MOCK_PORT:
        return MockReader(seat, events, clock=clock)
    # Imported here: those modules import this one.
    from hardware.link_reader import LinkReader
    from hardware.pn532_reader import PN532Reader
    from hardware.rfid125 import Rfid125Reader
    from hardware.supervisor import SupervisedReader

    builders: dict[str, Callable[[EventQueue], SeatReader]] = {
        "line": lambda q: SerialLineReader(seat, port, q, clock=clock),
        "link": lambda q: LinkReader(seat, port, q, clock=clock),
        "rdm6300": lambda q: Rfid125Reader(seat, port, q, kind="rdm6300", clock=clock),
        "id12la": lambda q: Rfid125Reader(seat, port, q, kind="id12la", clock=clock),
        "pn532": lambda q: PN532Reader(seat, port, q, clock=clock),
    }
    build = builders.get(protocol)
    if build is None:
        raise HardwareConfigError(
            f'seat {seat}\'s reader protocol "{protocol}" is not one of '
            + ", ".join(f'"{name}"' for name in READER_PROTOCOLS)
        )
    if not supervise:
        return build(events)
    return SupervisedReader(seat, port, events, build, clock=clock)
