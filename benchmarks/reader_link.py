"""The seat reader link over a pseudo-terminal: taps per second, and tap-to-event latency.

A simulated board (the firmware's own ``Board`` and ``Link`` from
``firmware/``, in a thread on the master side of a pseudo-terminal) talks to
a real ``LinkReader`` (pyserial's ``ReaderThread``) on the slave side, in one
process, so both ends read the same monotonic clock.

* Throughput: the board's scripted reader produces taps as fast as the board
  can poll (a tap is one poll seeing the card and one seeing nothing), so the
  link itself (framing, CRC, window of 8 unacknowledged events, ACKs) is the
  bottleneck. Reported: taps per second from the first to the last
  ``TagPresented`` the table's queue receives. Target: at least 50.
* Latency: one tap every ``--interval`` seconds; for each, the time from the
  board writing the card's ``P`` frame to the table's thread taking
  ``TagPresented`` off its queue. Reported: p50, p99 and max. Target: p99 at
  most 2 ms.

Run:  .venv/bin/python benchmarks/reader_link.py [--taps 2000] [--latency-taps 500]

Exits non-zero if a target is missed.
"""

from __future__ import annotations

import argparse
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path

from firmware.board import Board, Debouncer
from firmware.link import Link
from hardware.events import EventQueue, ReaderOnline, TagPresented
from hardware.link_reader import LinkReader
from hardware.simulated_board import ScriptedTags, SimulatedBoard, tap_script

WAIT = 10.0


def uids(n: int) -> list[str]:
    return [f"04{i:012X}" for i in range(n)]


def board_for(tags: list[str], gap: int, capacity: int) -> Board:
    return Board(
        ScriptedTags(tap_script(tags, hold=1, gap=gap)),
        Link("BENCH0000000001", "0BE4C400", capacity=capacity),
        Debouncer(confirm=1, release=1),
    )


def wait_online(events: EventQueue) -> None:
    while not isinstance(events.get(timeout=WAIT), ReaderOnline):
        pass


def throughput(taps: int, folder: Path) -> float:
    """Taps per second through one link, board polling flat out."""
    tags = uids(taps)
    events: EventQueue = queue.SimpleQueue()
    board = board_for(tags, gap=1, capacity=2 * taps + 8)
    sim = SimulatedBoard(board, folder / "bench-throughput", poll_interval=0.0)
    with sim, LinkReader(0, str(folder / "bench-throughput"), events):
        wait_online(events)
        got: list[str] = []
        first = last = 0.0
        while len(got) < taps:
            event = events.get(timeout=WAIT)
            if isinstance(event, TagPresented):
                last = time.monotonic()
                if not got:
                    first = last
                got.append(event.uid)
    if got != tags:
        raise SystemExit("throughput run lost or repeated a tap")
    return (taps - 1) / (last - first)


def latency(taps: int, interval: float, folder: Path) -> list[float]:
    """Seconds from the board writing each P frame to the table taking TagPresented."""
    tags = uids(taps)
    events: EventQueue = queue.SimpleQueue()
    polls_per_tap = max(2, round(interval / 0.001))
    board = board_for(tags, gap=polls_per_tap - 1, capacity=64)
    delays: list[float] = []
    sim = SimulatedBoard(board, folder / "bench-latency", poll_interval=0.001)
    with sim, LinkReader(0, str(folder / "bench-latency"), events):
        wait_online(events)
        count = 0
        while count < taps:
            event = events.get(timeout=WAIT)
            if isinstance(event, TagPresented):
                taken = time.monotonic()
                delays.append(taken - sim.written[2 * count])  # tap i is seq 2i
                count += 1
    return delays


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=2000, help="taps in the throughput run")
    parser.add_argument("--latency-taps", type=int, default=500, help="taps in the latency run")
    parser.add_argument("--interval", type=float, default=0.01, help="seconds between taps")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rate = throughput(args.taps, folder)
        delays = latency(args.latency_taps, args.interval, folder)
    ms = [d * 1000 for d in delays]
    p99 = percentile(ms, 99)
    print(f"throughput: {rate:,.0f} taps/s over {args.taps} taps (target >= 50)")
    print(
        f"latency over {len(ms)} taps: p50 {statistics.median(ms):.3f} ms, "
        f"p99 {p99:.3f} ms, max {max(ms):.3f} ms (target p99 <= 2 ms)"
    )
    ok = rate >= 50 and p99 <= 2.0
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
