"""A seat panel's heading names its seat in any width (issue 29: the largest tables).

A 7-seat table's panels are narrow: a heading cut at a word showed "3 ·…", the
seat's number and no letter of its member's nickname. Cut between letters it
shows some of the name ("3 · Wilhel…"); too narrow for even that, "Seat 3".
"""

from __future__ import annotations

import pygame
import pytest

from controller.view import Screen, SeatView, TableView
from controller.words import Presenter
from display import legibility, theme
from display.fitting import ELLIPSIS
from display.panel_parts import NAME_LETTERS_KEPT, draw_seat_name
from display.theme import Fonts, Metrics, Painter

NAME = "Wilhelmina-Maximilia"


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    pygame.font.init()
    return Fonts()


def heading(fonts: Fonts, width: int, language: str = "en") -> legibility.DrawnText:
    """The one text the heading of seat 3 (index 2) draws into ``width``, at 800x480."""
    seat = SeatView(2, player=2)
    view = TableView(1, Screen.PLAY, (seat,), nicknames={2: NAME}, language=language)
    words = Presenter.for_view(view, 2)
    p = Painter(pygame.Surface((800, 480)), fonts, Metrics.for_size((800, 480)), words=words)
    with legibility.recording() as drawing:
        drawn = draw_seat_name(p, view, seat, (0, 20), theme.TEXT, width)
    assert len(drawing.texts) == 1
    text = drawing.texts[0]
    assert drawn.w <= width
    return text


@pytest.mark.parametrize("language", ("en", "de", "ja"))
def test_a_nickname_too_long_for_its_heading_is_cut_between_its_letters(
    fonts: Fonts, language: str
) -> None:
    text = heading(fonts, 120, language)
    assert text.cut and text.text.endswith(ELLIPSIS)
    kept = text.text.removesuffix(ELLIPSIS)
    assert kept.startswith("3")  # the seat's number tells alike names apart
    assert any(kept.endswith(NAME[:k]) for k in range(NAME_LETTERS_KEPT, len(NAME))), kept


def test_a_nickname_that_fits_is_shown_whole_without_a_number(fonts: Fonts) -> None:
    text = heading(fonts, 600)
    assert (text.text, text.cut) == (NAME, False)


def test_a_heading_with_no_room_for_a_few_letters_names_the_seat(fonts: Fonts) -> None:
    text = heading(fonts, 40)
    assert text.text == "Seat 3"
    assert not text.cut
