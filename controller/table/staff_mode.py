"""Staff mode during a game: a staff tag at a seat turns that seat's buttons into staff's.

The seat's panel shows a STAFF overlay naming the staff actions: PREV undoes
the last player action, NEXT abandons the game, OK closes. In a game whose
rulebook has an early end (Oh Pshaw), NEXT first asks how: OK ends it now with
the leaders as winners, NEXT abandons it without a result, PREV goes back.
Every one of those destructive actions asks for a confirmation (OK confirms,
any other button cancels); with a staff PIN configured, abandon and end now
(and undo, when ``[staff] undo_needs_pin`` says so) first ask for the PIN,
entered on the same seat's buttons. Staff mode closes after one action, after
``STAFF_MODE_TIMEOUT`` seconds without input, or on a second tap of the staff
tag. ``StaffMode`` is plain state: it says what a press means and what the
overlay shows; the table carries the commands out.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass

from controller.games.words import Seat, Text, Words, as_arg, say
from controller.tags.staff_pin import PinGuard
from controller.view import StaffView
from hardware.events import Button

STAFF_MODE_TIMEOUT = 20.0  # seconds without input before staff mode closes by itself


class StaffCommand(enum.Enum):
    """What a staff member's button press asks the table to do."""

    UNDO = "undo"
    ABANDON = "abandon"
    END_NOW = "end-now"  # the rulebook's early end: the points stand, the leaders win
    CLOSE = "close"


_BUTTONS = {Button.PREV: StaffCommand.UNDO, Button.NEXT: StaffCommand.ABANDON}
# Whole sentences per command (never "OK to" + a glued action): other languages
# order the words differently.
_PIN_ACCEPTED = {
    StaffCommand.UNDO: say("PIN accepted: OK to undo the last action, other: cancel"),
    StaffCommand.ABANDON: say("PIN accepted: OK to abandon the game, other: cancel"),
    StaffCommand.END_NOW: say(
        "PIN accepted: OK to end the game now (the leaders win), other: cancel"
    ),
}
_ENTER_PIN = {
    StaffCommand.UNDO: say("Enter the staff PIN to undo the last action"),
    StaffCommand.ABANDON: say("Enter the staff PIN to abandon the game"),
    StaffCommand.END_NOW: say("Enter the staff PIN to end the game now (the leaders win)"),
}
_CONFIRM = {
    StaffCommand.UNDO: say("OK to undo the last action, any other button cancels"),
    StaffCommand.ABANDON: say("OK to abandon the game, any other button cancels"),
    StaffCommand.END_NOW: say("OK to end the game now (the leaders win), any other button cancels"),
}
_REALLY = {
    StaffCommand.UNDO: say("Really undo the last action?"),
    StaffCommand.ABANDON: say("Really abandon the game?"),
    StaffCommand.END_NOW: say("Really end the game now (the leaders win)?"),
}

CLOSED = say("Staff mode closed")
TIMED_OUT = say(
    "Staff mode closed after {seconds} s without input", seconds=int(STAFF_MODE_TIMEOUT)
)
ASK_END = say(
    "Staff: OK ends the game now and the leaders win (the rulebook's early end); "
    "NEXT abandons it without a result; PREV goes back"
)
BACK = say("Staff: the game goes on; PREV undoes, NEXT ends the game, OK closes staff mode")
STAFF = say("STAFF")


def opened(seat: int) -> Text:
    """What the table says when staff mode opens at ``seat``."""
    return say(
        "Staff at {seat}: PREV undo, NEXT abandon, OK close (see the seat's panel)",
        seat=Seat(seat),
    )


@dataclass(frozen=True)
class StaffStep:
    """The outcome of one staff press: a command to carry out now (or None) and what to say."""

    command: StaffCommand | None
    message: Words


@dataclass
class StaffMode:
    """Which seat (if any) staff are using during the game, and where they are in its steps."""

    clock: Callable[[], float]
    guard: PinGuard | None = None  # None: no PIN configured
    undo_needs_pin: bool = False
    seat: int | None = None
    # "menu", "ending" (how to end: now or abandon), "pin" (the PIN for ``pending``), "confirm"
    step: str = "menu"
    pending: StaffCommand | None = None
    touched: float = 0.0

    def tag(self, seat: int) -> Words:
        """The staff tag tapped at ``seat``: open staff mode there, or close it; what to say."""
        if self.seat == seat:
            self.close()
            return CLOSED
        self.seat, self.step, self.pending = seat, "menu", None
        self.touched = self.clock()
        return opened(seat)

    def press(self, button: Button, can_end_early: bool = False) -> StaffStep:
        """A press at the staff seat: the next step, and a command once it is confirmed.

        ``can_end_early``: the game's rulebook has an early end, so NEXT first
        asks whether to end it now (the leaders win) or abandon it.
        """
        self.touched = self.clock()
        if self.step == "menu":
            command = _BUTTONS.get(button, StaffCommand.CLOSE)
            if command is StaffCommand.ABANDON and can_end_early:
                self.step = "ending"
                return StaffStep(None, ASK_END)
            return self._choose(command)
        if self.step == "ending":
            if button == Button.PREV:
                self.step = "menu"
                return StaffStep(None, BACK)
            return self._choose(
                StaffCommand.END_NOW if button == Button.OK else StaffCommand.ABANDON
            )
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
                return StaffStep(None, _PIN_ACCEPTED[pending])
            locked = self.guard.locked_for()
            self.close()
            if locked > 0:
                return StaffStep(
                    None, say("Wrong staff PIN: locked for {seconds} s", seconds=math.ceil(locked))
                )
            return StaffStep(None, say("Wrong staff PIN; staff mode closed"))
        self.close()
        if button == Button.OK:
            return StaffStep(pending, "")
        return StaffStep(None, say("Cancelled: nothing was done (staff mode closed)"))

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
                    None,
                    say(
                        "The staff PIN is locked for {seconds} s after wrong tries",
                        seconds=math.ceil(locked),
                    ),
                )
            self.guard.start()
            self.step = "pin"
            return StaffStep(None, _ENTER_PIN[command])
        self.step = "confirm"
        return StaffStep(None, _CONFIRM[command])

    def timed_out(self, now: float) -> bool:
        """Whether staff mode is open and idle for longer than ``STAFF_MODE_TIMEOUT``."""
        return self.seat is not None and now - self.touched > STAFF_MODE_TIMEOUT

    def close(self) -> None:
        self.seat, self.step, self.pending = None, "menu", None
        if self.guard is not None:
            self.guard.start()

    def overlay(self, undo: Callable[[], Words | None] | None = None) -> StaffView | None:
        """What the staff seat's panel shows over the game, or None when staff mode is closed.

        ``undo`` names the action an undo would take back (``play.undo_target``): the
        question before an undo asks about it by name. It is called only for that
        question: naming the action writes out every action of the game so far, and a
        view is built after every action.
        """
        if self.seat is None:
            return None
        if self.step == "menu":
            return StaffView(
                title=STAFF,
                prompt=say("Staff mode: choose an action"),
                seat=self.seat,
                options=(
                    say("PREV: undo the last action"),
                    say("NEXT: abandon the game"),
                    say("OK: close"),
                ),
                hint=say("closes after {seconds} s without input", seconds=int(STAFF_MODE_TIMEOUT)),
            )
        if self.step == "ending":
            return StaffView(
                title=STAFF,
                prompt=say("End the game how?"),
                seat=self.seat,
                options=(
                    say("OK: end it now, the leaders win"),
                    say("NEXT: abandon it, no result"),
                    say("PREV: back"),
                ),
                hint=say("the rulebook's early end: the points stand as they are"),
            )
        assert self.pending is not None
        if self.step == "pin":
            assert self.guard is not None
            entered = self.guard.entered
            dots = "*" * entered + "-" * (self.guard.pin.presses - entered)
            return StaffView(
                title=STAFF,
                prompt=_ENTER_PIN[self.pending],
                seat=self.seat,
                lines=(dots,),
                hint=say("the PIN is a sequence of PREV / OK / NEXT presses"),
            )
        prompt = _REALLY[self.pending]
        target = undo() if self.pending is StaffCommand.UNDO and undo is not None else None
        if target is not None:
            prompt = say("Undo {action}?", action=as_arg(target))
        return StaffView(
            title=STAFF,
            prompt=prompt,
            seat=self.seat,
            options=(say("OK: yes, do it"), say("PREV / NEXT: cancel")),
            hint=say("nothing is deleted: the journal keeps every action"),
        )

    def hints(self) -> dict[Button, Words]:
        """The on-screen labels of the staff seat's buttons."""
        if self.step == "menu":
            return {Button.PREV: say("undo"), Button.OK: say("close"), Button.NEXT: say("abandon")}
        if self.step == "ending":
            return {
                Button.PREV: say("back"),
                Button.OK: say("end now"),
                Button.NEXT: say("abandon"),
            }
        if self.step == "pin":
            return {
                Button.PREV: "P",
                Button.OK: "O",
                Button.NEXT: "N",
            }  # PIN symbols, the same in every language
        return {Button.PREV: say("cancel"), Button.OK: say("confirm"), Button.NEXT: say("cancel")}
