"""The real kiosk process stopped as systemd stops it, on every screen and mid-game.

``python -m controller kiosk --config table.toml`` runs as the unit runs it
(locked window, SDL's dummy video driver standing in for KMSDRM) with
systemd's notify socket stood in by a real AF_UNIX datagram socket. Seat
readers are real line-protocol readers on pseudo-terminals, so a tap crosses
a serial port. The kiosk says which screen it shows in ``STATUS=``; once it
shows the screen under test, the test sends SIGTERM, SIGINT or SIGHUP and
the process must say ``STOPPING=1``, close everything and exit 0 within
``STOP_BOUND`` seconds (the unit's ``TimeoutStopSec`` is 5).

Issue 33: SDL turned SIGTERM into a quit event that the locked window
dropped, and every stop waited 90 s for SIGKILL.
"""

from __future__ import annotations

import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from controller.config.table_config import load
from controller.kiosk.app import Kiosk
from controller.records.clock import clock_synchronised
from controller.view import Screen
from hardware.ptys import PtyPair
from tests.rigs import pty_pairs

ROOT = Path(__file__).resolve().parent.parent
STOP_BOUND = 2.0  # seconds from the signal to the exit: the bound
START_TIMEOUT = 60.0  # imports on a loaded 2-core machine
STAFF_UID = "04517AFF0000AA"  # the simulated registry's staff tag
CARD_UID = "0405E3A9CE20E9"  # a card of its Oshaka deck


@dataclass
class Running:
    """A kiosk process and what it told systemd."""

    proc: subprocess.Popen[str]
    sock: socket.socket
    messages: list[str] = field(default_factory=list)

    def wait_for(self, wanted: Callable[[str], bool], timeout: float) -> str:
        """The first notify message that ``wanted`` accepts (read in order)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"not told in time; the kiosk said {self.messages}")
            self.sock.settimeout(min(left, 0.5))
            try:
                message = self.sock.recv(4096).decode()
            except TimeoutError:
                if self.proc.poll() is not None:  # exited, and nothing more was said
                    assert self.proc.stderr is not None
                    said = f"{self.messages}: {self.proc.stderr.read()}"
                    raise AssertionError(
                        f"the kiosk exited {self.proc.returncode}, {said}"
                    ) from None
                continue
            self.messages.append(message)
            if wanted(message):
                return message

    def status(self, text: str, timeout: float = 30.0) -> None:
        self.wait_for(lambda m: f"STATUS={text}" in m.split("\n"), timeout)

    def stop_with(self, number: int) -> tuple[int, float, str]:
        """Send the signal; the exit status, the seconds it took and the standard error."""
        sent = time.monotonic()
        self.proc.send_signal(number)
        try:
            self.proc.wait(timeout=STOP_BOUND + 8)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        took = time.monotonic() - sent
        assert self.proc.stderr is not None
        return self.proc.returncode, took, self.proc.stderr.read()


@contextmanager
def kiosk(
    table_toml: Path, tmp_path: Path, extra_env: dict[str, str] | None = None
) -> Iterator[Running]:
    """The kiosk as the unit starts it (``extra_env`` added to its environment); killed if
    a test leaves it running."""
    path = str(tmp_path / f"notify-{time.monotonic_ns()}")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        env = {
            "PATH": "/usr/bin:/bin",
            "NOTIFY_SOCKET": path,
            "WATCHDOG_USEC": "4000000",  # a ping every 2 s at least
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            "PYGAME_HIDE_SUPPORT_PROMPT": "1",
            **(extra_env or {}),
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "controller", "kiosk", "--config", str(table_toml)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        try:
            running = Running(proc, sock)
            running.wait_for(lambda m: m.startswith("READY=1"), START_TIMEOUT)
            yield running
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if proc.stderr is not None:
                proc.stderr.close()


def reader_table(tmp_path: Path, ptys: list[PtyPair], extra: str = "") -> Path:
    """Two seats with line-protocol readers on pseudo-terminals, the simulated tags."""
    seats = "".join(
        f'[[seat]]\nreader = "{pty.slave_path}"\nprotocol = "line"\n'
        f"pixels = [{i * 4}, {i * 4 + 4}]\n\n"
        for i, pty in enumerate(ptys)
    )
    path = tmp_path / "table.toml"
    path.write_text(
        f'[table]\nrecords = "records"\n\n[leds]\nbackend = "mock"\n\n{extra}{seats}',
        encoding="utf-8",
    )
    return path


def journal_status(journal: Path) -> list[str]:
    with closing(sqlite3.connect(journal)) as db:
        return [str(row[0]) for row in db.execute("SELECT status FROM games")]


def assert_stopped_cleanly(running: Running, number: int, journal: Path) -> str:
    code, took, err = running.stop_with(number)
    name = signal.Signals(number).name
    assert code == 0, err
    assert took < STOP_BOUND, f"took {took:.2f} s"
    running.wait_for(lambda m: m == "STOPPING=1", 1.0)
    assert f"stopped on {name}: journal closed, LEDs dark, readers closed" in err
    assert "Traceback" not in err
    # SQLite removes the write-ahead log when the last connection closes cleanly.
    assert journal.exists() and not Path(f"{journal}-wal").exists()
    return err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("tap", "screen", "number"),
    [
        (None, "attract screen", signal.SIGTERM),
        ((0, CARD_UID), "choose_game screen", signal.SIGINT),
        ((1, STAFF_UID), "staff screen", signal.SIGHUP),
    ],
)
def test_a_stop_signal_on_each_screen(
    tmp_path: Path, tap: tuple[int, str] | None, screen: str, number: int
) -> None:
    with pty_pairs(2) as ptys, kiosk(reader_table(tmp_path, ptys), tmp_path) as running:
        running.status("attract screen")
        if tap is not None:
            seat, uid = tap
            ptys[seat].write(f"TAG {uid}\n".encode())
            running.status(screen)
        assert_stopped_cleanly(running, number, tmp_path / "records" / "journal.sqlite3")


@pytest.mark.slow
def test_a_stop_signal_while_the_table_sleeps(tmp_path: Path) -> None:
    always = '[display]\nsleep = "00:00-23:59"\n\n'
    # Opening hours darken the table only on a synchronised clock (a container's or a Pi's
    # before NTP is not): the kiosk says which it did, and stops either way.
    expected = (
        "asleep (opening hours)"
        if clock_synchronised()
        else "attract screen (clock not synchronised: no sleep)"
    )
    with pty_pairs(2) as ptys, kiosk(reader_table(tmp_path, ptys, always), tmp_path) as running:
        running.status(expected)
        assert_stopped_cleanly(running, signal.SIGTERM, tmp_path / "records" / "journal.sqlite3")


def bot_table(tmp_path: Path) -> Path:
    """Four simulated seats, all bots: a game goes on by itself once it is resumed."""
    seats = "".join(f"[[seat]]\nbot = true\npixels = [{i * 4}, {i * 4 + 4}]\n\n" for i in range(4))
    path = tmp_path / "bots.toml"
    path.write_text(
        f'[table]\nrecords = "records"\n\n[leds]\nbackend = "mock"\n\n{seats}', encoding="utf-8"
    )
    return path


def start_a_game(table_toml: Path, journal: Path) -> None:
    """Play the first moves of a game into the journal, then stop as a power cut would
    leave it: the next kiosk resumes it mid-game."""
    config = load(table_toml)
    table = Kiosk.create(config, seed=3, auto_game="oshaka-trick", journal_path=journal)
    with table:
        for _ in range(2000):
            table.simulator.step(table.table.clock())
            table.loop.drain()
            game = table.table.game
            if game is not None and len(game.recorder.actions) > 6:
                break
        assert table.table.screen is Screen.PLAY


@pytest.mark.slow
def test_a_stop_signal_mid_game_keeps_the_game_for_the_next_start(tmp_path: Path) -> None:
    table_toml = bot_table(tmp_path)
    journal = tmp_path / "records" / "journal.sqlite3"
    journal.parent.mkdir()
    start_a_game(table_toml, journal)
    with kiosk(table_toml, tmp_path) as running:
        running.status("playing oshaka-trick")
        # Let the bots play on a while: the signal lands between two of their moves.
        running.wait_for(lambda m: m == "WATCHDOG=1", 10.0)
        err = assert_stopped_cleanly(running, signal.SIGTERM, journal)
    assert "the game in progress is kept" in err
    assert journal_status(journal) == ["playing"]
    with kiosk(table_toml, tmp_path) as running:
        running.status("playing oshaka-trick")  # resumed
        assert_stopped_cleanly(running, signal.SIGINT, journal)
    assert journal_status(journal) == ["playing"]


ENTRY_WITH_ATEXIT = """
import atexit, sys
atexit.register(lambda: print("interpreter teardown ran", flush=True))
from controller.cli.main import program
sys.argv = ["cafe-table", *sys.argv[1:]]
program()
"""


def run_program(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", ENTRY_WITH_ATEXIT, *argv],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_after_a_kiosk_run_the_process_leaves_without_the_interpreters_teardown(
    tmp_path: Path,
) -> None:
    # The teardown (and pygame's atexit quit) was most of a stop; the kiosk has closed
    # everything itself, so the entry skips it, its last words still flushed.
    kiosk_run = run_program("kiosk", "--headless", "--game", "no-such-game")
    assert kiosk_run.returncode == 2
    assert "no-such-game" in kiosk_run.stderr and "Traceback" not in kiosk_run.stderr
    assert "interpreter teardown ran" not in kiosk_run.stdout
    # Any other command ends the usual way.
    replay_run = run_program("replay", str(tmp_path / "missing.jsonl"))
    assert replay_run.returncode == 2
    assert "interpreter teardown ran" in replay_run.stdout
