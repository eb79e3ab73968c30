"""The board's main loop under CPython: period, outbox, stalled writes, watchdog feeding.

The same code runs under MicroPython in tests/test_firmware_micropython.py;
here each rule is pinned with small fakes on a virtual clock.
"""

from __future__ import annotations

import itertools

import pytest

from firmware.board import POLL_MS, Board, Reader
from firmware.link import BEAT, HELLO, PLACED, Link, Splitter, decode, encode
from firmware.runner import CHUNK, STALL_BACKOFF_MS, Clock, Outbox, Port, Runner, Watchdog

PERIOD = 1 << 30  # MicroPython's ticks wrap here


class FakeClock(Clock):
    """Virtual milliseconds; ``start`` lets a test begin just before the ticks wrap."""

    def __init__(self, start: int = 0) -> None:
        self.ms = start
        self.sleeps: list[int] = []

    def ticks_ms(self) -> int:
        return self.ms % PERIOD

    def ticks_add(self, ticks: int, delta: int) -> int:
        return (ticks + delta) % PERIOD

    def ticks_diff(self, end: int, start: int) -> int:
        return ((end - start + PERIOD // 2) % PERIOD) - PERIOD // 2

    def sleep_ms(self, ms: int) -> None:
        self.sleeps.append(ms)
        self.ms += ms


class Feeds(Watchdog):
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.times: list[int] = []

    def feed(self) -> None:
        self.times.append(self.clock.ms)


class SlowReader(Reader):
    def __init__(self, clock: FakeClock, cost: list[int], uid: str | None = None) -> None:
        self.clock = clock
        self.cost = cost  # ms per poll, cycled
        self.uid = uid
        self.polls = 0

    def read_uid(self) -> str | None:
        self.clock.ms += self.cost[self.polls % len(self.cost)]
        self.polls += 1
        return self.uid


class FakePort(Port):
    """Takes ``room`` bytes per write at most; a short write costs ``stall_ms`` (a timeout)."""

    def __init__(self, clock: FakeClock, room: int = 10_000, stall_ms: int = 500) -> None:
        self.clock = clock
        self.room = room
        self.stall_ms = stall_ms
        self.out = bytearray()
        self.writes: list[int] = []
        self.can_write = True

    def read(self, limit: int) -> bytes:
        return b""

    def writable(self) -> bool:
        return self.can_write

    def write(self, data: memoryview) -> int:
        n = min(len(data), self.room)
        self.writes.append(len(data))
        self.out += bytes(data[:n])
        if n < len(data):
            self.clock.ms += self.stall_ms
        return n


def frames(data: bytes) -> list[tuple[str, int, str]]:
    return [decode(line) for line in Splitter().feed(data)]


def make_runner(clock: FakeClock, reader: Reader, port: Port) -> tuple[Runner, Feeds]:
    feeds = Feeds(clock)
    return Runner(Board(reader, Link("AB", "0000BEEF")), port, feeds, clock), feeds


@pytest.mark.parametrize("start", [0, PERIOD - 1000], ids=["from-zero", "across-the-wrap"])
def test_the_period_holds_whatever_the_reader_costs(start: int) -> None:
    clock = FakeClock(start)
    runner, _ = make_runner(clock, SlowReader(clock, [1, 20, 7, 24]), FakePort(clock))
    runner.run(polls=400)
    assert clock.ms - start == 400 * POLL_MS
    assert runner.overruns == 0
    assert runner.now == 399 * POLL_MS  # the board's own clock, unwrapped
    assert runner.longest_ms == 24


def test_an_overrun_starts_the_next_poll_at_once_without_a_burst() -> None:
    clock = FakeClock()
    # One poll of 90 ms among quick ones.
    runner, _ = make_runner(clock, SlowReader(clock, [2, 2, 90, 2, 2, 2]), FakePort(clock))
    starts: list[int] = []
    for _ in range(6):
        starts.append(clock.ms)
        runner.step()
        runner.wait()
    assert runner.overruns == 1
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert gaps == [25, 25, 90, 25, 25]  # after the long poll: no catch-up polls 2 ms apart


def test_the_outbox_takes_whole_frames_and_drops_what_does_not_fit() -> None:
    frame = encode(PLACED, 1, "04A1B2C3D4E5F6")
    outbox = Outbox(size=100)
    assert outbox.put(frame) and outbox.put(frame) and outbox.put(frame)
    assert not outbox.put(frame)
    assert outbox.dropped == 1 and outbox.pending == 3 * len(frame)


def test_the_outbox_writes_in_chunks_and_keeps_frames_intact_across_writes() -> None:
    clock = FakeClock()
    port = FakePort(clock)
    feeds = Feeds(clock)
    outbox = Outbox()
    sent = [encode(PLACED, i, f"04{i:012X}") for i in range(9)]
    for frame in sent:
        outbox.put(frame)
    outbox.flush(port, clock, feeds, budget_ms=5)
    assert max(port.writes) <= CHUNK
    assert len(feeds.times) == len(port.writes)  # fed after every chunk
    assert bytes(port.out) == b"".join(sent)
    # The buffer is reused: after moving the rest to the front, new frames still come out whole.
    for i in range(40):
        outbox.put(encode(PLACED, i, f"04{i:012X}"))
        outbox.flush(port, clock, feeds, budget_ms=5)
    assert [seq for _, seq, _ in frames(bytes(port.out))] == list(range(9)) + list(range(40))


def test_a_write_that_times_out_backs_off_and_feeds_the_watchdog_each_time() -> None:
    clock = FakeClock()
    port = FakePort(clock, room=10)  # a host that takes 10 bytes and then nothing for 500 ms
    runner, feeds = make_runner(clock, SlowReader(clock, [2]), port)
    runner.run(polls=200)  # 5 s of polls with a heartbeat every second
    gaps = [b - a for a, b in itertools.pairwise(feeds.times)]
    assert max(gaps) <= 500 + 2  # one USB timeout at most between two feeds
    stalls = runner.outbox.stalls
    assert 1 <= stalls <= 5 * 1000 // STALL_BACKOFF_MS  # at most one timed-out write a second
    assert runner.polls == 200


def test_nothing_is_written_while_the_port_says_it_is_full() -> None:
    clock = FakeClock()
    port = FakePort(clock)
    port.can_write = False
    runner, _ = make_runner(clock, SlowReader(clock, [2]), port)
    runner.run(polls=10)
    assert port.writes == []
    assert runner.outbox.pending > 0
    port.can_write = True
    runner.run(polls=1)
    kinds = [kind for kind, _, _ in frames(bytes(port.out))]
    assert kinds[:2] == [HELLO, BEAT]


def test_the_outbox_must_hold_a_frame() -> None:
    with pytest.raises(ValueError, match="whole frame"):
        Outbox(size=40)


# --- main.py's USB port, with fakes for MicroPython's sys and select ----------------------------


class FakeStream:
    """sys.stdin/sys.stdout of MicroPython: a ``buffer`` with read/write."""

    def __init__(self, data: bytes = b"", returns: int | None = None) -> None:
        self.buffer = self
        self.data = bytearray(data)
        self.written = bytearray()
        self.returns = returns

    def read(self, n: int) -> bytes:
        out, self.data = bytes(self.data[:n]), self.data[n:]
        return out

    def write(self, data: memoryview) -> int | None:
        self.written += bytes(data)
        return self.returns


class FakePoll:
    def __init__(self, select: FakeSelect) -> None:
        self.select = select
        self.stream: FakeStream | None = None
        self.mask = 0

    def register(self, stream: FakeStream, mask: int) -> None:
        self.stream, self.mask = stream, mask

    def poll(self, timeout: int) -> list[tuple[FakeStream, int]]:
        assert timeout == 0  # never blocks
        assert self.stream is not None
        if self.mask == self.select.POLLIN and self.stream.data:
            return [(self.stream, self.mask)]
        if self.mask == self.select.POLLOUT and self.select.room:
            return [(self.stream, self.mask)]
        return []


class FakeSelect:
    POLLIN = 1
    POLLOUT = 4

    def __init__(self) -> None:
        self.room = True

    def poll(self) -> FakePoll:
        return FakePoll(self)


class FakeSys:
    def __init__(self, stdin: FakeStream, stdout: FakeStream) -> None:
        self.stdin = stdin
        self.stdout = stdout


def test_the_usb_port_reads_what_is_there_and_writes_only_when_there_is_room() -> None:
    from firmware.main import StdioPort

    select = FakeSelect()
    stdin, stdout = FakeStream(b"$Q 0*2162899B\n"), FakeStream(returns=None)
    port = StdioPort(FakeSys(stdin, stdout), select)
    assert port.read(4) == b"$Q 0"  # at most the limit per poll
    assert port.read(256) == b"*2162899B\n"
    assert port.read(256) == b""  # nothing waiting: no blocking read
    assert port.writable()
    assert port.write(memoryview(b"$B 0 drop=0*DAB65E5D\n")) == 21  # None means all of it
    select.room = False
    assert not port.writable()


def test_the_usb_port_reports_a_short_write() -> None:
    from firmware.main import StdioPort

    port = StdioPort(FakeSys(FakeStream(), FakeStream(returns=5)), FakeSelect())
    assert port.write(memoryview(b"0123456789")) == 5
