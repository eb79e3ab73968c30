"""The kiosk in a window: the pygame display, its clicks and keys, and the paced loop.

``windowed`` opens the window (full screen on a table's Pi) over the composition
root's ``Kiosk``; ``Turns`` is the loop that waits for input, draws when
something changed, sleeps in closing hours and feeds systemd's watchdog.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from controller.adapters import import_every_game
from controller.config.opening_hours import Sleeper, drift
from controller.config.table_config import MOCK, TableConfig
from controller.kiosk.display_wait import DisplayFailed
from controller.kiosk.sd_notify import Notifier
from controller.kiosk.stop_signals import StopSignals
from controller.records.clock import clock_synchronised
from controller.view import MessageKind, Screen, TableView
from hardware.events import Button, Wakeup

if TYPE_CHECKING:
    from display.window import Window

from controller.kiosk.app import SLEEP_WAIT, Kiosk, stopped_words
from controller.kiosk.arguments import (
    config_path,
    demo_game,
    journal_file,
    window_starts_a_game,
)
from hardware.events import ButtonPressed, TagPresented, TossStarted

logger = logging.getLogger(__name__)

# Inputs a person makes; status reports (a reader going offline) do not wake the table.
WAKING_INPUTS = (TagPresented, ButtonPressed, TossStarted)


def display_available() -> bool:
    """Whether pygame can open a real window here (a desktop, or the Pi's KMS console)."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or Path("/dev/dri").exists()
    ):
        return False
    return True


def windowed(args: argparse.Namespace, config: TableConfig, stop: StopSignals | None = None) -> int:
    """The interactive kiosk: a window, a person at the non-bot seats, bots elsewhere.

    ``stop`` (installed by ``run``) ends the loop on SIGTERM, SIGINT or SIGHUP.
    """
    from hardware.speakers import open_sounds

    speakers = open_sounds(config.sound.volume, config.sound.cues)  # None: a silent table
    kiosk = Kiosk.create(
        config,
        seed=args.seed,
        bot_delay=args.bot_delay,
        journal_path=journal_file(args, config.records),
        config_path=config_path(args),
        # A configured table's staff desk offers to stop the kiosk.
        can_quit=args.config is not None,
        sounds=speakers,
    )
    if args.config is None and window_starts_a_game(args):
        # --game / --players: the demo starts that game once, the person at the keyboard
        # joined with the bots; afterwards the menus are the people's again.
        simulator = kiosk.simulator
        simulator.auto_game = demo_game(args)
        simulator.auto_people = frozenset(s.index for s in config.seats if not s.bot)
        simulator.auto_once = True
    window = window_for(config)
    notifier = Notifier()  # systemd's Type=notify and watchdog; nothing off systemd
    turns = Turns(kiosk, Sleeper(config.display.sleep))
    if stop is not None:
        kiosk.watch(stop)
    with kiosk, opened(window):
        kiosk.resume()
        if config.display.fullscreen:
            from display.screen_care import hide_pointer

            hide_pointer()
        notifier.ready("the table is up")
        if speakers is not None:
            speakers.prepare_in_background()  # not before READY=1: nothing needs them yet
        # From here the collector runs while the loop waits for players, and what
        # start-up built stays out of its full passes (see controller/kiosk/garbage.py).
        kiosk.garbage.start()
        # Not before READY=1 either: the games' table sides and rules (import_every_game).
        stop_warming = threading.Event()
        warming = threading.Thread(
            target=import_every_game, args=(stop_warming,), name="games warm-up", daemon=True
        )
        try:
            while not kiosk.table.quit_requested and not kiosk.stop_requested:
                # A hung loop stops feeding the watchdog: systemd restarts the kiosk.
                notifier.feed(time.monotonic())
                if not turns.run(window):
                    return 0
                notifier.status(turns.status())
                if warming.ident is None:
                    warming.start()  # after the first frame: its imports share the interpreter
        finally:
            # Not joined: it stops between two games, and a stop never waits for an import.
            stop_warming.set()
            kiosk.garbage.stop()
            notifier.stopping()
            if speakers is not None:
                speakers.close()
    if kiosk.stop_requested:
        logger.warning("%s", stopped_words(kiosk))
        return 0
    logger.warning("staff stopped the kiosk from the staff desk")
    return 0


def window_for(config: TableConfig) -> Window:
    """The window of the table ``config`` describes: keys and clicks act only for its
    simulated devices, and a table with any real device cannot be quit from the window.

    A configuration whose devices are all simulated (one that only sets the language,
    say) is the demo, as interactive as the simulator without one.
    """
    from display.window import Window

    people = [s.index for s in config.seats if not s.bot]
    simulated_buttons = [s.index for s in config.seats if s.buttons is None]
    simulated_readers = [s.index for s in config.seats if s.reader == MOCK]
    real = (
        len(simulated_buttons) < len(config.seats)
        or len(simulated_readers) < len(config.seats)
        or (config.timer is not None and config.timer.pin is not None)
    )
    # The keys act for the first seat a person plays whose buttons are simulated.
    key_seats = [s for s in people if s in simulated_buttons] or simulated_buttons or [0]
    return Window(
        config.display,
        key_seat=key_seats[0],
        locked=real,
        staff_seats=simulated_readers,
        button_seats=simulated_buttons,
    )


@contextlib.contextmanager
def opened(window: Window) -> Iterator[Window]:
    """The window, open; SDL's refusal to open it is one line (``DisplayFailed``), not a
    traceback, and a restart may cure it (the DRM device not ready yet)."""
    import pygame

    try:
        window.open()
    except pygame.error as exc:
        raise DisplayFailed(f"the display would not open: {exc or 'SDL gave no reason'}") from exc
    with window:
        yield window


def apply_ui_action(kiosk: Kiosk, action: object) -> bool:
    """Turn a click or key into what a seat's reader or button would report; False to quit."""
    from display import ui

    if isinstance(action, ui.Quit):
        return False
    if isinstance(action, ui.TapCard | ui.TapStaff | ui.TapDeckCard):
        simulator = kiosk.simulator
        if isinstance(action, ui.TapCard):
            why_not = simulator.tap(action.seat, action.card)
        elif isinstance(action, ui.TapStaff):
            why_not = simulator.tap_staff(action.seat)
        else:
            why_not = simulator.tap_deck_card(action.seat)
        if why_not is not None:  # e.g. a real reader: say so where the person looks
            kiosk.table.announce(why_not, MessageKind.REFUSED, action.seat)
    elif isinstance(action, ui.PressButton):
        kiosk.simulator.press(action.seat, action.button)
    elif isinstance(action, ui.HoldButton):
        kiosk.simulator.hold(action.seat, action.button)
    elif isinstance(action, ui.ReleaseButton):
        kiosk.simulator.release(action.seat, action.button)
    elif isinstance(action, ui.ChooseGame):
        seats = kiosk.config.seats
        simulated = [s.index for s in seats if s.buttons is None]
        people = [s.index for s in seats if not s.bot and s.index in simulated]
        if not (people or simulated):
            return True  # no button the window can press
        seat = (people or simulated)[0]
        # At most one turn of the menu: a press that moved nothing must not loop forever.
        for _ in range(len(kiosk.table.view.games)):
            if kiosk.table.selected == action.index:
                break
            kiosk.simulator.press(seat, Button.NEXT)
            kiosk.loop.drain()
    return True


@dataclass
class Turns:
    """The windowed loop's turns, with closing hours and a drifting attract screen.

    In the sleep window (``[display] sleep``) the attract screen goes dark and
    so do the LEDs; a tap or button wakes the table (and still counts as
    input). On the attract screen the picture wanders a few pixels over minutes.
    """

    kiosk: Kiosk
    sleeper: Sleeper
    sleeping: bool = False
    offset: tuple[int, int] = (0, 0)
    wall: Callable[[], dt.datetime] = dt.datetime.now  # injected in tests
    clock: Callable[[], float] = time.monotonic
    # Opening hours only on a synchronised clock: a Pi without RTC boots in the past.
    synced: Callable[[], bool] = clock_synchronised
    unsynced_said: bool = False

    def run(self, window: Window) -> bool:
        """One turn; False when the window was closed."""
        from display import screen_care

        kiosk = self.kiosk
        now = self.clock()
        attract = kiosk.table.screen is Screen.ATTRACT
        if attract and self.sleeper.asleep(self.wall(), now) and self._trust_clock():
            if not self.sleeping:
                self.sleeping = True
                screen_care.blank()
                kiosk.devices.leds.clear(kiosk.table.clock())
            woke = self._wait_for_wake()
            actions = window.poll()
            if woke or actions:
                self.sleeper.touch(self.clock())
            return all(apply_ui_action(kiosk, action) for action in actions)
        woke, self.sleeping = self.sleeping, False

        def show(view: TableView) -> object:
            if not attract:
                return (
                    window.show(view)
                    if not woke
                    else screen_care.show_offset(window, view, (0, 0), moved=True)
                )
            offset = drift(now)
            moved, self.offset = woke or offset != self.offset, offset
            return screen_care.show_offset(window, view, offset, moved)

        # Waits on the input queue until something is due, and at most the window's
        # poll interval, so clicks and keys are still looked at often enough.
        most = window.poll_interval(kiosk.table.view)
        kiosk.run_frame(show, window.next_frame_in, most)
        return all(apply_ui_action(kiosk, action) for action in window.poll())

    def _trust_clock(self) -> bool:
        """Whether the wall clock may darken the table (said once in the log when not)."""
        if self.synced():
            self.unsynced_said = False
            return True
        if not self.unsynced_said:
            self.unsynced_said = True
            logger.warning("opening hours: the clock is not synchronised yet (no NTP), so "
                           "the table stays lit rather than trust it")  # fmt: skip
        return False

    def status(self) -> str:
        """What the table is doing, for systemd's STATUS= (``systemctl status`` shows it)."""
        if self.sleeping:
            return "asleep (opening hours)"
        if self.kiosk.halted:
            return "play halted: the disk is full (resumes by itself once there is room)"
        screen = self.kiosk.table.screen
        game = self.kiosk.table.game
        if game is not None and screen is Screen.PLAY:
            return f"playing {game.game_id}"
        if self.unsynced_said and screen is Screen.ATTRACT:
            return "attract screen (clock not synchronised: no sleep)"
        return f"{screen.value} screen"

    def _wait_for_wake(self) -> bool:
        """Wait a while for input, hand all of it to the table; True if a person did something."""
        woke = False
        # Asleep, the table only waits for a tap or a press: a quarter of a second
        # keeps the window answering the system and the watchdog fed.
        timeout: float | None = SLEEP_WAIT
        budget = self.kiosk.budget
        while True:
            try:
                event = self.kiosk.events.get(timeout=timeout)
            except queue.Empty:
                return woke
            if isinstance(event, Wakeup):  # a stop signal
                return woke
            if timeout == SLEEP_WAIT:
                budget.start()  # the budget bounds the work, not the wait for the first input
            self.kiosk.table.handle(event)
            budget.spend()
            woke = woke or isinstance(event, WAKING_INPUTS)
            if not budget.allows():
                return woke  # the rest next turn: the watchdog is fed in between
            timeout = 0.001  # then only what is already queued (status reports come in bursts)
