"""What the table writes to: the seat LEDs, the speakers and the journal, as small interfaces.

The table's parts (``session``, ``led_director``) depend on these protocols,
not on ``hardware.leds.SeatLeds`` or ``controller.records.journal.Journal``, so the
tests can hand them recorders and the journal can import the table lazily.
"""

from __future__ import annotations

from typing import Protocol

from controller.games.base import JSON
from hardware.cues import Cue, Sound


class LedSink(Protocol):
    """What the table needs from the seat LEDs; ``hardware.leds.SeatLeds`` provides it."""

    def cue(self, seat: int, cue: Cue, now: float) -> None: ...


class SoundSink(Protocol):
    """What the table needs from the speakers; ``display.sound.MixerSounds`` provides it.

    ``play`` must return at once (the sound plays on the mixer's own thread):
    the table's loop calls it. ``pan`` runs from -1 (left speaker) to 1 (right).
    """

    def play(self, sound: Sound, pan: float) -> None: ...


class JournalSink(Protocol):
    """Where the table writes what it accepted, before anything is shown or lit.

    ``controller.records.journal.Journal`` provides it; a game is rebuilt from exactly
    these calls (see ``Table.resume``).
    """

    def game_started(self, game_id: str, players: list[int], header: JSON, seed: int) -> None: ...

    def action_accepted(self, action: JSON, chance: bool) -> None: ...

    def deal_accepted(self, actions: list[JSON]) -> None: ...

    def correction(self, kind: str, detail: JSON) -> None: ...

    def game_finished(self, record: str, report: JSON) -> None: ...

    def cut_pending(self, state: JSON) -> None: ...
