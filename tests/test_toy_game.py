"""How to add a fifth game, worked through: "High Card", registered from outside the project.

docs/architecture.md walks through this file. A game is four small things:

1. an engine (``HighCard``): the rules, pure, standard library only;
2. a ``GameSpec`` (``SPEC``): id, key, title, players, deck, options;
3. an adapter (``HighCardAdapter``): what a tap or a press means, what to say,
   and how a bot or a simulated person plays; three role objects;
4. optionally a scene ``display/scenes/<key>.py`` with ``SCENE`` (High Card has
   none: the display's generic scene draws its snapshot).

In the project a game is one folder, ``controller/games/<key>/`` (written by
``cafe-table dev new-game``: see ``tests/test_scaffold.py``); a plug-in or a
test registers the same pieces instead with ``controller.games.register`` and
``controller.adapters.register_adapter``, as the fixture below does.

The rules: each seat plays one card of a ten-card deck (1 to 10), in turn
from the leader; the highest card wins a point.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar, Self

import pygame
import pytest

import controller.adapters as adapters_module
from controller import games
from controller.adapters import (
    AdapterContext,
    Bot,
    Feedback,
    GameAdapter,
    Gesture,
    Presentation,
    SeatInput,
    Simulation,
    Tap,
    register_adapter,
)
from controller.games.base import (
    JSON,
    Action,
    Engine,
    Event,
    Expectation,
    GameOver,
    IllegalAction,
    Overlay,
    Snapshot,
    TurnPassed,
    best_seats,
    describe,
    new_header,
    read_options,
    read_players,
    read_seat_key,
    split_action,
)
from controller.games.cards import BadCard, CardFace
from controller.games.spec import DeckSpec, GameSpec
from controller.games.words import Words
from controller.kiosk.resume import resume_if_unfinished
from controller.records.journal import Journal
from controller.records.record import replay
from controller.table import Table, menu_entries
from controller.tags.registry import simulated
from controller.view import GameView, MessageKind, Screen
from display.generic import GenericScene
from display.scenes import scene_for
from display.screenshot import screenshot_view
from hardware.cues import Cue
from hardware.events import Button
from tests.rigs import TableRig
from tests.words import shown

# --- 1. the engine ------------------------------------------------------------------------

CARDS = tuple(str(n) for n in range(1, 11))


def parse_card(text: object) -> int:
    """A High Card card: "1" to "10" (a whole number is accepted too)."""
    if isinstance(text, bool) or not isinstance(text, int | str):
        raise BadCard(f"a High Card card is 1 to 10, not {describe(text)}")
    if str(text) not in CARDS:
        raise BadCard(f"a High Card card is 1 to 10, not {describe(text)}")
    return int(text)


class Verb(StrEnum):
    """High Card's one verb."""

    PLAY = "play"


class HighCards:
    """High Card's ``CardType``: a card is its number, on a plain face."""

    def parse(self, text: object) -> int:
        return parse_card(text)

    def notation(self, card: int) -> str:
        return str(card)

    def name(self, card: int) -> Words:
        return str(card)

    def face(self, card: int) -> CardFace:
        return CardFace(str(card))


@dataclass(frozen=True)
class Play(Action):
    """A seat plays one card."""

    card: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, "play": str(self.card)}


@dataclass(frozen=True)
class CardPlayed(Event):
    seat: int
    card: int


@dataclass(frozen=True)
class HighCardSnapshot(Snapshot):
    """What everyone sees: each seat's card (``None`` until played) and the leader."""

    played: tuple[str | None, ...]
    lead: int

    def to_json(self) -> JSON:
        return {"played": list(self.played), "lead": self.lead}


class HighCard(Engine):
    """Each seat plays one card, in turn from ``lead``; the highest card scores a point."""

    game_id: ClassVar[str] = "high-card"
    title: ClassVar[str] = "High Card"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def __init__(self, players: int, lead: int) -> None:
        self.players = players
        self.lead = lead
        self.played: list[int | None] = [None] * players

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> Self:
        players = read_players(header, cls.min_players, cls.max_players, cls.game_id)
        read_options(header, (), cls.game_id)
        return cls(players, read_seat_key(header, "lead", players))

    @classmethod
    def new_header(cls, players: int, options: Mapping[str, Any], rng: random.Random) -> JSON:
        return new_header(cls, players, options, "lead", rng)

    def header(self) -> JSON:
        return {
            "format": "table-record/1",
            "game": self.game_id,
            "players": self.players,
            "options": {},
            "lead": self.lead,
        }

    def parse_action(self, obj: Mapping[str, Any]) -> Action:
        seat, _ = split_action(obj, self.players, {"play": ()})
        return Play(seat, parse_card(obj["play"]))

    @property
    def expected(self) -> Expectation | None:
        for step in range(self.players):
            seat = (self.lead + step) % self.players
            if self.played[seat] is None:
                return Expectation(seat, Verb.PLAY)
        return None

    def legal_actions(self, seat: int) -> list[Action]:
        expected = self.expected
        if expected is None or expected.seat != seat:
            return []
        return [Play(seat, card) for card in range(1, 11) if card not in self.played]

    def apply(self, action: Action) -> list[Event]:
        # Validate first, then change the state: a refused action changes nothing.
        expected = self.expected
        if not isinstance(action, Play):
            raise IllegalAction("High Card knows only plays")
        if expected is None:
            raise IllegalAction("the game is over")
        if action.seat != expected.seat:
            raise IllegalAction(f"it is seat {expected.seat}'s turn, not seat {action.seat}'s")
        if action.card in self.played:
            raise IllegalAction(f"the {action.card} has already been played")
        self.played[action.seat] = action.card
        events: list[Event] = [CardPlayed(action.seat, action.card)]
        following = self.expected
        if following is not None:
            events.append(TurnPassed(following.seat))
        else:
            totals = self._totals()
            events.append(GameOver(tuple(totals), tuple(best_seats(totals))))
        return events

    def _totals(self) -> list[int]:
        cards = [card or 0 for card in self.played]
        return [1 if card == max(cards) else 0 for card in cards]

    def snapshot(self) -> HighCardSnapshot:
        return HighCardSnapshot(
            tuple(None if c is None else str(c) for c in self.played), lead=self.lead
        )

    def report(self) -> JSON:
        finished = self.finished
        totals = self._totals() if finished else [0] * self.players
        expected = self.expected
        return {
            "finished": finished,
            "rounds": [{"scores": totals}] if finished else [],
            "totals": totals,
            "winners": best_seats(totals) if finished else [],
            "next": None if expected is None else expected.to_json(),
        }


# --- 2. the spec ----------------------------------------------------------------------------

SPEC = GameSpec(
    id="high-card",
    key="high_card",
    title="High Card",
    min_players=2,
    max_players=4,
    deck=DeckSpec("high-card-10", "High Card (1 to 10)", CARDS, HighCards()),
    load_engine=lambda: HighCard,
)


# --- 3. the adapter: input, presentation, simulation ----------------------------------------


class HighCardInput(SeatInput):
    """A tapped card is a play; the buttons do nothing in this game."""

    def __init__(self, engine: HighCard) -> None:
        self.engine = engine

    def on_card(self, player: int, card: str) -> Action:
        return Play(player, parse_card(card))

    def on_button(self, player: int, button: Button) -> Action | str | None:
        return "High Card is played by tapping a card"

    def hints(self) -> list[tuple[int, Button, str]]:
        return []


class HighCardPresentation(Presentation):
    """Say what was played and who won; light the winner's seat."""

    def __init__(self, engine: HighCard) -> None:
        self.engine = engine

    def feedback(self, event: Event) -> list[Feedback]:
        if isinstance(event, CardPlayed):
            return [Feedback(event.seat, f"Seat {event.seat} plays the {event.card}")]
        if isinstance(event, GameOver):
            return [
                Feedback(seat, f"Seat {seat} has the high card", MessageKind.WON, Cue.TRICK_WON)
                for seat in event.winners
            ]
        return []

    def game_view(self) -> GameView[HighCardSnapshot, Overlay]:
        return GameView(self.engine.snapshot(), Overlay())

    def waiting_players(self) -> list[int]:
        expected = self.engine.expected
        return [] if expected is None else [expected.seat]


@dataclass
class HighestBot:
    """Plays the highest card still free (a bot the simulator drives like a person)."""

    def choose(self, engine: Any, seat: int) -> Action:
        legal: list[Play] = engine.legal_actions(seat)
        return max(legal, key=lambda play: play.card)


class HighCardSimulation(Simulation):
    def gestures(self, action: Action) -> list[Gesture]:
        assert isinstance(action, Play)
        return [Tap(str(action.card))]

    def make_bot(self, rng: random.Random) -> Bot:
        return HighestBot()


class HighCardAdapter(GameAdapter):
    """The table side of High Card: three small role objects over the engine."""

    spec: ClassVar[GameSpec] = SPEC

    def __init__(self, context: AdapterContext) -> None:
        super().__init__(context)
        assert isinstance(context.engine, HighCard)
        self.input = HighCardInput(context.engine)
        self.presentation = HighCardPresentation(context.engine)
        self.simulation = HighCardSimulation()


# --- registering it, and the tests -----------------------------------------------------------


@pytest.fixture(autouse=True)
def high_card(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the toy game for one test, then take it away again."""
    # register_adapter writes into the adapters' registry: give it a copy to throw away.
    monkeypatch.setattr(adapters_module, "_ADAPTERS", dict(adapters_module._ADAPTERS))
    games.register(SPEC)
    register_adapter(HighCardAdapter)
    try:
        yield
    finally:
        games.unregister(SPEC.id)


class HighCardRig(TableRig):
    deck: ClassVar[str] = "high-card-10"


@pytest.fixture
def rig() -> Iterator[HighCardRig]:
    with HighCardRig(seats=4).running() as r:
        yield r


def test_the_toy_game_is_on_the_menu_with_its_deck() -> None:
    titles = [entry.title for entry in menu_entries(games.specs())]
    assert titles[-1] == "High Card"  # registered games come after the project's own
    assert simulated().cards_of("high-card-10")  # the simulated registry has its tags


def test_the_toy_game_plays_through_the_table_to_the_results(
    rig: HighCardRig, tmp_path: Path
) -> None:
    engine = rig.start_game("high-card", seats=(0, 1, 3))
    assert isinstance(engine, HighCard)
    session = rig.table.game
    assert session is not None and session.players == [0, 1, 3]
    cards = {0: "4", 1: "9", 3: "7"}  # physical seat -> card; seat 1 holds the high card
    for _ in range(3):
        expected = engine.expected
        assert expected is not None
        seat = session.players[expected.seat]
        # The waiting seat's LEDs say "your turn"; a seat out of turn is refused.
        wrong = next(s for s in session.players if s != seat)
        rig.tap(wrong, "1")
        assert rig.table.messages[-1].kind is MessageKind.REFUSED
        rig.tap(seat, cards[seat])
    assert rig.screen() is Screen.RESULTS
    assert rig.table.result is not None and rig.table.result["winners"] == [1]
    assert any("Seat 1 has the high card" in shown(m.text) for m in rig.table.messages)
    # The record the table wrote replays to the same result.
    assert len(rig.records) == 1
    assert replay(rig.records[0]).report() == rig.table.result
    # The display has no High Card scene: the generic one draws it.
    assert isinstance(scene_for("high-card"), GenericScene)
    path = screenshot_view(rig.table.view, tmp_path / "results.png", size=(800, 480))
    assert pygame.image.load(str(path)).get_size() == (800, 480)


def test_the_toy_game_refuses_a_card_of_another_deck(rig: HighCardRig) -> None:
    engine = rig.start_game("high-card", seats=(0, 1))
    assert isinstance(engine, HighCard)
    expected = engine.expected
    assert expected is not None
    rig.tap_uid(expected.seat, simulated().uid_for("oshaka", "R7") or "")
    last = rig.table.messages[-1]
    assert last.kind is MessageKind.REFUSED and "oshaka deck" in shown(last.text)
    assert engine.played == [None, None]


def test_the_toy_game_survives_a_staff_undo_and_a_restart(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    rig = HighCardRig(seats=2, journal=journal)
    with rig.devices:
        rig.loop.drain()
        engine = rig.start_game("high-card", seats=(0, 1))
        first = engine.expected
        assert first is not None
        rig.tap(first.seat, "3")
        # Staff take the play back: the game is rebuilt through the one replay loop.
        assert rig.table.undo_last()
        session = rig.table.game
        assert session is not None and session.engine.snapshot().to_json()["played"] == [None, None]
        rig.tap(first.seat, "5")
    journal.close()
    # A new table on the same journal (a power cut) resumes with the 5 on the table.
    again = Journal.open(tmp_path / "journal.sqlite3")
    table = Table(rig.config, simulated(), journal=again)
    assert resume_if_unfinished(again, table) is not None
    assert table.screen is Screen.PLAY
    resumed = table.game
    assert resumed is not None
    played = resumed.engine.snapshot().to_json()["played"]
    assert played[first.seat] == "5" and played.count(None) == 1
    again.close()
