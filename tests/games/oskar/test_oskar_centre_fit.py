"""Oskar's crowded centre draws what a player reads whole, never cut with "…" (issue 29).

A 6-seat table leaves the centre small (800x480 upright: a strip 106 px tall) or
narrow (turned a quarter: a column 140 px wide). There the genre columns are
narrower than "128", the status "Seat 4 decides the doubles, then Seat 1 rerolls"
needs more than two lines, and a message as long as "Seat 1 plays a zero: first
zero, colours lapse" has no room for its lines: the figures go on two staggered
rows, the status takes the lines it needs, and a message that would be cut is left
out (what it says stands in the stock's row, the roll's row or on the buttons).
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pygame
import pytest

from controller.games.oskar.engine import Oskar
from controller.games.oskar.snapshot import GenreColumn, OskarSnapshot
from controller.games.words import Verbatim, say
from controller.view import Message, MessageKind, Screen, TableView
from display import legibility
from display.fitting import ELLIPSIS
from display.scenes.oskar import OskarScene
from display.theme import Fonts, Metrics, Painter
from tests.games.oskar.test_table_oskar import started

TURNED = (480, 800)  # an 800x480 screen turned a quarter: the canvas the scene draws on


@pytest.fixture(scope="module")
def painter() -> Painter:
    pygame.font.init()
    return Painter(pygame.Surface(TURNED), Fonts(), Metrics.for_size(TURNED))


def with_points(points: tuple[int, ...]) -> OskarSnapshot:
    """A fresh 6-seat game's snapshot whose genre columns hold ``points``."""
    snap = Oskar(6, 0).snapshot()
    threshold = snap.trend_threshold
    columns = tuple(
        GenreColumn(column.genre, total, max(0, threshold - total), total >= threshold)
        for column, total in zip(snap.columns, points, strict=True)
    )
    return replace(snap, columns=columns)


def test_points_wider_than_their_column_stand_whole_on_two_rows(painter: Painter) -> None:
    points = (128, 0, 152, 56, 214, 0)
    snap = with_points(points)
    chart = pygame.Rect(0, 0, 120, 150)  # about a 6-seat centre's width, turned a quarter
    assert painter.measure("214", painter.metrics.small, True) > chart.w // len(points)
    with legibility.recording() as drawing:
        OskarScene()._draw_columns(painter, chart, snap, caption=False)
    assert not [t.text for t in drawing.texts if t.cut or t.clipped]
    figures = [t for t in drawing.texts if t.text in {str(p) for p in points}]
    figures.sort(key=lambda t: t.rect.centerx)
    assert [t.text for t in figures] == [str(p) for p in points]
    for left, right in itertools.pairwise(figures):
        assert not left.rect.colliderect(right.rect), (left.text, right.text)
    # Every other column's figure on the upper row.
    assert len({t.rect.top for t in figures[::2]} | {t.rect.top for t in figures[1::2]}) == 2


def test_a_wide_chart_keeps_each_figure_over_its_column(painter: Painter) -> None:
    snap = with_points((128, 0, 152, 56, 214, 0))
    with legibility.recording() as drawing:
        OskarScene()._draw_columns(painter, pygame.Rect(0, 0, 460, 200), snap, caption=False)
    zeros = [t for t in drawing.texts if t.text == "0"]
    tall = next(t for t in drawing.texts if t.text == "214")
    assert len(zeros) == 2 and zeros[0].rect.top == zeros[1].rect.top
    assert tall.rect.top < zeros[0].rect.top  # over its taller column, not on a row of figures


def test_a_narrow_centre_gives_the_status_its_lines(painter: Painter) -> None:
    status = say("{x}", x=Verbatim("Wilhelmina-Maxi4 decides the doubles, then the others roll"))
    snap = Oskar(6, 0).snapshot()
    info = pygame.Rect(0, 0, 140, 200)
    with legibility.recording() as drawing:
        bottom = OskarScene._small_heading(painter, info, snap, False, status, (255, 200, 40))
    lines = [t for t in drawing.texts if t.text != "Round 1"]
    assert not [t.text for t in drawing.texts if t.cut or t.clipped]
    assert len(lines) > 2
    assert " ".join(t.text for t in lines) == painter.words(status)
    assert bottom >= lines[-1].rect.bottom


LONG = (
    "Someone plays a zero: first zero, colours lapse; the second zero of this"
    " trick takes it and the stock"
)


def test_a_message_is_shown_in_a_box_only_where_it_shows_whole(painter: Painter) -> None:
    long = Message(say("{x}", x=Verbatim(LONG)), MessageKind.INFO)
    short = Message(say("{x}", x=Verbatim("Maxi0 rolled")), MessageKind.INFO)
    view = TableView(version=1, screen=Screen.PLAY, seats=(), messages=(short, long))
    box = (260, 2 * painter.metrics.leading(painter.metrics.small) + painter.metrics.pad)
    assert not OskarScene._newest_shows_whole(painter, view, *box)
    assert OskarScene._newest_shows_whole(painter, replace(view, messages=(long, short)), *box)
    assert OskarScene._newest_shows_whole(painter, replace(view, messages=()), *box)


@pytest.mark.parametrize("height", [96, 106, 116])
def test_a_small_centre_leaves_out_a_message_it_would_cut(height: int) -> None:
    """A 6-seat table's centre at 800x480 upright (460 x 106 px), a little shorter and
    taller: the chart has no room, the messages a line or two."""
    pygame.font.init()
    painter = Painter(pygame.Surface((800, 480)), Fonts(), Metrics.for_size((800, 480)))
    rig = started(seats=6)
    try:
        view = rig.table.view
        message = Message(say("{x}", x=Verbatim(LONG)), MessageKind.INFO)
        # Long nicknames: the status takes a line of its own under the round.
        names = {seat: f"Wilhelmina-Maxi{seat}" for seat in range(6)}
        shown = replace(view, messages=(message,), nicknames=names)
        with legibility.recording() as drawing:
            OskarScene().draw_centre(painter, pygame.Rect(170, 170, 460, height), shown, {})
    finally:
        rig.devices.__exit__(None, None, None)
    assert [t.text for t in drawing.texts if t.text.startswith("Wilhelmina-Maxi")]  # the status
    assert not [t.text for t in drawing.texts if t.text.startswith(LONG[:10])]
    assert not [t.text for t in drawing.texts if t.cut or t.text.endswith(ELLIPSIS)]
