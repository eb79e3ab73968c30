"""The garbage collector's passes run while the table loop waits, not inside a tap."""

from __future__ import annotations

import gc
import weakref

from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.kiosk.garbage import BACKSTOP, MIDDLE_EVERY, YOUNG, GarbagePacer
from hardware.events import Button


class Cycle:
    """An object that refers to itself: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def live_containers(count: int) -> list[list[int]]:
    """``count`` new containers kept alive: what moves the collector's young count."""
    return [[n] for n in range(count)]


def test_the_pacer_changes_nothing_until_started() -> None:
    thresholds = gc.get_threshold()
    pacer = GarbagePacer()
    kept = live_containers(YOUNG + 100)
    assert pacer.idle() is None
    assert gc.get_threshold() == thresholds
    assert pacer.passes == [0, 0]
    del kept


def test_started_it_freezes_start_up_and_keeps_cpython_as_a_backstop_until_stopped() -> None:
    thresholds = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with GarbagePacer():
        assert gc.get_freeze_count() > frozen
        assert gc.get_threshold() == (BACKSTOP, thresholds[1], thresholds[2])
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0


def test_a_waiting_loop_frees_the_cycles_a_tap_left() -> None:
    with GarbagePacer() as pacer:
        cycle = Cycle()
        gone = weakref.ref(cycle)
        del cycle
        kept = live_containers(YOUNG + 100)
        # The automatic collector waits for its backstop: the tap's cycle is still there.
        assert gone() is not None
        assert pacer.idle() == 0
        assert gone() is None
        assert pacer.idle() is None  # nothing due until the next YOUNG objects
        del kept


def test_every_tenth_young_pass_is_followed_by_a_middle_one() -> None:
    with GarbagePacer() as pacer:
        kept: list[list[list[int]]] = []
        generations = []
        for _ in range(MIDDLE_EVERY + 1):
            kept.append(live_containers(YOUNG + 10))
            generations.append(pacer.idle())
        assert generations == [0] * MIDDLE_EVERY + [1]
        assert pacer.passes == [MIDDLE_EVERY, 1]


def test_the_kiosk_loop_collects_when_it_would_wait_and_not_with_input_queued() -> None:
    kiosk = Kiosk.create(TableConfig.simulated(4, bots=0), seed=1)
    shown: list[object] = []
    with kiosk, kiosk.garbage:
        kiosk.loop.drain()
        kept = live_containers(YOUNG + 100)
        kiosk.simulator.press(0, Button.OK)  # a press waits in the queue: it comes first
        kiosk.run_frame(shown.append, None, 0.0)
        assert kiosk.garbage.passes == [0, 0]
        kept.extend(live_containers(YOUNG + 100))
        kiosk.run_frame(shown.append, None, 0.0)
        assert kiosk.garbage.passes == [1, 0]
    assert len(shown) == 2
    assert gc.get_freeze_count() == 0
