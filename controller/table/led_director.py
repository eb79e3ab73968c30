"""The LED director: every seat's resting colour, and the momentary cues on top.

A seat's LEDs rest on a steady cue (off, joined, your turn) and flash a cue
for a moment (refused, trick won, penalty). The director remembers the steady
cue it last set per seat, so it relights only the seats whose cue changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from controller.table.sinks import LedSink
from hardware.cues import Cue


class LedDirector:
    """Cues for the seat LEDs, through a ``LedSink`` (none: the table has no LEDs).

    ``leds`` and ``clock`` are read at each cue rather than kept: the kiosk's
    tests give the table a fake clock after ``Kiosk.create`` has made it.
    """

    def __init__(
        self,
        leds: Callable[[], LedSink | None],
        clock: Callable[[], float],
        seats: Iterable[int],
    ) -> None:
        self._leds = leds
        self._clock = clock
        self._seats = list(seats)
        self._steady: dict[int, Cue] = {}

    def flash(self, seat: int, cue: Cue) -> None:
        """A momentary cue at one seat (the strip falls back to its steady cue)."""
        leds = self._leds()
        if leds is not None:
            leds.cue(seat, cue, self._clock())

    def steady(self, seat: int, cue: Cue) -> None:
        """Set one seat's resting cue now."""
        self._steady[seat] = cue
        self.flash(seat, cue)

    def rest(
        self, joined: Iterable[int], waiting: Iterable[int] = (), calling: Iterable[int] = ()
    ) -> None:
        """Every seat's resting colour: calling staff, your turn (``waiting``), joined, or off."""
        wanted = dict.fromkeys(self._seats, Cue.OFF)
        wanted.update(dict.fromkeys(joined, Cue.JOINED))
        wanted.update(dict.fromkeys(waiting, Cue.YOUR_TURN))
        wanted.update(dict.fromkeys(calling, Cue.CALL_STAFF))
        for seat, cue in wanted.items():
            if self._steady.get(seat) is not cue:
                self.steady(seat, cue)
