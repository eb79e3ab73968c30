"""The one loop that owns the table: input events off one queue, one at a time."""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Protocol

from hardware.events import InputEvent


class Handles(Protocol):
    """What the loop drives: ``Table`` provides it."""

    @property
    def clock(self) -> Callable[[], float]: ...

    def handle(self, event: InputEvent) -> None: ...
    def tick(self, now: float) -> None: ...


class TableLoop:
    """The one loop that owns the table: takes input events off the queue, one at a time."""

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
        self.table.handle(event)
        return True

    def drain(self) -> int:
        """Handle every event already queued, without waiting; how many there were."""
        handled = 0
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return handled
            self.table.handle(event)
            handled += 1
