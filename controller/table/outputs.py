"""What the table shows, lights and sounds: the message lines, the seat LEDs, the view's version.

Every part that changes what a player sees goes through ``Outputs``: a line
of explanation (``say``), an LED cue (``flash``, ``steady``, ``rest``), or
any other change of the view (``changed``). The version grows with each, so
the kiosk redraws exactly when something changed. A refusal's flash and a
turn's resting colour are told to the ``SoundDirector`` (``sounds``) too,
which the other parts tell what else is heard.
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.games.words import Words
from controller.table.led_director import LedDirector
from controller.table.session import GameSession
from controller.table.sound_director import SoundDirector
from controller.view import Message, MessageKind
from hardware.cues import Cue

MESSAGE_LIMIT = 6  # the latest few lines stay on screen


class Outputs:
    """The message lines, the seat LEDs (through ``LedDirector``) and the view's version."""

    def __init__(self, leds: LedDirector, sounds: SoundDirector) -> None:
        self._leds = leds
        self.sounds = sounds
        self._messages: list[Message] = []
        self.version = 0  # grows by one with every change of the view

    @property
    def messages(self) -> list[Message]:
        return list(self._messages)

    def changed(self) -> None:
        """The view must be built again."""
        self.version += 1

    def say(
        self, text: Words, kind: MessageKind = MessageKind.INFO, seat: int | None = None
    ) -> None:
        """Add a line of explanation (the latest few stay on screen)."""
        self._messages = [*self._messages, Message(text, kind, seat)][-MESSAGE_LIMIT:]
        self.changed()

    def clear(self) -> None:
        """A new screen starts with no lines of its predecessor."""
        self._messages = []

    def flash(self, seat: int, cue: Cue) -> None:
        """A momentary LED cue at a seat (a refusal is heard too)."""
        self._leds.flash(seat, cue)
        self.sounds.flashed(seat, cue)

    def steady(self, seat: int, cue: Cue) -> None:
        """Set one seat's resting cue now (joined, left)."""
        self._leds.steady(seat, cue)

    def rest(
        self, joined: Iterable[int], playing: GameSession | None, calling: Iterable[int]
    ) -> None:
        """Each seat's resting colour: calling staff, your turn (in a game), joined, or off."""
        if playing is not None:
            waiting = [playing.players[p] for p in playing.adapter.presentation.waiting_players()]
            self._leds.rest([*joined, *playing.players], waiting, calling)
        else:
            waiting = []
            self._leds.rest(joined, calling=calling)
        self.sounds.waiting(waiting)
