"""Calls for staff: a player holds OK for three seconds; the seat's LEDs say so until answered.

The gesture is measured from the button's own press and release times (the
events carry them), so it is the same on real GPIO and in the simulator. A
call stays open, its seat lit, until staff answer it: on the café's dashboard
(the hub acknowledges the alert) or at the table with the staff tag.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hardware.events import Button

HOLD_SECONDS = 3.0  # how long OK is held to call staff
CALL_BUTTON = Button.OK


@dataclass
class StaffCalls:
    """Open calls by seat, and the OK presses that might become one."""

    hold: float = HOLD_SECONDS
    _pressed_at: dict[int, float] = field(default_factory=dict)
    _open: dict[int, str] = field(default_factory=dict)  # seat -> call id
    _count: int = 0

    def pressed(self, seat: int, button: Button, at: float) -> None:
        if button == CALL_BUTTON:
            self._pressed_at[seat] = at

    def released(self, seat: int, button: Button, at: float) -> str | None:
        """The new call's id when this release ends a long enough hold, else None."""
        if button != CALL_BUTTON:
            return None
        started = self._pressed_at.pop(seat, None)
        if started is None or at - started < self.hold or seat in self._open:
            return None
        self._count += 1
        call = f"call-{seat}-{self._count}"
        self._open[seat] = call
        return call

    def answer(self, call: str) -> int | None:
        """Close the call ``call``; the seat it came from, or None if it is not open."""
        for seat, open_call in list(self._open.items()):
            if open_call == call:
                del self._open[seat]
                return seat
        return None

    def answer_seat(self, seat: int) -> str | None:
        """Staff answered at the table: close the seat's call; its id, or None."""
        return self._open.pop(seat, None)

    @property
    def calling(self) -> list[int]:
        """Seats whose call is open."""
        return sorted(self._open)
