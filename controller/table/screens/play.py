"""The play screen: a game in progress, its seats' taps and presses, staff mode during it."""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.base import JSON, TableError
from controller.games.words import Seat, Text, Verbatim, Words, say
from controller.table.context import ScreenContext
from controller.table.launch import begin
from controller.table.play import (
    about_seat,
    act,
    after,
    end_now,
    feedback,
    journal_replays,
    refuse,
    take_back,
    undo,
)
from controller.table.screens.base import Next, ScreenState, ToAttract
from controller.table.screens.results import ResultsScreen
from controller.table.session import GameSession
from controller.table.staff_mode import StaffCommand
from controller.tags.registry import decks_of
from controller.view import ButtonHint, MessageKind, Screen
from hardware.cues import Cue
from hardware.events import Button, TimerEvent

TAKE_BACK = Button.PREV  # during play, the seat button that takes back a card the rules allow


def begin_game(
    ctx: ScreenContext, options: JSON, starter_seat: int | None, how: Sequence[Words] = ()
) -> Next:
    """Begin the chosen game with ``options`` (``starter_seat`` starts, if chosen; ``how``:
    how it was chosen): its play screen, or None when it cannot begin (the table said why)."""
    began = begin(ctx, options, starter_seat, how)
    return None if began is None else PlayScreen(*began)


class PlayScreen(ScreenState):
    """A game in progress: taps and presses go through the game's adapter to its engine.

    ``intro`` is what the table says as the game begins (or resumes, or is
    rebuilt after a staff undo, which keeps the lines already on screen).
    ``replays`` are the other seats' actions a player's take-back took back with
    its own (``SeatInput.retractable``): they stand, and are put back, journaled,
    as soon as the game waits for the first of them again. The list is journaled
    too (``table.play.journal_replays``), so a game resumed after a crash puts
    them back as well (``Table.resume``).
    """

    screen = Screen.PLAY

    def __init__(
        self,
        session: GameSession,
        intro: Sequence[Words] = (),
        *,
        keeps_messages: bool = False,
        replays: Sequence[JSON] = (),
    ) -> None:
        self.session: GameSession = session
        self.intro = tuple(intro)
        self.keeps_messages = keeps_messages
        self.replays = list(replays)

    @property
    def playing(self) -> GameSession | None:
        return self.session

    def enter(self, ctx: ScreenContext) -> Next:
        for line in self.intro:
            ctx.out.say(line)
        # (A game resumed in the middle of a take-back may be waiting for a put-back.)
        return self._after(after(ctx, self.session, []), ctx)

    def _after(self, result: JSON | None, ctx: ScreenContext | None = None) -> Next:
        """The results screen once the game has ended; else put back the cards a take-back
        took back, once the game waits for them (``ctx`` given: at entry or after a seat's
        action)."""
        while result is None and ctx is not None and self.replays:
            expected = self.session.engine.expected
            obj = self.replays[0]
            if expected is None or expected.seat != obj.get("seat"):
                break
            self.replays.pop(0)
            seat = self.session.players[expected.seat]
            before = len(self.session.recorder.actions)
            result = act(ctx, self.session, self.session.engine.parse_action(obj), seat)
            if len(self.session.recorder.actions) == before:
                # Refused now (it should not be): that seat plays again, and so do the rest.
                self.replays.clear()
                journal_replays(self.session, [])
                ctx.out.say(
                    say("{seat}: tap your card again", seat=Seat(seat)), MessageKind.INFO, seat
                )
        return None if result is None else ResultsScreen(self.session, result)

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> Next:
        session = self.session
        entry = ctx.registry.lookup(uid)
        if entry is not None and entry.is_staff:
            # The staff tag tapped at a seat during a game: staff mode opens (or closes) there.
            ctx.out.say(ctx.staff.tag(seat), MessageKind.INFO, seat)
            return None
        if entry is None and (nickname := ctx.registry.member(uid)) is not None:
            # A member card is enrolled, only not as a card: say what it is for.
            why = say(
                "that is {name}'s member card, which names a seat when players join; "
                "to play, tap a card of this game's deck",
                name=Verbatim(nickname),
            )
            refuse(ctx, session, seat, why)
            return None
        if entry is None:
            ctx.out.say(
                say(
                    "{seat}: this tag ({tag}) is not enrolled in any deck; ask staff to enroll it",
                    seat=Seat(seat),
                    tag=Verbatim(uid),
                ),
                MessageKind.PROBLEM,
                seat,
            )
            ctx.out.flash(seat, Cue.REFUSED)
            return None
        if entry.deck not in decks_of(session.game_id):
            why = say(
                "that card belongs to the {deck} deck, not this game's", deck=Verbatim(entry.deck)
            )
            refuse(ctx, session, seat, why)
            return None
        player = session.player_at(seat)
        if player is None:
            ctx.out.say(
                say("{seat} is not playing this game", seat=Seat(seat)), MessageKind.REFUSED, seat
            )
            ctx.out.flash(seat, Cue.REFUSED)
            return None
        session.draws.next_input()
        try:
            action = session.adapter.input.on_card(player, entry.card)
        except TableError as exc:
            refuse(ctx, session, seat, exc.text)
            return None
        return self._after(act(ctx, session, action, seat), ctx)

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        session = self.session
        if seat == ctx.staff.seat:
            return self._staff(ctx, seat, button)
        player = session.player_at(seat)
        if player is None:
            return None
        retractable = session.adapter.input.retractable(player)
        if button == TAKE_BACK and retractable is not None and not self.replays:
            rebuilt, later = take_back(ctx, session, seat, retractable)
            return PlayScreen(rebuilt, keeps_messages=True, replays=later)
        session.draws.next_input()
        answer = session.adapter.input.on_button(player, button)
        if isinstance(answer, str | Text):
            ctx.out.say(about_seat(session, seat, answer), MessageKind.INFO, seat)
        elif answer is not None:
            return self._after(act(ctx, session, answer, seat), ctx)
        else:
            ctx.out.changed()
        return None

    def reports(self, ctx: ScreenContext, seat: int) -> bool:
        player = self.session.player_at(seat)
        if seat == ctx.staff.seat or player is None:
            return False
        return self.session.adapter.input.reports(player)

    def _staff(self, ctx: ScreenContext, seat: int, button: Button) -> Next:
        """A press at the staff seat: a step of staff mode, then undo, end now, abandon, close."""
        session = self.session
        step = ctx.staff.press(button, can_end_early=session.engine.early_end(0) is not None)
        if step.message:
            ctx.out.say(step.message, MessageKind.INFO, seat)
        next_screen: Next = None
        if step.command is StaffCommand.UNDO:
            next_screen = undone(ctx, session)
        elif step.command is StaffCommand.ABANDON:
            # The game ends without a result (it stays in the journal).
            session.abandon()
            next_screen = ToAttract()
        elif step.command is StaffCommand.END_NOW:
            next_screen = self._after(end_now(ctx, session, seat))
        ctx.out.changed()
        return next_screen

    def on_timer(self, ctx: ScreenContext, event: TimerEvent) -> Next:
        session = self.session
        # A stopped toss is an action of the record (the engine keeps the attempt
        # log and the bests), journaled like any other, so it survives undo and resume.
        action = session.adapter.input.timer_action(event)
        if action is not None:
            return self._after(act(ctx, session, action, session.players[action.seat]))
        for fb in session.adapter.input.on_timer(event):
            feedback(ctx, session, fb)
        ctx.out.changed()
        return None

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        session = self.session
        staff = ctx.staff.seat
        given = session.adapter.input
        hints = [
            ButtonHint(session.players[player], button, label, given.short_label(label))
            for player, button, label in given.hints()
            if session.players[player] != staff
        ]
        if not self.replays:
            # A card its rulebook lets a player take back (Oh Pshaw's renege noticed in time).
            hints += [
                ButtonHint(seat, TAKE_BACK, say("take back my card"))
                for player, seat in enumerate(session.players)
                if seat != staff and session.adapter.input.retractable(player) is not None
            ]
        if staff is not None:
            # The staff seat's buttons are staff's now: label them so.
            hints += [ButtonHint(staff, b, label) for b, label in ctx.staff.hints().items()]
        return hints


def undone(ctx: ScreenContext, session: GameSession) -> Next:
    """Staff took back the last player action: the game rebuilt, the lines on screen kept."""
    rebuilt = undo(ctx, session)
    if rebuilt is None:
        return None
    session, said = rebuilt
    return PlayScreen(session, [said], keeps_messages=True)
