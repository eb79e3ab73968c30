"""The seats' own languages: a seat's panel may read another language than the table's.

PREV at a joined seat on the join screen switches its panel round the
languages (English, Deutsch, 日本語); the choice holds until the table
returns to attract, and is journaled with a game so a resumed game shows
every panel as before.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games.words import Seat, Text, Verbatim, say
from controller.words.catalogs import LANGUAGE_NAMES, LANGUAGES


def next_language(language: str) -> str:
    """The language after ``language`` in the join screen's round (English, Deutsch, 日本語)."""
    index = LANGUAGES.index(language) if language in LANGUAGES else -1
    return LANGUAGES[(index + 1) % len(LANGUAGES)]


class SeatLanguages:
    """Seats whose panel reads another language than the table's: seat -> language."""

    def __init__(self) -> None:
        self._chosen: dict[int, str] = {}

    def chosen(self) -> dict[int, str]:
        """The seats that switched, with their language (the view's ``seat_languages``)."""
        return dict(self._chosen)

    def of(self, seat: int | None, table: str) -> str:
        """The language of ``seat``'s panel (None: the shared centre's, ``table``)."""
        return table if seat is None else self._chosen.get(seat, table)

    def switch(self, seat: int, table: str) -> Text:
        """``seat``'s panel switches to the next language; what the table says of it.

        Back at the table's own language (``table``) the seat keeps nothing, so
        the view says no more than it did before the seat switched.
        """
        language = next_language(self.of(seat, table))
        if language == table:
            self._chosen.pop(seat, None)
        else:
            self._chosen[seat] = language
        return say(
            "{seat} reads {language}", seat=Seat(seat), language=Verbatim(LANGUAGE_NAMES[language])
        )

    def restore(self, languages: Mapping[int, str], players: list[int]) -> None:
        """The languages journaled with a resumed game (only known ones, at its seats)."""
        self._chosen = {
            seat: language
            for seat, language in languages.items()
            if language in LANGUAGES and seat in players
        }

    def clear(self) -> None:
        """The table rests again: every panel reads the table's language."""
        self._chosen = {}
