"""The staff desk screen: enroll, audit and history, behind the staff tag (and PIN)."""

from __future__ import annotations

from controller.games.words import say
from controller.table.context import ScreenContext
from controller.table.screens.base import STAFF_TIMEOUT, Next, ScreenState, ToAttract
from controller.tags.staff_desk import StaffDesk
from controller.view import ButtonHint, Screen
from hardware.events import Button


class StaffDeskScreen(ScreenState):
    """The staff desk (enroll, audit, history); the staff tag again closes it."""

    screen = Screen.STAFF
    timeout = STAFF_TIMEOUT

    def __init__(self, desk: StaffDesk) -> None:
        self.desk = desk

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> Next:
        if ctx.is_staff_tag(uid):
            return ToAttract()
        self.desk.tap(uid)
        ctx.out.changed()
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        desk = self.desk
        if seat != desk.seat:
            return None
        desk.button(button)
        if not desk.closed:
            ctx.out.changed()
            return None
        # The desk closed itself: back to attract, saying why, or stop the kiosk.
        ctx.door.closed(desk)
        return ToAttract((desk.farewell, desk.seat) if desk.farewell else None)

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        desk = self.desk
        if desk.task == "pin":
            # PIN symbols, the same in every language.
            return [
                ButtonHint(desk.seat, b, s)
                for b, s in ((Button.PREV, "P"), (Button.OK, "O"), (Button.NEXT, "N"))
            ]
        return [
            ButtonHint(desk.seat, Button.PREV, say("back") if desk.task != "menu" else say("up")),
            ButtonHint(desk.seat, Button.OK, say("choose")),
            ButtonHint(
                desk.seat, Button.NEXT, say("skip") if desk.task == "enroll" else say("down")
            ),
        ]
