"""Closing hours: the table sleeps (screen and LEDs dark) while the cafe is closed.

``[display] sleep = "02:00-10:00"`` names the hours the table is dark; a
window may wrap past midnight ("23:30-07:00"). Any tap or button press wakes
the table for ``WAKE_SECONDS``; then it sleeps again if still in the window.
While awake on the attract screen the picture drifts by a few pixels over
minutes (``drift``), so nothing stands still long enough to burn into a panel.

Pure: no clock of its own (the caller passes the wall-clock time and a
monotonic ``now``), no I/O, so the tests need no waiting.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field

WAKE_SECONDS = 15 * 60.0
"""How long a tap keeps a sleeping table awake."""

DRIFT_PIXELS = 6
"""Largest shift of the attract screen from its place, in pixels."""

DRIFT_PERIOD = 11 * 60.0
"""Seconds for the attract screen to go once round its drift path."""


def _minutes(text: str) -> int:
    hours, sep, minutes = text.strip().partition(":")
    if not sep or not hours.isdigit() or not minutes.isdigit() or len(minutes) != 2:
        raise ValueError(f"{text.strip()!r} is not a time HH:MM")
    value = int(hours) * 60 + int(minutes)
    if int(hours) > 24 or int(minutes) > 59 or value > 24 * 60:
        raise ValueError(f"{text.strip()!r} is not a time of day")
    return value


@dataclass(frozen=True)
class SleepWindow:
    """The daily hours the table sleeps: from ``start`` to ``end``, minutes after midnight."""

    start: int
    end: int

    @classmethod
    def parse(cls, text: str) -> SleepWindow:
        """``"02:00-10:00"`` -> ``SleepWindow(120, 600)``; ValueError says what is wrong."""
        first, sep, second = text.partition("-")
        if not sep:
            raise ValueError("write the start and end joined by '-'")
        window = cls(_minutes(first), _minutes(second))
        if window.start == window.end:
            raise ValueError("the start and end are the same time")
        return window

    def __str__(self) -> str:
        return "-".join(f"{m // 60:02d}:{m % 60:02d}" for m in (self.start, self.end))

    def contains(self, when: dt.datetime | dt.time) -> bool:
        """Whether the wall-clock time ``when`` falls in the sleeping hours."""
        minute = when.hour * 60 + when.minute
        if self.start < self.end:
            return self.start <= minute < self.end
        return minute >= self.start or minute < self.end  # wraps past midnight


@dataclass
class Sleeper:
    """Decides, turn by turn, whether the table should be dark.

    The kiosk calls ``touch(now)`` for every tap or button and
    ``asleep(wall, now)`` once a turn: asleep inside the window unless woken
    less than ``wake_seconds`` ago.
    """

    window: SleepWindow | None
    wake_seconds: float = WAKE_SECONDS
    _woken_at: float | None = field(default=None, repr=False)

    def touch(self, now: float) -> None:
        """Someone tapped or pressed: stay awake for a while."""
        self._woken_at = now

    def asleep(self, wall: dt.datetime, now: float) -> bool:
        """Whether the screen and LEDs should be dark at this turn."""
        if self.window is None or not self.window.contains(wall):
            return False
        return self._woken_at is None or now - self._woken_at >= self.wake_seconds


def drift(now: float, pixels: int = DRIFT_PIXELS, period: float = DRIFT_PERIOD) -> tuple[int, int]:
    """A slowly wandering offset (x, y) for the attract screen, within ``pixels`` of (0, 0).

    A Lissajous path (x and y at different speeds), so over a few periods every
    pixel's neighbourhood is covered and static edges never sit still.
    """
    angle = 2 * math.pi * (now % period) / period
    return round(pixels * math.sin(angle)), round(pixels * math.sin(2 * angle + math.pi / 3))
