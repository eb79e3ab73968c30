"""The toss timer on gpiozero's MockFactory, with edges driven at known times.

MockPin stamps each edge with ``gpiozero.pins.mock.monotonic()`` and
``MockFactory.ticks()`` reads the same function, so the tests replace it with
a fake clock: every edge happens at a chosen instant and the measured
durations can be checked exactly. The times used are binary fractions
(0.25, 1.125, ...) so the float arithmetic is exact as well.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.errors import ButtonsUnavailable, DeviceClosed, HardwareConfigError
from hardware.toss_timer import TossCancelled, TossStarted, TossStopped, TossTimer
from tests.mock_gpio import FakeClock

PIN = 9
SETTLED = 0.03125  # past the default debounce time (a binary fraction, so sums stay exact)


@pytest.fixture
def factory(clock: FakeClock) -> Iterator[Any]:
    made = MockFactory()
    yield made
    made.close()


class Rig:
    def __init__(self, factory: Any, clock: FakeClock, **options: Any) -> None:
        self.clock = clock
        self.events: queue.SimpleQueue[Any] = queue.SimpleQueue()
        # The timer's own clock runs 500 s behind the pins' ticks, so a test can tell
        # a converted timestamp from a raw tick.
        self.timer = TossTimer(
            PIN,
            self.events,
            name="centre",
            pin_factory=factory,
            clock=lambda: clock.now - 500.0,
            **options,
        )
        self.pin = factory.pin(PIN)
        self.last_edge = clock.now

    def edge(self, at: float, pressed: bool) -> None:
        """Drive one edge at ``at`` (pull-up wiring: a press pulls the pin low)."""
        self.clock.now = self.last_edge = at
        if pressed:
            self.pin.drive_low()
        else:
            self.pin.drive_high()

    def press(self, down: float, up: float) -> None:
        self.edge(down, True)
        self.edge(up, False)

    def drained(self) -> list[Any]:
        """The events so far, once the debounce time after the last edge has passed."""
        self.clock.now = max(self.clock.now, self.last_edge) + SETTLED
        self.timer.settle()
        found = []
        while True:
            try:
                found.append(self.events.get_nowait())
            except queue.Empty:
                return found


def make(factory: Any, clock: FakeClock, **options: Any) -> Rig:
    rig = Rig(factory, clock, **options)
    rig.timer.open()
    return rig


def test_press_mode_times_from_edge_to_edge(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock)
    rig.press(1001.0, 1001.125)
    rig.edge(1003.375, True)
    # Not settled while the stopping press is held (it could still become a long press).
    assert rig.drained() == [TossStarted("centre", 501.0)]
    # The loop reads the release much later; the duration is still edge to edge.
    rig.edge(1003.5, False)
    clock.now = 1010.0
    [stopped] = rig.drained()
    assert isinstance(stopped, TossStopped)
    assert stopped.duration == 2.375
    assert stopped.millis == 2375
    assert (stopped.started_at, stopped.stopped_at, stopped.at) == (501.0, 503.375, 503.5)
    assert not rig.timer.running


def test_a_duration_to_the_millisecond(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock)
    rig.press(2000.0, 2000.0625)
    rig.press(2000.0 + 1.234, 2000.0 + 1.3)
    stopped = rig.drained()[-1]
    assert isinstance(stopped, TossStopped)
    assert stopped.millis == 1234
    assert stopped.duration == pytest.approx(1.234, abs=1e-9)


def test_several_tosses_in_a_row(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock)
    t = 1000.0
    expected = [0.5, 0.25, 3.0]
    for duration in expected:
        rig.press(t, t + 0.0625)
        rig.press(t + duration, t + duration + 0.0625)
        t += 10
    stops = [e for e in rig.drained() if isinstance(e, TossStopped)]
    assert [s.duration for s in stops] == expected


def test_contact_bounce_is_ignored(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock, bounce_time=0.03125)
    # The start press bounces: low, high, low within 8 ms of the first edge.
    rig.edge(1000.0, True)
    rig.edge(1000.00390625, False)
    rig.edge(1000.0078125, True)
    rig.edge(1000.25, False)
    # The stop press bounces too.
    rig.edge(1001.5, True)
    rig.edge(1001.51171875, False)
    rig.edge(1001.515625, True)
    rig.edge(1001.75, False)
    rig.edge(1001.76171875, True)  # release bounce
    rig.edge(1001.765625, False)
    events = rig.drained()
    assert [type(e) for e in events] == [TossStarted, TossStopped]
    assert events[1].duration == 1.5
    assert events[0].at == 500.0


def test_an_edge_just_after_the_bounce_time_counts(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock, bounce_time=0.03125)
    rig.edge(1000.0, True)
    rig.edge(1000.03125, False)  # exactly the bounce time later: a real release
    rig.press(1000.5, 1000.625)
    stopped = rig.drained()[-1]
    assert isinstance(stopped, TossStopped) and stopped.duration == 0.5


def test_a_long_press_cancels_the_toss_being_timed(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock, long_press=1.5)
    rig.press(1000.0, 1000.125)
    rig.press(1002.0, 1003.5)  # held exactly 1.5 s
    events = rig.drained()
    assert events == [TossStarted("centre", 500.0), TossCancelled("centre", 503.5, "long press")]
    assert not rig.timer.running
    # The next press starts a fresh toss.
    rig.press(1010.0, 1010.125)
    rig.press(1010.75, 1010.875)
    stopped = rig.drained()[-1]
    assert isinstance(stopped, TossStopped) and stopped.duration == 0.75


def test_a_press_just_shorter_than_long_still_stops(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock, long_press=1.5)
    rig.press(1000.0, 1000.125)
    rig.press(1002.0, 1003.25)  # held 1.25 s
    stopped = rig.drained()[-1]
    assert isinstance(stopped, TossStopped)
    assert stopped.duration == 2.0  # the stop is the press edge, not the release


def test_a_long_first_press_cancels_the_start(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock, long_press=1.5)
    rig.press(1000.0, 1002.0)
    assert rig.drained() == [
        TossStarted("centre", 500.0),
        TossCancelled("centre", 502.0, "long press"),
    ]
    assert not rig.timer.running


def test_pad_mode_release_starts_and_press_stops(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock, mode="pad")
    rig.edge(1000.0, True)  # the Jack is put on the pad: ready, nothing timed
    assert rig.drained() == []
    rig.edge(1001.0, False)  # lifted
    clock.now = 1001.25
    rig.timer.settle()  # once the lift has held still, the toss is being timed
    assert rig.timer.running
    rig.edge(1001.875, True)  # back on the pad: stopped at once
    events = rig.drained()
    assert events[0] == TossStarted("centre", 501.0)
    stopped = events[1]
    assert isinstance(stopped, TossStopped)
    assert stopped.duration == 0.875
    assert stopped.at == stopped.stopped_at == 501.875
    # Resting on the pad for a long time is not a "long press".
    rig.edge(1030.0, False)
    rig.edge(1030.5, True)
    later = rig.drained()
    assert [type(e) for e in later] == [TossStarted, TossStopped]
    assert later[1].duration == 0.5


def test_pad_mode_with_the_jack_resting_at_open(factory: Any, clock: FakeClock) -> None:
    rig = Rig(factory, clock, mode="pad")
    rig.pin.pull = "up"
    rig.edge(999.0, True)  # the Jack already on the pad before the table starts
    rig.timer.open()
    rig.edge(1000.0, False)
    rig.edge(1000.25, True)
    events = rig.drained()
    assert [type(e) for e in events] == [TossStarted, TossStopped]
    assert events[1].duration == 0.25


def test_pad_mode_bounce_on_landing(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock, mode="pad", bounce_time=0.03125)
    rig.edge(1000.0, True)
    rig.edge(1001.0, False)
    rig.edge(1002.0, True)  # the Jack lands and rattles
    rig.edge(1002.0078125, False)
    rig.edge(1002.015625, True)
    events = rig.drained()
    assert [type(e) for e in events] == [TossStarted, TossStopped]
    assert events[1].duration == 1.0


def test_a_toss_longer_than_the_maximum_is_cancelled(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock, mode="pad", max_duration=10.0)
    rig.edge(1000.0, True)
    rig.edge(1001.0, False)  # the Jack fell off the pad ...
    rig.edge(1020.0, True)  # ... and was put back much later
    assert rig.drained()[-1] == TossCancelled("centre", 520.0, "too long")


def test_cancel_from_software(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock)
    assert not rig.timer.cancel()
    rig.press(1000.0, 1000.125)
    clock.now = 1001.0
    assert rig.timer.cancel()
    assert rig.drained()[-1] == TossCancelled("centre", 501.0, "cancelled")
    # The next press starts again.
    rig.press(1002.0, 1002.125)
    assert rig.drained() == [TossStarted("centre", 502.0)]


def test_mock_press_helpers_and_close(factory: Any, clock: FakeClock) -> None:
    rig = make(factory, clock)
    for down in (1000.0, 1000.5):
        clock.now = down
        rig.timer.press()
        clock.now = down + 0.125
        rig.timer.release()
    stopped = rig.drained()[-1]
    assert isinstance(stopped, TossStopped) and stopped.duration == 0.5
    rig.timer.close()
    rig.timer.close()  # idempotent
    with pytest.raises(DeviceClosed):
        rig.timer.press()
    # Edges after close are not reported, and the pin can be claimed again.
    rig.edge(1001.0, True)
    assert rig.drained() == []
    again = TossTimer(PIN, rig.events, pin_factory=factory)
    again.open()
    again.close()


def test_the_pin_cannot_be_shared(factory: Any, clock: FakeClock) -> None:
    from gpiozero import Button

    rig = make(factory, clock)
    with pytest.raises(Exception, match="in use"):
        Button(PIN, pin_factory=factory)
    other = TossTimer(PIN, rig.events, pin_factory=factory)
    with pytest.raises(ButtonsUnavailable, match="GPIO pin 9"):
        other.open()
    rig.timer.close()


def test_bad_settings_are_refused() -> None:
    events: queue.SimpleQueue[Any] = queue.SimpleQueue()
    with pytest.raises(HardwareConfigError, match="mode"):
        TossTimer(PIN, events, mode="hold")
    with pytest.raises(HardwareConfigError, match="long_press"):
        TossTimer(PIN, events, bounce_time=0.5, long_press=0.25)
    with pytest.raises(HardwareConfigError, match="max_duration"):
        TossTimer(PIN, events, max_duration=0)
