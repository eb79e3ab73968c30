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
import re
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
from controller.games.oskar.actions import DiceRolled, RerollDone
from controller.games.oskar.actions import TrickWon as OskarTrickWon
from controller.games.oskar.snapshot import OskarSnapshot, RollView
from controller.games.oskar.snapshot import Phase as OskarPhase
from controller.games.oss.actions import ChallengeWon, DuelResult, DuelTied, Eliminated, SoloResult
from controller.games.oss.snapshot import Ending, OssSnapshot
from controller.kiosk.simulation import Simulator
from controller.table.pages import HELP_HOLD, RECALL_SECONDS
from controller.view import TableView
from display.motion import FRAME_STEP, HOLD_SECONDS, RESULT_SECONDS, STILL, Motion
from display.renderer import Renderer
from hardware.events import Button, ButtonPressed, ButtonReleased
from tests.rigs import TableRig, painted_text
from tests.words import shown

SIZES = ((800, 480), (1920, 1080))


# --- results held on the display's clock ---------------------------------------------------


def test_each_new_result_stays_its_time_even_when_the_next_comes_at_once() -> None:
    motion = Motion()
    motion.begin(10.0, "oskar")
    assert motion.results("roll", ["first"]) == []  # there before this display looked
    motion.end()
    motion.begin(11.0, "oskar")
    assert motion.results("roll", ["first", "second", "third"]) == ["second", "third"]
    assert motion.due == pytest.approx(11.0 + RESULT_SECONDS)  # woken when they go
    motion.end()
    motion.begin(12.0, "oskar")
    assert motion.results("roll", ["second", "third", "fourth"]) == ["second", "third", "fourth"]
    motion.end()
    motion.begin(11.0 + RESULT_SECONDS, "oskar")
    assert motion.results("roll", ["third", "fourth"]) == ["fourth"]
    motion.end()
    motion.begin(12.0 + RESULT_SECONDS, "oskar")
    assert motion.results("roll", ["fourth"]) == []  # and it does not come back
    assert motion.due is None
    motion.end()


def test_results_stay_with_motion_off_and_not_in_a_still_picture() -> None:
    motion = Motion(enabled=False)
    motion.begin(10.0, "oss")
    motion.results("attempt", [])
    motion.end()
    motion.begin(11.0, "oss")
    assert motion.results("attempt", ["won"]) == ["won"]
    motion.end()
    motion.begin(11.0 + RESULT_SECONDS - FRAME_STEP, "oss")
    assert motion.results("attempt", ["won"]) == ["won"]
    motion.end()
    assert STILL.results("attempt", ["won"]) == []
    motion.begin(12.0, "another game")
    assert motion.results("attempt", ["won", "lost"]) == []  # a new game starts afresh


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


@pytest.mark.parametrize("seed", range(3))
def test_oskar_s_snapshot_keeps_the_last_trick_and_the_latest_rolls(seed: int) -> None:
    tricks = rolls = 0
    for events, snapshot in engine_steps("oskar", 4, seed):
        assert isinstance(snapshot, OskarSnapshot)
        for event in events:
            if isinstance(event, OskarTrickWon):
                tricks += 1
                assert [(t.seat, t.card) for t in snapshot.last_trick] == [
                    (seat, str(card)) for seat, card in event.cards
                ]
                assert snapshot.last_trick_winner == event.seat
            elif isinstance(event, DiceRolled | RerollDone):
                rolls += 1
                roll = snapshot.last_rolls[-1]
                assert (roll.number, roll.seat, roll.faces) == (rolls, event.seat, event.faces)
                assert roll.doubles == event.doubles
                if isinstance(event, RerollDone):
                    assert roll.rolled == event.rerolled and roll.before is not None
                else:
                    assert roll.rolled == (0, 1) and roll.before is None
        numbers = [roll.number for roll in snapshot.last_rolls]
        assert numbers == list(range(rolls - len(numbers) + 1, rolls + 1))  # the latest, in order
        assert len(numbers) <= 5
        if snapshot.phase is OskarPhase.PLAY and snapshot.trick_number == 1 and not snapshot.trick:
            assert snapshot.last_trick == ()  # a new round has no last trick yet
        assert OskarSnapshot.from_json(json.loads(json.dumps(snapshot.to_json()))) == snapshot
    assert tricks >= 9 and rolls >= 4


def expected_ending(event: Event) -> tuple[Ending, tuple[int, ...]] | None:
    """The result an Oss event reports, as the snapshot should keep it (None: no result)."""
    if isinstance(event, SoloResult):
        return (Ending.SUCCEEDED if event.won else Ending.FAILED), (event.seat,)
    if isinstance(event, DuelResult):
        return Ending.DUEL_WON, (event.winner, event.loser)
    if isinstance(event, DuelTied):
        return Ending.TIED, (event.first, event.second)
    if isinstance(event, Eliminated):
        return Ending.OUT, (event.seat,)
    if isinstance(event, ChallengeWon):
        return Ending.CHALLENGE_WON, (event.seat,)
    return None


@pytest.mark.parametrize("seed", range(3))
def test_oss_s_snapshot_keeps_the_latest_results(seed: int) -> None:
    count = 0
    for events, snapshot in engine_steps("oss", 4, seed):
        assert isinstance(snapshot, OssSnapshot)
        reported = [found for event in events if (found := expected_ending(event)) is not None]
        if reported:
            kept = snapshot.last_attempts[-len(reported) :]
            assert [(r.ending, r.seats) for r in kept] == reported
            assert [r.number for r in kept] == list(range(count + 1, count + len(reported) + 1))
        count += len(reported)
        assert len(snapshot.last_attempts) <= 5
        assert OssSnapshot.from_json(json.loads(json.dumps(snapshot.to_json()))) == snapshot
    assert count >= 8


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
        self.view: TableView | None = None

    def draw(self, view: TableView, at: float | None = None) -> None:
        """``view`` arrives at ``at``: the frames the display draws by itself until then
        (of the view it has), then ``view``'s."""
        shown = self.view
        if at is not None and shown is not None:
            while (wait := self.renderer.next_frame_in(shown)) is not None and self.now + wait < at:
                self.now += wait
                self.renderer.draw(shown)
        if at is not None:
            self.now = at
        self.renderer.draw(view)
        self.view = view

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
    """What ``clocked`` shows at ``at``: the frames until then drawn, then that moment
    drawn whole again with its texts recorded."""
    clocked.draw(view, at=at)
    written = painted_text(monkeypatch)
    clocked.renderer.invalidate()
    clocked.renderer.draw(view)
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


# --- Oskar -----------------------------------------------------------------------------------


def oskar(view: TableView) -> OskarSnapshot:
    snapshot = snapshot_of(view)
    assert isinstance(snapshot, OskarSnapshot)
    return snapshot


def test_oskar_holds_a_won_trick_while_the_next_lead_waits() -> None:
    with bot_game("oskar") as game:
        game.until(lambda view: len(oskar(view).trick) == 3 and oskar(view).trick_number > 1)
        clocked = Clocked()
        clocked.draw(game.rig.table.view)
        won = game.step()  # the fourth card: the trick is won and cleared from the table
        assert oskar(won).trick == () and len(oskar(won).last_trick) == 4
        clocked.draw(won, at=0.5)
        lead = game.step()  # the winner leads at once
        assert len(oskar(lead).trick) == 1
        clocked.draw(lead, at=1.0)
        shown_now = clocked.renderer.motion.shown
        assert shown_now is not None and shown_now.plays == () and len(shown_now.won) == 4
        assert shown_now.winner == oskar(won).last_trick_winner
        clocked.draw(lead, at=0.5 + HOLD_SECONDS + 1.0)
        shown_now = clocked.renderer.motion.shown
        assert shown_now is not None and shown_now.won == () and len(shown_now.plays) == 1


ROLL_ROW = re.compile(r"Seat \d+ (rolled|rerolled one die|rerolled both dice|kept both dice)")


def rolled_texts(texts: list[str]) -> list[str]:
    """The texts of the centre's rows of rolls (not the messages about them)."""
    return [text for text in texts if ROLL_ROW.fullmatch(text)]


def test_oskar_shows_each_roll_of_the_dice_a_moment_then_lets_it_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with bot_game("oskar") as game:
        clocked = Clocked((1920, 1080))
        first = game.rig.table.view
        clocked.draw(first)  # the rolls already made were seen: not shown again
        assert rolled_texts(texts_drawn_by(clocked, monkeypatch, first, 0.1)) == []
        before = len(oskar(first).last_rolls)
        view = game.until(lambda view: oskar(view).last_rolls[-1].number > before + 1)
        new = [roll for roll in oskar(view).last_rolls if roll.number > before]
        texts = rolled_texts(texts_drawn_by(clocked, monkeypatch, view, 1.0))
        # The newest rolls, oldest first, as many as the trick area gives room (half of it),
        # though they all came between two frames.
        assert 2 <= len(texts) <= len(new)
        for text, roll in zip(texts, new[-len(texts) :], strict=True):
            assert text.startswith(f"Seat {roll.seat + 1} ")
        later = texts_drawn_by(clocked, monkeypatch, view, 1.0 + RESULT_SECONDS)
        assert rolled_texts(later) == []


def test_a_long_next_brings_oskar_s_last_trick_and_last_roll_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with bot_game("oskar") as game:
        view = game.until(lambda view: len(oskar(view).last_trick) == 4 and not oskar(view).trick)
        snap = oskar(view)
        winner = snap.last_trick_winner
        assert winner is not None
        roll: RollView = snap.last_rolls[-1]

        def expected(texts: list[str]) -> bool:
            return f"Last trick: Seat {winner + 1} won it" in texts and any(
                text.startswith(f"Last roll: Seat {roll.seat + 1} ") for text in texts
            )

        check_look_back(game, monkeypatch, 0, expected)


# --- Oss ---------------------------------------------------------------------------------------


def oss(view: TableView) -> OssSnapshot:
    snapshot = snapshot_of(view)
    assert isinstance(snapshot, OssSnapshot)
    return snapshot


def result_boxes(texts: list[str]) -> list[str]:
    """The centre's boxes of results: their first lines (the messages say "wins")."""
    endings = (
        " succeeded at ",
        " failed at ",
        " won the duel ",
        " tied",
        " is out of ",
        " won the ch",
    )
    return [text for text in texts if text.startswith("Seat ") and any(e in text for e in endings)]


def test_oss_shows_each_reported_attempt_a_moment_after_the_next_begins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with bot_game("oss") as game:
        clocked = Clocked((1920, 1080))
        before = game.until(lambda view: len(oss(view).last_attempts) == 1)
        clocked.draw(before)
        reported = game.until(lambda view: oss(view).last_attempts[-1].number == 2)
        game.step()  # the next attempt begins (or its replay is decided) at once
        moved_on = game.rig.table.view
        assert moved_on.version != reported.version
        texts = result_boxes(texts_drawn_by(clocked, monkeypatch, moved_on, 1.0))
        latest = oss(moved_on).last_attempts[-1]
        seat = latest.seats[0]
        assert texts and texts[0].startswith(f"Seat {seat + 1} ")  # the newest first
        later = texts_drawn_by(clocked, monkeypatch, moved_on, 1.0 + RESULT_SECONDS)
        assert result_boxes(later) == []


def test_a_long_next_brings_oss_s_last_attempt_back(monkeypatch: pytest.MonkeyPatch) -> None:
    with bot_game("oss") as game:
        view = game.until(lambda view: len(oss(view).last_attempts) >= 2)
        latest = oss(view).last_attempts[-1]

        def expected(texts: list[str]) -> bool:
            return any(
                text.startswith(f"Last attempt: Seat {latest.seats[0] + 1} ") for text in texts
            )

        # A seat the table waits for nothing from, whose short NEXT reports nothing either
        # (a reporting seat's hold is tests/games/oss/test_oss_human_seat.py's).
        snap = oss(view)
        busy = set(snap.current_attempt.seats if snap.current_attempt else ())
        busy |= {snap.next.seat} if snap.next is not None else set()
        seat = next(s for s in range(4) if s not in busy)
        check_look_back(game, monkeypatch, seat, expected)


def test_a_last_attempt_too_long_for_its_panel_comes_in_pages_not_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A look back too small for the whole last attempt turns pages ("1/2") within
    the look back's time, so every word of it is read; none is left out or cut."""
    from controller.games.words import say
    from display.scenes.oss import RECALL_PAGE_SECONDS, SCENE, result_words
    from display.theme import Fonts, Metrics, Painter

    with bot_game("oss") as game:
        view = game.until(lambda view: len(oss(view).last_attempts) >= 1)
    metrics = Metrics.for_size((800, 480))
    fonts = Fonts()
    surface = pygame.Surface((800, 480))
    motion = Motion()
    line = metrics.leading(metrics.body)
    rect = pygame.Rect(10, 10, 180, 2 * line)  # two lines: a narrow panel's body
    # Everything the painter would write in one line each, were the room there.
    whole = Painter(surface, fonts, metrics)
    last = oss(view).last_attempts[-1]
    words = whole.words(say("Last attempt: {result}", result=result_words(view, last)))
    assert len(whole.wrap(words, metrics.body, rect.w, True)) > 2, "the test needs a long one"
    pages: list[list[str]] = []
    marks: list[str] = []
    for page in range(4):
        written = painted_text(monkeypatch)
        motion.begin(100.0 + page * RECALL_PAGE_SECONDS, "oss")
        SCENE.draw_recall(Painter(surface, fonts, metrics, motion=motion), rect, view, 0)
        motion.end()
        marks += [text for text in written if re.fullmatch(r"\d+/\d+", text)]
        pages.append([text for text in written if not re.fullmatch(r"\d+/\d+", text)])
        monkeypatch.undo()
    assert marks, "no page mark: the lines that had no room were left out"
    count = int(marks[0].split("/")[1])
    assert 2 <= count <= 4
    assert marks[:count] == [f"{page + 1}/{count}" for page in range(count)]
    assert all(len(lines) <= 2 for lines in pages)
    read = " ".join(" ".join(lines) for lines in pages[:count])
    assert read.split() == words.split()  # every word, in order, once
    assert not any("…" in text for lines in pages for text in lines)
    assert RECALL_PAGE_SECONDS * 2 <= RECALL_SECONDS  # two pages within one look back


def test_each_game_s_rules_page_names_the_gesture() -> None:
    for game_id in ("oh-pshaw", "oshaka-trick", "oskar", "oss"):
        rules = [shown(line) for line in spec_of(game_id).rules]
        assert any(line.startswith("Hold NEXT for a second") for line in rules), game_id
