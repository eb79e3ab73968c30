"""The options screen, and what follows once a game's options are settled."""

from __future__ import annotations

from controller.games.base import JSON
from controller.games.words import as_arg, say
from controller.table.context import ScreenContext
from controller.table.cut import Cut
from controller.table.options import OptionsForm
from controller.table.screens.base import IDLE_TIMEOUT, Next, ScreenState
from controller.table.screens.cut import CutScreen
from controller.table.screens.play import begin_game
from controller.table.screens.starter import StarterScreen
from controller.view import ButtonHint, Screen
from hardware.events import Button


def options_settled(ctx: ScreenContext, options: JSON) -> Next:
    """The options are settled: ask the rulebook's starter question, or begin."""
    starter = ctx.lobby.chosen.spec.starter
    if starter is not None and starter.cut is not None:
        # The rulebook cuts for it: the lowest card starts.
        deck = ctx.lobby.chosen.spec.deck.distinct()
        cut = Cut(sorted(ctx.lobby.joined), starter.cut, deck)
        return CutScreen(starter.question, dict(options), cut)
    if starter is not None:
        # The rulebook lets the players choose who starts: ask, and wait for an answer.
        return StarterScreen(starter.question, dict(options))
    return begin_game(ctx, dict(options), None)


class OptionsScreen(ScreenState):
    """The chosen game's options (``controller.table.options``): PREV / NEXT at any seat
    move between the lines, OK changes the line's value or, on "Start the game", starts."""

    screen = Screen.OPTIONS
    timeout = IDLE_TIMEOUT
    about_chosen_game = True

    def __init__(self, form: OptionsForm) -> None:
        self.form = form

    def enter(self, ctx: ScreenContext) -> Next:
        ctx.out.say(
            say(
                "{game}: the game's options. PREV / NEXT choose a line, OK changes it; "
                'OK on "Start the game" starts',
                game=as_arg(ctx.lobby.chosen.title),
            )
        )
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        if button in (Button.PREV, Button.NEXT):
            self.form.move(-1 if button == Button.PREV else 1)
        elif button == Button.OK and self.form.press_ok():
            return options_settled(ctx, self.form.options)
        ctx.out.changed()
        return None

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        labels = self.form.button_labels()
        return [
            ButtonHint(seat, button, label)
            for seat in ctx.seats
            for button, label in labels.items()
        ]
