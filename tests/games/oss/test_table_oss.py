"""Oss at the table: seat readers, seat buttons and the toss timer, through mock devices.

The table routes the toss timer's events to ``adapter.input.on_timer`` and builds
the view's game from ``adapter.presentation.snapshot()``.
"""

from __future__ import annotations

import dataclasses
import queue
import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from controller.adapters import AdapterContext, Feedback, Press, TableSettings
from controller.config.table_config import TimerConfig
from controller.games.base import JSON
from controller.games.oss.bots import OssTableBot
from controller.games.oss.cards import parse_tribe_card, tribe_card
from controller.games.oss.engine import Counts, Oss, Phase
from controller.games.oss.table import OssAdapter
from controller.kiosk.devices import build
from controller.kiosk.resume import resume_if_unfinished
from controller.kiosk.simulation import Simulator
from controller.records.journal import Journal
from controller.records.record import dumps, replay, undo_last_player_action
from controller.table import Table, TableLoop
from controller.tags.registry import simulated
from controller.view import MessageKind, Screen
from hardware.events import Button, Contact, InputEvent, TimerEvent
from hardware.ptys import PtyPair
from hardware.toss_timer import TossCancelled, TossStarted, TossStopped, TossTimer
from tests.rigs import TableRig, serial_config
from tests.words import shown

TIMER_PIN = 27  # free: the mock seat buttons take pins from 4 upwards
SHOTS = Path("/tmp/oss-shots")


class Rig(TableRig):
    """The table rig with Oss tribe cards, Oss put in place by ``resume``."""

    deck = "oss-tribes"

    def __init__(self, seats: int = 3) -> None:
        super().__init__(seats, bots=0, seed=3)

    def resume(self, header: JSON, *actions: JSON) -> Oss:
        """Put the table in a known Oss position, as a journal would."""
        players = list(range(int(header["players"])))
        self.table.resume("oss", players, header, [(a, False) for a in actions], seed=1)
        return self.engine

    @property
    def engine(self) -> Oss:
        return self.engine_as(Oss)

    @property
    def adapter(self) -> OssAdapter:
        return self.adapter_as(OssAdapter)

    def labels(self, seat: int) -> dict[str, str]:
        return {b.button: shown(b.label) for b in self.table.view.buttons if b.seat == seat}


@pytest.fixture
def rig() -> Iterator[Rig]:
    with Rig().running() as r:
        yield r


def phase_of(engine: Oss) -> Phase:
    """The engine's phase, read afresh (a plain attribute read would be narrowed by mypy)."""
    return engine.phase


def placed(engine: Oss) -> list[tuple[int, int, str]]:
    return [(p.seat, p.value, p.trick) for p in engine.placements]


HEADER: JSON = {"format": "table-record/1", "game": "oss", "players": 3, "options": {}, "chief": 0}
HANDS: list[JSON] = [
    {"seat": 0, "hand": [1, 2, 3, 3, 4]},
    {"seat": 1, "hand": [1, 1, 2, 3, 4]},
    {"seat": 2, "hand": [1, 2, 2, 4, 4]},
]


def reveal(duel: str = "Bola-Bola!") -> JSON:
    return {"seat": 0, "reveal": {"solo": ["Aslik", "Numa", "Meja"], "duel": duel}}


def choices(*tricks: tuple[int, str]) -> list[JSON]:
    """Seats 0, 1, 2… in turn each choose a tribe and a trick."""
    return [
        {"seat": seat, "tribe": tribe, "trick": trick} for seat, (tribe, trick) in enumerate(tricks)
    ]


SOLO = choices((3, "Aslik"), (4, "Numa"), (2, "Meja"))  # each seat a solo trick of its own
DUEL = choices((2, "Aslik"), (4, "Aslik"), (1, "Meja"))  # seats 0 and 1 duel


# --- the menu and the deal ------------------------------------------------------------------


def test_oss_is_on_the_menu_and_the_virtual_deck_deals(rig: Rig) -> None:
    rig.press(0, Button.OK)
    while rig.table.view.games[rig.table.selected].game_id != "oss":
        rig.press(0, Button.NEXT)
    rig.press(0, Button.OK)
    rig.press(1, Button.OK)
    rig.press(2, Button.OK)
    rig.press(0, Button.NEXT)
    assert rig.table.screen is Screen.OPTIONS  # Oss has options: rounds, replays
    rig.press(0, Button.OK)  # "Start the game"
    assert rig.screen() is Screen.STARTER  # "Who is the most big-boned?"
    rig.press(1, Button.OK)  # seat 2 is: the first chief
    assert rig.screen() is Screen.PLAY
    engine = rig.engine
    # Hands for every seat and the reveal came from the virtual deck in one go.
    assert phase_of(engine) is Phase.TRIBE
    assert all(len(engine.hand_of(s)) == 5 for s in range(3))
    assert len(engine.solo_tricks) == 3
    chief = engine.chief
    assert chief == 1
    assert rig.labels(chief)["ok"] == "choose a trick"
    assert rig.adapter.simulation.hand(chief)[0].startswith(f"T{chief + 1}-")


def test_the_trick_is_chosen_then_the_card_tapped(rig: Rig) -> None:
    engine = rig.resume(HEADER, *HANDS, reveal())
    # A tap before choosing is refused, and changes nothing.
    rig.tap(0, "T1-3a")
    assert placed(engine) == []
    assert "choose the trick first" in rig.last_text()
    rig.press(0, Button.NEXT)
    rig.press(0, Button.NEXT)
    assert rig.labels(0)["ok"] == "tap for Numa"
    assert (
        rig.table.view.game is not None and rig.table.view.game.to_json()["chosen_trick"] == "Numa"
    )
    # Another tribe's card is refused with the reason.
    rig.tap(0, "T2-3a")
    assert "belongs to tribe 2" in rig.last_text() and placed(engine) == []
    rig.tap(0, "T1-3b")
    assert placed(engine) == [(0, 3, "Numa")]
    # The next seat starts with no trick chosen; PREV goes round to the last trick.
    assert rig.labels(1)["ok"] == "choose a trick"
    rig.press(1, Button.PREV)
    rig.tap(1, "T2-4a")
    assert placed(engine)[-1][2] == "Meja"
    # Out of turn: the engine says whose turn it is.
    rig.tap(0, "T1-1a")
    assert "it is Seat 3's turn" in rig.last_text()  # physical seats, counted from 1
    assert rig.table.messages[-1].kind is MessageKind.REFUSED


def test_solo_results_replay_and_pass(rig: Rig) -> None:
    engine = rig.resume(
        HEADER,
        *HANDS,
        reveal(),
        *SOLO,
    )
    assert phase_of(engine) is Phase.RESULT
    assert rig.labels(0) == {"ok": "success", "next": "failure"}
    rig.press(1, Button.OK)  # not seat 1's attempt: nothing happens
    assert engine.current_attempt is not None and engine.current_attempt.seats == (0,)
    rig.press(0, Button.NEXT)  # failure: a replay is offered
    assert phase_of(engine) is Phase.REPLAY
    assert "may replay" in rig.last_text()
    assert rig.labels(0) == {"prev": "other card", "ok": "replay (discard 1)", "next": "pass"}
    rig.press(0, Button.PREV)
    assert rig.labels(0)["ok"] == "replay (discard 2)"
    rig.tap(0, "T1-4a")  # replay, discarding the tapped 4
    assert phase_of(engine) is Phase.RESULT and engine.hand_of(0) == (1, 2, 3)
    rig.press(0, Button.OK)
    assert engine.totals()[0] == 3
    rig.press(1, Button.NEXT)
    rig.press(1, Button.NEXT)  # pass
    assert engine.current_attempt is not None and engine.current_attempt.seats == (2,)
    assert engine.totals()[1] == 0


def test_duel_buttons_and_keep(rig: Rig) -> None:
    engine = rig.resume(
        HEADER,
        *HANDS,
        reveal("Bola-Bola!"),
        *DUEL,
    )
    # Both duelists may report; both are lit.
    assert rig.adapter.presentation.waiting_players() == [0, 1]
    assert rig.labels(1) == {"prev": "tie: again", "ok": "I won", "next": "I lost"}
    rig.press(1, Button.PREV)
    assert "starts again" in rig.last_text()
    rig.press(1, Button.NEXT)  # seat 1 lost: it may replay; it passes
    assert phase_of(engine) is Phase.REPLAY
    rig.press(1, Button.NEXT)
    assert phase_of(engine) is Phase.KEEP
    assert rig.labels(0) == {"prev": "keep the 2", "next": "keep the 4"}
    rig.press(0, Button.NEXT)
    assert engine.totals()[0] == 4


def test_most_jacks_duel_counts(rig: Rig) -> None:
    engine = rig.resume(
        HEADER,
        *HANDS,
        reveal("Kat!"),
        *DUEL,
    )
    assert rig.labels(0)["ok"] == "my count: 0"
    # Seat 0 counts 3; seat 1 enters its own 3: a tie, the duel starts again.
    for _ in range(3):
        rig.press(0, Button.NEXT)
    rig.press(0, Button.OK)
    assert "now the other duelist's count" in rig.last_text()
    assert rig.labels(0)["ok"] == "Seat 2's count: 0"
    for _ in range(3):
        rig.press(1, Button.NEXT)
    rig.press(1, Button.OK)
    assert "starts again" in rig.last_text()
    assert phase_of(engine) is Phase.RESULT
    # Again: seat 1 enters both counts, "failed" for seat 0 (below 0) and 1 for itself.
    rig.press(1, Button.NEXT)
    rig.press(1, Button.OK)
    rig.press(1, Button.PREV)
    rig.press(1, Button.PREV)
    assert rig.labels(1)["ok"] == "Seat 1's count: failed"
    rig.press(1, Button.OK)
    # Seat 1 won; seat 0 lost and may replay. It passes, and seat 1 keeps a card.
    assert phase_of(engine) is Phase.REPLAY and engine.duel_winner == 1
    rig.press(0, Button.NEXT)
    assert phase_of(engine) is Phase.KEEP and rig.labels(1) == {
        "prev": "keep the 2",
        "next": "keep the 4",
    }


def test_a_bot_enters_a_most_jacks_duel_as_counts_through_the_buttons(rig: Rig) -> None:
    kat = [*HANDS, reveal("Kat!"), *DUEL_POSITION[4:]]
    for seed in range(6):
        engine = rig.resume(HEADER, *kat)
        seat = seed % 2  # either duelist may enter both counts
        action = OssTableBot(random.Random(seed), 0.6).choose(engine, seat)
        assert isinstance(action, Counts)
        for gesture in rig.adapter.simulation.gestures(action):
            assert isinstance(gesture, Press)
            rig.press(seat, gesture.button)
        game = rig.table.game
        assert game is not None and game.recorder.actions[-1] == action


def test_challenge_eliminations_one_by_one(rig: Rig) -> None:
    engine = rig.resume(
        HEADER,
        *HANDS,
        reveal(),
        *SOLO,
        {"seat": 0, "result": "won"},
        {"seat": 1, "result": "won"},
        {"seat": 2, "result": "won"},
    )
    # The virtual deck revealed the challenge card as the last attempt ended.
    assert phase_of(engine) is Phase.CHALLENGE_RESULT
    assert rig.adapter.presentation.waiting_players() == [0, 1, 2]
    rig.press(2, Button.NEXT)
    assert "Seat 3 is out" in rig.last_text()
    rig.press(2, Button.NEXT)  # already out: nothing happens
    assert engine.challenge_remaining == (0, 1)
    rig.press(0, Button.NEXT)
    # One left: seat 1 wins it and is the new chief; the draws and the next reveal follow.
    assert engine.chief == 1
    assert phase_of(engine) is Phase.TRIBE and engine.round == 2


DUEL_POSITION: list[JSON] = [
    *HANDS,
    reveal(),
    *choices((3, "Aslik"), (4, "Aslik"), (2, "Meja")),
]
TIMER_EVENTS: list[TimerEvent] = [
    TossStarted("toss", 10.0),
    TossStopped("toss", 10.0, 11.234, 1.234, 11.3),
    TossStarted("toss", 20.0),
    TossStopped("toss", 20.0, 22.5, 2.5, 22.6),
    TossStarted("toss", 30.0),
    TossCancelled("toss", 31.0, "long press"),
    TossStarted("toss", 40.0),
    TossStopped("toss", 40.0, 41.0, 1.0, 41.1),
]


def oss_adapter(actions: list[JSON], limit: float | None = None) -> OssAdapter:
    """An Oss adapter on the game ``actions`` make, with a toss timer of ``limit`` seconds."""
    engine = replay(dumps(HEADER, actions))
    settings = TableSettings(has_timer=True, timer_limit=limit)
    return OssAdapter(AdapterContext(engine, 1, settings))


def feed(adapter: OssAdapter, event: TimerEvent, record: list[JSON]) -> list[Feedback]:
    """What the table does with a timer event: a ``timed`` action is applied and recorded."""
    action = adapter.input.timer_action(event)
    if action is None:
        return adapter.input.on_timer(event)
    record.append(action.to_json())
    events = adapter.engine.apply(action)
    return [fb for event in events for fb in adapter.presentation.feedback(event)]


def test_timer_events_become_timed_actions_the_engine_logs() -> None:
    adapter = oss_adapter(DUEL_POSITION, limit=2.0)
    engine = adapter.engine
    record: list[JSON] = []
    feedback = feed(adapter, TIMER_EVENTS[0], record)
    assert feedback == [] and adapter.presentation.animating()
    timer = adapter.presentation.game_view().overlay.timer
    assert timer.running and timer.seat == 0
    for event in TIMER_EVENTS[1:]:
        feedback += feed(adapter, event, record)
    # In a duel the times go to the duelists in turn: 0, 1, (cancelled), 0.
    assert record == [
        {"seat": 0, "timed": 1234},
        {"seat": 1, "timed": 2500},
        {"seat": 0, "timed": 1000},
    ]
    assert [(t.seat, t.millis) for t in engine.tosses] == [(0, 1234), (1, 2500), (0, 1000)]
    assert engine.bests == {0: 1000, 1: 2500}
    timer = adapter.presentation.game_view().overlay.timer
    assert [(e.seat, e.over_limit) for e in timer.log] == [
        (0, False),
        (1, True),
        (0, False),
    ]
    assert timer.bests == {0: 1000, 1: 2500} and timer.cancelled == 1
    texts = [shown(fb.message) for fb in feedback]
    assert "Seat 2: 2.500 s, over the limit of 2.000 s" in texts
    assert "Timer: toss not counted (long press)" in texts
    assert texts[-1] == "Seat 1: 1.000 s, a personal best"
    assert engine.phase is Phase.RESULT  # a time never decides a result


def test_a_toss_outside_an_attempt_is_said_not_recorded() -> None:
    adapter = oss_adapter([*HANDS, reveal()])
    record: list[JSON] = []
    assert feed(adapter, TIMER_EVENTS[0], record) == []
    said = feed(adapter, TIMER_EVENTS[1], record)
    assert record == [] and adapter.engine.tosses == ()
    assert [shown(fb.message) for fb in said] == ["Timer: 1.234 s"]


def test_the_attempt_log_survives_undo_and_a_journal_resume(tmp_path: Path) -> None:
    timed = [{"seat": 0, "timed": 1234}, {"seat": 1, "timed": 900}]
    actions = [*DUEL_POSITION, *timed, {"seat": 1, "result": "tie"}, {"seat": 0, "timed": 800}]
    # Staff undo takes back the last player action only: the other times stay.
    pairs = [(a, False) for a in actions]
    assert undo_last_player_action(pairs) == {"seat": 0, "timed": 800}
    assert undo_last_player_action(pairs) == {"seat": 1, "result": "tie"}
    undone = replay(dumps(HEADER, [obj for obj, _ in pairs]))
    assert isinstance(undone, Oss)
    assert [(t.seat, t.millis) for t in undone.tosses] == [(0, 1234), (1, 900)]
    assert undone.bests == {0: 1234, 1: 900}
    # A journal resume rebuilds the game from its journaled actions, times included.
    journal = Journal.open(tmp_path / "journal.sqlite3")
    journal.game_started("oss", [0, 1, 2], HEADER, 7)
    for action in actions:
        journal.action_accepted(action, False)
    rig = Rig()
    with rig.devices:
        assert resume_if_unfinished(journal, rig.table) is not None
        assert [(t.seat, t.millis) for t in rig.engine.tosses] == [(0, 1234), (1, 900), (0, 800)]
        assert rig.engine.bests == {0: 800, 1: 900}
        game = rig.table.view.game
        assert game is not None and game.to_json()["timer"]["bests"] == {"0": 800, "1": 900}
        # After the tie the duel starts again, so the next time is the first duelist's.
        assert game.to_json()["timed_seat"] == 1


def test_the_table_journals_timed_tosses(rig: Rig) -> None:
    engine = rig.resume(HEADER, *DUEL_POSITION)
    for event in TIMER_EVENTS:
        rig.events.put(event)
        rig.loop.drain()
    assert [(t.seat, t.millis) for t in engine.tosses] == [(0, 1234), (1, 2500), (0, 1000)]
    game = rig.table.game
    assert game is not None
    assert {"seat": 1, "timed": 2500} in [a.to_json() for a in game.recorder.actions]


# --- whole games -------------------------------------------------------------------------------


class FakePinClock:
    """The mock pins' clock (``gpiozero.pins.mock.monotonic``), moved on by the test."""

    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


class TimedSimulator(Simulator):
    """The simulator, with the toss timer as the "timer" button of every seat.

    Each timed toss lasts the next of ``durations`` on the pins' fake clock,
    so the table's log can be checked to the millisecond.
    """

    timer: TossTimer
    pins: FakePinClock
    durations: list[float]
    timed: list[float]

    _started = 0.0

    def press(self, seat: int, button: Contact) -> None:
        if button != "timer":
            self.pins.now += 0.25
            super().press(seat, button)
            return
        running = self.timer.running
        if running:
            duration = self.durations[len(self.timed) % len(self.durations)]
            self.pins.now = self._started + duration
            self.timed.append(duration)
        else:
            self.pins.now += 1.0
            self._started = self.pins.now
        self.timer.press()
        self.pins.now += 0.0625
        self.timer.release()
        # The release counts once it has held still (the debounce is a stability filter);
        # on the fake clock the test settles it rather than wait for the debouncer's thread.
        self.pins.now += 0.03125
        self.timer.settle()


def test_three_bots_play_a_whole_game_over_serial_and_gpio_with_the_timer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pins = FakePinClock()
    monkeypatch.setattr("gpiozero.pins.mock.monotonic", pins)
    seats = 3
    ptys = [PtyPair().open() for _ in range(seats)]
    try:
        config = serial_config(ptys)
        events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
        devices = build(config, events)
        registry = simulated()
        records: list[str] = []
        table = Table(
            # The table knows a timer is wired; this test drives its own TossTimer.
            dataclasses.replace(config, timer=TimerConfig()),
            registry,
            leds=devices.leds,
            rng=random.Random(21),
            on_record=lambda game, text: records.append(text),
        )
        loop = TableLoop(table, events)
        timer = TossTimer(TIMER_PIN, events, pin_factory=devices.mock_factory)
        simulator = TimedSimulator(
            table,
            devices,
            registry,
            bot_seats=set(range(seats)),
            rng=random.Random(8),
            auto_game="oss",
        )
        simulator.timer, simulator.pins, simulator.timed = timer, pins, []
        simulator.durations = [1.25, 0.875, 2.0625, 0.5]

        sent: list[int] = []

        def tap_over_serial(seat: int, uid: str) -> None:
            sent.append(seat)
            ptys[seat].write(f"TAG {uid}\n".encode())
            ptys[seat].write(b"GONE\n")

        simulator.tapper = tap_over_serial
        with devices, timer:
            for _ in range(6000):
                if table.screen is Screen.RESULTS:
                    break
                game = table.game
                before = len(game.recorder.actions) if game else 0
                taps = len(sent)
                simulator.step(0.0)
                loop.drain()
                if len(sent) > taps and game is not None:
                    # The tap travels through the pseudo-terminal and the reader thread;
                    # it is the last gesture of a plan, so it ends in an action.
                    deadline = time.monotonic() + 5
                    while len(game.recorder.actions) == before and time.monotonic() < deadline:
                        loop.run_once(timeout=0.05)
                    assert len(game.recorder.actions) > before, "a tap did not arrive"
            assert table.screen is Screen.RESULTS
            game = table.game
            assert game is not None and isinstance(game.adapter, OssAdapter)
            adapter = game.adapter
            # Every tribe card came through a serial reader.
            engine = adapter.engine
            assert engine.finished and len(sent) >= seats * engine.rounds
            # The timer timed attempts, edge to edge on the pins' clock, to the millisecond,
            # and each is in the engine's log (journaled as a record action).
            log = engine.tosses
            assert len(log) == len(simulator.timed) >= 5
            assert [t.millis for t in log] == [round(d * 1000) for d in simulator.timed]
            for seat, best in engine.bests.items():
                assert best == min(t.millis for t in log if t.seat == seat)
            # The record replays to the report the table showed.
            assert len(records) == 1
            replayed = replay(records[0])
            assert table.result is not None
            assert replayed.report() == table.result
            assert replayed.finished
            # Screenshots: the last table, not blank, at the smallest and a large size.
            from display.screenshot import screenshot_view

            view = replace(table.view, screen=Screen.PLAY)
            for size in ((800, 480), (1920, 1080)):
                path = screenshot_view(view, tmp_path / f"oss-{size[0]}.png", size)
                image = pygame.image.load(str(path))
                assert image.get_size() == size
                sample = {
                    tuple(image.get_at((x, y)))
                    for x in range(0, size[0], 17)
                    for y in range(0, size[1], 13)
                }
                assert len(sample) > 10, f"the {size} screenshot looks blank"
    finally:
        for pair in ptys:
            pair.close()


def test_screens_of_a_game_in_progress(rig: Rig) -> None:
    """Screenshots of the phases at three sizes, saved for looking at; none blank."""
    from display.screenshot import screenshot_view

    positions: dict[str, list[JSON]] = {
        "tribe": [*HANDS, reveal("Kat!"), {"seat": 0, "tribe": 3, "trick": "Numa"}],
        "duel": [
            *HANDS,
            reveal("Kat!"),
            *DUEL,
        ],
        "challenge": [
            *HANDS,
            reveal(),
            *SOLO,
            {"seat": 0, "result": "won"},
            {"seat": 1, "result": "lost"},
            {"seat": 1, "pass": True},
            {"seat": 2, "result": "won"},
        ],
    }
    for name, actions in positions.items():
        rig.resume(HEADER, *actions)
        if name == "tribe":
            rig.press(1, Button.NEXT)
        rig.table.handle(TossStarted("toss", 1.0))
        rig.table.handle(TossStopped("toss", 1.0, 2.345, 1.345, 2.4))
        for size in ((800, 480), (1280, 720), (1920, 1080)):
            path = screenshot_view(rig.table.view, SHOTS / f"{name}-{size[0]}.png", size)
            image = pygame.image.load(str(path))
            colours = {
                tuple(image.get_at((x, y)))
                for x in range(0, size[0], 23)
                for y in range(0, size[1], 17)
            }
            assert len(colours) > 10


def test_trick_captions_are_whole_or_shorter_never_cut(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trick card's caption ("family 2 · classic Jack") that does not fit its card is
    drawn as "family 2", not cut to "family 2 · cl..."; the focused trick's text says
    the throw."""
    from display.fitting import ELLIPSIS
    from display.renderer import Renderer
    from display.theme import Face

    rig.resume(
        HEADER,
        *HANDS,
        reveal("Kat!"),
        *DUEL[:2],
    )
    captions: dict[int, list[str]] = {}
    for size in ((800, 480), (1920, 1080)):
        drawn: list[str] = []
        monkeypatch.setattr(Face, "drawn", drawn)
        Renderer(size).render(rig.table.view)
        captions[size[0]] = [t for t in drawn if t.startswith("family ") or t.startswith("duel")]
        assert captions[size[0]], f"no trick caption drawn at {size}"
        assert not [t for t in captions[size[0]] if t.endswith(ELLIPSIS)], captions[size[0]]
    # A trick card is a fifth of the centre wide: "family 1 · classic Jack" fits neither.
    assert set(captions[800]) == set(captions[1920]) == {"family 1", "family 2", "family 3", "duel"}


def test_card_notation_round_trip() -> None:
    assert parse_tribe_card(tribe_card(2, 4, "b")) == (3, 4)
    with pytest.raises(ValueError, match="not an Oss tribe card"):
        parse_tribe_card("R7")


def test_a_confirmed_count_is_journaled_and_survives_a_resume(rig: Rig) -> None:
    kat = [*HANDS, reveal("Kat!"), *DUEL_POSITION[4:]]
    rig.resume(HEADER, *kat)
    for _ in range(3):
        rig.press(0, Button.NEXT)
    rig.press(0, Button.OK)  # seat 0 confirms its own count: a journaled ``count``
    game = rig.table.game
    assert game is not None
    recorded = [a.to_json() for a in game.recorder.actions]
    assert recorded[-1] == {"seat": 0, "count": 3, "of": 0}
    assert "now the other duelist's count" in rig.last_text()
    # The table goes down and comes back from its journal: the count is still confirmed.
    engine = rig.resume(HEADER, *recorded)
    assert engine.confirmed_counts == {0: 3}
    assert rig.labels(0)["ok"] == "Seat 2's count: 0"
    view = rig.table.view.game
    assert view is not None and view.to_json()["counts"] == {"0": 3}
    for _ in range(3):
        rig.press(1, Button.NEXT)
    rig.press(1, Button.OK)  # seat 1's own count, equal: a tie
    game = rig.table.game
    assert game is not None
    assert game.recorder.actions[-1].to_json() == {"seat": 1, "counts": [3, 3]}
    assert "starts again" in rig.last_text() and engine.confirmed_counts == {}
