"""125 kHz seat readers that print ASCII frames: RDM6300 and ID-12LA.

Both send a tag's 5-byte id as 10 hex digits plus an XOR checksum, at 9600
baud, 8N1, and never listen to the host:

* RDM6300: ``STX`` (0x02), 10 hex digits (version byte + 4-byte tag number),
  2 hex digits of checksum, ``ETX`` (0x03): 14 bytes. It repeats the frame
  for as long as the tag stays in the field.
* ID-12LA (ASCII output, FORM pin to ground): ``STX``, 10 hex digits, 2 hex
  digits of checksum, ``CR`` ``LF``, ``ETX``: 16 bytes. It sends one frame
  when a tag enters the field.

The checksum is the XOR of the five data bytes. ``Rfid125Parser`` is pure
and resynchronises at every ``STX``, so frames split at any byte and noise
between them are handled. ``Rfid125Decoder`` turns frames into events:

* a tag counts only after ``confirm`` matching frames (2 by default for the
  RDM6300, which repeats), against phantom ids from a frame whose corruption
  the 8-bit checksum missed;
* repeated frames of the tag already present are one tap, not many;
* neither reader says when a tag leaves, so a tag counts as removed after
  ``gone_after`` seconds without a frame (``tick()``).

The ID-12LA sends a single frame per tag, so its default ``confirm`` is 1 (a
second frame would never come); its frame's fixed CR LF ETX tail and the
checksum are the guard there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TypeAlias

from hardware.errors import HardwareConfigError
from hardware.events import Clock, EventQueue, InputEvent, TagPresented, TagRemoved
from hardware.problems import ProblemLimiter
from hardware.protocols import ID12LA, RDM6300
from hardware.serial_stream import SerialStreamReader

__all__ = [
    "ID12LA",
    "KINDS",
    "RDM6300",
    "Rfid125Bad",
    "Rfid125Decoder",
    "Rfid125Frame",
    "Rfid125Parser",
    "Rfid125Reader",
    "frame_for",
]

KINDS = (RDM6300, ID12LA)

STX = 0x02
ETX = 0x03
_HEX = frozenset(b"0123456789ABCDEFabcdef")
# What follows the 12 hex digits before ETX.
_TAILS = {RDM6300: b"", ID12LA: b"\r\n"}
DEFAULT_CONFIRM = {RDM6300: 2, ID12LA: 1}


@dataclass(frozen=True, slots=True)
class Rfid125Frame:
    """A well-formed frame with a good checksum: the tag's 5 bytes as 10 upper-case hex digits."""

    uid: str


@dataclass(frozen=True, slots=True)
class Rfid125Bad:
    """Bytes that are not a good frame; ``message`` says what was wrong."""

    message: str


Rfid125Item: TypeAlias = Rfid125Frame | Rfid125Bad


def frame_for(kind: str, uid: str, checksum: int | None = None) -> bytes:
    """The frame a ``kind`` reader sends for a 10-hex-digit ``uid`` (for tests and simulators).

    ``checksum`` overrides the correct one, to make a corrupt frame.
    """
    data = bytes.fromhex(uid)
    if len(data) != 5:
        raise HardwareConfigError(f"a 125 kHz tag id is 5 bytes, not {uid!r}")
    if checksum is None:
        checksum = data[0] ^ data[1] ^ data[2] ^ data[3] ^ data[4]
    return bytes([STX]) + f"{uid.upper()}{checksum:02X}".encode() + _TAILS[kind] + bytes([ETX])


def _check(kind: str) -> str:
    if kind not in KINDS:
        raise HardwareConfigError(f'125 kHz reader kind "{kind}" is not one of {", ".join(KINDS)}')
    return kind


class Rfid125Parser:
    """Turns byte chunks, split at any point, into frames and complaints. Pure.

    After ``STX`` it collects exactly the frame's length; a second ``STX``
    inside a frame restarts it (the first is reported as cut short). Bytes
    outside a frame are reported once per run of noise.
    """

    def __init__(self, kind: str) -> None:
        self.kind = _check(kind)
        self._tail = _TAILS[kind]
        self._body = 12 + len(self._tail)  # hex digits and tail, before ETX
        self._buf = bytearray()
        self._in_frame = False
        self._noise = False

    def feed(self, chunk: bytes) -> list[Rfid125Item]:
        """Take the next bytes; return what they complete, in order."""
        out: list[Rfid125Item] = []
        for byte in chunk:
            if byte == STX:
                if self._in_frame:
                    out.append(Rfid125Bad(f"sent a frame cut short: {self._shown()}"))
                self._buf.clear()
                self._in_frame = True
                self._noise = False
            elif not self._in_frame:
                if not self._noise:
                    self._noise = True
                    out.append(Rfid125Bad("sent bytes outside a frame (line noise?)"))
            elif len(self._buf) < self._body:
                self._buf.append(byte)
            else:
                self._in_frame = False
                out.append(self._finish() if byte == ETX else self._no_end())
        return out

    def _shown(self) -> str:
        return repr(bytes(self._buf[:16]))

    def _no_end(self) -> Rfid125Bad:
        return Rfid125Bad(f"sent a frame without its end byte: {self._shown()}")

    def _finish(self) -> Rfid125Item:
        buf = bytes(self._buf)
        digits, tail = buf[:12], buf[12:]
        if tail != self._tail or any(b not in _HEX for b in digits):
            return Rfid125Bad(f"sent a malformed frame: {buf!r}")
        data = bytes.fromhex(digits.decode())
        if data[0] ^ data[1] ^ data[2] ^ data[3] ^ data[4] != data[5]:
            return Rfid125Bad(f"sent a frame with a bad checksum: {buf!r}")
        return Rfid125Frame(digits[:10].decode().upper())

    def reset(self) -> None:
        """Forget any unfinished frame."""
        self._buf.clear()
        self._in_frame = False
        self._noise = False


class Rfid125Decoder:
    """One seat's 125 kHz reader: frames to events, with confirmation and repeat suppression.

    Pure apart from the ``at``/``now`` it is given; a ``hardware.serial_stream.Decoder``.
    """

    def __init__(
        self,
        seat: int,
        port: str,
        kind: str,
        *,
        confirm: int | None = None,
        gone_after: float = 0.5,
        problem_every: float = 1.0,
    ) -> None:
        self.seat = seat
        self.port = port
        self.kind = _check(kind)
        self.confirm = DEFAULT_CONFIRM[kind] if confirm is None else confirm
        self._gone_after = gone_after
        self._parser = Rfid125Parser(kind)
        self.present_uid: str | None = None
        self._last_seen = 0.0
        self._candidate: str | None = None
        self._candidate_count = 0
        self._candidate_at = 0.0
        self._problems = ProblemLimiter(problem_every)

    def reset(self) -> None:
        """A new connection: no unfinished frame, no tag present."""
        self._parser.reset()
        self.present_uid = None
        self._candidate = None
        self._candidate_count = 0

    def feed(self, chunk: bytes, at: float) -> list[InputEvent]:
        """Decode ``chunk`` (read at monotonic time ``at``) into events, in order."""
        events: list[InputEvent] = []
        for item in self._parser.feed(chunk):
            if isinstance(item, Rfid125Bad):
                self._problem(item.message, at, events)
            else:
                self._on_frame(item.uid, at, events)
        return events

    def _on_frame(self, uid: str, at: float, events: list[InputEvent]) -> None:
        if uid == self.present_uid:
            self._last_seen = at  # the same tag still in the field: one tap
            return
        if uid == self._candidate and at - self._candidate_at <= self._gone_after:
            self._candidate_count += 1
        else:
            self._candidate = uid
            self._candidate_count = 1
        self._candidate_at = at
        if self._candidate_count < self.confirm:
            return
        if self.present_uid is not None:
            events.append(TagRemoved(self.seat, at))
        self.present_uid = uid
        self._last_seen = at
        self._candidate = None
        self._candidate_count = 0
        events.append(TagPresented(self.seat, uid, at))

    def tick(self, now: float) -> list[InputEvent]:
        """A tag not seen for ``gone_after`` seconds has been taken away."""
        if self.present_uid is not None and now - self._last_seen > self._gone_after:
            self.present_uid = None
            return [TagRemoved(self.seat, now)]
        return []

    def take_output(self) -> bytes:
        """These readers are never written to."""
        return b""

    def _problem(self, message: str, at: float, events: list[InputEvent]) -> None:
        where = f"seat {self.seat}'s {self.kind.upper()} reader at {self.port}"
        problem = self._problems.report(self.seat, f"{where} {message}", at)
        if problem is not None:
            events.append(problem)

    @property
    def bad_frames(self) -> int:
        """Every bad frame seen, reported or not."""
        return self._problems.count


class Rfid125Reader(SerialStreamReader):
    """An RDM6300 or ID-12LA on a serial port (9600 baud), read by pyserial's ReaderThread."""

    def __init__(
        self,
        seat: int,
        port: str,
        events: EventQueue,
        *,
        kind: str,
        confirm: int | None = None,
        gone_after: float = 0.5,
        baudrate: int = 9600,
        read_timeout: float = 0.1,
        clock: Clock = time.monotonic,
    ) -> None:
        decoder = Rfid125Decoder(seat, port, kind, confirm=confirm, gone_after=gone_after)
        super().__init__(
            seat,
            port,
            events,
            decoder,
            baudrate=baudrate,
            read_timeout=read_timeout,
            clock=clock,
        )
        self.rfid = decoder
