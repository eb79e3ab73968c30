"""How busy the table loop is, and how long a bot may think because of it.

A bot thinks on a worker thread, but Python runs one thread at a time: a
search that takes its whole budget while the loop is drawing animations or
handling a burst of taps competes with it for the core. The loop measures
its own CPU time per turn (``LoopLoad.turn``); the simulator gives a bot the
configured think budget while the loop is mostly asleep and less of it as
the loop gets busy (``think_budget``), down to a quarter. The number of deals
a search looks at does not change, so a decision only differs from the
unhurried one when the smaller budget cuts its search short.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

WINDOW = 2.0  # seconds of loop turns that count
IDLE_SHARE = 0.10  # up to this share of a core the loop counts as idle: the full budget
BUSY_SHARE = 0.50  # from this share on, the smallest budget
LEAST = 0.25  # the smallest budget, as a share of the configured one


def think_budget(think: float, busy_share: float) -> float:
    """The budget a bot gets when the loop used ``busy_share`` of a core lately."""
    if busy_share <= IDLE_SHARE:
        return think
    if busy_share >= BUSY_SHARE:
        return think * LEAST
    over = (busy_share - IDLE_SHARE) / (BUSY_SHARE - IDLE_SHARE)
    return think * (1.0 - over * (1.0 - LEAST))


@dataclass
class LoopLoad:
    """The loop thread's CPU time over the last ``WINDOW`` seconds, turn by turn."""

    clock: Callable[[], float] = time.monotonic
    cpu_clock: Callable[[], float] = time.thread_time
    _turns: deque[tuple[float, float]] = field(default_factory=deque)  # (ended at, cpu used)

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Count the CPU the loop thread uses inside this block as one turn's work."""
        start = self.cpu_clock()
        try:
            yield
        finally:
            self.add(self.cpu_clock() - start)

    def add(self, cpu_seconds: float) -> None:
        now = self.clock()
        self._turns.append((now, cpu_seconds))
        self._forget(now)

    def share(self) -> float:
        """The share of one core the loop used over the last ``WINDOW`` seconds."""
        self._forget(self.clock())
        return sum(cpu for _, cpu in self._turns) / WINDOW

    def _forget(self, now: float) -> None:
        while self._turns and self._turns[0][0] < now - WINDOW:
            self._turns.popleft()
