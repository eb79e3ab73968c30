"""Table speed on a Pi-class core: redraws, taps, idle CPU, start-up, memory (issue 15).

    .venv/bin/python benchmarks/table_speed.py [--runs 3] [--taps 300] [--seconds 8]

Every measure runs ``--runs`` times in a child process of its own, once free
and once pinned to one core (``taskset -c 0``); the table shows the medians
of the runs next to the issue's targets, judged on the pinned figures, with
the machine's load before and after (other work on the machine slows the
wall-clock figures: the redraw, the tap and the first frame are also given
in CPU time, and judged on it in a column of their own).

* full redraw: every scene (attract, game menu, join, each game's play
  screen, results, staff desk) from real kiosk views, at 1920x1080: the
  renderer is invalidated, so the static layer, the centre and every seat
  panel are drawn and turned again (what the painter keeps by content stays
  cached, as in a running kiosk: the text and card pictures drawn before, the
  large boxes' edge recipes and the card faces; ``docs/display.md``, "Drawing
  only what changed").
* tap -> drawn frame / LED frame: a reader's ``TAG`` line written to a real
  pseudo-terminal, through the reader thread, the table (journal on) and the
  renderer at 1920x1080 (``benchmarks/kiosk.py``'s measure). Taps come 5 s
  apart on a clock the table and the renderer share, and the frames the
  renderer asks for between taps (cards travelling, scores counting) are drawn
  untimed, as a kiosk draws them: a tap's frame finds the last one's motion
  landed. "excluding
  fsync" runs the same path with SQLite's fsync off; the fsync itself is
  timed apart (``os.fsync`` of a page written in the journal's folder), and
  the journal as shipped (synchronous=FULL) is reported too. "cpu" is the
  table loop thread's own CPU time from the tap to the drawn frame (the
  reader thread's few microseconds aside), which other processes on a shared
  machine do not inflate.
* CPU: the windowed kiosk's own loop (``Window`` on SDL's dummy driver, the
  loop of ``controller.kiosk.kiosk_window.windowed``) for ``--seconds``: on the attract
  screen, and in a game waiting for seat 0 (its turn pulse on, bots waiting).
* first frame: from launching ``python`` to the first frame shown by a
  kiosk built as ``python -m controller kiosk`` builds it (journal, window);
  "cpu" is the process's own CPU time by then, interpreter start-up included.
* RSS: the resident memory of the idle kiosk process on the attract screen.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pygame

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.config.table_config import TableConfig  # noqa: E402
from controller.kiosk.app import Kiosk  # noqa: E402 (after the path and SDL settings)
from controller.view import Screen, StaffView, TableView  # noqa: E402
from hardware.events import Button  # noqa: E402

GAMES = ("oshaka-trick", "oh-pshaw", "oskar", "oss")
SIZE = (1920, 1080)


def scratch_records() -> Path:
    """A fresh temporary folder for the records of games a measurement plays: the
    benchmark must not leave game records in the folder it is run from."""
    return Path(tempfile.mkdtemp(prefix="cafe-bench-records-"))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


# --- views of every scene ------------------------------------------------------------


def scene_views(play_steps: int = 60) -> dict[str, TableView]:
    """One real view of every scene, from kiosks whose bots walk the menus and play.

    The keys name the scene: ``attract``, ``choose_game``, ``join``, ``play-<game>``
    for each game (``play_steps`` gestures into the game), ``results`` and ``staff``.
    """
    views: dict[str, TableView] = {}
    for game in GAMES:
        kiosk = Kiosk.create(
            TableConfig.simulated(4, bots=4), seed=3, auto_game=game, records_dir=scratch_records()
        )
        with kiosk.devices:
            kiosk.loop.drain()
            played = 0
            while played < play_steps:
                view = kiosk.table.view
                if view.screen is Screen.PLAY:
                    played += 1
                elif view.screen is Screen.RESULTS:
                    break
                else:
                    views.setdefault(view.screen.value, view)
                if not kiosk.simulator.step(0.0):
                    break
                kiosk.loop.drain()
            views[f"play-{game}"] = kiosk.table.view
            if game == GAMES[0]:  # one game played to its end for the results screen
                while kiosk.table.screen is not Screen.RESULTS and kiosk.simulator.step(0.0):
                    kiosk.loop.drain()
                views["results"] = kiosk.table.view
    attract = views["attract"]
    views["staff"] = replace(
        attract,
        version=attract.version + 1,
        screen=Screen.STAFF,
        staff=StaffView(
            title="Staff desk",
            prompt="Choose a task with PREV / NEXT, OK to start",
            seat=0,
            options=("Enroll a deck", "Audit a deck", "Game history", "Leave"),
            selected=1,
            hint="PREV / NEXT to move, OK to choose",
        ),
    )
    return views


# --- the measures (each runs in a child process) --------------------------------------


def references(measure: str, repeats: int = 40) -> dict[str, float]:
    """Two yardsticks timed in the same process as a drawing figure (ms, medians), so
    that ``targets.py`` can give each drawing figure as a ratio that holds across machines:

    * ``reference fill+blit @<measure>``: a bare full-screen fill and blit at ``SIZE`` (what any
      frame's pixels cost on this machine's memory and SDL);
    * ``reference python @<measure>``: a fixed pure-Python loop (what this core does with Python).

    Each also in the thread's CPU time (``reference fill+blit cpu @<measure>``), which
    other processes on a shared machine do not inflate. A third figure says whether the
    fill+blit stands for a UI's pixels here (``box_pixel_cost``).
    """
    import pygame

    target, source = pygame.Surface(SIZE), pygame.Surface(SIZE)
    times: dict[str, list[float]] = {"fill+blit": [], "python": []}
    cpu_times: dict[str, list[float]] = {"fill+blit": [], "python": []}
    for index in range(repeats):
        w0, c0 = time.perf_counter(), time.thread_time()
        source.fill((index % 256, 40, 60))
        target.blit(source, (0, 0))
        cpu_times["fill+blit"].append((time.thread_time() - c0) * 1000)
        times["fill+blit"].append((time.perf_counter() - w0) * 1000)
        w0, c0 = time.perf_counter(), time.thread_time()
        total = 0
        for number in range(20_000):
            total += number * number % 7
        cpu_times["python"].append((time.thread_time() - c0) * 1000)
        times["python"].append((time.perf_counter() - w0) * 1000)
    out = {f"reference {k} @{measure}": statistics.median(v) for k, v in times.items()}
    for name, values in cpu_times.items():
        out[f"reference {name} cpu @{measure}"] = statistics.median(values)
    out[f"reference box pixel / screen pixel cpu @{measure}"] = box_pixel_cost(
        target, out[f"reference fill+blit cpu @{measure}"], repeats
    )
    return out


# The box yardstick: one fill and one blit of this size at each of 16 neighbouring
# x positions, so a box's rows start at every 4-byte offset within a 64-byte line.
BOX = (600, 300)
BOX_OFFSETS = range(100, 116)


def box_pixel_cost(target: pygame.Surface, screen_ms: float, repeats: int) -> float:
    """What a pixel of a box-sized fill and blit costs, as a multiple of a pixel of the
    full-screen fill and blit (``screen_ms``, CPU) timed just before on ``target``.

    Reported, not judged. The full-screen yardstick writes whole rows from the start of
    a 64-byte line; a UI's boxes start anywhere. Where that does not matter, a box's
    pixel costs less than the screen's (a box fits in the cache): 0.7-0.85 on the
    development host at the offsets where it does not matter. SDL's fill and copy
    write with non-temporal stores, and some machines make those several times dearer
    for rows that start mid-line (2.4-3.8 at the other offsets there); by that much
    the drawing figures' fill+blit ratios overstate what the drawing costs
    (docs/benchmarks.md, "The host, not the code").
    """
    import pygame

    source = pygame.Surface(BOX)
    source.fill((200, 40, 60))
    cpu: list[float] = []
    for index in range(repeats):
        c0 = time.thread_time()
        for x in BOX_OFFSETS:
            target.fill((index % 256, 90, 30), (x, 100, *BOX))
            target.blit(source, (x, 500))
        cpu.append((time.thread_time() - c0) * 1000)
    box_pixels = 2 * BOX[0] * BOX[1] * len(BOX_OFFSETS)
    screen_pixels = 2 * target.get_width() * target.get_height()
    return (statistics.median(cpu) / box_pixels) / (screen_ms / screen_pixels)


def measure_redraw(repeats: int = 40) -> dict[str, float]:
    """Median full redraw (ms) at 1920x1080 per scene, wall clock and thread CPU time."""
    from display.renderer import Renderer

    out: dict[str, float] = references("redraw")
    renderer = Renderer(SIZE)
    for name, view in scene_views().items():
        renderer.invalidate()
        renderer.draw(view)  # the first draw of a scene fills the text and card caches
        wall, cpu = [], []
        for _ in range(repeats):
            renderer.invalidate()
            w0, c0 = time.perf_counter(), time.thread_time()
            renderer.draw(view)
            cpu.append((time.thread_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
        out[f"redraw {name}"] = statistics.median(wall)
        out[f"redraw cpu {name}"] = statistics.median(cpu)
    return out


def measure_taps(taps: int) -> dict[str, float]:
    """Tap latencies (ms, p99 and median) with the journal on, without and with fsync."""
    from benchmarks.kiosk import tap_latency

    out: dict[str, float] = references("taps")
    folder = Path(tempfile.mkdtemp(prefix="bench-journal-"))
    cpu: list[float] = []
    to_led, to_frame, _ = tap_latency(taps, folder / "a.sqlite3", SIZE, fsync=False, cpu=cpu)
    out["tap->frame p99"], out["tap->frame median"] = (
        percentile(to_frame, 99),
        statistics.median(to_frame),
    )
    out["tap->frame cpu p99"], out["tap->frame cpu median"] = (
        percentile(cpu, 99),
        statistics.median(cpu),
    )
    out["tap->led p99"], out["tap->led median"] = percentile(to_led, 99), statistics.median(to_led)
    to_led, _, _ = tap_latency(taps, folder / "b.sqlite3", SIZE, fsync=True)
    out["tap->led full p99"] = percentile(to_led, 99)
    fsyncs = []
    with open(folder / "fsync.bin", "wb") as handle:
        for _ in range(100):
            handle.write(os.urandom(4096))
            handle.flush()
            start = time.perf_counter()
            os.fsync(handle.fileno())
            fsyncs.append((time.perf_counter() - start) * 1000)
    out["fsync median"], out["fsync p99"] = statistics.median(fsyncs), percentile(fsyncs, 99)
    return out


def _windowed_loop(kiosk: Kiosk, window: Any, seconds: float) -> tuple[float, int]:
    """Run the windowed kiosk's loop for ``seconds``; CPU % of one core and the loop turns."""
    turns = 0
    wall0, cpu0 = time.monotonic(), time.process_time()
    while time.monotonic() - wall0 < seconds:
        most = window.poll_interval(kiosk.table.view)
        kiosk.run_frame(window.show, window.next_frame_in, most)
        window.poll()
        turns += 1
    wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0
    return cpu / wall * 100, turns


def measure_idle(seconds: float) -> dict[str, float]:
    """CPU on the attract screen and waiting for a player; RSS idle."""
    from display.window import Window

    out: dict[str, float] = {}
    config = TableConfig.simulated(4, bots=3)
    kiosk = Kiosk.create(config, seed=4, bot_delay=0.8, records_dir=scratch_records())
    with kiosk, Window(config.display) as window:
        kiosk.loop.drain()
        for _ in range(5):  # settle: the first frame, the caches
            kiosk.run_frame(window.show, window.next_frame_in, window.poll_every)
        # The floor: the process with its loop asleep (the other threads' own wake-ups).
        cpu0 = time.process_time()
        time.sleep(seconds / 2)
        out["cpu floor (loop asleep)"] = (time.process_time() - cpu0) / (seconds / 2) * 100
        out["cpu attract"], turns = _windowed_loop(kiosk, window, seconds)
        out["wakes/s attract"] = turns / seconds
        status = Path("/proc/self/status").read_text().splitlines()
        rss = next(line.split()[1] for line in status if line.startswith("VmRSS"))
        out["rss idle"] = int(rss) / 1024
    # Waiting for a player: bots play until it is seat 0's turn, then seat 0 thinks.
    config = TableConfig.simulated(4, bots=4)
    kiosk = Kiosk.create(config, seed=4, auto_game="oshaka-trick", records_dir=scratch_records())
    with kiosk, Window(config.display) as window:
        kiosk.loop.drain()
        while True:
            game = kiosk.table.game
            if game is not None and 0 in game.adapter.presentation.waiting_players():
                break
            if not kiosk.simulator.step(kiosk.table.clock()):
                raise RuntimeError("the bots stopped before seat 0's turn")
            kiosk.loop.drain()
        kiosk.simulator.bot_seats.discard(0)
        kiosk.simulator.auto_game = None
        for _ in range(5):
            kiosk.run_frame(window.show, window.next_frame_in, window.poll_every)
        out["cpu waiting"], turns = _windowed_loop(kiosk, window, seconds)
        out["wakes/s waiting"] = turns / seconds
        out["led frames/s waiting"] = _led_rate(kiosk, seconds)
    return out


def measure_motion(seconds: float) -> dict[str, float]:
    """CPU while animations play: four bots playing Oh Pshaw in the windowed loop, with
    motion on and then off; and how long the animation frames took to draw (ms).

    The bots play a card every ``bot_delay`` (0.4 s), so a card travels, a trick is
    held and slides, the turn glow glides and scores count almost all the time; the
    difference between the two CPU figures is what the motion costs.
    """
    from display.window import Window

    out: dict[str, float] = references("motion")
    for motion in (True, False):
        config = TableConfig.simulated(4, bots=4)
        config = replace(config, display=replace(config.display, motion=motion))
        kiosk = Kiosk.create(
            config, seed=4, auto_game="oh-pshaw", bot_delay=0.4, records_dir=scratch_records()
        )
        with kiosk, Window(config.display) as window:
            kiosk.loop.drain()
            # Into the game and a few tricks in: the menus and the caches' first fill
            # are not what is measured.
            _windowed_loop(kiosk, window, 4.0)
            renderer = window.renderer
            # Every frame drawn, and apart the frames of an unchanged view (only the
            # motion moved: what an animation frame costs).
            frame_ms: list[float] = []
            moving_ms: list[float] = []
            drawn = renderer.draw

            def timed(
                view: TableView,
                draw: Any = drawn,
                r: Any = renderer,
                frames: list[float] = frame_ms,
                moving: list[float] = moving_ms,
            ) -> bool:
                same = view.version == r.drawn_version
                w0, c0 = time.perf_counter(), time.thread_time()
                did: bool = draw(view)
                if did:
                    frames.append((time.perf_counter() - w0) * 1000)
                    if same:
                        moving.append((time.thread_time() - c0) * 1000)
                return did

            renderer.draw = timed  # type: ignore[method-assign]
            moving0 = renderer.motion.frames_moving
            name = "on" if motion else "off"
            out[f"cpu playing, motion {name}"], _ = _windowed_loop(kiosk, window, seconds)
            out[f"frames/s playing, motion {name}"] = len(frame_ms) / seconds
            out[f"frame p99 playing, motion {name}"] = percentile(frame_ms or [0.0], 99)
            if motion and moving_ms:
                out["animation frame cpu p99"] = percentile(moving_ms, 99)
                out["animation frame cpu median"] = statistics.median(moving_ms)
            if motion:
                out["moving frames/s"] = (renderer.motion.frames_moving - moving0) / seconds
    out["cpu of motion"] = out["cpu playing, motion on"] - out["cpu playing, motion off"]
    return out


def _led_rate(kiosk: Kiosk, seconds: float) -> float:
    """LED frames a second while the table waits (counted over a short extra run)."""
    strip = kiosk.devices.strip
    before = len(getattr(strip, "frames", []))
    end = time.monotonic() + min(seconds, 3.0)
    while time.monotonic() < end:
        kiosk.run_frame(lambda view: None)
    return (len(getattr(strip, "frames", [])) - before) / min(seconds, 3.0)


def measure_start(t0: float) -> dict[str, float]:
    """Seconds from launching python (``t0``, wall clock) to the kiosk's first frame."""
    from display.window import Window

    config = TableConfig.simulated()
    folder = Path(tempfile.mkdtemp(prefix="bench-start-"))
    kiosk = Kiosk.create(config, journal_path=folder / "journal.sqlite3", records_dir=folder)
    with kiosk, Window(config.display) as window:
        kiosk.resume()
        while True:
            shown = window.show(kiosk.table.view)
            if shown:
                break
            kiosk.run_frame(window.show, window.next_frame_in, window.poll_every)
        # The process's own CPU time since it started (interpreter start-up included).
        return {"first frame": time.time() - t0, "first frame cpu": time.process_time()}


def resident_mb() -> float:
    """This process's resident set (``VmRSS``) in MB, as the kernel counts it."""
    status = Path("/proc/self/status").read_text().splitlines()
    return int(next(line.split()[1] for line in status if line.startswith("VmRSS"))) / 1024


# By this game the display's bounded caches have mostly filled (the RSS read every
# 25 games rose 1.8 MB from game 25 to 50, then 1.5 MB from game 100 to 250).
SETTLED = 50


def measure_games(games: int) -> dict[str, float]:
    """RSS (MB) on the attract screen after the first game, the first four, the 50th and the last.

    A kiosk built as the simulated table builds it (journal on, a ``Window`` of
    the simulated table's size on SDL's dummy driver drawing every frame of the
    real loop, ``Kiosk.run_frame``, the garbage collector paced as the kiosk paces
    it) with bots in every seat plays ``games``
    whole games, the four games in turn; OK on the results screen goes back to
    the attract screen, where the resident set is read after a collection.
    The bots are the quick heuristic ones (no think budget): the search bots'
    0.3 s a decision would make 500 games take a day.
    """
    import gc

    from display.window import Window

    config = TableConfig.simulated(4, bots=4)
    folder = Path(tempfile.mkdtemp(prefix="bench-games-"))
    kiosk = Kiosk.create(
        config,
        seed=15,
        auto_game=GAMES[0],
        records_dir=folder,
        journal_path=folder / "journal.sqlite3",
    )
    out: dict[str, float] = {}
    start = time.perf_counter()

    def frame_until(screen: Screen) -> None:
        for _ in range(100_000):
            if kiosk.table.screen is screen:
                return
            kiosk.run_frame(window.show, window.next_frame_in, 0.0)
            window.poll()
        raise RuntimeError(f"the table never reached {screen.value} (on {kiosk.table.screen})")

    with kiosk, kiosk.garbage, Window(config.display) as window:
        for played in range(1, games + 1):
            kiosk.simulator.auto_game = GAMES[(played - 1) % len(GAMES)]
            frame_until(Screen.RESULTS)
            kiosk.simulator.auto_game = None  # stay on the attract screen once there
            kiosk.simulator.press(0, Button.OK)
            frame_until(Screen.ATTRACT)
            kiosk.run_frame(window.show, window.next_frame_in, 0.0)
            if played in (1, len(GAMES), SETTLED, games):
                gc.collect()
                rss = resident_mb()
                if played == 1:
                    out["rss after 1 game"] = rss
                if played == len(GAMES):
                    out["rss after 4 games"] = rss
                if played == SETTLED and games > SETTLED:
                    out[f"rss after {SETTLED} games"] = rss
                if played == games:
                    out["rss after last game"] = rss
    records = len(list(folder.glob("*.jsonl")))
    if records != games:
        raise RuntimeError(f"{games} games were to be played, {records} records were written")
    out["games played"] = games
    out["games seconds"] = time.perf_counter() - start
    out["rss growth"] = out["rss after last game"] - out["rss after 1 game"]
    if "rss after 4 games" in out:
        out["rss growth after 4 games"] = out["rss after last game"] - out["rss after 4 games"]
    if f"rss after {SETTLED} games" in out:
        settled = out[f"rss after {SETTLED} games"]
        out[f"rss growth after {SETTLED} games"] = out["rss after last game"] - settled
    return out


# --- running and reporting ------------------------------------------------------------

TARGETS: list[tuple[str, str, str | None, float, str]] = [
    # (label, key, key of the same figure in CPU time or None, target, unit); met when
    # the pinned median is at most the target
    ("full redraw 1920x1080, slowest scene", "redraw max", "redraw cpu max", 2.0, "ms"),
    (
        "tap -> drawn frame p99 (1920x1080, journal on, excl. fsync)",
        "tap->frame p99",
        "tap->frame cpu p99",
        4.0,
        "ms",
    ),
    ("tap -> LED frame p99 (journal on, excl. fsync)", "tap->led p99", None, 2.0, "ms"),
    ("CPU waiting for a player", "cpu waiting", None, 0.4, "%"),
    ("CPU on the attract screen", "cpu attract", None, 0.2, "%"),
    ("first frame after start", "first frame", "first frame cpu", 0.45, "s"),
    ("RSS idle", "rss idle", None, 60.0, "MB"),
]


def child(args: list[str], pinned: bool) -> dict[str, float]:
    """Run this script with ``args`` in a child (pinned to core 0 or not); its figures."""
    command = [sys.executable, str(Path(__file__).resolve()), *args]
    if pinned:
        command = ["taskset", "-c", "0", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def one_run(pinned: bool, taps: int, seconds: float) -> dict[str, float]:
    figures: dict[str, float] = {}
    figures.update(child(["--measure", "redraw"], pinned))
    figures["redraw max"] = max(
        v for k, v in figures.items() if k.startswith("redraw ") and "cpu" not in k
    )
    figures["redraw cpu max"] = max(v for k, v in figures.items() if k.startswith("redraw cpu "))
    figures.update(child(["--measure", "taps", "--taps", str(taps)], pinned))
    figures.update(child(["--measure", "idle", "--seconds", str(seconds)], pinned))
    figures.update(child(["--measure", "start", "--t0", repr(time.time())], pinned))
    return figures


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def fmt(value: float, unit: str) -> str:
    if unit == "%":
        return f"{value:.2f} %"
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "MB":
        return f"{value:.1f} MB"
    return f"{value:.2f} ms"


def report(free: dict[str, float], pinned: dict[str, float], runs: int, load: str) -> str:
    lines = [
        f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {load}; medians of {runs} runs",
        "",
        "| figure | free | pinned (taskset -c 0) | pinned, CPU time | target | met (pinned) "
        "| met (pinned, CPU time) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, key, cpu_key, target, unit in TARGETS:
        met = "yes" if pinned[key] <= target else "NO"
        cpu, cpu_met = "", ""
        if cpu_key is not None:
            cpu = fmt(pinned[cpu_key], unit)
            cpu_met = "yes" if pinned[cpu_key] <= target else "NO"
        lines.append(
            f"| {label} | {fmt(free[key], unit)} | {fmt(pinned[key], unit)} | {cpu} | "
            f"<= {fmt(target, unit)} | {met} | {cpu_met} |"
        )
    lines += [
        "",
        "| detail | free | pinned |",
        "| --- | --- | --- |",
    ]
    details = [k for k in pinned if k.startswith("redraw ") and k != "redraw max"]
    details += [
        "tap->frame median",
        "tap->frame cpu median",
        "tap->led median",
        "tap->led full p99",
        "fsync median",
        "fsync p99",
        "cpu floor (loop asleep)",
        "wakes/s attract",
        "wakes/s waiting",
        "led frames/s waiting",
    ]
    for key in details:
        unit = "ms" if ("redraw" in key or "tap" in key or "fsync" in key) else "/s"
        unit = "s" if key.startswith("first frame") else unit
        unit = "%" if key.startswith("cpu") else unit
        lines.append(f"| {key} | {free[key]:.2f} {unit} | {pinned[key]:.2f} {unit} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--measure", choices=("redraw", "taps", "idle", "start", "games", "motion"))
    parser.add_argument("--t0", type=float, default=0.0)
    parser.add_argument("--games", type=int, default=500, help="games of --measure games")
    args = parser.parse_args()
    if args.measure == "games":
        print(json.dumps(measure_games(args.games)))
        return
    if args.measure == "redraw":
        print(json.dumps(measure_redraw()))
        return
    if args.measure == "taps":
        print(json.dumps(measure_taps(args.taps)))
        return
    if args.measure == "idle":
        print(json.dumps(measure_idle(args.seconds)))
        return
    if args.measure == "motion":
        print(json.dumps(measure_motion(args.seconds)))
        return
    if args.measure == "start":
        print(json.dumps(measure_start(args.t0)))
        return
    before = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    results: dict[bool, list[dict[str, float]]] = {False: [], True: []}
    for run in range(args.runs):
        for pinned in (False, True):
            results[pinned].append(one_run(pinned, args.taps, args.seconds))
            print(f"run {run + 1} {'pinned' if pinned else 'free'} done", file=sys.stderr)
    after = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    print(
        report(medians(results[False]), medians(results[True]), args.runs, f"{before} -> {after}")
    )


if __name__ == "__main__":
    main()
