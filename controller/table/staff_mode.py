"""Staff mode during a game: a staff tag at a seat turns that seat's buttons into staff's.

PREV undoes the last player action, NEXT abandons the game, OK (or the staff
tag again) closes staff mode. ``StaffMode`` only says which seat is in staff
mode and what a press there means; the table carries it out.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class StaffCommand(enum.Enum):
    """What a staff member's button press asks the table to do."""

    UNDO = "undo"
    ABANDON = "abandon"
    CLOSE = "close"


_BUTTONS = {"prev": StaffCommand.UNDO, "next": StaffCommand.ABANDON}

OPENED = (
    "Staff at seat {seat}: PREV undoes the last action, NEXT abandons the game, "
    "OK (or the staff tag again) closes staff mode"
)
CLOSED = "Staff mode closed"


@dataclass
class StaffMode:
    """Which seat (if any) staff are using during the game in progress."""

    seat: int | None = None

    def tag(self, seat: int) -> str:
        """The staff tag tapped at ``seat``: open staff mode there, or close it; what to say."""
        if self.seat == seat:
            self.seat = None
            return CLOSED
        self.seat = seat
        return OPENED.format(seat=seat)

    def command(self, button: str) -> StaffCommand:
        """What a press at the staff seat means; any command but UNDO leaves staff mode."""
        command = _BUTTONS.get(button, StaffCommand.CLOSE)
        if command is not StaffCommand.UNDO:
            self.seat = None
        return command

    def close(self) -> None:
        self.seat = None
