"""Oshaka Trick's cards: four colours of numbers, their notation and words, the deal.

A card is a colour letter and a number (``R7``, ``Y13``): 3 players use the
numbers 1-10 of the four colours (one card of the 40 stays out unseen), 4
players 1-13. Everyone holds 13 cards; a round is 13 tricks, a game two rounds.
``TRICK_RULES`` are the kernel's trick rules for these cards: the lowest wins.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter

from controller.games.base import describe
from controller.games.cards import BadCard, ColouredCards, FaceColour
from controller.games.common.tricks import TrickRules, WinRule
from controller.games.words import Card as CardWords
from controller.games.words import Text, Verbatim, say

COLOURS: tuple[str, ...] = ("R", "B", "G", "Y")
# The colours' words (a message's "{colour}"); their English is the record's ("red").
COLOUR_NAMES: Mapping[str, Text] = {
    "R": say("red"),
    "B": say("blue"),
    "G": say("green"),
    "Y": say("yellow"),
}
TRICKS_PER_ROUND = 13
ROUNDS = 2
HAND_SIZE = 13


def top_number(players: int) -> int:
    """The highest card number in play: 10 with three players, 13 with four."""
    return 10 if players == 3 else 13


@dataclass(frozen=True, order=True)
class Card:
    """An Oshaka card; its text notation is colour letter + number (``R7``, ``Y13``)."""

    colour: str
    number: int

    @classmethod
    def parse(cls, text: object) -> Card:
        """Read ``R7``-style notation; raises BadCard on anything else."""
        if not isinstance(text, str) or len(text) < 2 or text[0] not in COLOURS:
            raise BadCard(
                say(
                    "{value} is not a card: write a colour R, B, G or Y and a number, e.g. R7",
                    value=Verbatim(describe(text)),
                )
            )
        digits = text[1:]
        if not digits.isdigit() or digits.startswith("0"):
            raise BadCard(
                say(
                    "{value} is not a card: the number must be 1 to 13",
                    value=Verbatim(describe(text)),
                )
            )
        return cls(text[0], int(digits))

    @property
    def colour_name(self) -> Text:
        return COLOUR_NAMES[self.colour]

    @property
    def words(self) -> CardWords:
        """The card as a message argument (the presenter writes "Red 7")."""
        return CardWords(str(self))

    def __str__(self) -> str:
        return f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARD_WORDS: Mapping[str, Callable[[int], Text]] = {
    "R": lambda n: say("Red {number}", number=n),
    "B": lambda n: say("Blue {number}", number=n),
    "G": lambda n: say("Green {number}", number=n),
    "Y": lambda n: say("Yellow {number}", number=n),
}
_FACE_COLOURS: Mapping[str, FaceColour] = {
    "R": FaceColour.RED,
    "B": FaceColour.BLUE,
    "G": FaceColour.GREEN,
    "Y": FaceColour.YELLOW,
}


# Oshaka Trick's ``CardType``: a ``Card``; its face is its number on its colour.
CARD_TYPE: ColouredCards[Card] = ColouredCards(Card.parse, _CARD_WORDS, _FACE_COLOURS)


def full_deck(players: int) -> list[Card]:
    """Every card of the deck for this many players, in a fixed order."""
    return [Card(c, n) for c in COLOURS for n in range(1, top_number(players) + 1)]


# Must follow; all one colour: the lowest wins, else the lowest of another colour.
TRICK_RULES: TrickRules[Card, str] = TrickRules(
    attrgetter("colour"), attrgetter("number"), WinRule.LOWEST
)


def deal(players: int, rng: random.Random) -> list[list[Card]]:
    """Shuffle and deal 13 cards to each seat (3 players: one card of 40 stays out unseen)."""
    deck = full_deck(players)
    rng.shuffle(deck)
    return [sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(players)]
