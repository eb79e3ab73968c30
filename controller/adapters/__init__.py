"""Per-game seat input at the table: what a tap or a button press means, and what to show.

The engines know the rules; the table knows screens and seats. An adapter sits
between them for one game: it turns a seat's tapped card or pressed button
into an engine action for the current phase, turns engine events into
messages and LED cues, labels the seat buttons, and (for a table that deals
virtually) supplies the chance actions a shuffled deck would give.
"""

from __future__ import annotations

import logging
import random
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, ClassVar, Literal, Protocol

from controller.games import spec_of, specs
from controller.games.base import JSON, Action, Chance, Engine, Event, GameOver
from controller.games.spec import GameSpec
from controller.games.words import Words, say
from controller.view import AnyGameView, MessageKind
from controller.view.results import ResultSheet, build_sheet, points
from hardware.cues import Cue, Sound
from hardware.events import Button, TimerEvent

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Tap:
    """A simulated player taps this card (deck notation) on its seat's reader."""

    card: str


@dataclass(frozen=True)
class Press:
    """A simulated player presses this seat button, or the table's toss timer ("timer")."""

    button: Button | Literal["timer"]


Gesture = Tap | Press


class Bot(Protocol):
    """A seat's bot: picks the next action for its engine seat."""

    def choose(self, engine: Any, seat: int) -> Action: ...


@dataclass(frozen=True)
class Feedback:
    """What an engine event means for people: a message and/or an LED cue at a seat."""

    player: int | None  # engine seat, or None for the whole table
    message: Words | None = None
    kind: MessageKind = MessageKind.INFO
    cue: Cue | None = None


@dataclass(frozen=True)
class TableSettings:
    """What an adapter needs to know of the table's configuration."""

    # Which chance the table supplies itself (virtual deck, virtual dice).
    chance: Chance = field(default_factory=Chance)
    has_timer: bool = False  # a toss timer is wired ([timer])
    timer_limit: float | None = None  # its limit per attempt, if any


@dataclass(frozen=True)
class AdapterContext:
    """Everything an adapter is given when it is made, for a new game and a rebuilt one alike.

    ``chance_rng`` returns the generator for chance drawn while the table turns
    the current input into actions (a virtual die rolled when a seat confirms
    a reroll): the same generator for the whole input, derived from the game's
    journaled seed and length, so a game rebuilt from its journal rolls the same.
    """

    engine: Engine
    seed: int  # the game's journaled seed
    settings: TableSettings = field(default_factory=TableSettings)
    chance_rng: Callable[[], random.Random] = field(default=lambda: random.Random(0))


class SeatInput(ABC):
    """Input mapping: what a tapped card or a pressed button means in the current phase."""

    @abstractmethod
    def on_card(self, player: int, card: str) -> Action:
        """The action a tapped card means now (the engine will judge it)."""

    @abstractmethod
    def on_button(self, player: int, button: Button) -> Action | Words | None:
        """A button press: an action, a message explaining why nothing happens, or None."""

    @abstractmethod
    def hints(self) -> Sequence[tuple[int, Button, Words]]:
        """(player, button, label) for every button that does something now."""

    def short_label(self, label: Words) -> Words | None:
        """A shorter form of a ``hints`` label for a narrow seat panel ("keep 1" for "keep
        die 1"), shown where the label would be cut; None: the label has none."""
        return None

    def timer_action(self, event: TimerEvent) -> Action | None:
        """The action a toss timer's event records (a timed toss), or None."""
        return None

    def retractable(self, player: int) -> Action | None:
        """The action of ``player``'s that its rulebook lets that player take back now
        (Oh Pshaw: a renege noticed before the next trick), or None. The table takes it
        back, and every action after it, as journaled undo corrections, and puts the later
        actions back once the player has acted again."""
        return None

    def on_timer(self, event: TimerEvent) -> list[Feedback]:
        """A toss timer's event (only games that time tosses care)."""
        return []

    def reports(self, player: int) -> bool:
        """Whether ``player``'s buttons now report what the game cannot take back from a
        glance at the table: a result, a pass, a kept card (Oss, where NEXT also means
        "failure"). The table then acts on such a press when it is let go, and only if
        it was short: a hold (the last moment again, the rules page, a call for staff)
        reports nothing. Elsewhere a press acts on the way down."""
        return False


class Presentation(ABC):
    """Presentation: engine events as messages, LED cues and sounds, and what the display shows."""

    # Which of the game's events the table plays a sound for (docs/display.md): a trick
    # (or what the game has for one) won, a round over, the game won. Every game ends
    # with the base ``GameOver``; a game adds its own events.
    event_sounds: ClassVar[Mapping[type[Event], Sound]] = {GameOver: Sound.GAME_WON}

    @abstractmethod
    def feedback(self, event: Event) -> list[Feedback]:
        """Messages and LED cues for one engine event."""

    @abstractmethod
    def game_view(self) -> AnyGameView:
        """What the display shows: the engine's typed snapshot and the table's overlay on it
        (the game's own ``Overlay``: its cursors and highlights; a bare ``Overlay()``
        for a game without any)."""

    def animating(self) -> bool:
        """Whether the picture changes by itself now (a running clock), so it must redraw."""
        return False

    def result_rule(self, report: JSON) -> Words:
        """The rule that decided the finished game, in players' words (``Player`` arguments)."""
        return say("the best total wins")

    def result_rows(self, report: JSON) -> Sequence[tuple[Words, Sequence[int]]]:
        """Rows that add up to the totals another way than the rounds do (Oss's card and
        challenge points), one value per player; the results screen shows them with a total."""
        return []

    def result_counts(self, report: JSON) -> Sequence[tuple[Words, Sequence[int]]]:
        """Rows that explain without adding up (Oshaka's columns, Oh Pshaw's bids made),
        one value per player; the results screen sets them apart from the sums."""
        return []

    def result_amount(self, total: int) -> Words:
        """A total with its unit, as the results say it ("21 points")."""
        return points(total)

    def result_unit(self) -> Words:
        """What the totals count, as a heading says it ("points")."""
        return say("points")

    def result_best(self) -> Words:
        """Why the best total wins, in a few words ("the most points")."""
        return say("the most points")

    def result_notes(self, report: JSON) -> Sequence[Words]:
        """A line per round in words, for the results' round-by-round page (Oskar's trends
        and tokens); none where the rounds' scores say it all."""
        return []

    def result_sheet(self, report: JSON) -> ResultSheet:
        """The results screen's sheet for a finished game's ``report``: places, the winner
        line in words, the rule, the rounds, the rows that add up and the counts."""
        return build_sheet(
            report,
            rule=self.result_rule(report),
            amount=self.result_amount,
            unit=self.result_unit(),
            best=self.result_best(),
            addends=self.result_rows(report),
            counts=self.result_counts(report),
            notes=self.result_notes(report),
        )

    @abstractmethod
    def waiting_players(self) -> list[int]:
        """The players whose LED should say "your turn"."""


class Simulation(ABC):
    """Simulation: bots for empty seats, and how a person would make an action (gestures)."""

    @abstractmethod
    def gestures(self, action: Action) -> list[Gesture]:
        """How a person at the seat would take ``action``: taps and presses, in order."""

    @abstractmethod
    def make_bot(self, rng: random.Random) -> Bot:
        """A bot for one seat of this game."""

    def hand(self, player: int) -> tuple[str, ...]:
        """The player's known hand (virtual deal only), for the simulator's on-screen hand."""
        return ()

    def decisions(self, actions: Sequence[Action]) -> int:
        """How many of the recorded ``actions`` were decisions; bots reseed from this count.

        A game that also records what only measures (Oss's timed tosses) counts
        those out, so a bot resumed between a toss and its result decides as it
        did before the kill.
        """
        return len(actions)

    def bot_may_act(self, player: int, bots: frozenset[int]) -> bool:
        """Whether the bot of ``player`` may act now, ``bots`` being the engine players bots
        play. A game says no where an action would decide for a person (an Oss duel)."""
        return True


class GameAdapter:
    """The table side of one game in progress: its input mapping, presentation and simulation.

    A game's table module (``controller/games/<key>/table.py``) names its
    adapter class ``ADAPTER``; the table makes one per game with an
    ``AdapterContext`` and reaches the three roles through ``input``,
    ``presentation`` and ``simulation``. Each role sees the engine read-only;
    state the roles share (a cursor shown by the presentation and moved by the
    input) lives in a small object the adapter hands to both.
    """

    spec: ClassVar[GameSpec]
    input: SeatInput
    presentation: Presentation
    simulation: Simulation

    def __init__(self, context: AdapterContext) -> None:
        self.context = context
        self.engine = context.engine

    @property
    def game_id(self) -> str:
        return self.spec.id

    @property
    def title(self) -> str:
        return self.spec.title

    def chance(self, rng: random.Random) -> list[Action]:
        """Actions a virtual deck or dice supply now (e.g. dealt hands), from the engine."""
        return self.engine.chance_actions(rng, self.context.settings.chance)


_ADAPTERS: dict[str, type[GameAdapter]] = {}


def register_adapter(adapter: type[GameAdapter]) -> None:
    """Add the table side of a game registered outside ``controller.games`` (a toy game)."""
    _ADAPTERS[adapter.spec.id] = adapter


def adapter_for(spec: GameSpec) -> type[GameAdapter]:
    """The adapter of a game: ``ADAPTER`` in its folder's ``table`` module."""
    if spec.id not in _ADAPTERS:
        module = import_module(f"{spec.package}.table")
        _ADAPTERS[spec.id] = module.ADAPTER
    return _ADAPTERS[spec.id]


def import_every_game(stop: threading.Event) -> None:
    """Import every game's table side, and with it its rules and bot, until ``stop`` is set.

    The kiosk imports none of them before READY=1 (the menu needs only the specs). Run
    on a thread once the table is up, this spares the first game chosen the wait for
    its modules: 0.07-0.13 s of CPU a game on the x86 development machine, several
    times that on a Pi's core.
    """
    for spec in specs().values():
        if stop.is_set():
            return
        try:
            adapter_for(spec)
        except Exception as error:  # a broken game must not take the warm-up's others down
            # One line, not a thread's traceback: choosing the game raises it again, in the loop.
            logger.warning(
                "game %s could not be loaded: %s: %s", spec.id, type(error).__name__, error
            )


def new_adapter(
    game_id: str,
    players: int,
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    settings: TableSettings | None = None,
) -> GameAdapter:
    """A new game's adapter outside a table (tools, tests and benchmarks).

    The header's starting details are drawn from ``rng``; input chance comes
    from a generator derived from ``seed``.
    """
    spec = spec_of(game_id)
    engine = spec.engine.from_header(spec.new_header(players, options, rng))
    chance = random.Random(seed)
    context = AdapterContext(engine, seed, settings or TableSettings(), lambda: chance)
    return adapter_for(spec)(context)
