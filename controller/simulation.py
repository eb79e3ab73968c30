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
from controller.tags import TagRegistry, deck_cards, deck_of, simulated_uid
from controller.view import Screen

logger = logging.getLogger(__name__)


def bot_rng(game_seed: int, seat: int) -> random.Random:
    """The generator a seat's bot is made with (an Oss bot's skill comes from it).

    It depends only on the game's journaled seed and the seat, never on a
    generator running in this process, so the bot a resumed game makes is the
    bot the uninterrupted game had.
    """
    return random.Random(f"{game_seed}/bot/{seat}")


def bot_rng_seed(game_seed: int, seat: int, recorded: int) -> str:
    """The seed of a bot's generator for its decision after ``recorded`` recorded actions."""
    return f"{game_seed}/bot/{seat}/{recorded}"


@dataclass
class Simulator:
    """Acts for the bot seats, one gesture per ``step``, after ``delay`` seconds."""

    table: Table
    devices: Devices
    registry: TagRegistry
    bot_seats: set[int]
    # Unused since bots draw from the game's seed (``bot_rng``); kept so the
    # callers need not change while other branches land.
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    delay: float = 0.0
    auto_game: str | None = None  # walk the menus and start this game
    # How a tag reaches a seat's reader: by default the seat's mock reader;
    # tests over pseudo-terminals write the reader's line protocol instead.
    tapper: Callable[[int, str], None] | None = None
    _bots: dict[int, tuple[Bot, random.Random]] = field(default_factory=dict)
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

    def tap(self, seat: int, card: str) -> str | None:
        """Tap a card of the current game's deck at a seat's (mock) reader.

        Returns None when the tag was tapped, else why not, in words for the screen.
        """
        game = self.table.game
        if game is None:
            return None
        uid = self.registry.uid_for(deck_of(game.adapter.game_id), card)
        if uid is None:
            logger.warning("no tag is enrolled for %s", card)
            return f"No tag is enrolled for {card}: enroll the deck at the staff desk"
        return self._present(seat, uid, f"the {card} card")

    def tap_staff(self, seat: int) -> str | None:
        """Tap the registry's (first) staff tag at a seat's reader; None, or why it cannot."""
        staff = self.registry.to_json()["staff"]
        assert isinstance(staff, list)
        if not staff:
            return "No staff tag is enrolled; see the setup message on the attract screen"
        return self._present(seat, str(staff[0]), "your staff tag")

    def tap_deck_card(self, seat: int) -> str | None:
        """At the staff desk: tap the simulated deck's card it wants (enroll or audit)."""
        desk = self.table.staff_desk
        if desk is None:
            return "Open the staff desk first: tap the staff tag on the attract screen"
        if desk.enrollment is not None:
            enrollment = desk.enrollment
            card = enrollment.next_card
            if card is None:
                return f"The {enrollment.deck} deck is complete: PREV goes back to the menu"
            # The next physical copy of that card in the simulated deck.
            copy = sum(1 for _, c in enrollment.registry.cards_of(enrollment.deck) if c == card)
            return self._present(seat, simulated_uid(enrollment.deck, card, copy), card)
        if desk.audit is not None:
            audit = desk.audit
            seen: dict[str, int] = {}
            for card in deck_cards(audit.deck):
                copy = seen.get(card, 0)
                seen[card] = copy + 1
                uid = simulated_uid(audit.deck, card, copy)
                if not audit.was_tapped(uid):
                    return self._present(seat, uid, card)
            return "Every card of the simulated deck is tapped: OK shows the result"
        return "Choose enroll or audit first (PREV / NEXT, then OK)"

    def _present(self, seat: int, uid: str, what: str) -> str | None:
        if self.tapper is not None:
            self.tapper(seat, uid)
            return None
        reader = self.devices.mock_reader(seat)
        if reader is None:
            # The seat has a real reader: a click cannot put a tag on it.
            logger.warning("seat %d cannot tap %s: its reader is not simulated", seat, uid)
            return f"Seat {seat} uses its real reader: tap {what} on it"
        reader.present(uid)
        reader.remove()
        return None

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
            if seat not in self._bots:
                rng = bot_rng(game.seed, seat)
                self._bots[seat] = (game.adapter.simulation.make_bot(rng), rng)
            bot, rng = self._bots[seat]
            # Reseeded from the record's length before every decision: a game resumed
            # from its journal (new process, new bots) decides exactly as before.
            decided = game.adapter.simulation.decisions(game.recorder.actions)
            rng.seed(bot_rng_seed(game.seed, seat, decided))
            action = bot.choose(game.adapter.engine, player)
            plan = [(seat, g) for g in game.adapter.simulation.gestures(action)]
            break
        return plan
