"""A busy table loop gives bots less time to think (issue #15: the think budget scales)."""

from __future__ import annotations

import threading

import pytest

from controller.kiosk.loop_load import LEAST, WINDOW, LoopLoad, think_budget
from controller.kiosk.simulation import _SearchFirst
from controller.view import Screen
from tests.rigs import TableRig


def test_the_budget_is_whole_while_idle_and_a_quarter_when_busy() -> None:
    assert think_budget(0.3, 0.0) == 0.3
    assert think_budget(0.3, 0.10) == 0.3
    assert think_budget(0.3, 0.30) == pytest.approx(0.3 * (1 + LEAST) / 2)
    assert think_budget(0.3, 0.50) == pytest.approx(0.3 * LEAST)
    assert think_budget(0.3, 0.95) == pytest.approx(0.3 * LEAST)
    shares = [i / 20 for i in range(21)]
    budgets = [think_budget(1.0, s) for s in shares]
    assert budgets == sorted(budgets, reverse=True)  # never more time for a busier loop


def test_the_load_counts_the_loop_threads_cpu_over_the_last_window() -> None:
    now = [100.0]
    cpu = [0.0]
    load = LoopLoad(clock=lambda: now[0], cpu_clock=lambda: cpu[0])
    for _ in range(10):  # ten turns of 0.1 s CPU each, 0.1 s apart
        with load.turn():
            cpu[0] += 0.1
        now[0] += 0.1
    assert load.share() == pytest.approx(1.0 / WINDOW)
    now[0] += WINDOW + 0.01  # all of them older than the window
    assert load.share() == 0.0


def test_a_bot_starting_to_think_on_a_busy_loop_gets_the_smaller_budget() -> None:
    rig = TableRig(seats=4, bots=4)
    busy = LoopLoad(clock=lambda: 0.0, cpu_clock=lambda: 0.0)
    busy.add(0.9 * WINDOW)  # the loop used 90 % of a core lately
    decided = threading.Event()
    with rig.running():
        sim = rig.bots("oh-pshaw", think=0.2, background=True, on_decided=decided.set, load=busy)
        for _ in range(400):
            decided.clear()
            if not sim.step(0.0) and sim.thinking:
                break  # a bot started to think on its worker
            rig.loop.drain()
        else:
            pytest.fail("no bot ever thought on the worker")
        assert rig.table.screen is Screen.PLAY
        assert decided.wait(5.0)
        budgets = [
            bot.search.budget for bot, _ in sim._bots.values() if isinstance(bot, _SearchFirst)
        ]
        assert budgets and all(b == pytest.approx(0.2 * LEAST) for b in budgets)
