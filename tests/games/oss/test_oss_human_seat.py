"""Oss with a person at seat 0 and bots at seats 1-3 (issue 13, items 4 and 7): no bot ever
acts for the person's seat, a duel with the person waits for the person's buttons, the toss
timer is never pressed by a bot for the person's toss; without a timer the screen says how
results are entered."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from controller.adapters import Gesture, Press
from controller.games.base import Action
from controller.games.oss.engine import Counts, Oss, OssSnapshot, Phase, Result, TableSide, Timed
from controller.games.oss.snapshot import Ending
from controller.kiosk.simulation import Simulator
from controller.table.pages import HELP_HOLD
from controller.view import Screen
from display import legibility
from display.legibility import DrawnText
from display.renderer import Renderer
from display.scenes import oss as oss_scene
from hardware.events import Button, ButtonPressed, ButtonReleased
from tests.rigs import TableRig, painted_text
from tests.words import shown

PERSON = 0


class Rig(TableRig):
    """Oss's deck; seat 0 a person, seats 1-3 bots; the simulated toss timer unless told."""

    deck = "oss-tribes"


def play_with_a_person(rig: Rig) -> tuple[list[tuple[Action, int]], list[tuple[int, int | None]]]:
    """Play Oss to the end: bots through the Simulator, the person by their own buttons.

    Returns every accepted action with the physical seat whose input gave it, and every
    timer press with the seat that pressed it and whose toss the timer was to measure.
    """
    sim = Simulator(rig.table, rig.devices, rig.registry, {1, 2, 3}, rng=random.Random(2))
    accepted: list[tuple[Action, int]] = []
    timer_presses: list[tuple[int, int | None]] = []
    perform = sim.perform

    def logged_perform(seat: int, gesture: Gesture) -> None:
        game = rig.table.game
        engine = None if game is None else game.adapter.engine
        before = len(game.recorder.actions) if game else 0
        # Whose attempt the engine waits to hear about, before this seat's input.
        attempt = (
            engine.current_attempt
            if isinstance(engine, Oss) and engine.phase is Phase.RESULT
            else None
        )
        if gesture == Press("timer"):
            timed = engine.timed_seat if isinstance(engine, Oss) else None
            timer_presses.append((seat, timed))
        perform(seat, gesture)
        rig.loop.drain()
        game = rig.table.game
        if game is None:
            return
        taken = zip(game.recorder.actions[before:], game.chance[before:], strict=True)
        for action in [a for a, chance in taken if not chance]:
            if (
                attempt is not None
                and PERSON in attempt.seats
                and isinstance(action, Result | Counts)
            ):
                # An attempt of the person's (a duel with a bot too): only seat 0 reports it.
                assert seat == PERSON, f"seat {seat} reported {action} for the person's attempt"
            accepted.append((action, seat))

    sim.perform = logged_perform  # type: ignore[method-assign]
    person_bot: Any = None
    for _ in range(30_000):
        if rig.table.screen is Screen.RESULTS:
            return accepted, timer_presses
        if sim.step(0.0):
            rig.loop.drain()
            continue
        game = rig.table.game
        assert game is not None
        if PERSON in [game.players[p] for p in game.adapter.presentation.waiting_players()]:
            # The person decides (here with a bot's judgement) and presses their own buttons.
            person_bot = person_bot or game.adapter.simulation.make_bot(random.Random(7))
            action = person_bot.choose(game.adapter.engine, PERSON)
            for gesture in game.adapter.simulation.gestures(action):
                logged_perform(PERSON, gesture)
            continue
        raise AssertionError("nobody can act: the table waits for no one")
    raise AssertionError("the game did not end")


def test_no_bot_ever_acts_for_the_person_and_the_timer_is_theirs() -> None:
    rig = Rig(4, bots=3)
    with rig.devices:
        rig.loop.drain()
        rig.start_game("oss", (0, 1, 2, 3))
        game = rig.table.game
        assert game is not None and game.players == [0, 1, 2, 3]
        accepted, presses = play_with_a_person(rig)
    mine = [a for a, _ in accepted if isinstance(a, Result | Counts) and a.seat == PERSON]
    assert mine, "the person never entered a result"
    for action, seat in accepted:
        if isinstance(action, Timed):
            continue  # the table applies a stopped toss itself; the presser is checked below
        if action.seat == PERSON:
            assert seat == PERSON, f"seat {seat} took {action} for the person"
    record = rig.records[-1] if rig.records else ""
    assert record  # the game finished and its record was written
    for seat, timed in presses:
        if timed == PERSON:
            assert seat == PERSON, f"seat {seat} pressed the timer for the person's toss"
    assert any(seat == PERSON for seat, _ in presses)  # the person timed their own tosses
    assert any(seat != PERSON for seat, _ in presses)  # and bots theirs


def person_reports_a_solo_attempt(rig: Rig) -> OssSnapshot:
    """Bots play (seats 1-3) until the person at seat 0 is to report a solo attempt."""
    sim = Simulator(rig.table, rig.devices, rig.registry, {1, 2, 3}, rng=random.Random(2))
    for _ in range(3000):
        view = rig.table.view
        snap = None if view.game is None else view.game.snapshot
        if isinstance(snap, OssSnapshot) and snap.phase is Phase.RESULT:
            attempt = snap.current_attempt
            if attempt is not None and attempt.seats == (PERSON,):
                return snap
        if not sim.step(0.0):
            # The person's turn to play a card: a bot's judgement, the person's gestures.
            game = rig.table.game
            assert game is not None
            bot = game.adapter.simulation.make_bot(random.Random(7))
            for gesture in game.adapter.simulation.gestures(bot.choose(game.adapter.engine, 0)):
                sim.perform(PERSON, gesture)
        rig.loop.drain()
    raise AssertionError("the person never attempted a trick alone")


def test_a_reporting_seat_that_holds_a_button_reports_nothing() -> None:
    """NEXT is also "failure": a reporting seat's press counts when it is let go, and
    only if short. Holding NEXT looks back at the last attempt, holding OK opens the
    rules page, and neither reports; a short NEXT then reports the failure."""
    rig = Rig(4, bots=3, timer=None)
    with rig.devices:
        rig.loop.drain()
        rig.start_game("oss", (0, 1, 2, 3))
        before = person_reports_a_solo_attempt(rig)
        table = rig.table

        def snapshot() -> OssSnapshot:
            game = table.view.game
            assert game is not None and isinstance(game.snapshot, OssSnapshot)
            return game.snapshot

        now = rig.now
        table.handle(ButtonPressed(PERSON, Button.NEXT, now))
        assert snapshot() == before  # down: it waits to be let go
        table.handle(ButtonReleased(PERSON, Button.NEXT, now + HELP_HOLD))
        assert table.view.recall == (PERSON,)  # it looked back...
        assert snapshot() == before  # ...and reported nothing
        now += 2 * HELP_HOLD
        table.handle(ButtonPressed(PERSON, Button.OK, now))
        table.handle(ButtonReleased(PERSON, Button.OK, now + HELP_HOLD))
        assert PERSON in table.view.help  # the rules page, and no success reported
        assert snapshot() == before
        now += 2 * HELP_HOLD
        table.handle(ButtonPressed(PERSON, Button.NEXT, now))
        table.handle(ButtonReleased(PERSON, Button.NEXT, now + HELP_HOLD / 4))
        reported = snapshot().last_attempts[-1]
        assert reported.seats == (PERSON,) and reported.ending is Ending.FAILED


def test_a_report_let_go_after_the_game_moved_on_does_nothing() -> None:
    """The person presses NEXT ("I am out") in a challenge and holds it while the others
    report they are out: the person has won it and the game has moved on to the next
    trick choice. The press, let go now, was a report no longer asked for: it must not
    act on what came after (there, NEXT would move the trick being chosen)."""
    rig = Rig(4, bots=3, timer=None)
    with rig.devices:
        rig.loop.drain()
        rig.start_game("oss", (0, 1, 2, 3))
        sim = Simulator(rig.table, rig.devices, rig.registry, {1, 2, 3}, rng=random.Random(2))
        for _ in range(20_000):
            game = rig.table.game
            assert game is not None
            engine = game.adapter.engine
            assert isinstance(engine, Oss)
            remaining = engine.challenge_remaining
            if engine.phase is Phase.CHALLENGE_RESULT and PERSON in remaining:
                break
            if not sim.step(0.0):
                person_bot = game.adapter.simulation.make_bot(random.Random(7))
                for gesture in game.adapter.simulation.gestures(person_bot.choose(engine, 0)):
                    sim.perform(PERSON, gesture)
            rig.loop.drain()
        else:
            raise AssertionError("no challenge came")
        table = rig.table
        now = rig.now
        table.handle(ButtonPressed(PERSON, Button.NEXT, now))
        for seat in remaining:
            if seat != PERSON:
                table.handle(ButtonPressed(seat, Button.NEXT, now + 0.05))
                table.handle(ButtonReleased(seat, Button.NEXT, now + 0.1))
        moved_on = table.view.game
        assert moved_on is not None and isinstance(moved_on.snapshot, OssSnapshot)
        turn = moved_on.snapshot.next
        assert moved_on.snapshot.phase is Phase.TRIBE and turn is not None
        assert turn.seat == PERSON  # the challenge's winner chooses next
        table.handle(ButtonReleased(PERSON, Button.NEXT, now + 0.2))  # short, but late
        assert table.view.game is not None
        assert table.view.game.overlay == moved_on.overlay  # no trick chosen by it


def test_without_a_timer_the_screen_says_how_results_are_entered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = Rig(4, bots=3, timer=None)
    with rig.devices:
        rig.loop.drain()
        rig.start_game("oss", (0, 1, 2, 3))
        view = rig.table.view
        assert view.game is not None
        side = view.game.overlay
        assert isinstance(side, TableSide) and side.timer.present is False
        written = painted_text(monkeypatch)
        Renderer((800, 480)).render(view)
    assert "No toss timer: report each result with your buttons" in written
    assert "Toss timer ready: press to start" not in written


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)])
def test_trick_names_and_every_card_under_a_trick_are_drawn_in_full(
    size: tuple[int, int], tmp_path: Path
) -> None:
    rig = Rig(4, bots=4)
    sim = Simulator(rig.table, rig.devices, rig.registry, {0, 1, 2, 3}, rng=random.Random(4))
    sim.auto_game = "oss"
    with rig.devices:
        rig.loop.drain()
        for _ in range(60):  # into round 1's duel: every seat has placed a card
            sim.step(0.0)
            rig.loop.drain()
        view = rig.table.view
        assert view.game is not None
        snap = view.game.snapshot
        assert isinstance(snap, OssSnapshot)
        placements = [(p.value, p.seat) for t in snap.tricks for p in t.placements]
        assert len(placements) >= 4
        # A name too wide for its column goes on two lines, or the tricks on two rows, or
        # on pages that turn on the display's clock (every page drawn here); never
        # smaller than legible.
        drawings = []
        renderer = Renderer(size)
        moment = [1000.0]
        renderer.clock = lambda: moment[0]
        for page in range(len(snap.tricks) + 1):
            moment[0] = 1000.0 + page * oss_scene.TRICK_PAGE_SECONDS
            renderer.invalidate()
            with legibility.recording() as drawing:
                renderer.render(view)
            drawings.append(drawing)
    texts = [drawn for drawing in drawings for drawn in drawing.texts]
    blocks: dict[tuple[int, int], list[DrawnText]] = {}
    for index, drawing in enumerate(drawings):
        for drawn in drawing.texts:
            blocks.setdefault((index, drawn.group), []).append(drawn)
    least = legibility.least_size(min(size))
    for trick in snap.tricks:
        found = [
            block
            for block in blocks.values()
            if "".join(d.text for d in block) == trick.name
            or (block[-1].cut and trick.name.startswith(block[0].text.removesuffix("…")))
        ]
        assert found, f"{trick.name} is not drawn"
        assert all(d.size >= least for d in found[0]), f"{trick.name} is too small"
    labels = {t.text for t in texts}
    for value, seat in placements:
        # Seats are named counted from 1 (engine players sit at seats 0..n-1 here).
        assert f"{value} Seat {seat + 1}" in labels, f"the {value} of seat {seat} is hidden"
    assert not any(t.clipped for t in texts)


def test_with_a_physical_deal_the_menu_says_why_oss_is_not_offered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = Rig(4, deal="physical")
    with rig.devices:
        rig.loop.drain()
        rig.press(0, Button.OK)  # the menu
        notes = {g.game_id: g.unavailable for g in rig.table.view.games}
        assert shown(notes["oss"]).startswith("not offered: hands cannot be entered by tap")
        assert notes["oh-pshaw"] == ""  # a physical deal suits the card games
        while rig.table.view.games[rig.table.selected].game_id != "oss":
            rig.press(0, Button.NEXT)
        written = painted_text(monkeypatch)
        Renderer((800, 480)).render(rig.table.view)
        assert shown(notes["oss"]) in written  # the selected line says it
        rig.press(0, Button.OK)  # choosing it anyway is refused, saying what staff can do
        assert rig.screen() is Screen.CHOOSE_GAME
        assert 'deal = "virtual"' in shown(rig.table.messages[-1].text)
