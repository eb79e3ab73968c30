"""Stopping when told, in this process: real SIGTERM, SIGINT and SIGHUP delivered to the test's
own process while the kiosk runs in its main thread (windowed, headless, or waiting for a
display), with systemd's notify socket stood in by a real AF_UNIX datagram socket.

The real process, started as systemd starts it, is in tests/test_kiosk_stop.py.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.config.table_config import TableConfig
from controller.kiosk import app, devices, display_wait
from controller.kiosk import run as kiosk_run
from controller.kiosk.sd_notify import Notifier
from controller.kiosk.stop_signals import StopSignals
from controller.table import Table
from display import probe
from hardware.events import InputEvent, TagPresented, Wakeup
from hardware.leds import RecordingStrip
from tests.test_kiosk_service import args_for


@pytest.fixture
def notify(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """systemd's notify socket: the kiosk runs as under a Type=notify unit with a watchdog."""
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(10)
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        monkeypatch.setenv("WATCHDOG_USEC", "30000000")
        monkeypatch.delenv("WATCHDOG_PID", raising=False)
        yield sock


def signal_when(
    sock: socket.socket, wanted: str, number: int
) -> tuple[threading.Thread, list[str]]:
    """A thread that reads the notify socket and sends ``number`` to this process once a
    message starting with ``wanted`` came; the messages it read are in the list."""
    seen: list[str] = []

    def watch() -> None:
        while True:
            try:
                message = sock.recv(4096).decode()
            except OSError:
                return
            seen.append(message)
            if message.startswith(wanted):
                os.kill(os.getpid(), number)
                return

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread, seen


def rest_of(sock: socket.socket) -> list[str]:
    """The messages still waiting on the socket."""
    sock.settimeout(0.5)
    found = []
    while True:
        try:
            found.append(sock.recv(4096).decode())
        except TimeoutError:
            return found


def capture_strip(monkeypatch: pytest.MonkeyPatch) -> list[RecordingStrip]:
    """The recording strips the kiosk's devices are built with, to see the LEDs at the end."""
    strips: list[RecordingStrip] = []

    def recording(backend: str, n: int, **settings: object) -> RecordingStrip:
        strips.append(RecordingStrip(n))
        return strips[-1]

    monkeypatch.setattr(devices, "open_strip", recording)
    return strips


def leds_dark(strip: RecordingStrip) -> bool:
    return bool(strip.frames) and set(strip.pixels(-1)) == {(0, 0, 0)}


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stop_signal_ends_the_windowed_kiosk_cleanly(
    number: int,
    tmp_path: Path,
    notify: socket.socket,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    strips = capture_strip(monkeypatch)
    thread, seen = signal_when(notify, "READY=1", number)
    before = signal.getsignal(number)
    with caplog.at_level(logging.WARNING):
        assert kiosk_run.run(args_for(tmp_path)) == 0
    thread.join(5)
    name = signal.Signals(number).name
    assert seen[0] == "READY=1\nSTATUS=the table is up"
    assert "STOPPING=1" in rest_of(notify)
    assert f"stopped on {name}: journal closed, LEDs dark, readers closed" in caplog.text
    assert leds_dark(strips[0])
    # The handlers the test process had are back.
    assert signal.getsignal(number) == before
    assert os.environ.get("SDL_NO_SIGNAL_HANDLERS") == "1"


def test_a_stop_signal_during_a_headless_game_keeps_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    args = args_for(tmp_path)
    args.headless = True
    journal = Path(args.journal)
    handled: list[int] = []
    real_handle = Table.handle

    def handle_then_signal(table: Table, event: InputEvent) -> None:
        real_handle(table, event)
        handled.append(1)
        if len(handled) == 40:  # well into the game: a signal between two inputs
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(Table, "handle", handle_then_signal)
    with caplog.at_level(logging.WARNING):
        assert kiosk_run.run(args) == 0
    assert "stopped on SIGTERM" in caplog.text
    assert "the game in progress is kept" in caplog.text
    # The game waits in the journal; no record was written for it.
    assert not list(tmp_path.glob("*.jsonl"))
    with sqlite3.connect(journal) as db:
        assert db.execute("SELECT status FROM games").fetchall() == [("playing",)]


def test_no_display_yet_is_waited_for_with_one_line_and_a_stop_ends_the_wait(
    tmp_path: Path,
    notify: socket.socket,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    probes: list[int] = []

    def no_display() -> str:
        probes.append(1)
        return "kmsdrm not available"

    monkeypatch.setattr(probe, "sdl_display_problem", no_display)
    thread, seen = signal_when(notify, "READY=1", signal.SIGTERM)
    with caplog.at_level(logging.WARNING):
        assert kiosk_run.run(args_for(tmp_path)) == 0
    thread.join(5)
    # Up for systemd (no start timeout while it waits), and saying what it waits for.
    assert seen == ["READY=1\nSTATUS=waiting for the display: kmsdrm not available"]
    waiting = [r for r in caplog.records if "no display yet" in r.getMessage()]
    assert len(waiting) == 1 and "vc4-kms-v3d" in waiting[0].getMessage()
    assert "stopped on SIGTERM while waiting for the display" in caplog.text
    assert probes and not (tmp_path / "journal.sqlite3").exists()


def test_a_display_that_comes_late_is_used_once_it_is_there(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    answers = iter(["kmsdrm not available", "kmsdrm not available", None])
    stop = StopSignals()
    with caplog.at_level(logging.WARNING):
        found = display_wait.wait_for_display(
            stop, Notifier({}), probe=lambda: next(answers), every=0.01
        )
    assert found
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert lines[0].startswith("no display yet (kmsdrm not available)")
    assert lines[1].startswith("the display is there after")


def test_a_window_sdl_refuses_is_one_line_and_a_device_exit(
    tmp_path: Path, notify: socket.socket, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    import pygame

    from display.window import Window

    def refuse(self: Window) -> None:
        raise pygame.error("Could not initialize OpenGL / GLES library")

    monkeypatch.setattr(Window, "open", refuse)
    assert kiosk_run.run(args_for(tmp_path)) == 69
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "the display would not open: Could not initialize OpenGL / GLES library" in err


def test_a_request_wakes_a_waiting_loop_and_the_table_never_sees_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stop = StopSignals()
    kiosk = app.Kiosk.create(TableConfig.simulated(), seed=1)
    kiosk.watch(stop)
    seen: list[object] = []
    real = Table.handle

    def recording(table: Table, event: InputEvent) -> None:
        seen.append(event)
        real(table, event)

    monkeypatch.setattr(Table, "handle", recording)
    waker = threading.Timer(0.05, stop.request, args=("SIGTERM",))
    with kiosk:
        kiosk.loop.drain()  # the readers' ReaderOnline reports
        seen.clear()
        waker.start()
        # A turn that would wait for a minute returns as soon as the request comes.
        kiosk.run_frame(lambda view: None, most=60.0)
        kiosk.events.put(TagPresented(0, "04A1B2C3", 0.0))
        kiosk.run_frame(lambda view: None, most=60.0)
    waker.join()
    assert kiosk.stop_requested == "SIGTERM"
    # Neither the wake-up nor the input queued after the request reached the table.
    assert not any(isinstance(e, Wakeup | TagPresented) for e in seen)


def test_a_second_signal_while_stopping_changes_nothing() -> None:
    events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    with StopSignals(events) as stop:
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)
        assert stop.wait(5)
        # The kernel may hand SIGINT to another thread a moment after kill() returns;
        # leaving before its handler ran would run pytest's own SIGINT handler instead.
        deadline = time.monotonic() + 5
        while stop.ignored < 1 and time.monotonic() < deadline:
            time.sleep(0.001)
    assert stop.ignored == 1
    assert stop.requested == "SIGTERM"
    assert isinstance(events.get_nowait(), Wakeup)
    assert events.empty()
