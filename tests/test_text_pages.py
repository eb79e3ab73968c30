"""Text too long for its space shows whole in pages that turn, never cut with "…".

A centre's message too long for its information column (``generic.draw_messages``)
and lines too many for their box (``screen_parts.centred_lines``, the halted screen's
explanation) turn pages on the display's clock with which page shows ("1/2"): every
word comes round in turn (issue 29's "pages ... with a visible position").
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pygame
import pytest

from controller.games.words import Words, say
from controller.view import Message, Screen, TableView
from display import legibility
from display.generic import MESSAGE_PAGE_SECONDS, draw_messages
from display.legibility import Drawing
from display.motion import Motion
from display.renderer import Renderer
from display.screen_parts import LINES_PAGE_SECONDS, centred_lines
from display.theme import TEXT, Metrics, Painter

LONG = say(
    "Nobody answered, so the table drew lots: Seat 3 leads the first trick, and the "
    "others follow in turn, clockwise round the table"
)
PAGE_MARK = re.compile(r"^(\d+)/(\d+)$")


def painter(motion: Motion, size: tuple[int, int] = (800, 480)) -> Painter:
    surface = pygame.Surface(size)
    return Painter(surface, Renderer(size).fonts, Metrics.for_size(size), motion=motion)


def pages_drawn(
    draw: Callable[[Painter], None], seconds: float
) -> tuple[list[list[str]], list[tuple[int, int]]]:
    """The words each page showed and its mark, drawing a frame a page's time apart."""
    motion = Motion()
    texts: list[list[str]] = []
    marks: list[tuple[int, int]] = []
    for turn in range(8):
        motion.begin(turn * seconds + 0.01, "pages")
        p = painter(motion)
        with legibility.recording() as drawing:
            draw(p)
        motion.end()
        assert not any(text.cut for text in drawing.texts), uncut(drawing)
        words, mark = split_mark(drawing)
        texts.append(words)
        marks.append(mark)
        if mark[0] == mark[1]:
            break
    return texts, marks


def uncut(drawing: Drawing) -> list[str]:
    return [text.text for text in drawing.texts if text.cut]


def split_mark(drawing: Drawing) -> tuple[list[str], tuple[int, int]]:
    """The lines drawn, and the page mark ("2/3") among them."""
    lines: list[str] = []
    mark = (0, 0)
    for text in drawing.texts:
        found = PAGE_MARK.match(text.text)
        if found:
            mark = (int(found[1]), int(found[2]))
        else:
            lines.append(text.text)
    return lines, mark


def whole(words: Words, p: Painter) -> str:
    return " ".join(p.words(words).split())


def assert_whole_in_pages(draw: Callable[[Painter], None], seconds: float) -> None:
    """``draw`` shows ``LONG`` in more than one page, each in turn with its mark ("2/3"),
    and the pages together say every word of it."""
    texts, marks = pages_drawn(draw, seconds)
    count = marks[0][1]
    assert count > 1
    assert marks == [(page, count) for page in range(1, count + 1)]
    said = " ".join(line for page in texts for line in page)
    assert " ".join(said.split()) == whole(LONG, painter(Motion()))


def test_a_message_too_long_for_its_space_shows_whole_in_turning_pages() -> None:
    view = TableView(1, Screen.PLAY, (), messages=(Message(LONG),))
    space = pygame.Rect(0, 0, 230, 30)  # one line: 800x480's information column

    def draw(p: Painter) -> None:
        draw_messages(p, space, view)

    assert_whole_in_pages(draw, MESSAGE_PAGE_SECONDS)


def test_a_message_that_fits_has_no_pages() -> None:
    view = TableView(1, Screen.PLAY, (), messages=(Message(say("Seat 3 leads")),))
    p = painter(Motion())
    with legibility.recording() as drawing:
        draw_messages(p, pygame.Rect(0, 0, 230, 30), view)
    lines, mark = split_mark(drawing)
    assert mark == (0, 0) and lines == ["Seat 3 leads"]


@pytest.mark.parametrize("rect", [pygame.Rect(0, 0, 440, 70), pygame.Rect(0, 0, 200, 200)])
def test_lines_too_many_for_their_box_show_whole_in_turning_pages(rect: pygame.Rect) -> None:
    def draw(p: Painter) -> None:
        centred_lines(p, rect, [(LONG, TEXT, p.metrics.big, True)])

    assert_whole_in_pages(draw, LINES_PAGE_SECONDS)
