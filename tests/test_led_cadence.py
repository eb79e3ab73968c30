"""The LED cadence: the loop may sleep until ``SeatLeds.next_change`` and miss no frame."""

from __future__ import annotations

import pytest

from hardware.cues import Cue
from hardware.leds import RecordingStrip, SeatLeds


def frames_by_ticking(cues: list[tuple[float, int, Cue]], until: float, dt: float) -> list[bytes]:
    """The frames a loop ticking every ``dt`` seconds sends (the old fixed-rate way)."""
    strip = RecordingStrip(16)
    leds = SeatLeds(strip, {0: range(0, 8), 1: range(8, 16)}, brightness=1.0)
    pending = sorted(cues, key=lambda c: c[0])
    now = 0.0
    while now <= until:
        while pending and pending[0][0] <= now:
            leds.cue(pending[0][1], pending.pop(0)[2], now)
        leds.tick(now)
        now = round(now + dt, 9)
    return strip.frames


def frames_by_sleeping(cues: list[tuple[float, int, Cue]], until: float) -> tuple[list[bytes], int]:
    """The frames a loop sleeping until ``next_change`` (or the next cue) sends; and its wakes."""
    strip = RecordingStrip(16)
    leds = SeatLeds(strip, {0: range(0, 8), 1: range(8, 16)}, brightness=1.0)
    pending = sorted(cues, key=lambda c: c[0])
    now, wakes = 0.0, 0
    while now <= until:
        wakes += 1
        while pending and pending[0][0] <= now:
            leds.cue(pending[0][1], pending.pop(0)[2], now)
        leds.tick(now)
        waits = [w for w in (leds.next_change(now),) if w is not None]
        if pending:
            waits.append(pending[0][0] - now)
        if not waits:
            break
        # A wake lands a hair after the change, as a real sleep does.
        now = now + max(min(waits), 0.0) + 1e-6
    return strip.frames, wakes


SCRIPT = [
    (0.0, 0, Cue.YOUR_TURN),
    (0.0, 1, Cue.WAITING),
    (1.3, 0, Cue.REFUSED),
    (2.05, 1, Cue.TRICK_WON),
    (3.5, 1, Cue.PENALTY),
    (4.0, 0, Cue.JOINED),
]


def seat_colours(frames: list[bytes], seat: int) -> list[bytes]:
    """The colours one seat's segment went through, in order (one entry per change).

    Per seat, because two seats changing in the same half millisecond share a
    frame when ticking and may get one each when sleeping.
    """
    shown: list[bytes] = []
    for frame in frames:
        segment = frame[seat * 24 : (seat + 1) * 24]
        if not shown or shown[-1] != segment:
            shown.append(segment)
    return shown


def test_sleeping_until_the_next_change_shows_what_a_fast_tick_shows() -> None:
    ticked = frames_by_ticking(SCRIPT, 8.0, 0.0005)
    slept, wakes = frames_by_sleeping(SCRIPT, 8.0)
    for seat in (0, 1):
        assert seat_colours(slept, seat) == seat_colours(ticked, seat)
    # ... with about one wake per frame, not 60 a second.
    assert wakes <= len(slept) + len(SCRIPT) + 2


@pytest.mark.parametrize("cue,period", [(Cue.YOUR_TURN, 1.2), (Cue.WAITING, 2.0)])
def test_the_pulses_send_at_most_ten_frames_a_second(cue: Cue, period: float) -> None:
    slept, _ = frames_by_sleeping([(0.0, 0, cue)], 10 * period)
    per_second = len(slept) / (10 * period)
    assert 4 <= per_second <= 10.5


def test_a_still_table_needs_no_wake_for_its_leds() -> None:
    leds = SeatLeds(RecordingStrip(8), {0: range(0, 8)})
    leds.cue(0, Cue.JOINED, 0.0)
    assert leds.next_change(5.0) is None
    leds.cue(0, Cue.TRICK_WON, 6.0)  # transient: wakes once, when it ends
    assert leds.next_change(6.5) == pytest.approx(1.0)
    leds.close()
    assert leds.next_change(7.0) is None
