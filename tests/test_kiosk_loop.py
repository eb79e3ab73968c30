"""The kiosk loop sleeps until something is due instead of waking 60 times a second."""

from __future__ import annotations

import pytest

from controller.adapters import Gesture
from controller.config.table_config import TableConfig
from controller.games.words import say
from controller.kiosk.app import MAX_WAIT, Kiosk
from controller.view import Screen
from hardware.cues import Cue


@pytest.fixture
def kiosk() -> Kiosk:
    kiosk = Kiosk.create(TableConfig.simulated(4, bots=3), seed=1, bot_delay=0.8)
    kiosk.devices.open()
    kiosk.loop.drain()
    return kiosk


def test_a_still_attract_screen_waits_the_longest(kiosk: Kiosk) -> None:
    try:
        assert kiosk.table.screen is Screen.ATTRACT
        assert kiosk.devices.leds.next_change(kiosk.table.clock()) is None
        assert kiosk.frame_wait() == MAX_WAIT
        # The window's poll and a display animation shorten it.
        assert kiosk.frame_wait(most=0.05) == 0.05
        assert kiosk.frame_wait(display_due=0.02) == 0.02
    finally:
        kiosk.devices.close()


def test_a_pulsing_seat_wakes_the_loop_for_its_next_level_only(kiosk: Kiosk) -> None:
    try:
        now = kiosk.table.clock()
        kiosk.devices.leds.cue(0, Cue.YOUR_TURN, now)
        wait = kiosk.frame_wait()
        assert 0.0 < wait <= 0.1  # the turn pulse steps ten times a second
        kiosk.devices.leds.cue(0, Cue.OFF, now)
        assert kiosk.frame_wait() == MAX_WAIT
    finally:
        kiosk.devices.close()


def test_a_bot_in_its_delay_wakes_the_loop_when_it_may_act(kiosk: Kiosk) -> None:
    try:
        now = kiosk.table.clock()
        kiosk.simulator.auto_game = "oshaka-trick"
        assert kiosk.simulator.step(now)  # a bot wakes the table; the next waits 0.8 s
        assert kiosk.simulator.next_due(now) == pytest.approx(0.8)
        assert kiosk.frame_wait() <= 0.8
        # Once due and acted on, nothing is left waiting on time.
        assert kiosk.simulator.next_due(now + 1.0) is None
    finally:
        kiosk.devices.close()


def test_the_window_is_looked_at_less_often_when_nothing_it_says_can_act(kiosk: Kiosk) -> None:
    from dataclasses import replace

    from display.window import Window

    try:
        view = kiosk.table.view
        assert view.screen is Screen.ATTRACT
        window = Window(kiosk.config.display)
        playing = replace(view, screen=Screen.PLAY)
        assert window.poll_interval(playing) == window.poll_every
        assert window.poll_interval(view) == window.poll_idle > window.poll_every
        # A real table, every device real: no key or click can act.
        real = Window(kiosk.config.display, locked=True, staff_seats=(), button_seats=())
        assert real.poll_interval(playing) == real.poll_locked == MAX_WAIT
        # A locked table with one simulated seat still answers that seat's keys.
        mixed = Window(kiosk.config.display, locked=True, staff_seats=(), button_seats=(1,))
        assert mixed.poll_interval(playing) == mixed.poll_every
    finally:
        kiosk.devices.close()


def test_the_bots_are_asked_again_only_when_the_table_changes(
    kiosk: Kiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    simulator = kiosk.simulator
    asked: list[int] = []
    decide = simulator._decide

    def counting_decide() -> list[tuple[int, Gesture]]:
        asked.append(kiosk.table.version)
        return decide()

    monkeypatch.setattr(simulator, "_decide", counting_decide)
    try:
        now = kiosk.table.clock()
        assert kiosk.table.screen is Screen.ATTRACT  # no bot starts a game by itself
        assert not simulator.step(now)
        assert not simulator.step(now + 0.1)  # an LED pulse's turn: nothing new to ask
        assert len(asked) == 1
        kiosk.table.announce(say("Choose a game: PREV / NEXT, then OK"))  # a new view
        assert not simulator.step(now + 0.2)
        assert len(asked) == 2
        simulator.bot_seats.add(0)
        assert not simulator.step(now + 0.3)
        assert len(asked) == 3
        simulator.auto_game = "oshaka-trick"  # told to start a game: a bot acts at once
        assert simulator.step(now + 0.4)
        assert len(asked) == 4
    finally:
        kiosk.devices.close()
