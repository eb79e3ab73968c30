"""Seat buttons on GPIO, read with gpiozero.

Each seat has up to three push buttons, named by position from the player's
side, left to right: ``"prev"``, ``"ok"``, ``"next"`` (``BUTTON_NAMES``).
The names say where a button is, not what it means: the table decides that
per phase (scroll a choice with prev/next and confirm with ok; for an Oshaka
placement, for instance, prev = "score" face up and next = "penalty" face down).

Wiring: each button between its GPIO pin and ground, with the Pi's internal
pull-up (``pull_up=True``), so a press pulls the pin low.

``SeatButtons`` claims its pins only in ``open()`` (or ``with``), through the
pin factory it was given: ``None`` means gpiozero's default (lgpio on a Pi),
and tests and the simulator pass ``gpiozero.pins.mock.MockFactory()`` (see
``mock_pin_factory()``), the mock backend that sits beside the real ones.
``close()`` releases only this object's pins, never the factory or other
devices' pins.

Events: ``ButtonPressed`` / ``ButtonReleased`` on the table's queue, with
``at`` set to the edge's time. gpiozero records each edge's ticks
(``Pin.when_changed(ticks, state)``) and exposes their age through the
public ``active_time`` / ``inactive_time`` (``pin_factory.ticks_diff
(pin_factory.ticks(), edge_ticks)``), so ``at = time.monotonic() - age``
holds for every pin factory, whatever its tick unit. For each button,
presses and releases strictly alternate: a release with no press seen (a
button already held down when ``open()`` ran) is dropped.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from hardware.device import Device
from hardware.errors import ButtonsUnavailable, DeviceClosed, HardwareConfigError, HardwareError
from hardware.events import Button, ButtonPressed, ButtonReleased, EventQueue

__all__ = [
    "BUTTON_NAMES",
    "DEFAULT_BOUNCE_TIME",
    "SeatButtons",
    "mock_pin_factory",
]

logger = logging.getLogger(__name__)

BUTTON_NAMES: Final[tuple[str, ...]] = tuple(Button)
"""The buttons a seat may have, left to right as the player sees them."""

DEFAULT_BOUNCE_TIME: Final = 0.02
"""Seconds of contact bounce ignored after an edge (handed to gpiozero's ``bounce_time``)."""


def mock_pin_factory() -> Any:
    """A fresh ``gpiozero.pins.mock.MockFactory``: buttons driven by tests or the simulator.

    Its pins keep a bounded history (``hardware.mock_pins``), so months of
    simulated presses do not grow the memory.
    """
    from hardware.mock_pins import bounded_mock_factory

    return bounded_mock_factory()


class SeatButtons(Device):
    """One seat's named buttons; puts ``ButtonPressed``/``ButtonReleased`` on the queue.

    ``pins`` maps button names (a subset of ``BUTTON_NAMES``) to gpiozero pin
    names, e.g. ``{"prev": 5, "ok": 6, "next": 13}`` or ``"GPIO5"``. The map is
    checked at construction (``HardwareConfigError``); the pins are claimed in
    ``open()``, which raises ``ButtonsUnavailable`` if one cannot be had.
    """

    def __init__(
        self,
        seat: int,
        pins: Mapping[str, int | str],
        events: EventQueue,
        *,
        pin_factory: Any = None,
        bounce_time: float | None = DEFAULT_BOUNCE_TIME,
        pull_up: bool = True,
    ) -> None:
        if not pins:
            raise HardwareConfigError(f"seat {seat} has no buttons configured")
        unknown = sorted(set(pins) - set(BUTTON_NAMES))
        if unknown:
            raise HardwareConfigError(
                f"seat {seat}'s buttons {unknown} are not known: use {', '.join(BUTTON_NAMES)}"
            )
        if len(set(pins.values())) != len(pins):
            raise HardwareConfigError(f"seat {seat}'s buttons share a pin: {dict(pins)}")
        self.seat = seat
        self.pins: dict[str, int | str] = dict(pins)
        self._events = events
        self._pin_factory = pin_factory
        self._bounce_time = bounce_time
        self._pull_up = pull_up
        self._buttons: dict[str, Any] = {}  # name -> gpiozero.DigitalInputDevice while open
        self._down: set[str] = set()
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        """Whether the pins are claimed and edges are being reported."""
        return bool(self._buttons)

    def open(self) -> None:
        """Claim the pins and start reporting edges. Does nothing if already open."""
        with self._lock:
            if self._buttons:
                return
            try:
                # Not gpiozero's Button: each Button runs a hold thread that wakes ten
                # times a second to time "held" (a table of 21 buttons spent more CPU
                # there than in its whole loop). Its parent DigitalInputDevice reports
                # the same edges with the same timing; the table times long presses.
                from gpiozero import DigitalInputDevice
            except ImportError as exc:  # pragma: no cover - gpiozero is a dependency
                raise ButtonsUnavailable(f"gpiozero is not installed ({exc})") from exc
            made: dict[str, Any] = {}
            for name, pin in self.pins.items():
                try:
                    button = DigitalInputDevice(
                        pin,
                        pull_up=self._pull_up,
                        bounce_time=self._bounce_time,
                        pin_factory=self._pin_factory,
                    )
                except Exception as exc:  # gpiozero raises many kinds; all mean "not here"
                    for claimed in made.values():
                        claimed.close()
                    raise ButtonsUnavailable(
                        f"seat {self.seat}'s {name!r} button on GPIO pin {pin} cannot be used "
                        f"({exc}): check the seat's button pins in table.toml, or set its "
                        f'buttons to "mock"'
                    ) from exc
                made[name] = button
            self._down.clear()
            for name, button in made.items():
                button.when_activated = self._on_edge(name, button, pressed=True)
                button.when_deactivated = self._on_edge(name, button, pressed=False)
            self._buttons = made

    def close(self) -> None:
        """Stop reporting and release this object's pins only. Idempotent."""
        with self._lock:
            buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.when_activated = None
            button.when_deactivated = None
            button.close()  # frees its pin

    def press(self, name: str) -> None:
        """Push a button by driving its mock pin; only with a ``MockFactory`` (tests, simulator)."""
        pin = self._mock_pin(name, "press")
        if self._pull_up:
            pin.drive_low()
        else:
            pin.drive_high()

    def release(self, name: str) -> None:
        """Let go of a button by driving its mock pin; only with a ``MockFactory``."""
        pin = self._mock_pin(name, "release")
        if self._pull_up:
            pin.drive_high()
        else:
            pin.drive_low()

    def _mock_pin(self, name: str, doing: str) -> Any:
        button = self._buttons.get(name)
        if button is None:
            if name not in self.pins:
                raise HardwareConfigError(f"seat {self.seat} has no {name!r} button")
            raise DeviceClosed(f"cannot {doing} seat {self.seat}'s {name!r} button: it is closed")
        pin = button.pin
        if not hasattr(pin, "drive_low"):
            raise HardwareError(
                f"cannot {doing} seat {self.seat}'s {name!r} button from software: "
                f"it is a real GPIO pin, not a mock"
            )
        return pin

    def _on_edge(self, name: str, button: Any, *, pressed: bool) -> Callable[[], None]:
        """Build the callback gpiozero runs (in its own thread) on one button's edge."""

        def on_edge() -> None:
            # Age of the edge by the factory's own clock, then "now" by ours: see module doc.
            age = button.active_time if pressed else button.inactive_time
            now = time.monotonic()
            at = now - age if age is not None else now
            with self._lock:
                if pressed:
                    self._down.add(name)
                elif name in self._down:
                    self._down.discard(name)
                else:
                    logger.debug("seat %d: dropped a release of %r with no press", self.seat, name)
                    return
            if pressed:
                self._events.put(ButtonPressed(self.seat, name, at))
            else:
                self._events.put(ButtonReleased(self.seat, name, at))

        return on_edge

    def __repr__(self) -> str:
        state = "open" if self.is_open else "closed"
        return f"SeatButtons(seat={self.seat}, pins={self.pins!r}, {state})"
