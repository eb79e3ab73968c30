"""The table's renderer: a ``TableView`` in, a pygame surface out, and clicks back to actions.

Usage (the app owns the window; the renderer only draws on its own surface)::

    renderer = Renderer((800, 480), rotation=0)
    if renderer.draw(view):              # False when this view.version is already drawn
        window.blit(renderer.surface, (0, 0))
        pygame.display.flip()
    action = renderer.hit_test(click_pos) # TapCard / PressButton / ChooseGame / None

Drawing happens on a "canvas" in the table's own orientation; the window
shows it turned clockwise by ``rotation`` (0, 90, 180 or 270) for however the
screen is mounted. ``hit_test`` undoes that turn before looking up the hit
boxes of the last drawn frame.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from controller.view import Screen, TableView
from display.layout import (
    ROTATIONS,
    Layout,
    Side,
    compute_layout,
    default_sides,
    rotate_rect,
    rotated_size,
    turn_surface,
    unrotate_point,
)
from display.scenes import draw_view
from display.sim_controls import draw_staff_buttons
from display.theme import Fonts, Metrics, Painter
from display.ui import UiAction


class Renderer:
    """Draws table views onto ``surface`` (window-sized), only when something changed."""

    def __init__(
        self,
        size: tuple[int, int] = (800, 480),
        rotation: int = 0,
        sides: Sequence[Side] | None = None,
    ) -> None:
        """``size`` is the window's size in pixels; ``rotation`` turns the picture clockwise
        for mounting; ``sides`` overrides which screen edge each physical seat sits at
        (default: ``layout.default_sides(len(view.seats))``)."""
        self._check_rotation(rotation)
        self._rotation = rotation
        self._size = (int(size[0]), int(size[1]))
        self._sides: tuple[Side, ...] | None = tuple(sides) if sides is not None else None
        self.fonts = Fonts()
        self.surface = pygame.Surface(self._size)
        self.drawn_version: int | None = None
        self.frames_drawn = 0  # how many times draw() actually drew (for tests and stats)
        self.layout: Layout | None = None
        self._hits: list[tuple[pygame.Rect, UiAction]] = []
        self._dirty = True
        # Seats whose simulated staff tag the demo window offers to tap (none elsewhere).
        self.staff_seats: tuple[int, ...] = ()

    # --- settings ---------------------------------------------------------------

    @staticmethod
    def _check_rotation(rotation: int) -> None:
        if rotation not in ROTATIONS:
            raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation}")

    @property
    def size(self) -> tuple[int, int]:
        """The window's size."""
        return self._size

    @property
    def canvas_size(self) -> tuple[int, int]:
        """The size of the picture before it is turned for mounting."""
        return rotated_size(self._size, self._rotation)

    @property
    def rotation(self) -> int:
        return self._rotation

    @rotation.setter
    def rotation(self, rotation: int) -> None:
        self._check_rotation(rotation)
        if rotation != self._rotation:
            self._rotation = rotation
            self._dirty = True

    def resize(self, size: tuple[int, int]) -> None:
        """Follow a window resize: the next draw redraws at the new size."""
        size = (int(size[0]), int(size[1]))
        if size != self._size:
            self._size = size
            self.surface = pygame.Surface(size)
            self._dirty = True

    def invalidate(self) -> None:
        """Force the next ``draw`` to redraw even for the same view version."""
        self._dirty = True

    # --- drawing ------------------------------------------------------------------

    def draw(self, view: TableView) -> bool:
        """Draw ``view`` unless its version is already on ``surface``; True when it drew."""
        if not self._dirty and view.version == self.drawn_version:
            return False
        canvas_size = self.canvas_size
        sides = self._sides if self._sides is not None else default_sides(len(view.seats))
        # On-screen hands need deeper seat panels.
        deep = view.screen is Screen.PLAY and bool(view.human_seats)
        layout = compute_layout(canvas_size, sides, deep)
        canvas = self.surface if self._rotation == 0 else pygame.Surface(canvas_size)
        painter = Painter(canvas, self.fonts, Metrics.for_size(canvas_size))
        draw_view(painter, layout, view)
        if self.staff_seats:
            draw_staff_buttons(painter, layout.centre, self.staff_seats, view)
        if self._rotation:
            self.surface.blit(turn_surface(canvas, self._rotation), (0, 0))
        self.layout = layout
        self._hits = painter.hits
        self.drawn_version = view.version
        self.frames_drawn += 1
        self._dirty = False
        return True

    def render(self, view: TableView) -> pygame.Surface:
        """Draw ``view`` if needed and return ``surface``."""
        self.draw(view)
        return self.surface

    # --- clicks ---------------------------------------------------------------------

    def to_canvas(self, pos: tuple[float, float]) -> tuple[float, float]:
        """A window position as a position on the (unturned) canvas."""
        return unrotate_point(pos, self.canvas_size, self._rotation)

    def hit_test(self, pos: tuple[int, int]) -> UiAction | None:
        """The UI action under window pixel ``pos`` in the last drawn frame, or None."""
        # The pixel's centre, so a turn maps pixel to pixel exactly.
        x, y = self.to_canvas((pos[0] + 0.5, pos[1] + 0.5))
        point = (int(x), int(y))
        # Later boxes were drawn on top, so they win.
        for rect, action in reversed(self._hits):
            if rect.collidepoint(point):
                return action
        return None

    @property
    def hit_boxes(self) -> list[tuple[pygame.Rect, UiAction]]:
        """The last frame's hit boxes in canvas coordinates (a copy)."""
        return list(self._hits)

    def window_rect(self, rect: pygame.Rect) -> pygame.Rect:
        """Where a canvas rectangle (e.g. a hit box) shows in the window."""
        return rotate_rect(rect, self.canvas_size, self._rotation)
