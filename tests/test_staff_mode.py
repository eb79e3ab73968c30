"""Staff mode during a game, the staff PIN and the kiosk lock-down (issue 14 items 5 and 6).

Driven through the mock readers and buttons of ``tests.rigs.TableRig`` with
its fake clock; the PIN is a real scrypt hash in a real ``StaffConfig``, the
journal a real SQLite ``Journal``, the window a real pygame window on SDL's
dummy driver.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli.staff import with_pin_hash
from controller.config.reading import ConfigError
from controller.config.table_config import DisplayConfig, StaffConfig, TableConfig, load, parse
from controller.kiosk import arguments
from controller.kiosk import windowed as kiosk_window
from controller.kiosk.app import Kiosk
from controller.records.journal import Journal
from controller.table import Table
from controller.table.staff_mode import STAFF_MODE_TIMEOUT
from controller.tags.registry import SIMULATED_STAFF_UID
from controller.tags.staff_pin import PinError, PinHash, hash_pin, parse_pin
from controller.view import Screen
from display.renderer import Renderer
from display.staff_screen import STAFF_COLOUR
from display.ui import HoldButton, PressButton, Quit, ReleaseButton
from display.window import Window
from hardware.events import Button, ButtonPressed, TagPresented
from tests.rigs import TableRig
from tests.test_display import count_colour, find_hit
from tests.words import shown, shown_all

ROOT = Path(__file__).resolve().parent.parent
PIN = "PNNO"  # prev, next, next, ok
PIN_HASH = hash_pin(PIN)
PRESSES = {"P": Button.PREV, "O": Button.OK, "N": Button.NEXT}


class Rig(TableRig):
    """A four-seat table whose staff events are collected in ``logged``."""

    def __init__(self, **config: Any) -> None:
        self.logged: list[tuple[str, dict[str, Any]]] = []
        super().__init__(
            staff_log=lambda event, detail: self.logged.append((event, detail)), **config
        )

    def staff(self, seat: int) -> None:
        self.tap_uid(seat, SIMULATED_STAFF_UID)

    def enter(self, seat: int, pin: str) -> None:
        for letter in pin:
            self.press(seat, PRESSES[letter])

    def player_actions(self) -> int:
        game = self.table.game
        assert game is not None
        return sum(1 for chance in game.chance if not chance)


@pytest.fixture
def rig() -> Iterator[Rig]:
    with Rig().running() as r:
        yield r


@pytest.fixture
def pin_rig() -> Iterator[Rig]:
    with Rig(staff=StaffConfig(pin_hash=PIN_HASH, tries=3, lockout=60.0)).running() as r:
        yield r


# --- staff mode -------------------------------------------------------------------------


def test_staff_mode_shows_a_staff_overlay_and_relabels_only_the_staff_seat(rig: Rig) -> None:
    rig.start_game("oshaka-trick")
    rig.staff(2)
    view = rig.table.view
    overlay = view.staff_overlay
    assert overlay is not None and overlay.seat == 2 and shown(overlay.title) == "STAFF"
    assert any("undo" in option for option in shown_all(overlay.options))
    assert any("abandon" in option for option in shown_all(overlay.options))
    labels = {hint.button: shown(hint.label) for hint in view.buttons if hint.seat == 2}
    assert labels == {"prev": "undo", "ok": "close", "next": "abandon"}
    # Drawn: the staff colour is on the screen with the overlay, and not without it.
    renderer = Renderer((1280, 720))
    renderer.draw(view)
    with_overlay = count_colour(renderer.surface, renderer.surface.get_rect(), STAFF_COLOUR)
    rig.staff(2)  # the second tap closes it
    assert rig.table.view.staff_overlay is None and rig.table.staff_seat is None
    renderer.draw(rig.table.view)
    assert (
        with_overlay > 2000
        and count_colour(renderer.surface, renderer.surface.get_rect(), STAFF_COLOUR) == 0
    )


def test_after_an_undo_a_players_next_does_not_abandon_the_game(rig: Rig) -> None:
    """The issue's case: staff undo, then a player's NEXT at that seat 41 s later."""
    rig.start_game("oshaka-trick")
    for _ in range(3):
        rig.play_first_legal()
    rig.staff(1)
    menu = rig.table.view.staff_overlay
    assert menu is not None and "Undo" not in shown(menu.prompt)
    rig.press(1, Button.PREV)
    assert rig.player_actions() == 3  # nothing happens before OK confirms
    # The confirmation names what an undo would take back.
    question = rig.table.view.staff_overlay
    assert question is not None and re.fullmatch(r"Undo Seat \d: .+\?", shown(question.prompt))
    rig.press(1, Button.OK)
    assert rig.player_actions() == 2 and rig.table.staff_seat is None
    rig.now += 41
    rig.press(1, Button.NEXT)
    assert rig.table.screen is Screen.PLAY and rig.table.game is not None


def test_abandon_asks_for_a_confirmation_and_any_other_button_cancels(rig: Rig) -> None:
    rig.start_game("oshaka-trick")
    rig.staff(3)
    rig.press(3, Button.NEXT)
    overlay = rig.table.view.staff_overlay
    assert overlay is not None and shown(overlay.prompt) == "Really abandon the game?"
    rig.press(3, Button.NEXT)  # not OK: cancelled, and staff mode closed
    assert rig.table.screen is Screen.PLAY and rig.table.staff_seat is None
    assert "Cancelled" in shown(rig.table.messages[-1].text)
    rig.staff(3)
    rig.press(3, Button.NEXT)
    rig.press(3, Button.OK)
    assert rig.screen() is Screen.ATTRACT


def test_staff_mode_closes_after_twenty_seconds_without_input(rig: Rig) -> None:
    rig.start_game("oshaka-trick")
    rig.staff(0)
    rig.now += STAFF_MODE_TIMEOUT - 1
    rig.press(0, Button.NEXT)  # abandon chosen: input, so the clock starts again
    rig.now += STAFF_MODE_TIMEOUT - 1
    rig.table.tick(rig.now)
    assert rig.table.staff_seat == 0
    rig.now += 2
    rig.table.tick(rig.now)
    assert rig.table.staff_seat is None and rig.table.view.staff_overlay is None
    assert "without input" in shown(rig.table.messages[-1].text)
    rig.press(0, Button.OK)  # a player's OK now is a player's, never the pending abandon
    assert rig.table.screen is Screen.PLAY


# --- the staff PIN -------------------------------------------------------------------------


def test_abandon_needs_the_pin_and_undo_does_not(pin_rig: Rig) -> None:
    rig = pin_rig
    rig.start_game("oshaka-trick")
    rig.play_first_legal()
    rig.staff(1)
    rig.press(1, Button.PREV)  # undo: PIN-free by default, straight to the confirmation
    rig.press(1, Button.OK)
    assert rig.player_actions() == 0
    rig.staff(1)
    rig.press(1, Button.NEXT)
    overlay = rig.table.view.staff_overlay
    assert (
        overlay is not None
        and "PIN" in shown(overlay.prompt)
        and shown_all(overlay.lines) == ("----",)
    )
    rig.enter(1, PIN[:2])
    assert rig.table.view.staff_overlay.lines == ("**--",)  # type: ignore[union-attr]
    rig.enter(1, PIN[2:])
    assert rig.table.screen is Screen.PLAY  # the PIN alone does not abandon: OK confirms
    rig.press(1, Button.OK)
    assert rig.screen() is Screen.ATTRACT
    assert rig.logged == []


def test_undo_can_be_made_to_need_the_pin() -> None:
    rig = Rig(staff=StaffConfig(pin_hash=PIN_HASH, undo_needs_pin=True))
    with rig.devices:
        rig.loop.drain()
        rig.start_game("oshaka-trick")
        rig.play_first_legal()
        rig.staff(2)
        rig.press(2, Button.PREV)
        rig.press(2, Button.OK)  # the first PIN press, not a confirmation
        assert rig.player_actions() == 1
        rig.enter(2, "NNO")  # P... is wrong: PIN is PNNO, this entry was O N N O
        assert rig.player_actions() == 1 and rig.table.staff_seat is None
        assert [event for event, _ in rig.logged] == ["staff-pin-wrong"]


def test_wrong_pins_lock_it_for_a_while_and_are_journaled(pin_rig: Rig) -> None:
    rig = pin_rig
    rig.start_game("oshaka-trick")
    for _ in range(3):
        rig.staff(0)
        rig.press(0, Button.NEXT)
        rig.enter(0, "OOOO")
    assert [event for event, _ in rig.logged] == ["staff-pin-wrong"] * 3 + ["staff-pin-locked"]
    assert rig.logged[-1][1] == {"seat": 0, "seconds": 60.0}
    assert "locked for 60 s" in shown(rig.table.messages[-1].text)
    # Locked: abandon is refused at once, even before the right PIN could be entered.
    rig.staff(0)
    rig.press(0, Button.NEXT)
    assert rig.table.staff_seat is None and "locked" in shown(rig.table.messages[-1].text)
    rig.now += 61
    rig.staff(0)
    rig.press(0, Button.NEXT)
    rig.enter(0, PIN)
    rig.press(0, Button.OK)
    assert rig.table.screen is Screen.ATTRACT


def test_the_staff_desk_asks_for_the_pin_first(pin_rig: Rig) -> None:
    rig = pin_rig
    rig.staff(2)
    desk = rig.table.view.staff
    assert rig.table.screen is Screen.STAFF and desk is not None
    assert shown_all(desk.options) == () and "PIN" in shown(
        desk.prompt
    )  # no enrollment before the PIN
    rig.enter(2, "PNNN")
    assert rig.screen() is Screen.ATTRACT
    assert "Wrong staff PIN" in shown(rig.table.messages[-1].text)
    rig.staff(2)
    rig.enter(2, PIN)
    desk = rig.table.view.staff
    assert desk is not None and "Enroll the Oshaka Trick deck" in shown_all(desk.options)
    assert "Stop the kiosk" not in shown_all(desk.options)  # only in a locked-down window


def test_a_locked_pin_keeps_the_desk_closed(pin_rig: Rig) -> None:
    rig = pin_rig
    for _ in range(3):
        rig.staff(1)
        rig.enter(1, "OOOO")
    rig.staff(1)
    assert rig.table.screen is Screen.ATTRACT
    assert "staff desk stays closed" in shown(rig.table.messages[-1].text)


def test_staff_stop_the_kiosk_from_the_desk_when_it_is_locked_down() -> None:
    rig = Rig(staff=StaffConfig(pin_hash=PIN_HASH, tries=3, lockout=60.0), can_quit=True)
    with rig.devices:
        rig.loop.drain()
        rig.staff(2)
        rig.enter(2, PIN)
        desk = rig.table.view.staff
        while desk is not None and shown(desk.options[desk.selected]) != "Stop the kiosk":
            rig.press(2, Button.NEXT)
            desk = rig.table.view.staff
        assert desk is not None
        assert not rig.table.quit_requested
        rig.press(2, Button.OK)
        assert rig.table.quit_requested


def test_the_journal_keeps_staff_events_outside_every_game(tmp_path: Path) -> None:
    config = TableConfig.simulated()
    with Journal.open(tmp_path / "j.sqlite3", config) as journal:
        journal.staff_event("staff-pin-wrong", {"seat": 1, "wrong": 1})
        journal.staff_event("staff-pin-locked", {"seat": 1, "seconds": 300.0})
    with Journal.open_existing(tmp_path / "j.sqlite3") as journal:
        events = journal.staff_events()
        assert [e["kind"] for e in events] == ["staff-pin-wrong", "staff-pin-locked"]
        assert events[1]["seconds"] == 300.0 and events[0]["at"]
        assert journal.games() == []


# --- the PIN's storage and the config -------------------------------------------------------


def test_a_pin_is_stored_only_as_a_salted_hash() -> None:
    one, two = hash_pin("prev next next ok"), hash_pin(PIN)
    assert one != two and one.startswith("scrypt$4$") and PIN not in one
    assert PinHash.parse(one).matches(PIN) and PinHash.parse(two).matches(PIN)
    assert not PinHash.parse(one).matches("PNNN")
    with pytest.raises(PinError, match="4 to 12"):
        parse_pin("PN")
    with pytest.raises(PinError, match="not '1'"):
        parse_pin("1234")


def test_the_config_refuses_a_pin_in_clear_and_a_damaged_hash() -> None:
    with pytest.raises(ConfigError, match=r"in clear.*set-pin"):
        parse({"staff": {"pin": "PNNO"}})
    with pytest.raises(ConfigError, match="not a stored PIN"):
        parse({"staff": {"pin_hash": "1234"}})
    with pytest.raises(ConfigError, match=r"staff\.colour"):
        parse({"staff": {"colour": "red"}})
    staff = parse({"staff": {"pin_hash": PIN_HASH, "undo_needs_pin": True}}).staff
    assert staff.pin_hash == PIN_HASH and staff.undo_needs_pin and staff.tries == 3


def set_pin(path: Path, typed: str) -> subprocess.CompletedProcess[str]:
    """``cafe-table staff set-pin --config path`` with ``typed`` on its standard input."""
    return subprocess.run(
        [sys.executable, "-m", "controller", "staff", "set-pin", "--config", str(path)],
        input=typed,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_set_pin_writes_the_hash_into_the_staff_section(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\nrecords = "r"\n\n[staff]\nundo_needs_pin = true\n', "utf-8")
    done = set_pin(path, "prev next next ok\n")
    assert done.returncode == 0, done.stderr
    staff = load(path).staff
    assert staff.undo_needs_pin and staff.pin_hash is not None
    assert PinHash.parse(staff.pin_hash).matches(PIN)
    assert "PNNO" not in path.read_text("utf-8")
    # Setting it again replaces the line instead of adding a second one.
    again = with_pin_hash(path.read_text("utf-8"), PIN_HASH)
    assert again.count("pin_hash") == 1 and tomllib.loads(again)["staff"]["pin_hash"] == PIN_HASH
    bad = set_pin(path, "1234\n")
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1 and "P (prev)" in bad.stderr


# --- the locked-down window ---------------------------------------------------------------------


def test_a_locked_window_ignores_close_requests_and_the_real_seats(rig: Rig) -> None:
    """A table with real devices: the window cannot quit, and a seat whose buttons are real
    ignores keys and clicks; one whose buttons are simulated still answers them."""
    view = rig.table.view  # the attract screen: every seat has an on-screen "start" button
    for locked in (False, True):
        real_buttons = {0, 1} if locked else set()
        with Window(
            DisplayConfig(width=800, height=480),
            locked=locked,
            button_seats=None if not locked else {2, 3},
        ) as window:
            window.show(view)
            pygame.event.clear()
            clicks = [find_hit(window.renderer, PressButton, seat=seat) for seat in (1, 2)]
            for event in (
                pygame.event.Event(pygame.QUIT),
                pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""),
                pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0, unicode=""),
                pygame.event.Event(pygame.KEYUP, key=pygame.K_LEFT, mod=0, unicode=""),
                *(
                    pygame.event.Event(kind, button=1, pos=pos)
                    for pos in clicks
                    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
                ),
            ):
                pygame.event.post(event)
            actions = window.poll()
        assert (Quit() in actions) is not locked
        for seat, button in ((0, Button.PREV), (1, Button.OK), (2, Button.OK)):
            answered = {HoldButton(seat, button), ReleaseButton(seat, button)} <= set(actions)
            assert answered is (seat not in real_buttons), (locked, seat, actions)


def stop_the_kiosk(table: Table) -> None:
    """Staff open the desk at seat 0 (no PIN) and choose "Stop the kiosk" there."""
    table.handle(TagPresented(0, SIMULATED_STAFF_UID, 0.0))
    for _ in range(20):
        desk = table.view.staff
        assert desk is not None
        if shown(desk.options[desk.selected]) == "Stop the kiosk":
            break
        table.handle(ButtonPressed(0, Button.NEXT, 0.0))
    table.handle(ButtonPressed(0, Button.OK, 0.0))
    assert table.quit_requested


@pytest.mark.slow  # over 5 s in the quick run on 2 cores (quiet, -n 4)
def test_the_kiosk_window_is_locked_only_on_a_table_with_real_devices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``windowed``: Escape and closing the window end the simulator, and a configured table
    whose devices are all simulated (only a language set, say), but not a real table."""
    frames: list[Kiosk] = []
    real_run_frame = Kiosk.run_frame

    def run_frame(self: Kiosk, show: Any, *rest: Any) -> None:
        frames.append(self)
        real_run_frame(self, show, *rest)
        for event in (
            pygame.event.Event(pygame.QUIT),
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""),
        ):
            pygame.event.post(event)
        if len(frames) == 5:
            stop_the_kiosk(self.table)

    monkeypatch.setattr(Kiosk, "run_frame", run_frame)
    path = tmp_path / "table.toml"
    # Seat 1's reader is a real one (a port that is not there: it stays offline).
    path.write_text(
        f'[table]\nrecords = "records"\n\n[[seat]]\npixels = [0, 8]\n\n'
        f'[[seat]]\nreader = "{tmp_path / "no-reader"}"\npixels = [8, 16]\n',
        "utf-8",
    )
    parser = argparse.ArgumentParser()
    arguments.add_arguments(parser)
    configured = parser.parse_args(["--config", str(path), "--no-journal"])
    assert kiosk_window.windowed(configured, load(path)) == 0
    assert len(frames) == 5 and frames[0].table.can_quit  # only the desk's stop ended it
    frames.clear()
    path.write_text('[table]\nlanguage = "de"\n', "utf-8")
    german = parser.parse_args(["--config", str(path), "--no-journal"])
    assert kiosk_window.windowed(german, load(path)) == 0
    assert len(frames) == 1 and frames[0].table.can_quit  # the demo in German: Escape quits
    frames.clear()
    simulator = parser.parse_args(["--no-journal"])
    assert kiosk_window.windowed(simulator, TableConfig.simulated()) == 0
    assert len(frames) == 1 and not frames[0].table.can_quit  # Escape / close quit at once
