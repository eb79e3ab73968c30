"""Staff mode during a game: a staff tag at a seat turns that seat's buttons into staff's.

PREV undoes the last player action, NEXT abandons the game, OK (or the staff
tag again) closes staff mode. In a game whose rulebook has an early end (Oh
Pshaw), NEXT first asks: OK then ends the game now with the leaders as winners,
NEXT abandons it, PREV goes back. ``StaffMode`` only says which seat is in staff
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
    ASK_END = "ask-end"  # NEXT in a game with an early end: ask how to end it
    END_NOW = "end-now"  # the rulebook's early end: the leaders win
    BACK = "back"  # the question answered with PREV: staff mode stays open


_BUTTONS = {"prev": StaffCommand.UNDO, "next": StaffCommand.ABANDON}

OPENED = (
    "Staff at seat {seat}: PREV undoes the last action, NEXT abandons the game, "
    "OK (or the staff tag again) closes staff mode"
)
CLOSED = "Staff mode closed"
ASK_END = (
    "Staff: OK ends the game now and the leaders win (the rulebook's early end); "
    "NEXT abandons it without a result; PREV goes back"
)
BACK = "Staff: the game goes on; PREV undoes, NEXT ends the game, OK closes staff mode"


@dataclass
class StaffMode:
    """Which seat (if any) staff are using during the game in progress."""

    seat: int | None = None
    ending: bool = False  # NEXT was pressed in a game with an early end: OK or NEXT decides

    def tag(self, seat: int) -> str:
        """The staff tag tapped at ``seat``: open staff mode there, or close it; what to say."""
        if self.seat == seat:
            self.seat = None
            return CLOSED
        self.seat = seat
        return OPENED.format(seat=seat)

    def command(self, button: str, can_end_early: bool = False) -> StaffCommand:
        """What a press at the staff seat means; UNDO and the end question keep staff mode open.

        ``can_end_early``: the game's rulebook has an early end, so NEXT asks
        first (OK ends it now with the leaders as winners, NEXT abandons it).
        """
        if self.ending:
            self.ending = False
            answer = {"ok": StaffCommand.END_NOW, "next": StaffCommand.ABANDON}.get(
                button, StaffCommand.BACK
            )
            if answer is not StaffCommand.BACK:
                self.seat = None
            return answer
        command = _BUTTONS.get(button, StaffCommand.CLOSE)
        if command is StaffCommand.ABANDON and can_end_early:
            self.ending = True
            return StaffCommand.ASK_END
        if command is not StaffCommand.UNDO:
            self.seat = None
        return command

    def close(self) -> None:
        self.seat = None
        self.ending = False
