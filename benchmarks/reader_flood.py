"""A reader flooding the table with valid tags: how the kiosk's loop fares.

    .venv/bin/python benchmarks/reader_flood.py [--seconds 10]

One seat's reader is a real pseudo-terminal written as fast as it takes
alternating ``TAG`` lines; another seat's board taps a card once a second.
The kiosk's loop (``Kiosk.run_frame``, as the windowed kiosk turns it, with
a no-op display) runs meanwhile. Printed: frames (loop turns) a second, the
longest gap between two turns (the watchdog is fed once a turn), the quiet
seat's tap latency (written to the pty until the table handled it), lines
the flood sent and taps it got through, and the resident set before and
after.

Targets (issue 33): frames >= 5/s, the other seat's tap within 1 s, watchdog
pings on time (a gap far below WatchdogSec=30 s), memory flat.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.config.table_config import SeatConfig, TableConfig
from controller.kiosk.app import Kiosk
from controller.table import Table
from hardware.events import InputEvent, TagPresented
from hardware.ptys import PtyFlood, PtyPair

LINE = b"TAG 04A1B2C3D4E5F6\nTAG 04A1B2C3D4E5F7\n"


def rss_mb() -> float:
    """The resident set of this process now, in MB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the flood lasts")
    args = parser.parse_args()

    quiet_taps: dict[str, float] = {}
    latencies: list[float] = []
    real = Table.handle

    def timing(table: Table, event: InputEvent) -> None:
        if isinstance(event, TagPresented) and event.seat == 1 and event.uid in quiet_taps:
            latencies.append(time.monotonic() - quiet_taps.pop(event.uid))
        real(table, event)

    Table.handle = timing  # type: ignore[method-assign, assignment]
    with PtyPair() as flooding, PtyPair() as quiet:
        seats = tuple(
            SeatConfig(index=i, reader=pty.slave_path, pixels=(i * 4, i * 4 + 4))
            for i, pty in enumerate((flooding, quiet))
        )
        kiosk = Kiosk.create(TableConfig(seats=seats), seed=1)
        with kiosk:
            for _ in range(20):  # start-up's reports
                kiosk.run_frame(lambda view: None, most=0.05)
            before = rss_mb()
            flood = PtyFlood(flooding, LINE * 100).start()
            turns: list[float] = []
            started = time.monotonic()
            next_tap = started + 0.5
            tap = 0
            while (now := time.monotonic()) - started < args.seconds:
                if now >= next_tap:
                    tap += 1
                    uid = f"04F00D{tap:08X}"
                    quiet_taps[uid] = time.monotonic()
                    quiet.write(f"TAG {uid}\nGONE\n".encode())
                    next_tap += 1.0
                kiosk.run_frame(lambda view: None, most=0.05)
                turns.append(time.monotonic())
            flood.stop()
            after = rss_mb()
        flood_lines = flood.sent // (len(LINE) // 2)
    elapsed = turns[-1] - started
    gaps = [later - earlier for earlier, later in itertools.pairwise(turns)]
    rate = flood_lines / elapsed
    print(f"flood: {flood_lines} TAG lines in {elapsed:.1f} s ({rate:.0f} a second)")
    longest, median = max(gaps) * 1000, statistics.median(gaps) * 1000
    print(f"frames: {len(turns) / elapsed:.1f} a second; longest gap between turns "
          f"{longest:.0f} ms (median {median:.1f} ms)")  # fmt: skip
    if latencies:
        typical, worst = statistics.median(latencies) * 1000, max(latencies) * 1000
        print(f"other seat's taps: {len(latencies)} of {tap}, latency median "
              f"{typical:.0f} ms, max {worst:.0f} ms")  # fmt: skip
    else:
        print(f"other seat's taps: none of {tap} handled")
    print(f"resident set: {before:.1f} MB before the flood, {after:.1f} MB after")


if __name__ == "__main__":
    main()
