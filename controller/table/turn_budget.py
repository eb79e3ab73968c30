"""How much input one turn of the kiosk's loop may handle before it draws and pets the watchdog.

A reader that sends valid tags as fast as USB carries them once kept the loop
handling input for 209 s: no frame, no watchdog ping, memory growing. Every
turn now handles at most ``events`` inputs and at most ``seconds`` of them;
what is left waits for the next turn, which comes at once (the queue is not
empty, so the turn does not wait). The readers' own rate limit
(``hardware.flood``) keeps what is left small; this budget keeps the loop
turning whatever arrives.

A budget also ends a turn early when a stop was requested
(``controller.kiosk.stop_signals``): the input being handled is finished, the rest
is not started.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["EVENTS_PER_TURN", "SECONDS_PER_TURN", "TurnBudget"]

EVENTS_PER_TURN = 32
"""Inputs one turn may handle: a whole table tapping at once is far fewer."""

SECONDS_PER_TURN = 0.1
"""The time slice one turn may spend on input, so frames come at least about 5 times a second
even when each input is slow to handle (a results screen's record, a journal fsync)."""


def _never() -> bool:
    return False


@dataclass
class TurnBudget:
    """One turn's allowance of inputs: ``start()`` it, then ``allows()`` before each input
    and ``spend()`` after it. ``stop`` says whether the loop was asked to stop."""

    events: int = EVENTS_PER_TURN
    seconds: float = SECONDS_PER_TURN
    clock: Callable[[], float] = time.monotonic
    stop: Callable[[], bool] = _never
    _spent: int = field(default=0, init=False)
    _until: float = field(default=0.0, init=False)
    # Turns that ended with input left over (for logs, tests and benchmarks).
    cut_short: int = field(default=0, init=False)

    def start(self) -> None:
        """A new turn: the whole allowance again, from now."""
        self._spent = 0
        self._until = self.clock() + self.seconds

    def allows(self) -> bool:
        """Whether one more input may be handled in this turn."""
        if self.stop():
            return False
        return self._spent < self.events and self.clock() < self._until

    def spend(self) -> None:
        """One input was handled."""
        self._spent += 1

    def left_over(self) -> None:
        """The turn ended with input still queued."""
        self.cut_short += 1
