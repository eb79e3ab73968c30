"""The simulator's own on-screen controls, drawn over the table only in the demo window.

A real table has staff tags in pockets; the simulated table has one in the
registry and these buttons to tap it: "staff tag at seat N" for every seat
whose reader is simulated. They sit in the bottom-right corner of the centre
area, which no scene uses, and are never drawn in screenshots or on a table
whose readers are all real.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from controller.games.words import say
from controller.view import Screen, TableView
from display import theme
from display.theme import Painter
from display.ui import TapDeckCard, TapStaff


def draw_staff_buttons(
    p: Painter, centre: pygame.Rect, seats: Sequence[int], view: TableView
) -> None:
    """A row "staff tag at seat: 1 2 3 ..." whose buttons tap the staff tag at that seat;
    at the staff desk also "tap next card", which taps the simulated deck's card it wants."""
    if not seats:
        return
    m = p.metrics
    size = max(12, round(m.small * 0.8))
    height = round(size * 1.4)
    chip = height + m.pad
    right = centre.right - m.pad
    bottom = centre.bottom - m.pad
    if view.screen is Screen.STAFF:
        bottom -= 2 * m.small  # above the desk's hint line
    left = right - len(seats) * (chip + m.pad // 2)
    p.text(
        say("staff tag at seat"),
        (left - m.pad, bottom - height // 2),
        size,
        theme.TEXT_DIM,
        anchor="midright",
    )
    for index, seat in enumerate(seats):
        box = pygame.Rect(left + index * (chip + m.pad // 2), bottom - height, chip, height)
        # Seats counted from 1, as everywhere a person reads them.
        p.button(box, str(seat + 1), TapStaff(seat), size=size)
    staff = view.staff
    if view.screen is Screen.STAFF and staff is not None and staff.seat in seats:
        wide = pygame.Rect(0, 0, right - left, height)
        wide.bottomright = (right, bottom - height - m.pad)
        p.button(wide, say("tap next card"), TapDeckCard(staff.seat), size=size)
