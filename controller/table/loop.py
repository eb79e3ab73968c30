"""The one loop that owns the table: input events off one queue, one at a time."""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Protocol

from controller.table.turn_budget import TurnBudget
from hardware.events import InputEvent, Wakeup


class Handles(Protocol):
    """What the loop drives: ``Table`` provides it."""

    @property
    def clock(self) -> Callable[[], float]: ...

    def handle(self, event: InputEvent) -> None: ...
    def tick(self, now: float) -> None: ...


class TableLoop:
    """The one loop that owns the table: takes input events off the queue, one at a time.

    A ``Wakeup`` (a stop signal) only ends a wait; the table never sees it.
    """

    def __init__(self, table: Handles, events: queue.SimpleQueue[InputEvent]) -> None:
        self.table = table
        self.events = events

    def run_once(self, timeout: float) -> bool:
        """Handle the next event, waiting up to ``timeout`` s; False if none came."""
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            self.table.tick(self.table.clock())
            return False
        if isinstance(event, Wakeup):
            return False
        self.table.handle(event)
        return True

    def drain(self, budget: TurnBudget | None = None) -> int:
        """Handle the events already queued, without waiting; how many there were.

        With a ``budget`` (the kiosk's turns) at most what it allows: the rest
        stays queued for the next turn. Without one, every queued event.
        """
        handled = 0
        while budget is None or budget.allows():
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return handled
            if isinstance(event, Wakeup):
                continue
            self.table.handle(event)
            handled += 1
            if budget is not None:
                budget.spend()
        if budget is not None and not self.events.empty():
            budget.left_over()
        return handled
