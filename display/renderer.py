"""The table's renderer: a ``TableView`` in, a pygame surface out, and clicks back to actions.

Usage (the app owns the window; the renderer only draws on its own surface)::

    renderer = Renderer((800, 480), rotation=0)
    if renderer.draw(view):              # False when this view.version is already drawn
        window.blit(renderer.surface, (0, 0))
        pygame.display.flip()
    action = renderer.hit_test(click_pos) # TapCard / PressButton / ChooseGame / None

The picture is laid out on a "canvas" in the table's own orientation; the
window shows it turned clockwise by ``rotation`` (0, 90, 180 or 270) for
however the screen is mounted. That turn is folded into every painter's own
(``Turn.then``), so a turned screen is drawn turned, straight onto ``surface``:
no canvas is drawn upright and turned pixel by pixel afterwards.
``hit_test`` looks up the hit boxes of the last drawn frame where they show.

A frame is drawn in parts, each kept until it changes (a Pi core has no time
to redraw 1920x1080 on every tap): each seat panel's already-turned picture
per ``scenes.panel_key``, and the centre per view content (on the static
layer, the felt and the centre's box, drawn under it anew). ``draw`` redraws only
the parts whose content changed and leaves in ``dirty_rects`` the window
rectangles it touched, for ``pygame.display.update``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import pygame

from controller.view import Screen, SeatView, TableView
from controller.words import Presenter
from display.generic import forget_parsed
from display.layout import (
    ROTATIONS,
    Layout,
    SeatSlot,
    Side,
    Turn,
    compute_layout,
    default_sides,
    rotate_rect,
    rotated_size,
    unrotate_point,
)
from display.memory import release_memory
from display.motion import CENTRE, Motion
from display.scenes import (
    PaintedPanel,
    PanelKey,
    animation_step,
    draw_background,
    draw_centre,
    paint_panel,
    panel_key,
    panel_painter,
    repaint_body,
    repaint_message_line,
    repaint_turn,
)
from display.sim_controls import draw_staff_buttons, strip_height, strip_rows
from display.theme import Fonts, Metrics, Painter, image_budget
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
        self.fonts = Fonts.for_window(self._size)
        self.surface = pygame.Surface(self._size)
        self.drawn_version: int | None = None
        self.frames_drawn = 0  # how many times draw() actually drew (for tests and stats)
        self.layout: Layout | None = None
        self._hits: list[tuple[pygame.Rect, UiAction]] = []
        self._dirty = True
        # The window rectangles the last draw changed (all of it after a full redraw).
        self.dirty_rects: list[pygame.Rect] = []
        self.panels_drawn = 0  # seat panels drawn anew (the rest came from the cache)
        self.lines_repainted = 0  # panels of which only the message line was drawn again
        self.turns_repainted = 0  # panels of which only the edge and heading were drawn again
        self.bodies_repainted = 0  # panels of which only a part of the body was drawn again
        self._drawn_once = False  # the first frame is drawn whole
        self._panels: dict[int, tuple[PanelKey, PaintedPanel]] = {}
        self._centre: tuple[object, list[tuple[pygame.Rect, UiAction]]] | None = None
        # When the animated centre (e.g. a running toss timer) is due again, by ``clock``.
        self.clock: Callable[[], float] = time.monotonic
        self._animation_due: float | None = None
        # Cards travelling, tricks sliding, scores counting (``display/motion.py``):
        # drawn on ``clock``, never holding up the table.
        self.motion = Motion()
        # Seats whose simulated staff tag the demo window offers to tap (none elsewhere).
        self.staff_seats: tuple[int, ...] = ()
        self._screen: Screen | None = None  # the screen last drawn

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
    def sides(self) -> tuple[Side, ...] | None:
        """The screen edge of each physical seat given to the renderer (None: the default)."""
        return self._sides

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

    @property
    def mount(self) -> Turn:
        """How the canvas lands on ``surface``: every painter's turn is followed by it."""
        return Turn(self._rotation, self.canvas_size, mount=self._rotation)

    def resize(self, size: tuple[int, int]) -> None:
        """Follow a window resize: the next draw redraws at the new size."""
        size = (int(size[0]), int(size[1]))
        if size != self._size:
            self._size = size
            self.surface = pygame.Surface(size)
            self.fonts.images.budget = image_budget(size)
            self._dirty = True

    def invalidate(self) -> None:
        """Force the next ``draw`` to redraw even for the same view version."""
        self._dirty = True

    # --- drawing ------------------------------------------------------------------

    def draw(self, view: TableView) -> bool:
        """Draw ``view`` unless its version is already on ``surface``; True when it drew.

        Only the panels and the centre whose content changed are drawn again;
        ``dirty_rects`` says where the window changed.
        """
        now = self.clock()
        step = animation_step(view)
        due = step is not None and (self._animation_due is None or now >= self._animation_due)
        motion_due = self.motion.due
        moving = motion_due is not None and now >= motion_due
        if not self._dirty and view.version == self.drawn_version and not due and not moving:
            self.dirty_rects = []
            return False
        self._animation_due = None if step is None else now + step
        if view.screen is Screen.ATTRACT and self._screen not in (None, Screen.ATTRACT):
            # Back to idling (a game or the menus ended): what they filled the caches
            # with goes, and the heap with it, so a night of games leaves no bulk.
            self.fonts.forget()
            forget_parsed()
            release_memory()
        self._screen = view.screen
        canvas_size = self.canvas_size
        sides = self._sides if self._sides is not None else default_sides(len(view.seats))
        # On-screen hands need deeper seat panels.
        deep = view.screen is Screen.PLAY and bool(view.human_seats)
        metrics = Metrics.for_size(canvas_size)
        # The simulator's controls get a strip of their own, so they cover nothing
        # (rows of their own under a narrow centre: ``strip_rows``).
        layout = compute_layout(canvas_size, sides, deep)
        if self.staff_seats:
            desk = view.screen is Screen.STAFF
            rows = strip_rows(metrics, layout.centre.w, desk)
            layout = compute_layout(canvas_size, sides, deep, strip_height(metrics, rows))
        full = self._dirty or layout != self.layout or not self._drawn_once
        if full:
            self._drawn_once = True
            self._panels.clear()
            self._centre = None
        canvas = self.surface
        mount = self.mount
        # Where the frame changed, as it shows in the window.
        changed: list[pygame.Rect] = []
        if full:
            if all(slot.seat_index < len(view.seats) for slot in layout.slots):
                # The panels cover all but the centre: draw just that (a third of 1080p).
                self._draw_background(canvas, layout, metrics, layout.centre_area)
            else:
                self._draw_background(canvas, layout, metrics, pygame.Rect((0, 0), canvas_size))
            changed.append(canvas.get_rect())

        # What moves (the cards, the slide, the scores, the turn glow) is followed per
        # part: the centre, and each panel whose figures count (``Motion.part``).
        self.motion.begin(now, view.game_id if view.screen is Screen.PLAY else None)
        if self.layout is not None and layout != self.layout:
            self.motion.places_moved()
        # The centre (with the simulator's strip of staff-tag buttons under it):
        # drawn again whenever anything but the version changed.
        content = (replace(view, version=0), self.staff_seats)
        # The centre's motion wants it again at ``centre_due`` (a page turn can be seconds
        # away): not before, when only a panel's figure counts.
        centre_due = self.motion.due_of(CENTRE)
        if (
            self._centre is None
            or self._centre[0] != content
            or step is not None
            or (centre_due is not None and now >= centre_due)
        ):
            painter = Painter(
                canvas,
                self.fonts,
                metrics,
                words=Presenter.for_view(view),
                turn=mount,
                motion=self.motion,
            )
            if not full:
                self._draw_background(canvas, layout, metrics, layout.centre_area)
                changed.append(mount.rect(layout.centre_area))
            with self.motion.part(CENTRE):
                draw_centre(painter, layout, view)
            if self.staff_seats:
                draw_staff_buttons(painter, layout.controls, self.staff_seats, view)
            self._centre = (content, painter.hits)

        for slot in layout.slots:
            if slot.seat_index >= len(view.seats):
                self._panels.pop(slot.seat_index, None)
                continue
            seat = view.seats[slot.seat_index]
            key = panel_key(slot, view, seat)
            cached = self._panels.get(slot.seat_index)
            part = ("panel", slot.seat_index)
            # A panel whose figures still count is drawn again, whatever its key.
            counting = self.motion.due_of(part) is not None
            if cached is not None and cached[0] == key and not counting:
                continue
            if cached is not None and cached[0].frame == key.frame and not counting:
                # Only the seat's turn, its newest message or a part of its body changed:
                # those parts alone.
                parts = self._repaint_parts(canvas, metrics, slot, view, seat, cached, key)
                if parts is not None:
                    self._panels[slot.seat_index] = (key, cached[1])
                    changed.extend(parts)
                    continue
            with self.motion.part(part):
                painted = paint_panel(
                    canvas, self.fonts, metrics, slot, view, seat, motion=self.motion, mount=mount
                )
            self._panels[slot.seat_index] = (key, painted)
            self.panels_drawn += 1
            if not full:
                changed.append(mount.rect(slot.rect))

        self._hits = list(self._centre[1])
        for slot in layout.slots:
            cached = self._panels.get(slot.seat_index)
            if cached is not None:
                self._hits.extend(cached[1].hits)
        self.motion.end()
        self.dirty_rects = changed
        self.layout = layout
        self.drawn_version = view.version
        self.frames_drawn += 1
        self._dirty = False
        return True

    def _repaint_parts(
        self,
        canvas: pygame.Surface,
        metrics: Metrics,
        slot: SeatSlot,
        view: TableView,
        seat: SeatView,
        cached: tuple[PanelKey, PaintedPanel],
        key: PanelKey,
    ) -> list[pygame.Rect] | None:
        """Repaint the parts of a cached panel whose key changed in its messages, its turn
        prompt or its body alone; the window rectangles touched, or None to draw it whole.

        The parts do not overlap (the message line, the edge and heading, a part of the
        body), so each is repainted on its own; one that cannot be sends the panel to be
        drawn whole (the parts repainted before it are then drawn over).
        """
        old, painted = cached
        words = Presenter.for_view(view, seat.seat)
        p = panel_painter(canvas, self.fonts, metrics, slot, words, mount=self.mount)
        lines: list[pygame.Rect] = []
        turned: list[pygame.Rect] | None = []
        body: list[pygame.Rect] | None = []
        if old.messages != key.messages:
            repainted = repaint_message_line(p, slot, view, seat, painted)
            if repainted is None:
                return None
            lines = repainted
        if old.prompt != key.prompt:
            turned = repaint_turn(p, slot, view, seat, painted)
            if turned is None:
                return None
        if old.body != key.body:
            # What the body's figures ask of motion is followed for the panel's part.
            with self.motion.part(("panel", slot.seat_index)):
                body = repaint_body(p, slot, view, seat, painted, old.body, key.body)
            if body is None:
                return None
        # Counted once the panel is done in parts (a line that shows neither before nor
        # after is not drawn at all).
        self.lines_repainted += bool(lines)
        self.turns_repainted += bool(turned)
        self.bodies_repainted += bool(body)
        return [*lines, *(turned or ()), *(body or ())]

    def next_frame_in(self, view: TableView) -> float | None:
        """Seconds until ``view`` needs drawing again by itself (an animation), or None.

        The kiosk's loop sleeps at most this long: a still table needs no frames
        until its view changes.
        """
        if self._dirty or view.version != self.drawn_version:
            return 0.0
        dues = [self.motion.due]
        if animation_step(view) is not None:
            dues.append(self._animation_due)
        due = min((d for d in dues if d is not None), default=None)
        return None if due is None else max(0.0, due - self.clock())

    def _draw_background(
        self, canvas: pygame.Surface, layout: Layout, metrics: Metrics, area: pygame.Rect
    ) -> None:
        """The static layer (felt, the centre's box) drawn anew inside the canvas's ``area``
        only.

        Drawn rather than copied from a kept picture: a fill and one box cost about
        what copying them does, and a kept canvas-sized layer would cost 8 MB at 1080p.
        """
        mount = self.mount
        clip = canvas.get_clip()
        canvas.set_clip(mount.rect(area))
        draw_background(Painter(canvas, self.fonts, metrics, turn=mount), layout)
        canvas.set_clip(clip)

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
        # The boxes are kept where they show (the painters drew them turned).
        # Later boxes were drawn on top, so they win.
        for rect, action in reversed(self._hits):
            if rect.collidepoint(pos):
                return action
        return None

    @property
    def hit_boxes(self) -> list[tuple[pygame.Rect, UiAction]]:
        """The last frame's hit boxes in canvas coordinates (a copy)."""
        back = Turn((360 - self._rotation) % 360, self._size)
        return [(back.rect(rect), action) for rect, action in self._hits]

    def window_rect(self, rect: pygame.Rect) -> pygame.Rect:
        """Where a canvas rectangle (e.g. a hit box) shows in the window."""
        return rotate_rect(rect, self.canvas_size, self._rotation)
