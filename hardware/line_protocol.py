"""The simple line protocol of a seat reader board, and the serial reader that speaks it.

The line protocol (reader board -> Pi), ASCII, one message per line, ending
in ``\\n`` (a ``\\r`` before it is ignored), at most ``MAX_LINE`` bytes::

    TAG 04A1B2C3D4E5F6     a tag is on the reader; 8 to 20 hex digits (even count)
    GONE                   the tag was taken away
    HELLO cafe-reader 1.0  optional banner at start-up; logged, no event

Blank lines are ignored. Anything else (an unknown word, a bad uid, non-ASCII
bytes, an over-long line) is a problem and never a tag; problems become at
most one ``ReaderProblem`` event a second, as in every protocol.
A repeated ``TAG`` for the tag already present is ignored (boards may repeat
themselves); a ``TAG`` for a different uid while one is present is reported as
``TagRemoved`` then ``TagPresented``; ``GONE`` with no tag present is ignored.

Framing is split from the port: ``LineParser`` turns byte chunks, split at any
point, into ``ReaderFrame`` values, and ``SeatLineDecoder`` turns those into
events; both are pure and tested without a port. ``SerialLineReader`` runs the
decoder on a port through ``hardware.serial_stream.SerialStreamReader``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TypeAlias

from hardware.errors import HardwareConfigError
from hardware.events import (
    Clock,
    EventQueue,
    InputEvent,
    TagPresented,
    TagRemoved,
)
from hardware.problems import ProblemLimiter, show_bytes
from hardware.serial_stream import SerialStreamReader
from hardware.uids import normalize_uid

__all__ = [
    "MAX_LINE",
    "BadLine",
    "GoneLine",
    "HelloLine",
    "LineParser",
    "ReaderFrame",
    "SeatLineDecoder",
    "SerialLineReader",
    "TagLine",
    "parse_line",
]

logger = logging.getLogger(__name__)

MAX_LINE = 64
"""Longest line (in bytes, without the newline) a reader may send."""


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


def parse_line(raw: bytes) -> ReaderFrame | None:
    """Parse one line (without its ``\\n``); ``None`` for a blank line."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if not raw.strip():
        return None
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return BadLine(f"sent bytes that are not ASCII text: {show_bytes(raw)}")
    if not text.isprintable():
        return BadLine(f"sent control characters: {show_bytes(raw)}")
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
        return BadLine(f"sent a line longer than {self._max_line} bytes: {show_bytes(line)}")

    def reset(self) -> None:
        """Forget any unfinished line (e.g. after the port was reopened)."""
        self._buffer.clear()
        self._discarding = False


class SeatLineDecoder:
    """Turns one seat's raw bytes into input events; pure apart from the ``at`` it is given.

    Keeps the uid currently on the reader so that events alternate strictly
    (see the module docstring for repeated ``TAG`` and stray ``GONE``). Bad
    lines are reported at most once per ``problem_every`` seconds (the next
    report says how many were held back), so a board babbling noise cannot
    flood the table.
    """

    def __init__(
        self, seat: int, port: str, max_line: int = MAX_LINE, *, problem_every: float = 1.0
    ) -> None:
        self.seat = seat
        self.port = port
        self._parser = LineParser(max_line)
        self._problems = ProblemLimiter(problem_every)
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
                    problem = self._problems.report(
                        self.seat, f"seat {self.seat}'s reader at {self.port} {message}", at
                    )
                    if problem is not None:
                        events.append(problem)
        return events

    @property
    def bad_lines(self) -> int:
        """Every bad line seen, reported or not."""
        return self._problems.count

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
