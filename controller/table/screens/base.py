"""What every screen is, and how a screen names one it cannot import.

A screen module imports the screens that come after it on a game's way
(attract -> choose game -> join -> options -> starter or cut -> play ->
results), never one before it, so the screens form no import cycle. A step
back to a screen earlier on that way is a token instead (``ToAttract``,
``ToMenu``); ``controller.table.screens.resolve`` turns it into the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from controller.games.base import JSON
from controller.games.words import Words
from controller.table.context import ScreenContext
from controller.table.session import GameSession
from controller.view import ButtonHint, Message, Screen
from hardware.events import Button, TimerEvent

IDLE_TIMEOUT = 120.0  # seconds on the menu or join screen before going back to attract
RESULTS_TIMEOUT = 90.0
STAFF_TIMEOUT = 300.0  # an abandoned staff desk closes itself
STARTER_TIMEOUT = 30.0  # nobody answers the starter question: the table draws the seat


@dataclass(frozen=True)
class ToAttract:
    """Back to the attract screen; ``farewell`` is a line said there at a seat (what the
    staff desk said as it closed itself)."""

    farewell: tuple[Words, int] | None = None


@dataclass(frozen=True)
class ToMenu:
    """Back to the game menu (seats that joined stay joined)."""


class ScreenState:
    """A screen's behaviour. Subclasses override what their screen reacts to.

    Every handler answers with the next screen, or None to stay on this one.
    """

    screen: ClassVar[Screen]
    timeout: ClassVar[float | None] = None  # idle seconds before going back to attract
    labels: ClassVar[dict[Button, Words]] = {}  # what each seat's buttons do here
    # Shorter labels for a narrow panel, where the ones above would be cut (``ButtonHint``).
    short_labels: ClassVar[dict[Button, Words]] = {}
    # Whether the table asks about the game chosen on the menu here (its rules page).
    about_chosen_game: ClassVar[bool] = False
    keeps_messages = False  # the previous screen's lines stay (a game's end, an undo)
    session: GameSession | None = None  # the game shown (in play, or just finished)
    result: JSON | None = None  # the finished game's report

    @property
    def playing(self) -> GameSession | None:
        """The game in progress on this screen, whose seats' LEDs show whose turn it is."""
        return None

    def enter(self, ctx: ScreenContext) -> Next:
        """The table has just changed to this screen (its messages cleared unless kept)."""
        return None

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> Next:
        """A tag tapped at ``seat``'s reader."""
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        """A seat button pressed."""
        return None

    def on_timer(self, ctx: ScreenContext, event: TimerEvent) -> Next:
        """The toss timer started, stopped or was cancelled."""
        return None

    def on_idle(self, ctx: ScreenContext) -> Next:
        """``timeout`` seconds passed without input: back to attract, unless the screen says."""
        return ToAttract()

    def on_reader_offline(self, ctx: ScreenContext, seat: int) -> Next:
        """``seat``'s reader went offline (the table has said so already)."""
        return None

    def shown(self, messages: Sequence[Message]) -> list[Message]:
        """The table's lines this screen shows (all of them, but on the results screen)."""
        return list(messages)

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        """What every seat button does now, for the on-screen labels."""
        return [
            ButtonHint(seat, button, label, self.short_labels.get(button))
            for seat in ctx.seats
            for button, label in self.labels.items()
        ]

    def reports(self, ctx: ScreenContext, seat: int) -> bool:
        """Whether a press at ``seat`` now reports something final (``SeatInput.reports``):
        the table then acts on it when it is let go, and only if it was short."""
        return False

    def rules_of(self, ctx: ScreenContext) -> str | None:
        """The game whose rules page a seat's long OK opens here, if any."""
        if self.session is not None:
            return self.session.game_id
        return ctx.lobby.chosen.spec.id if self.about_chosen_game else None


# What a screen's handler answers: the next screen, a step back to one earlier on the
# way, or None to stay.
Next: TypeAlias = ScreenState | ToAttract | ToMenu | None
