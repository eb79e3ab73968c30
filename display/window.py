"""The kiosk's window: opens the pygame display, shows rendered views, reports clicks and keys.

The window knows nothing of the table: it turns pygame events into UI actions
(``display.ui``) and shows whatever view it is given, redrawing only when the
view changed. In the simulator, keys act for one seat (the first seat a
person plays): Left = prev, Enter/Space = ok, Right = next; T presses the
toss timer; S taps the simulated staff tag at that seat (the on-screen "staff
tag at seat" buttons tap it at any simulated seat) and C, at the staff desk,
the simulated card it asks for; Escape or closing the window quits; clicks on
the on-screen hands and seat buttons act for their seats.

A configured table runs the window ``locked``: players at a touch screen or a
keyboard must not quit the kiosk or press another seat's buttons, so every
key, click and close request is ignored (the seats' own readers and buttons
are the only input; staff stop the kiosk from the staff desk, or the service
stops it).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Protocol, Self

import pygame

from controller.games.words import say
from controller.view import Screen, TableView
from controller.words import Presenter
from display.renderer import Renderer
from display.ui import PressButton, Quit, TapDeckCard, TapStaff, UiAction, action_for_event

KEY_BUTTONS = {
    pygame.K_LEFT: "prev",
    pygame.K_RETURN: "ok",
    pygame.K_KP_ENTER: "ok",
    pygame.K_SPACE: "ok",
    pygame.K_RIGHT: "next",
    pygame.K_t: "timer",  # the table's toss timer (Oss)
}
STAFF_KEY = pygame.K_s  # taps the simulated staff tag at the key seat
DECK_CARD_KEY = pygame.K_c  # at the staff desk: taps the simulated card it asks for


class DisplaySettings(Protocol):
    """The window settings of the table's configuration (``table_config.DisplayConfig``)."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def rotation(self) -> int: ...

    @property
    def fullscreen(self) -> bool: ...

    @property
    def motion(self) -> bool: ...


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
    # Locked (a configured table), no click or key becomes an action: the events
    # are only taken off SDL's queue so the window keeps answering the system.
    poll_locked = 1.0

    def __init__(
        self,
        settings: DisplaySettings,
        key_seat: int = 0,
        locked: bool = False,
        staff_seats: Sequence[int] = (),
    ) -> None:
        """``staff_seats``: the seats where the simulator can tap its staff tag (buttons shown)."""
        self.settings = settings
        self.key_seat = key_seat
        self.locked = locked
        self.renderer = Renderer((settings.width, settings.height), rotation=settings.rotation)
        self.renderer.staff_seats = tuple(staff_seats)
        self.renderer.motion.enabled = settings.motion
        self._screen: pygame.Surface | None = None
        self._caption_language: str | None = None  # the window title's language, once set

    def open(self) -> None:
        if self._screen is not None:
            return
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if self.settings.fullscreen else 0
        size = (0, 0) if self.settings.fullscreen else (self.settings.width, self.settings.height)
        self._screen = pygame.display.set_mode(size, flags)
        self._caption_language = None
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
        """The UI actions since the last call: clicks, keys, closing the window.

        Locked, the events are still taken off pygame's queue (the window must
        keep answering the system) but none becomes an action.
        """
        actions: list[UiAction] = []
        for event in pygame.event.get():
            if event.type == pygame.VIDEORESIZE:
                self.renderer.resize((event.w, event.h))
                continue
            if self.locked:
                continue
            if event.type == pygame.KEYDOWN and event.key in KEY_BUTTONS:
                actions.append(PressButton(self.key_seat, KEY_BUTTONS[event.key]))
                continue
            if event.type == pygame.KEYDOWN and event.key == STAFF_KEY:
                actions.append(TapStaff(self.key_seat))
                continue
            if event.type == pygame.KEYDOWN and event.key == DECK_CARD_KEY:
                actions.append(TapDeckCard(self.key_seat))
                continue
            action = action_for_event(event, self.renderer.hit_test)
            if action is not None:
                actions.append(action)
        return actions

    def show(self, view: TableView) -> bool:
        """Draw what changed and update only those parts of the screen; True when it drew."""
        if self._screen is None:
            raise RuntimeError("the window is not open")
        # The title follows the table's language (the centre's), set when it changes:
        # not translated again on every turn of the loop.
        if view.language != self._caption_language:
            pygame.display.set_caption(Presenter.for_view(view)(say("Cafe table")))
            self._caption_language = view.language
        if not self.renderer.draw(view):
            return False
        rects = self.renderer.dirty_rects
        for rect in rects:
            self._screen.blit(self.renderer.surface, rect, rect)
        pygame.display.update(rects)
        return True

    def poll_interval(self, view: TableView) -> float:
        """The longest the loop may go without looking at clicks and keys, on ``view``."""
        if self.locked:
            return self.poll_locked
        return self.poll_idle if view.screen is Screen.ATTRACT else self.poll_every

    def next_frame_in(self, view: TableView) -> float | None:
        """Seconds until ``view`` needs a frame by itself (an animation), or None."""
        return self.renderer.next_frame_in(view)


__all__ = ["DECK_CARD_KEY", "KEY_BUTTONS", "STAFF_KEY", "Quit", "Window"]
