"""The table's state machine: attract, choose a game, seats join, play, results.

One loop owns all state. Hardware threads only put typed input events
(``hardware.events``) on one queue; ``TableLoop`` takes them off and hands
each to ``Table.handle``. The table turns them into engine actions through
the game's adapter, and the engine's events into messages, LED cues and a
new immutable ``TableView`` for the display. Nothing downstream re-derives
the rules.

Seat buttons outside a game (see ``docs/table.md``):

| screen | prev | ok | next | tap a card |
| --- | --- | --- | --- | --- |
| attract | wake | wake | wake | wake |
| choose game | previous game | choose it (and join) | next game | - |
| join | back to the menu | join / leave | start (enough joined) | join |
| results | - | back to attract | - | - |
"""

from __future__ import annotations

import logging
import queue
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from controller.adapters import Feedback, GameAdapter, adapters
from controller.config import TableConfig
from controller.games import engine_class
from controller.games.base import JSON, Action, Event, TableError
from controller.record import Recorder, undo_last_player_action
from controller.staff import StaffDesk
from controller.tags import GAME_DECKS, TagRegistry
from controller.view import (
    ButtonHint,
    GameChoice,
    Message,
    MessageKind,
    Screen,
    SeatView,
    TableView,
)
from hardware.cues import Cue
from hardware.events import (
    ButtonPressed,
    ButtonReleased,
    InputEvent,
    ReaderOffline,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
    TossCancelled,
    TossStarted,
    TossStopped,
)

logger = logging.getLogger(__name__)

MESSAGE_LIMIT = 6
_SEAT_WORD = re.compile(r"\b([Ss]eat) (\d+)\b")
IDLE_TIMEOUT = 120.0  # seconds on the menu or join screen before going back to attract
RESULTS_TIMEOUT = 90.0
STAFF_TIMEOUT = 300.0  # an abandoned staff desk closes itself
ANIMATION_STEP = 0.1  # seconds between views while a clock runs on screen


class LedSink(Protocol):
    """What the table needs from the seat LEDs; ``hardware.leds.SeatLeds`` provides it."""

    def cue(self, seat: int, cue: Cue, now: float) -> None: ...


class JournalSink(Protocol):
    """Where the table writes what it accepted, before anything is shown or lit.

    ``controller.journal.Journal`` provides it; a game is rebuilt from exactly
    these calls (see ``Table.resume``).
    """

    def game_started(self, game_id: str, players: list[int], header: JSON, seed: int) -> None: ...

    def action_accepted(self, action: JSON, chance: bool) -> None: ...

    def deal_accepted(self, actions: list[JSON]) -> None: ...

    def correction(self, kind: str, detail: JSON) -> None: ...

    def game_finished(self, record: str, report: JSON) -> None: ...


@dataclass(frozen=True)
class MenuEntry:
    """One line of the game menu: a game, possibly in one of its option presets."""

    adapter: type[GameAdapter]
    label: str = ""
    options: Mapping[str, Any] | None = None

    @property
    def title(self) -> str:
        return f"{self.adapter.title}: {self.label}" if self.label else self.adapter.title


def menu_entries(games: Mapping[str, type[GameAdapter]]) -> list[MenuEntry]:
    """The menu: every game, once per option preset it offers (its default first)."""
    entries: list[MenuEntry] = []
    for adapter in games.values():
        presets = adapter.option_presets()
        if not presets:
            entries.append(MenuEntry(adapter))
        entries += [MenuEntry(adapter, label, options) for label, options in presets]
    return entries


@dataclass
class _Game:
    adapter: GameAdapter
    recorder: Recorder
    players: list[int]  # physical seat of each engine player
    seed: int  # the virtual deck's shuffles derive from it, so a resumed game deals the same
    chance: list[bool] = field(default_factory=list)  # per recorded action: supplied by chance?


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
    history: Callable[[], list[str]] | None = None  # finished games, for the staff desk

    def __post_init__(self) -> None:
        self.games = adapters()
        self.menu = menu_entries(self.games)
        self.screen = Screen.ATTRACT
        self.selected = 0
        self.joined: list[int] = []
        self.game: _Game | None = None
        self.result: dict[str, object] | None = None
        self.messages: list[Message] = []
        self.reader_online = {seat.index: True for seat in self.config.seats}
        self.version = 0
        self.last_activity = self.clock()
        self._view: TableView | None = None
        self._steady_cues: dict[int, Cue] = {}
        self.staff_seat: int | None = None  # a seat where staff tapped their tag
        self.desk: StaffDesk | None = None  # the staff desk, on the STAFF screen
        self._animated_at = 0.0
        self._set_steady_leds()

    # --- input -------------------------------------------------------------------

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
        seat = event.seat
        if self.screen is Screen.STAFF and self.desk is not None:
            if self._is_staff_tag(event.uid):
                self._to_attract()  # the staff tag again closes the desk
            else:
                self.desk.tap(event.uid)
                self._changed()
            return
        if self.screen is Screen.ATTRACT:
            if self._is_staff_tag(event.uid):
                self._open_desk(seat)
            else:
                self._to_menu()
            return
        if self.screen is Screen.JOIN and not self._is_staff_tag(event.uid):
            self._toggle_join(seat, join_only=True)
            return
        if self.screen is not Screen.PLAY or self.game is None:
            return
        entry = self.registry.lookup(event.uid)
        if entry is not None and entry.is_staff:
            self._staff_tag(seat)
            return
        if entry is None:
            self._say(
                f"Seat {seat}: this tag ({event.uid}) is not enrolled in any deck; "
                "ask staff to enroll it",
                MessageKind.PROBLEM,
                seat,
            )
            self._cue(seat, Cue.REFUSED)
            return
        deck = GAME_DECKS[self.game.adapter.game_id]
        if entry.deck != deck:
            self._say(
                f"Seat {seat}: that card belongs to the {entry.deck} deck, not this game's",
                MessageKind.REFUSED,
                seat,
            )
            self._cue(seat, Cue.REFUSED)
            return
        if seat not in self.game.players:
            self._say(f"Seat {seat} is not playing this game", MessageKind.REFUSED, seat)
            self._cue(seat, Cue.REFUSED)
            return
        player = self.game.players.index(seat)
        self.game.adapter.rng = self._chance_rng()
        try:
            action = self.game.adapter.on_card(player, entry.card)
        except TableError as exc:
            self._refuse(seat, str(exc))
            return
        self._act(action, seat)

    def _on_button(self, event: InputEvent) -> None:
        assert isinstance(event, ButtonPressed)
        seat, button = event.seat, event.button
        if self.screen is Screen.ATTRACT:
            self._to_menu()
        elif self.screen is Screen.STAFF:
            if self.desk is not None and seat == self.desk.seat:
                self.desk.button(button)
                if self.desk.closed:
                    self._to_attract()
                else:
                    self._changed()
        elif self.screen is Screen.CHOOSE_GAME:
            self._menu_button(seat, button)
        elif self.screen is Screen.JOIN:
            self._join_button(seat, button)
        elif self.screen is Screen.RESULTS:
            if button == "ok":
                self._to_attract()
        elif self.screen is Screen.PLAY and self.game is not None:
            if seat == self.staff_seat:
                self._staff_button(seat, button)
                return
            if seat not in self.game.players:
                return
            player = self.game.players.index(seat)
            self.game.adapter.rng = self._chance_rng()
            answer = self.game.adapter.on_button(player, button)
            if isinstance(answer, str):
                self._say(f"Seat {seat}: {self._seats_named(answer)}", MessageKind.INFO, seat)
            elif answer is not None:
                self._act(answer, seat)
            else:
                self._changed()

    def _on_released(self, event: InputEvent) -> None:
        # Presses act; releases matter only to the toss timer, which has its own device.
        return

    def _on_tag_removed(self, event: InputEvent) -> None:
        return  # a tap is the tag arriving; taking the card away changes nothing

    def _on_reader_online(self, event: InputEvent) -> None:
        assert isinstance(event, ReaderOnline)
        if not self.reader_online.get(event.seat, True):
            self._say(f"Seat {event.seat}'s reader is back", MessageKind.INFO, event.seat)
        self.reader_online[event.seat] = True
        self._changed()

    def _on_reader_offline(self, event: InputEvent) -> None:
        assert isinstance(event, ReaderOffline)
        self.reader_online[event.seat] = False
        if event.reason != "closed":
            self._say(
                f"Seat {event.seat}'s reader is not answering ({event.reason}); "
                "the game waits: check its USB cable",
                MessageKind.PROBLEM,
                event.seat,
            )
        self._changed()

    def _on_reader_problem(self, event: InputEvent) -> None:
        assert isinstance(event, ReaderProblem)
        logger.warning("seat %d reader: %s", event.seat, event.message)
        self._say(
            f"Seat {event.seat}: the reader misread; tap the card again",
            MessageKind.PROBLEM,
            event.seat,
        )

    def _on_timer(self, event: InputEvent) -> None:
        assert isinstance(event, TossStarted | TossStopped | TossCancelled)
        if self.screen is not Screen.PLAY or self.game is None:
            return
        for fb in self.game.adapter.on_timer(event):
            self._feedback(fb)
        self._changed()

    _HANDLERS: ClassVar[dict[type, Callable[[Table, InputEvent], None]]] = {
        TagPresented: _on_tag,
        TagRemoved: _on_tag_removed,
        ButtonPressed: _on_button,
        ButtonReleased: _on_released,
        ReaderOnline: _on_reader_online,
        ReaderOffline: _on_reader_offline,
        ReaderProblem: _on_reader_problem,
        TossStarted: _on_timer,
        TossStopped: _on_timer,
        TossCancelled: _on_timer,
    }

    # --- screens -------------------------------------------------------------------

    def _choices(self) -> list[MenuEntry]:
        return self.menu

    def _to_menu(self) -> None:
        self.screen = Screen.CHOOSE_GAME
        self.joined = []
        self.messages = []
        self._say("Choose a game: PREV / NEXT, then OK")

    def staff_notice(self, text: str) -> None:
        """Show staff a problem the table found on its own (e.g. a damaged journal moved aside)."""
        self._say(text, MessageKind.PROBLEM)

    def _open_desk(self, seat: int) -> None:
        self.desk = StaffDesk(seat, self.registry, self.config.tags, history=self.history)
        self.screen = Screen.STAFF
        self.messages = []
        self._changed()

    def _to_attract(self) -> None:
        self.desk = None
        self.screen = Screen.ATTRACT
        self.game = None
        self.result = None
        self.joined = []
        self.messages = []
        self._set_steady_leds()
        self._changed()

    def _menu_button(self, seat: int, button: str) -> None:
        count = len(self._choices())
        if button == "prev":
            self.selected = (self.selected - 1) % count
        elif button == "next":
            self.selected = (self.selected + 1) % count
        elif button == "ok":
            self.screen = Screen.JOIN
            self.joined = []
            chosen = self._choices()[self.selected]
            self.messages = []
            self._say(
                f"{chosen.title}: press OK at your seat to join "
                f"({chosen.adapter.min_players}-{chosen.adapter.max_players} players); NEXT starts"
            )
            self._toggle_join(seat, join_only=True)
            return
        self._changed()

    def _join_button(self, seat: int, button: str) -> None:
        if button == "ok":
            self._toggle_join(seat)
        elif button == "prev":
            self._to_menu()
        elif button == "next":
            self.start_game()

    def _toggle_join(self, seat: int, join_only: bool = False) -> None:
        if seat in self.joined:
            if join_only:
                return
            self.joined.remove(seat)
            self._cue(seat, Cue.OFF, steady=True)
        else:
            self.joined.append(seat)
            self._cue(seat, Cue.JOINED, steady=True)
        self._changed()

    def start_game(self) -> bool:
        """Start the chosen game with the joined seats; explain and return False if it cannot."""
        chosen = self._choices()[self.selected]
        count = len(self.joined)
        low, high = chosen.adapter.min_players, chosen.adapter.max_players
        if not low <= count <= high:
            self._say(
                f"{chosen.title} needs {low}-{high} players; {count} joined",
                MessageKind.REFUSED,
            )
            return False
        adapter = chosen.adapter.new_game(count, self.rng, chosen.options)
        players = sorted(self.joined)
        seed = self.rng.getrandbits(62)
        self._configure(adapter, seed)
        self.game = _Game(adapter, Recorder(adapter.engine), players, seed)
        if self.journal is not None:
            self.journal.game_started(adapter.game_id, players, adapter.engine.header(), seed)
        self.screen = Screen.PLAY
        self.messages = []
        self._say(f"{chosen.title} begins")
        self._after_action([])
        return True

    # --- playing -------------------------------------------------------------------

    def _act(self, action: Action, seat: int) -> None:
        game = self.game
        assert game is not None
        try:
            events = game.adapter.engine.apply(action)
        except TableError as exc:
            self._refuse(seat, str(exc))
            return
        self._accepted(action)
        self._after_action(events)

    def _accepted(self, action: Action) -> None:
        """Journal a player's accepted action (before any output) and add it to the record."""
        game = self.game
        assert game is not None
        if self.journal is not None:
            self.journal.action_accepted(action.to_json(), False)
        game.recorder.accepted(action)
        game.chance.append(False)

    def _chance_rng(self) -> random.Random:
        # Derived from the game's seed and its length, not from a running generator,
        # so a game rebuilt from its journal draws exactly the same deal.
        game = self.game
        assert game is not None
        return random.Random(f"{game.seed}/{len(game.recorder.actions)}")

    def _after_action(self, events: list[Event]) -> None:
        game = self.game
        assert game is not None
        # Virtual dealing (simulated deck): a deal is journaled in one transaction,
        # so a crash never leaves half of one, and recorded like any other action.
        if self.config.deal == "virtual":
            dealt = game.adapter.chance(self._chance_rng())
            for action in dealt:
                events = events + game.adapter.engine.apply(action)
            if dealt and self.journal is not None:
                self.journal.deal_accepted([action.to_json() for action in dealt])
            for action in dealt:
                game.recorder.accepted(action)
                game.chance.append(True)
        for event in events:
            for fb in game.adapter.feedback(event):
                self._feedback(fb)
        self._set_steady_leds()
        if game.adapter.engine.finished:
            self.result = game.adapter.engine.report()
            self.screen = Screen.RESULTS
            if self.journal is not None:
                self.journal.game_finished(game.recorder.dumps(), self.result)
            if self.on_record is not None:
                self.on_record(game.adapter.game_id, game.recorder.dumps())
        self._changed()

    def _seats_named(self, text: str) -> str:
        """Engine text names players by engine seat; people sit at physical seats.

        When the joined seats are not 0..n-1 (seats 0, 2 and 3 play a
        three-player game), "seat 1" in an engine's or adapter's message is
        the player at physical seat 2: rename, so the words match the panels.
        """
        game = self.game
        if game is None or game.players == list(range(len(game.players))):
            return text
        players = game.players

        def physical(match: re.Match[str]) -> str:
            number = int(match.group(2))
            seat = players[number] if number < len(players) else number
            return f"{match.group(1)} {seat}"

        return _SEAT_WORD.sub(physical, text)

    def _feedback(self, fb: Feedback) -> None:
        seat = None if fb.player is None or self.game is None else self.game.players[fb.player]
        if fb.message is not None:
            self._say(self._seats_named(fb.message), fb.kind, seat)
        if fb.cue is not None and seat is not None:
            self._cue(seat, fb.cue)

    def _refuse(self, seat: int, why: str) -> None:
        self._say(f"Seat {seat}: {self._seats_named(why)}", MessageKind.REFUSED, seat)
        self._cue(seat, Cue.REFUSED)

    # --- resuming and staff corrections -------------------------------------------------

    def resume(
        self,
        game_id: str,
        players: list[int],
        header: JSON,
        actions: list[tuple[JSON, bool]],
        seed: int,
    ) -> None:
        """Rebuild a game in progress from its journal: same engine state, same seat waiting.

        Raises TableError if the journaled actions no longer replay (the caller
        moves such a journal aside).
        """
        adapter_type = self.games.get(game_id)
        if adapter_type is None:
            raise TableError(
                f"the journal holds a game of {game_id!r}, which this table cannot run"
            )
        self.joined = list(players)
        self._rebuild(adapter_type, players, header, actions, seed)
        self.screen = Screen.PLAY
        self.messages = []
        self._say(f"{adapter_type.title} resumed where it stopped")
        self._after_action([])

    def _rebuild(
        self,
        adapter_type: type[GameAdapter],
        players: list[int],
        header: JSON,
        actions: list[tuple[JSON, bool]],
        seed: int,
    ) -> None:
        engine = engine_class(header.get("game")).from_header(header)
        adapter = adapter_type(engine)
        self._configure(adapter, seed)
        game = _Game(adapter, Recorder(engine), players, seed)
        for obj, chance in actions:
            action = engine.parse_action(obj)
            engine.apply(action)
            game.recorder.accepted(action)
            game.chance.append(chance)
        self.game = game

    def _configure(self, adapter: GameAdapter, seed: int) -> None:
        """What an adapter learns from the table, for a new game and a rebuilt one alike."""
        adapter.game_seed = seed
        adapter.manual_dice = self.config.dice == "manual"
        adapter.has_timer = self.config.timer is not None
        adapter.timer_limit = None if self.config.timer is None else self.config.timer.limit

    def undo_last(self) -> bool:
        """Staff: take back the last action a player took (and any deal that followed it)."""
        game = self.game
        if game is None or self.screen not in (Screen.PLAY, Screen.RESULTS):
            return False
        pairs = list(zip([a.to_json() for a in game.recorder.actions], game.chance, strict=True))
        undone = undo_last_player_action(pairs)
        if undone is None:
            self._say("Staff: there is no player action to undo", MessageKind.INFO)
            return False
        if self.journal is not None:
            self.journal.correction("undo", {"action": undone})
        adapter_type = type(game.adapter)
        self._rebuild(adapter_type, game.players, game.adapter.engine.header(), pairs, game.seed)
        self.screen = Screen.PLAY
        self.result = None
        self._say(f"Staff undid {_describe_action(undone)}", MessageKind.INFO)
        self._after_action([])
        return True

    def abandon(self) -> None:
        """Staff: end the game in progress without a result (it stays in the journal)."""
        if self.game is None:
            return
        if self.journal is not None:
            self.journal.correction("abandon", {"game": self.game.adapter.game_id})
        self.staff_seat = None
        self._to_attract()

    def _is_staff_tag(self, uid: str) -> bool:
        entry = self.registry.lookup(uid)
        return entry is not None and entry.is_staff

    def _staff_tag(self, seat: int) -> None:
        if self.staff_seat == seat:
            self.staff_seat = None
            self._say("Staff mode closed", MessageKind.INFO, seat)
            return
        self.staff_seat = seat
        self._say(
            f"Staff at seat {seat}: PREV undoes the last action, NEXT abandons the game, "
            "OK (or the staff tag again) closes staff mode",
            MessageKind.INFO,
            seat,
        )

    def _staff_button(self, seat: int, button: str) -> None:
        if button == "prev":
            self.undo_last()
        elif button == "next":
            self.abandon()
        else:
            self.staff_seat = None
            self._say("Staff mode closed", MessageKind.INFO, seat)

    # --- outputs -------------------------------------------------------------------

    def _say(
        self, text: str, kind: MessageKind = MessageKind.INFO, seat: int | None = None
    ) -> None:
        self.messages = [*self.messages, Message(text, kind, seat)][-MESSAGE_LIMIT:]
        self._changed()

    def _cue(self, seat: int, cue: Cue, steady: bool = False) -> None:
        if steady:
            self._steady_cues[seat] = cue
        if self.leds is not None:
            self.leds.cue(seat, cue, self.clock())

    def _set_steady_leds(self) -> None:
        """Each seat's resting colour: your turn, joined, or off."""
        wanted: dict[int, Cue] = {}
        for seat_config in self.config.seats:
            index = seat_config.index
            wanted[index] = Cue.JOINED if index in self.joined else Cue.OFF
        if self.game is not None and self.screen is Screen.PLAY:
            for seat in self.game.players:
                wanted[seat] = Cue.JOINED
            for player in self.game.adapter.waiting_players():
                wanted[self.game.players[player]] = Cue.YOUR_TURN
        for seat, cue in wanted.items():
            if self._steady_cues.get(seat) is not cue:
                self._cue(seat, cue, steady=True)

    def _changed(self) -> None:
        self.version += 1
        self._view = None

    def tick(self, now: float) -> None:
        """Time-driven changes: idle screens fall back to attract."""
        idle = now - self.last_activity
        game = self.game
        running = game is not None and self.screen is Screen.PLAY and game.adapter.animating()
        if running and now - self._animated_at >= ANIMATION_STEP:
            # A running clock: a new view ten times a second so the display follows.
            self._animated_at = now
            self._changed()
        limit = {Screen.CHOOSE_GAME: IDLE_TIMEOUT, Screen.JOIN: IDLE_TIMEOUT}
        limit[Screen.RESULTS] = RESULTS_TIMEOUT
        limit[Screen.STAFF] = STAFF_TIMEOUT
        if self.screen in limit and idle > limit[self.screen]:
            self._to_attract()

    # --- the view ---------------------------------------------------------------------

    def player_of(self, seat: int) -> int | None:
        if self.game is None or seat not in self.game.players:
            return None
        return self.game.players.index(seat)

    @property
    def view(self) -> TableView:
        if self._view is None:
            self._view = self._build_view()
        return self._view

    def _build_view(self) -> TableView:
        game = self.game
        seats = tuple(
            SeatView(
                seat=s.index,
                joined=s.index in self.joined,
                player=self.player_of(s.index),
                is_bot=s.bot,
                reader_online=self.reader_online.get(s.index, True),
                label=f"Seat {s.index}",
            )
            for s in self.config.seats
        )
        choices = tuple(
            GameChoice(e.adapter.game_id, e.title, e.adapter.min_players, e.adapter.max_players)
            for e in self._choices()
        )
        buttons: list[ButtonHint] = []
        hands: dict[int, tuple[str, ...]] = {}
        humans: list[int] = []
        if self.desk is not None and self.screen is Screen.STAFF:
            buttons += [
                ButtonHint(self.desk.seat, "prev", "back" if self.desk.task != "menu" else "up"),
                ButtonHint(self.desk.seat, "ok", "choose"),
                ButtonHint(
                    self.desk.seat, "next", "skip" if self.desk.task == "enroll" else "down"
                ),
            ]
        labels = _SCREEN_BUTTONS.get(self.screen, {})
        for seat_config in self.config.seats:
            for button, label in labels.items():
                if self.screen is Screen.JOIN and button == "ok":
                    label = "leave" if seat_config.index in self.joined else "join"
                buttons.append(ButtonHint(seat_config.index, button, label))
        if game is not None and self.screen is Screen.PLAY:
            buttons = [
                ButtonHint(game.players[player], button, label)
                for player, button, label in game.adapter.hints()
            ]
            for player, seat in enumerate(game.players):
                if not self.config.seats[seat].bot:
                    humans.append(player)
                    if self.config.deal == "virtual":
                        hands[player] = game.adapter.hand(player)
        return TableView(
            version=self.version,
            screen=self.screen,
            seats=seats,
            games=choices,
            selected_game=self.selected,
            game_id=None if game is None else game.adapter.game_id,
            game=None if game is None else game.adapter.snapshot(),
            result=self.result,
            messages=tuple(self.messages),
            buttons=tuple(buttons),
            hands=hands,
            human_seats=tuple(humans),
            staff=None if self.desk is None else self.desk.view(),
        )


def _describe_action(obj: JSON) -> str:
    seat = obj.get("seat")
    verb = next((k for k in obj if k not in ("seat", "card")), "?")
    return f"seat {seat}'s {verb} {obj.get(verb)}"


# What the seat buttons do on the screens outside a game, for on-screen labels.
_SCREEN_BUTTONS: dict[Screen, dict[str, str]] = {
    Screen.ATTRACT: {"ok": "start"},
    Screen.CHOOSE_GAME: {"prev": "previous game", "ok": "choose", "next": "next game"},
    Screen.JOIN: {"prev": "menu", "ok": "join", "next": "start game"},
    Screen.RESULTS: {"ok": "done"},
}


class TableLoop:
    """The one loop that owns the table: takes input events off the queue, one at a time."""

    def __init__(self, table: Table, events: queue.Queue[InputEvent]) -> None:
        self.table = table
        self.events = events

    def run_once(self, timeout: float) -> bool:
        """Handle the next event, waiting up to ``timeout`` s; False if none came."""
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            self.table.tick(self.table.clock())
            return False
        self.table.handle(event)
        return True

    def drain(self) -> int:
        """Handle every event already queued, without waiting; how many there were."""
        handled = 0
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return handled
            self.table.handle(event)
            handled += 1
