"""The kiosk: the composition root that wires config, devices, table, display and simulator.

``cafe-table kiosk`` runs the table. With a display it opens a window (full
screen on the table's Pi; ``--size`` / ``--fullscreen`` override ``[display]``)
where a person can play the seats that have no bot: click a card of the
on-screen hand to tap it, click the on-screen seat buttons or use the keys
(Left = prev, Enter/Space = ok, Right = next for seat 0), and try the staff
desk with the simulated staff tag (S, or the "staff tag at seat" buttons).
Without a display, or with ``--headless``, bots play one full game, the score
sheet is printed and a PNG of the final table is saved.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import logging
import os
import queue
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from controller.config.opening_hours import Sleeper, drift
from controller.config.reading import ConfigError
from controller.config.table_config import MOCK, TableConfig, load
from controller.games.base import TableError
from controller.games.words import Text, Verbatim, as_arg, say
from controller.kiosk.clock_sync import clock_synchronised
from controller.kiosk.devices import Devices, build
from controller.kiosk.display_wait import DisplayFailed, wait_for_display
from controller.kiosk.exit_codes import ExitCode
from controller.kiosk.garbage import GarbagePacer
from controller.kiosk.loop_load import LoopLoad
from controller.kiosk.resume import resume_if_unfinished
from controller.kiosk.sd_notify import Notifier
from controller.kiosk.simulation import Simulator
from controller.kiosk.stop_signals import StopSignals
from controller.records import scoresheet
from controller.records.durable import require_durable
from controller.records.files import DEMO_OUT, save_finished_record, write_missing_records
from controller.records.history import DESK_HISTORY, history_table, summaries
from controller.records.journal import JOURNAL_NAME, Journal, JournalDiskFull, JournalLocked
from controller.table import Table, TableLoop, TurnBudget
from controller.tags.pin_lock import lock_left
from controller.tags.registry import TagRegistry, simulated
from controller.view import MessageKind, Screen, TableView
from controller.words import Presenter
from controller.words import terminal as terminal_words
from controller.words.commands import command
from controller.words.safe_text import one_line
from controller.words.terminal import table_language
from hardware.errors import HardwareConfigError, HardwareError
from hardware.events import ButtonPressed, InputEvent, TagPresented, TossStarted, Wakeup

if TYPE_CHECKING:
    from display.window import Window

if TYPE_CHECKING:
    from controller.fleet.connection import CafeConnection

logger = logging.getLogger(__name__)

# The loop sleeps on the input queue until something is due (a tap or press
# wakes it at once): the LEDs' next pattern step, a bot's next move, a frame
# the display asks for (an animation), a look at the window's clicks and keys,
# or at most MAX_WAIT, so the screens' idle timeouts (minutes) are seen within
# a second. A still table wakes about once a second, not 60 times.
MAX_WAIT = 1.0
SLEEP_WAIT = 0.25  # seconds a sleeping table waits for input at a time (closing hours)


def load_registry(config: TableConfig) -> TagRegistry:
    """The configured tag registry, or the simulated one made from the registered games.

    A configured registry that does not exist yet is a new table's first
    evening: the kiosk starts with no tags and says how to enroll the first
    staff tag (``setup_notice``). A registry that exists but is bad is refused.
    """
    if config.tags is None:
        return simulated()  # every registered game's deck: a new game needs no file
    if not config.tags.exists():
        return TagRegistry()
    return TagRegistry.load(config.tags)


def setup_notice(
    config: TableConfig, registry: TagRegistry, config_path: Path | None
) -> Text | None:
    """What staff must do before the table can be used, or None when nothing is missing."""
    if config.tags is None or registry.has_staff_tag():
        return None
    where: list[str | Path] = ["--config", config_path.resolve()] if config_path else []
    return say(
        "No staff tag is enrolled yet. Stop the kiosk (Escape) and run:  {command}  then tap "
        "your staff tag at any reader, start the kiosk again and tap the staff tag here: the "
        "staff desk opens to enroll the decks.",
        command=Verbatim(command("tags", "add-staff", *where)),
    )


@dataclass
class Kiosk:
    """Everything the kiosk runs, built from a configuration."""

    config: TableConfig
    registry: TagRegistry
    events: queue.SimpleQueue[InputEvent]
    devices: Devices
    table: Table
    loop: TableLoop
    simulator: Simulator
    records_dir: Path
    journal: Journal | None = None
    cafe: CafeConnection | None = None  # the café's hub, with [cafe] in the configuration
    # Runs the garbage collector's passes while the loop waits (once started).
    garbage: GarbagePacer = field(default_factory=GarbagePacer)
    # SIGTERM, SIGINT and SIGHUP (once the kiosk is told of them, by ``watch``).
    stop: StopSignals | None = None
    # How much input one turn handles before it draws and pets the watchdog.
    budget: TurnBudget = field(default_factory=TurnBudget)

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
        config_path: Path | None = None,
        can_quit: bool = False,
    ) -> Kiosk:
        """Build the kiosk; with ``journal_path`` every accepted input is journaled first
        and an unfinished game found there is resumed by ``resume()``. ``config_path``
        (the table.toml it was loaded from) goes into the commands the kiosk prints
        and to the café connection. ``can_quit``: the staff desk offers "Stop the kiosk"
        (a locked-down window, which players cannot close)."""
        registry = load_registry(config)
        notice = setup_notice(config, registry, config_path)
        if notice is not None:
            logger.warning("%s", notice)
        events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
        devices = build(config, events)
        rng = random.Random(seed)
        records = records_dir or config.records
        kiosk_ref: list[Kiosk] = []

        def save_record(game_id: str, text: str) -> None:
            kiosk_ref[0].save_record(game_id, text)
            if kiosk_ref[0].cafe is not None:
                kiosk_ref[0].cafe.record_finished()

        # A full check after an unclean stop may outlast the unit's start timeout.
        keep_alive = Notifier().extend_start
        journal = (
            None
            if journal_path is None
            else Journal.open(journal_path, config, keep_alive=keep_alive)
        )
        cafe = None
        if config.cafe is not None:
            # Only a table of a café imports (and runs) network code.
            from controller.fleet.connection import CafeConnection

            cafe = CafeConnection(
                config.cafe,
                None if journal is None else journal.path,
                registry,
                config_path=config_path,
            )
        table = Table(
            config,
            registry,
            leds=devices.leds,
            rng=random.Random(rng.random()),
            on_record=save_record,
            journal=journal,
            history=None
            if journal is None
            else lambda: history_table(
                summaries(journal, latest=DESK_HISTORY), Presenter(table_language(config))
            ),
            on_staff_call=None if cafe is None else cafe.staff_call,
            staff_log=None if journal is None else journal.staff_event,
            setup_notice=notice,
            can_quit=can_quit,
        )
        if journal is not None:
            restore_pin_lock(table, journal)
        simulator = Simulator(
            table,
            devices,
            registry,
            bot_seats={s.index for s in config.seats if s.bot},
            rng=random.Random(rng.random()),
            delay=bot_delay,
            auto_game=auto_game,
            # A paced (windowed) table fills seats with the search bots, thinking off the
            # loop; headless runs (demo, tests) keep the quick heuristic bots.
            think=config.bots.think if bot_delay > 0 else None,
            background=bot_delay > 0,
            load=LoopLoad(),
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
            cafe,
        )
        kiosk_ref.append(kiosk)
        return kiosk

    def __enter__(self) -> Kiosk:
        self.devices.open()
        if self.cafe is not None:
            self.cafe.start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the café link, the devices and the journal, whatever ended the run."""
        if self.cafe is not None:
            self.cafe.close()
        self.devices.close()
        if self.journal is not None:
            self.journal.close()

    def watch(self, stop: StopSignals) -> None:
        """Stop at the next turn when ``stop`` is requested (a signal ends the loop's wait)."""
        self.stop = stop
        stop.attach(self.events)
        self.budget.stop = lambda: stop.requested is not None

    @property
    def stop_requested(self) -> str | None:
        """The signal that asked the kiosk to stop (``"SIGTERM"``), or None."""
        return None if self.stop is None else self.stop.requested

    def resume(self) -> bool:
        """Resume the journal's unfinished game, if any; staff see any problem found."""
        if self.journal is None:
            return False
        write_missing_records(self.journal, self.records_dir)
        resumed = resume_if_unfinished(self.journal, self.table)
        for notice in self.journal.notices:
            logger.error("%s", notice)
            self.table.staff_notice(notice)
        return resumed is not None

    def save_record(self, game_id: str, text: str) -> Path:
        """Write a finished game's record (atomically); the file name says when and what."""
        path = save_finished_record(self.records_dir, game_id, text, self.journal)
        self.last_record = path
        return path

    def run_headless(self, max_steps: int = 100_000) -> bool:
        """Let the simulator play until the results screen; False if it got stuck."""
        self.loop.drain()
        for _ in range(max_steps):
            if self.finished() or self.stop_requested:
                return self.finished()
            now = self.table.clock()
            acted = self.simulator.step(now)
            self.loop.drain()
            self.devices.leds.tick(now)
            self.after_turn()
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
        load = self.simulator.load
        budget = self.budget
        # Waiting for input costs the thread no CPU, so the whole turn is measured.
        with load.turn() if load is not None else contextlib.nullcontext():
            if self.events.empty():
                # Nothing to handle yet: the collector's pass now, not in the next tap's frame.
                self.garbage.idle()
            # The budget starts after the wait: it bounds the work, not the waiting.
            wait = self.frame_wait(due, most)
            handled = not self.stop_requested and self.loop.run_once(timeout=wait)
            budget.start()
            if handled:
                budget.spend()
            # At most the budget's inputs: a flooding reader cannot keep the turn from
            # drawing and the watchdog from being fed; the rest waits for the next turn.
            self.loop.drain(budget)
            now = self.table.clock()
            if not self.stop_requested and self.simulator.step(now):
                self.loop.drain(budget)
            self.devices.leds.tick(now)
            self.after_turn()
            show(self.table.view)

    def after_turn(self) -> None:
        """What else a turn of the loop owes: the café hears of changes (with [cafe])."""
        if self.cafe is not None:
            self.cafe.after_turn(self.table)


def restore_pin_lock(table: Table, journal: Journal) -> None:
    """Lock the staff PIN again for what is left of a lock journaled before a restart."""
    left = lock_left(journal.staff_events(), journal.clock())
    if left > 0 and table.lock_staff_pin(left):
        logger.warning("the staff PIN stays locked for %.0f s more (locked before the restart)",
                       left)  # fmt: skip


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


def headless_demo(
    args: argparse.Namespace, config: TableConfig, stop: StopSignals | None = None
) -> int:
    """Bots play one full game on simulated hardware; print the sheet, save a PNG and record.

    ``stop`` (installed by ``run``) ends the game early on a stop signal; the journal
    keeps it for the next run."""
    if args.config is None:
        config = with_window_options(TableConfig.simulated(args.players, bots=args.players), args)
    out = Path(args.out)
    journal = journal_file(args, out)
    try:
        # The demo's output folder, named on the command line, is made like any output
        # folder when the journal is to be in it (else the record makes it when it is
        # saved, and a refused --journal leaves nothing behind). The windowed kiosk's
        # records folder is not: a missing one may be an unmounted disk.
        if journal is not None and journal.parent == out:
            out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TableError(
            say(
                "cannot make the folder {folder} for the demo's picture, record and journal "
                "({reason}); name another with --out",
                folder=Verbatim(str(out)),
                reason=Verbatim(exc.strerror or str(exc)),
            )
        ) from exc
    kiosk = Kiosk.create(
        config,
        seed=args.seed,
        auto_game=args.game,
        records_dir=out,
        journal_path=journal,
        config_path=config_path(args),
    )
    present = terminal_words.presenter(args)
    if stop is not None:
        kiosk.watch(stop)
    with kiosk:
        if kiosk.resume():
            print(present(say("Resumed the unfinished game from the journal.")), file=sys.stderr)
        finished = kiosk.run_headless()
        game = kiosk.table.game
        if not kiosk.stop_requested and (not finished or game is None):
            said = kiosk.table.messages[-1].text if kiosk.table.messages else say("nothing")
            terminal_words.complain(
                args,
                "kiosk",
                say(
                    "the bots could not finish a game of {game} (the table last said: {said}); "
                    "check --game, --players and the bot seats of --config",
                    game=Verbatim(args.game),
                    said=as_arg(said),
                ),
            )
            return int(ExitCode.CONFIG)
        if kiosk.stop_requested or game is None:
            game = None  # stopped: the journal keeps the game for the next run
        else:
            print(scoresheet.render(game.adapter.engine, present), end="")
            results = kiosk.table.view
            # The table as it lay after the last card (columns, penalties), and the results screen.
            table_png = render_png(
                replace(results, screen=Screen.PLAY), out / "final-table.png", config
            )
            results_png = render_png(results, out / "results.png", config)
    if game is None:
        logger.warning("%s", stopped_words(kiosk))
        return int(ExitCode.STOPPED)
    print(present(say("Final table: {file}", file=Verbatim(str(table_png)))))
    print(present(say("Results screen: {file}", file=Verbatim(str(results_png)))))
    print(present(say("Game record: {file}", file=Verbatim(str(kiosk.last_record)))))
    replay = Verbatim(command("replay", kiosk.last_record))
    print(present(say("Replay it:   {command}", command=replay)))
    if journal is not None:
        history = Verbatim(command("history", "--journal", journal))
        print(present(say("Its history: {command}", command=history)))
    return 0


def config_path(args: argparse.Namespace) -> Path | None:
    return Path(args.config) if args.config else None


def journal_file(args: argparse.Namespace, records: Path) -> Path | None:
    """The journal the kiosk keeps: --journal, else journal.sqlite3 in the records folder."""
    if args.no_journal:
        return None
    return Path(args.journal) if args.journal else records / JOURNAL_NAME


def windowed(args: argparse.Namespace, config: TableConfig, stop: StopSignals | None = None) -> int:
    """The interactive kiosk: a window, a person at the non-bot seats, bots elsewhere.

    ``stop`` (installed by ``run``) ends the loop on SIGTERM, SIGINT or SIGHUP.
    """
    from display.window import Window

    # A configured table is locked down: no key, click or close request reaches it;
    # staff stop it from the staff desk (PIN) or the service stops it.
    locked = args.config is not None
    kiosk = Kiosk.create(
        config,
        seed=args.seed,
        bot_delay=args.bot_delay,
        journal_path=journal_file(args, config.records),
        config_path=config_path(args),
        can_quit=locked,
    )
    people = [s.index for s in config.seats if not s.bot]
    simulated = [s.index for s in config.seats if s.reader == MOCK]
    window = Window(
        config.display,
        key_seat=people[0] if people else 0,
        locked=locked,
        staff_seats=simulated,
    )
    notifier = Notifier()  # systemd's Type=notify and watchdog; nothing off systemd
    turns = Turns(kiosk, Sleeper(config.display.sleep))
    if stop is not None:
        kiosk.watch(stop)
    with kiosk, opened(window):
        kiosk.resume()
        if config.display.fullscreen:
            from display.screen_care import hide_pointer

            hide_pointer()
        notifier.ready("the table is up")
        # From here the collector runs while the loop waits for players, and what
        # start-up built stays out of its full passes (see controller/kiosk/garbage.py).
        kiosk.garbage.start()
        try:
            while not kiosk.table.quit_requested and not kiosk.stop_requested:
                # A hung loop stops feeding the watchdog: systemd restarts the kiosk.
                notifier.feed(time.monotonic())
                if not turns.run(window):
                    return 0
                notifier.status(turns.status())
        finally:
            kiosk.garbage.stop()
            notifier.stopping()
    if kiosk.stop_requested:
        logger.warning("%s", stopped_words(kiosk))
        return 0
    logger.warning("staff stopped the kiosk from the staff desk")
    return 0


@contextlib.contextmanager
def opened(window: Window) -> Iterator[Window]:
    """The window, open; SDL's refusal to open it is one line (``DisplayFailed``), not a
    traceback, and a restart may cure it (the DRM device not ready yet)."""
    import pygame

    try:
        window.open()
    except pygame.error as exc:
        raise DisplayFailed(f"the display would not open: {exc or 'SDL gave no reason'}") from exc
    with window:
        yield window


def stopped_words(kiosk: Kiosk) -> str:
    """The one log line of a stop by signal, said once everything is closed."""
    playing = kiosk.table.game is not None
    kept = "; the game in progress is kept and resumes at the next start" if playing else ""
    return f"stopped on {kiosk.stop_requested}: journal closed, LEDs dark, readers closed{kept}"


def apply_ui_action(kiosk: Kiosk, action: object) -> bool:
    """Turn a click or key into what a seat's reader or button would report; False to quit."""
    from display.ui import ChooseGame, PressButton, Quit, TapCard, TapDeckCard, TapStaff

    if isinstance(action, Quit):
        return False
    if isinstance(action, TapCard | TapStaff | TapDeckCard):
        simulator = kiosk.simulator
        if isinstance(action, TapCard):
            why_not = simulator.tap(action.seat, action.card)
        elif isinstance(action, TapStaff):
            why_not = simulator.tap_staff(action.seat)
        else:
            why_not = simulator.tap_deck_card(action.seat)
        if why_not is not None:  # e.g. a real reader: say so where the person looks
            kiosk.table.announce(why_not, MessageKind.REFUSED, action.seat)
    elif isinstance(action, PressButton):
        kiosk.simulator.press(action.seat, action.button)
    elif isinstance(action, ChooseGame):
        seat = next((s.index for s in kiosk.config.seats if not s.bot), 0)
        while kiosk.table.selected != action.index:
            kiosk.simulator.press(seat, "next")
            kiosk.loop.drain()
    return True


# Inputs a person makes; status reports (a reader going offline) do not wake the table.
WAKING_INPUTS = (TagPresented, ButtonPressed, TossStarted)


@dataclass
class Turns:
    """The windowed loop's turns, with closing hours and a drifting attract screen.

    In the sleep window (``[display] sleep``) the attract screen goes dark and
    so do the LEDs; a tap or button wakes the table (and still counts as
    input). On the attract screen the picture wanders a few pixels over minutes.
    """

    kiosk: Kiosk
    sleeper: Sleeper
    sleeping: bool = False
    offset: tuple[int, int] = (0, 0)
    wall: Callable[[], dt.datetime] = dt.datetime.now  # injected in tests
    clock: Callable[[], float] = time.monotonic
    # Opening hours only on a synchronised clock: a Pi without RTC boots in the past.
    synced: Callable[[], bool] = clock_synchronised
    unsynced_said: bool = False

    def run(self, window: Window) -> bool:
        """One turn; False when the window was closed."""
        from display import screen_care

        kiosk = self.kiosk
        now = self.clock()
        attract = kiosk.table.screen is Screen.ATTRACT
        if attract and self.sleeper.asleep(self.wall(), now) and self._trust_clock():
            if not self.sleeping:
                self.sleeping = True
                screen_care.blank()
                kiosk.devices.leds.clear(kiosk.table.clock())
            woke = self._wait_for_wake()
            actions = window.poll()
            if woke or actions:
                self.sleeper.touch(self.clock())
            return all(apply_ui_action(kiosk, action) for action in actions)
        woke, self.sleeping = self.sleeping, False

        def show(view: TableView) -> object:
            if not attract:
                return (
                    window.show(view)
                    if not woke
                    else screen_care.show_offset(window, view, (0, 0), moved=True)
                )
            offset = drift(now)
            moved, self.offset = woke or offset != self.offset, offset
            return screen_care.show_offset(window, view, offset, moved)

        # Waits on the input queue until something is due, and at most the window's
        # poll interval, so clicks and keys are still looked at often enough.
        most = window.poll_interval(kiosk.table.view)
        kiosk.run_frame(show, window.next_frame_in, most)
        return all(apply_ui_action(kiosk, action) for action in window.poll())

    def _trust_clock(self) -> bool:
        """Whether the wall clock may darken the table (said once in the log when not)."""
        if self.synced():
            self.unsynced_said = False
            return True
        if not self.unsynced_said:
            self.unsynced_said = True
            logger.warning("opening hours: the clock is not synchronised yet (no NTP), so "
                           "the table stays lit rather than trust it")  # fmt: skip
        return False

    def status(self) -> str:
        """What the table is doing, for systemd's STATUS= (``systemctl status`` shows it)."""
        if self.sleeping:
            return "asleep (opening hours)"
        screen = self.kiosk.table.screen
        game = self.kiosk.table.game
        if game is not None and screen is Screen.PLAY:
            return f"playing {game.game_id}"
        if self.unsynced_said and screen is Screen.ATTRACT:
            return "attract screen (clock not synchronised: no sleep)"
        return f"{screen.value} screen"

    def _wait_for_wake(self) -> bool:
        """Wait a while for input, hand all of it to the table; True if a person did something."""
        woke = False
        # Asleep, the table only waits for a tap or a press: a quarter of a second
        # keeps the window answering the system and the watchdog fed.
        timeout: float | None = SLEEP_WAIT
        budget = self.kiosk.budget
        while True:
            try:
                event = self.kiosk.events.get(timeout=timeout)
            except queue.Empty:
                return woke
            if isinstance(event, Wakeup):  # a stop signal
                return woke
            if timeout == SLEEP_WAIT:
                budget.start()  # the budget bounds the work, not the wait for the first input
            self.kiosk.table.handle(event)
            budget.spend()
            woke = woke or isinstance(event, WAKING_INPUTS)
            if not budget.allows():
                return woke  # the rest next turn: the watchdog is fed in between
            timeout = 0.001  # then only what is already queued (status reports come in bursts)


def check_durable(args: argparse.Namespace, config: TableConfig, folder: Path) -> None:
    """``[journal] require_durable``: refuse a journal folder that a power cut empties."""
    if config.journal.require_durable and not args.no_journal:
        journal = journal_file(args, folder)
        require_durable(journal.parent if journal is not None else folder)


def run(args: argparse.Namespace) -> int:
    """``kiosk`` subcommand: choose headless or windowed, and turn failures into one line and
    an exit status with a meaning (``controller.kiosk.exit_codes``).

    SIGTERM, SIGINT and SIGHUP stop it cleanly from here on, in every mode.
    """
    with StopSignals() as stop:
        try:
            return run_until_stopped(args, stop)
        except ConfigError as exc:
            terminal_words.complain(args, "kiosk", exc.text)
            return int(ExitCode.CONFIG)
        except HardwareConfigError as exc:  # a bad pin map or pixel range in table.toml
            terminal_words.complain(args, "kiosk", str(exc))
            return int(ExitCode.CONFIG)
        except (JournalDiskFull, JournalLocked) as exc:
            # A full disk, or a journal another process holds: the game in the journal is
            # untouched, and a later start resumes it.
            terminal_words.complain(args, "kiosk", exc.text)
            return int(ExitCode.TEMPORARY)
        except TableError as exc:
            terminal_words.complain(args, "kiosk", exc.text)
            return int(ExitCode.CONFIG)
        except (HardwareError, DisplayFailed) as exc:
            terminal_words.complain(args, "kiosk", str(exc))
            return int(ExitCode.DEVICE)


def run_until_stopped(args: argparse.Namespace, stop: StopSignals) -> int:
    """The kiosk's run: headless or windowed; under systemd, wait for a display that is
    not there yet (the DRM driver still loading at boot) rather than exit."""
    config = load(Path(args.config)) if args.config else TableConfig.simulated()
    config = with_window_options(config, args)
    if not args.headless and Notifier().enabled:
        # Under systemd a bot demo would end and restart for ever: wait for the screen.
        check_durable(args, config, config.records)
        from display import probe

        if not wait_for_display(stop, Notifier(), probe.sdl_display_problem):
            logger.warning("stopped on %s while waiting for the display", stop.requested)
            return int(ExitCode.STOPPED)
        return windowed(args, config, stop)
    headless = args.headless or not display_available()
    check_durable(args, config, Path(args.out) if headless else config.records)
    if headless:
        if not args.headless:
            print(
                terminal_words.presenter(args)(
                    say("No display found: bots play one game headless.")
                ),
                file=sys.stderr,
            )
        return headless_demo(args, config, stop)
    return windowed(args, config, stop)


def with_window_options(config: TableConfig, args: argparse.Namespace) -> TableConfig:
    """The configuration with --size / --fullscreen / --windowed applied to its [display]."""
    display = config.display
    if args.size:
        width, _, height = args.size.lower().partition("x")
        if not (width.isdigit() and height.isdigit()):
            raise ConfigError(
                say(
                    "--size {size}: give the window size as WIDTHxHEIGHT, e.g. 1920x1080",
                    size=Verbatim(one_line(args.size)),
                )
            )
        if not 320 <= int(width) <= 7680 or not 240 <= int(height) <= 4320:
            raise ConfigError(
                say(
                    "--size {size}: width 320..7680 and height 240..4320",
                    size=Verbatim(one_line(args.size)),
                )
            )
        display = replace(display, width=int(width), height=int(height))
    if args.fullscreen or args.windowed:
        display = replace(display, fullscreen=bool(args.fullscreen))
    return replace(config, display=display)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="table.toml (default: all simulated)")
    parser.add_argument(
        "--size",
        metavar="WxH",
        help="window size in pixels, e.g. 1920x1080 (default: [display] width and height "
        "of --config, else 1280x720); PNGs of the headless game are drawn at this size",
    )
    screen = parser.add_mutually_exclusive_group()
    screen.add_argument(
        "--fullscreen",
        action="store_true",
        help="fill the screen at its own resolution (default: [display] fullscreen, else off)",
    )
    screen.add_argument(
        "--windowed", action="store_true", help="a window, even if --config says full screen"
    )
    parser.add_argument("--headless", action="store_true", help="bots play one game, no window")
    parser.add_argument("--game", default="oshaka-trick", help="the game bots play headless")
    parser.add_argument("--players", type=int, default=4, help="seats in the headless game")
    parser.add_argument("--seed", type=int, default=None, help="seed for deals and bots")
    parser.add_argument(
        "--out",
        default=str(DEMO_OUT),
        help="folder for the headless PNG, record and journal, made if missing (history, "
        "export and recover find it there)",
    )
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
