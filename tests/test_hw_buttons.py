"""Seat buttons on gpiozero's MockFactory: edges become typed events for the right seat.

The mock pins and the buttons' debounce run on a fake clock (``gpiozero.pins.mock``'s
``monotonic``, as in tests/test_toss_timer.py): an edge happens at a chosen instant
and ``settle`` (past the debounce time) delivers what has held still, so nothing
here waits on the real clock but the one test that lets the debouncer's thread do it.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from hardware.buttons import BUTTON_NAMES, DEFAULT_BOUNCE_TIME, SeatButtons, mock_pin_factory
from hardware.debounce import CHATTER_AFTER, filters_in_hardware
from hardware.errors import (
    ButtonsUnavailable,
    DeviceClosed,
    HardwareConfigError,
    HardwareError,
)
from hardware.events import Button as SeatButton
from hardware.events import ButtonPressed, ButtonReleased, EventQueue, InputEvent, WiringProblem
from tests.mock_gpio import FakeClock
from tests.test_debounce import MS, bounce, chatter

SEAT1 = {"prev": 5, "ok": 6, "next": 13}
SEAT2 = {"prev": 19, "ok": 26, "next": 21}


@pytest.fixture
def factory(clock: FakeClock) -> Iterator[Any]:
    pins = MockFactory()
    yield pins
    pins.reset()


def later(clock: FakeClock, *buttons: SeatButtons, by: float = 0.25) -> None:
    """Let ``by`` seconds pass (well over the debounce time) and deliver what held still."""
    clock.now += by
    for seat in buttons:
        seat.settle()


@pytest.fixture
def events() -> EventQueue:
    return queue.SimpleQueue()


def drain(events: EventQueue) -> list[InputEvent]:
    out: list[InputEvent] = []
    while True:
        try:
            out.append(events.get_nowait())
        except queue.Empty:
            return out


def test_button_names_are_documented_left_to_right() -> None:
    assert BUTTON_NAMES == ("prev", "ok", "next")


def test_press_and_release_become_events_with_the_edge_time(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    with SeatButtons(1, SEAT1, events, pin_factory=factory) as buttons:
        pin = factory.pin(6)
        # Pull-up wiring: the idle pin reads high, a press pulls it low.
        assert pin.pull == "up"
        assert pin.state is True
        assert events.empty()  # opening reports no edges

        before = time.monotonic()
        pin.drive_low()
        after_press = time.monotonic()
        later(clock, buttons)
        pin.drive_high()
        after_release = time.monotonic()
        later(clock, buttons)

    pressed, released = drain(events)
    assert isinstance(pressed, ButtonPressed)
    assert (pressed.seat, pressed.button) == (1, SeatButton.OK)
    # The enum itself, not its name: the table takes the event's button as it comes.
    assert type(pressed.button) is SeatButton
    assert before <= pressed.at <= after_press
    assert isinstance(released, ButtonReleased)
    assert (released.seat, released.button) == (1, SeatButton.OK)
    assert type(released.button) is SeatButton
    assert pressed.at <= released.at <= after_release
    pin.assert_states([False, True, False, True])  # floating, pulled up, pressed, released


def test_each_edge_reaches_the_right_seat_and_button(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    with (
        SeatButtons(1, SEAT1, events, pin_factory=factory) as seat1,
        SeatButtons(2, SEAT2, events, pin_factory=factory) as seat2,
    ):
        factory.pin(21).drive_low()  # seat 2 "next"
        later(clock, seat1, seat2)
        factory.pin(5).drive_low()  # seat 1 "prev"
        later(clock, seat1, seat2)
        factory.pin(21).drive_high()
        later(clock, seat1, seat2)
        factory.pin(5).drive_high()
        later(clock, seat1, seat2)
    got = [
        (type(e).__name__, getattr(e, "seat", None), getattr(e, "button", None))
        for e in drain(events)
    ]
    assert got == [
        ("ButtonPressed", 2, "next"),
        ("ButtonPressed", 1, "prev"),
        ("ButtonReleased", 2, "next"),
        ("ButtonReleased", 1, "prev"),
    ]


def test_a_stability_filtering_pin_factory_is_handed_the_bounce_time(
    factory: Any, events: EventQueue
) -> None:
    # lgpio and pigpio filter by stability themselves: the pins get the bounce time.
    with SeatButtons(
        1, SEAT1, events, pin_factory=factory, bounce_time=0.05, hardware_debounce=True
    ):
        assert {factory.pin(p).bounce for p in SEAT1.values()} == {0.05}
    # MockPin ignores ``bounce`` (and RPi.GPIO's is a lockout): the filter runs here instead.
    assert not filters_in_hardware(factory)
    with SeatButtons(2, SEAT2, events, pin_factory=factory):
        assert factory.pin(19).bounce is None


def test_only_lgpio_and_pigpio_count_as_filtering_in_hardware() -> None:
    lgpio = type("LGPIOFactory", (), {"__module__": "gpiozero.pins.lgpio"})
    pigpio = type("PiGPIOFactory", (), {"__module__": "gpiozero.pins.pigpio"})
    rpigpio = type("RPiGPIOFactory", (), {"__module__": "gpiozero.pins.rpigpio"})
    assert filters_in_hardware(lgpio()) and filters_in_hardware(pigpio())
    assert not filters_in_hardware(rpigpio()) and not filters_in_hardware(MockFactory())


def test_pull_down_wiring_presses_on_a_high_level(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    with SeatButtons(0, {"ok": 17}, events, pin_factory=factory, pull_up=False) as buttons:
        pin = factory.pin(17)
        assert pin.pull == "down"
        pin.drive_high()
        later(clock, buttons)
        pin.drive_low()
        later(clock, buttons)
    assert [type(e) for e in drain(events)] == [ButtonPressed, ButtonReleased]


def test_press_and_release_helpers_drive_the_mock_pins(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    with SeatButtons(3, SEAT1, events, pin_factory=factory) as buttons:
        buttons.press(SeatButton.NEXT)
        later(clock, buttons)
        buttons.release(SeatButton.NEXT)
        later(clock, buttons)
    only_ok = SeatButtons(4, {"ok": 20}, events, pin_factory=factory)
    with only_ok, pytest.raises(HardwareConfigError, match="seat 4 has no 'next' button"):
        only_ok.press(SeatButton.NEXT)
    drained = drain(events)
    assert [(type(e), getattr(e, "seat", None)) for e in drained] == [
        (ButtonPressed, 3),
        (ButtonReleased, 3),
    ]
    with pytest.raises(DeviceClosed):
        buttons.press(SeatButton.NEXT)


def test_close_is_idempotent_and_releases_only_its_own_pins(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    toss = Button(4, pin_factory=factory)  # someone else's device on the same factory
    toss_presses: list[bool] = []
    toss.when_pressed = lambda: toss_presses.append(True)
    seat1 = SeatButtons(1, SEAT1, events, pin_factory=factory)
    seat2 = SeatButtons(2, SEAT2, events, pin_factory=factory)
    seat1.open()
    seat2.open()
    seat1.close()
    seat1.close()
    assert not seat1.is_open and seat2.is_open

    factory.pin(6).drive_low()  # seat 1's released pin: no event any more
    factory.pin(26).drive_low()  # seat 2 still reports
    factory.pin(4).drive_low()  # the toss button still works
    later(clock, seat2)
    reported = drain(events)
    assert len(reported) == 1
    assert isinstance(reported[0], ButtonPressed)
    assert (reported[0].seat, reported[0].button) == (2, "ok")
    assert toss_presses == [True]
    assert not toss.closed

    # Seat 1's pins are free again: another device can claim them.
    reuse = Button(6, pin_factory=factory)
    reuse.close()
    seat2.close()
    toss.close()


def test_open_is_idempotent(factory: Any, clock: FakeClock, events: EventQueue) -> None:
    buttons = SeatButtons(1, SEAT1, events, pin_factory=factory)
    buttons.open()
    buttons.open()  # a second claim of the same pins would raise GPIOPinInUse
    factory.pin(5).drive_low()
    later(clock, buttons)
    assert len(drain(events)) == 1  # one callback per edge, not two
    buttons.close()


def test_a_pin_in_use_gives_a_clear_error_and_frees_what_was_claimed(
    factory: Any, events: EventQueue
) -> None:
    squatter = Button(13, pin_factory=factory)  # seat 1's "next" pin, taken
    buttons = SeatButtons(1, SEAT1, events, pin_factory=factory)
    with pytest.raises(ButtonsUnavailable) as caught:
        buttons.open()
    message = str(caught.value)
    assert "seat 1's 'next' button on GPIO pin 13 cannot be used" in message
    assert '"mock"' in message
    assert isinstance(caught.value, HardwareError) and isinstance(caught.value, OSError)
    assert not buttons.is_open
    # "prev" and "ok" were claimed before the failure and must have been let go.
    for pin in (5, 6):
        Button(pin, pin_factory=factory).close()
    squatter.close()
    buttons.open()  # works now that the pin is free
    buttons.close()


@pytest.mark.parametrize(
    ("pins", "words"),
    [
        ({}, "no buttons"),
        ({"left": 5}, "not known"),
        ({"prev": 5, "ok": 5}, "share a pin"),
    ],
)
def test_bad_pin_maps_are_refused_at_construction(
    pins: dict[str, int], words: str, events: EventQueue
) -> None:
    with pytest.raises(HardwareConfigError, match=words):
        SeatButtons(1, pins, events, pin_factory=mock_pin_factory())


def test_constructing_claims_nothing(factory: Any, events: EventQueue) -> None:
    buttons = SeatButtons(1, SEAT1, events, pin_factory=factory)
    assert not buttons.is_open
    Button(5, pin_factory=factory).close()  # the pin is still free
    buttons.close()  # closing a never-opened device is fine


def test_idle_buttons_run_no_thread_of_their_own(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    # gpiozero's Button keeps a hold thread per button that wakes ten times a second;
    # a table of 21 idle buttons spent more CPU there than in its loop. Seat buttons
    # use the plain input device, and a debouncer's thread lives only while an edge
    # waits to settle, so idle buttons run no thread at all.
    import threading

    before = {t.ident for t in threading.enumerate()}

    def started() -> list[str]:
        return [t.name for t in threading.enumerate() if t.ident not in before and t.is_alive()]

    with SeatButtons(1, SEAT1, events, pin_factory=factory) as buttons:
        assert started() == []
        factory.pin(6).drive_low()
        assert started() == ["seat1-ok-debounce"]  # the press waits to settle
        later(clock, buttons)
        for thread in threading.enumerate():
            if thread.name == "seat1-ok-debounce":
                thread.join(5)
        assert started() == []  # settled: the thread is gone
    assert [type(e) for e in drain(events)] == [ButtonPressed]


# --- debounce: a stability filter on the real pins ------------------------------------


def drive(factory: Any, clock: FakeClock, pin: int, edges: Any) -> None:
    """Drive ``pin`` through (time, pressed) edges, each at its instant (pull-up wiring)."""
    for at, pressed in edges:
        clock.now = at
        if pressed:
            factory.pin(pin).drive_low()
        else:
            factory.pin(pin).drive_high()


def test_a_button_chattering_at_1khz_presses_nothing_and_is_reported_as_wiring(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    with SeatButtons(2, SEAT2, events, pin_factory=factory, clock=clock) as buttons:
        drive(factory, clock, 26, chatter(1001.0, 0.2, period=MS))  # "ok": a loose wire
        later(clock, buttons)
        found = drain(events)
        assert not any(isinstance(e, ButtonPressed | ButtonReleased) for e in found)
        # Said once, for its seat and button, once it has chattered CHATTER_AFTER seconds.
        wiring = [e for e in found if isinstance(e, WiringProblem)]
        assert [(e.seat, e.device) for e in wiring] == [(2, "ok")]
        assert wiring[0].at == pytest.approx(1001.0 + CHATTER_AFTER, abs=0.01)
        # The wire holds again: a real press counts as ever, and chatter is said anew
        # only after the contact has settled in between.
        drive(factory, clock, 26, [(1002.0, True), (1002.5, False)])
        later(clock, buttons)
        assert [type(e) for e in drain(events)] == [ButtonPressed, ButtonReleased]


def test_chatter_shorter_than_the_wiring_limit_is_not_reported(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    with SeatButtons(2, SEAT2, events, pin_factory=factory) as buttons:
        drive(factory, clock, 26, chatter(1001.0, CHATTER_AFTER / 2, period=MS))
        later(clock, buttons)
        assert drain(events) == []


def test_a_clean_press_with_a_5ms_bounce_is_exactly_one_press_and_one_release(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    with SeatButtons(1, SEAT1, events, pin_factory=factory, clock=clock) as buttons:
        drive(factory, clock, 6, bounce(1001.0, True))
        drive(factory, clock, 6, bounce(1001.25, False))
        later(clock, buttons)
    # Exactly one of each, dated from the first edge of its bounce.
    assert drain(events) == [
        ButtonPressed(1, SeatButton.OK, 1001.0),
        ButtonReleased(1, SeatButton.OK, 1001.25),
    ]


def test_a_press_that_bounces_off_before_it_settles_is_no_press(
    factory: Any, clock: FakeClock, events: EventQueue
) -> None:
    with SeatButtons(1, SEAT1, events, pin_factory=factory) as buttons:
        drive(factory, clock, 6, [(1001.0, True), (1001.0 + DEFAULT_BOUNCE_TIME / 2, False)])
        later(clock, buttons)
    assert drain(events) == []


def test_on_the_real_clock_a_bouncing_press_is_one_press() -> None:
    # The one test on the real clock: the debouncer's own thread delivers the press.
    # Margins are generous (a loaded machine): the press must come within 5 s, and
    # nothing else may come of its bounce. The filter is five times the default here
    # (still short of a chatter): on a loaded machine this thread was once held longer
    # than 20 ms between two bounces, which the filter then rightly took for a release
    # and a second press. The default's length is checked on the fake clock above.
    bounce = 5 * DEFAULT_BOUNCE_TIME
    factory = MockFactory()
    events: EventQueue = queue.SimpleQueue()
    try:
        with SeatButtons(1, SEAT1, events, pin_factory=factory, bounce_time=bounce):
            pin = factory.pin(6)
            for _ in range(3):  # bounces far quicker than the filter
                pin.drive_low()
                pin.drive_high()
            pin.drive_low()  # and held
            pressed = events.get(timeout=5)
            assert isinstance(pressed, ButtonPressed) and pressed.button == "ok"
            with pytest.raises(queue.Empty):
                events.get(timeout=2 * bounce)
    finally:
        factory.close()
