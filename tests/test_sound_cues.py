"""The table's cues, checked without ears (nobody has heard them: the development
machine has no audio device).

Each cue is rendered as the table renders it (``hardware/speakers.py``) and measured
by ``docs/sounds.py``: no clipping and a peak where the design puts it, the same
loudness to the ear (A-weighted) within a few dB, a length within the design, no
click at the start or the end, and every note at its designed pitch. The docs
script's files (WAVs and the spectrogram strip) are written and read back.
"""

from __future__ import annotations

import statistics
import wave
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from docs import sounds
from docs.sounds import Measured, db, measure
from hardware.cues import Sound
from hardware.speakers import PEAK, RATE, TUNES, samples

#: How far (dB) a cue's A-weighted loudness may be from the cues' median.
LOUDNESS_SPREAD = 3.0
#: No cue is longer than a second (docs/display.md); the toss timer's mark a moment
#: of a toss, so they are shorter still.
LONGEST = {cue: 0.35 if cue.value.startswith("timer_") else 1.0 for cue in Sound}
#: A note is found within this share of its pitch (a semitone is 6 %).
PITCH_TOLERANCE = 0.02
#: The first and last millisecond stay this far under the peak: a ramp, not a jump.
EDGE_BELOW_PEAK = 12.0


@pytest.fixture(scope="module")
def measured() -> dict[Sound, Measured]:
    return {cue: measure(cue) for cue in TUNES}


def test_every_cue_has_a_tune() -> None:
    assert set(TUNES) == set(Sound)


def test_no_cue_clips_and_each_peaks_where_the_design_says(
    measured: dict[Sound, Measured],
) -> None:
    for cue, m in measured.items():
        assert m.clipped == 0, cue
        assert m.peak == pytest.approx(PEAK, abs=0.01), cue  # headroom under full scale


def test_the_cues_sound_equally_loud_within_a_few_db(measured: dict[Sound, Measured]) -> None:
    middle = statistics.median(m.a_db for m in measured.values())
    for cue, m in measured.items():
        assert abs(m.a_db - middle) <= LOUDNESS_SPREAD, f"{cue}: {m.a_db:.1f} vs {middle:.1f}"
        assert -30.0 < m.rms_db < -6.0, cue  # neither faint nor at full scale


def test_each_cue_is_as_long_as_designed(measured: dict[Sound, Measured]) -> None:
    for cue, m in measured.items():
        designed = max(note.start + note.length for note in TUNES[cue])
        assert m.seconds == pytest.approx(designed, abs=0.002), cue
        assert 0.05 <= m.seconds <= LONGEST[cue], cue


def test_no_cue_clicks_at_its_start_or_end(measured: dict[Sound, Measured]) -> None:
    for cue, m in measured.items():
        assert m.start_db <= db(m.peak) - EDGE_BELOW_PEAK, cue
        assert m.end_db <= db(m.peak) - 3 * EDGE_BELOW_PEAK, cue
        rendered = samples(TUNES[cue])
        assert abs(rendered[0]) == 0 and abs(rendered[-1]) < 0.01 * 32767, cue


def test_every_note_sounds_at_its_pitch(measured: dict[Sound, Measured]) -> None:
    for cue, m in measured.items():
        for note, (designed, found) in zip(TUNES[cue], m.pitches, strict=True):
            # Notes struck together (the fanfare's chord) ring as one: any of them leads.
            struck = [n.hz for n in TUNES[cue] if n.start == note.start]
            assert any(abs(found - hz) <= PITCH_TOLERANCE * hz for hz in struck), (
                f"{cue}: a note at {designed:.0f} Hz sounds at {found:.0f} Hz"
            )


def test_the_cues_that_say_up_or_down_go_up_or_down(measured: dict[Sound, Measured]) -> None:
    def found(cue: Sound) -> list[float]:
        return [hz for _, hz in measured[cue].pitches]

    assert found(Sound.YOUR_TURN) == sorted(found(Sound.YOUR_TURN))  # rising
    assert found(Sound.TRICK_WON) == sorted(found(Sound.TRICK_WON))
    for falling in (Sound.REFUSED, Sound.TIMER_STOP, Sound.STAFF_ANSWERED):
        assert found(falling) == sorted(found(falling), reverse=True), falling
    # "Low" buzzes: the refusal is the lowest cue of all.
    lowest = min(hz for cue in TUNES if cue is not Sound.REFUSED for hz in found(cue))
    assert max(found(Sound.REFUSED)) < lowest


def test_a_cue_that_clicks_or_lies_about_its_pitch_is_caught() -> None:
    """The measures can fail: a cue cut off mid-tone clicks, a detuned note is found."""
    cut = [v / 32767 for v in samples(TUNES[Sound.GAME_WON])][: int(0.32 * RATE)]  # the chord
    assert db(max(abs(v) for v in cut[-int(0.001 * RATE) :])) > db(PEAK) - EDGE_BELOW_PEAK
    note = TUNES[Sound.TIMER_START][0]
    detuned = replace(note, hz=note.hz * 1.06)  # a semitone sharp
    first, last = sounds.note_window(detuned, RATE)
    tone = [v / 32767 for v in samples((detuned,))][first:last]
    assert abs(sounds.dominant(tone, RATE) - note.hz) > PITCH_TOLERANCE * note.hz


def test_the_docs_script_writes_each_cue_and_the_spectrogram(tmp_path: Path) -> None:
    for cue in (Sound.REFUSED, Sound.TIMER_START):
        path = sounds.write_wav(cue, tmp_path / f"{cue.value}.wav")
        with wave.open(str(path), "rb") as played:
            assert (played.getnchannels(), played.getsampwidth(), played.getframerate()) == (
                1,
                2,
                RATE,
            )
            frames = played.readframes(played.getnframes())
        assert frames == samples(TUNES[cue]).tobytes()
    strip = sounds.draw_spectrogram(tmp_path / "strip.png", (Sound.REFUSED, Sound.TIMER_START))
    picture = pygame.image.load(str(strip))
    width, height = picture.get_size()
    assert width > 40 and height == sounds.ROWS * sounds.ROW_H + sounds.LABEL_H + sounds.GAP
    # Bright where a note rings, dark where nothing does (the top rows: above every note).
    top = sounds.GAP + 1  # the highest row: above every note and its harmonics
    colours = {tuple(picture.get_at((x, top))) for x in range(sounds.AXIS_W, width, 4)}
    assert len({c for c in colours if sum(c[:3]) > 300}) == 0
    bright = [
        tuple(picture.get_at((x, y)))
        for x in range(sounds.AXIS_W, width, 2)
        for y in range(sounds.GAP, sounds.GAP + sounds.ROWS * sounds.ROW_H, 2)
    ]
    assert sum(1 for c in bright if sum(c[:3]) > 300) > 20
