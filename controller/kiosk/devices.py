"""Building the table's devices from its configuration (part of the composition root).

Every seat gets a reader, buttons and an LED segment; a ``"mock"`` setting (the
default) gives the sibling mock backend, driven by the simulator or by tests.
Simulated buttons are real gpiozero ``Button`` objects on a ``MockFactory``,
so the simulator goes through the same code path as a Pi's buttons.
"""

from __future__ import annotations

import logging
from contextlib import ExitStack
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from controller.config.table_config import TableConfig
from controller.view.seat_colours import seat_colour
from hardware.buttons import BUTTON_NAMES, SeatButtons, mock_pin_factory
from hardware.errors import HardwareError
from hardware.events import Button, Contact, EventQueue
from hardware.flood import ReaderThrottle
from hardware.led_backends import open_strip
from hardware.leds import SeatLeds, Strip
from hardware.mock_reader import MockReader
from hardware.port_names import is_plug_order_name, stable_port_name
from hardware.protocols import MOCK_PORT
from hardware.reader_factory import reader_for
from hardware.seat_reader import SeatReader
from hardware.toss_timer import TossTimer

logger = logging.getLogger(__name__)

# GPIO numbers handed out to simulated buttons: any pin but the LED data pin (18).
_MOCK_PINS = [p for p in range(4, 28) if p != 18]


@dataclass
class Devices:
    """All of the table's devices, opened and closed together."""

    readers: dict[int, SeatReader]
    buttons: dict[int, SeatButtons]
    leds: SeatLeds
    strip: Strip
    mock_factory: Any = None  # the MockFactory behind simulated buttons, if any
    timer: TossTimer | None = None
    _stack: ExitStack = field(default_factory=ExitStack)

    def open(self) -> None:
        for reader in self.readers.values():
            self._stack.callback(reader.close)
            reader.open()
        for buttons in self.buttons.values():
            self._stack.callback(buttons.close)
            buttons.open()
        if self.timer is not None:
            self._stack.callback(self.timer.close)
            self.timer.open()

    def close(self) -> None:
        """Close everything opened, in reverse order; safe to call twice."""
        self.leds.close()
        self._stack.close()
        deinit = getattr(self.strip, "deinit", None)  # both RecordingStrip and NeoPixel have it
        if deinit is not None:
            deinit()

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def mock_reader(self, seat: int) -> MockReader | None:
        reader = self.readers.get(seat)
        return reader if isinstance(reader, MockReader) else None

    def press(self, seat: int, button: Contact) -> bool:
        """Press and release a simulated button through its mock pin; False if not simulated."""
        return self.hold(seat, button) and self.release(seat, button)

    def hold(self, seat: int, button: Contact) -> bool:
        """Push a simulated button down (it stays down until ``release``); False if not
        simulated. ``"timer"`` is the table's toss timer."""
        return self._drive(seat, button, down=True)

    def release(self, seat: int, button: Contact) -> bool:
        """Let a simulated button come up again; False if not simulated."""
        return self._drive(seat, button, down=False)

    def _drive(self, seat: int, button: Contact, *, down: bool) -> bool:
        try:
            if isinstance(button, Button):
                buttons = self.buttons.get(seat)
                if buttons is None or button not in buttons.pins:
                    return False
                if down:
                    buttons.press(button)
                else:
                    buttons.release(button)
            else:  # the toss timer: one button for the whole table
                if self.timer is None:
                    return False
                if down:
                    self.timer.press()
                else:
                    self.timer.release()
        except HardwareError:  # a real pin (software cannot push it), or closed
            return False
        return True


def build(config: TableConfig, events: EventQueue, *, strip: Strip | None = None) -> Devices:
    """Make (but do not open) every device the configuration names."""
    # Real readers are supervised: they never fail to open, report themselves
    # offline at their seat and reconnect with backoff (hardware/supervisor.py).
    for seat in config.seats:
        if is_plug_order_name(seat.reader):
            logger.warning(
                "seat %d's reader is %s, a name numbered in plug order: after a replug or a "
                "reboot it may be another board, or none, and the seat stays offline; name it "
                'by its board in table.toml: reader = "%s" (cafe-table assign-readers '
                "lists the names)",
                seat.index,
                seat.reader,
                stable_port_name(seat.reader),
            )
    # Each real reader's taps pass a rate limit of their own: a flooding board is
    # reported once and ignored, and cannot starve the loop or the other seats.
    readers = {
        s.index: reader_for(
            s.index,
            s.reader,
            s.protocol,
            events if s.reader == MOCK_PORT else ReaderThrottle(events, s.index),
        )
        for s in config.seats
    }
    factory = None
    spare = iter(_MOCK_PINS)
    buttons: dict[int, SeatButtons] = {}
    for seat in config.seats:
        if seat.buttons is None:
            if factory is None:
                factory = mock_pin_factory()
            pins = {name: next(spare) for name in BUTTON_NAMES}
            # No bounce time on mock pins: the simulator's presses are clean edges.
            buttons[seat.index] = SeatButtons(
                seat.index, pins, events, pin_factory=factory, bounce_time=None
            )
        else:
            buttons[seat.index] = SeatButtons(seat.index, seat.buttons, events)
    timer = None
    if config.timer is not None:
        if config.timer.pin is None:
            if factory is None:
                factory = mock_pin_factory()
            # No debounce on the mock pin: the simulator's press and release
            # come at the same instant and would otherwise read as bounce.
            timer = TossTimer(
                next(spare),
                events,
                pin_factory=factory,
                mode=config.timer.mode,
                long_press=config.timer.long_press,
                bounce_time=0,
                min_duration=0,  # the simulator's tosses take no time at all
            )
        else:
            timer = TossTimer(
                config.timer.pin, events, mode=config.timer.mode, long_press=config.timer.long_press
            )
    count = max(config.pixel_count, 1)
    if strip is None:
        strip = open_strip(config.leds.backend, count, pin=config.leds.data_pin)
    segments = {
        s.index: range(s.pixels[0], s.pixels[1]) for s in config.seats if s.pixels[1] > s.pixels[0]
    }
    # Each seat glows in its own colour when joined, the colour of its panel's edge.
    identity = {seat: seat_colour(seat) for seat in segments}
    leds = SeatLeds(strip, segments, brightness=config.leds.brightness, identity=identity)
    return Devices(readers, buttons, leds, strip, factory, timer)
