"""The table's speakers: sounds synthesised after start-up and played through pygame's mixer.

Every sound is made here from a few notes (sine tones with a struck-bell
envelope, see ``TUNES``) into 16-bit sample buffers, with the standard library
only: nothing is shipped, so there is no sound file and no licence to carry.
``docs/display.md`` says what each sound means.

``open_sounds`` opens the mixer; a table without an audio device (or with
``[sound] volume = 0``) gets None and runs silent, after one line in the log.
``MixerSounds.play`` returns at once: the mixer plays on SDL's audio thread,
never the table's loop.
"""

from __future__ import annotations

import array
import logging
import math
import sys
import threading
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import pygame

from hardware.cues import Sound

logger = logging.getLogger(__name__)

RATE = 22050  # samples per second: plenty for short tones, half the work of 44.1 kHz
PEAK = 0.45  # the loudest a sample gets, of full scale: chords stay below clipping


@dataclass(frozen=True)
class Note:
    """One tone of a sound: its pitch, when it starts and how long it rings (seconds)."""

    hz: float
    start: float
    length: float
    buzz: bool = False  # odd harmonics (a reedy, "no" timbre) instead of a clear bell


def _notes(*pitches: float, step: float, length: float) -> tuple[Note, ...]:
    """An arpeggio: ``pitches`` one after another, ``step`` seconds apart."""
    return tuple(Note(hz, i * step, length) for i, hz in enumerate(pitches))


C5, E5, G5, A5, C6, E6 = 523.25, 659.26, 783.99, 880.0, 1046.5, 1318.5

TUNES: Mapping[Sound, tuple[Note, ...]] = {
    # Two rising notes, soft: "you".
    Sound.YOUR_TURN: _notes(E5, A5, step=0.09, length=0.22),
    # Two low falling buzzes: "no". A4 then F4, the lowest notes of all: an octave lower
    # (220 Hz) measured 6 dB quieter to the ear than the other cues at the same peak
    # (A-weighted, docs/sounds.py), and a café's small speakers give little below 300 Hz.
    Sound.REFUSED: (Note(440.0, 0.0, 0.12, buzz=True), Note(349.2, 0.11, 0.16, buzz=True)),
    # A quick major arpeggio upward.
    Sound.TRICK_WON: _notes(C5, E5, G5, step=0.06, length=0.2),
    # The same, slower, landing an octave up.
    Sound.ROUND_OVER: _notes(C5, E5, G5, C6, step=0.11, length=0.3),
    # A small fanfare: the arpeggio, then the chord held.
    Sound.GAME_WON: (
        *_notes(C5, E5, G5, step=0.1, length=0.18),
        Note(C6, 0.3, 0.6),
        Note(E6, 0.3, 0.6),
        Note(G5, 0.3, 0.6),
    ),
    # The toss timer: one short high blip to start, a lower double blip to stop.
    Sound.TIMER_START: (Note(C6 * 1.5, 0.0, 0.08),),
    Sound.TIMER_STOP: _notes(C6, G5, step=0.07, length=0.08),
    # Three quick blips: the last seconds of the limit.
    Sound.TIMER_WARNING: _notes(A5 * 2, A5 * 2, A5 * 2, step=0.12, length=0.06),
    # A gentle falling chime: help is on its way.
    Sound.STAFF_ANSWERED: _notes(G5, C5, step=0.14, length=0.35),
}


def samples(notes: tuple[Note, ...], rate: int = RATE) -> array.array[int]:
    """The notes mixed into signed 16-bit mono samples at ``rate`` per second."""
    end = max(n.start + n.length for n in notes)
    mixed = [0.0] * (int(end * rate) + 1)
    sin, exp = math.sin, math.exp
    for note in notes:
        first = int(note.start * rate)
        count = int(note.length * rate)
        harmonics = ((1, 1.0), (3, 0.35), (5, 0.2)) if note.buzz else ((1, 1.0), (2, 0.25))
        step = 2 * math.pi * note.hz / rate
        attack = max(1, int(0.005 * rate))  # 5 ms: no click at the start
        # A struck bell: a quick rise, then an exponential decay to silence at the end.
        envelope = [
            min(1.0, i / attack) * exp(-4.0 * i / count) * (1 - i / count) for i in range(count)
        ]
        for k, weight in harmonics:
            angle = k * step
            for i, level in enumerate(envelope):
                mixed[first + i] += weight * level * sin(angle * i)
    loudest = max(1e-9, max(abs(v) for v in mixed))
    scale = PEAK * 32767 / loudest
    return array.array("h", [int(v * scale) for v in mixed])


def stereo(mono: array.array[int]) -> array.array[int]:
    """The same samples on both channels (interleaved left, right)."""
    both = array.array("h", bytes(2 * len(mono) * 2))
    both[0::2] = mono
    both[1::2] = mono
    return both


def pan_volumes(pan: float) -> tuple[float, float]:
    """The left and right volumes that place a sound at ``pan`` (-1 left .. 1 right),
    at the same loudness wherever it is (a constant-power pan)."""
    angle = (max(-1.0, min(1.0, pan)) + 1) * math.pi / 4
    return math.cos(angle), math.sin(angle)


class MixerSounds:
    """The table's speakers through pygame's mixer: ``play`` starts a sound and returns.

    The sounds are synthesised when first needed, not at start-up: all of them cost
    0.15 s of CPU on an x86 core (several times that on a Pi), before ``READY=1`` when
    they were made here. ``prepare_in_background`` makes them on a thread once the
    table is up; a sound played before that is made then.
    """

    def __init__(self, volume: float) -> None:
        rate, size, channels = pygame.mixer.get_init() or (RATE, -16, 2)
        if size != -16 or channels not in (1, 2):
            raise pygame.error(f"the mixer opened as {size} bit, {channels} channels")
        self.rate = rate
        self.channels = channels
        self.volume = volume
        self._made: dict[Sound, pygame.mixer.Sound] = {}
        self._making = threading.Lock()
        self._preparing: threading.Thread | None = None
        self._closing = threading.Event()

    @property
    def sounds(self) -> Mapping[Sound, pygame.mixer.Sound]:
        """Every sound, synthesised (those not made yet are made now)."""
        return {sound: self.sound(sound) for sound in TUNES}

    def sound(self, sound: Sound) -> pygame.mixer.Sound:
        """``sound`` for the mixer, synthesised the first time it is asked for."""
        made = self._made.get(sound)
        if made is not None:
            return made
        with self._making:
            made = self._made.get(sound)
            if made is None:
                made = self._make(sound)
                self._made[sound] = made
        return made

    def _make(self, sound: Sound) -> pygame.mixer.Sound:
        data = samples(TUNES[sound], self.rate)
        if self.channels == 2:
            data = stereo(data)
        if sys.byteorder != "little":
            data.byteswap()  # SDL's AUDIO_S16SYS is native, but be explicit about it
        made = pygame.mixer.Sound(buffer=data.tobytes())
        made.set_volume(self.volume)
        return made

    def prepare_in_background(self) -> None:
        """Synthesise every sound on a thread of its own (after start-up: the first
        turn's or trick's sound then plays at once)."""
        if self._preparing is None:
            self._preparing = threading.Thread(
                target=self._prepare, name="sound synthesis", daemon=True
            )
            self._preparing.start()

    def _prepare(self) -> None:
        for sound in TUNES:
            if self._closing.is_set():
                return
            self.sound(sound)

    def play(self, sound: Sound, pan: float) -> None:
        """Start ``sound`` (from ``pan``: -1 left .. 1 right) and return at once."""
        channel = self.sound(sound).play()
        if channel is not None and self.channels == 2:
            channel.set_volume(*pan_volumes(pan))

    def close(self) -> None:
        """Stop the sounds and let the audio device go (safe to call twice)."""
        # The synthesis stops at its next sound (each takes milliseconds): a stop stays quick.
        self._closing.set()
        if self._preparing is not None:
            self._preparing.join(timeout=1)
        if pygame.mixer.get_init() is not None:
            pygame.mixer.quit()


def open_sounds(volume: float, cues: Collection[Sound]) -> MixerSounds | None:
    """The mixer, opened at ``volume`` (0..1) for ``cues``; None (one line in the log) when
    the table stays silent: sound turned off, or no audio device (not an error: the table
    plays on)."""
    if volume == 0 or not cues:
        logger.info("sound is off ([sound] in table.toml): the table runs silent")
        return None
    try:
        pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=512)
        return MixerSounds(volume)
    except pygame.error as exc:
        logger.warning("no sound: %s; the table runs silent", exc or "SDL gave no reason")
        if pygame.mixer.get_init() is not None:
            pygame.mixer.quit()
        return None
