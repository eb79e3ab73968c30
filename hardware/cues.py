"""What the table wants a seat's LEDs to say, and what it wants heard, as names only.

Dependency-free on purpose: the controller names a ``Cue`` without importing
the LED driver (``adafruit_pixelbuf``), and a ``Sound`` without importing
pygame. How each cue looks (colour, pattern, duration) is
``hardware.leds.DEFAULT_LOOKS``; how each sound sounds is ``display.sound``.
"""

from __future__ import annotations

import enum

__all__ = ["Cue", "Sound"]


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


class Sound(enum.Enum):
    """A short sound the table plays (docs/display.md says what each means).

    The values are the names ``[sound] cues`` lists in table.toml. The order is
    the priority: when several are due at once, the first of them plays.
    """

    GAME_WON = "game_won"
    ROUND_OVER = "round_over"
    TRICK_WON = "trick_won"
    REFUSED = "refused"
    STAFF_ANSWERED = "staff_answered"
    TIMER_WARNING = "timer_warning"
    TIMER_STOP = "timer_stop"
    TIMER_START = "timer_start"
    YOUR_TURN = "your_turn"
