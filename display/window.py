"""The kiosk's window: opens the pygame display, shows rendered views, reports clicks and keys.

The window knows nothing of the table: it turns pygame events into UI actions
(``display.ui``) and shows whatever view it is given, redrawing only when the
view changed. In the simulator, keys act for one seat (the first seat a
person plays): Left = prev, Enter/Space = ok, Right = next; T presses the
toss timer; S taps the simulated staff tag at that seat (the on-screen "staff
tag at seat" buttons tap it at any simulated seat) and C, at the staff desk,
the simulated card it asks for; Escape or closing the window quits; clicks on
the on-screen hands and seat buttons act for their seats. A key or the mouse
button holds its seat button down until it is let go (``HoldButton``, then
``ReleaseButton``), so holding OK for a second opens the rules page and for
three seconds calls staff, as on the table's own buttons.

Only simulated devices answer the window: a seat whose buttons are real
(``button_seats`` leaves it out) ignores the keys and clicks, and a seat
whose reader is real ignores clicked cards. A table with any real device is
``locked`` as well: players at its touch screen or keyboard must not quit the
kiosk, so Escape and close requests are ignored (staff stop it from the
staff desk, or the service stops it). A table whose devices are all
simulated, whatever its configuration says besides (a language, a screen
size), is the demo and answers every key and click.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from types import TracebackType
from typing import Protocol, Self

import pygame

from controller.games.words import say
from controller.view import Screen, TableView
from controller.words import Presenter
from display.renderer import Renderer
from display.ui import (
    ChooseGame,
    HoldButton,
    PressButton,
    Quit,
    ReleaseButton,
    TapCard,
    TapDeckCard,
    TapStaff,
    UiAction,
    action_for_event,
)
from hardware.events import Button, Contact

KEY_BUTTONS: dict[int, Contact] = {
    pygame.K_LEFT: Button.PREV,
    pygame.K_RETURN: Button.OK,
    pygame.K_KP_ENTER: Button.OK,
    pygame.K_SPACE: Button.OK,
    pygame.K_RIGHT: Button.NEXT,
    pygame.K_t: "timer",  # the table's toss timer (Oss)
}
MOUSE = "mouse"  # what holds a seat button clicked on screen, as a key holds its own
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
    # With nothing simulated (a real table), no click or key becomes an action: the
    # events are only taken off SDL's queue so the window keeps answering the system.
    poll_locked = 1.0

    def __init__(
        self,
        settings: DisplaySettings,
        key_seat: int = 0,
        locked: bool = False,
        staff_seats: Sequence[int] = (),
        button_seats: Collection[int] | None = None,
    ) -> None:
        """``locked``: Escape and close requests are ignored (a table with real devices).
        ``staff_seats``: the seats whose reader is simulated, where a click taps a card or
        the staff tag (and the staff tag's buttons are shown). ``button_seats``: the seats
        whose buttons are simulated (None: every seat's)."""
        self.settings = settings
        self.key_seat = key_seat
        self.locked = locked
        self.reader_seats: frozenset[int] | None = (
            frozenset(staff_seats) if locked or button_seats is not None else None
        )
        self.button_seats = None if button_seats is None else frozenset(button_seats)
        # The seat button each key or the mouse holds down, until it is let go.
        self._held: dict[object, HoldButton] = {}
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

        Events meant for a real device (a seat's real buttons or reader), and on a
        ``locked`` window the requests to quit, are taken off pygame's queue (the
        window must keep answering the system) but become no action.
        """
        actions: list[UiAction] = []
        for event in pygame.event.get():
            if event.type == pygame.VIDEORESIZE:
                self.renderer.resize((event.w, event.h))
                continue
            actions.extend(a for a in self._actions_for(event) if self.reaches_simulated(a))
        return actions

    @property
    def interactive(self) -> bool:
        """Whether any key or click can act: some seat's buttons or reader are simulated."""
        return bool(self.button_seats is None or self.button_seats or self.reader_seats)

    def _actions_for(self, event: pygame.event.Event) -> list[UiAction]:
        """What ``event`` does; a key or the mouse button holds a seat button while down."""
        if event.type == pygame.KEYDOWN and event.key in KEY_BUTTONS:
            return self._hold(event.key, HoldButton(self.key_seat, KEY_BUTTONS[event.key]))
        if event.type == pygame.KEYUP:
            return self._let_go(event.key)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            return self._let_go(MOUSE)
        if event.type == pygame.WINDOWFOCUSLOST:
            # The keys' and the mouse's releases go to another window now: let go of all.
            return [released for holder in list(self._held) for released in self._let_go(holder)]
        if event.type == pygame.KEYDOWN and event.key == STAFF_KEY:
            return [TapStaff(self.key_seat)]
        if event.type == pygame.KEYDOWN and event.key == DECK_CARD_KEY:
            return [TapDeckCard(self.key_seat)]
        action = action_for_event(event, self.renderer.hit_test)
        if isinstance(action, PressButton):
            return self._hold(MOUSE, HoldButton(action.seat, action.button))
        if isinstance(action, Quit) and self.locked:
            return []
        return [] if action is None else [action]

    def _hold(self, holder: object, hold: HoldButton) -> list[UiAction]:
        """``holder`` (a key, or the mouse) presses ``hold``'s button, unless it holds one."""
        if holder in self._held or not self.reaches_simulated(hold):
            return []
        self._held[holder] = hold
        return [hold]

    def _let_go(self, holder: object) -> list[UiAction]:
        """The release of the seat button ``holder`` holds, if it holds one."""
        hold = self._held.pop(holder, None)
        return [] if hold is None else [ReleaseButton(hold.seat, hold.button)]

    def reaches_simulated(self, action: UiAction) -> bool:
        """Whether ``action`` reaches a simulated device (a real one ignores the window)."""
        if isinstance(action, PressButton | HoldButton | ReleaseButton):
            return self.button_seats is None or action.seat in self.button_seats
        if isinstance(action, ChooseGame):
            return self.button_seats is None or self.key_seat in self.button_seats
        if isinstance(action, TapCard | TapStaff | TapDeckCard):
            return self.reader_seats is None or action.seat in self.reader_seats
        return True

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
        if not self.interactive:
            return self.poll_locked
        return self.poll_idle if view.screen is Screen.ATTRACT else self.poll_every

    def next_frame_in(self, view: TableView) -> float | None:
        """Seconds until ``view`` needs a frame by itself (an animation), or None."""
        return self.renderer.next_frame_in(view)


__all__ = ["DECK_CARD_KEY", "KEY_BUTTONS", "STAFF_KEY", "Quit", "Window"]
