"""The host side of the seat reader link (our firmware in ``firmware/``).

The board speaks framed lines with a CRC, numbers its card events and sends
each until the Pi acknowledges it (the protocol is specified in
``firmware/link.py`` and docs/reader-link.md; both sides share that module's
codec, so they cannot drift apart). Here:

* ``LinkDecoder`` is pure: bytes in (split anywhere), events and replies out.
  It accepts an event only if it carries the next sequence number it expects,
  so a retransmitted event is never delivered twice, and acknowledges
  cumulatively. It remembers the board's boot id and the next expected seq
  across reconnections, so a board that kept its queue while its cable was
  out delivers what it queued, once. A board that restarted (a new boot id)
  starts a new sequence. It asks for a hello when the port opens and drops
  the connection (``LinkLost``) when the board falls silent for longer than
  ``heartbeat_timeout``.
* ``LinkReader`` runs it on a port through pyserial's ``ReaderThread`` (see
  ``hardware.serial_stream.SerialStreamReader``).

The board's side, simulated on a pseudo-terminal, is ``hardware.simulated_board``.
"""

from __future__ import annotations

import logging
import time

from firmware.link import (
    ACK,
    BEAT,
    GONE,
    HELLO,
    PLACED,
    QUERY,
    SEQ_MOD,
    Splitter,
    decode,
    encode,
    seq_after,
)
from hardware.events import (
    Clock,
    EventQueue,
    InputEvent,
    TagPresented,
    TagRemoved,
)
from hardware.problems import ProblemLimiter, show_bytes
from hardware.serial_stream import LinkLost, SerialStreamReader

__all__ = ["LinkDecoder", "LinkReader"]

logger = logging.getLogger(__name__)

HEARTBEAT_TIMEOUT = 3.5
"""Seconds of silence after which the board counts as gone (it beats every second)."""


class LinkDecoder:
    """One seat's link, host side: pure apart from the ``at``/``now`` it is given.

    ``feed(chunk, at)`` returns events; ``take_output()`` the bytes to send
    the board (acknowledgements, hello requests); ``tick(now)`` handles time
    and raises ``LinkLost`` after ``heartbeat_timeout`` seconds of silence;
    ``reset()`` starts a new connection but keeps the session (boot id,
    expected seq). Counters (``delivered``, ``duplicates``, ``gaps``,
    ``bad_frames``) are for tests, benchmarks and logs.
    """

    def __init__(
        self,
        seat: int,
        port: str,
        *,
        heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
        hello_retry: float = 0.5,
        problem_every: float = 1.0,
    ) -> None:
        self.seat = seat
        self.port = port
        self._heartbeat_timeout = heartbeat_timeout
        self._hello_retry = hello_retry
        # The session: survives reconnections.
        self.boot: str | None = None
        self.board: str | None = None
        self.firmware: str | None = None
        self.expected: int | None = None
        self._dropped = 0
        # The connection.
        self._splitter = Splitter()
        self.present_uid: str | None = None
        self.hello_seen = False
        self._last_heard: float | None = None
        self._last_query: float | None = None
        self._query_pending = False
        self._ack_due = False
        self._out = bytearray()
        # Counters.
        self.delivered = 0
        self.duplicates = 0
        self.gaps = 0
        self._problems = ProblemLimiter(problem_every)

    # --- the Decoder interface ----------------------------------------------------

    def reset(self) -> None:
        """A new connection: ask the board for a hello; no tag is known to be present."""
        self._splitter.reset()
        self.present_uid = None
        self.hello_seen = False
        self._last_heard = None
        self._ack_due = False
        self._out.clear()
        self._out += encode(QUERY, 0)
        self._query_pending = True

    def feed(self, chunk: bytes, at: float) -> list[InputEvent]:
        """Decode ``chunk`` (read at monotonic time ``at``) into events, in order."""
        events: list[InputEvent] = []
        junk = self._splitter.junk
        for line in self._splitter.feed(chunk):
            try:
                kind, seq, payload = decode(line)
            except ValueError as exc:
                self._problem(f"sent a corrupt frame ({exc}): {show_bytes(line)}", at, events)
                continue
            self._last_heard = at
            if kind in (PLACED, GONE):
                self._on_event(kind, seq, payload, at, events)
            elif kind == HELLO:
                self._on_hello(seq, payload, at, events)
            elif kind == BEAT:
                self._on_beat(payload, at, events)
            else:
                self._problem(
                    f"sent a frame only the Pi should send: {show_bytes(line)}", at, events
                )
        if self._splitter.junk > junk:
            self._problem("sent bytes that are not frames (line noise?)", at, events)
        return events

    def tick(self, now: float) -> list[InputEvent]:
        """Ask again for a hello if none came; raise ``LinkLost`` if the board fell silent."""
        if self._last_heard is None:
            self._last_heard = now  # the connection's first tick starts the clock
        if self._query_pending:
            self._query_pending = False
            self._last_query = now
        if now - self._last_heard > self._heartbeat_timeout:
            raise LinkLost(
                f"the reader board stopped answering (nothing for {self._heartbeat_timeout:g} s)"
            )
        if not self.hello_seen and (
            self._last_query is None or now - self._last_query >= self._hello_retry
        ):
            self._out += encode(QUERY, 0)
            self._last_query = now
        return []

    def take_output(self) -> bytes:
        """Bytes to send to the board now (an acknowledgement is coalesced per read)."""
        if self._ack_due and self.expected is not None and self.boot is not None:
            self._out += encode(ACK, (self.expected - 1) % SEQ_MOD, self.boot)
        self._ack_due = False
        out = bytes(self._out)
        self._out.clear()
        return out

    # --- frames -----------------------------------------------------------------------

    def _on_hello(self, seq: int, payload: str, at: float, events: list[InputEvent]) -> None:
        words = payload.split()
        fields = dict(word.partition("=")[::2] for word in words[1:])
        boot = fields.get("boot", "")
        if not words or not boot:
            self._problem(f"sent a hello without a boot id: {payload!r}", at, events)
            return
        if boot != self.boot:
            if self.boot is not None:
                logger.warning(
                    "seat %d's reader board at %s restarted (boot %s -> %s)",
                    self.seat,
                    self.port,
                    self.boot,
                    boot,
                )
            if self.present_uid is not None:
                self.present_uid = None
                events.append(TagRemoved(self.seat, at))
            self.boot = boot
            self.expected = seq
            self._dropped = 0
        elif self.expected is None or seq_after(seq, self.expected):
            # The board no longer holds events we never got: only a full queue does that.
            self._problem(
                f"lost {(seq - (self.expected or 0)) % SEQ_MOD} card events while away",
                at,
                events,
            )
            self.expected = seq
        self.board = fields.get("board")
        self.firmware = words[0]
        if not self.hello_seen:
            logger.info(
                "seat %d's reader at %s: %s board %s boot %s",
                self.seat,
                self.port,
                self.firmware,
                self.board,
                boot,
            )
        self.hello_seen = True
        self._ack_due = True  # tells a board whose acknowledgement was lost

    def _on_event(self, kind: str, seq: int, uid: str, at: float, events: list[InputEvent]) -> None:
        if not self.hello_seen or self.expected is None:
            return  # not acknowledged: the board resends after its hello
        self._ack_due = True
        if seq != self.expected:
            if seq_after(seq, self.expected):
                self.gaps += 1  # an earlier frame was corrupted; go-back-N resends it
            else:
                self.duplicates += 1
            return
        self.expected = (seq + 1) % SEQ_MOD
        self.delivered += 1
        if kind == PLACED:
            if uid == self.present_uid:
                return
            if self.present_uid is not None:
                events.append(TagRemoved(self.seat, at))
            self.present_uid = uid
            events.append(TagPresented(self.seat, uid, at))
        elif self.present_uid is not None and self.present_uid == uid:
            self.present_uid = None
            events.append(TagRemoved(self.seat, at))

    def _on_beat(self, payload: str, at: float, events: list[InputEvent]) -> None:
        if not self.hello_seen:
            return
        _, _, value = payload.partition("drop=")
        dropped = int(value) if value.isdigit() else 0
        if dropped > self._dropped:
            self._problem(
                f"dropped {dropped - self._dropped} card events: its queue was full",
                at,
                events,
            )
        self._dropped = dropped

    def _problem(self, message: str, at: float, events: list[InputEvent]) -> None:
        """Report at most one problem per ``problem_every`` seconds; count the rest."""
        problem = self._problems.report(
            self.seat, f"seat {self.seat}'s reader at {self.port} {message}", at
        )
        if problem is not None:
            events.append(problem)

    @property
    def bad_frames(self) -> int:
        """Every bad frame seen, reported or not."""
        return self._problems.count


class LinkReader(SerialStreamReader):
    """A seat's reader board running our firmware, on a USB serial port.

    The read timeout is short (0.1 s) because the decoder keeps time on each
    read: heartbeats, hello requests.
    """

    def __init__(
        self,
        seat: int,
        port: str,
        events: EventQueue,
        *,
        heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
        hello_retry: float = 0.5,
        baudrate: int = 115200,
        read_timeout: float = 0.1,
        write_timeout: float = 0.5,
        clock: Clock = time.monotonic,
    ) -> None:
        decoder = LinkDecoder(
            seat, port, heartbeat_timeout=heartbeat_timeout, hello_retry=hello_retry
        )
        super().__init__(
            seat,
            port,
            events,
            decoder,
            baudrate=baudrate,
            read_timeout=read_timeout,
            write_timeout=write_timeout,
            clock=clock,
        )
        self.link = decoder
