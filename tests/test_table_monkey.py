"""Anyone doing anything, anywhere, in any order: the table answers every input.

Bots play real games at three, four or seven seats while, between their
moves, seeded random input arrives as the hardware would deliver it: cards
of any deck tapped at any seat, unknown tags, the staff tag, presses and
long holds of any button, toss timer edges, readers dropping off and coming
back, and the clock jumping over idle timeouts. Nothing may raise, every
view must build and draw (at 800x480, where space is tightest), and
whatever game is in progress must resume from the journal exactly as the
table holds it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.games import specs
from controller.kiosk.resume import resume_if_unfinished
from controller.kiosk.simulation import Simulator
from controller.records.journal import Journal
from controller.records.record import replay
from controller.table import Table
from controller.tags.registry import SIMULATED_STAFF_UID, decks, simulated
from controller.view import Screen
from display.renderer import Renderer
from hardware.events import (
    Button,
    ButtonPressed,
    ButtonReleased,
    InputEvent,
    ReaderOffline,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
    TossCancelled,
    TossStarted,
    TossStopped,
)
from tests.rigs import TableRig

STEPS = 2500
GAMES = tuple(specs())


class Monkey:
    """Random input for a ``TableRig``, as events the hardware threads would queue."""

    def __init__(self, rig: TableRig, rng: random.Random, seats: int) -> None:
        self.rig = rig
        self.rng = rng
        self.seats = seats
        self.uids = {deck: [uid for uid, _ in rig.registry.cards_of(deck)] for deck in decks()}

    def events(self) -> list[InputEvent]:
        """One person's doing: a tap, a press, a hold, a timer edge or a reader's trouble."""
        rng, now = self.rng, self.rig.now
        seat = rng.randrange(self.seats)
        roll = rng.random()
        if roll < 0.35:
            uid = rng.choice(self.uids[rng.choice(sorted(self.uids))])
            return [TagPresented(seat, uid, now), TagRemoved(seat, now + 0.2)]
        if roll < 0.40:
            uid = "".join(rng.choice("0123456789ABCDEF") for _ in range(14))
            return [TagPresented(seat, uid, now), TagRemoved(seat, now + 0.2)]
        if roll < 0.42:
            return [TagPresented(seat, SIMULATED_STAFF_UID, now), TagRemoved(seat, now + 0.2)]
        if roll < 0.85:
            button = rng.choice((Button.PREV, Button.OK, Button.NEXT))
            # Mostly a tap of the button; sometimes the rules page's hold or staff's call.
            held = rng.choice((0.1, 0.1, 0.1, 1.2, 3.5))
            return [ButtonPressed(seat, button, now), ButtonReleased(seat, button, now + held)]
        if roll < 0.92:
            started = now - rng.uniform(0.05, 1.5)
            return rng.choice(
                [
                    [TossStarted("toss", now)],
                    [TossStopped("toss", started, now, now - started, now)],
                    [TossCancelled("toss", now, rng.choice(("too long", "cancelled")))],
                ]
            )
        if roll < 0.96:
            port = f"mock:{seat}"
            kind = rng.choice(("lost", "missing", "silent", "busy"))
            return [
                ReaderOffline(seat, port, f"{kind}: monkey", now, kind),
                ReaderOnline(seat, port, now + 1),
            ]
        return [ReaderProblem(seat, "a corrupt frame: monkey", now)]


# 8-19 s each on 2 cores: all four tables with --runslow.
@pytest.mark.parametrize(
    ("seats", "seed"),
    [
        pytest.param(3, 3, marks=pytest.mark.slow),
        pytest.param(4, 1, marks=pytest.mark.slow),
        pytest.param(4, 2, marks=pytest.mark.slow),
        pytest.param(7, 4, marks=pytest.mark.slow),
    ],
)
def test_random_input_between_real_moves_never_breaks_or_loses_a_game(
    seats: int, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # whatever the staff desk saves lands here
    rng = random.Random(seed)
    journal = Journal.open(tmp_path / "journal.sqlite3", TableConfig.simulated(seats))
    finished: list[tuple[str, object]] = []  # each record, and the result the table showed

    def keep(game_id: str, text: str) -> None:
        finished.append((text, rig.table.result))

    rig = TableRig(seats, bots=seats, seed=seed, journal=journal, on_record=keep)
    sim = Simulator(
        rig.table, rig.devices, rig.registry, bot_seats=set(range(seats)), rng=random.Random(seed)
    )
    monkey = Monkey(rig, rng, seats)
    renderer = Renderer((800, 480))
    screens: set[Screen] = set()
    with rig.devices:
        rig.loop.drain()
        for step in range(STEPS):
            if rig.table.screen is Screen.ATTRACT:
                sim.auto_game = rng.choice(GAMES)
            if rng.random() < 0.5:
                sim.step(rig.now)
            else:
                for event in monkey.events():
                    rig.events.put(event)
            rig.loop.drain()
            # Mostly seconds between doings; now and then the table is left alone
            # long enough for a screen's idle timeout.
            rig.now += rng.choice((0.3, 1.0, 2.0, 5.0, 5.0, 400.0) if step % 7 else (0.5,))
            rig.table.tick(rig.now)
            rig.devices.leds.tick(rig.now)
            view = rig.table.view
            screens.add(view.screen)
            if step % 25 == 0:
                renderer.draw(view)
            if step % 250 == 0:
                assert_resumes_exactly(rig, journal, tmp_path / f"copy-{step}.sqlite3")
        assert_resumes_exactly(rig, journal, tmp_path / "copy-end.sqlite3")
    journal.close()
    # The input reached the games, not only the menus, and every game played to its
    # end left a record that replays to the result the table showed.
    assert Screen.PLAY in screens and Screen.RESULTS in screens
    assert len({json.loads(text.splitlines()[0])["game"] for text, _ in finished}) >= 2
    for text, result in finished:
        assert result is not None
        assert replay(text).report() == result


def assert_resumes_exactly(rig: TableRig, journal: Journal, copy: Path) -> None:
    """A table started on a copy of the journal holds the same game as ``rig``'s."""
    game = rig.table.game
    if game is None or rig.table.screen is not Screen.PLAY:
        return
    journal.backup(copy)
    again = Journal.open(copy, rig.config)
    try:
        table = Table(
            rig.config,
            simulated(),
            rng=random.Random(7),
            clock=lambda: rig.now,
            journal=again,
        )
        assert resume_if_unfinished(again, table) is not None
        assert table.game is not None
        assert table.game.adapter.engine.snapshot() == game.adapter.engine.snapshot()
    finally:
        again.close()
