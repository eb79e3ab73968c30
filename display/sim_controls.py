"""The simulator's own on-screen controls, drawn over the table only in the demo window.

A real table has staff tags in pockets; the simulated table has one in the
registry and these buttons to tap it: "staff tag at seat N" for every seat
whose reader is simulated. They sit in a strip of their own under the centre
(``Layout.controls``, reserved by ``strip_height``), never over the table's
content, and are never drawn in screenshots or on a table whose readers are
all real.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from controller.games.words import say
from controller.view import Screen, TableView
from display import theme
from display.theme import Metrics, Painter
from display.ui import TapDeckCard, TapStaff


def _control_size(metrics: Metrics) -> tuple[int, int]:
    """The controls' text size and button height."""
    size = max(12, round(metrics.small * 0.8))
    return size, round(size * 1.4)


def strip_rows(metrics: Metrics, width: int, staff_desk: bool) -> int:
    """How many rows the strip's controls take: the label, the seat buttons and, at the
    staff desk, "tap next card" share one row, or each has its own on a narrow strip."""
    if not metrics.narrow(width):
        return 1
    return 3 if staff_desk else 2


def strip_height(metrics: Metrics, rows: int = 1) -> int:
    """How tall the simulator's strip under the centre is: ``rows`` rows of buttons."""
    return rows * _control_size(metrics)[1] + (rows + 1) * metrics.pad


def draw_staff_buttons(
    p: Painter, strip: pygame.Rect, seats: Sequence[int], view: TableView
) -> None:
    """In the simulator's ``strip``, a row "staff tag at seat: 1 2 3 ..." whose buttons tap
    the staff tag at that seat; at the staff desk, to their left, "tap next card", which
    taps the simulated deck's card it wants."""
    if not seats or not strip.h:
        return
    # The demo operator's controls, not the game's: secondary text (docs/display.md).
    with p.secondary():
        _draw_staff_buttons(p, strip, seats, view)


def _draw_staff_buttons(
    p: Painter, strip: pygame.Rect, seats: Sequence[int], view: TableView
) -> None:
    m = p.metrics
    size, height = _control_size(m)
    staff = view.staff
    desk = view.screen is Screen.STAFF and staff is not None and staff.seat in seats
    if m.narrow(strip.w) and strip.h >= strip_height(m, 2):
        _draw_stacked(p, strip, seats, staff.seat if desk and staff else None, size, height)
        return
    height = min(height, strip.h)
    chip = height + m.pad
    right = strip.right - m.pad
    middle = strip.centery
    left = right - len(seats) * (chip + m.pad // 2)
    label = p.text(
        say("staff tag at seat"),
        (left - m.pad, middle),
        size,
        theme.TEXT_DIM,
        anchor="midright",
        max_width=max(1, left - m.pad - strip.left - m.pad),
    )
    for index, seat in enumerate(seats):
        box = pygame.Rect(left + index * (chip + m.pad // 2), 0, chip, height)
        box.centery = middle
        # Seats counted from 1, as everywhere a person reads them.
        p.button(box, str(seat + 1), TapStaff(seat), size=size)
    if desk:
        assert staff is not None
        room = label.left - m.pad - (strip.left + m.pad)
        wide = pygame.Rect(0, 0, min(room, right - left + chip), height)
        wide.midleft = (strip.left + m.pad, middle)
        p.button(wide, say("tap next card"), TapDeckCard(staff.seat), size=size)


def _draw_stacked(
    p: Painter, strip: pygame.Rect, seats: Sequence[int], desk: int | None, size: int, height: int
) -> None:
    """The strip's controls on rows of their own (a narrow centre): the label, the seat
    buttons under it and, at the staff desk, "tap next card" at the foot."""
    m = p.metrics
    inner = strip.inflate(-2 * m.pad, 0)
    row = pygame.Rect(inner.left, strip.top + m.pad, inner.w, height)
    p.text(
        say("staff tag at seat"),
        row.center,
        size,
        theme.TEXT_DIM,
        anchor="center",
        max_width=inner.w,
    )
    chip = min(height + m.pad, (inner.w - m.pad * (len(seats) - 1)) // len(seats))
    left = inner.centerx - (len(seats) * (chip + m.pad) - m.pad) // 2
    row = row.move(0, height + m.pad)
    for index, seat in enumerate(seats):
        box = pygame.Rect(left + index * (chip + m.pad), row.top, chip, height)
        p.button(box, str(seat + 1), TapStaff(seat), size=size)
    wide = row.move(0, height + m.pad)
    if desk is not None and wide.bottom <= strip.bottom:
        p.button(wide, say("tap next card"), TapDeckCard(desk), size=size)
