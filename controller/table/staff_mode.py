"""Staff mode during a game: a staff tag at a seat turns that seat's buttons into staff's.

The seat's panel shows a STAFF overlay naming the staff actions: PREV undoes
the last player action, NEXT abandons the game, OK closes. Every one of
those destructive actions asks for a confirmation (OK confirms, any other
button cancels); with a staff PIN configured, abandon (and undo, when
``[staff] undo_needs_pin`` says so) first asks for the PIN, entered on the
same seat's buttons. Staff mode closes after one action, after
``STAFF_MODE_TIMEOUT`` seconds without input, or on a second tap of the staff
tag. ``StaffMode`` is plain state: it says what a press means and what the
overlay shows; the table carries the commands out.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass

from controller.staff_pin import PinGuard
from controller.view import StaffView

STAFF_MODE_TIMEOUT = 20.0  # seconds without input before staff mode closes by itself


class StaffCommand(enum.Enum):
    """What a staff member's button press asks the table to do."""

    UNDO = "undo"
    ABANDON = "abandon"
    CLOSE = "close"


_BUTTONS = {"prev": StaffCommand.UNDO, "next": StaffCommand.ABANDON}
_NAMES = {StaffCommand.UNDO: "undo the last action", StaffCommand.ABANDON: "abandon the game"}

OPENED = "Staff at seat {seat}: PREV undo, NEXT abandon, OK close (see the seat's panel)"
CLOSED = "Staff mode closed"
TIMED_OUT = "Staff mode closed after {seconds:.0f} s without input"


@dataclass(frozen=True)
class StaffStep:
    """The outcome of one staff press: a command to carry out now (or None) and what to say."""

    command: StaffCommand | None
    message: str


@dataclass
class StaffMode:
    """Which seat (if any) staff are using during the game, and where they are in its steps."""

    clock: Callable[[], float]
    guard: PinGuard | None = None  # None: no PIN configured
    undo_needs_pin: bool = False
    seat: int | None = None
    step: str = "menu"  # "menu", "pin" (entering the PIN for ``pending``), "confirm"
    pending: StaffCommand | None = None
    touched: float = 0.0

    def tag(self, seat: int) -> str:
        """The staff tag tapped at ``seat``: open staff mode there, or close it; what to say."""
        if self.seat == seat:
            self.close()
            return CLOSED
        self.seat, self.step, self.pending = seat, "menu", None
        self.touched = self.clock()
        return OPENED.format(seat=seat)

    def press(self, button: str) -> StaffStep:
        """A press at the staff seat: the next step, and a command once it is confirmed."""
        self.touched = self.clock()
        if self.step == "menu":
            return self._choose(_BUTTONS.get(button, StaffCommand.CLOSE))
        pending = self.pending
        assert pending is not None
        if self.step == "pin":
            assert self.guard is not None
            assert self.seat is not None
            right = self.guard.press(button, self.seat)
            if right is None:
                return StaffStep(None, "")
            if right:
                self.step = "confirm"
                return StaffStep(None, f"PIN accepted: OK to {_NAMES[pending]}, other: cancel")
            locked = self.guard.locked_for()
            self.close()
            if locked > 0:
                return StaffStep(None, f"Wrong staff PIN: locked for {math.ceil(locked)} s")
            return StaffStep(None, "Wrong staff PIN; staff mode closed")
        self.close()
        if button == "ok":
            return StaffStep(pending, "")
        return StaffStep(None, f"Cancelled: nothing was done ({CLOSED.lower()})")

    def _choose(self, command: StaffCommand) -> StaffStep:
        if command is StaffCommand.CLOSE:
            self.close()
            return StaffStep(None, CLOSED)
        self.pending = command
        needs_pin = self.guard is not None and (
            command is not StaffCommand.UNDO or self.undo_needs_pin
        )
        if needs_pin and self.guard is not None:
            locked = self.guard.locked_for()
            if locked > 0:
                self.close()
                return StaffStep(
                    None, f"The staff PIN is locked for {math.ceil(locked)} s after wrong tries"
                )
            self.guard.start()
            self.step = "pin"
            return StaffStep(None, f"Enter the staff PIN to {_NAMES[command]}")
        self.step = "confirm"
        return StaffStep(None, f"OK to {_NAMES[command]}, any other button cancels")

    def timed_out(self, now: float) -> bool:
        """Whether staff mode is open and idle for longer than ``STAFF_MODE_TIMEOUT``."""
        return self.seat is not None and now - self.touched > STAFF_MODE_TIMEOUT

    def close(self) -> None:
        self.seat, self.step, self.pending = None, "menu", None
        if self.guard is not None:
            self.guard.start()

    def overlay(self) -> StaffView | None:
        """What the staff seat's panel shows over the game, or None when staff mode is closed."""
        if self.seat is None:
            return None
        if self.step == "menu":
            return StaffView(
                title="STAFF",
                prompt="Staff mode: choose an action",
                seat=self.seat,
                options=("PREV: undo the last action", "NEXT: abandon the game", "OK: close"),
                hint=f"closes after {STAFF_MODE_TIMEOUT:.0f} s without input",
            )
        assert self.pending is not None
        if self.step == "pin":
            assert self.guard is not None
            entered = self.guard.entered
            dots = "*" * entered + "-" * (self.guard.pin.presses - entered)
            return StaffView(
                title="STAFF",
                prompt=f"Enter the staff PIN to {_NAMES[self.pending]}",
                seat=self.seat,
                lines=(dots,),
                hint="the PIN is a sequence of PREV / OK / NEXT presses",
            )
        return StaffView(
            title="STAFF",
            prompt=f"Really {_NAMES[self.pending]}?",
            seat=self.seat,
            options=("OK: yes, do it", "PREV / NEXT: cancel"),
            hint="nothing is deleted: the journal keeps every action",
        )

    def hints(self) -> dict[str, str]:
        """The on-screen labels of the staff seat's buttons."""
        if self.step == "menu":
            return {"prev": "undo", "ok": "close", "next": "abandon"}
        if self.step == "pin":
            return {"prev": "P", "ok": "O", "next": "N"}
        return {"prev": "cancel", "ok": "confirm", "next": "cancel"}
