"""``benchmarks/targets.py``: one table with a row, and numbers, for every target of issue 15.

The slow test runs the benchmark in its quick mode (tiny counts, one run: the
real child benchmarks, end to end) and reads its table; it checks what the
table holds, never whether a target is met (no wall-clock judgement in tests).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.targets import (
    DRAWING_PARTS,
    RATIO_ROWS,
    SPEED_ROWS,
    Ratio,
    Row,
    fixed_parts,
    judged,
    ratio_lines,
    shown_rows,
    speed_lines,
    speed_parts,
    strength_line,
)

ROOT = Path(__file__).resolve().parent.parent

# Every target of issue 15's table, by the words its row starts with.
TARGET_ROWS = (
    "full redraw 1920x1080",
    "tap -> drawn frame p99",
    "tap -> LED frame p99 (journal on, excl. fsync)",
    "CPU waiting for a player",
    "CPU on the attract screen",
    "first frame after start",
    "RSS idle",
    "RSS growth on the attract screen, after game 1 -> after game",
    "resume of a 10,000-action game",
    "resume linear",
    "Oss random playouts",
    "Oskar random playouts",
    "Oh Pshaw fast playouts / OpenSpiel oh_hell",
    "Oh Pshaw search",
    "Oshaka Trick search",
    "Oh Pshaw bot vs OpenSpiel ISMCTS **as shipped**",
    "Oh Pshaw bot vs OpenSpiel ISMCTS **at equal information**",
    "Oh Pshaw bot decision p99",
    "Oshaka Trick bot decision p99",
    "Oskar bot decision p99",
)
NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?( (ms|%|s|MB|/s|x))?$")
INTERVAL = re.compile(r"^[+-]\d+\.\d+, 95 % CI \[[+-]\d+\.\d+, [+-]\d+\.\d+\]$")
GROWTH = re.compile(r"^[+-]\d+\.\d+ MB \(\d+\.\d+ -> \d+\.\d+ MB\)$")


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


@pytest.mark.slow
def test_the_quick_run_prints_a_row_of_numbers_for_every_target(tmp_path: Path) -> None:
    saved = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "targets.py"), "--quick", "--save", str(saved)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "QUICK MODE" in out and "NOT issue 15's measurement" in out
    assert re.search(r"machine: \d+ cores, Python 3\.\d+.*load average .+ -> .+", out)
    rows = [cells(line) for line in out.splitlines() if line.startswith("| ")]
    targets = [row for row in rows if len(row) == 6]  # the targets' table (details: 3 cells)
    for target in TARGET_ROWS:
        found = [row for row in targets if row[0].startswith(target)]
        assert len(found) == 1, f"{len(found)} rows for {target!r}"
        row = found[0]
        free, pinned, met = row[1], row[2], row[5]
        if "ISMCTS" in target or target.endswith("search"):
            assert INTERVAL.match(free), f"{target}: {free!r}"
            assert met in ("yes", "NO", "not shown (CI spans 0)")
        elif target.startswith("RSS growth"):
            assert GROWTH.match(free) and GROWTH.match(pinned), f"{target}: {row}"
            assert met in ("yes", "NO")
        else:
            assert NUMBER.match(free) and NUMBER.match(pinned), f"{target}: {row}"
            assert met.split(" ")[0] in ("yes", "NO"), f"{target}: {row}"
    ratios = [row for row in targets if row[0].startswith("ratio: ")]
    assert len(ratios) == len(RATIO_ROWS)
    for row in ratios:
        assert NUMBER.match(row[1]) and NUMBER.match(row[2]), row
        assert row[5] in ("yes", "NO"), row
    motion = [row for row in rows if row[0].startswith("CPU while bots play Oh Pshaw")]
    assert len(motion) == 2 and all(NUMBER.match(row[2]) for row in motion), motion
    fsync = [row for row in rows if row[0].startswith("fsync p99")]
    assert fsync and NUMBER.match(fsync[0][1]) and NUMBER.match(fsync[0][2])
    boxes = [row for row in rows if row[0].startswith("yardstick: a box's pixel")]
    assert len(boxes) == 1 and NUMBER.match(boxes[0][1]) and NUMBER.match(boxes[0][2]), boxes
    figures = json.loads(saved.read_text(encoding="utf-8"))
    assert figures["pinned"]["rss idle"] > 0
    assert figures["fixed"]["RSS games pinned"]["games played"] == 5


def test_a_match_is_met_only_when_its_whole_interval_is_at_or_above_zero() -> None:
    def met(mean: float, half: float) -> str:
        figures = {"x mean": mean, "x half": half, "x deals": 10}
        return cells(strength_line("match", figures, "x ", "x deals"))[5]

    assert met(0.57, 0.35) == "yes"
    assert met(0.11, 0.32) == "not shown (CI spans 0)"
    assert met(-1.16, 0.33) == "NO"
    assert cells(strength_line("match", {}, "x ", "x deals"))[1] == "failed"


def test_speed_targets_are_judged_in_their_direction() -> None:
    at_most = Row("redraw", "k", 2.0, "ms")
    at_least = Row("playouts", "k", 590.0, "/s", at_least=True)
    assert judged(2.0, at_most) and not judged(2.01, at_most)
    assert judged(590.0, at_least) and not judged(589.0, at_least)


def test_a_drawing_figure_is_judged_as_a_ratio_to_its_own_run_s_yardstick() -> None:
    redraw = next(r for r in RATIO_ROWS if r.key == "redraw cpu max" and r.reference == "python")
    assert redraw.cpu and redraw.reference_key() == "reference python cpu @redraw"
    # The same redraw on a machine twice as slow, with its yardstick twice as slow: the
    # same ratio, judged the same.
    quick = {"redraw cpu max": 1.5, "reference python cpu @redraw": 1.0}
    slow = {"redraw cpu max": 3.0, "reference python cpu @redraw": 2.0}
    assert redraw.value(quick) == redraw.value(slow) == 1.5
    assert redraw.value({"redraw cpu max": 1.5}) is None  # no yardstick: no ratio
    row = Ratio("ratio: x / python", "x", "python", "m", 1.0)
    over = cells(ratio_lines({}, {"x": 1.2, "reference python @m": 1.0}, [row])[0])
    within = cells(ratio_lines({}, {"x": 0.9, "reference python @m": 1.0}, [row])[0])
    assert over[2] == "1.20 x" and over[5] == "NO"
    assert within[5] == "yes" and within[1] == "failed"


def test_pinned_parts_run_on_the_core_asked_for() -> None:
    args = argparse.Namespace(
        taps=20, seconds=1.0, decisions=5, engine_args=(), openspiel_args=(), core=1, games=5
    )
    pinned = speed_parts(args, True)
    assert pinned and all(part.command()[:3] == ["taskset", "-c", "1"] for part in pinned)
    assert all(part.command()[0] != "taskset" for part in speed_parts(args, False))
    args.deals, args.samples, args.oshaka_samples = 4, 2, 2
    args.fair_deals = args.ismcts_deals = 3
    rss = [part for part in fixed_parts(args) if part.pinned]
    assert rss and all(part.command()[:3] == ["taskset", "-c", "1"] for part in rss)


def test_the_drawing_option_runs_the_drawing_and_motion_parts_alone() -> None:
    args = argparse.Namespace(
        taps=20, seconds=1.0, decisions=5, engine_args=(), openspiel_args=(), core=1
    )
    every = {part.name for part in speed_parts(args, True)}
    args.drawing = True
    drawing = speed_parts(args, True)
    assert {part.name for part in drawing} == set(DRAWING_PARTS) < every
    measures = [part.args[part.args.index("--measure") + 1] for part in drawing]
    assert sorted(measures) == ["idle", "motion", "redraw", "taps"]
    assert all(part.command()[:3] == ["taskset", "-c", "1"] for part in drawing)


def test_rows_not_run_are_left_out_and_a_skipped_column_says_so() -> None:
    pinned = {"redraw max": 1.5, "redraw cpu max": 1.2, "reference python @redraw": 1.0}
    rows = shown_rows(SPEED_ROWS, lambda r: r.key, None, pinned)
    assert [row.key for row in rows] == ["redraw max"]
    line = cells(speed_lines(None, pinned, rows)[0])
    assert line[1] == "not run" and line[2] == "1.50 ms" and line[5].startswith("yes")
    ratios = shown_rows(RATIO_ROWS, lambda r: r.reference_key(), None, pinned)
    assert ratios and all(r.reference_key() == "reference python @redraw" for r in ratios)
    assert cells(ratio_lines(None, pinned, ratios)[0])[1] == "not run"
    assert cells(ratio_lines({}, pinned, ratios)[0])[1] == "failed"  # run, and gave nothing
