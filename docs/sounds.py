"""Listen to the table's cues without ears: their levels, lengths, edges and pitches.

    .venv/bin/python docs/sounds.py [--out DIR]

renders every cue of ``hardware/speakers.py`` (``TUNES``, at ``RATE``) as the table
does, prints a table of what it measures in each, and writes to ``DIR`` (a temporary
folder unless told):

* ``<cue>.wav``: the cue, mono, 16 bit, ``RATE`` samples a second, to play anywhere;
* ``sounds-spectrogram.png``: a spectrogram strip of every cue side by side (time
  across, pitch up on a logarithmic scale, brighter is louder), as in
  ``docs/images/sounds-spectrogram.png`` (``docs/display.md``, Sound).

The measures (``measure``) are what ``tests/test_sound_cues.py`` judges: the peak
and clipping, the loudness of the loudest 50 ms (plain RMS, and A-weighted, which
follows how loud a tone sounds at its pitch), the length, the level of the first
and last milliseconds (a click is a jump from or to silence), and the pitch that
dominates each note. Standard library only: the spectra are Hann-windowed DFTs at
the bins asked for, as dot products (``sum(map(mul, ...))``, quick enough in C).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import mul
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # no window: draw off screen
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hardware.cues import Sound  # noqa: E402
from hardware.speakers import RATE, TUNES, Note, samples  # noqa: E402

FULL_SCALE = 32767
#: The window the loudness is read over: short enough for a blip, long enough for a tone.
LOUDNESS_SECONDS = 0.05
#: The edges read for a click: the first and the last milliseconds of a cue.
EDGE_SECONDS = 0.001
#: Lowest and highest pitch looked at: below the lowest note, above the notes' harmonics.
LOWEST_HZ, HIGHEST_HZ = 80.0, 5000.0
#: Above every note's own pitch (the highest is 1760 Hz), below where a harmonic could
#: outweigh its note: where a note's dominant pitch is looked for.
FUNDAMENTALS_HZ = 2500.0


def cue_samples(cue: Sound, rate: int = RATE) -> list[float]:
    """``cue`` as the table makes it, in full-scale units (-1..1)."""
    return [value / FULL_SCALE for value in samples(TUNES[cue], rate)]


def db(level: float) -> float:
    """``level`` (full-scale units) in dB of full scale."""
    return 20 * math.log10(max(level, 1e-12))


def _hann(count: int) -> list[float]:
    return [0.5 - 0.5 * math.cos(2 * math.pi * i / max(1, count - 1)) for i in range(count)]


@lru_cache(maxsize=4096)
def _waves(hz: float, count: int, rate: int) -> tuple[list[float], list[float]]:
    """A cosine and a sine at ``hz``, ``count`` samples long: one bin's dot products."""
    step = 2 * math.pi * hz / rate
    return [math.cos(step * i) for i in range(count)], [math.sin(step * i) for i in range(count)]


def power_at(windowed: Sequence[float], hz: float, rate: int) -> float:
    """The power of ``windowed`` (already Hann-windowed) at ``hz``: one DFT bin."""
    cos, sin = _waves(hz, len(windowed), rate)
    re: float = sum(map(mul, windowed, cos))
    im: float = sum(map(mul, windowed, sin))
    return re * re + im * im


def spectrum(
    part: Sequence[float], rate: int, spacing: float, highest: float = HIGHEST_HZ
) -> list[tuple[float, float]]:
    """(hz, power) of ``part`` every ``spacing`` Hz from ``LOWEST_HZ`` to ``highest``."""
    windowed = list(map(mul, part, _hann(len(part))))
    count = int((highest - LOWEST_HZ) / spacing) + 1
    return [
        (LOWEST_HZ + k * spacing, power_at(windowed, LOWEST_HZ + k * spacing, rate))
        for k in range(count)
    ]


def dominant(part: Sequence[float], rate: int) -> float:
    """The pitch (Hz) with the most power in ``part`` up to ``FUNDAMENTALS_HZ``: the
    strongest DFT bin, refined to an eighth of a bin around it."""
    spacing = rate / len(part)
    bins = spectrum(part, rate, spacing, FUNDAMENTALS_HZ)
    coarse = max(bins, key=lambda bin_: bin_[1])[0]
    windowed = list(map(mul, part, _hann(len(part))))
    fine = [coarse + spacing * k / 8 for k in range(-8, 9)]
    best: float = max(fine, key=lambda hz: power_at(windowed, hz, rate))
    return best


def a_weighting(hz: float) -> float:
    """The A-weighting's gain at ``hz`` (IEC 61672, 0 dB at 1 kHz), as a factor."""
    f2 = hz * hz
    gain = (12194.0**2 * f2 * f2) / (
        (f2 + 20.6**2) * math.sqrt((f2 + 107.7**2) * (f2 + 737.9**2)) * (f2 + 12194.0**2)
    )
    return gain * 10 ** (2.0 / 20)


def loudest(values: Sequence[float], rate: int) -> tuple[int, float]:
    """Where the loudest ``LOUDNESS_SECONDS`` of ``values`` start (a sample index, on a
    1 ms grid), and their RMS."""
    width = max(1, int(LOUDNESS_SECONDS * rate))
    squares = [0.0]
    for value in values:
        squares.append(squares[-1] + value * value)
    hop = max(1, rate // 1000)
    starts = range(0, max(1, len(values) - width + 1), hop)
    start = max(starts, key=lambda s: squares[min(len(values), s + width)] - squares[s])
    end = min(len(values), start + width)
    return start, math.sqrt((squares[end] - squares[start]) / max(1, end - start))


def a_correction(part: Sequence[float], rate: int) -> float:
    """How much louder (dB) ``part`` reads A-weighted than flat: its power spectrum with
    each pitch weighted as the A-weighting does, over the same spectrum unweighted (so
    a low buzz counts for less than a bell at 1 kHz, as an ear hears them)."""
    bins = spectrum(part, rate, rate / len(part))
    flat = sum(power for _, power in bins)
    weighted = sum(power * a_weighting(hz) ** 2 for hz, power in bins)
    return 10 * math.log10(max(weighted, 1e-30) / max(flat, 1e-30))


@dataclass(frozen=True)
class Measured:
    """What one cue measures."""

    cue: Sound
    seconds: float
    peak: float  # full-scale units
    clipped: int  # samples at full scale
    rms_db: float  # the loudest 50 ms, dBFS
    a_db: float  # the same window's RMS, A-weighted (``a_correction``), dBFS
    start_db: float  # the loudest sample of the first millisecond, dBFS
    end_db: float  # the loudest sample of the last millisecond, dBFS
    pitches: tuple[tuple[float, float], ...]  # (designed Hz, dominant Hz) of each note


def note_window(note: Note, rate: int) -> tuple[int, int]:
    """The samples of ``note`` read for its pitch: from 5 ms after it starts (its attack
    is over), for most of its length and at most 80 ms (before the next note rings)."""
    start = int((note.start + 0.005) * rate)
    return start, start + int(min(0.08, 0.7 * note.length) * rate)


def measure(cue: Sound, rate: int = RATE) -> Measured:
    """Every figure of ``cue`` that ``tests/test_sound_cues.py`` judges."""
    values = cue_samples(cue, rate)
    start, rms = loudest(values, rate)
    window = values[start : start + int(LOUDNESS_SECONDS * rate)]
    edge = max(1, int(EDGE_SECONDS * rate))
    pitches = []
    for note in TUNES[cue]:
        first, last = note_window(note, rate)
        pitches.append((note.hz, dominant(values[first:last], rate)))
    return Measured(
        cue=cue,
        seconds=len(values) / rate,
        peak=max(abs(v) for v in values),
        clipped=sum(1 for v in values if abs(v) >= 1.0),
        rms_db=db(rms),
        a_db=db(rms) + a_correction(window, rate),
        start_db=db(max(abs(v) for v in values[:edge])),
        end_db=db(max(abs(v) for v in values[-edge:])),
        pitches=tuple(pitches),
    )


# --- writing --------------------------------------------------------------------------


def write_wav(cue: Sound, path: Path, rate: int = RATE) -> Path:
    """``cue`` as a mono 16-bit WAV file at ``path``."""
    data = samples(TUNES[cue], rate)
    if sys.byteorder != "little":
        data.byteswap()  # WAV samples are little-endian
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(data.tobytes())
    return path


#: The spectrogram: its rows (pitches, logarithmic, ``ROW_H`` pixels each), a column
#: every ``COLUMN_SECONDS``, each read over ``FRAME_SECONDS`` (long enough to tell
#: notes a few semitones apart at the low end, short enough for a 60 ms blip).
ROWS, ROW_H, COLUMN_SECONDS, FRAME_SECONDS = 80, 2, 0.004, 0.04
GAP, LABEL_H, AXIS_W = 6, 18, 44  # pixels between cues, of their names, of the Hz axis
#: The pitches named on the axis.
TICKS = (100, 250, 500, 1000, 2000, 4000)


def row_of(hz: float) -> float:
    """The row (0: ``LOWEST_HZ``, ``ROWS - 1``: ``HIGHEST_HZ``) where ``hz`` is drawn."""
    return (ROWS - 1) * math.log(hz / LOWEST_HZ) / math.log(HIGHEST_HZ / LOWEST_HZ)


def spectrogram_columns(values: Sequence[float], rate: int) -> list[list[float]]:
    """Each column's level (dB of full scale) at each row's pitch, lowest pitch first."""
    frame = int(FRAME_SECONDS * rate)
    hann = _hann(frame)
    pitches = [LOWEST_HZ * (HIGHEST_HZ / LOWEST_HZ) ** (r / (ROWS - 1)) for r in range(ROWS)]
    padded = [0.0] * (frame // 2) + list(values) + [0.0] * frame
    # A full-scale sine's bin has power (sum of the window / 2)^2: levels in dBFS.
    scale = (sum(hann) / 2) ** 2
    columns = []
    for c in range(int(len(values) / (COLUMN_SECONDS * rate)) + 1):
        start = int(c * COLUMN_SECONDS * rate)
        windowed = list(map(mul, padded[start : start + frame], hann))
        columns.append(
            [10 * math.log10(power_at(windowed, hz, rate) / scale + 1e-12) for hz in pitches]
        )
    return columns


def colour_of(level: float) -> tuple[int, int, int]:
    """A level's colour: -60 dBFS and below black, through purple and orange, to a pale
    yellow at 0 dBFS."""
    t = min(1.0, max(0.0, (level + 60) / 60))
    return (
        int(255 * min(1.0, 2 * t) ** 0.8),
        int(255 * t**1.5),
        int(200 * (1 - abs(2 * t - 1)) + 55 * t),
    )


def draw_spectrogram(path: Path, cues: Sequence[Sound] = tuple(TUNES), rate: int = RATE) -> Path:
    """The spectrograms of ``cues`` (every cue) side by side, each cue's name under it and
    the pitches on the left, as a PNG at ``path``."""
    import pygame

    pygame.font.init()
    font = pygame.font.Font(None, 18)
    strips = []
    for cue in cues:
        label = font.render(cue.value, True, (230, 230, 230))
        strips.append((label, spectrogram_columns(cue_samples(cue, rate), rate)))
    widths = [max(len(columns), label.get_width()) for label, columns in strips]
    height = ROWS * ROW_H
    surface = pygame.Surface((AXIS_W + sum(widths) + GAP * len(strips), height + LABEL_H + GAP))
    surface.fill((16, 16, 20))
    for hz in TICKS:
        y = GAP + round((ROWS - 1 - row_of(hz)) * ROW_H)
        text = font.render(f"{hz // 1000}k" if hz >= 1000 else str(hz), True, (170, 170, 170))
        surface.blit(text, (AXIS_W - 8 - text.get_width(), y - text.get_height() // 2))
        surface.fill((90, 90, 90), (AXIS_W - 5, y, 4, 1))
    x = AXIS_W
    for (label, columns), width in zip(strips, widths, strict=True):
        for c, levels in enumerate(columns):
            for r, level in enumerate(levels):
                surface.fill(colour_of(level), (x + c, GAP + (ROWS - 1 - r) * ROW_H, 1, ROW_H))
        surface.blit(label, (x, GAP + height + 2))
        x += width + GAP
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))
    return path


def table(figures: Sequence[Measured]) -> list[str]:
    """The measures as a markdown table."""
    lines = [
        "| cue | length | peak | loudest 50 ms | A-weighted | first / last ms "
        "| notes: designed -> found |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for m in figures:
        notes = ", ".join(f"{hz:.0f} -> {found:.0f}" for hz, found in m.pitches)
        lines.append(
            f"| {m.cue.value} | {m.seconds:.2f} s | {db(m.peak):.1f} dBFS | {m.rms_db:.1f} dBFS "
            f"| {m.a_db:.1f} dBFS | {m.start_db:.0f} / {m.end_db:.0f} dBFS | {notes} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, help="folder for the WAVs and the PNG (a temp one)")
    args = parser.parse_args(argv)
    out: Path = args.out or Path(tempfile.mkdtemp(prefix="cafe-table-sounds-"))
    out.mkdir(parents=True, exist_ok=True)
    for cue in TUNES:
        write_wav(cue, out / f"{cue.value}.wav")
    draw_spectrogram(out / "sounds-spectrogram.png")
    print("\n".join(table([measure(cue) for cue in TUNES])))
    print(f"\nWAVs and sounds-spectrogram.png in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
