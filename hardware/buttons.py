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

Debounce (``bounce_time``) is a stability filter, not a lockout: a press or
release counts once the contact has held its new level that long, and is
dated from the edge that began it. On lgpio and pigpio the pin's ``bounce``
is that filter (``hardware.debounce.filters_in_hardware``); elsewhere
(``MockFactory``, RPi.GPIO, whose ``bounce`` is a lockout) each button's
edges go through ``hardware.debounce.Debouncer``, and a button whose
contact chatters for a second is reported once as a ``WiringProblem`` for
its seat. ``bounce_time=None`` (the simulator's clean mock presses) passes
every edge straight on.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from hardware.debounce import Chatter, Debouncer, Settled, filters_in_hardware
from hardware.device import Device
from hardware.errors import ButtonsUnavailable, DeviceClosed, HardwareConfigError, HardwareError
from hardware.events import Button, ButtonPressed, ButtonReleased, EventQueue, WiringProblem

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
"""Seconds a button's contact must hold a new level before the press or release counts."""


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
    ``hardware_debounce`` says whether the pin factory's ``bounce`` is a stability
    filter (None: ``filters_in_hardware`` decides from the factory).
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
        hardware_debounce: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
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
        self._hardware_debounce = hardware_debounce
        self._clock = clock  # the events' ``at`` (time.monotonic(); a fake one in tests)
        self._buttons: dict[str, Any] = {}  # name -> gpiozero.DigitalInputDevice while open
        self._debouncers: dict[str, Debouncer] = {}  # name -> its filter, when ours runs
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
                        pin, pull_up=self._pull_up, pin_factory=self._pin_factory
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
                self._debounce(name, button)
                button.when_activated = self._on_edge(name, button, pressed=True)
                button.when_deactivated = self._on_edge(name, button, pressed=False)
            self._buttons = made

    def close(self) -> None:
        """Stop reporting and release this object's pins only. Idempotent."""
        with self._lock:
            buttons, self._buttons = self._buttons, {}
            debouncers, self._debouncers = self._debouncers, {}
        for debouncer in debouncers.values():
            debouncer.close()
        for button in buttons.values():
            button.when_activated = None
            button.when_deactivated = None
            button.close()  # frees its pin

    def press(self, name: Button) -> None:
        """Push a button by driving its mock pin; only with a ``MockFactory`` (tests, simulator)."""
        pin = self._mock_pin(name.value, "press")  # its name, not the enum's repr
        if self._pull_up:
            pin.drive_low()
        else:
            pin.drive_high()

    def release(self, name: Button) -> None:
        """Let go of a button by driving its mock pin; only with a ``MockFactory``."""
        pin = self._mock_pin(name.value, "release")
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

    def _debounce(self, name: str, button: Any) -> None:
        """Set up one button's debounce: the pin's own filter, ours, or none."""
        if not self._bounce_time:
            return  # clean edges (the simulator's mock presses): every edge counts
        factory = button.pin_factory
        in_hardware = (
            filters_in_hardware(factory)
            if self._hardware_debounce is None
            else self._hardware_debounce
        )
        if in_hardware:
            button.pin.bounce = self._bounce_time
            return
        origin = factory.ticks()

        def on_settled(settled: Settled) -> None:
            assert isinstance(settled.stamp, float)  # the edge's ``at``
            self._report(name, settled.level, settled.stamp)

        def on_chatter(chatter: Chatter) -> None:
            logger.warning("seat %d's %r button: %d edges and still not settled: a loose wire "
                           "or a worn switch", self.seat, name, chatter.edges)  # fmt: skip
            self._events.put(WiringProblem(self.seat, Button(name), self._clock()))

        self._debouncers[name] = Debouncer(
            bool(button.is_active),
            on_settled,
            on_chatter,
            stable=self._bounce_time,
            # The filter's seconds count on the factory's ticks, the edges' own clock.
            clock=lambda: float(factory.ticks_diff(factory.ticks(), origin)),
            name=f"seat{self.seat}-{name}-debounce",
        )

    def settle(self) -> None:
        """Deliver the presses and releases that have held still for ``bounce_time`` by now.

        The debouncers' threads do this by themselves; a test driving the pins on
        a fake clock calls it rather than wait for them.
        """
        for debouncer in list(self._debouncers.values()):
            debouncer.settle_due()

    def _on_edge(self, name: str, button: Any, *, pressed: bool) -> Callable[[], None]:
        """Build the callback gpiozero runs (in its own thread) on one button's edge."""

        def on_edge() -> None:
            # Age of the edge by the factory's own clock, then "now" by ours: see module doc.
            age = button.active_time if pressed else button.inactive_time
            now = self._clock()
            at = now - age if age is not None else now
            debouncer = self._debouncers.get(name)
            if debouncer is None:
                self._report(name, pressed, at)
                return
            # The filter's time of the edge; ``at`` rides along as the event's time.
            since = debouncer.now() - (age or 0.0)
            debouncer.edge(pressed, since, at)

        return on_edge

    def _report(self, name: str, pressed: bool, at: float) -> None:
        """A press or release that counts: on the queue, presses and releases alternating."""
        with self._lock:
            if pressed:
                self._down.add(name)
            elif name in self._down:
                self._down.discard(name)
            else:
                logger.debug("seat %d: dropped a release of %r with no press", self.seat, name)
                return
        # ``name`` is one of BUTTON_NAMES (checked when the seat was made), so a Button.
        if pressed:
            self._events.put(ButtonPressed(self.seat, Button(name), at))
        else:
            self._events.put(ButtonReleased(self.seat, Button(name), at))

    def __repr__(self) -> str:
        state = "open" if self.is_open else "closed"
        return f"SeatButtons(seat={self.seat}, pins={self.pins!r}, {state})"
