"""The simulated world a scripted reader board lives in: a clock, a watchdog, timers.

Runs under MicroPython (the WebAssembly port under Node, driven by
``run.mjs``) and under CPython. ``machine.py`` beside it is the fake
``machine`` module the firmware imports; it reaches this world through
``world.current``.

Two clocks: ``SimClock`` is virtual (time moves only when something takes
time: a sleep, an SPI transaction, the chip's receive timeout, a stalled USB
write), so poll counts over simulated seconds are exact and independent of
the machine running the test; ``RealClock`` follows the host's monotonic
clock, for runs that talk to the host's real ``LinkReader``.
"""

TYPE_CHECKING = False  # no ``typing`` on MicroPython; mypy takes the branch below as true
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any  # noqa: F401 (used in a type comment)

    from firmware.runner import Clock
    from tests.fwsim.chip import Chip  # noqa: F401 (used in a type comment)
    from tests.fwsim.machine import Timer
else:
    Clock = object  # the firmware's ``Clock`` is an interface: no need to import it at run time

TICKS_PERIOD = 1 << 30  # MicroPython's ticks wrap at 2**30 on every port
TICKS_HALF = TICKS_PERIOD >> 1


class SimClock(Clock):
    """A virtual microsecond clock with MicroPython's ``time`` interface in milliseconds."""

    def __init__(self, start_ms: int = 0) -> None:
        self.us = start_ms * 1000
        # Set by World: it runs timers and checks the watchdog as time passes.
        self.world = None  # type: World | None

    def ticks_ms(self) -> int:
        return (self.us // 1000) % TICKS_PERIOD

    def ticks_add(self, ticks: int, delta: int) -> int:
        return (ticks + delta) % TICKS_PERIOD

    def ticks_diff(self, end: int, start: int) -> int:
        return ((end - start + TICKS_HALF) % TICKS_PERIOD) - TICKS_HALF

    def sleep_ms(self, ms: int) -> None:
        self.advance_us(ms * 1000)

    def advance_us(self, us: int) -> None:
        """Let ``us`` microseconds pass (timers fire and the watchdog counts down on the way)."""
        end = self.us + us
        if self.world is not None:
            self.world.run_until(end)
        self.us = end

    def now_us(self) -> int:
        return self.us


class RealClock(SimClock):
    """The host's monotonic clock (through ``hostio`` under Node); sleeps really sleep."""

    def __init__(self, hostio: object) -> None:
        super().__init__()
        self._io = hostio
        self._origin = int(hostio.now_us())  # type: ignore[attr-defined]

    def now_us(self) -> int:
        return int(self._io.now_us()) - self._origin  # type: ignore[attr-defined]

    def ticks_ms(self) -> int:
        return (self.now_us() // 1000) % TICKS_PERIOD

    def advance_us(self, us: int) -> None:
        end = self.now_us() + us
        if self.world is not None:
            self.world.run_until(end)
        left = end - self.now_us()
        if left > 0:
            self._io.sleep_us(left)  # type: ignore[attr-defined]


class Watchdog:
    """The rp2 watchdog: armed by ``machine.WDT``, never stopped; records every expiry."""

    def __init__(self) -> None:
        self.timeout_us = 0
        self.last_feed_us = 0
        # The times (us) at which the board would have been reset.
        self.expiries = []  # type: list[int]
        self.feeds = 0
        self.longest_gap_us = 0

    @property
    def armed(self) -> bool:
        return self.timeout_us > 0

    def arm(self, timeout_ms: int, now_us: int) -> None:
        self.timeout_us = timeout_ms * 1000
        self.last_feed_us = now_us

    def feed(self, now_us: int) -> None:
        gap = now_us - self.last_feed_us
        if gap > self.longest_gap_us:
            self.longest_gap_us = gap
        self.last_feed_us = now_us
        self.feeds += 1

    def check(self, now_us: int) -> None:
        if self.armed and now_us - self.last_feed_us > self.timeout_us:
            self.expiries.append(self.last_feed_us + self.timeout_us)
            # A real board restarts here; the simulation records it and carries on,
            # so that a test can count every expiry.
            self.last_feed_us = now_us


class World:
    """One board's surroundings: its clock, watchdog, soft timers and SPI devices."""

    def __init__(self, clock: SimClock, spi_us: int = 0) -> None:
        self.clock = clock
        clock.world = self
        self.watchdog = Watchdog()
        self.timers = []  # type: list[list[Any]]  # [next_due_us, period_us, callback, timer]
        self.spi_us = spi_us  # what one SPI register transaction costs (MicroPython + 2 bytes)
        self.chip = None  # type: Chip  # type: ignore[assignment]  # set before the board runs
        self.spi_transactions = 0
        self.soft_resets = 0

    def now_us(self) -> int:
        return self.clock.now_us()

    def run_until(self, end_us: int) -> None:
        """Fire every timer due before ``end_us`` in order, checking the watchdog as time goes."""
        while True:
            due = None
            for entry in self.timers:
                if entry[0] <= end_us and (due is None or entry[0] < due[0]):
                    due = entry
            if due is None:
                break
            self.watchdog.check(due[0])
            if isinstance(self.clock, SimClock) and not isinstance(self.clock, RealClock):
                self.clock.us = due[0]
            due[0] += due[1]
            due[2](due[3])
        self.watchdog.check(end_us)

    def add_timer(
        self, timer: "Timer", period_ms: int, callback: "Callable[[Timer], None] | None"
    ) -> None:
        self.remove_timer(timer)
        self.timers.append([self.now_us() + period_ms * 1000, period_ms * 1000, callback, timer])

    def remove_timer(self, timer: "Timer") -> None:
        self.timers = [entry for entry in self.timers if entry[3] is not timer]

    def soft_reset(self) -> None:
        """A soft reset as on the rp2 port: every soft timer is deleted; the watchdog stays."""
        self.timers = []
        self.soft_resets += 1

    def spi(self, tx: bytes | bytearray, rx: bytearray | None) -> None:
        """One SPI transaction to the chip; it takes ``spi_us`` of the board's time."""
        self.spi_transactions += 1
        if self.spi_us:
            self.clock.advance_us(self.spi_us)
        self.chip.transfer(tx, rx)


# The World the fake machine module talks to (set before the board runs).
current = None  # type: World  # type: ignore[assignment]
