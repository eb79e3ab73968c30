"""Oskar's cards and tricks: the deck, its notation, and who wins a trick and why.

38 cards: ``Y1``-``Y4``, ``G2``-``G8``, ``B3``-``B11``, ``L4``-``L16`` and five
red zeros ``R0``; a card is worth its number. Without zeros the best colour
wins a trick (yellow > green > blue > lilac), the highest number within it;
one zero makes colours lapse; the second zero takes the trick.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum

from controller.games.base import describe
from controller.games.cards import BadCard, ColouredCards, FaceColour
from controller.games.words import Text, Verbatim, say

# colour letter -> (lowest number, highest number); one card per number.
COLOUR_RANGES: Mapping[str, tuple[int, int]] = {
    "Y": (1, 4),
    "G": (2, 8),
    "B": (3, 11),
    "L": (4, 16),
}
# Higher beats lower while colours count (no zero in the trick).
COLOUR_STRENGTH: Mapping[str, int] = {"Y": 4, "G": 3, "B": 2, "L": 1}
COLOUR_NAMES: Mapping[str, str] = {
    "Y": "yellow",
    "G": "green",
    "B": "blue",
    "L": "lilac",
    "R": "red",
}
# How a card reads in a message: the overview card's colour word and the number.
_CARD_WORDS: Mapping[str, Callable[[int], Text]] = {
    "Y": lambda n: say("Yellow {number}", number=n),
    "G": lambda n: say("Green {number}", number=n),
    "B": lambda n: say("Blue {number}", number=n),
    "L": lambda n: say("Lilac {number}", number=n),
    "R": lambda n: say("Red {number}", number=n),
}


ZEROS = 5


def hand_size(players: int) -> int:
    """Cards dealt to each seat: the deck dealt evenly (12, 9, 7, 6 for 3..6 players)."""
    return DECK_SIZE // players


def stock_size(players: int) -> int:
    """Cards left over after the deal: the face-down stock (2 or 3 cards)."""
    return DECK_SIZE - players * hand_size(players)


# The one shared instance of each card, by (colour, number): see ``Card``.
_CARDS: dict[tuple[str, int], Card] = {}


class Card:
    """An Oskar card; its notation is the colour letter and number (``L16``, ``R0``).

    Cards are looked up and compared on every step of a game (hands, the played
    counts, legal actions), so there is one shared instance per card: ``Card("L",
    16)`` always returns the same object, equality is identity and hashing is the
    interpreter's own, with no Python-level ``__eq__``/``__hash__`` in the hot path.
    Instances are immutable; copies (``copy``, ``deepcopy``, pickling) return the
    shared instance. They order as (colour, number), as the dataclass they
    replace did.
    """

    __slots__ = ("colour", "is_zero", "number")
    colour: str
    number: int
    is_zero: bool

    def __new__(cls, colour: str, number: int) -> Card:
        canonical = type(colour) is str and type(number) is int
        if canonical:
            found = _CARDS.get((colour, number))
            if found is not None:
                return found
        card = object.__new__(cls)
        object.__setattr__(card, "colour", colour)
        object.__setattr__(card, "number", number)
        object.__setattr__(card, "is_zero", colour == "R")
        if canonical:
            # Only exact str/int values are shared: Card("Y", 1.0) stays a stranger
            # that ``check_card`` refuses.
            _CARDS[(colour, number)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Card cannot change ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Card cannot change ({name})")

    def __reduce__(self) -> tuple[type[Card], tuple[str, int]]:
        return (Card, (self.colour, self.number))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.colour, self.number) < (other.colour, other.number)

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.colour, self.number) <= (other.colour, other.number)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.colour, self.number) > (other.colour, other.number)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.colour, self.number) >= (other.colour, other.number)

    @classmethod
    def parse(cls, text: object) -> Card:
        """Read ``Y4``-style notation (any letter case); BadCard on anything else."""
        if not isinstance(text, str):
            raise BadCard(
                say(
                    "a card is written as text like Y4 or R0, not {value}",
                    value=Verbatim(describe(text)),
                )
            )
        known = _BY_NOTATION.get(text)
        if known is not None:
            return known
        cleaned = text.strip().upper()
        colour, digits = cleaned[:1], cleaned[1:]
        if colour == "R" and digits == "0":
            return Card("R", 0)
        if colour in COLOUR_RANGES and digits.isdigit() and not digits.startswith("0"):
            low, high = COLOUR_RANGES[colour]
            if low <= int(digits) <= high:
                return Card(colour, int(digits))
        raise BadCard(
            say(
                "{value} is not an Oskar card; the cards are Y1-Y4, G2-G8, B3-B11, L4-L16 and R0",
                value=Verbatim(describe(text)),
            )
        )

    @property
    def value(self) -> int:
        """Points the card is worth: its number (zeros are worth nothing)."""
        return self.number

    def __str__(self) -> str:
        return f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_FACE_COLOURS: Mapping[str, FaceColour] = {
    "Y": FaceColour.YELLOW,
    "G": FaceColour.GREEN,
    "B": FaceColour.BLUE,
    "L": FaceColour.LILAC,
    "R": FaceColour.RED,
}


# Oskar's ``CardType``: the shared ``Card``, named by the overview card's colour word and
# the number ("Lilac 16", "Red 0"); its face is its number on its colour.
CARD_TYPE: ColouredCards[Card] = ColouredCards(Card.parse, _CARD_WORDS, _FACE_COLOURS)


def full_deck() -> list[Card]:
    """All 38 cards in a fixed order (the five zeros last)."""
    cards = [Card(c, n) for c, (low, high) in COLOUR_RANGES.items() for n in range(low, high + 1)]
    return cards + [Card("R", 0)] * ZEROS


DECK_SIZE = len(full_deck())
DECK_VALUE = sum(card.value for card in full_deck())
ZERO = Card("R", 0)
_DECK: tuple[Card, ...] = tuple(full_deck())  # what ``deal`` shuffles a copy of
# The distinct cards in card order, and each card's place in it, computed once:
# sorting by a dict lookup is far cheaper than the dataclass's generated __lt__,
# and legal actions walk this order instead of re-sorting the deck on every call.
DECK_ORDER: tuple[Card, ...] = tuple(sorted(set(full_deck())))
CARD_ORDER: Mapping[Card, int] = {card: index for index, card in enumerate(DECK_ORDER)}
UNPLAYED: Mapping[Card, int] = dict.fromkeys(DECK_ORDER, 0)
# Canonical notation -> the shared card: what records and taps are parsed from.
_BY_NOTATION: Mapping[str, Card] = {str(card): card for card in DECK_ORDER}


# Each colour card's rank while colours count (colour strength, then number), as one int.
COLOUR_RANK: Mapping[Card, int] = {
    card: COLOUR_STRENGTH[card.colour] * 100 + card.number
    for card in DECK_ORDER
    if not card.is_zero
}


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """``sorted(cards)`` in card order, by a precomputed index (Oskar cards only)."""
    return sorted(cards, key=CARD_ORDER.__getitem__)


def check_card(card: Card) -> None:
    """Refuse a hand-built Card that is no Oskar card (BadCard, as ``Card.parse``)."""
    if card not in CARD_ORDER or type(card.number) is not int:
        Card.parse(str(card))


def trick_winner(plays: Sequence[tuple[int, Card]]) -> int:
    """The seat winning the (possibly unfinished) trick ``plays`` of (seat, card) pairs.

    The rule as the rulebook states it; the engine takes ``fast.winner``.
    """
    if not plays:
        raise ValueError("an empty trick has no winner")
    zeros = [seat for seat, card in plays if card.is_zero]
    if len(zeros) >= 2:
        return zeros[1]  # the second zero takes the trick; further zeros mean nothing
    if zeros:
        # Colours lapse: the highest number wins, the first of equal numbers.
        seat, _ = max(plays, key=lambda play: play[1].number)
        return seat
    seat, _ = max(plays, key=lambda play: (COLOUR_STRENGTH[play[1].colour], play[1].number))
    return seat


class WinReason(StrEnum):
    """Why a trick went where it did (``TrickWon.reason``): decided by its zeros."""

    BEST_COLOUR = "best colour"  # no zero: the best colour wins, the highest number within it
    FIRST_ZERO = "first zero"  # one zero: colours lapse, the highest number wins
    SECOND_ZERO = "second zero"  # two or more: the second zero takes the trick


# The reason by the number of zeros in the trick (0, 1, 2 or more).
WIN_REASONS: tuple[WinReason, WinReason, WinReason] = (
    WinReason.BEST_COLOUR,
    WinReason.FIRST_ZERO,
    WinReason.SECOND_ZERO,
)


def win_reason(plays: Sequence[tuple[int, Card]]) -> WinReason:
    """Why ``trick_winner`` chose its seat."""
    zeros = sum(1 for _, card in plays if card.is_zero)
    return WIN_REASONS[min(zeros, 2)]


def deal(rng: random.Random, players: int) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle and deal evenly; returns each seat's sorted hand and the stock."""
    if not 3 <= players <= 6:
        raise ValueError(f"Oskar is for 3 to 6 players, not {players}")
    deck = list(_DECK)
    rng.shuffle(deck)
    size = hand_size(players)
    hands = [sort_cards(deck[seat * size : (seat + 1) * size]) for seat in range(players)]
    return hands, sort_cards(deck[players * size :])
