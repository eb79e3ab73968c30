"""Seat buttons on gpiozero's MockFactory: edges become typed events for the right seat."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from hardware.buttons import BUTTON_NAMES, DEFAULT_BOUNCE_TIME, SeatButtons, mock_pin_factory
from hardware.errors import (
    ButtonsUnavailable,
    DeviceClosed,
    HardwareConfigError,
    HardwareError,
)
from hardware.events import ButtonPressed, ButtonReleased, EventQueue, InputEvent

SEAT1 = {"prev": 5, "ok": 6, "next": 13}
SEAT2 = {"prev": 19, "ok": 26, "next": 21}


@pytest.fixture
def factory() -> Iterator[Any]:
    pins = MockFactory()
    yield pins
    pins.reset()


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
    factory: Any, events: EventQueue
) -> None:
    with SeatButtons(1, SEAT1, events, pin_factory=factory):
        pin = factory.pin(6)
        # Pull-up wiring: the idle pin reads high, a press pulls it low.
        assert pin.pull == "up"
        assert pin.state is True
        assert events.empty()  # opening reports no edges

        before = time.monotonic()
        pin.drive_low()
        after_press = time.monotonic()
        pin.drive_high()
        after_release = time.monotonic()

    pressed, released = drain(events)
    assert isinstance(pressed, ButtonPressed)
    assert (pressed.seat, pressed.button) == (1, "ok")
    assert before <= pressed.at <= after_press
    assert isinstance(released, ButtonReleased)
    assert (released.seat, released.button) == (1, "ok")
    assert pressed.at <= released.at <= after_release
    pin.assert_states([False, True, False, True])  # floating, pulled up, pressed, released


def test_each_edge_reaches_the_right_seat_and_button(factory: Any, events: EventQueue) -> None:
    with (
        SeatButtons(1, SEAT1, events, pin_factory=factory),
        SeatButtons(2, SEAT2, events, pin_factory=factory),
    ):
        factory.pin(21).drive_low()  # seat 2 "next"
        factory.pin(5).drive_low()  # seat 1 "prev"
        factory.pin(21).drive_high()
        factory.pin(5).drive_high()
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


def test_bounce_time_and_pull_up_are_handed_to_the_pins(factory: Any, events: EventQueue) -> None:
    with SeatButtons(1, SEAT1, events, pin_factory=factory, bounce_time=0.05):
        assert {factory.pin(p).bounce for p in SEAT1.values()} == {0.05}
    with SeatButtons(2, SEAT2, events, pin_factory=factory):
        assert factory.pin(19).bounce == DEFAULT_BOUNCE_TIME


def test_pull_down_wiring_presses_on_a_high_level(factory: Any, events: EventQueue) -> None:
    with SeatButtons(0, {"ok": 17}, events, pin_factory=factory, pull_up=False):
        pin = factory.pin(17)
        assert pin.pull == "down"
        pin.drive_high()
        pin.drive_low()
    assert [type(e) for e in drain(events)] == [ButtonPressed, ButtonReleased]


def test_press_and_release_helpers_drive_the_mock_pins(factory: Any, events: EventQueue) -> None:
    with SeatButtons(3, SEAT1, events, pin_factory=factory) as buttons:
        buttons.press("next")
        buttons.release("next")
        with pytest.raises(HardwareConfigError, match="no 'left' button"):
            buttons.press("left")
    drained = drain(events)
    assert [(type(e), getattr(e, "seat", None)) for e in drained] == [
        (ButtonPressed, 3),
        (ButtonReleased, 3),
    ]
    with pytest.raises(DeviceClosed):
        buttons.press("next")


def test_close_is_idempotent_and_releases_only_its_own_pins(
    factory: Any, events: EventQueue
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


def test_open_is_idempotent(factory: Any, events: EventQueue) -> None:
    buttons = SeatButtons(1, SEAT1, events, pin_factory=factory)
    buttons.open()
    buttons.open()  # a second claim of the same pins would raise GPIOPinInUse
    factory.pin(5).drive_low()
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


def test_open_buttons_run_no_thread_of_their_own(factory: Any, events: EventQueue) -> None:
    # gpiozero's Button keeps a hold thread per button that wakes ten times a second;
    # a table of 21 idle buttons spent more CPU there than in its loop. Seat buttons
    # use the plain input device, so opening them starts no threads at all.
    import threading

    before = {t.ident for t in threading.enumerate()}
    with SeatButtons(1, SEAT1, events, pin_factory=factory):
        started = [t.name for t in threading.enumerate() if t.ident not in before]
    assert started == []
