"""Debounce as a stability filter: a contact's new level counts once it has held still.

A lockout (ignore edges for 20 ms after an accepted one) lets a chattering
contact through: at 1 kHz every 20 ms brings a fresh accepted edge, so a
loose wire under the toss timer's pad made 15 to 30 "tosses" of 20 to 50 ms,
journaled as timed actions (one became a player's best). A stability filter
accepts a level only when the raw signal has stayed at it for ``stable``
seconds, and dates the change from the first raw edge towards that level
since the last settled one (a clean switch's bounce, a few ms, starts with
the real contact), so a press is timed to its edge and only announced
``stable`` seconds later. Chatter never settles, so it is never an edge.

``StabilityFilter`` is pure (times in seconds, given by the caller);
``Debouncer`` runs one on a thread of its own for a pin's edge callback, so
the settled edge is delivered even when no further edge comes. A contact
that keeps changing for ``chatter_after`` seconds without settling is
reported once as chatter (a loose wire or a worn switch), and again only
after it has settled in between.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["CHATTER_AFTER", "STABLE", "Chatter", "Debouncer", "Settled", "StabilityFilter"]

STABLE = 0.02
"""Seconds a contact must hold its level before the change counts (well over a clean
switch's bounce of a few ms, far under a press)."""

CHATTER_AFTER = 1.0
"""Seconds of edges without a settled level before the contact is reported as chattering."""


@dataclass(frozen=True, slots=True)
class Settled:
    """The contact changed to ``level`` (True: closed) at ``at`` and held it; ``stamp`` is
    what the caller gave with that edge (e.g. the pin factory's ticks)."""

    level: bool
    at: float
    stamp: object = None


@dataclass(frozen=True, slots=True)
class Chatter:
    """The contact has been changing since ``since`` without ever holding still."""

    since: float
    edges: int


class StabilityFilter:
    """Raw edges in (``edge``), settled levels out (``settle``); pure, see the module doc.

    ``level`` is the accepted level, the one given at construction until a change settles.
    """

    def __init__(
        self, level: bool, stable: float = STABLE, chatter_after: float = CHATTER_AFTER
    ) -> None:
        if stable < 0 or chatter_after <= stable:
            raise ValueError("a stability filter needs 0 <= stable < chatter_after")
        self.stable = stable
        self.chatter_after = chatter_after
        self.level = level
        self._raw = level
        self._raw_at: float | None = None  # when the raw level last changed
        self._first: dict[bool, tuple[float, object]] = {}  # first edge to each level
        self._unsettled_since: float | None = None  # first edge of the current unrest
        self._edges = 0
        self._reported = False

    def edge(
        self, level: bool, at: float, stamp: object = None
    ) -> tuple[Settled | None, Chatter | None]:
        """A raw edge to ``level`` at ``at``. First, the change that had held still until
        this edge came (if it had not settled yet); then a ``Chatter`` the first time unrest
        lasts too long."""
        settled = self.settle(at)
        if level == self._raw:
            return settled, None  # a missed edge in between: nothing changed
        self._raw = level
        self._raw_at = at
        if self._unsettled_since is None:
            self._unsettled_since = at
            self._edges = 0
            self._first.clear()
        self._first.setdefault(level, (at, stamp))
        self._edges += 1
        if not self._reported and at - self._unsettled_since >= self.chatter_after:
            self._reported = True
            return settled, Chatter(self._unsettled_since, self._edges)
        return settled, None

    def due(self) -> float | None:
        """When the raw level will have held long enough to settle (None: nothing pending)."""
        return None if self._raw_at is None else self._raw_at + self.stable

    def settle(self, now: float) -> Settled | None:
        """The change that has held still by ``now``, once; None if none has."""
        if self._raw_at is None or now - self._raw_at < self.stable:
            return None
        self._raw_at = None
        self._unsettled_since = None
        self._reported = False
        if self._raw == self.level:
            return None  # it chattered and came back: no change at all
        self.level = self._raw
        at, stamp = self._first[self.level]
        return Settled(self.level, at, stamp)


class Debouncer:
    """A ``StabilityFilter`` fed from an edge callback and settled on its own thread.

    ``clock`` gives the time in the same unit and origin as the edges' ``at``
    (seconds). ``on_settled`` and ``on_chatter`` run on whichever thread found
    the change (the edge's, the debouncer's, or ``settle_due``'s caller), one
    at a time and in order, never under the filter's lock.
    """

    def __init__(
        self,
        level: bool,
        on_settled: Callable[[Settled], None],
        on_chatter: Callable[[Chatter], None],
        *,
        stable: float = STABLE,
        chatter_after: float = CHATTER_AFTER,
        clock: Callable[[], float] = time.monotonic,
        name: str = "debounce",
    ) -> None:
        self.filter = StabilityFilter(level, stable, chatter_after)
        self._on_settled = on_settled
        self._on_chatter = on_chatter
        self._clock = clock
        self._cond = threading.Condition()  # guards the filter
        self._delivering = threading.Lock()  # one delivery at a time, in order
        self._running = True
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def edge(self, level: bool, at: float, stamp: object = None) -> None:
        """A raw edge (from the pin's callback thread)."""
        with self._delivering:
            with self._cond:
                settled, chatter = self.filter.edge(level, at, stamp)
                self._cond.notify()
            if settled is not None:
                self._on_settled(settled)
            if chatter is not None:
                self._on_chatter(chatter)

    def settle_due(self) -> None:
        """Deliver the change that has held still by now, if any (the thread does this by
        itself ``stable`` seconds after the last edge)."""
        with self._delivering:
            with self._cond:
                settled = self.filter.settle(self._clock())
            if settled is not None:
                self._on_settled(settled)

    def close(self) -> None:
        """Stop the thread (bounded join); a change not yet settled is dropped. Idempotent."""
        with self._cond:
            self._running = False
            self._cond.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(2.0)

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    if not self._running:
                        return
                    due = self.filter.due()
                    now = self._clock()
                    if due is not None and now >= due:
                        break
                    self._cond.wait(None if due is None else due - now)
            self.settle_due()
