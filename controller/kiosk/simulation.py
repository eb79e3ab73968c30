"""Simulated players: bots (and the on-screen person) act through the mock devices.

A bot never calls the engine. It decides with the game's bot, then does what a
person at that seat would do: taps the card on the seat's mock reader or
presses the seat's mock button (a gpiozero MockFactory pin). Those devices put
the same typed events on the table's queue as real hardware, so a simulated
game exercises the whole path from reader to engine to LEDs and display.

``Simulator(auto_game=...)`` also walks the menus itself (wake the table,
choose the game, join, start), which is how the headless demo plays a full
game with nobody at the table; the window's demo, given ``--game`` or
``--players``, starts one game so (``auto_once``), its person joined too
(``auto_people``), and then leaves the menus to the people.

Thinking: with ``think`` set (the kiosk passes ``[bots] think``) Oh Pshaw and
Oshaka Trick seats get the search bots, which take up to ``think`` seconds per
decision; without it every seat gets its game's quick heuristic bot.
With ``background=True`` (the kiosk's window) the bot thinks on a worker
thread, on its own copy of the engine, and ``step`` returns at once until the
decision is ready, so the table loop keeps handling input; a decision made
for a game state that has since moved on is dropped and the bot thinks again.
Without it (headless runs, tests) ``step`` waits for the decision, as before.
"""

from __future__ import annotations

import copy
import importlib.util
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from controller.adapters import Bot, Gesture, Press, Tap
from controller.bots.search_bot import SearchBot
from controller.games import specs
from controller.games.base import Action
from controller.games.words import Arg, Card, Text, Verbatim, say
from controller.kiosk.devices import Devices
from controller.kiosk.loop_load import LoopLoad, think_budget
from controller.table import Table
from controller.tags.registry import TagRegistry, deck_cards, deck_holding, simulated_uid
from controller.view import Screen
from hardware.events import Button, Contact

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


# A game's search bot is ``SEARCH_BOT`` in its folder's ``search`` module; a game
# without one keeps its adapter's bot. Each searches its class's default_samples
# deals at the default budget (DEFAULT_THINK), in proportion to the configured
# one. The module is imported when a game first needs its bot, as the games'
# adapters and scenes are: the three cost some 30 ms of start-up here.
DEFAULT_THINK = 0.3


def search_bot_of(game_id: str) -> tuple[Callable[..., Any], int] | None:
    """The search bot class of ``game_id`` and its deals at the default budget, or None."""
    spec = specs().get(game_id)
    if spec is None:
        return None
    name = f"{spec.package}.search"
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:  # the game's package itself is gone (a test's toy game)
        return None
    if found is None:
        return None
    bot: type[SearchBot[Any]] = import_module(name).SEARCH_BOT
    return bot, bot.default_samples


class _Thought:
    """One bot decision being made on a worker thread, on a copy of the engine."""

    def __init__(
        self,
        key: tuple[object, int, int],
        bot: Bot,
        engine: object,
        player: int,
        on_done: Callable[[], None] | None,
    ) -> None:
        self.key = key
        self.done = threading.Event()
        self.action: Action | None = None
        self.error: BaseException | None = None
        self._work = (bot, engine, player, on_done)
        self.thread = threading.Thread(target=self._run, name="bot-think", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        bot, engine, player, on_done = self._work
        try:
            self.action = bot.choose(engine, player)
        except BaseException as exc:  # handed to the table loop, which raises it there
            self.error = exc
        finally:
            self.done.set()
            if on_done is not None:
                on_done()


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
    # People's seats the walk joins as well (the window's demo starting a game: the
    # person at the keyboard plays it), and whether it starts one game only and then
    # leaves the menus to the people (the window), or every game (headless).
    auto_people: frozenset[int] = frozenset()
    auto_once: bool = False
    # How a tag reaches a seat's reader: by default the seat's mock reader;
    # tests over pseudo-terminals write the reader's line protocol instead.
    tapper: Callable[[int, str], None] | None = None
    # Each seat's bot and the generator it draws from (reseeded before every decision).
    _bots: dict[int, tuple[Bot, random.Random]] = field(default_factory=dict)
    # Seconds a bot may think per decision ([bots] think): the search bots play within
    # it. None: every game's quick heuristic bot (tests and tools that want speed).
    think: float | None = None
    background: bool = False  # think on a worker thread; step() never waits for a bot
    # Called from the worker when a decision is ready (e.g. to wake the table loop).
    on_decided: Callable[[], None] | None = None
    # The table loop's recent CPU use: a busy loop gives a bot less time (loop_load.py).
    load: LoopLoad | None = None
    _thought: _Thought | None = None
    _plan: list[tuple[int, Gesture]] = field(default_factory=list)
    # What the table looked like when the bots last found nothing to do: until it
    # changes, a turn of the loop (an LED pulse's, say) need not ask them again.
    _idle_at: tuple[int, str | None, frozenset[int]] | None = None
    _next_at: float = 0.0
    _game_key: object = None

    def step(self, now: float) -> bool:
        """Do the next simulated gesture if one is due; True if something was done."""
        if now < self._next_at:
            return False
        if not self._plan:
            idle_at = (self.table.version, self.auto_game, frozenset(self.bot_seats))
            if idle_at == self._idle_at:
                return False
            self._plan = self._decide()
            # A bot thinking on the worker is not idle: the loop asks until it answers.
            self._idle_at = idle_at if not self._plan and self._thought is None else None
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

    def tap(self, seat: int, card: str) -> Text | None:
        """Tap a card of the current game's deck at a seat's (mock) reader.

        Returns None when the tag was tapped, else why not, in words for the screen.
        """
        game = self.table.game
        if game is None:
            return None
        uid = self.registry.uid_for(deck_holding(game.adapter.game_id, card), card)
        if uid is None:
            logger.warning("no tag is enrolled for %s", card)
            return say(
                "No tag is enrolled for {card}: enroll the deck at the staff desk", card=Card(card)
            )
        return self._present(seat, uid, say("the {card} card", card=Card(card)))

    def tap_staff(self, seat: int) -> Text | None:
        """Tap the registry's (first) staff tag at a seat's reader; None, or why it cannot."""
        staff = self.registry.to_json()["staff"]
        assert isinstance(staff, list)
        if not staff:
            return say("No staff tag is enrolled; see the setup message on the attract screen")
        return self._present(seat, str(staff[0]), say("your staff tag"))

    def tap_deck_card(self, seat: int) -> Text | None:
        """At the staff desk: tap the simulated deck's card it wants (enroll or audit)."""
        desk = self.table.staff_desk
        if desk is None:
            return say("Open the staff desk first: tap the staff tag on the attract screen")
        if desk.enrollment is not None:
            enrollment = desk.enrollment
            card = enrollment.next_card
            if card is None:
                return say(
                    "The {deck} deck is complete: PREV goes back to the menu",
                    deck=Verbatim(enrollment.deck),
                )
            # The next physical copy of that card in the simulated deck.
            copy = sum(1 for _, c in enrollment.registry.cards_of(enrollment.deck) if c == card)
            return self._present(seat, simulated_uid(enrollment.deck, card, copy), Card(card))
        if desk.audit is not None:
            audit = desk.audit
            seen: dict[str, int] = {}
            for card in deck_cards(audit.deck):
                copy = seen.get(card, 0)
                seen[card] = copy + 1
                uid = simulated_uid(audit.deck, card, copy)
                if not audit.was_tapped(uid):
                    return self._present(seat, uid, Card(card))
            return say("Every card of the simulated deck is tapped: OK shows the result")
        return say("Choose enroll or audit first (PREV / NEXT, then OK)")

    def _present(self, seat: int, uid: str, what: Arg) -> Text | None:
        if self.tapper is not None:
            self.tapper(seat, uid)
            return None
        reader = self.devices.mock_reader(seat)
        if reader is None:
            # The seat has a real reader: a click cannot put a tag on it.
            logger.warning("seat %d cannot tap %s: its reader is not simulated", seat, uid)
            # The table says whose seat it is; the message says only why.
            return say("This seat has a real reader: tap {what} on it", what=what)
        reader.present(uid)
        reader.remove()
        return None

    def press(self, seat: int, button: Contact) -> None:
        """Press and release a seat's simulated button (``"timer"``: the toss timer)."""
        if not self.devices.press(seat, button):
            logger.warning("seat %d's %s button is not simulated", seat, button)

    def hold(self, seat: int, button: Contact) -> None:
        """Push a seat's simulated button down and keep it down (a key or a mouse button held
        in the window), so that the table times the hold as it times a real button's."""
        if not self.devices.hold(seat, button):
            logger.warning("seat %d's %s button is not simulated", seat, button)

    def release(self, seat: int, button: Contact) -> None:
        """Let go of a button ``hold`` pushed down."""
        if not self.devices.release(seat, button):
            logger.warning("seat %d's %s button is not simulated", seat, button)

    # --- deciding -----------------------------------------------------------------

    def _decide(self) -> list[tuple[int, Gesture]]:
        table = self.table
        view = table.view
        if self.auto_game is not None and self.auto_once and view.screen is Screen.PLAY:
            self.auto_game = None  # started (or resumed): the next game is the people's choice
        if self.auto_game is not None:
            plan = self._walk_menus(view.screen)
            if plan:
                return plan
        if view.screen is Screen.JOIN:
            joining: list[tuple[int, Gesture]] = [
                (s, Press(Button.OK)) for s in sorted(self.bot_seats) if s not in table.joined
            ]
            return joining[:1]
        if view.screen is Screen.STARTER:
            return self._answer_starter()
        if view.screen is Screen.PLAY and table.game is not None:
            return self._bot_turn()
        return []

    def _answer_starter(self) -> list[tuple[int, Gesture]]:
        """The rulebook's starter question (who most recently helped someone?): a bot
        cannot know, so when only bots play the first joined seat answers; a person answers for
        themselves (or nobody does, and the table draws)."""
        joined = sorted(self.table.joined)
        if not joined or any(s not in self.bot_seats for s in joined):
            return []
        return [(joined[0], Press(Button.OK))]  # the first joined seat: no draw, so replays agree

    def _walk_menus(self, screen: Screen) -> list[tuple[int, Gesture]]:
        table = self.table
        first = min(self.bot_seats)
        if screen is Screen.ATTRACT:
            return [(first, Press(Button.OK))]
        if screen is Screen.CHOOSE_GAME:
            ids = [g.game_id for g in table.view.games]
            if self.auto_game not in ids:
                raise ValueError(f"the table offers no game {self.auto_game!r}")
            if ids[table.selected] != self.auto_game:
                return [(first, Press(Button.NEXT))]
            return [(first, Press(Button.OK))]
        if screen is Screen.JOIN:
            people = [s for s in sorted(self.auto_people) if s not in table.joined]
            if people:
                return [(people[0], Press(Button.OK))]
            if all(s in table.joined for s in self.bot_seats):
                return [(first, Press(Button.NEXT))]
        if screen is Screen.OPTIONS:
            return [(first, Press(Button.OK))]  # the cursor starts on "Start the game"
        return []

    def _bot_turn(self) -> list[tuple[int, Gesture]]:
        game = self.table.game
        assert game is not None
        if self.table.staff_seat is not None:
            # Staff mode is open at a seat (to undo, end or abandon): the bots wait until
            # it closes, so an undone card is not played again under staff's hands.
            return []
        if self._game_key is not game:
            self._game_key = game
            self._bots = {}
        plan: list[tuple[int, Gesture]] = []
        bots = frozenset(p for p, s in enumerate(game.players) if s in self.bot_seats)
        for player in game.adapter.presentation.waiting_players():
            seat = game.players[player]
            if seat not in self.bot_seats or not game.adapter.simulation.bot_may_act(player, bots):
                continue
            entry = self._bots.get(seat)
            if entry is None:
                rng = bot_rng(game.seed, seat)
                entry = self._bots[seat] = (self.make_bot(game.adapter, rng), rng)
            bot, rng = entry
            key = (game, player, self.table.version)
            thought = self._thought
            if thought is None or (thought.key != key and thought.done.is_set()):
                # Reseeded from the decisions so far before every decision: a game resumed
                # from its journal (new process, new bots) decides exactly as before. Not
                # while a thought runs on the worker: it draws from this generator.
                decided = game.adapter.simulation.decisions(game.recorder.actions)
                rng.seed(bot_rng_seed(game.seed, seat, decided))
            action = self._think(bot, key, player)
            if action is None:
                return []  # still thinking, off the loop
            plan = [(seat, g) for g in game.adapter.simulation.gestures(action)]
            break
        return plan

    @property
    def thinking(self) -> bool:
        """Whether a bot is thinking on its worker thread right now."""
        return self._thought is not None and not self._thought.done.is_set()

    def make_bot(self, adapter: Any, rng: random.Random) -> Bot:
        """The bot for a seat: the game's search bot, within ``think``, else the adapter's."""
        found = search_bot_of(adapter.game_id)
        fallback: Bot = adapter.simulation.make_bot(rng)
        if found is None or self.think is None:
            return fallback
        factory, samples = found
        scaled = max(4, round(samples * self.think / DEFAULT_THINK))
        search = factory(rng, budget=self.think, samples=scaled)
        return _SearchFirst(search, fallback)

    def _think(self, bot: Bot, key: tuple[object, int, int], player: int) -> Action | None:
        """The bot's action for ``key`` (game, player, table version), or None while thinking."""
        thought = self._thought
        if thought is not None and thought.key != key:
            # The game moved on while the bot thought. Let that search end (within its
            # budget) before the bot thinks again: the two would share its rng.
            if not thought.done.is_set():
                return None
            thought = self._thought = None
        if thought is None:
            game = key[0]
            engine = game.adapter.engine  # type: ignore[attr-defined]
            if not self.background:
                return bot.choose(engine, player)
            if self.think is not None and self.load is not None:
                _set_budget(bot, think_budget(self.think, self.load.share()))
            # The worker reads its own copy: the table goes on changing the real engine.
            thought = self._thought = _Thought(
                key, bot, copy.deepcopy(engine), player, self.on_decided
            )
        if not thought.done.is_set():
            return None
        self._thought = None
        if thought.error is not None:
            raise thought.error
        return thought.action


def _set_budget(bot: Bot, seconds: float) -> None:
    """Give a search bot (alone or behind ``_SearchFirst``) ``seconds`` for its next decision."""
    search = bot.search if isinstance(bot, _SearchFirst) else bot
    if isinstance(search, SearchBot):
        search.budget = seconds


class _SearchFirst:
    """A search bot for the decisions it searches; the adapter's bot for the rest.

    The adapter's bot also knows the table's own steps (an Oh Pshaw dealer's
    turned card while the table waits for it, or trump to choose after a turned
    Wizard); the search bot plays the game.
    """

    def __init__(self, search: Any, fallback: Bot) -> None:
        self.search = search
        self.fallback = fallback

    def choose(self, engine: Any, seat: int) -> Action:
        # (Also the Wizard variant's dealer choosing trump after a turned Wizard.)
        table_step = getattr(engine, "awaiting_turned_card", False) or getattr(
            engine, "awaiting_trump_choice", False
        )
        if table_step and seat == engine.round.dealer:
            return self.fallback.choose(engine, seat)
        return self.search.choose(engine, seat)  # type: ignore[no-any-return]
