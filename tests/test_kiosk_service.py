"""The kiosk as the systemd service runs it: READY and the watchdog over a real notify
socket, closing hours that blank the screen and LEDs, and the drifting attract screen.
pygame draws with SDL's dummy driver (tests/conftest.py)."""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import socket
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from controller.config.opening_hours import Sleeper, SleepWindow
from controller.config.table_config import TableConfig
from controller.kiosk.app import Kiosk
from controller.kiosk.windowed import Turns, windowed
from controller.view import Screen
from display.ui import Quit
from display.window import Window
from hardware.events import Button, ButtonPressed
from hardware.leds import RecordingStrip

NIGHT = dt.datetime(2026, 11, 30, 3, 0)
DAY = dt.datetime(2026, 11, 30, 15, 0)


def args_for(tmp_path: Path) -> argparse.Namespace:
    return argparse.Namespace(
        config=None, seed=1, bot_delay=0.0, journal=str(tmp_path / "journal.sqlite3"),
        no_journal=False, headless=False, out=str(tmp_path), size=None, fullscreen=False,
        windowed=False, game=None, players=None,
    )  # fmt: skip


def test_windowed_kiosk_tells_systemd_ready_feeds_the_watchdog_and_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        monkeypatch.setenv("WATCHDOG_USEC", "30000000")
        monkeypatch.delenv("WATCHDOG_PID", raising=False)
        turns: list[int] = []

        def one_turn_then_quit(self: Window) -> list[object]:
            turns.append(1)
            return [Quit()]

        monkeypatch.setattr(Window, "poll", one_turn_then_quit)
        config = TableConfig.simulated()
        assert windowed(args_for(tmp_path), config) == 0
        messages = [sock.recv(4096).decode() for _ in range(3)]
    assert turns == [1]
    assert messages == ["READY=1\nSTATUS=the table is up", "WATCHDOG=1", "STOPPING=1"]


@pytest.fixture
def kiosk_window(tmp_path: Path) -> Iterator[tuple[Kiosk, Window]]:
    config = TableConfig.simulated()
    kiosk = Kiosk.create(config, seed=1, journal_path=tmp_path / "journal.sqlite3")
    with kiosk, Window(config.display) as window:
        yield kiosk, window


def screen_is_black() -> bool:
    surface = pygame.display.get_surface()
    assert surface is not None
    return tuple(pygame.transform.average_color(surface))[:3] == (0, 0, 0)


def test_closing_hours_blank_screen_and_leds_and_a_button_wakes(
    kiosk_window: tuple[Kiosk, Window],
) -> None:
    kiosk, window = kiosk_window
    clock = iter(float(t) for t in range(1000, 2000, 10))
    wall = [NIGHT]
    turns = Turns(kiosk, Sleeper(SleepWindow.parse("02:00-10:00")), wall=lambda: wall[0],
                  clock=lambda: next(clock), synced=lambda: True)  # fmt: skip
    assert kiosk.table.screen is Screen.ATTRACT
    assert turns.run(window)
    assert turns.sleeping and screen_is_black()
    strip = kiosk.devices.strip
    assert isinstance(strip, RecordingStrip)
    assert not strip.frames or set(strip.pixels(-1)) == {(0, 0, 0)}
    # Asleep, a turn without input stays dark.
    assert turns.run(window)
    assert turns.sleeping and screen_is_black()
    # A button press wakes the table, and the table still gets the press.
    kiosk.events.put(ButtonPressed(0, Button.OK, 0.0))
    assert turns.run(window)
    assert turns.run(window)
    assert not turns.sleeping
    assert not screen_is_black()
    assert kiosk.table.screen is Screen.CHOOSE_GAME  # the waking press counted


def test_daytime_attract_screen_drifts(kiosk_window: tuple[Kiosk, Window]) -> None:
    kiosk, window = kiosk_window
    now = [0.0]
    turns = Turns(kiosk, Sleeper(None), wall=lambda: DAY, clock=lambda: now[0])
    offsets = []
    for _ in range(3):
        assert turns.run(window)
        offsets.append(turns.offset)
        now[0] += 120.0
    assert len(set(offsets)) == 3
    assert kiosk.table.screen is Screen.ATTRACT


def test_the_running_kiosk_keeps_what_start_up_built_out_of_full_collections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start-up's objects are frozen while the loop runs (the collector's full passes
    stall a tap's frame) and handed back when it stops."""
    frozen: list[int] = []

    def one_turn_then_quit(self: Window) -> list[object]:
        frozen.append(gc.get_freeze_count())
        return [Quit()]

    monkeypatch.setattr(Window, "poll", one_turn_then_quit)
    assert gc.get_freeze_count() == 0
    assert windowed(args_for(tmp_path), TableConfig.simulated()) == 0
    assert frozen and frozen[0] > 1000
    assert gc.get_freeze_count() == 0


def test_closing_hours_are_not_trusted_to_an_unsynchronised_clock(
    kiosk_window: tuple[Kiosk, Window], caplog: pytest.LogCaptureFixture
) -> None:
    """A Pi without RTC boots with a stale clock: 03:00 by it may be noon in the café."""
    kiosk, window = kiosk_window
    now = [1000.0]
    synced = [False]
    turns = Turns(kiosk, Sleeper(SleepWindow.parse("02:00-10:00")), wall=lambda: NIGHT,
                  clock=lambda: now[0], synced=lambda: synced[0])  # fmt: skip
    for _ in range(3):
        assert turns.run(window)
        now[0] += 10
    assert not turns.sleeping and not screen_is_black()
    assert turns.status() == "attract screen (clock not synchronised: no sleep)"
    assert caplog.text.count("the clock is not synchronised yet") == 1  # said once
    synced[0] = True  # NTP has set the clock: now it is really night
    assert turns.run(window)
    assert turns.sleeping and screen_is_black()
