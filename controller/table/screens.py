"""One state object per screen: what a tag, a button or the toss timer means there.

The table holds exactly one ``ScreenState`` and hands it every seat input
with a ``ScreenContext`` (the lobby, the messages and LEDs, staff mode, ...).
The state acts on those parts and answers with the next screen, or None to
stay; it never sees the table. When the table changes screens it calls the
new state's ``enter``, which says what the screen is for (and may itself
answer with a further screen: a game that ends as it begins). Each state
also says how long the screen may stay idle and what the seat buttons do
there (for on-screen labels). Seat buttons outside a game (see ``docs/table.md``):

| screen | prev | ok | next | tap a card |
| --- | --- | --- | --- | --- |
| attract | wake | wake | wake | wake |
| choose game | previous game | choose it (and join) | next game | - |
| join | joined: language; else: menu | join / leave | start (enough joined) | join |
| options (a game with options) | previous line | change it / start | next line | - |
| starter (e.g. Oshaka's first lead) | - | "it's me" (joined seats) | - | "it's me" |
| cut for the deal (Oh Pshaw) | - | "cut for me" (seats still to cut) | - | cut that card |
| results | - | back to attract | - | - |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from controller.games.base import JSON, TableError
from controller.games.interned import forget_interned
from controller.games.words import (
    Card,
    Items,
    Seat,
    Text,
    Verbatim,
    Words,
    as_arg,
    say,
    say_plural,
)
from controller.table.context import ScreenContext
from controller.table.cut import Cut
from controller.table.languages import next_language
from controller.table.launch import begin, options_form
from controller.table.lobby import unmet_requirement
from controller.table.options import OptionsForm
from controller.table.play import (
    about_seat,
    act,
    after,
    end_now,
    feedback,
    refuse,
    take_back,
    undo,
)
from controller.table.session import GameSession
from controller.table.staff_mode import StaffCommand
from controller.tags.members import NOT_A_MEMBER, welcome
from controller.tags.registry import decks_of
from controller.tags.staff_desk import StaffDesk
from controller.view import ButtonHint, Message, MessageKind, Screen
from controller.words.catalogs import LANGUAGE_NAMES
from hardware.cues import Cue
from hardware.events import Button, TimerEvent

IDLE_TIMEOUT = 120.0  # seconds on the menu or join screen before going back to attract
RESULTS_TIMEOUT = 90.0
STAFF_TIMEOUT = 300.0  # an abandoned staff desk closes itself
STARTER_TIMEOUT = 30.0  # nobody answers the starter question: the table draws the seat
TAKE_BACK = Button.PREV  # during play, the seat button that takes back a card the rules allow


class ScreenState:
    """A screen's behaviour. Subclasses override what their screen reacts to.

    Every handler answers with the next screen, or None to stay on this one.
    """

    screen: ClassVar[Screen]
    timeout: ClassVar[float | None] = None  # idle seconds before going back to attract
    labels: ClassVar[dict[Button, Words]] = {}  # what each seat's buttons do here
    # Whether the table asks about the game chosen on the menu here (its rules page).
    about_chosen_game: ClassVar[bool] = False
    keeps_messages = False  # the previous screen's lines stay (a game's end, an undo)
    session: GameSession | None = None  # the game shown (in play, or just finished)
    result: JSON | None = None  # the finished game's report

    @property
    def playing(self) -> GameSession | None:
        """The game in progress on this screen, whose seats' LEDs show whose turn it is."""
        return None

    def enter(self, ctx: ScreenContext) -> ScreenState | None:
        """The table has just changed to this screen (its messages cleared unless kept)."""
        return None

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> ScreenState | None:
        """A tag tapped at ``seat``'s reader."""
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
        """A seat button pressed."""
        return None

    def on_timer(self, ctx: ScreenContext, event: TimerEvent) -> ScreenState | None:
        """The toss timer started, stopped or was cancelled."""
        return None

    def on_idle(self, ctx: ScreenContext) -> ScreenState | None:
        """``timeout`` seconds passed without input: back to attract, unless the screen says."""
        return AttractScreen()

    def on_reader_offline(self, ctx: ScreenContext, seat: int) -> ScreenState | None:
        """``seat``'s reader went offline (the table has said so already)."""
        return None

    def shown(self, messages: Sequence[Message]) -> list[Message]:
        """The table's lines this screen shows (all of them, but on the results screen)."""
        return list(messages)

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        """What every seat button does now, for the on-screen labels."""
        return [
            ButtonHint(seat, button, label)
            for seat in ctx.seats
            for button, label in self.labels.items()
        ]

    def rules_of(self, ctx: ScreenContext) -> str | None:
        """The game whose rules page a seat's long OK opens here, if any."""
        if self.session is not None:
            return self.session.game_id
        return ctx.lobby.chosen.spec.id if self.about_chosen_game else None


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

    def enter(self, ctx: ScreenContext) -> ScreenState | None:
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

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> ScreenState | None:
        if not ctx.is_staff_tag(uid):
            return ChooseGameScreen()
        # With a staff PIN the desk first asks for it; while the PIN is locked
        # after wrong tries the desk does not open at all.
        desk = ctx.door.open(seat, ctx.config)
        if isinstance(desk, StaffDesk):
            return StaffDeskScreen(desk)
        ctx.out.say(desk, MessageKind.PROBLEM, seat)
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
        return ChooseGameScreen()


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

    def enter(self, ctx: ScreenContext) -> ScreenState | None:
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

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
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

    def enter(self, ctx: ScreenContext) -> ScreenState | None:
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

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> ScreenState | None:
        if not ctx.is_staff_tag(uid):
            _join(ctx, seat)
            _member_tapped(ctx, seat, uid)  # a member card names the seat
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
        if button == Button.OK:
            if ctx.lobby.leave(seat):
                ctx.out.steady(seat, Cue.OFF)
                ctx.out.changed()
            else:
                _join(ctx, seat)
        elif button == Button.PREV and seat in ctx.lobby.joined:
            ctx.out.say(ctx.languages.switch(seat, ctx.config.language), MessageKind.INFO, seat)
        elif button == Button.PREV:
            return ChooseGameScreen()
        elif button == Button.NEXT:
            return self._start(ctx)
        return None

    def _start(self, ctx: ScreenContext) -> ScreenState | None:
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
            label = hint.label
            if hint.button == Button.OK:
                label = say("leave") if hint.seat in joined else say("join")
            elif hint.button == Button.PREV and hint.seat in joined:
                # The next language in its own name, so its reader finds it on any panel.
                name = LANGUAGE_NAMES[next_language(ctx.language_of(hint.seat))]
                label = say("language: {language}", language=Verbatim(name))
            hints.append(ButtonHint(hint.seat, hint.button, label))
        return hints


def options_settled(ctx: ScreenContext, options: JSON) -> ScreenState | None:
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
    return _begin(ctx, dict(options), None)


def _begin(
    ctx: ScreenContext, options: JSON, starter_seat: int | None, how: Sequence[Words] = ()
) -> ScreenState | None:
    began = begin(ctx, options, starter_seat, how)
    return None if began is None else PlayScreen(*began)


class OptionsScreen(ScreenState):
    """The chosen game's options (``controller.table.options``): PREV / NEXT at any seat
    move between the lines, OK changes the line's value or, on "Start the game", starts."""

    screen = Screen.OPTIONS
    timeout = IDLE_TIMEOUT
    about_chosen_game = True

    def __init__(self, form: OptionsForm) -> None:
        self.form = form

    def enter(self, ctx: ScreenContext) -> ScreenState | None:
        ctx.out.say(
            say(
                "{game}: the game's options. PREV / NEXT choose a line, OK changes it; "
                'OK on "Start the game" starts',
                game=as_arg(ctx.lobby.chosen.title),
            )
        )
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
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

    def enter(self, ctx: ScreenContext) -> ScreenState | None:
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

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> ScreenState | None:
        return None if ctx.is_staff_tag(uid) else self._answer(ctx, seat)

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
        return self._answer(ctx, seat) if button == Button.OK else None

    def _answer(self, ctx: ScreenContext, seat: int) -> ScreenState | None:
        if seat not in ctx.lobby.joined:
            ctx.out.say(
                say("{seat} has not joined this game", seat=Seat(seat)), MessageKind.REFUSED, seat
            )
            return None
        return _begin(ctx, self.options, seat)

    def on_idle(self, ctx: ScreenContext) -> ScreenState | None:
        return _begin(ctx, self.options, None)

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        return [ButtonHint(seat, Button.OK, say("it's me")) for seat in sorted(ctx.lobby.joined)]


class CutScreen(ScreenState):
    """Cutting for the deal (Oh Pshaw: "the first dealer is chosen by cutting for the
    lowest card"): each joined seat taps one card from the shuffled deck, the lowest
    starts, tied seats cut again (``controller.table.cut``).

    The table cuts for a seat that cannot tap: a bot's, one whose reader is
    offline, one that presses OK, every seat still waiting after
    ``STARTER_TIMEOUT`` seconds, and every seat with the virtual deal; it says
    each card so cut. The cut's cards are not in play: only the chosen seat
    reaches the game (the header's starter key).
    """

    screen = Screen.STARTER
    timeout = STARTER_TIMEOUT
    about_chosen_game = True

    def __init__(self, prompt: Words, options: JSON, cut: Cut) -> None:
        self.prompt = prompt
        self.options = options  # the options chosen for the game about to begin
        self.cut = cut
        self.said: list[Words] = []  # how the cut went, for the game's first lines

    def enter(self, ctx: ScreenContext) -> ScreenState | None:
        if ctx.config.deal == "virtual":
            self.said.append(say("The table cut for the deal with its virtual deck: lowest deals"))
            return self._draw(ctx, self.cut.waiting())
        ctx.out.say(
            say(
                "{game}: cut for the deal. Each seat taps one card from the shuffled deck "
                "(OK: the table cuts for you); the lowest card deals, ace high, ties cut again",
                game=as_arg(ctx.lobby.chosen.title),
            )
        )
        return self._draw(ctx, self._cannot_tap(ctx))

    def _cannot_tap(self, ctx: ScreenContext) -> list[int]:
        """The waiting seats the table cuts for: bots' seats and seats whose reader is offline."""
        bots = {seat.index for seat in ctx.config.seats if seat.bot}
        return [s for s in self.cut.waiting() if s in bots or not ctx.reader_online(s)]

    def _draw(self, ctx: ScreenContext, seats: list[int]) -> ScreenState | None:
        """The table cuts for ``seats`` (saying which card each got); then settle."""
        for seat in seats:
            card = self.cut.draw(seat, ctx.rng)
            ctx.out.say(
                say("The table cut {card} for {seat}", card=Card(card), seat=Seat(seat)),
                MessageKind.INFO,
                seat,
            )
        return self._settle(ctx)

    def _settle(self, ctx: ScreenContext) -> ScreenState | None:
        """Every contender has cut: the lowest starts, or the tied seats cut again."""
        cut = self.cut
        ctx.out.changed()
        if cut.waiting():
            return None
        lowest = cut.lowest()
        self.said.append(say("Cut for the deal: {cuts}", cuts=cut.shown()))
        if len(lowest) == 1:
            seat = lowest[0]
            starter = ctx.lobby.chosen.spec.starter
            assert starter is not None
            self.said.append(
                say(
                    "{seat} cut the lowest card ({card}) and {role}",
                    seat=Seat(seat),
                    card=Card(cut.cards[seat]),
                    role=as_arg(starter.role),
                )
            )
            return _begin(ctx, self.options, seat, self.said)
        tie = say(
            "{seats} tie for the lowest card: they cut again",
            seats=Items(tuple(Seat(seat) for seat in lowest)),
        )
        self.said.append(tie)
        ctx.out.say(tie)
        cut.again(lowest)
        if ctx.config.deal == "virtual":
            return self._draw(ctx, cut.waiting())
        return self._draw(ctx, self._cannot_tap(ctx))

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> ScreenState | None:
        if ctx.is_staff_tag(uid):
            return None
        why = self._refusal(ctx, seat, uid)
        if why is not None:
            ctx.out.say(why, MessageKind.REFUSED, seat)
            ctx.out.flash(seat, Cue.REFUSED)
            return None
        entry = ctx.registry.lookup(uid)
        assert entry is not None
        self.cut.take(seat, entry.card)
        ctx.out.say(say("{seat} cut {card}", seat=Seat(seat), card=Card(entry.card)))
        return self._settle(ctx)

    def _refusal(self, ctx: ScreenContext, seat: int, uid: str) -> Words | None:
        """Why the tag ``uid`` tapped at ``seat`` is no cut, or None when it is."""
        if seat not in ctx.lobby.joined:
            return say("{seat} has not joined this game", seat=Seat(seat))
        entry = ctx.registry.lookup(uid)
        if entry is None and (nickname := ctx.registry.member(uid)) is not None:
            return say(
                "that is {name}'s member card: to cut for the deal, tap one card of the deck",
                name=Verbatim(nickname),
            )
        if entry is None:
            return say(
                "{seat}: this tag ({tag}) is not enrolled in any deck; cut with a card of "
                "this game's deck, or press OK and the table cuts for you",
                seat=Seat(seat),
                tag=Verbatim(uid),
            )
        if entry.deck != ctx.lobby.chosen.spec.deck.id:
            return say(
                "that card belongs to the {deck} deck, not this game's: cut with one of its cards",
                deck=Verbatim(entry.deck),
            )
        return self.cut.refusal(seat, entry.card)

    def on_button(self, ctx: ScreenContext, seat: int, button: str) -> ScreenState | None:
        if button != "ok" or seat not in self.cut.waiting():
            return None
        return self._draw(ctx, [seat])  # OK: the table cuts for this seat

    def on_reader_offline(self, ctx: ScreenContext, seat: int) -> ScreenState | None:
        return self._draw(ctx, [seat]) if seat in self.cut.waiting() else None

    def on_idle(self, ctx: ScreenContext) -> ScreenState | None:
        waiting = self.cut.waiting()
        timed_out = say_plural(
            "Nobody cut for {n} second, so the table cuts for the seats still waiting",
            "Nobody cut for {n} seconds, so the table cuts for the seats still waiting",
            int(STARTER_TIMEOUT),
        )
        self.said.append(timed_out)  # said again as the game begins
        ctx.out.say(timed_out)
        return self._draw(ctx, waiting)

    def hints(self, ctx: ScreenContext) -> list[ButtonHint]:
        return [ButtonHint(seat, Button.OK, say("cut for me")) for seat in self.cut.waiting()]


class PlayScreen(ScreenState):
    """A game in progress: taps and presses go through the game's adapter to its engine.

    ``intro`` is what the table says as the game begins (or resumes, or is
    rebuilt after a staff undo, which keeps the lines already on screen).
    ``replays`` are the other seats' actions a player's take-back took back with
    its own (``SeatInput.retractable``): they stand, and are put back, journaled,
    as soon as the game waits for the first of them again.
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

    def enter(self, ctx: ScreenContext) -> ScreenState | None:
        for line in self.intro:
            ctx.out.say(line)
        return self._after(after(ctx, self.session, []))

    def _after(self, result: JSON | None, ctx: ScreenContext | None = None) -> ScreenState | None:
        """The results screen once the game has ended; else put back the cards a take-back
        took back, once the game waits for them (``ctx`` given: after a seat's action)."""
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
                ctx.out.say(
                    say("{seat}: tap your card again", seat=Seat(seat)), MessageKind.INFO, seat
                )
        return None if result is None else ResultsScreen(self.session, result)

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> ScreenState | None:
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

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
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

    def _staff(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
        """A press at the staff seat: a step of staff mode, then undo, end now, abandon, close."""
        session = self.session
        step = ctx.staff.press(button, can_end_early=session.engine.early_end(0) is not None)
        if step.message:
            ctx.out.say(step.message, MessageKind.INFO, seat)
        next_screen: ScreenState | None = None
        if step.command is StaffCommand.UNDO:
            next_screen = undone(ctx, session)
        elif step.command is StaffCommand.ABANDON:
            # The game ends without a result (it stays in the journal).
            session.abandon()
            next_screen = AttractScreen()
        elif step.command is StaffCommand.END_NOW:
            next_screen = self._after(end_now(ctx, session, seat))
        ctx.out.changed()
        return next_screen

    def on_timer(self, ctx: ScreenContext, event: TimerEvent) -> ScreenState | None:
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
        hints = [
            ButtonHint(session.players[player], button, label)
            for player, button, label in session.adapter.input.hints()
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


def undone(ctx: ScreenContext, session: GameSession) -> ScreenState | None:
    """Staff took back the last player action: the game rebuilt, the lines on screen kept."""
    rebuilt = undo(ctx, session)
    if rebuilt is None:
        return None
    session, said = rebuilt
    return PlayScreen(session, [said], keeps_messages=True)


class ResultsScreen(ScreenState):
    """The final score sheet: OK goes back to attract, PREV and NEXT turn its pages.

    The game's lines (the last trick, a staff question, "Game over: ...") stay in
    the table's log for the fleet and the tests, but the screen shows only what is
    said once it is up (a staff call): the sheet says who won and why, and a line
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

    def enter(self, ctx: ScreenContext) -> ScreenState | None:
        self._before = tuple(ctx.out.messages)
        if ctx.on_record is not None:
            ctx.on_record(self.session.game_id, self.session.recorder.dumps())
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
        return AttractScreen() if button == Button.OK else None

    def shown(self, messages: Sequence[Message]) -> list[Message]:
        # By identity: a line said again on this screen is new, though equal to an old one.
        return [m for m in messages if all(m is not old for old in self._before)]


class StaffDeskScreen(ScreenState):
    """The staff desk (enroll, audit, history); the staff tag again closes it."""

    screen = Screen.STAFF
    timeout = STAFF_TIMEOUT

    def __init__(self, desk: StaffDesk) -> None:
        self.desk = desk

    def on_tag(self, ctx: ScreenContext, seat: int, uid: str) -> ScreenState | None:
        if ctx.is_staff_tag(uid):
            return AttractScreen()
        self.desk.tap(uid)
        ctx.out.changed()
        return None

    def on_button(self, ctx: ScreenContext, seat: int, button: Button) -> ScreenState | None:
        desk = self.desk
        if seat != desk.seat:
            return None
        desk.button(button)
        if not desk.closed:
            ctx.out.changed()
            return None
        # The desk closed itself: back to attract, saying why, or stop the kiosk.
        ctx.door.closed(desk)
        return AttractScreen((desk.farewell, desk.seat) if desk.farewell else None)

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
