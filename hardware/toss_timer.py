"""The toss timer: one GPIO button (or a contact pad under the Jack) that times tosses.

Two modes, chosen when the timer is built:

* ``"press"`` (a push button): a press starts timing, the next press stops it.
  The stop takes effect at the press edge, and is reported when the button
  comes back up, because a long press (held ``long_press`` seconds or more)
  cancels instead: the toss being timed, or the one just started, is thrown away.
* ``"pad"`` (a contact pad: the Jack rests on a switch): lifting the Jack
  (the switch opens: a *release*) starts timing, putting it back (a *press*)
  stops it at once. The Jack rests on the pad for as long as it likes, so a
  long press cannot mean "cancel" here: a toss longer than ``max_duration``
  is cancelled instead (the Jack fell off the pad), and ``cancel()`` cancels
  from software.

Wiring is the seat buttons' (``hardware/buttons.py``): the switch between the
GPIO pin and ground, the Pi's internal pull-up, so a press (or the Jack on
the pad) pulls the pin low.

Times come from the GPIO edges, not from when anything reads them: the pin
factory hands every edge's ``ticks`` to ``Pin.when_changed(ticks, state)``,
and a duration is ``pin_factory.ticks_diff(stop_ticks, start_ticks)`` -
seconds, whatever the factory's tick unit (lgpio on a Pi, ``MockFactory`` in
tests). The ``at``/``started_at``/``stopped_at`` fields are converted to
``time.monotonic()`` values (the clock every other input event uses) from the
edge's age, ``clock() - ticks_diff(ticks(), edge_ticks)``.

Debounce is a stability filter, not a lockout: a new level counts once the
contact has held it for ``bounce_time`` seconds, so chatter (a loose wire at
1 kHz) never makes a toss. Where the pin factory filters that way below
Python (lgpio's ``gpio_set_debounce_micros``, pigpio's glitch filter:
``hardware.debounce.filters_in_hardware``) the pin's ``bounce`` is set and
only settled edges arrive. Elsewhere (``MockPin`` ignores ``bounce``;
RPi.GPIO's and the native factory's ``bounce`` is a lockout) the filter
runs here, on the edges' own ticks (``hardware.debounce``), dating a change
from the edge that began the quiet stretch, and a contact that chatters for
a second is reported once as a ``WiringProblem``. A toss shorter than ``min_duration`` (nobody
tosses the Jack in under a tenth of a second) is refused as a glitch:
``TossCancelled`` with the reason ``"too short"``, and a warning in the log.
The simulator's mock pin (``bounce_time=0``, ``min_duration=0``) bypasses
both: its press and release come at the same instant.

Events (frozen dataclasses) go on the table's queue: :class:`TossStarted`,
:class:`TossStopped` and :class:`TossCancelled`. Like every device, the timer
claims its pin only in ``open()`` and releases only that pin in ``close()``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Final, Literal

from hardware.debounce import Chatter, Debouncer, Settled, filters_in_hardware
from hardware.device import Device
from hardware.errors import ButtonsUnavailable, DeviceClosed, HardwareConfigError, HardwareError
from hardware.events import (
    EventQueue,
    TimerEvent,
    TossCancelled,
    TossStarted,
    TossStopped,
    WiringProblem,
)

__all__ = [
    "DEFAULT_BOUNCE_TIME",
    "DEFAULT_LONG_PRESS",
    "DEFAULT_MAX_DURATION",
    "MIN_TOSS",
    "MODES",
    "TimerEvent",
    "TossCancelled",
    "TossStarted",
    "TossStopped",
    "TossTimer",
]

logger = logging.getLogger(__name__)

MODES: Final = ("press", "pad")
"""``"press"``: press starts, the next press stops. ``"pad"``: release starts, press stops."""

DEFAULT_BOUNCE_TIME: Final = 0.02
"""Seconds the contact must hold a new level before it counts (a stability filter)."""

MIN_TOSS: Final = 0.1
"""The shortest toss a person can make (seconds): anything shorter is a glitch, refused.

A Jack thrown up and caught at the height it left falls freely both ways, so
a toss rising ``h`` metres lasts ``2 * sqrt(2 * h / g)``: 0.1 s is a rise of
1.2 cm, 0.2 s of 5 cm. A toss in Oss clears the hand by a hand's breadth or
more (0.3 s and up); a "toss" under a tenth of a second is a contact that
opened and closed, not a Jack in the air."""

DEFAULT_LONG_PRESS: Final = 1.5
"""In press mode, a press held at least this long (seconds) cancels."""

DEFAULT_MAX_DURATION: Final = 60.0
"""A toss longer than this (seconds) is cancelled when it stops (e.g. the Jack fell off the pad)."""

Mode = Literal["press", "pad"]


class TossTimer(Device):
    """One toss timer on one GPIO pin; see the module docstring.

    ``events`` is the table's queue (``hardware.events.EventQueue``). ``pin`` is a
    gpiozero pin name or BCM number. ``pin_factory`` is injected like the
    seat buttons' (``None``: gpiozero's default; tests pass a ``MockFactory``).
    ``clock`` converts edge ticks to ``time.monotonic()``-style timestamps.
    ``hardware_debounce`` says whether the pin factory's ``bounce`` is a stability
    filter (None: ``filters_in_hardware`` decides from the factory).
    """

    def __init__(
        self,
        pin: int | str,
        events: EventQueue,
        *,
        name: str = "toss",
        mode: str = "press",
        pin_factory: Any = None,
        bounce_time: float = DEFAULT_BOUNCE_TIME,
        long_press: float = DEFAULT_LONG_PRESS,
        max_duration: float | None = DEFAULT_MAX_DURATION,
        min_duration: float = MIN_TOSS,
        pull_up: bool = True,
        clock: Callable[[], float] = time.monotonic,
        hardware_debounce: bool | None = None,
    ) -> None:
        if mode not in MODES:
            raise HardwareConfigError(
                f'toss timer {name!r}: mode must be "press" or "pad", not {mode!r}'
            )
        if bounce_time < 0 or long_press <= bounce_time:
            raise HardwareConfigError(
                f"toss timer {name!r}: need 0 <= bounce_time < long_press, "
                f"not bounce_time={bounce_time}, long_press={long_press}"
            )
        if max_duration is not None and max_duration <= 0:
            raise HardwareConfigError(f"toss timer {name!r}: max_duration must be positive")
        self.name = name
        self.pin = pin
        self.mode: Mode = "press" if mode == "press" else "pad"
        self.bounce_time = bounce_time
        self.long_press = long_press
        self.max_duration = max_duration
        self.min_duration = min_duration
        self._events = events
        self._factory_given = pin_factory
        self._pull_up = pull_up
        self._clock = clock
        self._hardware_debounce = hardware_debounce
        self._lock = threading.Lock()
        self._factory: Any = None
        self._pin: Any = None
        # Debounced state, from edges only.
        self._pressed = False
        self._last_edge: Any = None  # ticks of the last accepted edge
        self._press_ticks: Any = None  # ticks of the press being held (press mode)
        self._start_ticks: Any = None  # ticks of the start of the toss being timed
        self._stop_ticks: Any = None  # press mode: the stopping press, until its release
        # A strong reference: gpiozero keeps only a weak one to when_changed callbacks.
        self._callback: Callable[[Any, int], None] | None = None
        self._debouncer: Debouncer | None = None  # None: edges count as they come
        self._origin: Any = None  # the ticks the debouncer's seconds count from

    # --- life cycle ------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self._pin is not None

    @property
    def running(self) -> bool:
        """Whether a toss is being timed (started and neither stopped nor cancelled)."""
        with self._lock:
            return self._start_ticks is not None and self._stop_ticks is None

    def open(self) -> None:
        """Claim the pin and start timing edges. Does nothing if already open."""
        with self._lock:
            if self._pin is not None:
                return
            try:
                factory = self._factory_given
                if factory is None:
                    from gpiozero import Device

                    if Device.pin_factory is None:
                        Device.pin_factory = Device._default_pin_factory()
                    factory = Device.pin_factory
                factory.reserve_pins(self, self.pin)
            except Exception as exc:  # gpiozero raises many kinds; all mean "not here"
                raise ButtonsUnavailable(
                    f"toss timer {self.name!r} on GPIO pin {self.pin} cannot be used ({exc}): "
                    'check its pin in table.toml, or set it to "mock"'
                ) from exc
            try:
                pin = factory.pin(self.pin)
                # Set only what differs: setting it again would re-drive a mock pin.
                if pin.function != "input":
                    pin.function = "input"
                pull = "up" if self._pull_up else "down"
                if pin.pull != pull:
                    pin.pull = pull
                in_hardware = self.bounce_time > 0 and (
                    filters_in_hardware(factory)
                    if self._hardware_debounce is None
                    else self._hardware_debounce
                )
                # A stability filter below Python where the backend has one; else ours.
                pin.bounce = self.bounce_time if in_hardware else None
                pin.edges = "both"
                self._pressed = bool(pin.state) != self._pull_up
            except Exception as exc:
                factory.release_pins(self, self.pin)
                raise ButtonsUnavailable(
                    f"toss timer {self.name!r} on GPIO pin {self.pin} cannot be set up ({exc})"
                ) from exc
            self._factory = factory
            self._pin = pin
            self._last_edge = None
            self._press_ticks = self._start_ticks = self._stop_ticks = None
            if self.bounce_time > 0 and not in_hardware:
                origin = self._origin = factory.ticks()
                self._debouncer = Debouncer(
                    self._pressed,
                    self._on_settled,
                    self._on_chatter,
                    stable=self.bounce_time,
                    clock=lambda: float(factory.ticks_diff(factory.ticks(), origin)),
                    name=f"toss-{self.name}-debounce",
                )
            self._callback = self._on_change
            pin.when_changed = self._callback

    def close(self) -> None:
        """Stop timing and release this timer's pin only. Idempotent."""
        with self._lock:
            pin, factory = self._pin, self._factory
            self._pin = self._factory = None
            self._callback = None
            debouncer, self._debouncer = self._debouncer, None
        if debouncer is not None:
            debouncer.close()
        if pin is not None:
            pin.when_changed = None
            pin.close()
            factory.release_pins(self, self.pin)

    def _conflicts_with(self, other: object) -> bool:
        # gpiozero asks every reserver of a pin this when another device wants it:
        # the timer shares its pin with nothing.
        return True

    # --- software control ---------------------------------------------------------------

    def cancel(self) -> bool:
        """Cancel the toss being timed, if any (e.g. staff, or pad mode); True if one was."""
        with self._lock:
            if self._start_ticks is None:
                return False
            self._start_ticks = self._stop_ticks = None
            event = TossCancelled(self.name, self._clock(), "cancelled")
        self._events.put(event)
        return True

    def press(self) -> None:
        """Push the button (or put the Jack on the pad) by driving the mock pin; tests only."""
        pin = self._mock_pin("press")
        if self._pull_up:
            pin.drive_low()
        else:
            pin.drive_high()

    def release(self) -> None:
        """Let go of the button (or lift the Jack) by driving the mock pin; tests only."""
        pin = self._mock_pin("release")
        if self._pull_up:
            pin.drive_high()
        else:
            pin.drive_low()

    def _mock_pin(self, doing: str) -> Any:
        pin = self._pin
        if pin is None:
            raise DeviceClosed(f"cannot {doing} toss timer {self.name!r}: it is closed")
        if not hasattr(pin, "drive_low"):
            raise HardwareError(
                f"cannot {doing} toss timer {self.name!r} from software: it is a real GPIO pin"
            )
        return pin

    # --- edges ----------------------------------------------------------------------------

    def _on_change(self, ticks: Any, state: int) -> None:
        """gpiozero's edge callback (its own thread): to the stability filter, or straight on."""
        pressed = bool(state) != self._pull_up
        debouncer, factory = self._debouncer, self._factory
        if debouncer is not None and factory is not None:
            debouncer.edge(pressed, float(factory.ticks_diff(ticks, self._origin)), ticks)
        else:
            self._accept(ticks, pressed)

    def settle(self) -> None:
        """Deliver a change the contact has held still for ``bounce_time`` by now.

        The debouncer's thread does this by itself; a caller that drives the pins
        (tests, on a fake clock) calls it rather than wait for that thread.
        """
        debouncer = self._debouncer
        if debouncer is not None:
            debouncer.settle_due()

    def _on_settled(self, settled: Settled) -> None:
        """The debouncer's thread: the contact held its new level; dated from its edge."""
        self._accept(settled.stamp, settled.level)

    def _on_chatter(self, chatter: Chatter) -> None:
        """The debouncer saw the contact chatter: a wiring problem, said once per outbreak."""
        logger.warning("toss timer %s on GPIO %s: %d edges and still not settled: a loose "
                       "wire or a worn contact", self.name, self.pin, chatter.edges)  # fmt: skip
        self._events.put(WiringProblem(None, "timer", self._clock()))

    def _accept(self, ticks: Any, pressed: bool) -> None:
        """A debounced edge: run the mode's rules."""
        with self._lock:
            factory = self._factory
            if factory is None:
                return
            if pressed == self._pressed:
                return  # no change of the debounced state: a missed edge
            self._last_edge = ticks
            self._pressed = pressed
            # One reference instant per edge: every timestamp of the event uses it.
            now, now_ticks = self._clock(), factory.ticks()

            def at(edge: Any) -> float:
                return float(now - factory.ticks_diff(now_ticks, edge))

            if self.mode == "press":
                events = self._press_mode(ticks, pressed, at)
            else:
                events = self._pad_mode(ticks, pressed, at)
        for event in events:
            self._events.put(event)

    def _press_mode(
        self, ticks: Any, pressed: bool, at: Callable[[Any], float]
    ) -> list[TimerEvent]:
        factory = self._factory
        if pressed:
            self._press_ticks = ticks
            if self._start_ticks is None:
                self._start_ticks = ticks
                return [TossStarted(self.name, at(ticks))]
            if self._stop_ticks is None:
                self._stop_ticks = ticks  # settled at the release: a long press cancels
            return []
        held_from = self._press_ticks
        self._press_ticks = None
        if held_from is None or self._start_ticks is None:
            return []  # a release with no press seen (held at open, or after a cancel)
        if factory.ticks_diff(ticks, held_from) >= self.long_press:
            self._start_ticks = self._stop_ticks = None
            return [TossCancelled(self.name, at(ticks), "long press")]
        if self._stop_ticks is None:
            return []  # the release of the starting press: the toss goes on
        return [self._stopped(self._start_ticks, self._stop_ticks, ticks, at)]

    def _pad_mode(self, ticks: Any, pressed: bool, at: Callable[[Any], float]) -> list[TimerEvent]:
        if not pressed:
            self._start_ticks = ticks  # the Jack left the pad
            return [TossStarted(self.name, at(ticks))]
        if self._start_ticks is None:
            return []  # the Jack put on the pad: ready
        return [self._stopped(self._start_ticks, ticks, ticks, at)]

    def _stopped(
        self, start: Any, stop: Any, settled: Any, at: Callable[[Any], float]
    ) -> TimerEvent:
        duration = float(self._factory.ticks_diff(stop, start))
        self._start_ticks = self._stop_ticks = None
        if self.max_duration is not None and duration > self.max_duration:
            return TossCancelled(self.name, at(settled), "too long")
        if duration < self.min_duration:
            logger.warning("toss timer %s: a toss of %.0f ms is too short to be one (a glitch "
                           "on the contact?): not counted", self.name, duration * 1000)  # fmt: skip
            return TossCancelled(self.name, at(settled), "too short")
        return TossStopped(self.name, at(start), at(stop), duration, at(settled))

    def __repr__(self) -> str:
        state = "open" if self.is_open else "closed"
        return f"TossTimer({self.name!r}, pin={self.pin!r}, mode={self.mode!r}, {state})"
