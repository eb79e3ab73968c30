"""The kiosk's window: opens the pygame display, shows rendered views, reports clicks and keys.

The window knows nothing of the table: it turns pygame events into UI actions
(``display.ui``) and shows whatever view it is given, redrawing only when the
view changed. Keys act for one seat (the first seat a person plays): Left =
prev, Enter/Space = ok, Right = next; T presses the toss timer; Escape or
closing the window quits.
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, Self

import pygame

from controller.view import Screen, TableView
from display.renderer import Renderer
from display.ui import PressButton, Quit, UiAction, action_for_event

KEY_BUTTONS = {
    pygame.K_LEFT: "prev",
    pygame.K_RETURN: "ok",
    pygame.K_KP_ENTER: "ok",
    pygame.K_SPACE: "ok",
    pygame.K_RIGHT: "next",
    pygame.K_t: "timer",  # the table's toss timer (Oss)
}


class DisplaySettings(Protocol):
    """The window settings the table's configuration gives (``controller.config.DisplayConfig``)."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def rotation(self) -> int: ...

    @property
    def fullscreen(self) -> bool: ...


class Window:
    """A pygame window (full screen on the table) showing table views."""

    # How often the loop looks at the window's clicks and keys when nothing else
    # wakes it: SDL's event wait polls every millisecond on the Pi's KMS and the
    # dummy driver, so the loop polls instead, 10 times a second (a click waits
    # at most 100 ms, and the turn pulse wakes the loop as often anyway; taps and
    # button presses wake it at once), and 4 times a second on the attract
    # screen, where a click only wakes the table.
    poll_every = 0.1
    poll_idle = 0.25

    def __init__(self, settings: DisplaySettings, key_seat: int = 0) -> None:
        self.settings = settings
        self.key_seat = key_seat
        self.renderer = Renderer((settings.width, settings.height), rotation=settings.rotation)
        self._screen: pygame.Surface | None = None

    def open(self) -> None:
        if self._screen is not None:
            return
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if self.settings.fullscreen else 0
        size = (0, 0) if self.settings.fullscreen else (self.settings.width, self.settings.height)
        self._screen = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("Cafe table")
        self.renderer.resize(self._screen.get_size())

    def close(self) -> None:
        if self._screen is not None:
            self._screen = None
            pygame.display.quit()

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def poll(self) -> list[UiAction]:
        """The UI actions since the last call: clicks, keys, closing the window."""
        actions: list[UiAction] = []
        for event in pygame.event.get():
            if event.type == pygame.KEYDOWN and event.key in KEY_BUTTONS:
                actions.append(PressButton(self.key_seat, KEY_BUTTONS[event.key]))
                continue
            if event.type == pygame.VIDEORESIZE:
                self.renderer.resize((event.w, event.h))
                continue
            action = action_for_event(event, self.renderer.hit_test)
            if action is not None:
                actions.append(action)
        return actions

    def show(self, view: TableView) -> bool:
        """Draw what changed and update only those parts of the screen; True when it drew."""
        if self._screen is None:
            raise RuntimeError("the window is not open")
        if not self.renderer.draw(view):
            return False
        rects = self.renderer.dirty_rects
        for rect in rects:
            self._screen.blit(self.renderer.surface, rect, rect)
        pygame.display.update(rects)
        return True

    def poll_interval(self, view: TableView) -> float:
        """The longest the loop may go without looking at clicks and keys, on ``view``."""
        return self.poll_idle if view.screen is Screen.ATTRACT else self.poll_every

    def next_frame_in(self, view: TableView) -> float | None:
        """Seconds until ``view`` needs a frame by itself (an animation), or None."""
        return self.renderer.next_frame_in(view)


__all__ = ["KEY_BUTTONS", "Quit", "Window"]
