"""What a person did on the simulator's screen, as plain values the app turns into inputs.

The renderer's ``hit_test`` maps a click to one of these; ``action_for_event``
does the same for a whole pygame event (a click, closing the window, Escape).
The app translates them into the table's input events: a ``TapCard`` is what
a seat reader would report, a ``PressButton`` what a seat button would. The
window holds a button as long as the key or the mouse button is down
(``HoldButton`` on the way down, ``ReleaseButton`` on the way up), so the
table's long presses (OK held for the rules page or a staff call) work as on
the real buttons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from hardware.events import Button, Contact


@dataclass(frozen=True)
class TapCard:
    """A card of a seat's on-screen hand was clicked: as if tapped on that seat's reader."""

    seat: int  # physical seat (TableView.seats[i].seat)
    card: str  # card notation, e.g. "R7"


@dataclass(frozen=True)
class PressButton:
    """An on-screen seat button was clicked: as if the seat pressed that button."""

    seat: int  # physical seat
    button: Button  # ButtonHint.button


@dataclass(frozen=True)
class HoldButton:
    """A seat button went down (a key or the mouse button pressed on it); it stays down
    until the matching ``ReleaseButton``. ``"timer"`` is the table's toss timer (the T key)."""

    seat: int  # physical seat
    button: Contact


@dataclass(frozen=True)
class ReleaseButton:
    """A seat button held by ``HoldButton`` came up (the key or the mouse button let go)."""

    seat: int  # physical seat
    button: Contact


@dataclass(frozen=True)
class TapStaff:
    """The simulator's staff tag tapped at a seat (its on-screen button, or the S key)."""

    seat: int  # physical seat


@dataclass(frozen=True)
class TapDeckCard:
    """At the staff desk: tap the simulated deck's card it asks for (enroll) or the next (audit)."""

    seat: int  # physical seat


@dataclass(frozen=True)
class ChooseGame:
    """An entry of the game menu was clicked."""

    index: int  # position in TableView.games


@dataclass(frozen=True)
class Quit:
    """The window was closed (or Escape pressed): the simulator should stop."""


UiAction = (
    TapCard | PressButton | HoldButton | ReleaseButton | TapStaff | TapDeckCard | ChooseGame | Quit
)


def action_for_event(
    event: pygame.event.Event,
    hit_test: Callable[[tuple[int, int]], UiAction | None],
) -> UiAction | None:
    """The UI action a pygame event means, if any (left clicks go through ``hit_test``)."""
    if event.type == pygame.QUIT:
        return Quit()
    if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
        return Quit()
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
        x, y = event.pos
        return hit_test((int(x), int(y)))
    return None
