"""A simulated table plays game after game in one process with a flat memory.

Issue 14: the mock reader, the mock pins and the recording strip kept every
event and frame, so each bot game added about 50 KB to the process. Here one
kiosk on simulated hardware plays bot games back to back (OK on the results
screen starts the next), and after a warm-up the resident set may not grow by
more than 2 MB nor the open files at all. Before the mocks were bounded the
same run grew by about 4 MB. The run is judged after 100 games and again after
500 (a few evenings of games in one process, issue 14 item 8): one play-through,
where a separate 100-game test had played the same first 100 games again.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.view import Screen
from hardware.events import Button

WARM_UP = 10
# The games after which the run is judged: an evening's worth, then a few evenings'.
CHECKPOINTS = (100, 500)
MAX_GROWTH_KB = 2048


def resident_kb() -> int:
    """This process's resident set (``VmRSS``) in KB, as the kernel counts it."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS line in /proc/self/status")


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def play_one(kiosk: Kiosk) -> None:
    """Bots play a game to its results, then OK on the results screen ends it."""
    assert kiosk.run_headless(), "the bots did not finish the game"
    for _ in range(10):
        if kiosk.table.screen is not Screen.RESULTS:
            return
        kiosk.simulator.press(0, Button.OK)
        kiosk.loop.drain()
    raise AssertionError(f"the table stayed on {kiosk.table.screen} after OK")


@pytest.mark.slow
def test_bot_games_keep_memory_and_open_files_flat_after_100_and_500_games(
    tmp_path: Path,
) -> None:
    """After the warm-up, memory and open files stay flat at each checkpoint of one long run."""
    config = TableConfig.simulated(4, bots=4)
    kiosk = Kiosk.create(config, seed=14, auto_game="oshaka-trick", records_dir=tmp_path)
    with kiosk:
        for _ in range(WARM_UP):
            play_one(kiosk)
        played = WARM_UP
        gc.collect()
        rss, files = resident_kb(), open_files()
        for checkpoint in CHECKPOINTS:
            for _ in range(checkpoint - played):
                play_one(kiosk)
            played = checkpoint
            gc.collect()
            grown = resident_kb() - rss
            assert open_files() == files, f"open files changed by game {checkpoint}"
            assert grown <= MAX_GROWTH_KB, (
                f"{checkpoint - WARM_UP} games grew the process by {grown} KB"
            )
    assert len(list(tmp_path.glob("*.jsonl"))) == played  # every game really was played
