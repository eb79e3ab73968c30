"""One state object per screen (a module each): what a tag, a button or the timer means there.

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

This package is the screens' registry: it names every screen and turns the
tokens a screen answers with when it steps back (``ToAttract``, ``ToMenu``;
see ``base``) into the screens themselves, so no screen imports one before it.
"""

from __future__ import annotations

from controller.table.screens.attract import AttractScreen
from controller.table.screens.base import (
    IDLE_TIMEOUT,
    RESULTS_TIMEOUT,
    STAFF_TIMEOUT,
    STARTER_TIMEOUT,
    Next,
    ScreenState,
    ToAttract,
    ToMenu,
)
from controller.table.screens.choose_game import ChooseGameScreen
from controller.table.screens.cut import CutScreen, resumed_cut
from controller.table.screens.join import JoinScreen
from controller.table.screens.options import OptionsScreen
from controller.table.screens.play import PlayScreen, undone
from controller.table.screens.results import ResultsScreen
from controller.table.screens.staff_desk import StaffDeskScreen
from controller.table.screens.starter import StarterScreen

__all__ = [
    "IDLE_TIMEOUT",
    "RESULTS_TIMEOUT",
    "STAFF_TIMEOUT",
    "STARTER_TIMEOUT",
    "AttractScreen",
    "ChooseGameScreen",
    "CutScreen",
    "JoinScreen",
    "Next",
    "OptionsScreen",
    "PlayScreen",
    "ResultsScreen",
    "ScreenState",
    "StaffDeskScreen",
    "StarterScreen",
    "ToAttract",
    "ToMenu",
    "resolve",
    "resumed_cut",
    "undone",
]


def resolve(step: Next) -> ScreenState | None:
    """The screen ``step`` names: itself, or the screen a step back goes to."""
    if isinstance(step, ToAttract):
        return AttractScreen(step.farewell)
    if isinstance(step, ToMenu):
        return ChooseGameScreen()
    return step
