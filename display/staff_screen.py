"""The staff screens: the staff desk (its centre and every seat's body), and staff mode.

The desk takes the centre with its menu, a task's prompt and latest results,
or a table of cells (the game history); every seat's panel says staff are at
work. Staff mode over a game is an overlay on the staff seat's panel
(``draw_staff_overlay``), in ``STAFF_COLOUR``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from controller.games.words import Words, say
from controller.view import SeatView, StaffView, TableView
from display import theme
from display.generic import wrapped_if_cut
from display.layout import Layout
from display.screen_parts import centred_lines, menu_rows
from display.theme import Painter

STAFF_COLOUR = (255, 96, 200)  # staff mode: a colour no game uses for a seat


def staff_body(p: Painter, rect: pygame.Rect, view: TableView, seat: SeatView) -> None:
    at_desk = view.staff is not None and view.staff.seat == seat.seat
    text = say("Staff desk: use your buttons") if at_desk else say("Staff at work: one moment")
    centred_lines(p, rect, [(text, theme.TEXT_DIM, p.metrics.body, at_desk)])


def _cells_table(p: Painter, rect: pygame.Rect, rows: Sequence[tuple[str, ...]]) -> None:
    """Rows of cells in columns, the first row (the column names) on top and dimmed; when
    not every row fits, the names and the last rows. Type shrinks to fit the widest row."""
    m = p.metrics
    gap = 2 * m.pad
    names, body = rows[0], rows[1:]
    size = m.small
    while True:
        line = m.leading(size)
        shown = body[-max(0, rect.h // line - 1) :] if rect.h // line > 1 else ()
        widths = [
            max(p.measure(row[i], size, row is names) for row in (names, *shown) if i < len(row))
            for i in range(len(names))
        ]
        if sum(widths) + gap * (len(widths) - 1) <= rect.w or size <= round(m.small * 0.7):
            break
        size -= 1
    y = rect.top
    for index, row in enumerate((names, *shown)):
        x = rect.left
        for cell, width in zip(row, widths, strict=False):
            p.text(
                cell,
                (x, y),
                size,
                theme.TEXT_DIM if index == 0 else theme.TEXT,
                bold=index == 0,
                max_width=max(1, min(width, rect.right - x)),
            )
            x += width + gap
        y += m.leading(size)


def staff_centre(p: Painter, rect: pygame.Rect, layout: Layout, view: TableView) -> None:
    m = p.metrics
    desk = view.staff
    if desk is None:
        return
    head = wrapped_if_cut(p, desk.title, rect, rect.top, m.big, theme.TEXT, bold=True)
    y = head.bottom + m.pad
    if desk.prompt:
        prompt = wrapped_if_cut(p, desk.prompt, rect, y, m.body, theme.TURN, bold=True)
        y = prompt.bottom + m.pad
    hint_h = m.small + m.pad if desk.hint else 0
    if desk.options:
        rows = [(label, "") for label in desk.options]
        menu_rows(p, rect, y, rect.bottom - hint_h - m.small, rows, desk.selected)
    elif desk.table:
        area = pygame.Rect(rect.left + m.pad, y, rect.w - 2 * m.pad, rect.bottom - hint_h - y)
        _cells_table(p, area, desk.table)
    else:
        line_h = m.leading(m.small)
        fits = max(0, (rect.bottom - hint_h - y) // line_h)
        for line in desk.lines[-fits:] if fits else ():
            p.text(line, (rect.left + m.pad, y), m.small, theme.TEXT, max_width=rect.w - m.pad * 2)
            y += line_h
    if desk.hint:
        p.text(
            desk.hint,
            (rect.centerx, rect.bottom),
            m.small,
            theme.TEXT_DIM,
            anchor="midbottom",
            max_width=rect.w,
        )


def draw_staff_overlay(p: Painter, rect: pygame.Rect, staff: StaffView) -> None:
    """Staff mode over the seat's game: a loud STAFF banner and what each button does now.

    Drawn over the hand and the body so nobody mistakes the seat's buttons for
    a player's while staff mode is open.
    """
    m = p.metrics
    p.box(rect, theme.blend(theme.PANEL, STAFF_COLOUR, 0.25), STAFF_COLOUR, max(3, m.pad))
    inner = rect.inflate(-2 * m.pad, -2 * m.pad)
    # Most needed first: what is asked, then what the buttons do, then the hint. What
    # does not fit the panel is left out from the end (the buttons carry their labels),
    # never drawn smaller.
    lines: list[tuple[Words, theme.Colour, int, bool]] = [
        (staff.title, STAFF_COLOUR, m.body, True),
        (staff.prompt, theme.TEXT, m.body, True),
    ]
    lines += [(line, theme.TEXT, m.big, True) for line in staff.lines]
    lines += [(option, theme.TEXT, m.small, False) for option in staff.options]
    if staff.hint:
        lines.append((staff.hint, theme.TEXT_DIM, m.small, False))
    while len(lines) > 2 and _lines_height(p, inner, lines) > inner.h:
        lines.pop()
    with p.clip(rect):
        centred_lines(p, inner, lines)


def _lines_height(
    p: Painter, rect: pygame.Rect, lines: list[tuple[Words, theme.Colour, int, bool]]
) -> int:
    """How tall ``centred_lines`` draws ``lines`` wrapped to ``rect``'s width."""
    return sum(
        len(p.wrap(text, size, rect.w, bold)) * p.metrics.leading(size)
        for text, _, size, bold in lines
    )
