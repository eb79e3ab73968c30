"""Test rigs shared by the table tests: the table wired to mock devices as the kiosk wires it.

``TableRig`` is a table with mock readers, gpiozero ``MockFactory`` buttons,
the recording LED strip and a fake clock; each game's tests subclass it for
their own shortcuts. The serial helpers build a table whose readers are real
pseudo-terminals and tap cards the way a reader board reports them.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, ClassVar, Self, TypeVar

from controller.adapters import GameAdapter
from controller.config.table_config import SeatConfig, TableConfig
from controller.games.base import JSON, Engine
from controller.games.oshaka_trick.engine import OshakaTrick
from controller.kiosk.devices import Devices, build
from controller.kiosk.simulation import Simulator
from controller.table import JournalSink, LedSink, SoundSink, Table, TableLoop
from controller.tags.registry import TagRegistry, simulated, simulated_uid
from controller.view import Screen
from hardware.events import Button, Contact, InputEvent
from hardware.ptys import PtyPair
from tests.words import shown

PIXELS = 8  # LED pixels per seat in every rig

E = TypeVar("E", bound=Engine)
A = TypeVar("A", bound=GameAdapter)


class TableRig:
    """A table with mock devices and a fake clock (``now``), records kept in ``records``."""

    deck: ClassVar[str] = "oshaka"  # the deck whose cards ``tap`` names

    def __init__(
        self,
        seats: int = 4,
        bots: int = 0,
        seed: int = 5,
        *,
        leds: LedSink | None = None,
        sounds: SoundSink | None = None,
        journal: JournalSink | None = None,
        history: Callable[[], list[tuple[str, ...]]] | None = None,
        registry: TagRegistry | None = None,
        staff_log: Callable[[str, JSON], None] | None = None,
        can_quit: bool = False,
        on_record: Callable[[str, str], None] | None = None,
        **config: Any,
    ) -> None:
        """``leds`` replaces the seat LEDs (e.g. a recorder of calls); ``sounds`` gives the
        table speakers (none: silent); ``registry`` the
        simulated decks; ``on_record`` hears of each record besides ``records``; the other
        keywords go to ``Table``, and ``config`` sets TableConfig fields of the simulated
        table (``deal="physical"``)."""
        self.config = replace(TableConfig.simulated(seats, bots=bots), **config)
        self.events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
        self.devices: Devices = build(self.config, self.events)
        self.registry = registry if registry is not None else simulated()
        self.now = 100.0
        self.records: list[str] = []
        self.leds: LedSink = leds if leds is not None else self.devices.leds
        self.table = Table(
            self.config,
            self.registry,
            leds=self.leds,
            sounds=sounds,
            rng=random.Random(seed),
            clock=lambda: self.now,
            on_record=lambda game, text: self.record(game, text, on_record),
            journal=journal,
            history=history,
            staff_log=staff_log,
            can_quit=can_quit,
        )
        self.loop = TableLoop(self.table, self.events)

    @contextmanager
    def running(self) -> Iterator[Self]:
        """The rig with its mock devices open and their first inputs taken (a fixture's body)."""
        with self.devices:
            self.loop.drain()
            yield self

    def record(
        self, game_id: str, text: str, also: Callable[[str, str], None] | None = None
    ) -> None:
        """A finished game's record: kept in ``records``, and handed on to ``also``."""
        self.records.append(text)
        if also is not None:
            also(game_id, text)

    def press(self, seat: int, button: Contact) -> None:
        """Press and release a seat button (``Button.OK``, or ``"timer"``: the toss timer)
        through its mock pin, then run the loop."""
        assert self.devices.press(seat, button)
        self.loop.drain()

    def tap_uid(self, seat: int, uid: str) -> None:
        """Put a tag on a seat's mock reader and take it away, then run the loop."""
        reader = self.devices.mock_reader(seat)
        assert reader is not None
        reader.present(uid)
        reader.remove()
        self.loop.drain()

    def tap(self, seat: int, card: str) -> None:
        """Tap a card of the rig's deck (its simulated tag) at a seat."""
        self.tap_uid(seat, simulated_uid(self.deck, card))

    def join_game(self, game_id: str, seats: tuple[int, ...] = (0, 1, 2, 3), line: int = 0) -> None:
        """Wake the table, choose ``game_id``'s ``line``-th menu line (its presets), let
        ``seats`` join, and press NEXT: its options, starter question or play follow."""
        self.press(seats[0], Button.OK)  # wake
        assert self.screen() is Screen.CHOOSE_GAME
        lines = [i for i, g in enumerate(self.table.view.games) if g.game_id == game_id]
        assert lines, f"the kiosk's menu does not offer {game_id}"
        while self.table.selected != lines[line]:
            self.press(seats[0], Button.NEXT)
        self.press(seats[0], Button.OK)  # choose it; this seat joins
        for seat in seats[1:]:
            self.press(seat, Button.OK)
        self.press(seats[0], Button.NEXT)  # start

    def start_game(
        self, game_id: str, seats: tuple[int, ...] = (0, 1, 2, 3), starter: int | None = None
    ) -> Engine:
        """Wake the table, choose ``game_id`` in the menu, let ``seats`` join, and start.

        A game whose rulebook asks who starts (Oshaka's first lead) is answered by
        ``starter``'s OK; without one the question times out and the table draws.
        """
        self.join_game(game_id, seats)
        if self.screen() is Screen.OPTIONS:
            self.press(seats[0], Button.OK)  # "Start the game" with the menu's preset
        if self.screen() is Screen.STARTER:
            if starter is not None:
                self.press(starter, Button.OK)
            else:
                self.now += 1000.0  # nobody answers: the table draws
                self.table.tick(self.now)
        assert self.screen() is Screen.PLAY
        game = self.table.game
        assert game is not None
        return game.adapter.engine

    def start_oshaka(self, seats: tuple[int, ...] = (0, 1, 2, 3)) -> OshakaTrick:
        """Start Oshaka Trick at ``seats`` (the table tests' usual game); its engine."""
        self.start_game("oshaka-trick", seats)
        return self.engine_as(OshakaTrick)

    def play_first_legal(self) -> int:
        """The player whose turn it is taps its first legal card at its seat; that player."""
        game = self.table.game
        assert game is not None
        engine: Any = game.adapter.engine
        player = engine.turn
        self.tap(game.players[player], str(engine.legal_actions(player)[0].to_json()["play"]))
        return int(player)

    def adapter_as(self, kind: type[A]) -> A:
        """The adapter of the game in play, which must be a ``kind``."""
        game = self.table.game
        assert game is not None and isinstance(game.adapter, kind)
        return game.adapter

    def engine_as(self, kind: type[E]) -> E:
        """The engine of the game in play, which must be a ``kind``."""
        game = self.table.game
        assert game is not None and isinstance(game.adapter.engine, kind)
        return game.adapter.engine

    def hints(self) -> dict[tuple[int, str], str]:
        """Every seat button's label on screen, by (seat, button), in English."""
        return {(h.seat, h.button): shown(h.label) for h in self.table.view.buttons}

    def last_text(self) -> str:
        """The latest message line, in English."""
        return shown(self.table.messages[-1].text)

    def bots(self, game_id: str, seed: int = 3, **simulator: Any) -> Simulator:
        """The simulator's bots at every seat, starting ``game_id`` by themselves; the
        keywords go to ``Simulator`` (``think``, ``background``, ``on_decided``, ``load``)."""
        seats = {seat.index for seat in self.config.seats}
        return Simulator(
            self.table,
            self.devices,
            self.registry,
            bot_seats=seats,
            rng=random.Random(seed),
            auto_game=game_id,
            **simulator,
        )

    def play_to_results(self, sim: Simulator, steps: int = 20000) -> None:
        """Let the simulator's bots play until the results screen (within ``steps``)."""
        for _ in range(steps):
            if self.table.screen is Screen.RESULTS:
                return
            assert sim.step(0.0)
            self.loop.drain()
        assert self.table.screen is Screen.RESULTS

    def screen(self) -> Screen:
        """The table's screen, read afresh (a plain attribute read would be narrowed by mypy)."""
        return self.table.screen


# --- over real pseudo-terminals ------------------------------------------------------


@contextmanager
def pty_pairs(count: int) -> Iterator[list[PtyPair]]:
    """``count`` open pseudo-terminal pairs, one per seat reader; closed afterwards."""
    pairs = [PtyPair().open() for _ in range(count)]
    try:
        yield pairs
    finally:
        for pair in pairs:
            pair.close()


def serial_config(ptys: list[PtyPair]) -> TableConfig:
    """A table whose seats are bots with serial line readers on the pseudo-terminals."""
    return TableConfig(
        seats=tuple(
            SeatConfig(
                index=i, reader=pty.slave_path, pixels=(i * PIXELS, (i + 1) * PIXELS), bot=True
            )
            for i, pty in enumerate(ptys)
        )
    )


def serial_tapper(ptys: list[PtyPair]) -> Callable[[int, str], None]:
    """A ``Simulator.tapper`` that sends what a reader board sends: the tag, then its leaving."""

    def tap(seat: int, uid: str) -> None:
        ptys[seat].write(f"TAG {uid}\n".encode())
        ptys[seat].write(b"GONE\n")

    return tap


def is_turn_green(colours: set[tuple[int, int, int]]) -> bool:
    """The "your turn" LED cue: a green pulse, whatever its current level."""
    return len(colours) == 1 and all(r == 0 and b == 0 and g > 0 for r, g, b in colours)


def painted_text(monkeypatch: Any) -> list[str]:
    """Every text the display's painters write from now on (``monkeypatch`` undoes it)."""
    from display.theme import Painter

    written: list[str] = []
    text, fit_text = Painter.text, Painter.fit_text

    def spy(self: Painter, words: Any, *args: Any, **kw: Any) -> Any:
        written.append(self.words(words))  # as the panel's reader reads it
        return text(self, words, *args, **kw)

    def fit_spy(self: Painter, words: Any, *args: Any, **kw: Any) -> Any:
        written.append(self.words(words))  # whole, however many lines it takes
        return fit_text(self, words, *args, **kw)

    monkeypatch.setattr(Painter, "text", spy)
    monkeypatch.setattr(Painter, "fit_text", fit_spy)
    return written
