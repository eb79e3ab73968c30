"""The view model: everything the display and the LEDs need to draw the table.

The table state machine (``controller.table``) builds a new ``TableView`` after
every change; renderers only read it. It is plain, immutable data: the game
part is the engine's public ``snapshot()`` (a JSON-like dict), so nothing
downstream re-derives the rules.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Screen(enum.Enum):
    """Which scene the table shows."""

    ATTRACT = "attract"  # idle: invites players to tap a card or press a button
    CHOOSE_GAME = "choose_game"  # the game menu
    JOIN = "join"  # seats press "ok" to join; the host starts when enough have joined
    PLAY = "play"  # a game in progress
    RESULTS = "results"  # the final score sheet, then back to attract
    STAFF = "staff"  # the staff desk: enroll or audit a deck, game history


class MessageKind(enum.Enum):
    INFO = "info"
    REFUSED = "refused"  # a play or press the rules did not accept, and why
    PENALTY = "penalty"  # e.g. why a card became an Oshaka penalty
    WON = "won"  # a trick or a round won
    PROBLEM = "problem"  # hardware trouble (reader unplugged, unknown tag, ...)


@dataclass(frozen=True)
class Message:
    """One line of explanation, for everyone or for one seat."""

    text: str
    kind: MessageKind = MessageKind.INFO
    seat: int | None = None


@dataclass(frozen=True)
class GameChoice:
    """An entry of the game menu."""

    game_id: str
    title: str
    min_players: int
    max_players: int


@dataclass(frozen=True)
class SeatView:
    """One physical seat of the table."""

    seat: int  # physical seat index, clockwise from the table's seat 0
    joined: bool = False
    player: int | None = None  # the engine's seat number when playing
    is_bot: bool = False
    reader_online: bool = True
    label: str = ""


@dataclass(frozen=True)
class ButtonHint:
    """What a seat button does right now, for on-screen labels and the simulator."""

    seat: int
    button: str
    label: str


@dataclass(frozen=True)
class StaffView:
    """The staff desk's screen: a menu, or a task's prompt and its latest results."""

    title: str
    prompt: str
    seat: int  # where the staff member stands (its panel shows the desk's buttons)
    options: tuple[str, ...] = ()
    selected: int = 0
    lines: tuple[str, ...] = ()
    hint: str = ""


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
    game: dict[str, Any] | None = None  # the engine's public snapshot
    result: dict[str, Any] | None = None  # the engine's report() once finished
    messages: tuple[Message, ...] = ()
    buttons: tuple[ButtonHint, ...] = ()
    # Private hands, for the simulator's on-screen hand of a human seat only
    # (a real table never shows them): engine seat -> card notations.
    hands: dict[int, tuple[str, ...]] = field(default_factory=dict)
    human_seats: tuple[int, ...] = ()  # engine seats a person plays on screen
    staff: StaffView | None = None  # the staff desk, on the STAFF screen
    staff_overlay: StaffView | None = None  # staff mode over a game, on its seat's panel
    title: str = "Cafe table"
