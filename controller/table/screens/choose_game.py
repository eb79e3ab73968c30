"""The game menu: PREV / NEXT move, OK chooses the game and joins the seat that chose."""

from __future__ import annotations

from typing import ClassVar

from controller.games.words import Words, say, say_plural
from controller.table.context import ScreenContext
from controller.table.lobby import unmet_requirement
from controller.table.screens.base import IDLE_TIMEOUT, Next, ScreenState
from controller.table.screens.join import JoinScreen
from controller.view import MessageKind, Screen
from hardware.events import Button


class ChooseGameScreen(ScreenState):
    """The game menu: PREV / NEXT move, OK chooses (and joins the seat that chose).

    Seats that joined a game and came back here to choose another stay joined:
    the menu says which games they can play (``menu_note``) and they need not
    join again. Attract empties the lobby.
    """

    screen = Screen.CHOOSE_GAME
    timeout = IDLE_TIMEOUT
    about_chosen_game = True
    labels: ClassVar[dict[Button, Words]] = {
        Button.PREV: say("previous game"),
        Button.OK: say("choose"),
        Button.NEXT: say("next game"),
    }
    short_labels: ClassVar[dict[Button, Words]] = {
        # TRANSLATORS: "previous game" on a narrow panel's button.
        Button.PREV: say("previous"),
        # TRANSLATORS: "next game" on a narrow panel's button.
        Button.NEXT: say("next"),
    }

    def enter(self, ctx: ScreenContext) -> Next:
        ctx.out.say(say("Choose a game: PREV / NEXT, then OK"))
        joined = len(ctx.lobby.joined)
        if joined:
            ctx.out.say(
                say_plural(
                    "{n} seat stays joined; the menu says which games it can play",
                    "{n} seats stay joined; the menu says which games they can play",
                    joined,
                )
            )
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        if button == Button.OK:
            # The join screen for the chosen game, unless the table cannot run it.
            unmet = unmet_requirement(ctx.lobby.chosen.spec, ctx.config)
            if unmet is not None:
                ctx.out.say(unmet, MessageKind.REFUSED, seat)
                return None
            return JoinScreen(seat)
        if button in (Button.PREV, Button.NEXT):
            ctx.lobby.move(-1 if button == Button.PREV else 1)
            ctx.out.changed()
        return None
