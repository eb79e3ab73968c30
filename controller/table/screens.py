"""One state object per screen: what a tag, a button or the toss timer means there.

The table holds exactly one ``ScreenState`` and hands it every seat input;
the state acts through the table's methods (``to_menu``, ``act``, ``announce``,
...) and never sets the table's fields. Each state also says how long the
screen may stay idle and what the seat buttons do there (for on-screen
labels). Seat buttons outside a game (see ``docs/table.md``):

| screen | prev | ok | next | tap a card |
| --- | --- | --- | --- | --- |
| attract | wake | wake | wake | wake |
| choose game | previous game | choose it (and join) | next game | - |
| join | joined: language; else: menu | join / leave | start (enough joined) | join |
| options (a game with options) | previous line | change it / start | next line | - |
| starter (e.g. Oshaka's first lead) | - | "it's me" (joined seats) | - | "it's me" |
| results | - | back to attract | - | - |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from controller.games.base import TableError
from controller.games.words import Seat, Text, Verbatim, Words, say
from controller.table.options import OptionsForm
from controller.tags.members import tapped_at_join
from controller.tags.registry import deck_of
from controller.tags.staff_desk import StaffDesk
from controller.view import ButtonHint, MessageKind, Screen
from controller.words.catalogs import LANGUAGE_NAMES
from hardware.cues import Cue
from hardware.events import TimerEvent

if TYPE_CHECKING:
    from controller.table import Table

IDLE_TIMEOUT = 120.0  # seconds on the menu or join screen before going back to attract
RESULTS_TIMEOUT = 90.0
STAFF_TIMEOUT = 300.0  # an abandoned staff desk closes itself
STARTER_TIMEOUT = 30.0  # nobody answers the starter question: the table draws the seat


class ScreenState:
    """A screen's behaviour. Subclasses override what their screen reacts to."""

    screen: ClassVar[Screen]
    timeout: ClassVar[float | None] = None  # idle seconds before going back to attract
    labels: ClassVar[dict[str, Words]] = {}  # what each seat's buttons do here

    def on_tag(self, table: Table, seat: int, uid: str) -> None:
        """A tag tapped at ``seat``'s reader."""

    def on_button(self, table: Table, seat: int, button: str) -> None:
        """A seat button pressed."""

    def on_timer(self, table: Table, event: TimerEvent) -> None:
        """The toss timer started, stopped or was cancelled."""

    def hints(self, table: Table) -> list[ButtonHint]:
        """What every seat button does now, for the on-screen labels."""
        return [
            ButtonHint(seat, button, label)
            for seat in table.seat_indexes
            for button, label in self.labels.items()
        ]

    def on_idle(self, table: Table) -> None:
        """``timeout`` seconds passed without input: back to attract, unless the screen says."""
        table.to_attract()


class AttractScreen(ScreenState):
    """Idle: anything wakes the table; a staff tag opens the staff desk."""

    screen = Screen.ATTRACT
    labels: ClassVar[dict[str, Words]] = {"ok": say("start")}

    def on_tag(self, table: Table, seat: int, uid: str) -> None:
        if table.is_staff_tag(uid):
            table.open_desk(seat)
        else:
            table.to_menu()

    def on_button(self, table: Table, seat: int, button: str) -> None:
        table.to_menu()


class ChooseGameScreen(ScreenState):
    """The game menu: PREV / NEXT move, OK chooses (and joins the seat that chose)."""

    screen = Screen.CHOOSE_GAME
    timeout = IDLE_TIMEOUT
    labels: ClassVar[dict[str, Words]] = {
        "prev": say("previous game"),
        "ok": say("choose"),
        "next": say("next game"),
    }

    def on_button(self, table: Table, seat: int, button: str) -> None:
        if button == "ok":
            table.choose_game(seat)
        elif button in ("prev", "next"):
            table.move_menu(-1 if button == "prev" else 1)


class JoinScreen(ScreenState):
    """Seats join the chosen game: OK joins or leaves, a card tap joins, NEXT starts.

    PREV at a seat that has joined switches that seat's panel to the next
    language (English, Deutsch, 日本語, round again); PREV at a seat that has
    not joined goes back to the menu. A joined seat's PREV never leaves the
    join screen, so switching languages cannot undo the others' joining.
    """

    screen = Screen.JOIN
    timeout = IDLE_TIMEOUT
    labels: ClassVar[dict[str, Words]] = {
        "prev": say("menu"),
        "ok": say("join"),
        "next": say("start game"),
    }

    def on_tag(self, table: Table, seat: int, uid: str) -> None:
        if not table.is_staff_tag(uid):
            table.join(seat)
            tapped_at_join(table, seat, uid)  # a member card names the seat

    def on_button(self, table: Table, seat: int, button: str) -> None:
        if button == "ok":
            table.toggle_join(seat)
        elif button == "prev" and seat in table.joined:
            table.switch_language(seat)
        elif button == "prev":
            table.to_menu()
        elif button == "next":
            table.start_game()

    def hints(self, table: Table) -> list[ButtonHint]:
        from controller.table import next_language

        joined = table.joined
        hints = []
        for hint in super().hints(table):
            label = hint.label
            if hint.button == "ok":
                label = say("leave") if hint.seat in joined else say("join")
            elif hint.button == "prev" and hint.seat in joined:
                # The next language in its own name, so its reader finds it on any panel.
                name = LANGUAGE_NAMES[next_language(table.language_of(hint.seat))]
                label = say("language: {language}", language=Verbatim(name))
            hints.append(ButtonHint(hint.seat, hint.button, label))
        return hints


class OptionsScreen(ScreenState):
    """The chosen game's options (``controller.table.options``): PREV / NEXT at any seat
    move between the lines, OK changes the line's value or, on "Start the game", starts."""

    screen = Screen.OPTIONS
    timeout = IDLE_TIMEOUT

    def __init__(self, form: OptionsForm) -> None:
        self.form = form

    def on_button(self, table: Table, seat: int, button: str) -> None:
        if button in ("prev", "next"):
            self.form.move(-1 if button == "prev" else 1)
        elif button == "ok" and self.form.press_ok():
            table.options_chosen(self.form.options)
            return
        table.changed()

    def hints(self, table: Table) -> list[ButtonHint]:
        labels = self.form.button_labels()
        return [
            ButtonHint(seat, button, label)
            for seat in table.seat_indexes
            for button, label in labels.items()
        ]


class StarterScreen(ScreenState):
    """The rulebook's question that picks who starts (e.g. Oshaka's "who most recently
    helped someone?"): the first joined seat to tap a card or press OK starts the game
    as that seat; nobody answering within ``STARTER_TIMEOUT`` lets the table draw one."""

    screen = Screen.STARTER
    timeout = STARTER_TIMEOUT

    def __init__(self, prompt: Words) -> None:
        self.prompt = prompt

    def on_tag(self, table: Table, seat: int, uid: str) -> None:
        if not table.is_staff_tag(uid):
            self._answer(table, seat)

    def on_button(self, table: Table, seat: int, button: str) -> None:
        if button == "ok":
            self._answer(table, seat)

    def _answer(self, table: Table, seat: int) -> None:
        if seat not in table.joined:
            table.announce(
                say("{seat} has not joined this game", seat=Seat(seat)), MessageKind.REFUSED, seat
            )
            return
        table.begin_game(seat)

    def on_idle(self, table: Table) -> None:
        table.begin_game(None)

    def hints(self, table: Table) -> list[ButtonHint]:
        return [ButtonHint(seat, "ok", say("it's me")) for seat in sorted(table.joined)]


class PlayScreen(ScreenState):
    """A game in progress: taps and presses go through the game's adapter to its engine."""

    screen = Screen.PLAY

    def on_tag(self, table: Table, seat: int, uid: str) -> None:
        session = table.game
        if session is None:
            return
        entry = table.registry.lookup(uid)
        if entry is not None and entry.is_staff:
            table.staff_tag(seat)
            return
        if entry is None and (nickname := table.registry.member(uid)) is not None:
            # A member card is enrolled, only not as a card: say what it is for.
            table.refuse(
                seat,
                say(
                    "that is {name}'s member card, which names a seat when players join; "
                    "to play, tap a card of this game's deck",
                    name=Verbatim(nickname),
                ),
            )
            return
        if entry is None:
            table.announce(
                say(
                    "{seat}: this tag ({tag}) is not enrolled in any deck; ask staff to enroll it",
                    seat=Seat(seat),
                    tag=Verbatim(uid),
                ),
                MessageKind.PROBLEM,
                seat,
            )
            table.flash(seat, Cue.REFUSED)
            return
        if entry.deck != deck_of(session.game_id):
            table.refuse(
                seat,
                say(
                    "that card belongs to the {deck} deck, not this game's",
                    deck=Verbatim(entry.deck),
                ),
            )
            return
        player = session.player_at(seat)
        if player is None:
            table.announce(
                say("{seat} is not playing this game", seat=Seat(seat)), MessageKind.REFUSED, seat
            )
            table.flash(seat, Cue.REFUSED)
            return
        session.draws.next_input()
        try:
            action = session.adapter.input.on_card(player, entry.card)
        except TableError as exc:
            table.refuse(seat, exc.text)
            return
        table.act(action, seat)

    def on_button(self, table: Table, seat: int, button: str) -> None:
        session = table.game
        if session is None:
            return
        if seat == table.staff_seat:
            table.staff_command(seat, button)
            return
        player = session.player_at(seat)
        if player is None:
            return
        session.draws.next_input()
        answer = session.adapter.input.on_button(player, button)
        if isinstance(answer, str | Text):
            table.announce(table.about_seat(seat, answer), MessageKind.INFO, seat)
        elif answer is not None:
            table.act(answer, seat)
        else:
            table.changed()

    def on_timer(self, table: Table, event: TimerEvent) -> None:
        session = table.game
        if session is None:
            return
        # A stopped toss is an action of the record (the engine keeps the attempt
        # log and the bests), journaled like any other, so it survives undo and resume.
        action = session.adapter.input.timer_action(event)
        if action is not None:
            table.act(action, session.players[action.seat])
            return
        for feedback in session.adapter.input.on_timer(event):
            table.feedback(feedback)
        table.changed()

    def hints(self, table: Table) -> list[ButtonHint]:
        session = table.game
        if session is None:
            return []
        staff = table.staff_seat
        hints = [
            ButtonHint(session.players[player], button, label)
            for player, button, label in session.adapter.input.hints()
            if session.players[player] != staff
        ]
        if staff is not None:
            # The staff seat's buttons are staff's now: label them so.
            hints += [ButtonHint(staff, b, label) for b, label in table.staff_hints().items()]
        return hints


class ResultsScreen(ScreenState):
    """The final score sheet: OK goes back to attract."""

    screen = Screen.RESULTS
    timeout = RESULTS_TIMEOUT
    labels: ClassVar[dict[str, Words]] = {"ok": say("done")}

    def on_button(self, table: Table, seat: int, button: str) -> None:
        if button == "ok":
            table.to_attract()


class StaffDeskScreen(ScreenState):
    """The staff desk (enroll, audit, history); the staff tag again closes it."""

    screen = Screen.STAFF
    timeout = STAFF_TIMEOUT

    def __init__(self, desk: StaffDesk) -> None:
        self.desk = desk

    def on_tag(self, table: Table, seat: int, uid: str) -> None:
        if table.is_staff_tag(uid):
            table.to_attract()
        else:
            self.desk.tap(uid)
            table.changed()

    def on_button(self, table: Table, seat: int, button: str) -> None:
        if seat != self.desk.seat:
            return
        self.desk.button(button)
        if self.desk.closed:
            table.close_desk(self.desk)
        else:
            table.changed()

    def hints(self, table: Table) -> list[ButtonHint]:
        desk = self.desk
        if desk.task == "pin":
            # PIN symbols, the same in every language.
            return [
                ButtonHint(desk.seat, b, s) for b, s in (("prev", "P"), ("ok", "O"), ("next", "N"))
            ]
        return [
            ButtonHint(desk.seat, "prev", say("back") if desk.task != "menu" else say("up")),
            ButtonHint(desk.seat, "ok", say("choose")),
            ButtonHint(desk.seat, "next", say("skip") if desk.task == "enroll" else say("down")),
        ]
