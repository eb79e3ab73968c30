"""Figures of a narrow seat panel set in rows, each whole (issue 29: the largest tables).

A 6- or 7-seat table's panels are narrow: "3 tokens · 56 points" on one line was
cut to "3 tokens · 56…", and a line of chips' figures to "Bid? 0  Ge…".
``line_or_rows`` keeps the line where it fits and otherwise sets its pieces in
rows; ``pieces_in_rows`` leaves out a piece with no row left rather than cut it.
"""

from __future__ import annotations

import pygame
import pytest

from controller.games.words import Verbatim, say
from display import legibility, theme
from display.screen_parts import line_or_rows, line_or_rows_height, pieces_in_rows
from display.theme import Fonts, Metrics, Painter

LINE = say("{x}", x=Verbatim("3 tokens · 56 points"))
PIECES = [say("{x}", x=Verbatim("3 tokens")), say("{x}", x=Verbatim("56 points"))]


@pytest.fixture(scope="module")
def painter() -> Painter:
    pygame.font.init()
    return Painter(pygame.Surface((800, 480)), Fonts(), Metrics.for_size((800, 480)))


def drawn(painter: Painter, rect: pygame.Rect) -> list[legibility.DrawnText]:
    with legibility.recording() as drawing:
        line_or_rows(painter, rect, LINE, PIECES, painter.metrics.body, theme.TEXT, bold=True)
    return drawing.texts


def test_the_line_stands_whole_where_it_fits(painter: Painter) -> None:
    texts = drawn(painter, pygame.Rect(0, 0, 400, 200))
    assert [(t.text, t.cut) for t in texts] == [("3 tokens · 56 points", False)]


def test_a_narrow_box_takes_the_pieces_in_rows_each_whole(painter: Painter) -> None:
    width = painter.measure("56 points", painter.metrics.body, True) + 4
    texts = drawn(painter, pygame.Rect(0, 0, width, 200))
    assert [(t.text, t.cut) for t in texts] == [("3 tokens", False), ("56 points", False)]
    assert texts[1].rect.top > texts[0].rect.bottom - 2  # one under the other
    height = line_or_rows_height(painter, width, LINE, PIECES, painter.metrics.body, bold=True)
    assert height == 2 * painter.metrics.leading(painter.metrics.body)


def test_a_piece_with_no_row_left_is_left_out_not_cut(painter: Painter) -> None:
    size = painter.metrics.small
    pieces = [(say("{x}", x=Verbatim(word)), theme.TEXT) for word in ("Bid? 0", "Total 41")]
    width = painter.measure("Total 41", size, True) + 4
    with legibility.recording() as drawing:
        pieces_in_rows(
            painter, pygame.Rect(0, 0, width, painter.metrics.leading(size)), pieces, size
        )
    assert [(t.text, t.cut) for t in drawing.texts] == [("Bid? 0", False)]
