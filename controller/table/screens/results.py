"""The results screen: the final score sheet until OK (or its timeout) goes back to attract."""

from __future__ import annotations

from typing import ClassVar

from controller.games.base import JSON
from controller.games.words import Words, say
from controller.table.context import ScreenContext
from controller.table.screens.base import RESULTS_TIMEOUT, Next, ScreenState, ToAttract
from controller.table.session import GameSession
from controller.view import Screen
from hardware.events import Button


class ResultsScreen(ScreenState):
    """The final score sheet: OK goes back to attract. The game's lines stay on screen."""

    screen = Screen.RESULTS
    timeout = RESULTS_TIMEOUT
    labels: ClassVar[dict[Button, Words]] = {Button.OK: say("done")}
    keeps_messages = True

    def __init__(self, session: GameSession, result: JSON) -> None:
        self.session: GameSession = session
        self.result = result

    def enter(self, ctx: ScreenContext) -> Next:
        if ctx.on_record is not None:
            ctx.on_record(self.session.game_id, self.session.recorder.dumps())
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        return ToAttract() if button == Button.OK else None
