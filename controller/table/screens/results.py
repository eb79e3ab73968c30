"""The results screen: the final score sheet until OK (or its timeout) goes back to attract."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from controller.games.base import JSON
from controller.games.words import Words, say
from controller.table.context import ScreenContext
from controller.table.screens.base import RESULTS_TIMEOUT, Next, ScreenState, ToAttract
from controller.table.session import GameSession
from controller.view import Message, Screen
from hardware.events import Button


class ResultsScreen(ScreenState):
    """The final score sheet: OK goes back to attract, PREV and NEXT turn its pages.

    The game's lines (the last trick, a staff question, "Game over: ...") stay in
    the table's log for the fleet and the tests, but the screen shows only what is
    said once it is up (a reader lost): the sheet says who won and why, and a line
    about play would be an old voice, or the winner said twice.
    """

    screen = Screen.RESULTS
    timeout = RESULTS_TIMEOUT
    labels: ClassVar[dict[Button, Words]] = {
        Button.PREV: say("< page"),
        Button.OK: say("done"),
        Button.NEXT: say("page >"),
    }
    keeps_messages = True  # kept in the log, not shown (``shown``)

    def __init__(self, session: GameSession, result: JSON) -> None:
        self.session: GameSession = session
        self.result = result
        self._before: tuple[Message, ...] = ()

    def enter(self, ctx: ScreenContext) -> Next:
        self._before = tuple(ctx.out.messages)
        if ctx.on_record is not None:
            ctx.on_record(self.session.game_id, self.session.recorder.dumps())
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        return ToAttract() if button == Button.OK else None

    def shown(self, messages: Sequence[Message]) -> list[Message]:
        # By identity: a line said again on this screen is new, though equal to an old one.
        return [m for m in messages if all(m is not old for old in self._before)]
