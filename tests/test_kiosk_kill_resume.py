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

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120.0
MIN_RESUMES = 4  # kills that landed in a game in progress, seen as "Resumed" at the next start
MAX_RUNS = 60


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


def records(out: Path) -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted(out.glob("*.jsonl"))]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seed"), [("oh-pshaw", 11), ("oskar", 13), ("oss", 17)])
def test_killed_kiosk_resumes_and_its_bots_finish_the_same_game(
    tmp_path: Path, game: str, seed: int
) -> None:
    reference_out = tmp_path / "reference"
    started = time.monotonic()
    proc = kiosk(reference_out, game, seed)
    _, err = proc.communicate(timeout=TIMEOUT)
    took = time.monotonic() - started
    assert proc.returncode == 0, err
    (reference,) = records(reference_out)

    rng = random.Random(seed)
    out = tmp_path / "killed-0"
    kills = resumes = games = 0
    for _ in range(MAX_RUNS):
        proc = kiosk(out, game, seed)
        # Most kills land while the bots play (journal writes dominate a run); the
        # range covers the start and the end too. Once enough kills have landed in
        # the game, the last run plays it to its end.
        delay = rng.uniform(0.0, took) if resumes < MIN_RESUMES else TIMEOUT
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=TIMEOUT)
        if proc.returncode == -signal.SIGKILL:
            kills += 1
            resumes += "Resumed the unfinished game" in err
            continue
        # Ended by itself (possibly just before the kill arrived).
        assert proc.returncode == 0, err
        resumes += "Resumed the unfinished game" in err
        written = records(out)
        assert written, "the kiosk ended without writing the game's record"
        # A kill between the journal's "finished" and the record file makes the next
        # start play a new game: with the same seed and bots it is the same game again.
        assert all(text == reference for text in written)
        games += 1
        if resumes >= MIN_RESUMES:
            break
        out = tmp_path / f"killed-{games}"  # not enough yet: again, on a fresh journal
    else:
        raise AssertionError(f"{MAX_RUNS} runs: {kills} kills, {resumes} resumes, {games} games")
    assert kills >= MIN_RESUMES
