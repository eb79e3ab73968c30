"""Each seat's own colour: its LED segment's identity colour and its panel's edge.

One palette for both rooms, so a player finds their panel by the colour their
LEDs glow. The Okabe-Ito palette: seven colours that people with the common
colour-vision deficiencies still tell apart.
"""

from __future__ import annotations

Colour = tuple[int, int, int]

SEAT_COLOURS: tuple[Colour, ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (240, 228, 66),  # yellow
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermilion
    (204, 121, 167),  # reddish purple
)


def seat_colour(seat: int) -> Colour:
    """The colour of physical seat ``seat`` (0-based; a table has at most seven)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]
