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
| join | back to the menu | join / leave | start (enough joined) | join |
| options (a game with options) | previous line | change it / start | next line | - |
| starter (e.g. Oshaka's first lead) | - | "it's me" (joined seats) | - | "it's me" |
| results | - | back to attract | - | - |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from controller.games.base import TableError
from controller.games.words import Words
from controller.members import tapped_at_join
from controller.staff import StaffDesk
from controller.table.options import START, OptionsForm
from controller.tags import deck_of
from controller.view import ButtonHint, MessageKind, Screen
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
    labels: ClassVar[dict[str, str]] = {}  # what each seat's buttons do here

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
    labels: ClassVar[dict[str, str]] = {"ok": "start"}

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
    labels: ClassVar[dict[str, str]] = {
        "prev": "previous game",
        "ok": "choose",
        "next": "next game",
    }

    def on_button(self, table: Table, seat: int, button: str) -> None:
        if button == "ok":
            table.choose_game(seat)
        elif button in ("prev", "next"):
            table.move_menu(-1 if button == "prev" else 1)


class JoinScreen(ScreenState):
    """Seats join the chosen game: OK joins or leaves, a card tap joins, NEXT starts."""

    screen = Screen.JOIN
    timeout = IDLE_TIMEOUT
    labels: ClassVar[dict[str, str]] = {"prev": "menu", "ok": "join", "next": "start game"}

    def on_tag(self, table: Table, seat: int, uid: str) -> None:
        if not table.is_staff_tag(uid):
            table.join(seat)
            tapped_at_join(table, seat, uid)  # a member card names the seat

    def on_button(self, table: Table, seat: int, button: str) -> None:
        if button == "ok":
            table.toggle_join(seat)
        elif button == "prev":
            table.to_menu()
        elif button == "next":
            table.start_game()

    def hints(self, table: Table) -> list[ButtonHint]:
        joined = table.joined
        return [
            ButtonHint(
                hint.seat,
                hint.button,
                ("leave" if hint.seat in joined else "join") if hint.button == "ok" else hint.label,
            )
            for hint in super().hints(table)
        ]


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
        key = self.form.lines()[self.form.cursor].key
        ok = "start" if key == START else "change"
        labels = {"prev": "previous line", "ok": ok, "next": "next line"}
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
            table.announce(f"Seat {seat} has not joined this game", MessageKind.REFUSED, seat)
            return
        table.begin_game(seat)

    def on_idle(self, table: Table) -> None:
        table.begin_game(None)

    def hints(self, table: Table) -> list[ButtonHint]:
        return [ButtonHint(seat, "ok", "it's me") for seat in sorted(table.joined)]


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
        if entry is None:
            table.announce(
                f"Seat {seat}: this tag ({uid}) is not enrolled in any deck; "
                "ask staff to enroll it",
                MessageKind.PROBLEM,
                seat,
            )
            table.flash(seat, Cue.REFUSED)
            return
        if entry.deck != deck_of(session.game_id):
            table.announce(
                f"Seat {seat}: that card belongs to the {entry.deck} deck, not this game's",
                MessageKind.REFUSED,
                seat,
            )
            table.flash(seat, Cue.REFUSED)
            return
        player = session.player_at(seat)
        if player is None:
            table.announce(f"Seat {seat} is not playing this game", MessageKind.REFUSED, seat)
            table.flash(seat, Cue.REFUSED)
            return
        session.draws.next_input()
        try:
            action = session.adapter.input.on_card(player, entry.card)
        except TableError as exc:
            table.refuse(seat, str(exc))
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
        if isinstance(answer, str):
            table.announce(f"Seat {seat}: {session.seats_named(answer)}", MessageKind.INFO, seat)
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
    labels: ClassVar[dict[str, str]] = {"ok": "done"}

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
            return [
                ButtonHint(desk.seat, b, s) for b, s in (("prev", "P"), ("ok", "O"), ("next", "N"))
            ]
        return [
            ButtonHint(desk.seat, "prev", "back" if desk.task != "menu" else "up"),
            ButtonHint(desk.seat, "ok", "choose"),
            ButtonHint(desk.seat, "next", "skip" if desk.task == "enroll" else "down"),
        ]
