"""The one presenter: a ``Text`` (message key + typed arguments) into words for one reader.

Everything a person reads at the table, on the command line or on a printed
score sheet passes through ``Presenter``: it looks the key up in the reader's
language (gettext catalogs managed with Babel), names engine players by the
physical seat they sit at (counted from 1) or by the nickname a member card
gave that seat, writes cards the way their game names them, and formats
numbers, seconds and lists for the language.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from gettext import NullTranslations
from typing import TYPE_CHECKING

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.lists import format_list
from babel.numbers import format_decimal

from controller.games.cards import FRENCH_SUIT_SYMBOLS as SUIT_SYMBOLS
from controller.games.words import (
    Arg,
    Card,
    Field,
    Items,
    Player,
    Seat,
    Seconds,
    Signed,
    Suit,
    Text,
    Verbatim,
    Words,
    fill,
    say,
)
from controller.words.catalogs import (
    ENGLISH,
    LANGUAGES,
    PSEUDO,
    game_domain_name,
    translations,
)

if TYPE_CHECKING:
    from controller.view import TableView

log = logging.getLogger(__name__)

_FRENCH_RANKS = {"T": "10"}


# How seconds are written: three decimals ("0.372 s"), in the language's decimal mark.
SECONDS_PATTERN = "0.000"


@dataclass(frozen=True)
class Presenter:
    """Turns messages into text for one reader: a language, and who sits where.

    ``players[p]`` is the physical seat of engine player ``p`` (empty: player
    ``p`` sits at seat ``p``); ``names`` gives a seat the nickname its member
    card carries; ``game_id`` says whose deck a ``Card`` belongs to and whose
    catalog is searched first; ``domain`` names a room whose catalog is searched
    before even that one (the staff's words on the command line and the desk).
    """

    language: str = ENGLISH
    players: Sequence[int] = ()
    names: Mapping[int, str] = field(default_factory=dict)
    game_id: str | None = None
    domain: str | None = None

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES and self.language != PSEUDO:
            raise ValueError(f"unknown language {self.language!r}; known: {', '.join(LANGUAGES)}")

    # --- building one --------------------------------------------------------------------

    @classmethod
    def for_view(cls, view: TableView, seat: int | None = None) -> Presenter:
        """The presenter of the panel at physical ``seat`` (None: the shared centre)."""
        language = view.language
        if seat is not None:
            language = view.seat_languages.get(seat, language)
        return cls(language, tuple(view.players), dict(view.nicknames), view.game_id)

    def in_language(self, language: str) -> Presenter:
        """The same reader's seating in another language."""
        return replace(self, language=language)

    # --- presenting --------------------------------------------------------------------

    def __call__(self, words: Words) -> str:
        """``words`` as this reader reads them; a plain ``str`` is shown as it is."""
        if isinstance(words, str):
            return words
        translated = self._sentence(words)
        values = {name: self.argument(value) for name, value in words.arguments().items()}
        return fill(translated, values)

    def lines(self, many: Sequence[Words]) -> list[str]:
        return [self(w) for w in many]

    def gettext(self, key: str) -> str:
        """A bare catalog lookup (prefer ``self(say(...))``, which the extractor also finds)."""
        return self._catalog().gettext(key)

    def _catalog(self) -> NullTranslations:
        """The reader's catalogs, this reader's room and game searched first."""
        first = [] if self.domain is None else [self.domain]
        game = game_domain_name(self.game_id)
        if game is not None and game not in first:
            first.append(game)
        return translations(self.language, tuple(first))

    def _sentence(self, text: Text) -> str:
        catalog = self._catalog()
        if text.plural is not None and text.count is not None:
            return catalog.ngettext(text.key, text.plural, text.count)
        return catalog.gettext(text.key)

    def argument(self, value: Arg) -> str:
        """One typed argument in this reader's words."""
        if isinstance(value, Text):
            return self(value)
        if isinstance(value, bool):
            return self(say("yes") if value else say("no"))
        if isinstance(value, Player):
            return self.player(value.index)
        if isinstance(value, Seat):
            return self.seat(value.index)
        if isinstance(value, Card):
            return self.card(value.notation)
        if isinstance(value, Field):
            from controller.games import field_words

            return self(field_words(self.game_id, value.key))
        if isinstance(value, Suit):
            return SUIT_SYMBOLS.get(value.code, value.code)
        if isinstance(value, Seconds):
            seconds = Verbatim(self.number(value.value, SECONDS_PATTERN))
            return self(say("{seconds} s", seconds=seconds))
        if isinstance(value, Signed):
            sign = "+" if value.value > 0 else ""
            return sign + self.number(value.value)
        if isinstance(value, Items):
            parts = [self.argument(v) for v in value.values]
            if not parts:
                return ""
            return format_list(
                parts, style="or" if value.either else "standard", locale=self._locale
            )
        if isinstance(value, Verbatim):
            return value.text
        if isinstance(value, int | float):
            return self.number(value)
        return str(value)

    # --- the pieces ------------------------------------------------------------------

    def seat(self, seat: int) -> str:
        """A physical seat (0-based inside): its nickname, or "Seat 3" counted from 1."""
        name = self.names.get(seat)
        if name:
            return name
        return self(say("Seat {number}", number=Verbatim(str(seat + 1))))

    def player(self, player: int) -> str:
        """An engine player, named by the seat where they sit."""
        players = self.players
        seat = players[player] if 0 <= player < len(players) else player
        return self.seat(seat)

    def card(self, notation: str) -> str:
        """A card as its game names it (``CardType.name``); without a game, French-suited."""
        from controller.games import deck_of_card

        deck = deck_of_card(self.game_id, notation)
        if deck is not None:
            return self(deck.name(notation))
        return french_card(notation)

    def number(self, value: float, pattern: str | None = None) -> str:
        """A number written the language's way ("1.000" and "0,5" in German)."""
        return str(format_decimal(value, format=pattern, locale=self._locale))

    def date(self, when: date | datetime, form: str = "medium") -> str:
        """A date (and time, for a datetime) written the language's way."""
        if isinstance(when, datetime):
            return str(format_datetime(when, format=form, locale=self._locale))
        return str(format_date(when, format=form, locale=self._locale))

    @property
    def _locale(self) -> Locale:
        return _locale(ENGLISH if self.language == PSEUDO else self.language)


def french_card(notation: str) -> str:
    """ "QH" as "Q♥", "TS" as "10♠"; any other notation as it is."""
    if len(notation) in (2, 3) and notation[-1] in SUIT_SYMBOLS:
        rank = notation[:-1]
        return _FRENCH_RANKS.get(rank, rank) + SUIT_SYMBOLS[notation[-1]]
    return notation


_LOCALES: dict[str, Locale] = {}


def _locale(language: str) -> Locale:
    found = _LOCALES.get(language)
    if found is None:
        found = _LOCALES[language] = Locale.parse(language)
    return found
