"""Kiosk speed: tap to LED frame, tap to drawn frame, full redraw, idle CPU, memory.

    .venv/bin/python benchmarks/kiosk.py [--taps 1000]

* tap latency: a reader board's ``TAG`` line is written to a real
  pseudo-terminal; the clock stops when the seat LEDs' frame is sent
  (``strip.show()``) and when the display has drawn the new view. Bots choose
  the cards, so these are real plays through the whole table.
* full redraw: the renderer redraws a mid-game view at 1920x1080.
* idle CPU: the kiosk's windowed loop on the attract screen (SDL's dummy video
  driver) for a few seconds, as process CPU time over wall time.
* memory: the resident set of a kiosk process idling on the attract screen.

Targets (issue 3): tap to LED p99 <= 2 ms, tap to drawn frame p99 <= 16.7 ms,
full redraw median <= 3 ms, idle CPU <= 1 % of a core, RSS <= 80 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.config.table_config import SeatConfig, TableConfig
from controller.kiosk.app import Kiosk
from controller.view import Screen, TableView
from display.motion import FRAME_STEP
from display.renderer import Renderer
from hardware.events import Button
from hardware.ptys import PtyPair


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def describe(name: str, values: list[float], unit: str = "ms") -> str:
    return (
        f"{name:<28} n={len(values):<5} median {statistics.median(values):7.3f} {unit}  "
        f"p90 {percentile(values, 90):7.3f}  p99 {percentile(values, 99):7.3f}  "
        f"max {max(values):7.3f}"
    )


def tap_latency(
    taps: int,
    journal: Path | None = None,
    size: tuple[int, int] = (1280, 720),
    fsync: bool = True,
    cpu: list[float] | None = None,
) -> tuple[list[float], list[float], list[float]]:
    """Tap-to-LED and tap-to-drawn-frame latencies (ms) over ``taps`` real plays.

    ``cpu``, when given, gets each tap's table-loop thread CPU time (ms) from the
    tap to the drawn frame: what other processes on the machine do not inflate.

    With ``journal`` the kiosk journals every accepted action (SQLite WAL,
    synchronous=FULL) before it lights anything, as the real kiosk does;
    ``fsync=False`` leaves out only SQLite's fsync (synchronous=OFF), so the
    path without the disk's own time can be measured. The display draws at ``size``.
    """
    pairs = [PtyPair().open() for _ in range(4)]
    config = TableConfig(
        seats=tuple(
            SeatConfig(index=i, reader=pairs[i].slave_path, pixels=(i * 8, i * 8 + 8), bot=True)
            for i in range(4)
        )
    )
    kiosk = Kiosk.create(
        config,
        seed=1,
        auto_game="oshaka-trick",
        records_dir=Path(tempfile.mkdtemp(prefix="bench-records-")),
        journal_path=journal,
    )
    if kiosk.journal is not None and not fsync:
        kiosk.journal._db.execute("PRAGMA synchronous=OFF")
    renderer = Renderer(size)
    # Players tap seconds apart, so by the next tap the last trick's transient
    # cues have ended; a fake clock moved on between taps models that. The table
    # and the renderer (its motion) read the same clock, as in the kiosk, where
    # both run on ``time.monotonic``: a renderer on the real clock would still be
    # counting the last tap's scores at the next tap, seconds later for the table.
    fake_now = [1000.0]
    kiosk.table.clock = lambda: fake_now[0]
    renderer.clock = kiosk.table.clock
    tap_at = fake_now[0]
    led_times: list[float] = []
    strip = kiosk.devices.strip
    original_show = strip.show

    def timed_show() -> None:
        original_show()
        led_times.append(time.perf_counter())

    strip.show = timed_show  # type: ignore[method-assign]
    pending: list[float] = []
    pending_cpu: list[float] = []

    def tap(seat: int, uid: str) -> None:
        pending_cpu.append(time.thread_time())
        pending.append(time.perf_counter())
        pairs[seat].write(f"TAG {uid}\nGONE\n".encode())

    kiosk.simulator.tapper = tap
    to_led: list[float] = []
    to_frame: list[float] = []
    redraw: list[float] = []
    try:
        # As the windowed kiosk runs: start-up's objects frozen, the collector paced.
        with kiosk.devices, kiosk.garbage:
            kiosk.loop.drain()
            while len(to_led) < taps:
                if kiosk.table.screen is Screen.RESULTS:
                    kiosk.simulator.press(0, Button.OK)
                    kiosk.loop.drain()
                    continue
                pending.clear()
                pending_cpu.clear()
                tap_at += TAP_GAP
                fake_now[0] = tap_at
                kiosk.devices.leds.tick(fake_now[0])
                leds_before = len(led_times)
                # The kiosk's loop, waiting seconds for this tap, ran the collector's pass then.
                kiosk.garbage.idle()
                kiosk.simulator.step(0.0)
                if not pending:
                    # A button press, not a tap: drawn untimed, and so are the frames its
                    # motion asks for before the next tap (a score it set counting), as
                    # the kiosk draws them; the next tap's frame finds them landed.
                    kiosk.loop.drain()
                    renderer.draw(kiosk.table.view)
                    play_out_motion(renderer, kiosk.table.view, fake_now, tap_at + TAP_GAP)
                    continue
                start = pending[0]
                version = kiosk.table.version
                deadline = time.monotonic() + 5
                # The reader thread delivers the tag; the loop handles it as the kiosk does.
                while kiosk.table.version == version and time.monotonic() < deadline:
                    kiosk.loop.run_once(timeout=0.5)
                if kiosk.table.version == version:
                    raise RuntimeError("a tap never arrived")
                drawn_at = time.perf_counter()
                renderer.draw(kiosk.table.view)
                done = time.perf_counter()
                if len(led_times) > leds_before:
                    to_led.append((led_times[leds_before] - start) * 1000)
                to_frame.append((done - start) * 1000)
                if cpu is not None:
                    cpu.append((time.thread_time() - pending_cpu[0]) * 1000)
                redraw.append((done - drawn_at) * 1000)
                kiosk.loop.drain()  # the GONE line
                # The frames the kiosk draws before the next tap (cards travelling,
                # scores counting), untimed: the next tap finds the picture still.
                play_out_motion(renderer, kiosk.table.view, fake_now, tap_at + TAP_GAP)
    finally:
        for pair in pairs:
            pair.close()
    return to_led, to_frame, redraw


# Seconds between two taps on the benchmark's clock: a player's pace, longer than
# any movement (``display.motion``) and any transient cue of the table.
TAP_GAP = 5.0


def play_out_motion(renderer: Renderer, view: TableView, now: list[float], until: float) -> int:
    """Draw the frames ``renderer`` asks for by itself (``next_frame_in``) before ``until``,
    moving the shared clock ``now[0]`` to each, as the kiosk's loop would between two
    taps; how many were drawn. Pages that keep turning stop at ``until``."""
    frames = 0
    # Bounded: at most a frame each ``FRAME_STEP`` would fit before ``until``.
    for _ in range(int((until - now[0]) / FRAME_STEP) + 2):
        wait = renderer.next_frame_in(view)
        if wait is None or now[0] + wait >= until:
            break
        now[0] += wait
        if renderer.draw(view):
            frames += 1
        elif wait == 0.0:
            break  # due but nothing to draw: nothing more will come by itself
    return frames


def full_redraw(repeats: int = 200) -> list[float]:
    """Full redraws (ms) of a mid-game view at 1920x1080."""
    kiosk = Kiosk.create(TableConfig.simulated(4, bots=4), seed=2, auto_game="oshaka-trick")
    with kiosk.devices:
        kiosk.loop.drain()
        for _ in range(120):  # well into the first round
            kiosk.simulator.step(0.0)
            kiosk.loop.drain()
        view = kiosk.table.view
    renderer = Renderer((1920, 1080))
    times = []
    for _ in range(repeats):
        renderer.invalidate()
        start = time.perf_counter()
        renderer.draw(view)
        times.append((time.perf_counter() - start) * 1000)
    return times


IDLE_SCRIPT = """
import os, sys, time, resource
os.environ["SDL_VIDEODRIVER"] = "dummy"
sys.path.insert(0, {root!r})
from controller.kiosk.app import Kiosk
from controller.config.table_config import TableConfig
from display.motion import FRAME_STEP
from display.renderer import Renderer
kiosk = Kiosk.create(TableConfig.simulated())
renderer = Renderer((1280, 720))
with kiosk.devices:
    kiosk.loop.drain()
    renderer.draw(kiosk.table.view)
    # Settle, then measure the same loop the windowed kiosk runs.
    for _ in range(10):
        kiosk.run_frame(renderer.draw)
    wall0, cpu0 = time.monotonic(), time.process_time()
    while time.monotonic() - wall0 < {seconds}:
        kiosk.run_frame(renderer.draw)  # the windowed kiosk's loop, minus the window
    wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0
    rss_kb = int(next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmRSS")))
    print(cpu / wall * 100, rss_kb / 1024)
"""


def idle(seconds: float = 5.0) -> tuple[float, float]:
    """CPU (% of one core) and resident memory (MB) of a kiosk idling on the attract screen."""
    root = str(Path(__file__).resolve().parent.parent)
    out = subprocess.run(
        [sys.executable, "-c", IDLE_SCRIPT.format(root=root, seconds=seconds)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=1000)
    args = parser.parse_args()
    to_led, to_frame, redraw = tap_latency(args.taps)
    print(describe("tap -> LED frame", to_led))
    print(describe("tap -> drawn frame (1280x720)", to_frame))
    print(describe("redraw after a tap (1280x720)", redraw))
    journal = Path(tempfile.mkdtemp(prefix="bench-journal-")) / "journal.sqlite3"
    to_led, to_frame, _ = tap_latency(args.taps, journal)
    print(describe("journaled: tap -> LED frame", to_led))
    print(describe("journaled: tap -> frame", to_frame))
    print(describe("full redraw 1920x1080", full_redraw()))
    cpu, rss = idle()
    print(f"{'idle CPU on attract':<28} {cpu:.2f} % of one core")
    print(f"{'resident memory, idle':<28} {rss:.1f} MB")


if __name__ == "__main__":
    main()
