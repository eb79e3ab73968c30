"""What each kind of input event does before (or instead of) reaching the current screen.

``HANDLERS`` maps an input event's type to its handler. A handler gets the
current screen and the ``ScreenContext`` and answers with the next screen
(or None to stay), as the screens do. Seat taps, presses and the toss timer
go on to the screen; releases (long holds of OK), the readers' status and
a staff tag answering a call are dealt with here, the same on every screen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from controller.games.words import Seat, say
from controller.table.context import ScreenContext
from controller.table.pages import Pages
from controller.table.readers import ReaderStatus
from controller.table.screens import Next, ScreenState
from controller.view import MessageKind, Screen
from hardware.events import (
    Button,
    ButtonPressed,
    ButtonReleased,
    InputEvent,
    ReaderFlooding,
    ReaderOffline,
    ReaderOnline,
    ReaderProblem,
    TagPresented,
    TagRemoved,
    TossCancelled,
    TossStarted,
    TossStopped,
    WiringProblem,
)

logger = logging.getLogger(__name__)


@dataclass
class InputParts:
    """What the input routing keeps besides the screens' context."""

    pages: Pages  # rules pages opened by a long OK
    readers: ReaderStatus
    clock: Callable[[], float]
    # A call for staff opened (True) or answered at the table (False): (call id, seat, opened).
    on_staff_call: Callable[[str, int, bool], None] | None = None


Handler = Callable[[InputEvent, ScreenState, ScreenContext, InputParts], Next]


def call_closed(ctx: ScreenContext, state: ScreenState, seat: int) -> None:
    """Staff answered the call of ``seat`` (at the table or on the café's dashboard)."""
    ctx.out.say(say("Staff answered the call of {seat}", seat=Seat(seat)), MessageKind.INFO, seat)
    ctx.out.sounds.staff_answered(seat)
    ctx.rest_leds(state.playing)


def _on_tag(event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts) -> Next:
    assert isinstance(event, TagPresented)
    if event.seat in ctx.calls.calling and ctx.is_staff_tag(event.uid):
        call = ctx.calls.answer_seat(event.seat)
        if call is not None:
            call_closed(ctx, state, event.seat)
            if parts.on_staff_call is not None:
                parts.on_staff_call(call, event.seat, False)
    return state.on_tag(ctx, event.seat, event.uid)


def _on_button(
    event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts
) -> Next:
    assert isinstance(event, ButtonPressed)
    ctx.calls.pressed(event.seat, event.button, event.at)
    if event.button == Button.OK:
        parts.pages.ok_down(event.seat, event.at)
    elif event.button == Button.NEXT:
        parts.pages.next_down(event.seat, event.at)
    if state.screen is Screen.RESULTS and event.button in (Button.PREV, Button.NEXT):
        # The results' pages turn at any seat; the sheet's page count is the display's.
        parts.pages.turn(1 if event.button == Button.NEXT else -1, parts.clock())
        ctx.out.changed()
        return None
    if state.reports(ctx, event.seat):
        # A report (Oss: NEXT is also "failure") counts when let go, if short: a seat
        # that holds NEXT to look back, or OK for the rules page, reports nothing.
        parts.pages.report_down(event.seat, event.button, event.at)
        return None
    return state.on_button(ctx, event.seat, event.button)


def _on_release(
    event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts
) -> Next:
    # Presses act on the way down; a release matters when it ends a long hold of OK:
    # three seconds call for staff (controller/table/staff_calls.py), one second opens
    # the seat's rules page; or of NEXT: one second brings the last trick back. (The
    # press itself has already counted, so hold them when it is not your turn.) A
    # press that reports (``ScreenState.reports``) waited for this release instead:
    # it counts now if it was short, and a hold reports nothing.
    assert isinstance(event, ButtonReleased)
    short = parts.pages.report_up(event.seat, event.button, event.at)
    # Only while the seat still reports: a press meant as a result (another seat's
    # report may have moved the game on meanwhile) never acts on what came after it.
    reported = short and state.reports(ctx, event.seat)
    if event.button == Button.NEXT:
        # A long NEXT during a game brings the last trick back on the seat's panel.
        if parts.pages.next_up(event.seat, event.at) and state.playing is not None:
            parts.pages.recall(event.seat, parts.clock())
            ctx.out.changed()
        return state.on_button(ctx, event.seat, event.button) if reported else None
    held = event.button == Button.OK and parts.pages.ok_up(event.seat, event.at)
    call = ctx.calls.released(event.seat, event.button, event.at)
    if call is not None:
        ctx.out.say(
            say("{seat} called for staff; someone is on the way", seat=Seat(event.seat)),
            MessageKind.INFO,
            event.seat,
        )
        ctx.rest_leds(state.playing)
        if parts.on_staff_call is not None:
            parts.on_staff_call(call, event.seat, True)
    elif held and (game_id := state.rules_of(ctx)) is not None:
        parts.pages.open_help(event.seat, game_id, parts.clock())
        ctx.out.changed()
    # A report's short press, let go: it acts now, on the screen as it is now.
    return state.on_button(ctx, event.seat, event.button) if reported else None


def _on_timer(event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts) -> Next:
    assert isinstance(event, TossStarted | TossStopped | TossCancelled)
    if state.playing is not None:
        # Heard in a game only: the timer's press between games times nothing.
        ctx.out.sounds.timer(event, None if ctx.config.timer is None else ctx.config.timer.limit)
    return state.on_timer(ctx, event)


def _ignore(event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts) -> Next:
    # A tap is the tag arriving: the card taken away changes nothing.
    return None


def _on_reader_online(
    event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts
) -> Next:
    assert isinstance(event, ReaderOnline)
    back = parts.readers.back(event.seat)
    if back is not None:
        ctx.out.say(back, MessageKind.INFO, event.seat)
    ctx.out.changed()
    return None


def _on_reader_offline(
    event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts
) -> Next:
    assert isinstance(event, ReaderOffline)
    gone = parts.readers.gone(event.seat, event.kind)
    if gone is not None:
        # The hardware's reason is an English log line (with seats counted from 0).
        logger.warning("seat %d reader offline: %s", event.seat, event.reason)
        ctx.out.say(gone, MessageKind.PROBLEM, event.seat)
    ctx.out.changed()
    return state.on_reader_offline(ctx, event.seat)


def _on_reader_problem(
    event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts
) -> Next:
    assert isinstance(event, ReaderProblem)
    logger.warning("seat %d reader: %s", event.seat, event.message)
    ctx.out.say(
        say("{seat}: the reader misread; tap the card again", seat=Seat(event.seat)),
        MessageKind.PROBLEM,
        event.seat,
    )
    return None


def _on_reader_flooding(
    event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts
) -> Next:
    assert isinstance(event, ReaderFlooding)
    logger.warning("seat %d reader sends tags faster than %g a second: its taps are "
                   "ignored until it calms down", event.seat, event.rate)  # fmt: skip
    ctx.out.say(
        say(
            "The reader of {seat} sends taps far too fast (a fault?); they are ignored "
            "until it calms down: ask staff",
            seat=Seat(event.seat),
        ),
        MessageKind.PROBLEM,
        event.seat,
    )
    return None


def _on_wiring_problem(
    event: InputEvent, state: ScreenState, ctx: ScreenContext, parts: InputParts
) -> Next:
    assert isinstance(event, WiringProblem)
    where = "the toss timer" if event.seat is None else f"seat {event.seat}'s {event.device}"
    logger.warning("%s keeps chattering: check its wiring", where)
    if event.seat is None:
        text = say("The toss timer's contact keeps chattering: check its wiring; ask staff")
    else:
        text = say(
            "A button of {seat} keeps chattering: check its wiring; ask staff",
            seat=Seat(event.seat),
        )
    ctx.out.say(text, MessageKind.PROBLEM, event.seat)
    return None


HANDLERS: dict[type, Handler] = {
    TagPresented: _on_tag,
    TagRemoved: _ignore,
    ButtonPressed: _on_button,
    ButtonReleased: _on_release,
    ReaderOnline: _on_reader_online,
    ReaderOffline: _on_reader_offline,
    ReaderProblem: _on_reader_problem,
    ReaderFlooding: _on_reader_flooding,
    WiringProblem: _on_wiring_problem,
    TossStarted: _on_timer,
    TossStopped: _on_timer,
    TossCancelled: _on_timer,
}
