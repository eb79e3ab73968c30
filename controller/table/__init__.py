"""The table: attract, choose a game, seats join, play, results; made of small parts.

One loop owns all state. Hardware threads only put typed input events
(``hardware.events``) on one queue; ``TableLoop`` takes them off and hands
each to ``Table.handle``. ``Table`` composes the parts and is the only one
that changes which part is current:

| part | module | holds |
| --- | --- | --- |
| screen states | ``screens`` | what a tag, button or timer means on each screen |
| lobby | ``lobby`` | the menu (from the game specs) and the joined seats |
| game session | ``session`` | engine, adapter, record, seat map, seed; act, deal, undo |
| staff mode | ``staff_mode`` | which seat staff use during a game, and what a press means |
| LED director | ``led_director`` | each seat's resting colour and the flashes on top |
| view builder | ``view_builder`` | the immutable ``TableView`` the display draws |

The game's adapter turns seat input into engine actions, and engine events
into messages and LED cues; nothing downstream re-derives the rules.
"""

from __future__ import annotations

import logging
import math
import queue
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from controller.adapters import Feedback, GameAdapter, adapters
from controller.config import TableConfig
from controller.games.base import JSON, Action, Event, TableError
from controller.games.interned import forget_interned
from controller.games.words import Player, Seat, Text, Verbatim, Words, as_arg, say
from controller.staff import StaffDesk
from controller.staff_pin import PinGuard, PinHash
from controller.table.led_director import LedDirector
from controller.table.lobby import Lobby, MenuEntry, menu_entries, unmet_requirement
from controller.table.options import OptionsForm
from controller.table.readers import offline_words
from controller.table.screens import (
    IDLE_TIMEOUT,
    RESULTS_TIMEOUT,
    STAFF_TIMEOUT,
    AttractScreen,
    ChooseGameScreen,
    JoinScreen,
    OptionsScreen,
    PlayScreen,
    ResultsScreen,
    ScreenState,
    StaffDeskScreen,
    StarterScreen,
)
from controller.table.session import GameSession, table_settings
from controller.table.sinks import JournalSink, LedSink
from controller.table.staff_calls import StaffCalls
from controller.table.staff_mode import TIMED_OUT, StaffCommand, StaffMode
from controller.table.view_builder import build_view, rules_page
from controller.tags import TagRegistry
from controller.turn_budget import TurnBudget
from controller.view import Message, MessageKind, Screen, TableView
from controller.words.catalogs import LANGUAGE_NAMES, LANGUAGES
from hardware.cues import Cue
from hardware.events import (
    ButtonPressed,
    ButtonReleased,
    InputEvent,
    Offline,
    ReaderFlooding,
    ReaderOffline,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
    TimerEvent,
    TossCancelled,
    TossStarted,
    TossStopped,
    Wakeup,
    WiringProblem,
)

__all__ = [
    "IDLE_TIMEOUT",
    "RESULTS_TIMEOUT",
    "STAFF_TIMEOUT",
    "GameSession",
    "JournalSink",
    "LedSink",
    "MenuEntry",
    "Table",
    "TableLoop",
    "menu_entries",
    "unmet_requirement",
]

logger = logging.getLogger(__name__)

MESSAGE_LIMIT = 6
ANIMATION_STEP = 0.1  # seconds between views while a clock runs on screen
HELP_HOLD = 1.0  # seconds OK is held down for a seat's rules page
HELP_SECONDS = 25.0  # a rules page closes by itself after this long
RESULTS_PAGE_SECONDS = 6.0  # the results' rounds turn a page by themselves when they do not fit


def names_seat(text: Text, seat: int, players: tuple[int, ...]) -> bool:
    """Whether ``text`` is said of physical ``seat``: its sentence starts with that seat.

    "{player} cannot play {card}: ..." with the player sitting at ``seat`` is; "cannot
    play {card}: ... ({player} bids next)" is not, even when that player sits there.
    The English key decides, so every language gets the same prefix or none.
    """
    if not text.key.startswith("{"):
        return False
    first = text.key[1:].split("}", 1)[0]
    value = dict(text.args).get(first)
    if value == Seat(seat):
        return True
    if isinstance(value, Player):
        where = players[value.index] if 0 <= value.index < len(players) else value.index
        return where == seat
    return False


@dataclass
class Table:
    """The state machine. Feed it input events with ``handle``; read ``view``."""

    config: TableConfig
    registry: TagRegistry
    leds: LedSink | None = None
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
        self.games = adapters()
        self.lobby = Lobby(menu_entries(self.games))
        self._state: ScreenState = AttractScreen()
        self._session: GameSession | None = None
        self._result: JSON | None = None
        self._options: JSON = {}  # the options chosen for the game about to begin
        self._messages: list[Message] = []
        self._reader_online = {seat.index: True for seat in self.config.seats}
        self.pin_guard = self._pin_guard()
        self._staff = StaffMode(
            lambda: self.clock(), self.pin_guard, self.config.staff.undo_needs_pin
        )
        self.quit_requested = False
        self._calls = StaffCalls()
        self._leds = LedDirector(lambda: self.leds, lambda: self.clock(), self.seat_indexes)
        self._version = 0
        self._view: TableView | None = None
        self._animated_at = 0.0
        self._results_page = 0  # which page of rounds the results screen shows
        self._ok_down: dict[int, float] = {}  # seat -> when its OK went down (event time)
        self._help: dict[int, tuple[str, float]] = {}  # seat -> (game id, closes at)
        # Seats that switched their panel's language at the join screen: seat -> language.
        # They hold until the table returns to attract (and are journaled with a game).
        self._languages: dict[int, str] = {}
        self._page_at = 0.0
        self.last_activity = self.clock()
        self._rest_leds()
        if self.setup_notice:
            self.announce(self.setup_notice, MessageKind.PROBLEM)

    # --- what the table shows (read only) --------------------------------------------------

    @property
    def screen(self) -> Screen:
        return self._state.screen

    @property
    def game(self) -> GameSession | None:
        """The game in progress (or just finished), if any."""
        return self._session

    @property
    def result(self) -> JSON | None:
        """The finished game's report, on the results screen."""
        return self._result

    @property
    def messages(self) -> list[Message]:
        return list(self._messages)

    @property
    def joined(self) -> list[int]:
        return list(self.lobby.joined)

    @property
    def selected(self) -> int:
        return self.lobby.selected

    @property
    def menu(self) -> list[MenuEntry]:
        return self.lobby.menu

    @property
    def staff_seat(self) -> int | None:
        """The seat where staff tapped their tag during the game, if any."""
        return self._staff.seat

    @property
    def reader_online(self) -> dict[int, bool]:
        return dict(self._reader_online)

    @property
    def version(self) -> int:
        """Grows by one with every change of the view."""
        return self._version

    @property
    def seat_indexes(self) -> list[int]:
        return [seat.index for seat in self.config.seats]

    def player_of(self, seat: int) -> int | None:
        return None if self._session is None else self._session.player_at(seat)

    @property
    def view(self) -> TableView:
        if self._view is None:
            state = self._state
            self._view = build_view(
                version=self._version,
                screen=state.screen,
                config=self.config,
                lobby=self.lobby,
                session=self._session,
                result=self._result,
                messages=self._messages,
                buttons=state.hints(self),
                reader_online=self._reader_online,
                staff=state.desk.view() if isinstance(state, StaffDeskScreen) else None,
                staff_overlay=self._staff.overlay() if state.screen is Screen.PLAY else None,
                prompt=state.prompt if isinstance(state, StarterScreen) else None,
                options=[(line.label, line.value, line.explanation) for line in state.form.lines()]
                if isinstance(state, OptionsScreen)
                else (),
                options_cursor=state.form.cursor if isinstance(state, OptionsScreen) else 0,
                results_page=self._results_page,
                help={seat: rules_page(game_id) for seat, (game_id, _) in self._help.items()},
                seat_languages=self._languages,
            )
        return self._view

    # --- input -------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        """Take one input event off the queue and act on it."""
        handler = self._HANDLERS.get(type(event))
        if handler is None:
            logger.warning("ignoring an input event of unknown type %r", event)
            return
        self.last_activity = self.clock()
        handler(self, event)

    def _on_tag(self, event: InputEvent) -> None:
        assert isinstance(event, TagPresented)
        if event.seat in self._calls.calling and self.is_staff_tag(event.uid):
            call = self._calls.answer_seat(event.seat)
            if call is not None:
                self._call_closed(event.seat)
                if self.on_staff_call is not None:
                    self.on_staff_call(call, event.seat, False)
        self._state.on_tag(self, event.seat, event.uid)

    def _on_button(self, event: InputEvent) -> None:
        assert isinstance(event, ButtonPressed)
        self._calls.pressed(event.seat, event.button, event.at)
        if event.button == "ok":
            self._ok_down[event.seat] = event.at
        self._state.on_button(self, event.seat, event.button)

    def _on_release(self, event: InputEvent) -> None:
        # Presses act on the way down; a release matters only when it ends a long hold
        # of OK: three seconds call for staff (controller/table/staff_calls.py), one
        # second opens the seat's rules page. (The press itself has already counted,
        # so hold OK when it is not your turn.)
        assert isinstance(event, ButtonReleased)
        down = self._ok_down.pop(event.seat, None) if event.button == "ok" else None
        call = self._calls.released(event.seat, event.button, event.at)
        if call is not None:
            self.announce(
                say("{seat} called for staff; someone is on the way", seat=Seat(event.seat)),
                MessageKind.INFO,
                event.seat,
            )
            self._rest_leds()
            if self.on_staff_call is not None:
                self.on_staff_call(call, event.seat, True)
        elif down is not None and event.at - down >= HELP_HOLD:
            self.show_help(event.seat)

    def show_help(self, seat: int) -> None:
        """Open the rules page of the game in progress (or chosen on the menu) at ``seat``."""
        if self._session is not None:
            game_id = self._session.game_id
        elif self.screen in (Screen.CHOOSE_GAME, Screen.JOIN, Screen.OPTIONS, Screen.STARTER):
            game_id = self.lobby.chosen.spec.id
        else:
            return
        self._help[seat] = (game_id, self.clock() + HELP_SECONDS)
        self.changed()

    def reconfigure(self, config: TableConfig) -> None:
        """Settings pushed from the café's hub, applied between games (on the attract screen).

        The seats stay as they are: only settings that take effect at the next
        game (deal, dice, house options, opening hours) may change.
        """
        if self.screen is not Screen.ATTRACT:
            raise TableError(say("settings change between games only"))
        if [s.index for s in config.seats] != [s.index for s in self.config.seats]:
            raise TableError(say("the seats cannot be changed from afar"))
        self.config = config
        self.changed()

    def staff_call_answered(self, call: str) -> None:
        """Staff acknowledged the call ``call`` (on the café's dashboard): its seat rests again."""
        seat = self._calls.answer(call)
        if seat is not None:
            self._call_closed(seat)

    def _call_closed(self, seat: int) -> None:
        self.announce(
            say("Staff answered the call of {seat}", seat=Seat(seat)), MessageKind.INFO, seat
        )
        self._rest_leds()

    def _on_timer(self, event: InputEvent) -> None:
        assert isinstance(event, TossStarted | TossStopped | TossCancelled)
        timer_event: TimerEvent = event
        self._state.on_timer(self, timer_event)

    def _ignore(self, event: InputEvent) -> None:
        # A tap is the tag arriving: the card taken away changes nothing.
        return

    def _on_reader_online(self, event: InputEvent) -> None:
        assert isinstance(event, ReaderOnline)
        if not self._reader_online.get(event.seat, True):
            self.announce(
                say("The reader of {seat} is back", seat=Seat(event.seat)),
                MessageKind.INFO,
                event.seat,
            )
        self._reader_online[event.seat] = True
        self.changed()

    def _on_reader_offline(self, event: InputEvent) -> None:
        assert isinstance(event, ReaderOffline)
        self._reader_online[event.seat] = False
        if event.kind != Offline.CLOSED:
            # The hardware's reason is an English log line (with seats counted from 0).
            logger.warning("seat %d reader offline: %s", event.seat, event.reason)
            self.announce(offline_words(event.seat, event.kind), MessageKind.PROBLEM, event.seat)
        self.changed()

    def _on_reader_problem(self, event: InputEvent) -> None:
        assert isinstance(event, ReaderProblem)
        logger.warning("seat %d reader: %s", event.seat, event.message)
        self.announce(
            say("{seat}: the reader misread; tap the card again", seat=Seat(event.seat)),
            MessageKind.PROBLEM,
            event.seat,
        )

    def _on_reader_flooding(self, event: InputEvent) -> None:
        assert isinstance(event, ReaderFlooding)
        logger.warning("seat %d reader sends tags faster than %g a second: its taps are "
                       "ignored until it calms down", event.seat, event.rate)  # fmt: skip
        self.announce(
            say(
                "The reader of {seat} sends taps far too fast (a fault?); they are ignored "
                "until it calms down: ask staff",
                seat=Seat(event.seat),
            ),
            MessageKind.PROBLEM,
            event.seat,
        )

    def _on_wiring_problem(self, event: InputEvent) -> None:
        assert isinstance(event, WiringProblem)
        where = "the toss timer" if event.seat is None else f"seat {event.seat}'s {event.device}"
        logger.warning("%s keeps chattering: check its wiring", where)
        if event.seat is None:
            text = say("The toss timer's contact keeps chattering: check its wiring; ask staff")
        else:
            text = say(
                "A button of {seat} keeps chattering: check its wiring; ask staff",
                seat=Seat(event.seat),
            )
        self.announce(text, MessageKind.PROBLEM, event.seat)

    _HANDLERS: ClassVar[dict[type, Callable[[Table, InputEvent], None]]] = {
        TagPresented: _on_tag,
        TagRemoved: _ignore,
        ButtonPressed: _on_button,
        ButtonReleased: _on_release,
        ReaderOnline: _on_reader_online,
        ReaderOffline: _on_reader_offline,
        ReaderProblem: _on_reader_problem,
        ReaderFlooding: _on_reader_flooding,
        WiringProblem: _on_wiring_problem,
        TossStarted: _on_timer,
        TossStopped: _on_timer,
        TossCancelled: _on_timer,
    }

    # --- moving between screens (called by the screen states) ---------------------------------

    def _go(self, state: ScreenState, *, clear_messages: bool = True) -> None:
        self._state = state
        if clear_messages:
            self._messages = []
        self.changed()

    def to_menu(self) -> None:
        self.lobby.clear()
        self._go(ChooseGameScreen())
        self.announce(say("Choose a game: PREV / NEXT, then OK"))

    def to_attract(self) -> None:
        self._session = None
        # No game is in progress: what the engines interned for it goes (a pure cache).
        forget_interned()
        self._languages = {}  # a seat's language holds until the table rests again
        self._result = None
        self._staff.close()
        self.lobby.clear()
        self._go(AttractScreen())
        self._rest_leds()
        if self.setup_notice:
            self.announce(self.setup_notice, MessageKind.PROBLEM)

    def open_desk(self, seat: int) -> None:
        """The staff desk, opened by a staff tag at ``seat`` on the attract screen.

        With a staff PIN the desk first asks for it; while the PIN is locked
        after wrong tries the desk does not open at all.
        """
        guard = self.pin_guard
        if guard is not None and guard.locked_for() > 0:
            self.announce(
                say(
                    "The staff PIN is locked for {seconds} s after wrong tries; "
                    "the staff desk stays closed",
                    seconds=math.ceil(guard.locked_for()),
                ),
                MessageKind.PROBLEM,
                seat,
            )
            return
        desk = StaffDesk(
            seat, self.registry, self.config.tags, self.history, guard=guard, can_quit=self.can_quit
        )
        self._go(StaffDeskScreen(desk))

    def close_desk(self, desk: StaffDesk) -> None:
        """The desk closed itself: back to attract, saying why, or stop the kiosk."""
        if desk.quit:
            self.quit_requested = True
        self.to_attract()
        if desk.farewell:
            self.announce(desk.farewell, MessageKind.PROBLEM, desk.seat)

    def _pin_guard(self) -> PinGuard | None:
        staff = self.config.staff
        if staff.pin_hash is None:
            return None

        def report(event: str, detail: dict[str, object]) -> None:
            logger.warning("staff PIN: %s %s", event, detail)
            if self.staff_log is not None:
                self.staff_log(event, dict(detail))

        return PinGuard(
            PinHash.parse(staff.pin_hash),
            lambda: self.clock(),
            tries=staff.tries,
            lockout=staff.lockout,
            report=report,
        )

    @property
    def staff_desk(self) -> StaffDesk | None:
        """The open staff desk, if any (the simulator taps the card it asks for)."""
        state = self._state
        return state.desk if isinstance(state, StaffDeskScreen) else None

    def staff_notice(self, text: Words) -> None:
        """Show staff a problem the table found on its own (e.g. a damaged journal moved aside)."""
        self.announce(text, MessageKind.PROBLEM)

    def move_menu(self, step: int) -> None:
        self.lobby.move(step)
        self.changed()

    def choose_game(self, seat: int) -> None:
        """OK on the menu: the join screen for the chosen game, unless the table cannot run it."""
        chosen = self.lobby.chosen
        unmet = unmet_requirement(chosen.spec, self.config)
        if unmet is not None:
            self.announce(unmet, MessageKind.REFUSED, seat)
            return
        self.lobby.clear()
        self._go(JoinScreen())
        self.announce(
            say(
                "{game}: press OK at your seat to join ({low}-{high} players); NEXT starts",
                game=as_arg(chosen.title),
                low=chosen.spec.min_players,
                high=chosen.spec.max_players,
            )
        )
        self.join(seat)

    def join(self, seat: int) -> None:
        """A seat joins the chosen game (nothing happens if it already has)."""
        if self.lobby.join(seat):
            self._leds.steady(seat, Cue.JOINED)
            self.changed()

    def language_of(self, seat: int | None) -> str:
        """The language of ``seat``'s panel (None: the shared centre's, the table's)."""
        table = self.config.language
        return table if seat is None else self._languages.get(seat, table)

    def switch_language(self, seat: int) -> None:
        """A seat's panel switches to the next language (English, Deutsch, 日本語, round).

        The choice holds for that seat until the table returns to attract; the
        shared centre keeps the table's language.
        """
        language = next_language(self.language_of(seat))
        if language == self.config.language:
            self._languages.pop(seat, None)
        else:
            self._languages[seat] = language
        self.announce(
            say(
                "{seat} reads {language}",
                seat=Seat(seat),
                language=Verbatim(LANGUAGE_NAMES[language]),
            ),
            MessageKind.INFO,
            seat,
        )

    def _journal_languages(self) -> None:
        """Journal the seats' own languages with the game, so a resumed game shows the same."""
        if self.journal is None or not self._languages:
            return
        self.journal.correction(
            "languages", {"seats": {str(seat): lang for seat, lang in self._languages.items()}}
        )

    def toggle_join(self, seat: int) -> None:
        """OK on the join screen: join, or leave again."""
        if self.lobby.leave(seat):
            self._leds.steady(seat, Cue.OFF)
            self.changed()
        else:
            self.join(seat)

    def start_game(self) -> bool:
        """Start the chosen game with the joined seats; explain and return False if it cannot."""
        chosen = self.lobby.chosen
        shortfall = self.lobby.shortfall()
        if shortfall is not None:
            self.announce(shortfall, MessageKind.REFUSED)
            return False
        house = self.config.games.get(chosen.spec.id)
        form = OptionsForm.start(chosen.spec, len(self.lobby.joined), house, chosen.options)
        if form.visible or chosen.spec.presets:
            self._go(OptionsScreen(form))
            self.announce(
                say(
                    "{game}: the game's options. PREV / NEXT choose a line, OK changes it; "
                    'OK on "Start the game" starts',
                    game=as_arg(chosen.title),
                )
            )
            return True
        self.options_chosen(form.options)
        return True

    def options_chosen(self, options: JSON) -> None:
        """The options are settled: ask the rulebook's starter question, or begin."""
        chosen = self.lobby.chosen
        self._options = dict(options)
        starter = chosen.spec.starter
        if starter is not None:
            # The rulebook lets the players choose who starts: ask, and wait for an answer.
            self._go(StarterScreen(starter.question))
            self.announce(
                say(
                    "{game}: {question} That player taps a card or presses OK and {role}",
                    game=as_arg(chosen.title),
                    question=as_arg(starter.question),
                    role=as_arg(starter.role),
                )
            )
            return
        self.begin_game(None)

    def begin_game(self, starter_seat: int | None) -> None:
        """Begin the chosen game with the joined seats; ``starter_seat`` answered the
        rulebook's starter question (None: nobody did, or the game has none: drawn)."""
        chosen = self.lobby.chosen
        players = sorted(self.lobby.joined)
        try:
            header = chosen.spec.new_header(len(players), self._options, self.rng)
        except TableError as exc:
            self.announce(
                say(
                    "{game} cannot start so: {why}", game=as_arg(chosen.title), why=as_arg(exc.text)
                ),
                MessageKind.REFUSED,
            )
            return
        starter = chosen.spec.starter
        if starter is not None and starter_seat in players:
            header[starter.key] = players.index(starter_seat)
        seed = self.rng.getrandbits(62)
        self._session = GameSession.begin(
            chosen.adapter, players, header, seed, table_settings(self.config), self.journal
        )
        self._journal_languages()
        self._go(PlayScreen())
        self.announce(say("{game} begins", game=as_arg(self._session.title)))
        if starter is not None:
            seat = Seat(players[int(header[starter.key])])
            role = as_arg(starter.role)
            if starter_seat is None:
                self.announce(
                    say("Nobody answered, so the table drew: {seat} {role}", seat=seat, role=role)
                )
            else:
                self.announce(say("{seat} {role}", seat=seat, role=role))
        self._after([])

    # --- playing (called by the play screen) ------------------------------------------------

    def act(self, action: Action, seat: int) -> None:
        """A seat's action: the engine judges it; accepted, it is journaled, then shown."""
        session = self._session
        assert session is not None
        try:
            events = session.judge(action)
        except TableError as exc:
            self.refuse(seat, exc.text)
            return
        # Outside the try: a journal that cannot write is not a refused play.
        session.accept(action)
        self._after(events)

    def _after(self, events: list[Event]) -> None:
        """After a change of the game: the virtual deal, feedback, LEDs, and the end."""
        session = self._session
        assert session is not None
        events = events + session.deal()
        for event in events:
            for fb in session.adapter.presentation.feedback(event):
                self.feedback(fb)
        self._rest_leds()
        if session.finished:
            self._result = session.finish()
            self._go(ResultsScreen(), clear_messages=False)
            if self.on_record is not None:
                self.on_record(session.game_id, session.recorder.dumps())
        self.changed()

    def feedback(self, fb: Feedback) -> None:
        """An adapter's message and LED cue, at the physical seat of its engine player."""
        session = self._session
        seat = None if fb.player is None or session is None else session.players[fb.player]
        if fb.message is not None:
            self.announce(fb.message, fb.kind, seat)
        if fb.cue is not None and seat is not None:
            self.flash(seat, fb.cue)

    def refuse(self, seat: int, why: Words) -> None:
        """A refusal at ``seat``: said once who it is about ("Seat 3: ..."), then only why."""
        self.announce(self.about_seat(seat, why), MessageKind.REFUSED, seat)
        self.flash(seat, Cue.REFUSED)

    def about_seat(self, seat: int, words: Words) -> Words:
        """``words`` with the seat named in front, unless they already name it.

        An engine's refusal names its player itself ("Seat 3 cannot play Red 5: it
        is Seat 4's turn", the same sentence a replay prints for the record), so the
        table adds nothing; an adapter's answer ("tap the card you play") gets
        "Seat 3: " in front. Either way the seat is said exactly once.
        """
        players = () if self._session is None else tuple(self._session.players)
        if isinstance(words, Text) and names_seat(words, seat, players):
            return words
        return say("{seat}: {why}", seat=Seat(seat), why=as_arg(words))

    # --- resuming and staff corrections -------------------------------------------------------

    def resume(
        self,
        game_id: str,
        players: list[int],
        header: JSON,
        actions: list[tuple[JSON, bool]],
        seed: int,
        languages: Mapping[int, str] | None = None,
    ) -> None:
        """Rebuild a game in progress from its journal: same engine state, same seat waiting.

        ``languages`` are the seats' own languages journaled when the game began,
        so a resumed game shows every panel as before. Raises TableError if the
        journaled actions no longer replay (the caller moves such a journal aside);
        the table is then left as it was.
        """
        adapter_type: type[GameAdapter] | None = self.games.get(game_id)
        if adapter_type is None:
            raise TableError(
                say(
                    "the journal holds a game of {game}, which this table cannot run",
                    game=Verbatim(repr(game_id)),
                )
            )
        session = GameSession.rebuild(
            adapter_type, players, header, actions, seed, table_settings(self.config), self.journal
        )
        self._session = session
        self.lobby.seat_all(players)
        self._languages = {
            seat: language
            for seat, language in (languages or {}).items()
            if language in LANGUAGES and seat in players
        }
        self._go(PlayScreen())
        self.announce(
            say("{game} resumed where it stopped", game=Verbatim(adapter_type.spec.title))
        )
        try:
            self._after([])
        except TableError:
            self.to_attract()
            raise

    def undo_last(self) -> bool:
        """Staff: take back the last action a player took (and any deal that followed it)."""
        session = self._session
        if session is None or self.screen not in (Screen.PLAY, Screen.RESULTS):
            return False
        undone = session.undo()
        if undone is None:
            self.announce(say("Staff: there is no player action to undo"), MessageKind.INFO)
            return False
        action, self._session = undone
        self._result = None
        self._go(PlayScreen(), clear_messages=False)
        self.announce(_describe_undo(action), MessageKind.INFO)
        self._after([])
        return True

    def abandon(self) -> None:
        """Staff: end the game in progress without a result (it stays in the journal)."""
        if self._session is None:
            return
        self._session.abandon()
        self._staff.close()
        self.to_attract()

    def is_staff_tag(self, uid: str) -> bool:
        entry = self.registry.lookup(uid)
        return entry is not None and entry.is_staff

    def staff_tag(self, seat: int) -> None:
        """The staff tag tapped at a seat during a game: staff mode opens (or closes) there."""
        self.announce(self._staff.tag(seat), MessageKind.INFO, seat)

    def end_now(self, seat: int) -> None:
        """Staff: end the game now under its rulebook's early end (the leaders win), recorded."""
        session = self._session
        if session is None:
            return
        expected = session.engine.expected
        player = 0 if expected is None else expected.seat
        action = session.engine.early_end(player)
        if action is None:
            self.announce(
                say("Staff: this game has no early end; NEXT abandons it"), MessageKind.INFO, seat
            )
            return
        self.act(action, seat)

    def staff_command(self, seat: int, button: str) -> None:
        """A press at the staff seat: a step of staff mode, then undo, end now, abandon, close."""
        session = self._session
        can_end = session is not None and session.engine.early_end(0) is not None
        step = self._staff.press(button, can_end_early=can_end)
        if step.message:
            self.announce(step.message, MessageKind.INFO, seat)
        if step.command is StaffCommand.UNDO:
            self.undo_last()
        elif step.command is StaffCommand.ABANDON:
            self.abandon()
        elif step.command is StaffCommand.END_NOW:
            self.end_now(seat)
        self.changed()

    def staff_hints(self) -> dict[str, Words]:
        """The staff seat's button labels while staff mode is open."""
        return self._staff.hints()

    # --- outputs -------------------------------------------------------------------------------

    def announce(
        self, text: Words, kind: MessageKind = MessageKind.INFO, seat: int | None = None
    ) -> None:
        """Add a line of explanation (the latest few stay on screen)."""
        self._messages = [*self._messages, Message(text, kind, seat)][-MESSAGE_LIMIT:]
        self.changed()

    def flash(self, seat: int, cue: Cue) -> None:
        """A momentary LED cue at a seat."""
        self._leds.flash(seat, cue)

    def _rest_leds(self) -> None:
        """Each seat's resting colour: your turn, joined, or off."""
        session = self._session
        if session is not None and self.screen is Screen.PLAY:
            waiting = [session.players[p] for p in session.adapter.presentation.waiting_players()]
            self._leds.rest([*self.lobby.joined, *session.players], waiting, self._calls.calling)
        else:
            self._leds.rest(self.lobby.joined, calling=self._calls.calling)

    def changed(self) -> None:
        """The view must be built again."""
        self._version += 1
        self._view = None

    def tick(self, now: float) -> None:
        """Time-driven changes: a running clock redraws; idle screens fall back to attract."""
        session = self._session
        running = (
            session is not None
            and self.screen is Screen.PLAY
            and session.adapter.presentation.animating()
        )
        closed = [seat for seat, (_, until) in self._help.items() if now >= until]
        for seat in closed:
            del self._help[seat]  # a rules page closes by itself
        if closed:
            self.changed()
        paging = self.screen is Screen.RESULTS or bool(self._help)
        if paging and now - self._page_at >= RESULTS_PAGE_SECONDS:
            # The display shows the page it is told (of the results' rounds, of a rules
            # page too long for its seat panel); it wraps round when it has fewer.
            self._page_at = now
            self._results_page += 1
            self.changed()
        if running and now - self._animated_at >= ANIMATION_STEP:
            # A running clock: a new view ten times a second so the display follows.
            self._animated_at = now
            self.changed()
        if self._staff.timed_out(now):
            # Staff walked away: a player's press must never act with staff powers.
            staff_seat = self._staff.seat
            self._staff.close()
            self.announce(TIMED_OUT, MessageKind.INFO, staff_seat)
        timeout = self._state.timeout
        if timeout is not None and now - self.last_activity > timeout:
            self._state.on_idle(self)


def next_language(language: str) -> str:
    """The language after ``language`` in the join screen's round (English, Deutsch, 日本語)."""
    index = LANGUAGES.index(language) if language in LANGUAGES else -1
    return LANGUAGES[(index + 1) % len(LANGUAGES)]


def _describe_undo(obj: JSON) -> Text:
    """What staff took back: whose action (named by seat), and the record's own words for it."""
    seat = obj.get("seat")
    verb = next((k for k in obj if k not in ("seat", "card")), "?")
    action = Verbatim(f"{verb} {obj.get(verb)}")  # the record's action, as its JSON writes it
    if isinstance(seat, int) and not isinstance(seat, bool):
        return say(
            "Staff undid the action of {player}: {action}", player=Player(seat), action=action
        )
    return say("Staff undid the action {action}", action=action)


class TableLoop:
    """The one loop that owns the table: takes input events off the queue, one at a time.

    A ``Wakeup`` (a stop signal) only ends a wait; the table never sees it.
    """

    def __init__(self, table: Table, events: queue.SimpleQueue[InputEvent]) -> None:
        self.table = table
        self.events = events

    def run_once(self, timeout: float) -> bool:
        """Handle the next event, waiting up to ``timeout`` s; False if none came."""
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            self.table.tick(self.table.clock())
            return False
        if isinstance(event, Wakeup):
            return False
        self.table.handle(event)
        return True

    def drain(self, budget: TurnBudget | None = None) -> int:
        """Handle the events already queued, without waiting; how many there were.

        With a ``budget`` (the kiosk's turns) at most what it allows: the rest
        stays queued for the next turn. Without one, every queued event.
        """
        handled = 0
        while budget is None or budget.allows():
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return handled
            if isinstance(event, Wakeup):
                continue
            self.table.handle(event)
            handled += 1
            if budget is not None:
                budget.spend()
        if budget is not None and not self.events.empty():
            budget.left_over()
        return handled
