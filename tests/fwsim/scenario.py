"""Scripted reader boards: the firmware's own modules run against a simulated world.

``run.mjs`` runs these under MicroPython (the WebAssembly port under Node);
the tests also run the virtual-clock ones under CPython. Each scenario
prints one line ``RESULT <json>`` for the host test to check.

* ``selfcheck``: import every module of the firmware (``boot.py`` with the
  fake ``machine``), so CI fails when the firmware uses something MicroPython
  lacks.
* ``period``: a slow scripted reader (``read_ms`` per poll) on a virtual
  clock; how many polls in ``seconds``.
* ``mfrc522``: the real MFRC522 driver against the emulated chip, taps on a
  virtual clock; polls, and each tap's latency from the card touching the
  antenna to its ``P`` frame written to USB.
* ``stall``: the host holds the port open and does not read for
  ``stall_s``: every write blocks 500 ms and takes nothing, as the rp2 USB
  stack does; the watchdog must never expire and every tap still arrives.
* ``maintenance``: ``main.serve`` interrupted by Ctrl-C (as ``mpremote``
  does), a long stay at the REPL, a soft reset running ``boot.py``: the
  watchdog must never expire; without ``boot.py`` it would.
* ``link``: the real-time board behind a file descriptor (a pseudo-terminal
  whose other end the host's ``LinkReader`` has open), until the host sends
  Ctrl-C.
"""

import json
import sys

from firmware import keeper
from firmware.board import POLL_MS, Board, Reader
from firmware.link import ACK, GONE, PLACED, Link, Splitter, decode, encode
from firmware.main import WDT, serve
from firmware.mfrc522 import MFRC522, TIMEOUT_US
from firmware.runner import Outbox, Port, Runner

TYPE_CHECKING = False  # no ``typing`` on MicroPython; mypy takes the branch below as true
if TYPE_CHECKING:
    from typing import Any

    from tests.fwsim import chip as chip_module
    from tests.fwsim import machine, world
else:
    import chip as chip_module
    import machine
    import world

BOOT = "5EED0001"
CTRL_C = 3


def result(**values: object) -> None:
    print("RESULT " + json.dumps(values))


def uids(n: int, size: int = 7) -> list[str]:
    """``n`` distinct uids of ``size`` bytes as the link writes them."""
    out = []  # type: list[str]
    for i in range(n):
        tail = "%X" % (i + 1)
        out.append("04" + "0" * (2 * size - 2 - len(tail)) + tail)
    return out


def tap_script(
    uid_list: list[str], first_ms: int, hold_ms: int, gap_ms: int
) -> list[tuple[int, str | None]]:
    """(at_ms, uid or None) changes of the field for tapping each uid in turn."""
    script = []  # type: list[tuple[int, str | None]]
    at = first_ms
    for uid in uid_list:
        script.append((at, uid))
        script.append((at + hold_ms, None))
        at += hold_ms + gap_ms
    return script


class SlowReader(Reader):
    """A reader that takes ``read_ms`` of the board's time for every poll and follows a script."""

    def __init__(
        self, clock: world.SimClock, read_ms: int, script: list[tuple[int, str | None]]
    ) -> None:
        self.clock = clock
        self.read_us = read_ms * 1000
        self.script = script
        self.present = None  # type: str | None

    def read_uid(self) -> str | None:
        now_ms = self.clock.now_us() // 1000
        while self.script and self.script[0][0] <= now_ms:
            self.present = self.script.pop(0)[1]
        self.clock.advance_us(self.read_us)
        return self.present


class HostModel(Port):
    """The Pico's USB stack and the host behind it, inside the simulation.

    The host accepts an event only if its seq is the next expected (as the
    real host does), records (kind, uid, written_at_ms) for each, and answers
    with a cumulative acknowledgement on the board's next read.

    Until ``stall_until_ms`` the host holds the port open without reading,
    as the rp2 port's USB stack sees it: the CDC transmit buffer (256 bytes)
    fills up, ``writable()`` turns false once it is full (``select.poll``'s
    POLLOUT on the rp2 port), and a write that does not fit waits 500 ms for
    room and then returns what it took. ``lying=True`` makes ``writable()``
    always true, for a port whose poll cannot tell.
    """

    FIFO = 256
    TIMEOUT_US = 500_000

    def __init__(
        self,
        clock: world.SimClock,
        stall_until_ms: int = 0,
        ctrl_c_at_ms: int = -1,
        lying: bool | None = False,
    ) -> None:
        self.clock = clock
        self.stall_until_ms = stall_until_ms
        self.ctrl_c_at_ms = ctrl_c_at_ms
        self.lying = lying
        self.splitter = Splitter()
        self.fifo = b""
        self.expected = 0
        self.events = []  # type: list[tuple[str, str, int]]  # (kind, uid, written_at_ms)
        self.pending = b""
        self.frames = 0
        self.timeouts = 0
        self.boot = None  # type: str | None

    def _now_ms(self) -> int:
        return self.clock.now_us() // 1000

    def _stalled(self) -> bool:
        return self._now_ms() < self.stall_until_ms

    def read(self, limit: int) -> bytes:
        if 0 <= self.ctrl_c_at_ms <= self._now_ms():
            raise KeyboardInterrupt  # the rp2 USB stack turns a received Ctrl-C into this
        data, self.pending = self.pending, b""
        return data

    def writable(self) -> bool:
        return self.lying or not self._stalled() or len(self.fifo) < self.FIFO

    def write(self, data: memoryview) -> int:
        chunk = bytes(data)
        if not self._stalled():
            self._deliver(self.fifo + chunk)
            self.fifo = b""
            return len(chunk)
        take = min(len(chunk), self.FIFO - len(self.fifo))
        self.fifo += chunk[:take]
        if take < len(chunk):
            self.timeouts += 1
            self.clock.advance_us(self.TIMEOUT_US)
        return take

    def _deliver(self, data: bytes) -> None:
        for line in self.splitter.feed(data):
            self.frames += 1
            kind, seq, payload = decode(line)
            if kind == "H":
                self.boot = payload.split("boot=")[1]
            if kind in (PLACED, GONE):
                if seq == self.expected:
                    self.events.append((kind, payload, self._now_ms()))
                    self.expected += 1
                if self.boot is not None and self.expected:
                    self.pending = encode(ACK, self.expected - 1, self.boot)


class NaiveRunner(Runner):
    """The loop before issue 18, for comparison: every frame written whole, blocking."""

    def step(self) -> None:
        start = self.clock.ticks_ms()
        self.now += self.clock.ticks_diff(start, self._last)
        self._last = start
        data = self.port.read(256)
        if data:
            self.board.receive(data)
        for frame in self.board.step(self.now):
            self.port.write(memoryview(frame))
        self.watchdog.feed()
        self.polls += 1


def _hex(data: bytes) -> str:
    """``data`` as a hex str for hostio (MicroPython's ``b"".hex()`` gives ``b""``, not ``""``)."""
    return data.hex() if data else ""


class FdPort(Port):
    """The board's USB serial as a file descriptor the host test handed to Node (``hostio``)."""

    def __init__(self, hostio: object) -> None:
        self.io = hostio

    def read(self, limit: int) -> bytes:
        data = bytes.fromhex(self.io.read_hex(limit))  # type: ignore[attr-defined]
        if CTRL_C in data:
            # As the rp2 USB stack does: Ctrl-C interrupts, and what follows it stays
            # in the input for the REPL.
            self.io.unread_hex(_hex(data[data.index(b"\x03") + 1 :]))  # type: ignore[attr-defined]
            raise KeyboardInterrupt
        return data

    def writable(self) -> bool:
        return True

    def write(self, data: memoryview) -> int:
        return int(self.io.write_hex(_hex(bytes(data))))  # type: ignore[attr-defined]


def setup(
    clock: world.SimClock, spi_us: int = 0, script: list[tuple[int, str | None]] | None = None
) -> world.World:
    w = world.World(clock, spi_us=spi_us)
    world.current = w
    w.chip = chip_module.Chip(clock, script)
    return w


def run_for(runner: Runner, clock: world.SimClock, seconds: float) -> None:
    end = clock.now_us() + int(seconds * 1_000_000)
    while clock.now_us() < end:
        runner.step()
        runner.wait()


def selfcheck(args: "dict[str, Any]") -> None:
    import os

    names = sorted(n[:-3] for n in os.listdir(args["firmware"]) if n.endswith(".py"))
    clock = world.SimClock()
    setup(clock)
    for name in names:
        __import__("firmware." + name)
    keeper.stop()
    result(modules=names, implementation=sys.implementation.name)


def period(args: "dict[str, Any]") -> None:
    # "real": the host's clock through hostio (run.mjs only): sleeps and the slow reader
    # really take their time, so the poll count measures this MicroPython's loop.
    clock = world.RealClock(_hostio) if args.get("real") else world.SimClock()
    w = setup(clock)
    taps = tap_script(uids(args.get("taps", 10)), 100, 300, 200)
    reader = SlowReader(clock, args["read_ms"], taps)
    host = HostModel(clock)
    board = Board(reader, Link("AB", BOOT))
    runner = Runner(board, host, WDT(machine.WDT(timeout=2000)), clock)
    run_for(runner, clock, args["seconds"])
    result(
        polls=runner.polls,
        overruns=runner.overruns,
        longest_step_ms=runner.longest_ms,
        poll_ms=POLL_MS,
        placed=[uid for kind, uid, _ in host.events if kind == PLACED],
        expiries=len(w.watchdog.expiries),
    )


def mfrc522(args: "dict[str, Any]") -> None:
    clock = world.SimClock()
    # A gap that is no multiple of the poll period puts each tap at another phase of the poll.
    taps = tap_script(
        uids(args["taps"], args.get("uid_bytes", 7)), 100, args["hold_ms"], args.get("gap_ms", 313)
    )
    w = setup(clock, spi_us=args["spi_us"], script=list(taps))
    reader = MFRC522(machine.SPI(0), machine.Pin(17), machine.Pin(20))
    if args.get("reload") is not None:  # try another timeout on the very same driver
        reader._write(0x2C, args["reload"] >> 8)
        reader._write(0x2D, args["reload"] & 0xFF)
    host = HostModel(clock)
    board = Board(reader, Link("AB", BOOT))
    runner = Runner(board, host, WDT(machine.WDT(timeout=2000)), clock)
    w.spi_transactions = 0
    run_for(runner, clock, args["seconds"])
    placed_at = {uid: at for at, uid in taps if uid is not None}
    latency = [at - placed_at[uid] for kind, uid, at in host.events if kind == PLACED]
    result(
        polls=runner.polls,
        overruns=runner.overruns,
        longest_step_ms=runner.longest_ms,
        poll_ms=POLL_MS,
        chip_timeout_us=w.chip.timeout_us(),
        driver_timeout_us=TIMEOUT_US,
        spi_per_poll=w.spi_transactions / runner.polls,
        placed=[uid for kind, uid, _ in host.events if kind == PLACED],
        gone=[uid for kind, uid, _ in host.events if kind == GONE],
        expected=[uid for _, uid in taps if uid is not None],
        latency_ms=latency,
        expiries=len(w.watchdog.expiries),
        read_errors=board.read_errors,
    )


def stall(args: "dict[str, Any]") -> None:
    clock = world.SimClock()
    w = setup(clock)
    taps = tap_script(uids(args["taps"]), 100, args.get("hold_ms", 200), 200)
    reader = SlowReader(clock, 2, list(taps))
    host = HostModel(clock, stall_until_ms=int(args["stall_s"] * 1000), lying=args.get("lying"))
    board = Board(reader, Link("AB", BOOT))
    outbox = Outbox()
    runner = (NaiveRunner if args.get("naive") else Runner)(
        board, host, WDT(machine.WDT(timeout=2000)), clock, outbox=outbox
    )
    run_for(runner, clock, args["seconds"])
    result(
        polls=runner.polls,
        placed=[uid for kind, uid, _ in host.events if kind == PLACED],
        expected=[uid for _, uid in taps if uid is not None],
        expiries=len(w.watchdog.expiries),
        longest_feed_gap_ms=w.watchdog.longest_gap_us // 1000,
        write_timeouts=host.timeouts,
        outbox_stalls=outbox.stalls,
        outbox_dropped=outbox.dropped,
        queued=board.link.queued,
    )


def maintenance(args: "dict[str, Any]") -> None:
    clock = world.SimClock()
    w = setup(clock)
    keeper.start(machine)  # what boot.py did at power-up
    host = HostModel(clock, ctrl_c_at_ms=args["ctrl_c_ms"])
    board = Board(SlowReader(clock, 2, []), Link("AB", BOOT))
    feeds_before = w.watchdog.feeds
    serve(machine, board, host, clock)  # returns on Ctrl-C, as mpremote makes it
    loop_feeds = w.watchdog.feeds - feeds_before
    at_repl = keeper.running()
    clock.advance_us(args["repl_s"] * 1_000_000)  # mpremote works at the REPL
    after_repl = len(w.watchdog.expiries)
    w.soft_reset()  # mpremote's soft reset into the raw REPL: the timer is gone ...
    keeper._timer = None  # ... and so is every module (MicroPython starts afresh)
    boot_src = args["boot_py"]
    with open(boot_src) as f:
        exec(f.read(), {"__name__": "__main__"})  # ... and boot.py runs
    clock.advance_us(args["repl_s"] * 1_000_000)
    after_soft_reset = len(w.watchdog.expiries)
    w.soft_reset()  # the control: a soft reset without boot.py's feeder
    keeper._timer = None
    clock.advance_us(10_000_000)
    result(
        loop_feeds=loop_feeds,
        keeper_at_repl=at_repl,
        expiries_at_repl=after_repl,
        expiries_after_soft_reset=after_soft_reset,
        expiries_without_boot_py=len(w.watchdog.expiries) - after_soft_reset,
    )


def link(args: "dict[str, Any]", hostio: object) -> None:
    clock = world.RealClock(hostio)
    taps = tap_script(uids(args["taps"]), 300, args["hold_ms"], args["gap_ms"])
    setup(clock, script=taps)
    keeper.start(machine)
    reader = MFRC522(machine.SPI(0), machine.Pin(17), machine.Pin(20))
    board = Board(reader, Link("E66141040355A52B", BOOT))
    serve(machine, board, FdPort(hostio), clock)
    result(
        acked=board.link.acked,
        queued=board.link.queued,
        expiries=len(world.current.watchdog.expiries),
        keeper_at_repl=keeper.running(),
    )


_hostio = None  # type: object


def main(name: str, args_json: str, hostio: object = None) -> None:
    global _hostio
    _hostio = hostio
    args = json.loads(args_json)
    if name == "link":
        link(args, hostio)
    else:
        {
            "selfcheck": selfcheck,
            "period": period,
            "mfrc522": mfrc522,
            "stall": stall,
            "maintenance": maintenance,
        }[name](args)
