"""The view model: everything the display and the LEDs need to draw the table.

The table state machine (``controller.table``) builds a new ``TableView`` after
every change; renderers only read it. It is plain, immutable data: the game
part is a ``GameView``, the engine's typed public ``snapshot()`` with the
table's typed ``Overlay`` (cursors, highlights) beside it, so nothing
downstream re-derives the rules or parses strings.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from controller.games.base import JSON, Overlay, Snapshot
from controller.games.words import Words, say
from controller.view.results import ResultSheet

# Re-exported: the seat buttons' names are part of the view's vocabulary (``ButtonHint``),
# and the rooms that may not reach into hardware (the staff desk and PIN in ``tags``)
# take them from here.
from hardware.events import Button as Button

SnapshotT = TypeVar("SnapshotT", bound=Snapshot, covariant=True)
OverlayT = TypeVar("OverlayT", bound=Overlay, covariant=True)
WantedSnapshot = TypeVar("WantedSnapshot", bound=Snapshot)
WantedOverlay = TypeVar("WantedOverlay", bound=Overlay)


@dataclass(frozen=True)
class GameView(Generic[SnapshotT, OverlayT]):
    """A game as the display draws it: the engine's snapshot and the table's overlay.

    ``snapshot`` is what the rules say everyone can see (the engine's own
    ``Snapshot`` subclass); ``overlay`` is what the table adds on top (its
    cursors and highlights, the game's own ``Overlay``). Both are frozen, so
    views compare by value and the display redraws only what changed.
    """

    snapshot: SnapshotT
    overlay: OverlayT

    def narrowed(
        self, snapshot: type[WantedSnapshot], overlay: type[WantedOverlay]
    ) -> GameView[WantedSnapshot, WantedOverlay]:
        """This view with the game's own types, for the game's scene.

        An overlay of another type (a test's bare ``Overlay()``) is read as the
        game's default one: nothing highlighted. A snapshot of another game is
        a bug, so it raises TypeError.
        """
        if not isinstance(self.snapshot, snapshot):
            raise TypeError(f"a {type(self.snapshot).__name__} is not a {snapshot.__name__}")
        shown = self.overlay if isinstance(self.overlay, overlay) else overlay()
        return GameView(self.snapshot, shown)

    def to_json(self) -> JSON:
        """The picture as plain JSON: the snapshot's keys with the overlay's beside them."""
        return {**self.snapshot.to_json(), **self.overlay.to_json()}


AnyGameView = GameView[Snapshot, Overlay]


class Screen(enum.Enum):
    """Which scene the table shows."""

    ATTRACT = "attract"  # idle: invites players to tap a card or press a button
    CHOOSE_GAME = "choose_game"  # the game menu
    JOIN = "join"  # seats press "ok" to join; the host starts when enough have joined
    PLAY = "play"  # a game in progress
    RESULTS = "results"  # the final score sheet, then back to attract
    STAFF = "staff"  # the staff desk: enroll or audit a deck, game history
    STARTER = "starter"  # the rulebook's question that picks who starts (Oshaka's first lead)
    OPTIONS = "options"  # the chosen game's options, after the seats joined


class MessageKind(enum.Enum):
    INFO = "info"
    REFUSED = "refused"  # a play or press the rules did not accept, and why
    PENALTY = "penalty"  # e.g. why a card became an Oshaka penalty
    WON = "won"  # a trick or a round won
    PROBLEM = "problem"  # hardware trouble (reader unplugged, unknown tag, ...)


@dataclass(frozen=True)
class Message:
    """One line of explanation, for everyone or for one seat."""

    text: Words
    kind: MessageKind = MessageKind.INFO
    seat: int | None = None


@dataclass(frozen=True)
class GameChoice:
    """An entry of the game menu."""

    game_id: str
    title: Words
    min_players: int
    max_players: int
    unavailable: Words = ""  # why this table does not offer it (empty: it does)
    # The game's own name, without the variant the title adds ("Oh Pshaw"); empty: the title.
    name: Words = ""


@dataclass(frozen=True)
class SeatView:
    """One physical seat of the table."""

    seat: int  # physical seat index, clockwise from the table's seat 0
    joined: bool = False
    player: int | None = None  # the engine's seat number when playing
    is_bot: bool = False
    reader_online: bool = True
    label: Words = ""
    # The seat's own colour (controller.view.seat_colours): its LED segment and its panel edge.
    colour: tuple[int, int, int] = (0, 0, 0)


@dataclass(frozen=True)
class ButtonHint:
    """What a seat button does right now, for on-screen labels and the simulator."""

    seat: int
    button: Button
    label: Words
    # A shorter label for a narrow panel (a 7-seat table's), shown where ``label``
    # would be cut ("next" for "next game"); None where the label has none.
    short: Words | None = None


@dataclass(frozen=True)
class StaffView:
    """The staff desk's screen: a menu, or a task's prompt and its latest results."""

    title: Words
    prompt: Words
    seat: int  # where the staff member stands (its panel shows the desk's buttons)
    options: tuple[Words, ...] = ()
    selected: int = 0
    lines: tuple[Words, ...] = ()
    hint: Words = ""
    # Rows of cells, the column names first, drawn as a table (the game history); when
    # they do not all fit, the column names and the last rows.
    table: tuple[tuple[str, ...], ...] = ()


TABLE_TITLE = say("Cafe table")  # the attract screen's title


@dataclass(frozen=True)
class TableView:
    """A complete, immutable picture of the table at one moment.

    ``version`` grows by one with every change, so a renderer can skip drawing
    when it has already drawn this version.
    """

    version: int
    screen: Screen
    seats: tuple[SeatView, ...]
    games: tuple[GameChoice, ...] = ()
    selected_game: int = 0
    game_id: str | None = None
    game: AnyGameView | None = None  # the engine's public snapshot and the table's overlay
    result: dict[str, Any] | None = None  # the engine's report() once finished
    messages: tuple[Message, ...] = ()
    buttons: tuple[ButtonHint, ...] = ()
    # Private hands, for the simulator's on-screen hand of a human seat only
    # (a real table never shows them): engine seat -> card notations.
    hands: dict[int, tuple[str, ...]] = field(default_factory=dict)
    human_seats: tuple[int, ...] = ()  # engine seats a person plays on screen
    staff: StaffView | None = None  # the staff desk, on the STAFF screen
    staff_overlay: StaffView | None = None  # staff mode over a game, on its seat's panel
    title: Words = TABLE_TITLE
    prompt: Words | None = None  # the question on the STARTER screen
    # A fault that halts play (the disk full), said at the centre over the screen's own
    # content; set by the kiosk, never by the table (controller/kiosk/disk_full.py).
    halted: Words | None = None
    # A cut for the deal on the STARTER screen (Oh Pshaw): each seat's card cut in
    # this round of the cut (physical seat -> card notation), and the seats still to cut.
    cuts: dict[int, str] = field(default_factory=dict)
    cutting: tuple[int, ...] = ()
    # The OPTIONS screen's lines (label, value, explanation) and the cursor.
    options: tuple[tuple[Words, Words, Words], ...] = ()
    options_cursor: int = 0
    # The game in progress (or just finished) with the variant it plays, e.g.
    # "Oskar: first to 8 tokens": titles and results name it.
    game_title: Words | None = None
    # On the RESULTS screen: the rule that decided the game and rows that show why
    # (Oh Pshaw "Bids made", Oshaka "Columns"/"Face down"/"Oshaka"), one value per player.
    result_rule: Words = ""
    result_rows: tuple[tuple[Words, tuple[int, ...]], ...] = ()
    # The results screen's sheet: places, the winner line in words, rounds, sums and counts.
    result_sheet: ResultSheet | None = None
    # Grows every few seconds on the results screen and while a rules page is open:
    # the page of rounds (or of rules lines) shown when they do not fit at once. On
    # the attract screen too: the step of its showcase of the games.
    results_page: int = 0
    # Rules pages open at seats (a long press of OK): physical seat -> (title, lines).
    help: Mapping[int, tuple[Words, tuple[Words, ...]]] = field(default_factory=dict)
    # Seats looking back at the last trick on their panel (a long press of NEXT).
    recall: tuple[int, ...] = ()
    # Words: every Words field above is shown through ``controller.words.Presenter``
    # (``Presenter.for_view(view, seat)``): the shared centre in the table's
    # ``language``, a seat's panel in the language that seat chose at the join screen.
    language: str = "en"
    seat_languages: Mapping[int, str] = field(default_factory=dict)
    # The physical seat of each engine player (``players[p]``), so that messages
    # naming engine players name the seats people sit at.
    players: tuple[int, ...] = ()
    # Seats named by a member card tapped at the join screen: physical seat -> nickname.
    nicknames: Mapping[int, str] = field(default_factory=dict)
