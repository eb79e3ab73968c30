"""The starter question: the rulebook asks who starts, the first joined seat to answer does."""

from __future__ import annotations

from controller.games.base import JSON
from controller.games.words import Seat, Words, as_arg, say
from controller.table.context import ScreenContext
from controller.table.screens.base import STARTER_TIMEOUT, Next, ScreenState
from controller.table.screens.play import begin_game
from controller.view import ButtonHint, MessageKind, Screen
from hardware.events import Button


class StarterScreen(ScreenState):
    """The rulebook's question that picks who starts (e.g. Oshaka's "who most recently
    helped someone?"): the first joined seat to tap a card or press OK starts the game
    as that seat; nobody answering within ``STARTER_TIMEOUT`` lets the table draw one."""

    screen = Screen.STARTER
    timeout = STARTER_TIMEOUT
    about_chosen_game = True

    def __init__(self, prompt: Words, options: JSON) -> None:
        self.prompt = prompt
        self.options = options  # the options chosen for the game about to begin

    def enter(self, ctx: ScreenContext) -> Next:
        chosen = ctx.lobby.chosen
        starter = chosen.spec.starter
        assert starter is not None
        ctx.out.say(
            say(
                "{game}: {question} That player taps a card or presses OK and {role}",
                game=as_arg(chosen.title),
                question=as_arg(starter.question),
                role=as_arg(starter.role),
            )
        )
        return None

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> Next:
        return None if ctx.is_staff_tag(uid) else self._answer(ctx, seat)

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        return self._answer(ctx, seat) if button == Button.OK else None

    def _answer(self, ctx: ScreenContext, seat: int) -> Next:
        if seat not in ctx.lobby.joined:
            ctx.out.say(
                say("{seat} has not joined this game", seat=Seat(seat)), MessageKind.REFUSED, seat
            )
            return None
        return begin_game(ctx, self.options, seat)

    def on_idle(self, ctx: ScreenContext) -> Next:
        return begin_game(ctx, self.options, None)

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        return [ButtonHint(seat, Button.OK, say("it's me")) for seat in sorted(ctx.lobby.joined)]
