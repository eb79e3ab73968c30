"""The display's own words (domain "display"): complete catalogs, seats named for people."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.games.words import Text
from controller.view import Screen, SeatView, TableView
from controller.view.seat_colours import seat_colour
from controller.words import Presenter
from controller.words.catalogs import TRANSLATED, domains
from controller.words.extract import missing
from display.generic import player_name, seat_colour_of, seat_label, seat_words

DISPLAY = next(d for d in domains() if d.name == "display")


def test_german_and_japanese_have_every_display_key_translated() -> None:
    for language in TRANSLATED:
        assert list(missing(DISPLAY, language)) == [], language


def test_seats_are_counted_from_one_or_named_by_their_nickname_in_each_language() -> None:
    seats = (SeatView(0, player=1, label="Seat 0"), SeatView(2, player=0))
    view = TableView(1, Screen.PLAY, seats, nicknames={2: "Mira"})
    english, german, japanese = (
        Presenter.for_view(view).in_language(x) for x in ("en", "de", "ja")
    )
    assert english(seat_label(seats[0])) == "Seat 1"  # the table's 0-based str label is not shown
    assert german(seat_words(view, seats[0])) == "Platz 1"
    assert japanese(seat_words(view, seats[0])) == "1番席"
    assert english(player_name(view, 0)) == "Mira"  # engine player 0 sits at seat 2
    assert isinstance(player_name(view, 1), Text)


def test_a_seat_without_a_colour_in_its_view_takes_its_led_colour() -> None:
    assert seat_colour_of(SeatView(3)) == seat_colour(3)
    assert seat_colour_of(SeatView(3, colour=(1, 2, 3))) == (1, 2, 3)


def test_each_panel_edge_and_joined_chip_show_the_seats_colour() -> None:
    from display.layout import compute_layout, default_sides
    from display.renderer import Renderer

    seats = tuple(SeatView(s, joined=True, colour=seat_colour(s)) for s in range(4))
    view = TableView(1, Screen.JOIN, seats)
    surface = Renderer((800, 480)).render(view)
    layout = compute_layout((800, 480), default_sides(4))
    bottom = next(slot for slot in layout.slots if slot.seat_index == 0)
    # The frame sits half a pad inside the panel; its edge is a few pixels wide.
    assert tuple(surface.get_at((bottom.rect.left + 4, bottom.rect.centery)))[:3] == seat_colour(0)
    top = next(slot for slot in layout.slots if slot.seat_index == 2)
    assert tuple(surface.get_at((top.rect.right - 5, top.rect.centery)))[:3] == seat_colour(2)


def test_without_the_noto_fonts_one_error_line_and_english_still_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import pygame

    from display import theme

    monkeypatch.setattr(theme.Fonts, "_warned", False)
    gone = {False: (tmp_path / "NotoSans-Regular.ttf",), True: (tmp_path / "NotoSans-Bold.ttf",)}
    with caplog.at_level("ERROR", logger="display.theme"):
        fonts = theme.Fonts(gone)
        theme.Fonts(gone)  # a second renderer says nothing more
    assert fonts.fallback
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "fonts-noto-core fonts-noto-cjk" in errors[0]
    face = fonts.get(20)
    assert face.size("Press OK at your seat to join")[0] > 0 and face.missing("Press OK") == ""
    painter = theme.Painter(pygame.Surface((200, 40)), fonts, theme.Metrics.for_size((800, 480)))
    drawn = painter.text("Press OK at your seat to join", (0, 0), 20, max_width=200)
    assert 0 < drawn.w <= 200
