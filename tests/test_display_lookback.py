"""The last moments of Oshaka Trick, Oskar and Oss: held on the table, and brought back.

What Oh Pshaw's tests check for its last trick (``tests/test_display_motion.py``)
is checked here for the other games, with the same shared pieces: the engine's
snapshot keeps the game's last moment (the last trick, where its cards went, the
last roll of the dice, the last attempt), the display's ``Motion`` holds it in
the centre for at least ``HOLD_SECONDS`` even when the table moves on at once (a
bot), and a long NEXT brings it back on that seat's panel (``draw_recall``)
for ``RECALL_SECONDS``. The table's state never waits for the hold: the views
are taken from real bot games, and the hold is a matter of the renderer's clock.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pygame
import pytest

from controller.games import spec_of
from controller.games.base import Chance, Event, Snapshot
from controller.games.oshaka_trick.events import CardPlaced, OshakaPenalty, TrickWon
from controller.games.oshaka_trick.snapshot import OshakaSnapshot
from controller.games.oshaka_trick.state import Phase as OshakaPhase
from controller.games.oshaka_trick.state import Placed
from controller.kiosk.simulation import Simulator
from controller.table.pages import HELP_HOLD, RECALL_SECONDS
from controller.view import TableView
from display.motion import HOLD_SECONDS
from display.renderer import Renderer
from hardware.events import Button, ButtonPressed, ButtonReleased
from tests.rigs import TableRig, painted_text
from tests.words import shown

SIZES = ((800, 480), (1920, 1080))


# --- the engines keep their last moment ---------------------------------------------------


def engine_steps(game_id: str, players: int, seed: int) -> Iterator[tuple[list[Event], Snapshot]]:
    """A seeded game of random legal actions through the engine contract: each action's
    events and the snapshot after it."""
    rng = random.Random(seed)
    spec = spec_of(game_id)
    engine = spec.engine.from_header(spec.new_header(players, {}, rng))
    for _ in range(5000):
        dealt = engine.chance_actions(rng, Chance())
        actions = dealt or []
        if not actions:
            expected = engine.expected
            if expected is None:
                return
            actions = [rng.choice(engine.legal_actions(expected.seat))]
        for action in actions:
            events = engine.apply(action)
            yield events, engine.snapshot()


@pytest.mark.parametrize("seed", range(3))
def test_oshaka_s_snapshot_keeps_the_last_trick_and_where_its_cards_went(seed: int) -> None:
    tricks = 0
    expected: list[tuple[str, Placed]] = []
    for events, snapshot in engine_steps("oshaka-trick", 4, seed):
        assert isinstance(snapshot, OshakaSnapshot)
        for event in events:
            if isinstance(event, TrickWon):
                tricks += 1
                assert [(t.seat, t.card) for t in snapshot.last_trick] == [
                    (seat, str(card)) for seat, card in event.cards
                ]
                assert snapshot.last_trick_winner == event.seat
                expected = []
            elif isinstance(event, CardPlaced):
                expected.append((str(event.card), Placed.UP if event.face_up else Placed.DOWN))
            elif isinstance(event, OshakaPenalty):
                expected.append((str(event.card), Placed.OSHAKA))
        if snapshot.last_trick:
            assert [(p.card, p.placed) for p in snapshot.last_placement] == expected
        else:
            assert snapshot.phase is OshakaPhase.PLAY  # only a new round has none yet
        assert OshakaSnapshot.from_json(json.loads(json.dumps(snapshot.to_json()))) == snapshot
    assert tricks == 26  # two rounds of 13, every one kept in turn


# --- the table's views, from real bot games --------------------------------------------------


@dataclass
class Game:
    """A bot game on a table rig, stepped one gesture at a time."""

    rig: TableRig
    sim: Simulator

    def step(self) -> TableView:
        assert self.sim.step(0.0)
        self.rig.loop.drain()
        return self.rig.table.view

    def until(self, done: Callable[[TableView], bool], steps: int = 6000) -> TableView:
        """Step until ``done`` holds for the table's view; that view."""
        for _ in range(steps):
            view = self.step()
            if done(view):
                return view
        pytest.fail("the bots never reached the moment")

    def look_back(self, seat: int) -> TableView:
        """A long NEXT at ``seat`` (held for ``HELP_HOLD``); the view after it."""
        table = self.rig.table
        table.handle(ButtonPressed(seat, Button.NEXT, self.rig.now))
        table.handle(ButtonReleased(seat, Button.NEXT, self.rig.now + HELP_HOLD))
        return table.view


@contextmanager
def bot_game(game_id: str, seats: int = 4, seed: int = 3) -> Iterator[Game]:
    """Bots at every seat of a rig, starting ``game_id`` by themselves."""
    rig = TableRig(seats=seats, bots=seats)
    with rig.running():
        game = Game(rig, rig.bots(game_id, seed))
        game.until(lambda view: view.game is not None and view.game_id == game_id)
        yield game


def snapshot_of(view: TableView) -> Snapshot:
    assert view.game is not None
    return view.game.snapshot


class Clocked:
    """A renderer on a fake clock, drawing frames as the kiosk's loop would."""

    def __init__(self, size: tuple[int, int] = (1280, 720)) -> None:
        self.renderer = Renderer(size)
        self.now = 0.0
        self.renderer.clock = lambda: self.now

    def draw(self, view: TableView, at: float | None = None) -> None:
        """Frames of ``view`` at the display's own pace up to ``at``, then one at ``at``."""
        if at is not None:
            while (wait := self.renderer.next_frame_in(view)) is not None and self.now + wait < at:
                self.now += wait
                self.renderer.draw(view)
            self.now = at
        self.renderer.draw(view)

    def centre(self) -> bytes:
        layout = self.renderer.layout
        assert layout is not None
        return pygame.image.tobytes(self.renderer.surface.subsurface(layout.centre), "RGB")

    def panel(self, seat: int) -> bytes:
        layout = self.renderer.layout
        assert layout is not None
        slot = next(s for s in layout.slots if s.seat_index == seat)
        return pygame.image.tobytes(self.renderer.surface.subsurface(slot.rect), "RGB")


def texts_drawn(monkeypatch: pytest.MonkeyPatch, view: TableView) -> list[str]:
    """Every text a fresh renderer writes for ``view`` (in English)."""
    written = painted_text(monkeypatch)
    Renderer((1280, 720)).draw(view)
    monkeypatch.undo()
    return written


def check_look_back(
    game: Game, monkeypatch: pytest.MonkeyPatch, seat: int, expected: Callable[[list[str]], bool]
) -> None:
    """A long NEXT at ``seat`` changes that panel alone, writes what ``expected`` wants,
    and closes by itself after ``RECALL_SECONDS``."""
    clocked = Clocked()
    before = game.rig.table.view
    clocked.draw(before)
    panels = [clocked.panel(index) for index in range(len(before.seats))]
    short = game.rig.table
    short.handle(ButtonPressed(seat, Button.NEXT, game.rig.now))
    short.handle(ButtonReleased(seat, Button.NEXT, game.rig.now + HELP_HOLD / 3))
    assert short.view.recall == ()  # a short press brings nothing back
    view = game.look_back(seat)
    assert view.recall == (seat,)
    clocked.draw(view)
    for index, pixels in enumerate(panels):
        assert (clocked.panel(index) != pixels) == (index == seat), index
    assert expected(texts_drawn(monkeypatch, view))
    game.rig.now += RECALL_SECONDS
    game.rig.table.tick(game.rig.now)
    after = game.rig.table.view
    assert after.recall == ()
    clocked.draw(after)
    fresh = Clocked()
    fresh.draw(after)
    assert clocked.panel(seat) == fresh.panel(seat)  # the panel as it is without a look back


# --- Oshaka Trick -------------------------------------------------------------------------


def oshaka(view: TableView) -> OshakaSnapshot:
    snapshot = snapshot_of(view)
    assert isinstance(snapshot, OshakaSnapshot)
    return snapshot


def placed_at_once(view: TableView) -> bool:
    """A trick just won and placed by a bot, and the next trick not yet led."""
    snap = oshaka(view)
    return snap.phase is OshakaPhase.PLAY and not snap.trick and len(snap.last_trick) == 4


def test_oshaka_holds_the_placed_trick_while_the_next_lead_waits() -> None:
    with bot_game("oshaka-trick") as game:
        game.until(lambda view: len(oshaka(view).trick) == 3 and oshaka(view).trick_number > 1)
        clocked = Clocked()
        clocked.draw(game.rig.table.view)
        placed = game.until(placed_at_once)
        clocked.draw(placed, at=1.0)
        won = oshaka(placed).last_trick
        shown_now = clocked.renderer.motion.shown
        assert shown_now is not None and len(shown_now.won) == 4 and shown_now.plays == ()
        lead = game.step()  # the winner leads at once: the table's state has moved on
        assert len(oshaka(lead).trick) == 1
        clocked.draw(lead, at=1.5)
        shown_now = clocked.renderer.motion.shown
        assert shown_now is not None and shown_now.plays == ()  # the trick still stays
        assert shown_now.won == tuple((t.seat, t.card) for t in won)
        held = clocked.centre()
        clocked.draw(lead, at=1.0 + HOLD_SECONDS + 1.0)
        shown_now = clocked.renderer.motion.shown
        assert shown_now is not None and shown_now.won == () and len(shown_now.plays) == 1
        assert clocked.centre() != held


def test_oshaka_holds_round_one_s_last_trick_before_the_round_s_summary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with bot_game("oshaka-trick") as game:
        game.until(lambda view: oshaka(view).trick_number == 13 and len(oshaka(view).trick) == 3)
        clocked = Clocked()
        clocked.draw(game.rig.table.view)
        between = game.until(lambda view: oshaka(view).phase is OshakaPhase.LEAD)
        clocked.draw(between, at=0.5)
        shown_now = clocked.renderer.motion.shown
        assert shown_now is not None and len(shown_now.won) == 4
        assert "Round 1 scored" not in texts_drawn_by(clocked, monkeypatch, between, 1.0)
        assert "Round 1 scored" in texts_drawn_by(clocked, monkeypatch, between, HOLD_SECONDS + 1)


def texts_drawn_by(
    clocked: Clocked, monkeypatch: pytest.MonkeyPatch, view: TableView, at: float
) -> list[str]:
    """What ``clocked`` writes in its frame at ``at`` (its centre drawn again)."""
    written = painted_text(monkeypatch)
    clocked.renderer.invalidate()
    clocked.draw(view, at=at)
    monkeypatch.undo()
    return written


def test_a_long_next_brings_oshaka_s_last_trick_and_placement_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with bot_game("oshaka-trick") as game:
        view = game.until(lambda view: placed_at_once(view) and oshaka(view).trick_number > 4)
        snap = oshaka(view)
        winner = snap.last_trick_winner
        assert winner is not None
        words = {"up": "face up", "down": "face down", "oshaka": "Oshaka"}
        notes = [words[str(p.placed)] for p in snap.last_placement]

        def expected(texts: list[str]) -> bool:
            return f"Last trick: Seat {winner + 1} won it" in texts and all(
                texts.count(note) >= notes.count(note) for note in notes
            )

        check_look_back(game, monkeypatch, 2, expected)


def test_each_game_s_rules_page_names_the_gesture() -> None:
    for game_id in ("oh-pshaw", "oshaka-trick"):
        rules = [shown(line) for line in spec_of(game_id).rules]
        assert any(line.startswith("Hold NEXT for a second") for line in rules), game_id
