"""What the table wants a seat's LEDs to say, as names only.

Dependency-free on purpose: the controller names a ``Cue`` without importing
the LED driver (``adafruit_pixelbuf``). How each cue looks (colour, pattern,
duration) is ``hardware.leds.DEFAULT_LOOKS``.
"""

from __future__ import annotations

import enum

__all__ = ["Cue"]


class Cue(enum.Enum):
    """What the table wants a seat's LEDs to say. See ``DEFAULT_LOOKS`` and docs/hardware.md."""

    OFF = "off"
    JOINED = "joined"
    WAITING = "waiting"
    YOUR_TURN = "your_turn"
    REFUSED = "refused"
    TRICK_WON = "trick_won"
    PENALTY = "penalty"
    MADE_BID = "made_bid"
    MISSED_BID = "missed_bid"
    CALL_STAFF = "call_staff"  # a player called for staff; steady until staff answer
