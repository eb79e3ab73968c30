"""What a screen may use: the table's parts, handed to every screen state.

The screens (``controller.table.screens``) never see ``Table``: each input
reaches the current screen with this context, and the screen answers with
the next screen (or None to stay). ``Table`` alone owns the context and
changes which screen is current; the parts here are the state the screens
share: the lobby, the messages and LEDs, the seats' languages, staff mode
and the seats calling staff, the staff desk's door, and what a game needs to
begin and end (the random source, the journal, where records go). What only
the input routing needs (the rules pages, the readers' status, the clock)
is not here: see ``controller.table.inputs``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from controller.config.table_config import TableConfig
from controller.games.words import Words
from controller.table.languages import SeatLanguages
from controller.table.lobby import Lobby
from controller.table.outputs import Outputs
from controller.table.session import GameSession
from controller.table.sinks import JournalSink
from controller.table.staff_calls import StaffCalls
from controller.table.staff_door import StaffDoor
from controller.table.staff_mode import StaffMode
from controller.tags.registry import TagRegistry


@dataclass
class ScreenContext:
    """The table's parts a screen acts on; ``config`` is the table's current settings."""

    config: TableConfig
    registry: TagRegistry
    lobby: Lobby
    out: Outputs
    languages: SeatLanguages
    staff: StaffMode
    calls: StaffCalls
    door: StaffDoor
    rng: random.Random  # the seeds of new games
    journal: JournalSink | None
    on_record: Callable[[str, str], None] | None  # (game id, record text) at game end
    setup_notice: Words | None = None  # shown on the attract screen until dealt with
    # Whether a seat's reader answers now (``controller.table.readers``): a seat whose
    # reader is offline cannot tap, so a cut for the deal cuts for it.
    reader_online: Callable[[int], bool] = lambda seat: True

    @property
    def seats(self) -> list[int]:
        """The table's physical seats."""
        return [seat.index for seat in self.config.seats]

    def is_staff_tag(self, uid: str) -> bool:
        entry = self.registry.lookup(uid)
        return entry is not None and entry.is_staff

    def language_of(self, seat: int | None) -> str:
        """The language of ``seat``'s panel (None: the shared centre's, the table's)."""
        return self.languages.of(seat, self.config.language)

    def rest_leds(self, playing: GameSession | None) -> None:
        """Each seat's resting colour; ``playing`` is the game on the play screen, if any."""
        self.out.rest(self.lobby.joined, playing, self.calls.calling)
