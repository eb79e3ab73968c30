"""The attract screen: the table at rest; anything wakes it, a staff tag opens the staff desk."""

from __future__ import annotations

from typing import ClassVar

from controller.games.interned import forget_interned
from controller.games.words import Words, say
from controller.table.context import ScreenContext
from controller.table.screens.base import Next, ScreenState
from controller.table.screens.choose_game import ChooseGameScreen
from controller.table.screens.staff_desk import StaffDeskScreen
from controller.tags.staff_desk import StaffDesk
from controller.view import MessageKind, Screen
from hardware.events import Button


class AttractScreen(ScreenState):
    """Idle: anything wakes the table; a staff tag opens the staff desk.

    Entering it ends whatever was going on: no game, no staff mode, nobody
    joined, every panel in the table's language. ``farewell`` is what the
    staff desk said as it closed itself, said again here at its seat.
    """

    screen = Screen.ATTRACT
    labels: ClassVar[dict[Button, Words]] = {Button.OK: say("start")}

    def __init__(self, farewell: tuple[Words, int] | None = None) -> None:
        self.farewell = farewell

    def enter(self, ctx: ScreenContext) -> Next:
        # No game is in progress: what the engines interned for it goes (a pure cache).
        forget_interned()
        ctx.languages.clear()  # a seat's language holds until the table rests again
        ctx.staff.close()
        ctx.lobby.clear()
        ctx.rest_leds(None)
        if ctx.setup_notice:
            ctx.out.say(ctx.setup_notice, MessageKind.PROBLEM)
        if self.farewell is not None:
            words, seat = self.farewell
            ctx.out.say(words, MessageKind.PROBLEM, seat)
        return None

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> Next:
        if not ctx.is_staff_tag(uid):
            return ChooseGameScreen()
        # With a staff PIN the desk first asks for it; while the PIN is locked
        # after wrong tries the desk does not open at all.
        desk = ctx.door.open(seat, ctx.config)
        if isinstance(desk, StaffDesk):
            return StaffDeskScreen(desk)
        ctx.out.say(desk, MessageKind.PROBLEM, seat)
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        return ChooseGameScreen()
