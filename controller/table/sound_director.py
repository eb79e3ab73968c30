"""The sound director: the one place that decides which sound the table plays, and when.

The table's parts tell it what happened (a seat's LEDs flashed a refusal, the
engine's events, whose turn it now is, the toss timer, staff answering a call);
it turns those into ``Sound`` names, keeps the ones ``[sound] cues`` lets play,
and at the end of each input (``flush``) plays the most important one through a
``SoundSink``, unless it is quiet hours. One sound per input: the last card of
a game wins a trick, ends the round and the game at once, and only "game won"
should be heard.

It runs on the table's loop and only hands names to the sink, which must not
block (pygame's mixer plays on its own thread).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping

from controller.config.table_config import SoundConfig
from controller.games.base import Event
from controller.table.sinks import SoundSink
from hardware.cues import Cue, Sound
from hardware.events import TimerEvent, TossStarted

WARN_SECONDS = 3.0
"""How long before the toss timer's limit the last-seconds warning sounds."""

PRIORITY = {sound: rank for rank, sound in enumerate(Sound)}
"""A sound's rank when several are due at once: the first listed in ``Sound`` wins."""

SEAT_SOUNDS = {Cue.REFUSED: Sound.REFUSED}
"""The LED cues that are also heard (at the flashing seat)."""


class SoundDirector:
    """Which sound plays, derived from what the table's parts report.

    ``settings`` is read at each flush (the hub may push a new configuration);
    ``people`` are the seats where people sit (a bot's turn is not announced);
    ``wall`` is the wall-clock time, for quiet hours.
    """

    def __init__(
        self,
        sink: Callable[[], SoundSink | None],
        settings: Callable[[], SoundConfig],
        people: Iterable[int],
        wall: Callable[[], dt.datetime] = dt.datetime.now,
    ) -> None:
        self._sink = sink
        self._settings = settings
        self._people = frozenset(people)
        self._wall = wall
        self._due: dict[Sound, int | None] = {}  # sound -> its seat (None: the whole table)
        self._waiting: frozenset[int] = frozenset()
        self._warn_at: float | None = None  # when the running toss's warning is due

    # --- what happened -----------------------------------------------------------------

    def flashed(self, seat: int, cue: Cue) -> None:
        """A seat's LEDs flashed ``cue``; a refusal is heard too."""
        sound = SEAT_SOUNDS.get(cue)
        if sound is not None:
            self._add(sound, seat)

    def events(self, sounds: Mapping[type[Event], Sound], events: Iterable[Event]) -> None:
        """The engine's events, through the game's own table of which event sounds how."""
        for event in events:
            sound = sounds.get(type(event))
            if sound is not None:
                self._add(sound, None)

    def waiting(self, seats: Iterable[int]) -> None:
        """The seats whose turn it is now: a person whose turn just came hears it."""
        now_waiting = frozenset(seats)
        for seat in sorted((now_waiting - self._waiting) & self._people):
            self._add(Sound.YOUR_TURN, seat)
        self._waiting = now_waiting

    def timer(self, event: TimerEvent, limit: float | None) -> None:
        """The toss timer started, stopped or was cancelled (``limit``: seconds per attempt)."""
        if isinstance(event, TossStarted):
            self._add(Sound.TIMER_START, None)
            # Short limits warn half-way, so the warning never sounds at the start.
            self._warn_at = (
                None if limit is None else event.at + limit - min(WARN_SECONDS, limit / 2)
            )
        else:
            self._add(Sound.TIMER_STOP, None)
            self._warn_at = None

    def staff_answered(self, seat: int) -> None:
        """Staff answered the call of ``seat``: the caller hears that help is coming."""
        self._add(Sound.STAFF_ANSWERED, seat)

    # --- what is heard -------------------------------------------------------------------

    def flush(self, now: float) -> Sound | None:
        """Play the most important sound due (if any may play now); return it.

        ``now`` is the table's clock, for the toss timer's warning.
        """
        if self._warn_at is not None and now >= self._warn_at:
            self._warn_at = None
            self._add(Sound.TIMER_WARNING, None)
        if not self._due:
            return None
        due, self._due = self._due, {}
        settings = self._settings()
        playable = [s for s in due if s in settings.cues]
        sink = self._sink()
        if not playable or sink is None or settings.volume == 0:
            return None
        if settings.quiet is not None and settings.quiet.contains(self._wall()):
            return None
        sound = min(playable, key=PRIORITY.__getitem__)
        sink.play(sound, self.pan(settings, due[sound]))
        return sound

    @staticmethod
    def pan(settings: SoundConfig, seat: int | None) -> float:
        """Where a sound comes from: -1 the left speaker, 1 the right, 0 the middle."""
        if seat is None or settings.pan is None or not 0 <= seat < len(settings.pan):
            return 0.0
        return settings.pan[seat]

    def _add(self, sound: Sound, seat: int | None) -> None:
        self._due.setdefault(sound, seat)
