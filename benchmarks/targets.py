"""Every target of issue 15 in one command: one markdown table, free and pinned to one core.

    .venv/bin/python benchmarks/targets.py [--runs 3] [--deals 2000] [--jobs 2] [--save FILE]
                                           [--core 0] [--skip-fixed]
    .venv/bin/python benchmarks/targets.py --quick      (a smoke check, not the measurement)
    .venv/bin/python benchmarks/targets.py --drawing --pinned-only --core 1 [--runs 3]
                                           (the drawing and motion figures alone, pinned)

Nothing is measured here: every figure comes from the benchmark that owns it,
run as a child process that prints one JSON line (``table_speed.py
--measure``, ``engines.py --json``, ``oh_pshaw_vs_openspiel.py --json``,
``bots.py --json``, ``oh_pshaw_vs_ismcts.py --json``); this script runs them,
takes medians and judges the targets.

* Speed figures (drawing, taps, idle CPU, first frame, idle RSS, playouts,
  resume, decision times): ``--runs`` runs, each free and pinned to core 0
  (``taskset -c 0``; ``--core N`` pins to another core, e.g. one that others on a
  shared machine leave freer), one after another so that they do not share the cores;
  the table gives the medians and judges the pinned one. Where the figure's
  benchmark also times with CPU time (redraw, tap, first frame, playouts,
  resume), the pinned CPU-time median is given too: a shared machine inflates
  wall-clock times, not CPU time.
* Figures that do not depend on speed (duplicate matches search a fixed number
  of deals; RSS after ``--games`` games) run once, ``--jobs`` at a time side
  by side, after the speed figures; how long each took is printed. The matches
  against OpenSpiel's ISMCTS are printed twice: as shipped (OpenSpiel's C++
  ISMCTS with its own resampler, which tells it which cards are in play) and
  at equal information (``--fair-ismcts``: OpenSpiel's Python ISMCTS dealing
  its worlds from every card its seat cannot see). Each is judged on its own
  95 % confidence interval: met when the interval lies at or above 0.

* ``--drawing``: only the drawing and motion figures (issue 30): the full redraw,
  tap -> drawn frame (and LED frame), idle CPU, and the motion measure (CPU while
  bots play with motion on and off, an animation frame), with their ratios to the
  yardsticks; no fixed-sample parts. ``--pinned-only`` skips the free runs (the
  free column says "not run"), so that a quiet pinned core is all it needs.

Progress goes to stderr as each part ends; the table to stdout.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
Figures = dict[str, Any]


@dataclass(frozen=True)
class Part:
    """One child run of an existing benchmark: its name, its script and arguments."""

    name: str
    script: str
    args: tuple[str, ...]
    pinned: bool = False
    # The figure keys get this prefix (two parts of one script measure different things).
    prefix: str = ""
    core: int = 0  # the core a pinned part runs on

    def command(self) -> list[str]:
        args = [a.replace("{t0}", repr(time.time())) for a in self.args]  # start: launch time
        command = [sys.executable, str(HERE / self.script), *args]
        return ["taskset", "-c", str(self.core), *command] if self.pinned else command


@dataclass
class Outcome:
    """What a part gave: its figures (or why it failed) and how long it took."""

    part: Part
    figures: Figures = field(default_factory=dict)
    seconds: float = 0.0
    failed: str | None = None


def run_part(part: Part, timeout: float) -> Outcome:
    """Run ``part``; its figures from the last line it printed (one JSON object)."""
    start = time.perf_counter()
    try:
        done = subprocess.run(
            part.command(), capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return Outcome(part, seconds=time.perf_counter() - start, failed=f"over {timeout:.0f} s")
    seconds = time.perf_counter() - start
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        why = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        return Outcome(part, seconds=seconds, failed=why)
    figures = json.loads(lines[-1])
    outcome = Outcome(part, {part.prefix + k: v for k, v in figures.items()}, seconds)
    print(f"{part.name}{' pinned' if part.pinned else ''}: {seconds:.0f} s", file=sys.stderr)
    return outcome


# --- the parts ------------------------------------------------------------------------


# The parts that time drawing and motion (``--drawing``): the table_speed.py measures
# behind the redraw, tap, idle and motion rows and their ratios.
DRAWING_PARTS = ("redraw", "taps", "idle", "motion")


def speed_parts(args: argparse.Namespace, pinned: bool) -> list[Part]:
    """One run of every speed measure (free or pinned to ``--core``); with ``--drawing``,
    those of ``DRAWING_PARTS`` alone."""
    drawing = getattr(args, "drawing", False)
    return [
        replace(part, core=args.core)
        for part in _speed_parts(args, pinned)
        if not drawing or part.name in DRAWING_PARTS
    ]


def _speed_parts(args: argparse.Namespace, pinned: bool) -> list[Part]:
    return [
        Part("redraw", "table_speed.py", ("--measure", "redraw"), pinned),
        Part("taps", "table_speed.py", ("--measure", "taps", "--taps", str(args.taps)), pinned),
        Part(
            "idle", "table_speed.py", ("--measure", "idle", "--seconds", str(args.seconds)), pinned
        ),
        Part("start", "table_speed.py", ("--measure", "start", "--t0", "{t0}"), pinned),
        Part(
            "motion",
            "table_speed.py",
            ("--measure", "motion", "--seconds", str(args.seconds)),
            pinned,
        ),
        # Playout rates and resume timed by the wall clock, then by the process's CPU time.
        *(
            Part(
                name + (" cpu" if cpu else ""),
                script,
                ("--json", *extra, *(("--cpu",) if cpu else ())),
                pinned,
                "cpu " if cpu else "",
            )
            for name, script, extra in (
                ("engines", "engines.py", args.engine_args),
                ("openspiel", "oh_pshaw_vs_openspiel.py", args.openspiel_args),
            )
            for cpu in (False, True)
        ),
        Part(
            "decisions",
            "bots.py",
            ("--json", "--deals", "0", "--oskar-games", "0", "--timing", str(args.decisions)),
            pinned,
        ),
    ]


def fixed_parts(args: argparse.Namespace) -> list[Part]:
    """The figures that do not depend on speed, longest first (they run side by side)."""
    matches = ("--json", "--oskar-games", "0", "--timing", "0", "--deals", str(args.deals))
    samples = ("--samples", str(args.samples), "--oshaka-samples", str(args.oshaka_samples))
    return [
        Part("oshaka duplicate", "bots.py", (*matches, *samples, "--only", "oshaka")),
        Part("RSS games", "table_speed.py", ("--measure", "games", "--games", str(args.games))),
        Part(
            "RSS games",
            "table_speed.py",
            ("--measure", "games", "--games", str(args.games)),
            pinned=True,
            core=args.core,
        ),
        Part("oh pshaw duplicate", "bots.py", (*matches, *samples, "--only", "oh pshaw")),
        Part(
            "ISMCTS fair",
            "oh_pshaw_vs_ismcts.py",
            ("--json", "--fair-ismcts", "--deals", str(args.fair_deals)),
            prefix="fair ",
        ),
        Part(
            "ISMCTS shipped",
            "oh_pshaw_vs_ismcts.py",
            ("--json", "--deals", str(args.ismcts_deals)),
            prefix="shipped ",
        ),
    ]


# --- the table ------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """A target of the issue: how to read it from the figures and how to judge it."""

    label: str
    key: str
    target: float
    unit: str
    cpu_key: str | None = None
    at_least: bool = False  # met when the figure is at least the target (else at most)


SPEED_ROWS: tuple[Row, ...] = (
    Row("full redraw 1920x1080, slowest scene", "redraw max", 2.0, "ms", "redraw cpu max"),
    Row(
        "tap -> drawn frame p99 (1920x1080, journal on, excl. fsync)",
        "tap->frame p99",
        4.0,
        "ms",
        "tap->frame cpu p99",
    ),
    Row("tap -> LED frame p99 (journal on, excl. fsync)", "tap->led p99", 2.0, "ms"),
    Row("CPU waiting for a player", "cpu waiting", 0.4, "%"),
    Row("CPU on the attract screen", "cpu attract", 0.2, "%"),
    Row("first frame after start", "first frame", 0.45, "s", "first frame cpu"),
    Row("RSS idle (attract screen, 1280x720)", "rss idle", 60.0, "MB"),
    Row("resume of a 10,000-action game", "resume ms", 60.0, "ms", "cpu resume ms"),
    Row("resume linear: 10x actions / time", "resume ratio", 11.0, "x", "cpu resume ratio"),
    Row(
        "Oss random playouts, 4 players, through the adapter (issue: 59/s)",
        "oss table path playouts/s",
        590.0,
        "/s",
        "cpu oss table path playouts/s",
        at_least=True,
    ),
    Row(
        "Oskar random playouts, 4 players, through the adapter (issue: 58/s)",
        "oskar table path playouts/s",
        580.0,
        "/s",
        "cpu oskar table path playouts/s",
        at_least=True,
    ),
    Row(
        "Oh Pshaw fast playouts / OpenSpiel oh_hell, median of 6 sizes",
        "fast/openspiel",
        1.5,
        "x",
        "cpu fast/openspiel",
        at_least=True,
    ),
    Row("Oh Pshaw bot decision p99, 0.3 s budget", "oh-pshaw decision p99 ms", 320.0, "ms"),
    Row(
        "Oshaka Trick bot decision p99, 0.3 s budget",
        "oshaka-trick decision p99 ms",
        320.0,
        "ms",
    ),
    Row("Oskar bot decision p99 (cards), 0.3 s budget", "oskar decision p99 ms", 320.0, "ms"),
)


@dataclass(frozen=True)
class Ratio:
    """A drawing figure as a multiple of a yardstick timed in the same child process
    (``table_speed.references``): a bare full-screen fill and blit at 1920x1080, or a
    fixed pure-Python loop. Machines differ in absolute milliseconds by more than the
    targets' margins; the ratios do far less, so they are judged too.

    ``target`` is the absolute target over the yardstick on a quiet machine of the
    kind the targets were set on (fill+blit 1.77 ms, the loop 1.39 ms CPU time,
    pinned; docs/benchmarks.md).
    """

    label: str
    key: str
    reference: str  # "fill+blit" or "python"
    measure: str  # the child measure that timed both (its references' suffix)
    target: float
    cpu: bool = False

    def reference_key(self) -> str:
        return f"reference {self.reference}{' cpu' if self.cpu else ''} @{self.measure}"

    def value(self, figures: Figures) -> float | None:
        reference = figures.get(self.reference_key())
        if self.key not in figures or not reference:
            return None
        return float(figures[self.key]) / float(reference)


# The yardsticks on the quiet machine the ratio targets were taken from (CPU time, ms).
QUIET_FILL_BLIT, QUIET_PYTHON = 1.77, 1.39
RATIO_ROWS: tuple[Ratio, ...] = tuple(
    Ratio(
        f"ratio: {label} / {reference}{' (CPU time)' if cpu else ''}",
        key.replace("@cpu ", "cpu ") if cpu else key.replace("@cpu ", ""),
        reference,
        measure,
        round(target / (QUIET_FILL_BLIT if reference == "fill+blit" else QUIET_PYTHON), 2),
        cpu,
    )
    for label, key, measure, target in (
        ("full redraw, slowest scene", "redraw @cpu max", "redraw", 2.0),
        ("tap -> drawn frame p99", "tap->frame @cpu p99", "taps", 4.0),
    )
    for reference in ("fill+blit", "python")
    for cpu in (False, True)
) + tuple(
    # An animation frame (the centre drawn again, 1280x720) against the tap's target:
    # a frame while something moves must cost no more than the frame a tap draws.
    Ratio(
        f"ratio: animation frame p99, 1280x720 / {reference} (CPU time)",
        "animation frame cpu p99",
        reference,
        "motion",
        round(4.0 / (QUIET_FILL_BLIT if reference == "fill+blit" else QUIET_PYTHON), 2),
        cpu=True,
    )
    for reference in ("fill+blit", "python")
)

DETAILS: tuple[tuple[str, str, str], ...] = (
    ("fsync p99 (reported apart from the tap)", "fsync p99", "ms"),
    # Whether the fill+blit yardstick stands for a UI's pixels on this machine
    # (table_speed.box_pixel_cost): about 1 where it does.
    (
        "yardstick: a box's pixel / a full screen's pixel, fill and blit (CPU)",
        "reference box pixel / screen pixel cpu @redraw",
        "x",
    ),
    ("tap -> LED frame p99, journal as shipped (with fsync)", "tap->led full p99", "ms"),
    ("tap -> drawn frame median (1920x1080)", "tap->frame median", "ms"),
    ("Oss random playouts, engine", "oss playouts/s", "/s"),
    ("Oskar random playouts, engine", "oskar playouts/s", "/s"),
    ("Oh Pshaw fast / OpenSpiel, slowest of the 6 sizes", "fast/openspiel min", "x"),
    ("Oh Pshaw engine / OpenSpiel", "engine/openspiel", "x"),
    ("resume of a 100,000-action game", "resume 10x ms", "ms"),
    ("Oh Pshaw bot decision max", "oh-pshaw decision max ms", "ms"),
    ("Oshaka Trick bot decision max", "oshaka-trick decision max ms", "ms"),
    ("Oskar bot decision max (cards)", "oskar decision max ms", "ms"),
    # What the motion costs (display/motion.py): four bots playing, motion on and off.
    ("CPU while bots play Oh Pshaw, motion on", "cpu playing, motion on", "%"),
    ("CPU while bots play Oh Pshaw, motion off", "cpu playing, motion off", "%"),
    ("CPU of the motion (on - off)", "cpu of motion", "%"),
    ("an animation frame's CPU time, median (1280x720)", "animation frame cpu median", "ms"),
    ("an animation frame's CPU time, p99 (1280x720)", "animation frame cpu p99", "ms"),
    ("frames drawn a second, motion on", "frames/s playing, motion on", "/s"),
    ("frames drawn a second while something moved", "moving frames/s", "/s"),
    ("frames drawn a second, motion off", "frames/s playing, motion off", "/s"),
)


def fmt(value: float, unit: str) -> str:
    digits = {"%": 2, "s": 3, "MB": 1, "/s": 0, "x": 2}.get(unit, 2)
    return f"{value:.{digits}f} {unit}"


def judged(value: float, row: Row) -> bool:
    return value >= row.target if row.at_least else value <= row.target


def medians(runs: Sequence[Figures]) -> Figures:
    """The median of each numeric figure over the runs that gave it."""
    keys = {k for run in runs for k, v in run.items() if isinstance(v, int | float)}
    return {k: statistics.median(run[k] for run in runs if k in run) for k in sorted(keys)}


def cell(figures: Figures | None, key: str, unit: str) -> str:
    if figures is None:
        return NOT_RUN
    return fmt(figures[key], unit) if key in figures else "failed"


# The cell of a column whose runs were skipped (``--pinned-only``: the free column, None).
NOT_RUN = "not run"


def shown_rows(rows: Sequence[Any], keys: Callable[[Any], str], *runs: Figures | None) -> list[Any]:
    """``rows`` whose figure some run measured: with ``--drawing`` the others were not
    run, and are left out rather than reported as failed."""
    return [row for row in rows if any(keys(row) in (figures or {}) for figures in runs)]


def speed_lines(
    free: Figures | None, pinned: Figures, rows: Sequence[Row] = SPEED_ROWS
) -> list[str]:
    lines = []
    for row in rows:
        sign = ">=" if row.at_least else "<="
        cpu = "" if row.cpu_key is None else cell(pinned, row.cpu_key, row.unit)
        if row.key not in pinned:
            met = "failed"
        else:
            met = "yes" if judged(pinned[row.key], row) else "NO"
            if row.cpu_key is not None and row.cpu_key in pinned:
                met += f" (CPU time: {'yes' if judged(pinned[row.cpu_key], row) else 'NO'})"
        lines.append(
            f"| {row.label} | {cell(free, row.key, row.unit)} | {cell(pinned, row.key, row.unit)} "
            f"| {cpu} | {sign} {fmt(row.target, row.unit)} | {met} |"
        )
    return lines


def ratio_lines(
    free: Figures | None, pinned: Figures, rows: Sequence[Ratio] = RATIO_ROWS
) -> list[str]:
    """Each drawing figure over its yardstick timed in the same run, judged pinned."""
    lines = []
    for row in rows:
        cells = []
        for figures in (free, pinned):
            value = None if figures is None else row.value(figures)
            missing = NOT_RUN if figures is None else "failed"
            cells.append(missing if value is None else f"{value:.2f} x")
        value = row.value(pinned)
        met = "failed" if value is None else "yes" if value <= row.target else "NO"
        lines.append(
            f"| {row.label} | {cells[0]} | {cells[1]} |  | <= {row.target:.2f} x | {met} |"
        )
    return lines


def rss_line(free: Figures, pinned: Figures, games: int) -> str:
    def growth(f: Figures) -> str:
        if "rss growth" not in f:
            return "failed"
        return (
            f"{f['rss growth']:+.1f} MB ({f['rss after 1 game']:.1f} -> "
            f"{f['rss after last game']:.1f} MB)"
        )

    met = "failed" if "rss growth" not in pinned else "yes" if pinned["rss growth"] <= 2 else "NO"
    return (
        f"| RSS growth on the attract screen, after game 1 -> after game {games} "
        f"| {growth(free)} | {growth(pinned)} |  | <= 2.0 MB | {met} |"
    )


def interval(mean: float, half: float) -> str:
    return f"{mean:+.2f}, 95 % CI [{mean - half:+.2f}, {mean + half:+.2f}]"


def strength_line(label: str, figures: Figures, prefix: str, deals_key: str) -> str:
    """A duplicate match's row: met when its 95 % interval lies at or above 0 (or above)."""
    if f"{prefix}mean" not in figures:
        return f"| {label} | failed |  |  |  | failed |"
    mean, half = figures[f"{prefix}mean"], figures[f"{prefix}half"]
    low, high = mean - half, mean + half
    met = "yes" if low >= 0 else "NO" if high < 0 else "not shown (CI spans 0)"
    return (
        f"| {label}, {figures[deals_key]:.0f} deals | {interval(mean, half)} "
        f"| (run once: fixed samples) |  | >= 0 at 95 % | {met} |"
    )


def strength_lines(fixed: Figures, args: argparse.Namespace) -> list[str]:
    leak = ""
    if "shipped leak inside" in fixed:
        leak = (
            f"; its resampler deals the others {fixed['shipped leak inside']:.0%} from cards "
            f"really in play, a uniform draw would {fixed['shipped leak uniform']:.0%}"
        )
    return [
        strength_line(
            f"Oh Pshaw search ({args.samples} deals/decision) vs heuristic bot, points per seat "
            "and round",
            fixed,
            "oh-pshaw ",
            "oh-pshaw deals",
        ),
        strength_line(
            f"Oshaka Trick search ({args.oshaka_samples} deals/decision) vs heuristic bot, points "
            "per seat and round",
            fixed,
            "oshaka-trick ",
            "oshaka-trick deals",
        ),
        strength_line(
            "Oh Pshaw bot vs OpenSpiel ISMCTS **as shipped** (C++, OpenSpiel's resampler, "
            f"which knows the cards in play{leak}), 200 simulations, points per seat and deal",
            fixed,
            "shipped ",
            "shipped deals",
        ),
        strength_line(
            "Oh Pshaw bot vs OpenSpiel ISMCTS **at equal information** (`--fair-ismcts`: "
            "Python ISMCTS dealing from every unseen card), 200 simulations, points per seat "
            "and deal",
            fixed,
            "fair ",
            "fair deals",
        ),
    ]


def report(
    free: Figures | None,
    pinned: Figures,
    fixed_figures: Figures,
    rss_free: Figures,
    speed: Sequence[Outcome],
    fixed: Sequence[Outcome],
    args: argparse.Namespace,
    machine: str,
) -> str:
    lines = []
    if args.quick:
        lines += [
            "**QUICK MODE: tiny counts, 1 run. A smoke check of the benchmark, NOT issue 15's "
            "measurement; the figures and 'met?' say nothing.**",
            "",
        ]
    lines += [
        machine,
        "",
        f"| figure | free | pinned (taskset -c {args.core}) | pinned, CPU time | target "
        "| met? (pinned) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    if args.drawing:
        # Only the drawing parts ran: the rows of the others are left out.
        lines += [
            *speed_lines(free, pinned, shown_rows(SPEED_ROWS, lambda r: r.key, free, pinned)),
            *ratio_lines(
                free, pinned, shown_rows(RATIO_ROWS, lambda r: r.reference_key(), free, pinned)
            ),
        ]
    else:
        lines += [*speed_lines(free, pinned), *ratio_lines(free, pinned)]
    # --skip-fixed: the rows it did not run are left out, not reported as failed.
    if not args.skip_fixed:
        lines += [
            rss_line(rss_free, fixed_figures, args.games),
            *strength_lines(fixed_figures, args),
        ]
    lines += ["", "| detail | free | pinned |", "| --- | --- | --- |"]
    details = shown_rows(DETAILS, lambda d: d[1], free, pinned) if args.drawing else DETAILS
    for label, key, unit in details:
        lines.append(f"| {label} | {cell(free, key, unit)} | {cell(pinned, key, unit)} |")
    if not args.skip_fixed:
        lines.append(
            f"| RSS after game 1 / after the first 4 (each game once)"
            f"{' / after game 50' if args.games > 50 else ''} / after game {args.games} "
            f"| {rss_readings(rss_free)} | {rss_readings(fixed_figures)} |"
        )
    lines += [
        "",
        "| part | seconds |",
        "| --- | --- |",
        f"| speed figures, {args.runs} run(s) {'pinned' if args.pinned_only else 'free and pinned'}"
        f"{', drawing only' if args.drawing else ''}, one after another "
        f"| {sum(o.seconds for o in speed):.0f} |",
    ]
    for outcome in fixed:
        state = f"failed: {outcome.failed}" if outcome.failed else f"{outcome.seconds:.0f}"
        pinned_note = " (pinned)" if outcome.part.pinned else ""
        lines.append(f"| {outcome.part.name}{pinned_note} | {state} |")
    return "\n".join(lines)


def rss_readings(figures: Figures) -> str:
    """The RSS readings of the games measure, first to last (after game 50 when played)."""
    keys = ["rss after 1 game", "rss after 4 games", "rss after 50 games", "rss after last game"]
    if "rss after 50 games" not in figures:
        keys.remove("rss after 50 games")
    if not all(k in figures for k in keys):
        return "failed"
    return " / ".join(f"{figures[k]:.1f}" for k in keys) + " MB"


# --- running --------------------------------------------------------------------------


def load() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def gather(outcomes: Sequence[Outcome], keep: Callable[[Outcome], bool]) -> Figures:
    figures: Figures = {}
    for outcome in outcomes:
        if keep(outcome):
            figures.update(outcome.figures)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3, help="runs of each speed figure")
    parser.add_argument("--quick", action="store_true", help="tiny counts, 1 run: a smoke check")
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=8.0, help="of each idle CPU measure")
    parser.add_argument("--decisions", type=int, default=200, help="bot decisions timed per game")
    parser.add_argument("--deals", type=int, default=2000, help="deals of each bot duplicate match")
    parser.add_argument("--samples", type=int, default=30, help="Oh Pshaw search: deals/decision")
    parser.add_argument("--oshaka-samples", type=int, default=8)
    parser.add_argument("--ismcts-deals", type=int, default=400, help="as shipped")
    parser.add_argument("--fair-deals", type=int, default=400, help="at equal information")
    parser.add_argument("--games", type=int, default=500, help="games before the last RSS")
    parser.add_argument("--jobs", type=int, default=2, help="fixed-sample parts side by side")
    parser.add_argument("--skip-fixed", action="store_true", help="speed figures only")
    parser.add_argument("--save", type=Path, help="also write every figure to this JSON file")
    parser.add_argument("--core", type=int, default=0, help="the core pinned runs use")
    parser.add_argument(
        "--drawing",
        action="store_true",
        help="the drawing and motion figures only (redraw, taps, idle, motion; no fixed parts)",
    )
    parser.add_argument("--pinned-only", action="store_true", help="skip the free runs")
    args = parser.parse_args(argv)
    if args.drawing:
        args.skip_fixed = True
    args.engine_args = ()
    args.openspiel_args = ("--batches", "7", "--size", "20")
    if args.quick:
        args.runs, args.taps, args.seconds, args.decisions = 1, 20, 1.0, 5
        args.deals, args.ismcts_deals, args.fair_deals, args.games = 4, 3, 3, 5
        args.engine_args = ("--games", "3", "--batches", "1", "--resume-actions", "500")
        args.openspiel_args = ("--batches", "1", "--size", "3")
    started, before = now(), load()
    timeout = 4 * 3600.0
    speed_runs: list[list[Outcome]] = []
    for run in range(args.runs):
        outcomes: list[Outcome] = []
        for pinned_run in (True,) if args.pinned_only else (False, True):
            outcomes += [run_part(part, timeout) for part in speed_parts(args, pinned_run)]
        speed_runs.append(outcomes)
        print(f"speed run {run + 1} of {args.runs} done", file=sys.stderr)
    speed = [outcome for outcomes in speed_runs for outcome in outcomes]
    fixed: list[Outcome] = []
    if not args.skip_fixed:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            fixed = list(pool.map(lambda part: run_part(part, timeout), fixed_parts(args)))
    after = load()

    def runs_of(pinned: bool) -> list[Figures]:
        return [gather(outcomes, lambda o: o.part.pinned == pinned) for outcomes in speed_runs]

    free = None if args.pinned_only else medians(runs_of(False))
    pinned = medians(runs_of(True))
    for figures in (free or {}, pinned):
        redraws = {k: v for k, v in figures.items() if k.startswith("redraw ")}
        if redraws:
            figures["redraw max"] = max(v for k, v in redraws.items() if "cpu" not in k)
            figures["redraw cpu max"] = max(v for k, v in redraws.items() if "cpu" in k)
    fixed_figures = gather(fixed, lambda o: o.part.pinned or o.part.name != "RSS games")
    rss_free = gather(fixed, lambda o: o.part.name == "RSS games" and not o.part.pinned)
    machine = (
        f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.machine()}; load average {before} -> {after}; {started} -> {now()}; "
        f"speed figures: medians of {args.runs} run{'s' if args.runs > 1 else ''}"
    )
    failures = [o for o in (*speed, *fixed) if o.failed]
    for outcome in failures:
        print(f"{outcome.part.name} failed: {outcome.failed}", file=sys.stderr)
    print(report(free, pinned, fixed_figures, rss_free, speed, fixed, args, machine))
    if args.save is not None:
        saved = {
            "machine": machine,
            "free": free,
            "pinned": pinned,
            "fixed": {o.part.name + (" pinned" if o.part.pinned else ""): o.figures for o in fixed},
            "seconds": [[o.part.name, o.part.pinned, o.seconds] for o in (*speed, *fixed)],
        }
        args.save.write_text(json.dumps(saved, indent=1), encoding="utf-8")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
