"""The board's main loop with its hardware handed in: a steady poll period, a fed watchdog,
and USB writes that never block for long.

Pure (MicroPython and CPython): ``firmware/main.py`` hands it the Pico's USB
serial port, its watchdog and MicroPython's ``time``; the tests hand it a
simulated clock, a port that stalls and a watchdog that records every feed.

Three rules it keeps, each the fix for something a real Pico would show:

* **The period.** The poll starts on a schedule (``ticks_add`` of one period
  to the last start) and the loop sleeps only what is left of the period
  after the step, so a slow reader shortens the sleep instead of stretching
  the period. A step that overruns its period starts the next poll at once
  without trying to catch up (no burst of polls); it is counted in
  ``overruns``.
* **The watchdog.** It is fed after the reader's poll and after every chunk
  written, so no single thing the loop waits for lasts longer than one
  chunk's write (at most 500 ms on the rp2 port's USB stack) between feeds.
* **USB writes.** Frames go into a bounded ``Outbox``; each poll writes it
  out in chunks of one USB packet (64 bytes), only while the port says it
  can take bytes and only until ``write_budget_ms`` has passed. A write that
  took less than its chunk timed out (the rp2 stack waits 500 ms for a host
  that does not read): the outbox then writes nothing for
  ``STALL_BACKOFF_MS``, so a stalled host costs at most one such wait a
  second and the reader keeps being polled in between. A host that holds the
  port open without reading fills the outbox; further frames are then
  dropped whole (counted in ``Outbox.dropped``), which loses nothing: the
  link resends every unacknowledged event, and hellos and heartbeats are
  sent again anyway.
"""

from firmware.board import POLL_MS, Board
from firmware.link import MAX_FRAME, const

OUTBOX_BYTES = const(1024)
"""Room for a full window of resent events plus a hello and a heartbeat (12 frames of 81 bytes)."""

CHUNK = const(64)
"""Bytes per write: one USB full-speed bulk packet, the rp2 CDC endpoint's buffer."""

WRITE_BUDGET_MS = const(5)
"""Start no further chunk once this long was spent writing in one poll."""

STALL_BACKOFF_MS = const(1000)
"""After a write that timed out, write nothing for this long (the host is not reading)."""

READ_MAX = const(256)
"""Bytes taken from the host per poll at most, so a flood cannot starve the loop."""


class Clock:
    """Milliseconds as MicroPython's ``time`` gives them: wrapping ticks, a diff, a sleep."""

    def ticks_ms(self) -> int:
        """The current tick count in milliseconds (it may wrap)."""
        raise NotImplementedError

    def ticks_add(self, ticks: int, delta: int) -> int:
        """``ticks`` moved on by ``delta`` milliseconds, wrapping as ``ticks_ms`` does."""
        raise NotImplementedError

    def ticks_diff(self, end: int, start: int) -> int:
        """Signed milliseconds from ``start`` to ``end``, correct across a wrap."""
        raise NotImplementedError

    def sleep_ms(self, ms: int) -> None:
        """Wait ``ms`` milliseconds."""
        raise NotImplementedError


class Port:
    """The serial link to the host, used without blocking."""

    def read(self, limit: int) -> bytes:
        """Up to ``limit`` bytes the host sent that are already here; ``b""`` if none."""
        raise NotImplementedError

    def writable(self) -> bool:
        """Whether a write would make progress now (the host reads, or nobody is attached)."""
        raise NotImplementedError

    def write(self, data: memoryview) -> int:
        """Write some of ``data``; return how many bytes were taken (0 if none)."""
        raise NotImplementedError


class Watchdog:
    """A watchdog that resets the board unless fed in time."""

    def feed(self) -> None:
        """Restart the watchdog's countdown."""
        raise NotImplementedError


class Outbox:
    """Bytes waiting for the host, in a buffer allocated once; frames go in whole or not at all."""

    def __init__(self, size: int = OUTBOX_BYTES) -> None:
        if size < MAX_FRAME + 1:
            raise ValueError("an outbox must hold at least one whole frame")
        self._buf = bytearray(size)
        self._view = memoryview(self._buf)
        self._start = 0  # first byte not yet written
        self._end = 0  # one past the last byte queued
        self.dropped = 0  # frames refused because the host was not reading
        self.written = 0  # bytes the port took
        self.stalls = 0  # writes that timed out
        self._quiet = False  # backing off after a stall, until _quiet_until
        self._quiet_until = 0

    @property
    def pending(self) -> int:
        """Bytes queued and not yet written."""
        return self._end - self._start

    def put(self, frame: bytes) -> bool:
        """Queue a whole frame; False (and counted in ``dropped``) if there is no room for it."""
        n = len(frame)
        size = len(self._buf)
        if self._end + n > size:
            pending = self._end - self._start
            if pending + n > size:
                self.dropped += 1
                return False
            # Move what is left to the front; rare (only when the host lags), so copy plainly.
            self._buf[0:pending] = self._buf[self._start : self._end]
            self._start = 0
            self._end = pending
        self._view[self._end : self._end + n] = frame
        self._end += n
        return True

    def flush(self, port: Port, clock: Clock, watchdog: Watchdog, budget_ms: int) -> int:
        """Write chunks while the port takes them and the budget lasts; return bytes written.

        The first chunk is always tried, so a slow port still makes progress;
        the watchdog is fed after every chunk, whatever the write cost.
        """
        total = 0
        begin = clock.ticks_ms()
        if self._quiet:
            if clock.ticks_diff(self._quiet_until, begin) > 0:
                return 0
            self._quiet = False
        while self._start < self._end:
            if total and clock.ticks_diff(clock.ticks_ms(), begin) >= budget_ms:
                break
            if not port.writable():
                break
            stop = self._start + CHUNK
            if stop > self._end:
                stop = self._end
            want = stop - self._start
            n = port.write(self._view[self._start : stop])
            watchdog.feed()
            self._start += n
            total += n
            if n < want:
                # Timed out: the host holds the port without reading. Back off.
                self.stalls += 1
                self._quiet = True
                self._quiet_until = clock.ticks_add(clock.ticks_ms(), STALL_BACKOFF_MS)
                break
        if self._start == self._end:
            self._start = self._end = 0
        self.written += total
        return total


class Runner:
    """Runs a ``Board`` against a port, a watchdog and a clock, one poll per ``period_ms``.

    ``now`` is the board's own millisecond count since the loop started
    (unwrapped from the clock's ticks), ``polls`` the polls made, ``overruns``
    the polls whose step took longer than the period.
    """

    def __init__(
        self,
        board: Board,
        port: Port,
        watchdog: Watchdog,
        clock: Clock,
        *,
        period_ms: int = POLL_MS,
        write_budget_ms: int = WRITE_BUDGET_MS,
        outbox: Outbox | None = None,
    ) -> None:
        self.board = board
        self.port = port
        self.watchdog = watchdog
        self.clock = clock
        self.period_ms = period_ms
        self.write_budget_ms = write_budget_ms
        self.outbox = outbox if outbox is not None else Outbox()
        self.now = 0
        self.polls = 0
        self.overruns = 0
        self.longest_ms = 0  # the longest step, reader poll and writes included
        self._last = clock.ticks_ms()
        self._next = self._last

    def step(self) -> None:
        """One poll: read the host, poll the reader, write what fits, feed the watchdog."""
        clock = self.clock
        start = clock.ticks_ms()
        self.now += clock.ticks_diff(start, self._last)
        self._last = start
        data = self.port.read(READ_MAX)
        if data:
            self.board.receive(data)
        for frame in self.board.step(self.now):
            self.outbox.put(frame)
        self.watchdog.feed()
        self.outbox.flush(self.port, clock, self.watchdog, self.write_budget_ms)
        self.polls += 1

    def wait(self) -> None:
        """Sleep what is left of this poll's period (nothing if the step overran it)."""
        clock = self.clock
        self._next = clock.ticks_add(self._next, self.period_ms)
        left = clock.ticks_diff(self._next, clock.ticks_ms())
        spent = self.period_ms - left
        if spent > self.longest_ms:
            self.longest_ms = spent
        if left > 0:
            clock.sleep_ms(left)
        else:
            # Overran: start the next poll now, and schedule from here rather than catch up.
            self.overruns += 1
            self._next = clock.ticks_ms()

    def run(self, polls: int = -1) -> None:
        """Poll forever (or ``polls`` times): step, then sleep what is left of the period."""
        self._next = self.clock.ticks_ms()
        while polls != 0:
            self.step()
            self.wait()
            if polls > 0:
                polls -= 1
