"""The kiosk: the composition root that wires config, devices, table, display and simulator.

``python -m controller kiosk`` runs the table. With a display it opens a
window (full screen on the table's Pi) where a person can play the seats that
have no bot: click a card of the on-screen hand to tap it, click the on-screen
seat buttons or use the keys (Left = prev, Enter/Space = ok, Right = next for
seat 0). Without a display, or with ``--headless``, bots play one full game,
the score sheet is printed and a PNG of the final table is saved.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import queue
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from controller import scoresheet
from controller.config import ConfigError, TableConfig, load
from controller.devices import Devices, build
from controller.games.base import TableError
from controller.history import history_lines, summaries
from controller.journal import JOURNAL_NAME, Journal, resume_if_unfinished
from controller.simulation import Simulator
from controller.table import Table, TableLoop
from controller.tags import TagRegistry
from controller.view import Screen, TableView
from hardware.errors import HardwareError
from hardware.events import InputEvent

logger = logging.getLogger(__name__)

SAMPLES = Path(__file__).resolve().parent / "samples"
SIMULATED_TAGS = SAMPLES / "simulated-tags.json"
# The loop sleeps on the input queue until something is due (a tap or press
# wakes it at once): the LEDs' next pattern step, a bot's next move, a frame
# the display asks for (an animation), a look at the window's clicks and keys,
# or at most MAX_WAIT, so the screens' idle timeouts (minutes) are seen within
# a second. A still table wakes about once a second, not 60 times.
MAX_WAIT = 1.0


def load_registry(config: TableConfig) -> TagRegistry:
    """The configured tag registry, or the bundled simulated deck."""
    return TagRegistry.load(config.tags or SIMULATED_TAGS)


@dataclass
class Kiosk:
    """Everything the kiosk runs, built from a configuration."""

    config: TableConfig
    registry: TagRegistry
    events: queue.Queue[InputEvent]
    devices: Devices
    table: Table
    loop: TableLoop
    simulator: Simulator
    records_dir: Path
    journal: Journal | None = None

    @classmethod
    def create(
        cls,
        config: TableConfig,
        *,
        seed: int | None = None,
        auto_game: str | None = None,
        bot_delay: float = 0.0,
        records_dir: Path | None = None,
        journal_path: Path | None = None,
    ) -> Kiosk:
        """Build the kiosk; with ``journal_path`` every accepted input is journaled first
        and an unfinished game found there is resumed by ``resume()``."""
        registry = load_registry(config)
        events: queue.Queue[InputEvent] = queue.Queue()
        devices = build(config, events)
        rng = random.Random(seed)
        records = records_dir or config.records
        kiosk_ref: list[Kiosk] = []

        def save_record(game_id: str, text: str) -> None:
            kiosk_ref[0].save_record(game_id, text)

        journal = None if journal_path is None else Journal.open(journal_path, config)
        table = Table(
            config,
            registry,
            leds=devices.leds,
            rng=random.Random(rng.random()),
            on_record=save_record,
            journal=journal,
            history=None if journal is None else lambda: history_lines(summaries(journal)),
        )
        simulator = Simulator(
            table,
            devices,
            registry,
            bot_seats={s.index for s in config.seats if s.bot},
            rng=random.Random(rng.random()),
            delay=bot_delay,
            auto_game=auto_game,
        )
        kiosk = cls(
            config,
            registry,
            events,
            devices,
            table,
            TableLoop(table, events),
            simulator,
            records,
            journal,
        )
        kiosk_ref.append(kiosk)
        return kiosk

    def __enter__(self) -> Kiosk:
        self.devices.open()
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the devices and the journal, whatever ended the run."""
        self.devices.close()
        if self.journal is not None:
            self.journal.close()

    def resume(self) -> bool:
        """Resume the journal's unfinished game, if any; staff see any problem found."""
        if self.journal is None:
            return False
        resumed = resume_if_unfinished(self.journal, self.table)
        for notice in self.journal.notices:
            logger.error("%s", notice)
            self.table.staff_notice(notice)
        return resumed is not None

    def save_record(self, game_id: str, text: str) -> Path:
        """Write a finished game's record; the file name says when and what."""
        self.records_dir.mkdir(parents=True, exist_ok=True)
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = self.records_dir / f"{stamp}-{game_id}.jsonl"
        counter = 1
        while path.exists():
            counter += 1
            path = self.records_dir / f"{stamp}-{game_id}-{counter}.jsonl"
        path.write_text(text, encoding="utf-8")
        self.last_record = path
        logger.info("saved the game record %s", path)
        return path

    def run_headless(self, max_steps: int = 100_000) -> bool:
        """Let the simulator play until the results screen; False if it got stuck."""
        self.loop.drain()
        for _ in range(max_steps):
            if self.finished():
                return True
            now = self.table.clock()
            acted = self.simulator.step(now)
            self.loop.drain()
            self.devices.leds.tick(now)
            if not acted and self.simulator.delay == 0:
                break
        return self.finished()

    def finished(self) -> bool:
        return self.table.screen is Screen.RESULTS

    def frame_wait(self, display_due: float | None = None, most: float = MAX_WAIT) -> float:
        """How long one loop turn may wait for input: until the next thing that is due.

        ``display_due`` is when the display wants its next frame by itself (None:
        not until the view changes); ``most`` caps the wait (the window's poll).
        """
        now = self.table.clock()
        waits = [most]
        for wait in (self.devices.leds.next_change(now), self.simulator.next_due(now), display_due):
            if wait is not None:
                waits.append(wait)
        return max(0.0, min(waits))

    def run_frame(
        self,
        show: Callable[[TableView], object],
        next_frame_in: Callable[[TableView], float | None] | None = None,
        most: float = MAX_WAIT,
    ) -> None:
        """One turn of the kiosk loop: wait for input or the next thing due, then bots,
        LED patterns, and the view if it changed.

        ``next_frame_in`` says when the display needs a frame by itself (its
        animations); ``most`` caps the wait.
        """
        due = None if next_frame_in is None else next_frame_in(self.table.view)
        self.loop.run_once(timeout=self.frame_wait(due, most))
        self.loop.drain()
        now = self.table.clock()
        if self.simulator.step(now):
            self.loop.drain()
        self.devices.leds.tick(now)
        show(self.table.view)


def display_available() -> bool:
    """Whether pygame can open a real window here (a desktop, or the Pi's KMS console)."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or Path("/dev/dri").exists()
    ):
        return False
    return True


def render_png(
    view: TableView, path: Path, config: TableConfig, size: tuple[int, int] | None = None
) -> Path:
    """Draw a view off-screen and save it as a PNG."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.screenshot import screenshot_view

    display = config.display
    return screenshot_view(view, path, size or (display.width, display.height), display.rotation)


def headless_demo(args: argparse.Namespace, config: TableConfig) -> int:
    """Bots play one full game on simulated hardware; print the sheet, save a PNG and record."""
    if args.config is None:
        config = TableConfig.simulated(args.players, bots=args.players)
    out = Path(args.out)
    journal = journal_file(args, out)
    kiosk = Kiosk.create(
        config, seed=args.seed, auto_game=args.game, records_dir=out, journal_path=journal
    )
    with kiosk:
        if kiosk.resume():
            print("Resumed the unfinished game from the journal.", file=sys.stderr)
        finished = kiosk.run_headless()
        game = kiosk.table.game
        if not finished or game is None:
            print("the simulated game did not finish; see the log above", file=sys.stderr)
            return 1
        print(scoresheet.render(game.adapter.engine), end="")
        results = kiosk.table.view
        # The table as it lay after the last card (columns, penalties), and the results screen.
        table_png = render_png(
            replace(results, screen=Screen.PLAY), out / "final-table.png", config
        )
        results_png = render_png(results, out / "results.png", config)
    print(f"Final table: {table_png}")
    print(f"Results screen: {results_png}")
    print(f"Game record: {kiosk.last_record}  (replay it: python -m controller replay FILE)")
    return 0


def journal_file(args: argparse.Namespace, records: Path) -> Path | None:
    """The journal the kiosk keeps: --journal, else journal.sqlite3 in the records folder."""
    if args.no_journal:
        return None
    return Path(args.journal) if args.journal else records / JOURNAL_NAME


def windowed(args: argparse.Namespace, config: TableConfig) -> int:
    """The interactive kiosk: a window, a person at the non-bot seats, bots elsewhere."""
    from display.window import Window

    kiosk = Kiosk.create(
        config,
        seed=args.seed,
        bot_delay=args.bot_delay,
        journal_path=journal_file(args, config.records),
    )
    people = [s.index for s in config.seats if not s.bot]
    with kiosk, Window(config.display, key_seat=people[0] if people else 0) as window:
        kiosk.resume()
        while True:
            # Waits on the input queue until something is due, and at most the
            # window's poll, so clicks and keys are still looked at often enough.
            most = window.poll_interval(kiosk.table.view)
            kiosk.run_frame(window.show, window.next_frame_in, most)
            for action in window.poll():
                if not apply_ui_action(kiosk, action):
                    return 0


def apply_ui_action(kiosk: Kiosk, action: object) -> bool:
    """Turn a click or key into what a seat's reader or button would report; False to quit."""
    from display.ui import ChooseGame, PressButton, Quit, TapCard

    if isinstance(action, Quit):
        return False
    if isinstance(action, TapCard):
        kiosk.simulator.tap(action.seat, action.card)
    elif isinstance(action, PressButton):
        kiosk.simulator.press(action.seat, action.button)
    elif isinstance(action, ChooseGame):
        seat = next((s.index for s in kiosk.config.seats if not s.bot), 0)
        while kiosk.table.selected != action.index:
            kiosk.simulator.press(seat, "next")
            kiosk.loop.drain()
    return True


def run(args: argparse.Namespace) -> int:
    """``kiosk`` subcommand: choose headless or windowed, and turn setup failures into words."""
    try:
        config = load(Path(args.config)) if args.config else TableConfig.simulated()
        if args.headless or not display_available():
            if not args.headless:
                print("No display found: bots play one game headless.", file=sys.stderr)
            return headless_demo(args, config)
        return windowed(args, config)
    except (ConfigError, HardwareError, TableError) as exc:
        print(f"kiosk: {exc}", file=sys.stderr)
        return 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="table.toml (default: all simulated)")
    parser.add_argument("--headless", action="store_true", help="bots play one game, no window")
    parser.add_argument("--game", default="oshaka-trick", help="the game bots play headless")
    parser.add_argument("--players", type=int, default=4, help="seats in the headless game")
    parser.add_argument("--seed", type=int, default=None, help="seed for deals and bots")
    parser.add_argument("--out", default="out", help="folder for the headless PNG and record")
    parser.add_argument(
        "--bot-delay", type=float, default=0.8, help="seconds a bot waits before acting"
    )
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help="the crash-safe journal (default: journal.sqlite3 in the records folder; "
        "headless: in --out)",
    )
    parser.add_argument(
        "--no-journal", action="store_true", help="keep no journal (nothing is resumed)"
    )
