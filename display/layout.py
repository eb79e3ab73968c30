"""Where things go on the table's screen: seat panels, the centre, and rotations.

The screen lies flat in the middle of the table. Physical seats sit around its
four edges, clockwise as seen from above; each seat panel is drawn upright on a
panel-sized surface ("local" coordinates, as if its seat sat at the bottom
edge) and then turned to face its seat:

* bottom edge: 0 degrees (reads normally),
* left edge: 90 degrees clockwise (its foot points at the left edge),
* top edge: 180 degrees (upside down),
* right edge: 270 degrees clockwise (its foot points at the right edge).

The whole picture (the "canvas") may itself be turned for mounting; the window
then shows the canvas rotated clockwise by ``rotation`` degrees.

This module is pure geometry: no drawing, no fonts, so it is easy to test.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)


class Side(enum.Enum):
    """An edge of the screen where seats sit; the value is the panel's clockwise turn."""

    BOTTOM = 0
    LEFT = 90
    TOP = 180
    RIGHT = 270

    @property
    def rotation(self) -> int:
        return self.value


B, L, T, R = Side.BOTTOM, Side.LEFT, Side.TOP, Side.RIGHT

# Clockwise from the table's seat 0 at the bottom edge. When an edge holds more
# than one seat they follow the clockwise direction along it (bottom: right to
# left, left: bottom to top, top: left to right, right: top to bottom).
DEFAULT_SIDES: dict[int, tuple[Side, ...]] = {
    1: (B,),
    2: (B, T),
    3: (B, L, R),
    4: (B, L, T, R),
    5: (B, B, L, T, R),
    6: (B, B, L, T, T, R),
    7: (B, B, B, L, T, T, T),
}


def default_sides(seats: int) -> tuple[Side, ...]:
    """The edge of each physical seat for a table of ``seats`` seats."""
    if seats in DEFAULT_SIDES:
        return DEFAULT_SIDES[seats]
    if seats <= 0:
        return ()
    # Larger tables: one seat at each end, the rest split over the long edges.
    rest = seats - 2
    bottom = (rest + 1) // 2
    return (B,) * bottom + (L,) + (T,) * (rest - bottom) + (R,)


@dataclass(frozen=True)
class SeatSlot:
    """Where one seat's panel goes: its edge, its canvas rectangle and its local size."""

    seat_index: int  # position in TableView.seats
    side: Side
    rect: pygame.Rect  # on the canvas (already rotated shape)

    @property
    def rotation(self) -> int:
        return self.side.rotation

    @property
    def local_size(self) -> tuple[int, int]:
        """The panel's upright size: width along the edge, height towards the centre."""
        if self.side in (Side.LEFT, Side.RIGHT):
            return self.rect.height, self.rect.width
        return self.rect.width, self.rect.height


@dataclass(frozen=True)
class Layout:
    """The canvas split into seat panels and the shared centre."""

    size: tuple[int, int]
    slots: tuple[SeatSlot, ...]
    centre: pygame.Rect
    depth: int  # how far a seat panel reaches in from its edge
    # The simulator's own strip under the centre (its staff-tag buttons), outside
    # every panel and the centre, so its controls never cover the table; empty
    # on a real table and in screenshots.
    controls: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))

    @property
    def centre_area(self) -> pygame.Rect:
        """The centre with the simulator's strip under it: what is drawn when the centre is."""
        return self.centre.union(self.controls) if self.controls.h else pygame.Rect(self.centre)


def panel_depth(size: tuple[int, int], deep: bool = False) -> int:
    """How deep a seat panel is: a share of the short side of the canvas.

    ``deep`` panels leave room for the simulator's on-screen hand.
    """
    return max(60, round(min(size) * (0.33 if deep else 0.3)))


# How much deeper the top and bottom panels of a portrait canvas reach with the demo's
# on-screen hand: a panel as wide as the short side then holds its heading, the turn
# prompt's own bar, the game's body and the hand, where the usual depth left a body a
# single card tall (Oshaka Trick's columns and counts, issue 29). The centre, as tall
# as it is narrow twice over in portrait, spares the height.
PORTRAIT_DEEP_SHARE = 1.25


def edge_depth(size: tuple[int, int], side: Side, deep: bool = False) -> int:
    """How deep the panels along ``side`` reach: ``panel_depth``, and in a portrait
    canvas with on-screen hands (``deep``) deeper along the top and bottom edges."""
    depth = panel_depth(size, deep)
    width, height = size
    if deep and height > width and side in (Side.TOP, Side.BOTTOM):
        return round(depth * PORTRAIT_DEEP_SHARE)
    return depth


def compute_layout(
    size: tuple[int, int], sides: Sequence[Side], deep: bool = False, controls_height: int = 0
) -> Layout:
    """Split a canvas of ``size`` into one panel per seat (``sides[i]`` for seat i) and a centre.

    ``controls_height`` reserves a strip of that height at the foot of the centre for
    the simulator's own controls; the centre shrinks by it.
    """
    width, height = size
    depth = panel_depth(size, deep)
    across = edge_depth(size, B, deep)  # the top and bottom panels'
    used = set(sides)
    # The panels of the short edges take the corners, so the long-edge panels and
    # the short-edge panels come out about the same length.
    short_edges_full = width >= height
    left = depth if L in used else 0
    right = width - depth if R in used else width
    top = across if T in used else 0
    bottom = height - across if B in used else height
    centre = pygame.Rect(left, top, right - left, bottom - top)

    slots: list[SeatSlot] = []
    for side in Side:
        members = [index for index, s in enumerate(sides) if s is side]
        if not members:
            continue
        count = len(members)
        for order, index in enumerate(members):
            if side in (B, T):
                span_start, span_end = (left, right) if short_edges_full else (0, width)
            else:
                span_start, span_end = (0, height) if short_edges_full else (top, bottom)
            span = span_end - span_start
            a = span_start + span * order // count
            b = span_start + span * (order + 1) // count
            # Clockwise along the edge: bottom runs right to left, left bottom to top.
            if side is B:
                a, b = span_end - (b - span_start), span_end - (a - span_start)
                rect = pygame.Rect(a, height - across, b - a, across)
            elif side is T:
                rect = pygame.Rect(a, 0, b - a, across)
            elif side is L:
                a, b = span_end - (b - span_start), span_end - (a - span_start)
                rect = pygame.Rect(0, a, depth, b - a)
            else:
                rect = pygame.Rect(width - depth, a, depth, b - a)
            slots.append(SeatSlot(index, side, rect))
    slots.sort(key=lambda slot: slot.seat_index)
    if controls_height <= 0:
        return Layout(size, tuple(slots), centre, depth)
    strip = min(controls_height, centre.h // 3)
    controls = pygame.Rect(centre.left, centre.bottom - strip, centre.w, strip)
    centre = pygame.Rect(centre.left, centre.top, centre.w, centre.h - strip)
    return Layout(size, tuple(slots), centre, depth, controls)


# --- rotations -----------------------------------------------------------------


def rotated_size(size: tuple[int, int], rotation: int) -> tuple[int, int]:
    """The size of a ``size`` surface after turning it ``rotation`` degrees."""
    return (size[1], size[0]) if rotation in (90, 270) else size


def rotate_point(
    point: tuple[float, float], size: tuple[int, int], rotation: int
) -> tuple[float, float]:
    """Where ``point`` of a ``size`` surface lands after turning it clockwise by ``rotation``."""
    x, y = point
    w, h = size
    if rotation == 0:
        return x, y
    if rotation == 90:
        return h - y, x
    if rotation == 180:
        return w - x, h - y
    if rotation == 270:
        return y, w - x
    raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation}")


def unrotate_point(
    point: tuple[float, float], size: tuple[int, int], rotation: int
) -> tuple[float, float]:
    """The inverse of :func:`rotate_point`: ``size`` is the size *before* turning."""
    inverse = (360 - rotation) % 360
    return rotate_point(point, rotated_size(size, rotation), inverse)


def rotate_rect(rect: pygame.Rect, size: tuple[int, int], rotation: int) -> pygame.Rect:
    """Where ``rect`` of a ``size`` surface lands after turning it clockwise by ``rotation``."""
    x1, y1 = rotate_point(rect.topleft, size, rotation)
    x2, y2 = rotate_point(rect.bottomright, size, rotation)
    left, top = min(x1, x2), min(y1, y2)
    return pygame.Rect(round(left), round(top), round(abs(x2 - x1)), round(abs(y2 - y1)))


def turn_surface(surface: pygame.Surface, rotation: int) -> pygame.Surface:
    """``surface`` turned clockwise by ``rotation`` (a multiple of 90: lossless)."""
    if rotation == 0:
        return surface
    # pygame turns counter-clockwise for positive angles.
    return pygame.transform.rotate(surface, -rotation)


@dataclass(frozen=True)
class Turn:
    """Where an upright drawing lands on a surface: an upright area of ``size``,
    turned clockwise by ``rotation`` and placed with its corner at ``origin``.

    A seat panel is drawn through its turn straight onto the canvas, already
    facing its seat: turning every rectangle, point and (cached) picture costs
    less than drawing the panel upright and turning all its pixels.
    """

    rotation: int = 0
    size: tuple[int, int] = (0, 0)
    origin: tuple[int, int] = (0, 0)
    # The part of ``rotation`` that turns the whole table's picture for the screen's
    # mounting (``then``): a shape pygame does not draw the same when turned (a ring)
    # is drawn before that part and turned with it, as the whole picture once was.
    mount: int = 0

    def __post_init__(self) -> None:
        for rotation in (self.rotation, self.mount):
            if rotation not in ROTATIONS:
                raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation}")

    @property
    def straight(self) -> bool:
        """True when nothing turns or moves: the drawing lands where it is drawn."""
        return self.rotation == 0 and self.origin == (0, 0)

    def rect(self, rect: pygame.Rect) -> pygame.Rect:
        """Where an upright ``rect`` lands (a new Rect)."""
        # ``rotate_rect`` written out per quarter turn: a panel turns hundreds of
        # rectangles per frame, and the general form's float corners cost more.
        x, y, w, h = rect
        ox, oy = self.origin
        rotation = self.rotation
        if rotation == 0:
            return pygame.Rect(x + ox, y + oy, w, h)
        width, height = self.size
        if rotation == 90:
            return pygame.Rect(height - y - h + ox, x + oy, h, w)
        if rotation == 180:
            return pygame.Rect(width - x - w + ox, height - y - h + oy, w, h)
        return pygame.Rect(y + ox, width - x - w + oy, h, w)

    def point(self, point: tuple[int, int]) -> tuple[int, int]:
        """Where the upright grid point ``point`` (a pixel's corner) lands."""
        x, y = rotate_point(point, self.size, self.rotation)
        return round(x) + self.origin[0], round(y) + self.origin[1]

    def then(self, outer: Turn) -> Turn:
        """This turn followed by ``outer`` (which turns the surface this one lands on):
        one turn that lands the upright drawing where the two together would.

        Quarter turns of whole pixels are exact, so drawing through the one turn
        gives the pixels of drawing through this one and turning the result.
        """
        if outer.straight:
            return self
        placed = outer.rect(self.rect(pygame.Rect((0, 0), self.size)))
        rotation = (self.rotation + outer.rotation) % 360
        mount = (self.mount + outer.mount) % 360
        return Turn(rotation, self.size, placed.topleft, mount)


# The turn of a drawing that lands where it is drawn (a screen mounted upright).
STRAIGHT = Turn()
