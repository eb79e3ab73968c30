"""The join screen: seats join the chosen game, switch their language, or start it."""

from __future__ import annotations

from typing import ClassVar

from controller.games.words import Verbatim, Words, as_arg, say
from controller.table.context import ScreenContext
from controller.table.languages import next_language
from controller.table.launch import options_form
from controller.table.screens.base import IDLE_TIMEOUT, Next, ScreenState, ToMenu
from controller.table.screens.options import OptionsScreen, options_settled
from controller.tags.members import NOT_A_MEMBER, welcome
from controller.view import ButtonHint, MessageKind, Screen
from controller.words.catalogs import LANGUAGE_NAMES
from hardware.cues import Cue
from hardware.events import Button


def _join(ctx: ScreenContext, seat: int) -> None:
    """A seat joins the chosen game (nothing happens if it already has)."""
    if ctx.lobby.join(seat):
        ctx.out.steady(seat, Cue.JOINED)
        ctx.out.changed()


def _member_tapped(ctx: ScreenContext, seat: int, uid: str) -> None:
    """A tag tapped at ``seat`` on the join screen (the seat has joined): a member card
    names the seat (``controller.tags.members``); a tag the table does not know at all is
    kindly refused as a member card (the seat plays on, anonymous). Only a table that
    knows member cards says so."""
    registry = ctx.registry
    if registry.lookup(uid) is not None:
        return  # a card of a deck: it joins, as it always did
    nickname = registry.member(uid)
    if nickname is not None:
        ctx.lobby.name_seat(seat, nickname)
        ctx.out.say(welcome(nickname), MessageKind.INFO, seat)
        return
    if registry.has_members():
        ctx.out.say(NOT_A_MEMBER, MessageKind.REFUSED, seat)


class JoinScreen(ScreenState):
    """Seats join the chosen game: OK joins or leaves, a card tap joins, NEXT starts.

    ``first`` is the seat whose OK chose the game: it has joined already.
    PREV at a seat that has joined switches that seat's panel to the next
    language (English, Deutsch, 日本語, round again); PREV at a seat that has
    not joined goes back to the menu. A joined seat's PREV never leaves the
    join screen, so switching languages cannot undo the others' joining.
    """

    screen = Screen.JOIN
    timeout = IDLE_TIMEOUT
    about_chosen_game = True
    labels: ClassVar[dict[Button, Words]] = {
        Button.PREV: say("menu"),
        Button.OK: say("join"),
        Button.NEXT: say("start game"),
    }

    def __init__(self, first: int) -> None:
        self.first = first

    def enter(self, ctx: ScreenContext) -> Next:
        chosen = ctx.lobby.chosen
        ctx.out.say(
            say(
                "{game}: press OK at your seat to join ({low}-{high} players); NEXT starts",
                game=as_arg(chosen.title),
                low=chosen.spec.min_players,
                high=chosen.spec.max_players,
            )
        )
        _join(ctx, self.first)
        return None

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> Next:
        if not ctx.is_staff_tag(uid):
            _join(ctx, seat)
            _member_tapped(ctx, seat, uid)  # a member card names the seat
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        if button == Button.OK:
            if ctx.lobby.leave(seat):
                ctx.out.steady(seat, Cue.OFF)
                ctx.out.changed()
            else:
                _join(ctx, seat)
        elif button == Button.PREV and seat in ctx.lobby.joined:
            ctx.out.say(ctx.languages.switch(seat, ctx.config.language), MessageKind.INFO, seat)
        elif button == Button.PREV:
            return ToMenu()
        elif button == Button.NEXT:
            return self._start(ctx)
        return None

    def _start(self, ctx: ScreenContext) -> Next:
        """Start the chosen game with the joined seats: its options first, if it has any."""
        form = options_form(ctx)
        if form is None:
            return None
        if form.visible or ctx.lobby.chosen.spec.presets:
            return OptionsScreen(form)
        return options_settled(ctx, form.options)

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        joined = ctx.lobby.joined
        hints = []
        for hint in super().hints(ctx):
            label, short = hint.label, hint.short
            if hint.button == Button.OK:
                label = say("leave") if hint.seat in joined else say("join")
            elif hint.button == Button.PREV and hint.seat in joined:
                # The next language in its own name, so its reader finds it on any panel.
                name = LANGUAGE_NAMES[next_language(ctx.language_of(hint.seat))]
                label = say("language: {language}", language=Verbatim(name))
                # TRANSLATORS: the language button on a narrow panel: the language's name alone.
                short = say("{language}", language=Verbatim(name))
            hints.append(ButtonHint(hint.seat, hint.button, label, short))
        return hints
