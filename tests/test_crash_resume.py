"""Kill the table with SIGKILL at random points; every restart resumes, and the game is unchanged.

``tests/crash_player.py`` plays a scripted Oshaka Trick game (170 player
actions, fixed in advance from a seeded bot game) through mock devices with
a journal. This test runs it once uninterrupted for the reference record,
then plays the same script on fresh journals, killing the process after a
seeded random delay (before it is ready, a few milliseconds after, or tens
of milliseconds after; some runs kill themselves inside a journal write
transaction) and restarting it until it finishes. Every final record must
equal the reference, and every journal must hold each action exactly once.
"""

from __future__ import annotations

import json
import random
import selectors
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.records.journal import FINISHED, Journal
from tests.crash_player import generate

ROOT = Path(__file__).resolve().parent.parent
PLAYER = Path(__file__).with_name("crash_player.py")
MIN_KILLS = 55
PAUSE = "0.002"  # seconds per action: a game lasts about half a second, so kills spread over it
TIMEOUT = 60.0


def spawn(journal: Path, script: Path, out: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(PLAYER), "play", str(journal), str(script), str(out), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def wait_ready(proc: subprocess.Popen[str]) -> bool:
    """Wait (with a timeout) for the player's "ready" line; False if it ended first."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        assert selector.select(timeout=TIMEOUT), "the player never became ready"
    return proc.stdout.readline().startswith("ready")


def finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    _, err = proc.communicate(timeout=TIMEOUT)
    return proc.returncode, err


@pytest.mark.slow
def test_sigkill_at_random_points_never_loses_or_changes_a_game(tmp_path: Path) -> None:
    script = generate("oshaka-trick", table_seed=5, bot_seed=3)
    script_path = tmp_path / "script.json"
    script_path.write_text(json.dumps(script), encoding="utf-8")
    player_actions = len(script["actions"])
    assert player_actions > 100

    reference_out = tmp_path / "reference.jsonl"
    code, err = finish(spawn(tmp_path / "reference.sqlite3", script_path, reference_out))
    assert code == 0, err
    reference = reference_out.read_text(encoding="utf-8")
    assert reference == script["record"]  # the journal's export is the table's own record

    rng = random.Random(20250131)
    kills = kills_in_write = kills_before_ready = games = 0
    while kills < MIN_KILLS:
        games += 1
        journal_path = tmp_path / f"game-{games}.sqlite3"
        out = tmp_path / f"game-{games}.jsonl"
        for run in range(500):
            if out.exists():
                break
            roll = rng.random()
            if run in (1, 4) or roll < 0.08:
                # The process kills itself inside its N-th write transaction, before COMMIT.
                die = str(rng.randint(1, 12))
                proc = spawn(journal_path, script_path, out, "--die-in-write", die)
                code, err = finish(proc)
                if code == -signal.SIGKILL:
                    kills += 1
                    kills_in_write += 1
                else:
                    assert code == 0, err
                continue
            proc = spawn(journal_path, script_path, out, "--pause", PAUSE)
            if roll < 0.2:
                delay = rng.uniform(0.0, 0.3)  # from the start: often while importing or resuming
                kills_before_ready += 1
            else:
                if not wait_ready(proc):
                    code, err = finish(proc)
                    assert code == 0 and out.exists(), err
                    continue
                # Very short delays land in the first action's journal write.
                delay = rng.uniform(0.0, 0.004) if roll < 0.5 else rng.uniform(0.0, 0.08)
            try:
                proc.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                code, err = finish(proc)
                if code == 0:
                    # It finished on its own between the wait's timeout and the kill
                    # (a run resumed near the game's end): a normal finish, not a kill.
                    assert out.exists(), err
                    continue
                assert code == -signal.SIGKILL, err
                kills += 1
            else:
                code, err = finish(proc)
                assert code == 0, err
        else:
            raise AssertionError(f"game {games} never finished")
        assert out.read_text(encoding="utf-8") == reference
        with Journal.open_existing(journal_path) as journal:
            (row,) = journal.games()
            assert row.status == FINISHED and row.record == reference
            entries = journal.entries(row.id)
            kinds = [entry.kind for entry in entries]
            # Each player action journaled exactly once: nothing lost, nothing doubled.
            assert kinds.count("action") == player_actions
            # No corrections at all: a kill mid-deal leaves no half deal to take back.
            assert [e for e in entries if e.kind == "correction"] == []
    assert kills >= MIN_KILLS
    assert kills_in_write >= 4
    assert not list(tmp_path.glob("*.damaged-*"))  # a kill never damages the journal
