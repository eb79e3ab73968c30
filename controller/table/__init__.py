"""The table: attract, choose a game, seats join, play, results; made of small parts.

One loop owns all state. Hardware threads only put typed input events
(``hardware.events``) on one queue; ``TableLoop`` takes them off and hands
each to ``Table.handle``. ``Table`` keeps the current screen and the parts
(a ``ScreenContext``); each input goes to the current screen with the
context, and the screen answers with the next screen. ``Table`` alone
changes which screen is current. The parts, one small module each (the
screens, the input routing, the lobby, starting and playing a game, staff
mode and the staff desk's door, the outputs, the pages, the languages, the
readers, the view builder, the loop), are listed in docs/architecture.md,
"The table in parts".

The game's adapter turns seat input into engine actions, and engine events
into messages and LED cues; nothing downstream re-derives the rules.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from controller.adapters import adapter_for
from controller.config.table_config import TableConfig
from controller.games import specs
from controller.games.base import JSON, TableError
from controller.games.words import Verbatim, Words, say
from controller.table.context import ScreenContext
from controller.table.inputs import HANDLERS, InputParts, call_closed
from controller.table.languages import SeatLanguages
from controller.table.led_director import LedDirector
from controller.table.lobby import Lobby, MenuEntry, menu_entries, unmet_requirement
from controller.table.loop import TableLoop
from controller.table.outputs import Outputs
from controller.table.pages import HELP_SECONDS, Pages
from controller.table.readers import ReaderStatus
from controller.table.screens import (
    IDLE_TIMEOUT,
    RESULTS_TIMEOUT,
    STAFF_TIMEOUT,
    AttractScreen,
    Next,
    PlayScreen,
    ScreenState,
    StaffDeskScreen,
    resolve,
    resumed_cut,
    undone,
)
from controller.table.session import GameSession, table_settings
from controller.table.sinks import JournalSink, LedSink, SoundSink
from controller.table.sound_director import SoundDirector
from controller.table.staff_calls import StaffCalls
from controller.table.staff_door import StaffDoor, pin_guard
from controller.table.staff_mode import TIMED_OUT, StaffMode
from controller.table.turn_budget import TurnBudget
from controller.table.view_builder import table_view
from controller.tags.registry import TagRegistry
from controller.tags.staff_desk import StaffDesk
from controller.view import Message, MessageKind, Screen, TableView
from hardware.events import InputEvent

__all__ = [
    "HELP_SECONDS",
    "IDLE_TIMEOUT",
    "RESULTS_TIMEOUT",
    "STAFF_TIMEOUT",
    "GameSession",
    "JournalSink",
    "LedSink",
    "MenuEntry",
    "SoundDirector",
    "SoundSink",
    "Table",
    "TableLoop",
    "TurnBudget",
    "menu_entries",
    "unmet_requirement",
]

logger = logging.getLogger(__name__)

ANIMATION_STEP = 0.1  # seconds between views while a clock runs on screen


@dataclass
class Table:
    """The state machine. Feed it input events with ``handle``; read ``view``.

    The constructor's fields are how the kiosk wires the table in; after
    construction only the table changes its state (``reconfigure`` for the
    hub's settings, ``name_seats`` for nicknames the hub kept).
    """

    config: TableConfig
    registry: TagRegistry
    leds: LedSink | None = None
    sounds: SoundSink | None = None  # the speakers (None: a silent table)
    rng: random.Random = field(default_factory=random.Random)
    clock: Callable[[], float] = time.monotonic
    on_record: Callable[[str, str], None] | None = None  # (game id, record text) at game end
    journal: JournalSink | None = None
    # The finished games as rows of cells, column names first, for the staff desk.
    history: Callable[[], list[tuple[str, ...]]] | None = None
    # A call for staff opened (True) or answered at the table (False): (call id, seat, opened).
    on_staff_call: Callable[[str, int, bool], None] | None = None
    # Where wrong staff PINs and PIN locks are journaled: (event, detail).
    staff_log: Callable[[str, JSON], None] | None = None
    can_quit: bool = False  # the staff desk offers "Stop the kiosk" (a locked-down window)
    # Shown on the attract screen until it is dealt with, e.g. how to enroll the
    # first staff tag of a table whose registry has none.
    setup_notice: Words | None = None

    def __post_init__(self) -> None:
        # The specs only: a game's table side and rules are imported when it is played.
        self._games = specs()
        # ``clock`` is read at each use, not kept: the kiosk's tests and benchmarks give
        # the table ``Kiosk.create`` made a fake clock afterwards (``create`` takes none).
        clock: Callable[[], float] = lambda: self.clock()  # noqa: E731
        leds = self.leds
        seats = [seat.index for seat in self.config.seats]
        guard = pin_guard(self.config, clock, self.staff_log)
        readers = ReaderStatus(seats)
        self._ctx = ScreenContext(
            config=self.config,
            registry=self.registry,
            lobby=Lobby(menu_entries(self._games, self.config)),
            out=Outputs(
                LedDirector(lambda: leds, clock, seats),
                SoundDirector(
                    lambda: self.sounds,
                    lambda: self.config.sound,
                    [seat.index for seat in self.config.seats if not seat.bot],
                ),
            ),
            languages=SeatLanguages(),
            staff=StaffMode(clock, guard, self.config.staff.undo_needs_pin),
            calls=StaffCalls(),
            door=StaffDoor(self.registry, guard, self.history, can_quit=self.can_quit),
            rng=self.rng,
            journal=self.journal,
            on_record=self.on_record,
            setup_notice=self.setup_notice,
            reader_online=lambda seat: readers.online().get(seat, True),
        )
        self._parts = InputParts(Pages(), readers, clock, self.on_staff_call)
        self._state: ScreenState = AttractScreen()
        self._view: TableView | None = None
        self._animated_at = 0.0
        self.last_activity = self.clock()
        self._go(AttractScreen())

    # --- what the table shows (read only) --------------------------------------------------

    @property
    def screen(self) -> Screen:
        return self._state.screen

    @property
    def game(self) -> GameSession | None:
        """The game in progress (or just finished), if any."""
        return self._state.session

    @property
    def result(self) -> JSON | None:
        """The finished game's report, on the results screen."""
        return self._state.result

    @property
    def messages(self) -> list[Message]:
        return self._ctx.out.messages

    @property
    def joined(self) -> list[int]:
        return list(self._ctx.lobby.joined)

    @property
    def selected(self) -> int:
        return self._ctx.lobby.selected

    @property
    def staff_seat(self) -> int | None:
        """The seat where staff tapped their tag during the game, if any."""
        return self._ctx.staff.seat

    @property
    def staff_desk(self) -> StaffDesk | None:
        """The open staff desk, if any (the simulator taps the card it asks for)."""
        state = self._state
        return state.desk if isinstance(state, StaffDeskScreen) else None

    @property
    def quit_requested(self) -> bool:
        """Staff chose "Stop the kiosk" on the staff desk."""
        return self._ctx.door.quit_requested

    @property
    def version(self) -> int:
        """Grows by one with every change of the view."""
        return self._ctx.out.version

    def language_of(self, seat: int | None) -> str:
        """The language of ``seat``'s panel (None: the shared centre's, the table's)."""
        return self._ctx.language_of(seat)

    @property
    def view(self) -> TableView:
        version = self._ctx.out.version
        if self._view is None or self._view.version != version:
            self._view = table_view(
                version, self._state, self._ctx, self._parts.pages, self._parts.readers
            )
        return self._view

    # --- input and time ----------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        """Take one input event off the queue and act on it."""
        handler = HANDLERS.get(type(event))
        if handler is None:
            logger.warning("ignoring an input event of unknown type %r", event)
            return
        self.last_activity = self.clock()
        self._go(handler(event, self._state, self._ctx, self._parts))
        self._ctx.out.sounds.flush(self.clock())

    def tick(self, now: float) -> None:
        """Time-driven changes: a running clock redraws; idle screens fall back to attract."""
        ctx, state = self._ctx, self._state
        screen = state.screen
        if self._parts.pages.tick(
            now, results=screen is Screen.RESULTS, attract=screen is Screen.ATTRACT
        ):
            ctx.out.changed()
        playing = state.playing
        if (
            playing is not None
            and playing.adapter.presentation.animating()
            and now - self._animated_at >= ANIMATION_STEP
        ):
            # A running clock: a new view ten times a second so the display follows.
            self._animated_at = now
            ctx.out.changed()
        if ctx.staff.timed_out(now):
            # Staff walked away: a player's press must never act with staff powers.
            staff_seat = ctx.staff.seat
            ctx.staff.close()
            ctx.out.say(TIMED_OUT, MessageKind.INFO, staff_seat)
        timeout = state.timeout
        if timeout is not None and now - self.last_activity > timeout:
            self._go(state.on_idle(ctx))
        ctx.out.sounds.flush(now)

    def _go(self, step: Next) -> None:
        """Make the screen ``step`` names current (None: stay), and whatever its entry leads to."""
        state = resolve(step)
        while state is not None:
            self._state = state
            if not state.keeps_messages:
                self._ctx.out.clear()
            self._ctx.out.changed()
            state = resolve(state.enter(self._ctx))

    # --- from outside the loop's inputs: the journal, staff, the café's hub ------------------

    def lock_staff_pin(self, seconds: float) -> bool:
        """Keep the staff PIN locked ``seconds`` more (a lock journaled before a restart).

        False when the table has no staff PIN, so there is nothing to lock.
        """
        guard = self._ctx.door.guard
        if guard is None:
            return False
        guard.locked_until = self.clock() + seconds
        return True

    def resume(
        self,
        game_id: str,
        players: list[int],
        header: JSON,
        actions: list[tuple[JSON, bool]],
        seed: int,
        languages: Mapping[int, str] | None = None,
        replays: Sequence[JSON] = (),
    ) -> None:
        """Rebuild a game in progress from its journal: same engine state, same seat waiting.

        ``languages`` are the seats' own languages journaled when the game began,
        so a resumed game shows every panel as before; ``replays`` the other seats'
        cards a take-back left waiting to be put back. Raises TableError if the
        journaled actions no longer replay (the caller moves such a journal aside);
        the table is then left as it was.
        """
        spec = self._games.get(game_id)
        if spec is None:
            raise TableError(
                say(
                    "the journal holds a game of {game}, which this table cannot run",
                    game=Verbatim(repr(game_id)),
                )
            )
        adapter_type = adapter_for(spec)
        session = GameSession.rebuild(
            adapter_type, players, header, actions, seed, table_settings(self.config), self.journal
        )
        self._ctx.lobby.seat_all(players)
        self._ctx.languages.restore(languages or {}, players)
        resumed = say("{game} resumed where it stopped", game=Verbatim(adapter_type.spec.title))
        try:
            self._go(PlayScreen(session, [resumed], replays=replays))
        except TableError:
            self._go(AttractScreen())
            raise

    def resume_cut(self, state: JSON) -> None:
        """Come back to a cut for the deal the journal kept (``Journal.pending_cut``): its
        lobby, options and cards cut. Raises ValueError (or KeyError, TypeError) when it
        does not fit this table; the table is then left as it was."""
        self._go(resumed_cut(self._ctx, state))

    def undo_last(self) -> bool:
        """Staff: take back the last action a player took (and any deal that followed it)."""
        state = self._state
        session = state.session
        if session is None or state.screen not in (Screen.PLAY, Screen.RESULTS):
            return False
        rebuilt = undone(self._ctx, session)
        self._go(rebuilt)
        return rebuilt is not None

    def reconfigure(self, config: TableConfig) -> None:
        """Settings pushed from the café's hub, applied between games (on the attract screen).

        The seats stay as they are: only settings that take effect at the next
        game (deal, dice, house options, opening hours) may change.
        """
        if self.screen is not Screen.ATTRACT:
            raise TableError(say("settings change between games only"))
        if [s.index for s in config.seats] != [s.index for s in self.config.seats]:
            raise TableError(say("the seats cannot be changed from afar"))
        self.config = self._ctx.config = config
        self._ctx.out.changed()

    def name_seats(self, names: Mapping[int, str]) -> None:
        """Nicknames for seats, e.g. those the hub kept for a game resumed after a restart."""
        for seat, nickname in names.items():
            self._ctx.lobby.name_seat(seat, nickname)
        if names:
            self._ctx.out.changed()

    def staff_call_answered(self, call: str) -> None:
        """Staff acknowledged the call ``call`` (on the café's dashboard): its seat rests again."""
        seat = self._ctx.calls.answer(call)
        if seat is not None:
            call_closed(self._ctx, self._state, seat)

    def announce(
        self, text: Words, kind: MessageKind = MessageKind.INFO, seat: int | None = None
    ) -> None:
        """Add a line of explanation (the latest few stay on screen)."""
        self._ctx.out.say(text, kind, seat)

    def staff_notice(self, text: Words) -> None:
        """Show staff a problem the table found on its own (e.g. a damaged journal moved aside)."""
        self.announce(text, MessageKind.PROBLEM)
