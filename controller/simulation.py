"""Simulated players: bots (and the on-screen person) act through the mock devices.

A bot never calls the engine. It decides with the game's bot, then does what a
person at that seat would do: taps the card on the seat's mock reader or
presses the seat's mock button (a gpiozero MockFactory pin). Those devices put
the same typed events on the table's queue as real hardware, so a simulated
game exercises the whole path from reader to engine to LEDs and display.

``Simulator(auto_game=...)`` also walks the menus itself (wake the table,
choose the game, join, start), which is how the headless demo plays a full
game with nobody at the table.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.adapters import Bot, Gesture, Press, Tap
from controller.devices import Devices
from controller.table import Table
from controller.tags import TagRegistry, deck_of
from controller.view import Screen

logger = logging.getLogger(__name__)


@dataclass
class Simulator:
    """Acts for the bot seats, one gesture per ``step``, after ``delay`` seconds."""

    table: Table
    devices: Devices
    registry: TagRegistry
    bot_seats: set[int]
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    delay: float = 0.0
    auto_game: str | None = None  # walk the menus and start this game
    # How a tag reaches a seat's reader: by default the seat's mock reader;
    # tests over pseudo-terminals write the reader's line protocol instead.
    tapper: Callable[[int, str], None] | None = None
    _bots: dict[int, Bot] = field(default_factory=dict)
    _plan: list[tuple[int, Gesture]] = field(default_factory=list)
    _planned_version: int = -1
    _next_at: float = 0.0
    _game_key: object = None

    def step(self, now: float) -> bool:
        """Do the next simulated gesture if one is due; True if something was done."""
        if now < self._next_at:
            return False
        if not self._plan:
            self._plan = self._decide()
        if not self._plan:
            return False
        seat, gesture = self._plan.pop(0)
        self.perform(seat, gesture)
        self._next_at = now + self.delay
        return True

    def next_due(self, now: float) -> float | None:
        """Seconds until the next gesture may be done (the bots' delay); None if none waits.

        The kiosk's loop sleeps until then rather than asking every frame.
        """
        return self._next_at - now if self._next_at > now else None

    # --- gestures ------------------------------------------------------------------

    def perform(self, seat: int, gesture: Gesture) -> None:
        if isinstance(gesture, Tap):
            self.tap(seat, gesture.card)
        else:
            self.press(seat, gesture.button)

    def tap(self, seat: int, card: str) -> None:
        """Tap a card of the current game's deck at a seat's (mock) reader."""
        game = self.table.game
        if game is None:
            return
        uid = self.registry.uid_for(deck_of(game.adapter.game_id), card)
        if uid is None:
            logger.warning("no tag is enrolled for %s", card)
            return
        if self.tapper is not None:
            self.tapper(seat, uid)
            return
        reader = self.devices.mock_reader(seat)
        if reader is None:
            logger.warning("seat %d cannot tap %s: its reader is not simulated", seat, card)
            return
        reader.present(uid)
        reader.remove()

    def press(self, seat: int, button: str) -> None:
        if not self.devices.press(seat, button):
            logger.warning("seat %d's %s button is not simulated", seat, button)

    # --- deciding -----------------------------------------------------------------

    def _decide(self) -> list[tuple[int, Gesture]]:
        table = self.table
        view = table.view
        if self.auto_game is not None:
            plan = self._walk_menus(view.screen)
            if plan:
                return plan
        if view.screen is Screen.JOIN:
            joining: list[tuple[int, Gesture]] = [
                (s, Press("ok")) for s in sorted(self.bot_seats) if s not in table.joined
            ]
            return joining[:1]
        if view.screen is Screen.PLAY and table.game is not None:
            return self._bot_turn()
        return []

    def _walk_menus(self, screen: Screen) -> list[tuple[int, Gesture]]:
        table = self.table
        first = min(self.bot_seats)
        if screen is Screen.ATTRACT:
            return [(first, Press("ok"))]
        if screen is Screen.CHOOSE_GAME:
            ids = [g.game_id for g in table.view.games]
            if self.auto_game not in ids:
                raise ValueError(f"the table offers no game {self.auto_game!r}")
            if ids[table.selected] != self.auto_game:
                return [(first, Press("next"))]
            return [(first, Press("ok"))]
        if screen is Screen.JOIN and all(s in table.joined for s in self.bot_seats):
            return [(first, Press("next"))]
        return []

    def _bot_turn(self) -> list[tuple[int, Gesture]]:
        game = self.table.game
        assert game is not None
        if self._game_key is not game:
            self._game_key = game
            self._bots = {}
        plan: list[tuple[int, Gesture]] = []
        for player in game.adapter.presentation.waiting_players():
            seat = game.players[player]
            if seat not in self.bot_seats:
                continue
            bot = self._bots.setdefault(
                seat, game.adapter.simulation.make_bot(random.Random(self.rng.random()))
            )
            action = bot.choose(game.adapter.engine, player)
            plan = [(seat, g) for g in game.adapter.simulation.gestures(action)]
            break
        return plan
