"""Oss's centre where it is short of room: every line whole (issue 29, "no text cut").

A real 2-seat table of bots is played to its first duel; turned a quarter at
800x480, the duel's instructions do not fit their box under the tricks.
They are paged, every line whole, a "1/2" beside their title, turning every
``CARD_PAGE_SECONDS`` on the display's own clock (a fake one here), so that every
line of the card comes round. The score table puts its headings over the figures
where the columns beside them would cut a figure, and the challenge buttons have
short labels for a narrow column.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pygame
import pytest

from controller.config.table_config import TableConfig
from controller.games.oss.actions import AttemptKind
from controller.games.oss.table import short_button_label
from controller.games.words import Text, say
from controller.kiosk.app import Kiosk
from controller.view import Screen, TableView
from display import legibility
from display.generic import draw_score_table
from display.renderer import Renderer
from display.scenes import oss as oss_scene
from display.theme import Metrics, Painter
from tests.test_display import GAMES, table_seats

SIZE = (800, 480)
#: Where the renderer's fake clock starts.
START = 100.0
PAGE = re.compile(r"^(\d+)/(\d+)$")


def first_duel() -> TableView:
    """A 2-seat table of bots at its first duel: the duel's instructions are shown."""
    with tempfile.TemporaryDirectory() as records:
        kiosk = Kiosk.create(
            TableConfig.simulated(2, bots=2), seed=11, auto_game="oss", records_dir=Path(records)
        )
        with kiosk.devices:
            kiosk.loop.drain()
            for _ in range(3000):
                view = kiosk.table.view
                if view.screen is Screen.PLAY and view.game is not None:
                    attempt = oss_scene.game_of(view.game).snapshot.current_attempt
                    if attempt is not None and attempt.kind is AttemptKind.DUEL:
                        return view
                if not kiosk.simulator.step(0.0):
                    break
                kiosk.loop.drain()
    raise AssertionError("the bots never came to a duel")


@pytest.fixture(scope="module")
def duel_focused() -> TableView:
    return first_duel()


def english(words: object) -> str:
    return words.english() if isinstance(words, Text) else str(words)


def frame_texts(renderer: Renderer, view: TableView) -> list[legibility.DrawnText]:
    renderer.invalidate()
    with legibility.recording() as drawing:
        renderer.draw(view)
    return list(drawing.texts)


def test_the_instructions_are_read_whole_as_their_pages_turn(duel_focused: TableView) -> None:
    game = duel_focused.game
    assert game is not None
    attempt = oss_scene.game_of(game).snapshot.current_attempt
    duel = oss_scene.game_of(game).snapshot.duel
    assert attempt is not None and duel is not None and duel.name == attempt.trick
    now = START
    renderer = Renderer(SIZE, rotation=90)
    renderer.clock = lambda: now
    pages: list[set[str]] = []
    markers: set[tuple[int, int]] = set()
    for turn in range(3):
        now = START + turn * oss_scene.CARD_PAGE_SECONDS
        texts = frame_texts(renderer, duel_focused)
        assert not [t.text for t in texts if t.cut]
        found = {
            (int(a), int(b))
            for t in texts
            if (match := PAGE.match(t.text))
            for a, b in [match.groups()]
        }
        markers |= found
        pages.append({t.text for t in texts})
    # Two pages in turn, the first again after the last.
    assert {(1, 2), (2, 2)} <= markers
    assert pages[0] == pages[2] != pages[1]
    seen = " ".join(" ".join(page) for page in pages)
    # What to do comes first; the card's set-up, last in the box, comes round whole.
    assert any(text.startswith("Do: ") for text in pages[0])
    last_word = english(duel.card.setup).split()[-1]
    assert last_word in seen


def test_a_still_picture_shows_the_first_page(duel_focused: TableView) -> None:
    """A screenshot (no clock) shows the first page and its count, never a cut line."""
    renderer = Renderer(SIZE, rotation=90)
    texts = frame_texts(renderer, duel_focused)
    counts = [t.text for t in texts if PAGE.match(t.text)]
    assert "1/2" in counts
    assert not [t.text for t in texts if t.cut]


def test_the_challenge_buttons_have_short_labels() -> None:
    assert short_button_label(say("I won it")) == say("won it")
    assert short_button_label(say("I am out")) == say("out")
    assert short_button_label(say("pass")) is None


def test_no_score_is_cut_where_the_columns_beside_the_headings_are_too_narrow() -> None:
    """The turned 6-seat Oss centre at 1920x1080 in Japanese: "得点" beside six columns
    left them narrower than "14"; its heading goes over the figures instead."""
    size = (1080, 1920)
    view = TableView(1, Screen.PLAY, table_seats(6, 6), games=GAMES)
    scores = [8, 4, 14, 14, 8, 15]
    renderer = Renderer(size)
    p = Painter(pygame.Surface(size), renderer.fonts, Metrics.for_size(size))
    with legibility.recording() as drawing:
        draw_score_table(p, pygame.Rect(0, 0, 316, 400), view, [("得点", scores)])
    drawn = [t.text for t in drawing.texts]
    assert not [t.text for t in drawing.texts if t.cut]
    assert sorted(t for t in drawn if t.isdigit() and int(t) in scores and len(t) == 2) == [
        "14",
        "14",
        "15",
    ]
