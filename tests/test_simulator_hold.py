"""The demo is the real table (issue 29, item 5): in the simulator's window a key or the
mouse button holds its seat button down until it is let go, so the table's long presses
(OK held a second for the rules page, three seconds to call staff) work as on real buttons;
a configured table whose seats are simulated stays interactive.

Everything goes the way a person's input does: pygame events on SDL's queue, the window's
``poll``, ``apply_ui_action``, the simulated gpiozero pins, the table's loop.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from controller.config.table_config import SeatConfig, TableConfig, TimerConfig, parse
from controller.kiosk.app import Kiosk
from controller.kiosk.windowed import apply_ui_action, window_for
from controller.table.pages import HELP_HOLD
from controller.table.staff_calls import HOLD_SECONDS
from controller.view import Screen
from display.ui import ChooseGame, HoldButton, PressButton, ReleaseButton, TapCard
from display.window import Window
from hardware.buttons import SeatButtons
from hardware.events import Button
from tests.test_display import find_hit
from tests.words import shown


def key(kind: int, code: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=code, mod=0, unicode="")


def posted(window: Window, *events: pygame.event.Event) -> list[object]:
    """What the window makes of ``events``, put on SDL's queue as a person's would be."""
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)
    return list(window.poll())


@pytest.fixture
def window() -> Iterator[Window]:
    with window_for(TableConfig.simulated()) as opened:
        yield opened


def test_a_key_holds_its_button_until_it_is_let_go(window: Window) -> None:
    assert posted(window, key(pygame.KEYDOWN, pygame.K_RETURN)) == [HoldButton(0, Button.OK)]
    # Each key holds its own button, and one key goes down only once until it comes up.
    assert posted(window, key(pygame.KEYDOWN, pygame.K_RIGHT)) == [HoldButton(0, Button.NEXT)]
    assert posted(window, key(pygame.KEYUP, pygame.K_RETURN)) == [ReleaseButton(0, Button.OK)]
    assert posted(window, key(pygame.KEYUP, pygame.K_RETURN)) == []  # nothing held by it now
    assert posted(window, key(pygame.KEYUP, pygame.K_RIGHT)) == [ReleaseButton(0, Button.NEXT)]
    assert posted(window, key(pygame.KEYDOWN, pygame.K_t), key(pygame.KEYUP, pygame.K_t)) == [
        HoldButton(0, "timer"),
        ReleaseButton(0, "timer"),
    ]


def test_the_mouse_holds_the_button_it_went_down_on(window: Window, tmp_path: Path) -> None:
    kiosk = Kiosk.create(TableConfig.simulated(), seed=1, records_dir=tmp_path)
    with kiosk:
        kiosk.loop.drain()
        window.show(kiosk.table.view)
    x, y = find_hit(window.renderer, PressButton, seat=2)
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y))
    moved = pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0), buttons=(1, 0, 0))
    # Let go away from the button: the button held is still the one that comes up.
    up = pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(1, 1))
    assert posted(window, down, moved) == [HoldButton(2, Button.OK)]
    assert posted(window, up) == [ReleaseButton(2, Button.OK)]
    assert posted(window, up) == []


def test_leaving_the_window_lets_go_of_every_button(window: Window) -> None:
    held = posted(window, key(pygame.KEYDOWN, pygame.K_LEFT), key(pygame.KEYDOWN, pygame.K_SPACE))
    assert held == [HoldButton(0, Button.PREV), HoldButton(0, Button.OK)]
    gone = posted(window, pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert gone == [ReleaseButton(0, Button.PREV), ReleaseButton(0, Button.OK)]
    assert posted(window, key(pygame.KEYUP, pygame.K_LEFT)) == []


class ButtonClock:
    """The clock the seats' buttons date their edges by: the monotonic clock, plus the
    seconds a test has let pass on it without waiting for them."""

    def __init__(self) -> None:
        self.passed = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.passed


@pytest.fixture
def button_clock(monkeypatch: pytest.MonkeyPatch) -> ButtonClock:
    """The clock of every seat's buttons the kiosk builds (its default), for holds that
    last seconds without the test waiting them out."""
    clock = ButtonClock()
    defaults = SeatButtons.__init__.__kwdefaults__
    assert defaults is not None and "clock" in defaults
    monkeypatch.setitem(defaults, "clock", clock)
    return clock


def hold_ok(kiosk: Kiosk, window: Window, seconds: float, clock: ButtonClock) -> None:
    """Hold Enter (seat 1's OK) in the window for ``seconds``, then let go."""
    for action in posted(window, key(pygame.KEYDOWN, pygame.K_RETURN)):
        assert apply_ui_action(kiosk, action)
    kiosk.loop.drain()
    # The table times the hold from the times of the button's own edges (the press's
    # and the release's), as it does on real GPIO: ``seconds`` pass on their clock.
    clock.passed += seconds
    for action in posted(window, key(pygame.KEYUP, pygame.K_RETURN)):
        assert apply_ui_action(kiosk, action)
    kiosk.loop.drain()


def test_holding_enter_for_a_second_opens_the_rules_page(
    window: Window, tmp_path: Path, button_clock: ButtonClock
) -> None:
    kiosk = Kiosk.create(TableConfig.simulated(), seed=1, records_dir=tmp_path)
    with kiosk:
        kiosk.loop.drain()
        hold_ok(kiosk, window, 0.0, button_clock)  # a press: the attract screen wakes to the menu
        assert kiosk.table.screen is Screen.CHOOSE_GAME
        assert kiosk.table.view.help == {}
        # It chooses the game, and opens its rules.
        hold_ok(kiosk, window, HELP_HOLD + 0.1, button_clock)
        title = shown(kiosk.table.view.help[0][0])
        game = kiosk.table.view.games[kiosk.table.selected]
        assert title.endswith("the rules at this table") and title.startswith(shown(game.title))


def test_holding_enter_for_three_seconds_calls_staff(
    window: Window, tmp_path: Path, button_clock: ButtonClock
) -> None:
    kiosk = Kiosk.create(TableConfig.simulated(), seed=1, records_dir=tmp_path)
    with kiosk:
        kiosk.loop.drain()
        hold_ok(kiosk, window, HOLD_SECONDS + 0.1, button_clock)
        said = [shown(m.text) for m in kiosk.table.view.messages]
        assert "Seat 1 called for staff; someone is on the way" in said
        assert kiosk.table.view.help == {}  # the call, not the rules page


def test_a_configured_demo_answers_the_keys_and_a_real_seat_does_not(tmp_path: Path) -> None:
    """A table.toml that only sets the language is the demo; a seat with real buttons is not."""
    german = parse({"table": {"language": "de"}})
    demo = window_for(german)
    assert not demo.locked and demo.interactive and demo.key_seat == 0
    with demo:
        assert posted(demo, key(pygame.KEYDOWN, pygame.K_RETURN)) == [HoldButton(0, Button.OK)]
        quit_ = pygame.event.Event(pygame.QUIT)
        assert len(posted(demo, quit_)) == 1  # the demo can be closed
    seats = (
        SeatConfig(index=0, buttons={"prev": 5, "ok": 6, "next": 13}, pixels=(0, 8)),
        SeatConfig(index=1, pixels=(8, 16)),
        SeatConfig(index=2, bot=True, pixels=(16, 24)),
    )
    mixed = TableConfig(seats=seats, timer=TimerConfig(pin=21))
    table = window_for(mixed)
    # The keys act for the first person whose buttons are simulated: seat 2 (index 1).
    assert table.locked and table.key_seat == 1
    with table:
        assert posted(table, key(pygame.KEYDOWN, pygame.K_RETURN)) == [HoldButton(1, Button.OK)]
        assert posted(table, pygame.event.Event(pygame.QUIT)) == []  # a real table stays up
        # Input meant for seat 1's real buttons is not the window's to give.
        assert not table.reaches_simulated(PressButton(0, Button.OK))
        assert not table.reaches_simulated(HoldButton(0, Button.OK))
        assert table.reaches_simulated(TapCard(1, "R7")) and table.reaches_simulated(ChooseGame(0))
