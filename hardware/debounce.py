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
``Debouncer`` runs one for a pin's edge callback, with a thread that lives
only while a change is waiting to settle, so the settled edge is delivered
even when no further edge comes and an idle table runs no thread for it. A
contact that keeps changing for ``chatter_after`` seconds without settling is
reported once as chatter (a loose wire or a worn switch), and again only
after it has settled in between.

Where the pin factory filters in hardware, the filter is not needed at all
(``filters_in_hardware``): gpiozero hands a pin's ``bounce`` to the backend,
and what that means depends on the backend. gpiozero documents
``bounce_time`` as "ignore changes for this long after an edge", a lockout,
and so it is on RPi.GPIO (``bouncetime``) and on its native factory. On
lgpio (the Pi 5's and current Pi OS's default) it becomes
``lgpio.gpio_set_debounce_micros``, and on pigpio ``set_glitch_filter``:
both report a level change only once the level has been stable for the
whole period, the same stability filter as this module's. There the edge
never reaches Python while the contact chatters, so no toss or press comes
of it, but chatter cannot be reported either (the contact is merely silent).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "CHATTER_AFTER",
    "STABLE",
    "Chatter",
    "Debouncer",
    "Settled",
    "StabilityFilter",
    "filters_in_hardware",
]

STABLE = 0.02
"""Seconds a contact must hold its level before the change counts (well over a clean
switch's bounce of a few ms, far under a press)."""

CHATTER_AFTER = 0.15
"""Seconds of edges without a settled level before the contact is reported as chattering.

A healthy switch's bounce is over within a few milliseconds (Jack Ganssle's
measurements of common switches: about 1.6 ms on average, rarely beyond 10 ms),
and a person cannot press and let go faster than the filter's ``STABLE`` over and
over: 150 ms of a contact that never once holds still for 20 ms is a loose wire,
a worn switch or a cable picking up noise."""

# gpiozero's pin factories whose ``bounce`` is a stability filter below Python (see the
# module doc); by qualified name, so the check imports neither lgpio nor pigpio.
_STABILITY_FILTERING_FACTORIES = frozenset(
    {"gpiozero.pins.lgpio.LGPIOFactory", "gpiozero.pins.pigpio.PiGPIOFactory"}
)


def filters_in_hardware(factory: object) -> bool:
    """Whether ``factory``'s pins filter bounce by stability themselves (lgpio, pigpio),
    so a pin's ``bounce`` is handed to them; otherwise this module's filter runs."""
    return any(
        f"{kind.__module__}.{kind.__qualname__}" in _STABILITY_FILTERING_FACTORIES
        for kind in type(factory).__mro__
    )


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
        self._cond = threading.Condition()  # guards the filter and the thread
        self._delivering = threading.Lock()  # one delivery at a time, in order
        self._running = True
        self._name = name
        # Runs only while a change waits to settle (started by ``edge``, ends when none
        # does): a table's idle buttons cost no thread.
        self._thread: threading.Thread | None = None

    def edge(self, level: bool, at: float, stamp: object = None) -> None:
        """A raw edge (from the pin's callback thread)."""
        with self._delivering:
            with self._cond:
                settled, chatter = self.filter.edge(level, at, stamp)
                if self._thread is None and self._running and self.filter.due() is not None:
                    self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                    self._thread.start()
                self._cond.notify()
            if settled is not None:
                self._on_settled(settled)
            if chatter is not None:
                self._on_chatter(chatter)

    def now(self) -> float:
        """The filter's clock now (the unit and origin of the edges' ``at``)."""
        return self._clock()

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
            thread = self._thread
            self._cond.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join(2.0)

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    due = self.filter.due()
                    if not self._running or due is None:
                        # Nothing waits to settle: the next edge starts a new thread.
                        self._thread = None
                        return
                    now = self._clock()
                    if now >= due:
                        break
                    self._cond.wait(due - now)
            self.settle_due()
