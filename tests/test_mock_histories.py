"""Mock devices keep bounded histories, so a simulated table's memory stays flat for months.

Issue 14: the simulated reader, the mock pins and the recording LED strip kept
every event or frame they ever produced. Each is driven here far past its
bound, through its real code path, and must keep only its latest entries
while still reporting every event.
"""

from __future__ import annotations

import queue

import pytest

from hardware.buttons import SeatButtons, mock_pin_factory
from hardware.errors import HardwareConfigError
from hardware.events import (
    Button,
    ButtonPressed,
    ButtonReleased,
    EventQueue,
    TagPresented,
    TagRemoved,
)
from hardware.leds import RecordingStrip
from hardware.mock_pins import PIN_HISTORY
from hardware.mock_reader import MOCK_HISTORY, MockReader

ROUNDS = 5_000


def test_the_mock_reader_keeps_only_its_latest_events_but_sends_them_all() -> None:
    events: EventQueue = queue.SimpleQueue()
    ticks = iter(range(10 * ROUNDS))
    with MockReader(0, events, clock=lambda: float(next(ticks))) as reader:
        for i in range(ROUNDS):
            reader.present(f"{i:08X}")
            reader.remove()
        assert len(reader.sent) == MOCK_HISTORY
        assert list(reader.sent)[-2:] == [
            TagPresented(0, f"{ROUNDS - 1:08X}", 2.0 * ROUNDS - 1),
            TagRemoved(0, 2.0 * ROUNDS),
        ]
    assert events.qsize() == 2 * ROUNDS + 2  # online, every tap, offline: nothing lost


def test_mock_pins_keep_only_their_latest_states() -> None:
    events: EventQueue = queue.SimpleQueue()
    factory = mock_pin_factory()
    try:
        # The simulator's clean presses (no debounce, as controller/kiosk/devices.py sets
        # them up): a press and its release at the same instant are two edges.
        with SeatButtons(1, {"ok": 6}, events, pin_factory=factory, bounce_time=None) as buttons:
            for _ in range(ROUNDS):
                buttons.press(Button.OK)
                buttons.release(Button.OK)
            pin = factory.pin(6)
            assert len(pin.states) == PIN_HISTORY
            assert [s.state for s in pin.states][-2:] == [False, True]  # pressed, released
            pin.assert_states([s.state for s in pin.states])  # gpiozero's check still works
    finally:
        factory.reset()
    kinds = [type(events.get_nowait()) for _ in range(events.qsize())]
    assert kinds == [ButtonPressed, ButtonReleased] * ROUNDS


def test_the_recording_strip_keeps_its_latest_frames_and_counts_them_all() -> None:
    strip = RecordingStrip(3, keep=10)
    for i in range(ROUNDS):
        strip.fill((i % 256, 0, 0))
        strip.show()
        assert 1 <= len(strip.frames) < 20
        assert strip.pixels() == [(i % 256, 0, 0)] * 3
    assert strip.sent == ROUNDS
    assert len(strip.frames) >= 10
    last = ROUNDS - 1
    assert strip.pixels(-10) == [((last - 9) % 256, 0, 0)] * 3


def test_the_recording_strip_refuses_to_keep_nothing() -> None:
    with pytest.raises(HardwareConfigError, match="at least 1 frame"):
        RecordingStrip(3, keep=0)


def test_the_simulated_tables_strip_keeps_a_short_history() -> None:
    from hardware.led_backends import MOCK_FRAMES, open_strip

    strip = open_strip("mock", 8)
    assert isinstance(strip, RecordingStrip)
    for i in range(1000):
        strip.fill((i % 256, 0, 0))
        strip.show()
    assert MOCK_FRAMES <= len(strip.frames) < 2 * MOCK_FRAMES
    assert strip.sent == 1000
