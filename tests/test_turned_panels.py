"""Seat panels drawn already turned look as if drawn upright and then turned.

A panel is drawn through a painter that turns every rectangle, point and
picture onto the canvas (``display.layout.Turn``), instead of being drawn
upright and turned pixel by pixel. These tests draw every panel of real views
both ways, at every side of the table, and compare the pictures and the hit
boxes. pygame's outlined rounded rectangles are not exactly symmetric under a
quarter turn (a corner pixel or two can differ), so a handful of differing
pixels is allowed; a panel drawn in the wrong place or the wrong way round
differs in thousands.

The screen's mounting turn is folded into the same painters' turns
(``Turn.then``, ``Renderer.mount``): a turned screen is drawn turned, and must
be pixel for pixel the upright screen turned whole, as it was drawn before.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.view import TableView
from controller.words import Presenter
from display import scenes
from display.layout import (
    ROTATIONS,
    Turn,
    compute_layout,
    default_sides,
    rotate_rect,
    rotated_size,
    turn_surface,
)
from display.renderer import Renderer
from display.theme import Fonts, Metrics, Painter
from tests.test_display import every_screen

# At most this share of a panel's pixels may differ (the rounded corners' few pixels).
ALLOWED = 0.002


def game_views(game: str, seats: int, steps: int) -> Iterator[TableView]:
    """Views of a real table whose bots walk the menus and play, every few gestures."""
    kiosk = Kiosk.create(TableConfig.simulated(seats, bots=seats), seed=7, auto_game=game)
    with kiosk.devices:
        kiosk.loop.drain()
        for step in range(steps):
            if step % 7 == 0:
                yield kiosk.table.view
            if not kiosk.simulator.step(0.0):
                break
            kiosk.loop.drain()
        yield kiosk.table.view


def compare_panels(view: TableView, size: tuple[int, int], fonts: Fonts) -> list[str]:
    """Every panel of ``view`` drawn turned and upright-then-turned; the differences found."""
    layout = compute_layout(size, default_sides(len(view.seats)), bool(view.human_seats))
    metrics = Metrics.for_size(size)
    canvas = pygame.Surface(size)
    problems = []
    for slot in layout.slots:
        if slot.seat_index >= len(view.seats):
            continue
        seat = view.seats[slot.seat_index]
        hits = scenes.paint_panel(canvas, fonts, metrics, slot, view, seat).hits
        upright = pygame.Surface(slot.local_size)
        p = Painter(upright, fonts, metrics, words=Presenter.for_view(view, seat.seat))
        scenes._draw_upright(p, view, seat)
        expected = turn_surface(upright, slot.rotation)
        drawn = canvas.subsurface(slot.rect)
        assert expected.get_size() == drawn.get_size()
        differing = (
            sum(
                1
                for x in range(drawn.get_width())
                for y in range(drawn.get_height())
                if drawn.get_at((x, y)) != expected.get_at((x, y))
            )
            if pygame.image.tobytes(drawn, "RGB") != pygame.image.tobytes(expected, "RGB")
            else 0
        )
        share = differing / (slot.rect.w * slot.rect.h)
        if share > ALLOWED:
            problems.append(f"{view.screen} seat {seat.seat} at {slot.rotation}: {differing} px")
        turned_hits = [
            (rotate_rect(rect, slot.local_size, slot.rotation).move(slot.rect.topleft), action)
            for rect, action in p.hits
        ]
        if hits != turned_hits:
            problems.append(f"{view.screen} seat {seat.seat} at {slot.rotation}: hit boxes differ")
    return problems


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_every_screens_panels_drawn_turned_match_panels_turned_after(
    size: tuple[int, int],
) -> None:
    fonts = Fonts()
    problems = [p for view in every_screen() for p in compare_panels(view, size, fonts)]
    assert problems == []


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("oshaka-trick", 4),
        ("oh-pshaw", 7),
        pytest.param("oskar", 5, marks=pytest.mark.slow),  # 10 s on 2 busy cores
        ("oss", 3),
    ],
)
def test_each_games_panels_drawn_turned_match_panels_turned_after(game: str, seats: int) -> None:
    fonts = Fonts()
    problems = []
    views = 0
    for view in game_views(game, seats, 60):
        views += 1
        problems += compare_panels(view, (1280, 720), fonts)
    assert views >= 5
    assert problems == []


# Correctness, not speed: a loaded machine (four test workers on two cores) once failed
# a run on Hypothesis's timing checks alone.
UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@UNTIMED
@given(
    rotation=st.sampled_from(ROTATIONS),
    size=st.tuples(st.integers(1, 400), st.integers(1, 400)),
    origin=st.tuples(st.integers(-50, 500), st.integers(-50, 500)),
    rect=st.tuples(
        st.integers(-20, 420), st.integers(-20, 420), st.integers(0, 300), st.integers(0, 300)
    ),
)
def test_a_turns_rectangle_is_where_turning_the_whole_surface_puts_it(
    rotation: int,
    size: tuple[int, int],
    origin: tuple[int, int],
    rect: tuple[int, int, int, int],
) -> None:
    turned = Turn(rotation, size, origin).rect(pygame.Rect(rect))
    assert turned == rotate_rect(pygame.Rect(rect), size, rotation).move(origin)


def test_a_turn_refuses_anything_but_a_quarter_turn() -> None:
    with pytest.raises(ValueError, match="rotation must be one of"):
        Turn(45, (10, 10))


def test_a_turned_circle_covers_the_pixels_the_turned_surface_shows() -> None:
    """pygame's circle about (x, y) covers x - r .. x + r - 1: its middle is a grid point."""
    upright = pygame.Surface((40, 30))
    pygame.draw.circle(upright, (255, 255, 255), (12, 9), 5)
    for rotation in ROTATIONS:
        turn = Turn(rotation, (40, 30), (3, 4))
        canvas = pygame.Surface((60, 60))
        pygame.draw.circle(canvas, (255, 255, 255), turn.point((12, 9)), 5)
        expected = pygame.Surface((60, 60))
        expected.blit(turn_surface(upright, rotation), (3, 4))
        assert pygame.image.tobytes(canvas, "RGB") == pygame.image.tobytes(expected, "RGB")


# --- the screen's mounting turn, folded into the painters' -------------------------------


@UNTIMED
@given(
    inner=st.sampled_from(ROTATIONS),
    outer=st.sampled_from(ROTATIONS),
    size=st.tuples(st.integers(1, 300), st.integers(1, 300)),
    canvas=st.tuples(st.integers(300, 700), st.integers(300, 700)),
    origin=st.tuples(st.integers(0, 300), st.integers(0, 300)),
    rect=st.tuples(
        st.integers(-20, 320), st.integers(-20, 320), st.integers(0, 300), st.integers(0, 300)
    ),
    point=st.tuples(st.integers(-20, 320), st.integers(-20, 320)),
)
def test_a_turn_then_the_mount_lands_where_the_two_turns_one_after_the_other_do(
    inner: int,
    outer: int,
    size: tuple[int, int],
    canvas: tuple[int, int],
    origin: tuple[int, int],
    rect: tuple[int, int, int, int],
    point: tuple[int, int],
) -> None:
    first = Turn(inner, size, origin)
    mount = Turn(outer, canvas, mount=outer)
    both = first.then(mount)
    assert both.rect(pygame.Rect(rect)) == mount.rect(first.rect(pygame.Rect(rect)))
    assert both.point(point) == mount.point(first.point(point))
    assert both.mount == outer


@pytest.mark.parametrize("rotation", [90, 270])
def test_a_ring_drawn_through_a_mounted_turn_is_the_upright_ring_turned(rotation: int) -> None:
    """pygame's ring (a circle's outline) differs under a quarter turn: the painter draws
    it as the unturned picture had it and turns that, so a turned screen keeps its pixels."""
    size, fonts, colour, centre = (60, 40), Fonts(), (200, 220, 90), (23, 17)
    metrics = Metrics.for_size(size)
    upright = pygame.Surface(size)
    Painter(upright, fonts, metrics).circle(colour, centre, 11, 3)
    expected = pygame.image.tobytes(turn_surface(upright, rotation), "RGB")
    turned = pygame.Surface(rotated_size(size, rotation))
    mount = Turn(rotation, size, mount=rotation)
    Painter(turned, fonts, metrics, turn=mount).circle(colour, centre, 11, 3)
    assert pygame.image.tobytes(turned, "RGB") == expected
    # Drawn by pygame where it lands, this ring would differ (why the painter does not).
    direct = pygame.Surface(rotated_size(size, rotation))
    pygame.draw.circle(direct, colour, mount.point(centre), 11, 3)
    assert pygame.image.tobytes(direct, "RGB") != expected


@pytest.mark.parametrize(
    ("size", "game"),
    [
        ((800, 480), None),
        # Oskar's centre draws rings, which pygame draws differently turned a quarter.
        ((1280, 720), "oskar"),
    ],
)
def test_a_turned_screen_is_the_upright_screen_turned_whole_pixel_for_pixel(
    size: tuple[int, int], game: str | None
) -> None:
    views = list(every_screen()) if game is None else list(game_views(game, 5, 30))
    for rotation in (90, 180, 270):
        turned = Renderer(size, rotation)
        upright = Renderer(rotated_size(size, rotation))
        turned.clock = upright.clock = lambda: 100.0
        for view in views:  # one after another: parts drawn again as well as whole frames
            turned.draw(view)
            upright.draw(view)
            expected = turn_surface(upright.surface, rotation)
            where = f"{view.screen} at {rotation}"
            assert pygame.image.tobytes(turned.surface, "RGB") == pygame.image.tobytes(
                expected, "RGB"
            ), where
            assert turned.hit_boxes == upright.hit_boxes, where
            assert turned.dirty_rects == [
                turned.window_rect(rect) for rect in upright.dirty_rects
            ], where
