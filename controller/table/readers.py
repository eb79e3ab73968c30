"""What the table says about a seat's reader going offline, by the kind of trouble.

The hardware layer cannot import the controller: its reason is an English
staff-log line (seats counted from 0). ``ReaderOffline.kind`` says the same as
an ``Offline`` value, and this puts it into words for the seat's panel.
"""

from __future__ import annotations

from controller.games.words import Seat, Text, say
from hardware.events import Offline


def offline_words(seat: int, kind: str) -> Text:
    """What the table says when ``seat``'s reader went offline for ``kind`` (an ``Offline``).

    The hardware's own reason is an English staff-log line; people at the
    table read this instead, in their language, with the seat counted from 1.
    """
    where = Seat(seat)
    # Every kind's sentence, written out whole for the catalog (built only when a reader drops).
    said: dict[str, Text] = {
        Offline.MISSING: say(
            "The reader of {seat} is not connected; the game waits: check its USB cable",
            seat=where,
        ),
        Offline.BUSY: say(
            "The reader of {seat} is held by another program; the game waits: ask staff",
            seat=where,
        ),
        Offline.DENIED: say(
            "The reader of {seat} may not be opened (no permission); the game waits: ask staff",
            seat=where,
        ),
        Offline.SILENT: say(
            "The reader of {seat} stopped answering; the game waits: check its cable and power",
            seat=where,
        ),
    }
    fallback = say(
        "The reader of {seat} is not answering; the game waits: check its USB cable", seat=where
    )
    return said.get(kind, fallback)  # a StrEnum member equals (and hashes as) its str


class ReaderStatus:
    """Which seats' readers are online, and what the table says when one comes or goes."""

    def __init__(self, seats: list[int]) -> None:
        self._online = dict.fromkeys(seats, True)

    def online(self) -> dict[int, bool]:
        """Seat -> whether its reader answers (the view's ``reader_online``)."""
        return dict(self._online)

    def back(self, seat: int) -> Text | None:
        """``seat``'s reader answers again; the words for it if it had been offline."""
        was = self._online.get(seat, True)
        self._online[seat] = True
        return None if was else say("The reader of {seat} is back", seat=Seat(seat))

    def gone(self, seat: int, kind: str) -> Text | None:
        """``seat``'s reader went offline for ``kind``; the words for its panel, unless the
        table closed it itself (``Offline.CLOSED``: nothing to tell anyone)."""
        self._online[seat] = False
        return None if kind == Offline.CLOSED else offline_words(seat, kind)
