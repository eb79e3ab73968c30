"""A simulated table plays game after game in one process with a flat memory.

Issue 14: the mock reader, the mock pins and the recording strip kept every
event and frame, so each bot game added about 50 KB to the process. Here one
kiosk on simulated hardware plays bot games back to back (OK on the results
screen starts the next), and after a warm-up the resident set may not grow by
more than 2 MB nor the open files at all. Before the mocks were bounded the
same run grew by about 4 MB. A slow sibling plays 500 games.
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
GAMES = 100
LONG_GAMES = 500
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


def assert_flat(tmp_path: Path, games: int) -> None:
    """Play ``games`` bot games in one kiosk; after the warm-up memory and open files stay flat."""
    config = TableConfig.simulated(4, bots=4)
    kiosk = Kiosk.create(config, seed=14, auto_game="oshaka-trick", records_dir=tmp_path)
    with kiosk:
        for _ in range(WARM_UP):
            play_one(kiosk)
        gc.collect()
        rss, files = resident_kb(), open_files()
        for _ in range(games - WARM_UP):
            play_one(kiosk)
        gc.collect()
        grown = resident_kb() - rss
        assert open_files() == files
    assert len(list(tmp_path.glob("*.jsonl"))) == games  # every game really was played
    assert grown <= MAX_GROWTH_KB, f"{games - WARM_UP} games grew the process by {grown} KB"


@pytest.mark.slow
def test_a_hundred_bot_games_keep_memory_and_open_files_flat(tmp_path: Path) -> None:
    assert_flat(tmp_path, GAMES)


@pytest.mark.slow
def test_five_hundred_bot_games_keep_memory_and_open_files_flat(tmp_path: Path) -> None:
    """Issue 14 item 8: the long run, a few evenings of games in one process."""
    assert_flat(tmp_path, LONG_GAMES)
