"""The kinds of text box the display draws, with their sizes at a given screen size.

The fit test (tests/test_text_fit.py) fits every message of every language
into each of these boxes and fails when one overflows, is cut mid-word or
lacks a glyph. The sizes follow the scenes' own arithmetic (``display/scenes/__init__.py``
and the screens' modules it dispatches to, ``display/generic.py``) for the
tightest case: a table of seven seats, whose panels are the narrowest, with a
column of seat buttons beside the panel body. A new kind of box the scenes
draw belongs here too.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display.generic import split_centre
from display.layout import compute_layout, default_sides
from display.panel_parts import BUTTON_COLUMN_SHARE
from display.theme import Metrics

RESOLUTIONS: tuple[tuple[int, int], ...] = ((800, 480), (1280, 720), (1920, 1080))
SEATS = 7  # the most seats a table has: the narrowest panels


@dataclass(frozen=True)
class TextBox:
    """One kind of text box: its room, the text size it asks for, and how many lines it takes."""

    name: str
    width: int
    height: int
    size: int
    bold: bool = False
    max_lines: int = 0  # 0: as many as the height holds


def text_boxes(size: tuple[int, int], seats: int = SEATS) -> tuple[TextBox, ...]:
    """The display's kinds of text box on a ``size`` screen of ``seats`` seats."""
    m = Metrics.for_size(size)
    pad = m.pad
    layout = compute_layout(size, default_sides(seats))
    width, height = min((slot.local_size for slot in layout.slots), key=lambda s: s[0] * s[1])
    # scenes._draw_upright: the frame, its widest edge (the turn highlight), the header.
    edge = max(3, pad)
    inner = (
        pygame.Rect(0, 0, width, height)
        .inflate(-pad, -pad)
        .inflate(-2 * pad - edge, -2 * pad - edge)
    )
    header_h = round(m.body * 0.95)
    column_w = round(m.unit * BUTTON_COLUMN_SHARE)
    below_w = inner.w - column_w - pad
    below_h = inner.h - header_h - pad - m.line - pad
    button = pygame.Rect(0, 0, column_w, m.hand_card)
    label = button.inflate(-2 * pad, -max(2, button.h // 14) * 2)
    # scenes.draw_centre: the centre inside its margins; generic.split_centre's info column.
    centre = layout.centre.inflate(-4 * pad, -4 * pad)
    _, info = split_centre(centre, pad)
    # screen_parts.menu_rows: a row of a menu; menu_screens.help_body: a rules page's type.
    row_w = min(centre.w, round(m.unit * 0.9))
    row_h = max(m.small + 4, round(m.body * 2.0))
    help_size = m.small
    return (
        TextBox("seat-panel turn bar", inner.w - 2 * pad, header_h, m.body, True, 1),
        TextBox("seat-panel message line", below_w, m.line, m.small, False, 1),
        TextBox("seat-panel body line", below_w, max(m.leading(m.body), below_h), m.body, True),
        TextBox("button label", label.w, label.h, m.small, True, 2),
        TextBox("centre title", centre.w, m.leading(m.big), m.big, True, 1),
        TextBox("centre status", info.w, 2 * m.leading(m.body), m.body, True, 2),
        TextBox("menu row", round(row_w * 0.62), row_h, m.body, False, 1),
        TextBox("results rule line", centre.w, 3 * m.leading(m.small), m.small, False, 3),
        TextBox("help line", below_w - round(help_size * 0.6), below_h, help_size),
    )
