"""Seat LEDs on a RecordingStrip: the right segment, the right colour, frames only on change."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from hardware.cues import Cue
from hardware.errors import DeviceClosed, HardwareConfigError, HardwareError, StripUnavailable
from hardware.leds import (
    DEFAULT_LOOKS,
    RGB,
    Look,
    Pattern,
    RecordingStrip,
    SeatLeds,
    Strip,
    open_neopixel,
)

BLACK = (0, 0, 0)
SEGMENTS = {0: range(0, 4), 1: range(4, 8), 2: range(8, 12)}


def segment(strip: RecordingStrip, seat: int, frame: int = -1) -> list[RGB]:
    return strip.pixels(frame)[SEGMENTS[seat].start : SEGMENTS[seat].stop]


def colour(cue: Cue) -> RGB:
    return DEFAULT_LOOKS[cue].colour


@pytest.fixture
def strip() -> RecordingStrip:
    return RecordingStrip(14)  # two spare pixels at the end belong to no seat


@pytest.fixture
def leds(strip: RecordingStrip) -> SeatLeds:
    return SeatLeds(strip, SEGMENTS, brightness=1.0)


def test_recording_strip_is_a_strip_and_records_frames() -> None:
    strip = RecordingStrip(3, byteorder="GRB")
    assert isinstance(strip, Strip)
    assert strip.n == 3
    strip[1] = (10, 20, 30)
    assert strip.frames == []  # nothing is sent before show()
    strip.show()
    assert strip.frames == [bytes([0, 0, 0, 20, 10, 30, 0, 0, 0])]  # wire order G, R, B
    assert strip.pixels() == [BLACK, (10, 20, 30), BLACK]


def test_the_first_tick_blanks_the_segments_then_nothing_is_resent(
    strip: RecordingStrip, leds: SeatLeds
) -> None:
    assert leds.tick(0.0) is True
    assert strip.pixels() == [BLACK] * 14
    assert leds.tick(0.5) is False
    assert leds.tick(9.0) is False
    assert len(strip.frames) == 1


def test_a_steady_cue_lights_only_that_seats_segment(strip: RecordingStrip, leds: SeatLeds) -> None:
    leds.cue(1, Cue.JOINED, now=0.0)
    assert segment(strip, 1) == [colour(Cue.JOINED)] * 4
    assert segment(strip, 0) == [BLACK] * 4
    assert segment(strip, 2) == [BLACK] * 4
    assert strip.pixels()[12:] == [BLACK, BLACK]
    frames = len(strip.frames)
    leds.cue(1, Cue.JOINED, now=0.3)  # same cue again: nothing changes, nothing is sent
    assert len(strip.frames) == frames


@pytest.mark.parametrize("cue", list(Cue))
def test_every_cue_starts_with_its_colour_on_its_seat(
    cue: Cue, strip: RecordingStrip, leds: SeatLeds
) -> None:
    leds.tick(0.0)
    leds.cue(2, cue, now=0.0)
    assert segment(strip, 2) == [colour(cue)] * 4
    assert leds.showing(2, 0.0) is cue
    assert segment(strip, 0) == [BLACK] * 4


def test_a_transient_cue_expires_on_tick_and_falls_back_to_the_steady_cue(
    strip: RecordingStrip, leds: SeatLeds
) -> None:
    leds.cue(0, Cue.JOINED, now=10.0)
    leds.cue(0, Cue.TRICK_WON, now=11.0)
    assert segment(strip, 0) == [colour(Cue.TRICK_WON)] * 4
    duration = DEFAULT_LOOKS[Cue.TRICK_WON].duration
    assert duration is not None
    assert leds.tick(11.0 + duration / 2) is False  # still showing, solid: no new frame
    assert leds.showing(0, 11.0 + duration / 2) is Cue.TRICK_WON
    assert leds.tick(11.0 + duration) is True
    assert segment(strip, 0) == [colour(Cue.JOINED)] * 4
    assert leds.showing(0, 11.0 + duration) is Cue.JOINED


def test_a_steady_cue_set_during_a_transient_shows_when_it_ends(
    strip: RecordingStrip, leds: SeatLeds
) -> None:
    leds.cue(1, Cue.JOINED, now=0.0)
    leds.cue(1, Cue.PENALTY, now=1.0)
    leds.cue(1, Cue.WAITING, now=1.1)  # the penalty keeps the segment for now
    assert leds.showing(1, 1.1) is Cue.PENALTY
    assert segment(strip, 1) == [colour(Cue.PENALTY)] * 4
    leds.tick(1.0 + 2.0)  # PENALTY lasts 2 s
    assert leds.showing(1, 3.0) is Cue.WAITING
    assert segment(strip, 1)[0] != colour(Cue.PENALTY)


def test_refused_blinks_and_each_change_is_one_frame(strip: RecordingStrip, leds: SeatLeds) -> None:
    leds.cue(2, Cue.YOUR_TURN, now=0.0)
    leds.cue(2, Cue.REFUSED, now=5.0)  # blink period 0.2 s, lasts 0.8 s
    red = colour(Cue.REFUSED)
    assert segment(strip, 2) == [red] * 4
    before = len(strip.frames)
    assert leds.tick(5.05) is False  # first half of the period: still on
    assert leds.tick(5.15) is True  # second half: off
    assert segment(strip, 2) == [BLACK] * 4
    assert leds.tick(5.25) is True  # on again
    assert segment(strip, 2) == [red] * 4
    assert len(strip.frames) == before + 2
    leds.tick(5.8)  # over: back to YOUR_TURN, which is green
    assert leds.showing(2, 5.8) is Cue.YOUR_TURN
    r, g, b = segment(strip, 2)[0]
    assert g > 0 and r == 0 and b == 0


def test_your_turn_pulses_but_never_goes_dark(strip: RecordingStrip, leds: SeatLeds) -> None:
    leds.cue(0, Cue.YOUR_TURN, now=0.0)  # period 1.2 s
    greens = []
    for step in range(13):
        leds.tick(step * 0.1)
        greens.append(segment(strip, 0)[0][1])
    assert greens[0] == 255
    assert min(greens) == round(255 * 0.2)  # the floor, half-way through the period
    assert greens.index(min(greens)) == 6
    assert greens[12] == 255


def test_a_pulse_frame_writes_only_the_pulsing_segment() -> None:
    class CountingStrip(RecordingStrip):
        written: list[int]

        def __setitem__(self, index: Any, value: Any) -> None:
            self.written.append(index)
            super().__setitem__(index, value)

    counting = CountingStrip(14)
    counting.written = []
    leds = SeatLeds(counting, SEGMENTS, brightness=1.0)
    leds.cue(0, Cue.YOUR_TURN, now=0.0)
    leds.cue(1, Cue.JOINED, now=0.0)
    counting.written.clear()
    assert leds.tick(0.1) is True  # the pulse's next level
    assert counting.written == list(SEGMENTS[0])


def test_a_frame_the_strip_failed_to_send_is_sent_again() -> None:
    class FlakyStrip(RecordingStrip):
        fail = False

        def show(self) -> None:
            if self.fail:
                self.fail = False
                raise OSError("SPI write failed")
            super().show()

    flaky = FlakyStrip(14)
    leds = SeatLeds(flaky, SEGMENTS, brightness=1.0)
    leds.tick(0.0)
    flaky.fail = True
    with pytest.raises(OSError):
        leds.cue(1, Cue.JOINED, now=1.0)
    assert leds.tick(1.1) is True  # not taken as shown: written and sent again
    assert segment(flaky, 1) == [colour(Cue.JOINED)] * 4
    assert leds.tick(1.2) is False


def test_brightness_caps_every_colour(strip: RecordingStrip) -> None:
    leds = SeatLeds(strip, SEGMENTS, brightness=0.5)
    leds.cue(1, Cue.TRICK_WON, now=0.0)
    r, g, b = colour(Cue.TRICK_WON)
    assert segment(strip, 1) == [(round(r * 0.5), round(g * 0.5), round(b * 0.5))] * 4


def test_looks_can_be_overridden(strip: RecordingStrip) -> None:
    leds = SeatLeds(strip, SEGMENTS, brightness=1.0, looks={Cue.JOINED: Look((0, 0, 200))})
    leds.cue(0, Cue.JOINED, now=0.0)
    assert segment(strip, 0) == [(0, 0, 200)] * 4
    assert leds.look(Cue.REFUSED) == DEFAULT_LOOKS[Cue.REFUSED]


def test_clear_turns_every_seat_off(strip: RecordingStrip, leds: SeatLeds) -> None:
    leds.cue(0, Cue.JOINED, now=0.0)
    leds.cue(1, Cue.REFUSED, now=0.0)
    leds.clear(now=0.1)
    assert strip.pixels()[:12] == [BLACK] * 12
    assert leds.showing(1, 0.1) is Cue.OFF


def test_close_blanks_once_and_is_idempotent(strip: RecordingStrip) -> None:
    strip[13] = (1, 2, 3)  # a pixel no seat owns
    with SeatLeds(strip, SEGMENTS, brightness=1.0) as leds:
        leds.cue(2, Cue.JOINED, now=0.0)
    frames = len(strip.frames)
    assert strip.pixels()[:12] == [BLACK] * 12
    assert strip.pixels()[13] == (1, 2, 3)  # not ours: left alone
    leds.close()
    assert len(strip.frames) == frames
    assert leds.tick(1.0) is False
    with pytest.raises(DeviceClosed):
        leds.cue(0, Cue.JOINED, now=1.0)


def test_pattern_levels() -> None:
    blink = Look((255, 0, 0), Pattern.BLINK, period=1.0)
    assert [blink.level(t) for t in (0.1, 0.6, 1.1)] == [1.0, 0.0, 1.0]
    assert Look((1, 1, 1)).level(123.4) == 1.0
    assert not Look((1, 1, 1)).transient
    assert Look((1, 1, 1), duration=1.0).transient


@pytest.mark.parametrize(
    ("segments", "words"),
    [
        ({0: range(0, 4), 1: range(3, 6)}, "pixel 3 is in both"),
        ({0: range(0, 20)}, "within 0..13"),
        ({0: range(4, 4)}, "non-empty"),
        ({0: range(0, 8, 2)}, "non-empty run"),
    ],
)
def test_bad_segments_are_refused(
    segments: dict[int, range], words: str, strip: RecordingStrip
) -> None:
    with pytest.raises(HardwareConfigError, match=words):
        SeatLeds(strip, segments)


def test_unknown_seat_and_bad_brightness_are_refused(strip: RecordingStrip, leds: SeatLeds) -> None:
    with pytest.raises(HardwareConfigError, match="seat 7 has no LED segment"):
        leds.cue(7, Cue.JOINED, now=0.0)
    with pytest.raises(HardwareConfigError, match="brightness"):
        SeatLeds(strip, SEGMENTS, brightness=1.5)


# --- the real strip, without a Pi ---------------------------------------------------------------


def test_open_neopixel_off_a_pi_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    # A module set to None in sys.modules fails to import, as board does off a Pi.
    monkeypatch.setitem(sys.modules, "board", None)
    with pytest.raises(StripUnavailable) as caught:
        open_neopixel(12)
    assert '"mock"' in str(caught.value)
    assert isinstance(caught.value, HardwareError) and isinstance(caught.value, OSError)


def test_open_neopixel_turns_board_not_supported_into_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Stand in for Blinka's board import failing off a Pi (its real behaviour).
    def failing_import(name: str) -> Any:
        if name == "board":
            raise NotImplementedError("Board not supported")
        raise AssertionError(name)

    monkeypatch.setattr("hardware.leds.importlib.import_module", failing_import)
    with pytest.raises(StripUnavailable, match="Board not supported"):
        open_neopixel(12)


def test_open_neopixel_builds_the_strip_without_auto_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: dict[str, Any] = {}

    class FakeNeoPixel:
        def __init__(self, pin: object, n: int, **options: Any) -> None:
            built.update(pin=pin, n=n, **options)

    d18 = object()
    monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace(D18=d18))
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=FakeNeoPixel))
    strip = open_neopixel(24)
    assert isinstance(strip, FakeNeoPixel)
    assert built == {
        "pin": d18,
        "n": 24,
        "brightness": 1.0,
        "auto_write": False,
        "pixel_order": "GRB",
    }
    with pytest.raises(HardwareConfigError, match="'D99'"):
        open_neopixel(24, pin="D99")
