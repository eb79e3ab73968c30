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

import contextlib
import logging
import queue
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from controller.config.table_config import TableConfig
from controller.games.words import Text, Verbatim, say
from controller.kiosk.devices import Devices, build
from controller.kiosk.disk_full import HALTED, DiskFullHalt
from controller.kiosk.garbage import GarbagePacer
from controller.kiosk.loop_load import LoopLoad
from controller.kiosk.resume import resume_cut_if_pending, resume_if_unfinished
from controller.kiosk.sd_notify import Notifier
from controller.kiosk.simulation import Simulator
from controller.kiosk.stop_signals import StopSignals
from controller.records.files import save_finished_record, write_missing_records
from controller.records.history import DESK_HISTORY, history_table, summaries
from controller.records.journal import Journal, JournalDiskFull
from controller.records.retention import JournalUpkeep
from controller.table import SoundSink, Table, TableLoop, TurnBudget
from controller.tags.pin_lock import lock_left
from controller.tags.registry import TagRegistry, simulated
from controller.view import Screen, TableView
from controller.words import Presenter
from controller.words.commands import command
from controller.words.terminal import table_language
from hardware.events import (
    ButtonPressed,
    ButtonReleased,
    InputEvent,
    TagPresented,
    TagRemoved,
    TossCancelled,
    TossStarted,
    TossStopped,
    Wakeup,
)

if TYPE_CHECKING:
    pass

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

# What a person does at the table: dropped while a full disk halts play (the journal could
# not keep it). The readers' and wiring's status still reaches the table.
PLAYS = (
    TagPresented,
    TagRemoved,
    ButtonPressed,
    ButtonReleased,
    TossStarted,
    TossStopped,
    TossCancelled,
)


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
    # Play halted on a full disk (with a journal), and when to look for room again.
    disk_full: DiskFullHalt | None = None
    # Old games leave the journal after [journal] retention, a little at a time while idle.
    upkeep: JournalUpkeep | None = None

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
        sounds: SoundSink | None = None,
    ) -> Kiosk:
        """Build the kiosk; with ``journal_path`` every accepted input is journaled first
        and an unfinished game found there is resumed by ``resume()``. ``config_path``
        (the table.toml it was loaded from) goes into the commands the kiosk prints
        and to the café connection. ``can_quit``: the staff desk offers "Stop the kiosk"
        (a locked-down window, which players cannot close). ``sounds``: the speakers
        (None: a silent table, as in the headless demo and the tests)."""
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
                elapsed=None if journal is None else journal.playing_elapsed,
            )
        table = Table(
            config,
            registry,
            leds=devices.leds,
            sounds=sounds,
            rng=random.Random(rng.random()),
            on_record=save_record,
            journal=journal,
            history=None
            if journal is None
            else lambda: history_table(
                summaries(journal, latest=DESK_HISTORY),
                Presenter(table_language(config), domain="staff"),
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
        if journal is not None:
            kiosk.disk_full = DiskFullHalt(journal.path.parent, kiosk.resume)
            kiosk.upkeep = JournalUpkeep(
                journal, config.journal.retention, hub=config.cafe is not None
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
        """Resume the journal's unfinished game, if any, else a cut for the deal a crash
        interrupted; staff see any problem found. Whether a game resumed."""
        if self.journal is None:
            return False
        write_missing_records(self.journal, self.records_dir)
        resumed = resume_if_unfinished(self.journal, self.table)
        if resumed is None:
            resume_cut_if_pending(self.journal, self.table)  # no game yet: a cut, maybe
        for notice in self.journal.notices:
            logger.error("%s", notice)
            self.table.staff_notice(notice)
        return resumed is not None

    @property
    def halted(self) -> bool:
        """Whether play is halted on a full disk (see ``controller.kiosk.disk_full``)."""
        return self.disk_full is not None and self.disk_full.halted

    @property
    def view(self) -> TableView:
        """What the display shows: the table's view, with the halt said at the centre."""
        view = self.table.view
        if not self.halted:
            return view
        # A version no table view has (they count up from 0), so the display draws it,
        # and draws the table's own view again when the halt ends.
        return replace(view, halted=HALTED, version=-1 - view.version)

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
        if self.disk_full is not None and self.disk_full.halted:
            self._halted_turn(self.disk_full, most)
            show(self.view)
            return
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
            try:
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
            except JournalDiskFull as problem:
                if self.disk_full is None:
                    raise
                self.disk_full.halt(problem)
            now = self.table.clock()
            self.devices.leds.tick(now)
            self.after_turn()
            show(self.view)

    def _halted_turn(self, halt: DiskFullHalt, most: float) -> None:
        """A turn while a full disk halts play: wait, drop plays, look for room now and then."""
        try:
            event: InputEvent | None = self.events.get(timeout=min(most, halt.wait()))
        except queue.Empty:
            event = None
        while event is not None and not isinstance(event, Wakeup):
            if not isinstance(event, PLAYS):
                with contextlib.suppress(JournalDiskFull):  # halted already
                    self.table.handle(event)  # a reader's or a wire's status, not a play
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                event = None
        if not self.stop_requested:
            halt.look()
        self.devices.leds.tick(self.table.clock())

    def after_turn(self) -> None:
        """What else a turn of the loop owes: the café hears of changes (with [cafe]), and
        the journal's upkeep takes its small step while the table is idle."""
        if self.cafe is not None:
            self.cafe.after_turn(self.table)
        if self.upkeep is not None:
            self.upkeep.run(idle=self.table.screen is Screen.ATTRACT)


def restore_pin_lock(table: Table, journal: Journal) -> None:
    """Lock the staff PIN again for what is left of a lock journaled before a restart."""
    left = lock_left(journal.staff_events(), journal.time.stamp())
    if left > 0 and table.lock_staff_pin(left):
        logger.warning("the staff PIN stays locked for %.0f s more (locked before the restart)",
                       left)  # fmt: skip


def stopped_words(kiosk: Kiosk) -> str:
    """The one log line of a stop by signal, said once everything is closed."""
    playing = kiosk.table.game is not None
    kept = "; the game in progress is kept and resumes at the next start" if playing else ""
    return f"stopped on {kiosk.stop_requested}: journal closed, LEDs dark, readers closed{kept}"
