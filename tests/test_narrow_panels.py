"""A narrow seat panel's heading and buttons say whole words (issue 29: the largest tables).

A 7-seat table's panels are narrow: a heading cut at a word showed "3 ·…", the
seat's number and no letter of its member's nickname. Cut between letters it
shows some of the name ("3 · Wilhel…"); too narrow for even that, "Seat 3".
A button label too long for the narrow column ("next game") shows the short
form its screen gives it ("next"), not "next…".
"""

from __future__ import annotations

import pygame
import pytest

from controller.games.oss.table import short_button_label
from controller.games.words import Text, Verbatim, say
from controller.view import ButtonHint, Screen, SeatView, TableView
from controller.words import Presenter
from display import legibility, theme
from display.fitting import ELLIPSIS
from display.panel_parts import (
    BUTTON_COLUMN_SHARE,
    NAME_LETTERS_KEPT,
    button_grid,
    draw_button_grid,
    draw_buttons,
    draw_seat_name,
)
from display.theme import Fonts, Metrics, Painter
from hardware.events import Button
from tests.rigs import TableRig

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


# --- the seat's buttons ------------------------------------------------------------------


def button_texts(fonts: Fonts, buttons: list[ButtonHint], width: int) -> list[tuple[str, bool]]:
    """The labels a column ``width`` wide of ``buttons`` shows at 800x480, and which are cut."""
    p = Painter(pygame.Surface((800, 480)), fonts, Metrics.for_size((800, 480)))
    column = pygame.Rect(0, 0, width, 3 * p.metrics.hand_card)
    with legibility.recording() as drawing:
        draw_buttons(p, column, SeatView(0), buttons)
    return [(text.text, text.cut) for text in drawing.texts]


def test_a_button_too_narrow_for_its_label_shows_its_short_label(fonts: Fonts) -> None:
    long = [
        ButtonHint(0, Button.PREV, say("previous game"), say("previous")),
        ButtonHint(0, Button.OK, say("choose")),
        ButtonHint(0, Button.NEXT, say("next game"), say("next")),
    ]
    assert button_texts(fonts, long, 300) == [
        ("previous game", False),
        ("choose", False),
        ("next game", False),
    ]
    narrow = round(480 * BUTTON_COLUMN_SHARE)
    assert button_texts(fonts, long, narrow) == [
        ("previous", False),
        ("choose", False),
        ("next", False),
    ]
    # A label with no short form is cut as before, with "…" to say so.
    bare = [ButtonHint(hint.seat, hint.button, hint.label) for hint in long]
    assert button_texts(fonts, bare, narrow)[0] == ("previous…", True)


def test_the_menu_and_the_join_screen_give_their_long_labels_short_forms() -> None:
    rig = TableRig(4)
    with rig.devices:
        rig.loop.drain()
        rig.press(0, Button.OK)
        assert rig.screen() is Screen.CHOOSE_GAME
        shorts = {hint.button: hint.short for hint in rig.table.view.buttons if hint.seat == 0}
        assert shorts == {Button.PREV: say("previous"), Button.OK: None, Button.NEXT: say("next")}
        rig.press(0, Button.OK)
        assert rig.screen() is Screen.JOIN
        language = next(
            hint for hint in rig.table.view.buttons if hint.seat == 0 and hint.button == Button.PREV
        )
        assert isinstance(language.label, Text) and language.label.key == "language: {language}"
        assert language.short == say("{language}", **dict(language.label.args))


def test_oss_buttons_have_short_labels_that_keep_what_they_name() -> None:
    tap = say("tap for {trick}", trick=Verbatim("Nampan"))
    assert short_button_label(tap) == say("{trick}", trick=Verbatim("Nampan"))
    replay = say("replay (discard {value})", value=Verbatim("3"))
    assert short_button_label(replay) == say("discard {value}", value=Verbatim("3"))
    assert short_button_label(say("previous trick")) == say("previous")
    assert short_button_label(say("I won")) is None  # short enough as it is


BIDDING = [
    ButtonHint(0, Button.PREV, say("fewer")),
    ButtonHint(0, Button.OK, say("bid {n}", n=Verbatim("1"))),
    ButtonHint(0, Button.NEXT, say("more")),
]


def test_a_panel_too_narrow_beside_its_button_column_puts_its_buttons_in_rows(
    fonts: Fonts,
) -> None:
    """A 7-seat table turned a quarter: a panel 160 px along its edge at 800x480 kept a
    body 40 px wide beside its buttons, too narrow for any word ("Geb…", "Star…"). Its
    buttons go in rows at its foot instead, PREV and NEXT left and right of each other
    above OK, every label whole, and the body keeps the panel's width."""
    p = Painter(pygame.Surface((800, 480)), fonts, Metrics.for_size((800, 480)))
    column_w = round(480 * BUTTON_COLUMN_SHARE)
    narrow = pygame.Rect(0, 0, 136, 116)
    grid = button_grid(p, BIDDING, narrow, column_w)
    assert grid is not None
    assert grid.rows == [[0, 2], [1]]
    assert grid.area.bottom == narrow.bottom and grid.area.w == narrow.w
    assert narrow.h - grid.area.h >= 2 * p.metrics.line  # the body keeps two lines
    with legibility.recording() as drawing:
        draw_button_grid(p, grid, SeatView(0), BIDDING)
    assert [(t.text, t.cut) for t in drawing.texts] == [
        ("fewer", False),
        ("more", False),
        ("bid 1", False),
    ]
    fewer, more, bid = drawing.controls
    assert fewer.right < more.left and fewer.top == more.top < bid.top
    assert all(narrow.contains(control) for control in drawing.controls)
    # A panel wide enough for a body beside the column keeps the column.
    assert button_grid(p, BIDDING, pygame.Rect(0, 0, 311, 116), column_w) is None
    # So does one whose body would keep less than two lines above the rows.
    assert button_grid(p, BIDDING, pygame.Rect(0, 0, 136, 70), column_w) is None
