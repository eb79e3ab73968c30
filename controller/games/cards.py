"""What the rest of the table knows of a game's cards: the ``CardType`` protocol and ``CardFace``.

Each game's deck (``DeckSpec.card_type``) names a card type, implemented in
the game's cards module: it reads the card notation records and tags use
(``parse``, ``notation``), names a card for a person (``name``, translated
through ``say``) and describes its face (``face``). Nothing outside a game's
module parses its notation: the display draws a face from its ``CardFace``,
the presenter writes a card by its ``name``.

Like the rest of ``controller/games``, this module imports the standard library only.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from controller.games.base import MalformedAction
from controller.games.words import Text, Words

CardT = TypeVar("CardT")

# French suits' notation letters and the symbols a face and a message show for them.
FRENCH_SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class BadCard(MalformedAction):
    """A text is not a card of the deck; the message says how the deck's cards are written.

    A ``MalformedAction``: a record or an action naming no card of its game is
    malformed, and is refused with the same words as before card types existed.
    """


class FaceColour(enum.StrEnum):
    """The colour a card is printed in, by name: the display picks the paint."""

    PLAIN = "plain"  # a light card (French-suited cards)
    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"
    LILAC = "lilac"
    NAVY = "navy"  # Oh Pshaw's Wizards (the Wizard variant's add-on deck)
    SAGE = "sage"  # its Jesters


@dataclass(frozen=True)
class CardFace:
    """What a card's face shows, for the display to draw without knowing the notation.

    ``rank`` is the big text ("7", "Q", "10", "T3-2a"), ``symbol`` a suit
    symbol printed after it ("♥"; the suit letters of the notation are English
    initials a German or Japanese player does not read), ``colour`` the card's
    colour, and ``red_ink`` says a plain card is printed in red (hearts, diamonds).
    """

    rank: str
    symbol: str = ""
    colour: FaceColour = FaceColour.PLAIN
    red_ink: bool = False

    @property
    def text(self) -> str:
        """The face's big text: rank and suit symbol ("Q♥", "10♠", "7")."""
        return self.rank + self.symbol


class CardType(Protocol[CardT]):
    """One game's cards: read and write their notation, name them, describe their faces.

    ``parse`` accepts every spelling the game accepts (Oh Pshaw's ``10H`` is
    ``TH``) and raises ``BadCard`` for anything else; ``notation`` writes the
    canonical notation records keep, so ``notation(parse(n)) == n`` for every
    card of the deck.
    """

    def parse(self, text: object) -> CardT:
        """The card written ``text``; BadCard, saying how cards are written, if it is none."""
        ...

    def notation(self, card: CardT) -> str:
        """The card's canonical notation, as records and the tag registry write it."""
        ...

    def name(self, card: CardT) -> Words:
        """The card as a person reads it in a message ("Red 7", "Q♥", "2 of tribe 3")."""
        ...

    def face(self, card: CardT) -> CardFace:
        """What the card's face shows."""
        ...


class ColouredCard(Protocol):
    """A card that is a colour letter and a number (Oshaka's ``R7``, Oskar's ``L16``)."""

    @property
    def colour(self) -> str: ...

    @property
    def number(self) -> int: ...


ColouredT = TypeVar("ColouredT", bound=ColouredCard)


@dataclass(frozen=True)
class ColouredCards(Generic[ColouredT]):
    """The ``CardType`` of a deck of coloured numbers: written colour letter + number,
    named by the colour's word and the number ("Red 7"), the number on its colour's face."""

    read: Callable[[object], ColouredT]  # the game's parser (BadCard for anything else)
    names: Mapping[str, Callable[[int], Text]]  # by colour letter: "Red {number}"
    colours: Mapping[str, FaceColour]  # by colour letter

    def parse(self, text: object) -> ColouredT:
        return self.read(text)

    def notation(self, card: ColouredT) -> str:
        return f"{card.colour}{card.number}"

    def name(self, card: ColouredT) -> Words:
        return self.names[card.colour](card.number)

    def face(self, card: ColouredT) -> CardFace:
        return CardFace(str(card.number), colour=self.colours[card.colour])
