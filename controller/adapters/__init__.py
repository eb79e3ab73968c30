"""Per-game seat input at the table: what a tap or a button press means, and what to show.

The engines know the rules; the table knows screens and seats. An adapter sits
between them for one game: it turns a seat's tapped card or pressed button
into an engine action for the current phase, turns engine events into
messages and LED cues, labels the seat buttons, and (for a table that deals
virtually) supplies the chance actions a shuffled deck would give.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any, ClassVar, Protocol

from controller.games.base import JSON, Action, Engine, Event
from controller.view import MessageKind
from hardware.cues import Cue
from hardware.events import TimerEvent


@dataclass(frozen=True)
class Tap:
    """A simulated player taps this card (deck notation) on its seat's reader."""

    card: str


@dataclass(frozen=True)
class Press:
    """A simulated player presses this seat button."""

    button: str


Gesture = Tap | Press


class Bot(Protocol):
    """A seat's bot: picks the next action for its engine seat."""

    def choose(self, engine: Any, seat: int) -> Action: ...


@dataclass(frozen=True)
class Feedback:
    """What an engine event means for people: a message and/or an LED cue at a seat."""

    player: int | None  # engine seat, or None for the whole table
    message: str | None = None
    kind: MessageKind = MessageKind.INFO
    cue: Cue | None = None


class GameAdapter(ABC):
    """The table side of one game in progress."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    deck: ClassVar[str]  # the tag registry deck its cards come from
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # Chance the adapter needs while turning input into actions (e.g. a
        # virtual die rolled when a seat confirms a reroll). The table sets it
        # before every input from the game's seed and length, so a game rebuilt
        # from its journal rolls the same.
        self.rng = random.Random(0)
        # The game's journaled seed, set by the table: an adapter that keeps
        # chance of its own (a dealt hand the engine does not hold) derives it
        # from this, so a game rebuilt from its journal deals the same.
        self.game_seed: int | None = None
        # The table rolls physical dice and players enter the faces (config).
        self.manual_dice = False
        # A toss timer is wired (config [timer]); its limit per attempt, if any.
        self.has_timer = False
        self.timer_limit: float | None = None

    @classmethod
    @abstractmethod
    def new_game(
        cls, players: int, rng: random.Random, options: Mapping[str, Any] | None = None
    ) -> GameAdapter:
        """Start a game for ``players`` seats with header ``options`` (None: the default).

        Undecided starting details (who leads or deals first) come from ``rng``.
        """

    @classmethod
    def option_presets(cls) -> list[tuple[str, dict[str, Any]]]:
        """(menu label, header options) variants the menu offers; empty: the default only."""
        return []

    @abstractmethod
    def on_card(self, player: int, card: str) -> Action:
        """The action a tapped card means now (the engine will judge it)."""

    @abstractmethod
    def on_button(self, player: int, button: str) -> Action | str | None:
        """A button press: an action, a message explaining why nothing happens, or None."""

    @abstractmethod
    def hints(self) -> list[tuple[int, str, str]]:
        """(player, button, label) for every button that does something now."""

    @abstractmethod
    def feedback(self, event: Event) -> list[Feedback]:
        """Messages and LED cues for one engine event."""

    @abstractmethod
    def gestures(self, action: Action) -> list[Gesture]:
        """How a person at the seat would take ``action``: taps and presses, in order."""

    @abstractmethod
    def make_bot(self, rng: random.Random) -> Bot:
        """A bot for one seat of this game."""

    def chance(self, rng: random.Random) -> list[Action]:
        """Actions a virtual deck or dice supply now (e.g. dealt hands); none by default."""
        return []

    def hand(self, player: int) -> tuple[str, ...]:
        """The player's known hand (virtual deal only), for the simulator's on-screen hand."""
        return ()

    def snapshot(self) -> JSON:
        """What the display shows: the engine's public snapshot, plus any table-side state."""
        return self.engine.snapshot()

    def on_timer(self, event: TimerEvent) -> list[Feedback]:
        """A toss timer's event (only games that time tosses care)."""
        return []

    def animating(self) -> bool:
        """Whether the picture changes by itself now (a running clock), so it must redraw."""
        return False

    def turn_player(self) -> int | None:
        expected = self.engine.expected
        return None if expected is None else expected.seat

    def waiting_players(self) -> list[int]:
        """The players whose LED should say "your turn"."""
        player = self.turn_player()
        return [] if player is None else [player]


# Each game's adapter module and class, in menu order. A game whose module is
# not there yet is left off the menu.
ADAPTERS: tuple[tuple[str, str], ...] = (
    ("controller.adapters.oshaka", "OshakaAdapter"),
    ("controller.adapters.oh_pshaw", "OhPshawAdapter"),
    ("controller.adapters.oskar", "OskarAdapter"),
    ("controller.adapters.oss", "OssAdapter"),
)


def adapters() -> dict[str, type[GameAdapter]]:
    """Every game the table can run, by game id, in menu order."""
    found: dict[str, type[GameAdapter]] = {}
    for module_name, class_name in ADAPTERS:
        try:
            module = import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise  # the adapter exists but something it imports is missing: a real bug
            continue
        adapter: type[GameAdapter] = getattr(module, class_name)
        found[adapter.game_id] = adapter
    return found
