"""The painting shortcuts of ``display.theme`` give the same pixels as plain drawing.

A large box's rounded edge is painted from a kept recipe of fills and corner
pictures (``EdgeRecipe``) instead of pygame's thick lines, for speed only
(issue 30's drawing targets): every pixel must be the one plain drawing gives,
wherever the box sits, whatever the clip, turned or not, and on whole frames of
every screen. What cards show (their faces, the width their ranks need) is
remembered, not worked out again each frame.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest

from controller.games import deck_of_card
from controller.games.cards import CardFace
from controller.view import TableView
from controller.words import Presenter
from display.layout import Turn
from display.renderer import Renderer
from display.theme import (
    DRAWN,
    EDGE_LIMIT,
    EdgeRecipe,
    Fonts,
    Metrics,
    Painter,
    edge_recipe,
)
from tests.test_display import attract_view, choose_view, join_view, play_view, results_view

SIZE = (640, 360)
BACKGROUND = (12, 90, 40)


def canvas() -> pygame.Surface:
    surface = pygame.Surface(SIZE)
    surface.fill(BACKGROUND)
    return surface


def same(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def painter(surface: pygame.Surface, fonts: Fonts, turn: Turn | None = None) -> Painter:
    return Painter(surface, fonts, Metrics.for_size(SIZE), turn=turn or Turn())


# --- large rounded edges from recipes ----------------------------------------------------


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize(
    ("rect", "fill", "width", "radius"),
    [
        (pygame.Rect(7, 6, 311, 250), (28, 38, 48), 12, 13),  # a filled box and its edge
        (pygame.Rect(10, 11, 300, 240), None, 13, 13),  # the turn's edge, as wide as a corner
        (pygame.Rect(3, 2, 300, 210), (28, 38, 48), 30, 4),  # wider than a corner: pygame's
    ],
)
def test_a_large_edge_is_painted_as_pygame_draws_it(
    rect: pygame.Rect,
    fill: tuple[int, int, int] | None,
    width: int,
    radius: int,
    rotation: int,
) -> None:
    edge = (255, 206, 48)
    turn = Turn(rotation, (330, 330), (2, 3))
    drawn, painted = canvas(), canvas()
    placed = turn.rect(rect)
    if fill is not None:
        pygame.draw.rect(drawn, fill, placed, 0, radius)
    pygame.draw.rect(drawn, edge, placed, width, radius)
    fonts = Fonts()
    painter(painted, fonts, turn).box(rect, fill, edge, width, radius)
    assert same(drawn, painted)
    # Painted again from the kept recipe (or refused and drawn again): still the same.
    again = canvas()
    painter(again, fonts, turn).box(rect, fill, edge, width, radius)
    assert same(drawn, again)
    assert len(fonts.edges) == 1
    kept = fonts.edges.get((placed.size, edge, width, radius, 32, painted.get_masks()))
    # Painted from a recipe, unless the edge is wider than a corner (then pygame draws it).
    assert (kept is DRAWN) == (width > radius)


def test_an_edge_from_its_recipe_keeps_inside_the_clip_and_off_the_inside() -> None:
    clip = pygame.Rect(50, 20, 133, 90)
    drawn, painted = canvas(), canvas()
    for surface in (drawn, painted):
        surface.set_clip(clip)
    rect = pygame.Rect(7, 5, 311, 200)
    pygame.draw.rect(drawn, (200, 2, 3), rect, 13, 13)
    painter(painted, Fonts()).box(rect, None, (200, 2, 3), 13, 13)
    assert same(drawn, painted)
    assert tuple(painted.get_at((49, 50)))[:3] == BACKGROUND  # outside the clip: untouched
    assert tuple(painted.get_at((100, 100)))[:3] == BACKGROUND  # inside the edge: untouched


def test_an_edge_recipe_is_checked_against_pygame_and_refused_where_it_would_differ() -> None:
    surface = canvas()
    good = edge_recipe(surface, (300, 200), (86, 180, 233), 6, 13)
    assert isinstance(good, EdgeRecipe) and len(good.bands) == 4 and len(good.corners) == 4
    # An edge wider than a corner is not a straight band beside it: no recipe.
    assert edge_recipe(surface, (300, 200), (86, 180, 233), 14, 13) is None
    # A box with square corners has nothing to keep.
    assert edge_recipe(surface, (300, 200), (86, 180, 233), 1, 0) is None


def test_small_edges_and_alpha_surfaces_are_drawn_by_pygame() -> None:
    fonts = Fonts()
    painter(canvas(), fonts).box(pygame.Rect(5, 5, 200, 100), None, (86, 180, 233), 3)
    clear = pygame.Surface(SIZE, pygame.SRCALPHA)
    painter(clear, fonts).box(pygame.Rect(5, 5, 300, 300), None, (86, 180, 233), 13, 13)
    assert len(fonts.edges) == 0


def test_edge_recipes_are_bounded_and_forgotten_with_the_fonts() -> None:
    fonts = Fonts()
    surface = canvas()
    p = painter(surface, fonts)
    for width in range(EDGE_LIMIT + 20):
        p.box(pygame.Rect(0, 0, 400 + width, 300), None, (86, 180, 233), 13, 13)
    assert len(fonts.edges) == EDGE_LIMIT
    # A refused recipe is remembered as such, not tried again each time.
    p.box(pygame.Rect(0, 0, 300, 200), None, (86, 180, 233), 30, 13)
    key = ((300, 200), (86, 180, 233), 30, 13, 32, surface.get_masks())
    assert fonts.edges.get(key) is DRAWN
    fonts.forget()
    assert len(fonts.edges) == 0


# --- whole frames --------------------------------------------------------------------


def plain_painting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch the shortcut off: every edge drawn by pygame."""
    monkeypatch.setattr(Painter, "_edge_recipe", lambda *_: None)


VIEWS: dict[str, Callable[[], TableView]] = {
    "attract": attract_view,
    "choose": choose_view,
    "join": join_view,
    "play": play_view,
    "results": results_view,
}


@pytest.mark.parametrize("screen", sorted(VIEWS))
@pytest.mark.parametrize(("size", "rotation"), [((1920, 1080), 0), ((1024, 600), 90)])
def test_every_screen_is_the_same_picture_with_and_without_the_shortcuts(
    screen: str, size: tuple[int, int], rotation: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = VIEWS[screen]()
    fast = Renderer(size, rotation)
    fast.draw(view)
    fast.invalidate()
    fast.draw(view)  # again, from the kept recipes
    with monkeypatch.context() as patched:
        plain_painting(patched)
        plain = Renderer(size, rotation)
        plain.draw(view)
    assert same(fast.surface, plain.surface)


# --- what cards show, remembered -------------------------------------------------------


def test_a_card_face_is_remembered_per_game_and_notation_and_forgotten_with_the_fonts() -> None:
    fonts = Fonts()
    oshaka = Painter(
        canvas(), fonts, Metrics.for_size(SIZE), words=Presenter(game_id="oshaka-trick")
    )
    plain = Painter(canvas(), fonts, Metrics.for_size(SIZE))
    face = oshaka.card_face("R7")
    deck = deck_of_card("oshaka-trick", "R7")
    assert deck is not None and face == deck.face("R7")
    assert oshaka.card_face("R7") is face  # remembered
    # The same notation without a game is a plain card with its notation: kept apart.
    assert plain.card_face("R7") == CardFace("R7") != face
    fonts.forget()
    assert len(fonts.faces) == 0 and oshaka.card_face("R7") == face


def narrowest_legible(p: Painter, ranks: set[str], height: int) -> int:
    """The narrowest card width (from a card's proportion up to twice the height) on which
    every rank shows at the legible size, found by trying each width."""
    for width in range(round(height * 0.7), height * 2):
        if all(p.card_rank_size(rank, width, height, False) >= p.least_size for rank in ranks):
            return width
    return height * 2


def test_a_legible_card_width_is_remembered_for_its_ranks_height_and_least_size() -> None:
    fonts = Fonts()
    p = Painter(canvas(), fonts, Metrics.for_size((1920, 1080)))
    widths = {height: p.legible_card_width(["10", "7"], height) for height in (60, 120)}
    assert widths == {height: narrowest_legible(p, {"10", "7"}, height) for height in (60, 120)}
    assert widths[60] == 120  # no width shows "10" legibly on so short a card: the widest
    assert p.legible_card_width(["7", "10", "10"], 60) == 120  # the same ranks: remembered
    with p.secondary():  # a smaller least size: worked out on its own
        assert p.legible_card_width(["10", "7"], 60) == narrowest_legible(p, {"10", "7"}, 60) < 120
    assert len(fonts.card_widths) == 3
    fonts.forget()
    assert len(fonts.card_widths) == 0
