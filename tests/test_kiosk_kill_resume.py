"""Kill the real headless kiosk at random points: the bots play on as if nothing happened.

Issue 14 item 4: bots used to draw from a generator started afresh in every
process, so a resumed demo game took other decisions than the uninterrupted
one. Bots now draw from the game's journaled seed and the record's length.
This test runs ``python -m controller kiosk --headless --seed N`` once
uninterrupted for the reference record, then again on a fresh journal,
killing the process with SIGKILL after a seeded random delay and starting it
again until a run ends by itself; the record it writes must be the
reference, byte for byte. (``tests/test_crash_resume.py`` does the same with
scripted player actions; here the bots themselves decide after every resume.)

Oss runs too: a kill between a bot's timed toss and its result must not make
the resumed bot time the toss again (the engine says the toss is timed, and a
bot reseeds from the count of decisions, not of timed tosses).
"""

from __future__ import annotations

import contextlib
import difflib
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120.0
MIN_RESUMES = 4  # kills that landed in a game in progress, resumed at the next start
MAX_RUNS = 120  # a loaded machine lands more kills outside the short play


def kiosk(out: Path, game: str, seed: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "controller",
            "kiosk",
            "--headless",
            "--game",
            game,
            "--seed",
            str(seed),
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"},
    )


def entries(journal: Path) -> int:
    """How many entries the journal holds now (0 when it is not there yet)."""
    if not journal.exists():
        return 0
    try:
        # A plain connection: read-only opens of a WAL file can fail while it is written.
        with contextlib.closing(sqlite3.connect(journal, timeout=0.2)) as db:
            return int(db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
    except sqlite3.Error:
        return 0  # being created, or locked for a moment by the writer


def unfinished(journal: Path) -> bool:
    """Whether the journal holds a game in progress: the next start must resume it."""
    if not journal.exists():
        return False
    with contextlib.closing(sqlite3.connect(journal, timeout=2.0)) as db:
        row = db.execute("SELECT COUNT(*) FROM games WHERE status = 'playing'").fetchone()
        return int(row[0]) > 0


def wait_for_finish(proc: subprocess.Popen[str], journal: Path) -> float:
    """Wait until the journal marks the game finished; the moment (the process then saves
    its pictures and record, which takes longer than the bots' whole game)."""
    pause = threading.Event()
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return time.monotonic()
        with contextlib.closing(sqlite3.connect(journal, timeout=2.0)) as db:
            row = db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()
        if int(row[0]):
            return time.monotonic()
        pause.wait(0.002)
    raise AssertionError("the reference game did not finish in time")


def wait_for_play(proc: subprocess.Popen[str], journal: Path) -> float | None:
    """Wait until this run journals an entry of its own (the bots are playing).

    The moment, or None when the process ended first. Process start-up (imports)
    takes most of a short run; a kill there tests nothing, so kills are timed
    from here.
    """
    before = entries(journal)
    pause = threading.Event()
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return None
        if entries(journal) > before:
            return time.monotonic()
        pause.wait(0.005)
    raise AssertionError("the kiosk journaled nothing in time")


# What the simulated toss timer measured: the milliseconds between the simulator's
# press and release of the mock timer pin, read off the real clock. They are
# measurements, not decisions, and differ from run to run (0 ms, 2 ms); every
# decision around them (whose toss, the result) must still be the same.
TIMED = re.compile(r'"timed": \d+')


def measured_out(record: str) -> str:
    return TIMED.sub('"timed": "measured"', record)


def records(out: Path) -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted(out.glob("*.jsonl"))]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seed"), [("oh-pshaw", 11), ("oskar", 13), ("oss", 17)])
def test_killed_kiosk_resumes_and_its_bots_finish_the_same_game(
    tmp_path: Path, game: str, seed: int
) -> None:
    reference_out = tmp_path / "reference"
    proc = kiosk(reference_out, game, seed)
    playing = wait_for_play(proc, reference_out / "journal.sqlite3")
    assert playing is not None
    # How long the bots play: from the first journal entry to the finished mark,
    # leaving out start-up and the pictures saved at the end.
    took = wait_for_finish(proc, reference_out / "journal.sqlite3") - playing
    _, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 0, err
    (reference,) = (measured_out(text) for text in records(reference_out))

    rng = random.Random(seed)
    out = tmp_path / "killed-0"
    kills = resumes = games = 0
    for _ in range(MAX_RUNS):
        # A start that finds a game in progress resumes it. (Counted from the journal:
        # a kill may land after the resumed game's next deal, before "Resumed" is said.)
        resumes += unfinished(out / "journal.sqlite3")
        proc = kiosk(out, game, seed)
        # Kills land while the bots play (timed from this run's first journal entry,
        # anywhere up to the length of a whole game, so some fall near its end). Once
        # enough kills have landed in the game, the last run plays it to its end.
        if resumes < MIN_RESUMES and wait_for_play(proc, out / "journal.sqlite3") is not None:
            try:
                proc.wait(timeout=rng.uniform(0.0, took))
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=TIMEOUT)
        if proc.returncode == -signal.SIGKILL:
            kills += 1
            continue
        # Ended by itself (possibly just before the kill arrived).
        assert proc.returncode == 0, err
        written = records(out)
        assert written, "the kiosk ended without writing the game's record"
        # A kill between the journal's "finished" and the record file makes the next
        # start play a new game: with the same seed and bots it is the same game again.
        for text in map(measured_out, written):
            assert text == reference, "\n".join(
                difflib.unified_diff(reference.splitlines(), text.splitlines(), lineterm="", n=1)
            )
        games += 1
        if resumes >= MIN_RESUMES:
            break
        out = tmp_path / f"killed-{games}"  # not enough yet: again, on a fresh journal
    else:
        raise AssertionError(f"{MAX_RUNS} runs: {kills} kills, {resumes} resumes, {games} games")
    assert kills >= MIN_RESUMES
