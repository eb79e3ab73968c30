"""Oh Pshaw's cards: a 52-card deck, ace high, its notation and words, and the deal.

Cards are written rank + suit (``AS``, ``TH``, ``2C``; ``10H`` is read as ``TH``).
``TRICK_RULES`` are the kernel's trick rules for these cards: the highest trump
wins, else the highest card of the led suit.

The ``wizard`` option adds eight cards (a 60-card deck): four Wizards ``W1``-``W4``
and four Jesters (Narren) ``N1``-``N4``. They are read only when the option is on
(``parse_card(text, wizard=True)``); ``WizardTrick`` is the trick under their rules.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Collection, Iterable

from controller.games.base import MalformedAction, describe
from controller.games.cards import FRENCH_SUIT_SYMBOLS, BadCard, CardFace, FaceColour
from controller.games.common.tricks import Trick, TrickRules, TrickWin, WinRule
from controller.games.words import Card, Text, Verbatim, Words, say

# Inside the engine a card is an int: suit * 13 + rank, rank 0 = "2" .. 12 = "A".
# Ints keep the hot paths (validation, trick winners, legal actions) cheap; every
# boundary speaks the spec's text notation.

SUITS = "SHDC"
RANKS = "23456789TJQKA"
# The suits in words, in SUITS order ("trump rotates and is spades"); str() is the English.
SUIT_NAMES: tuple[Text, ...] = (say("spades"), say("hearts"), say("diamonds"), say("clubs"))
DECK_SIZE = 52
ROTATION = "HCDS"  # rotating_trump: trump suit of round index i is ROTATION[i % 4]

CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
# Card notation (also ``10H``) -> card number.
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
CARD_INDEX.update({"10" + s: CARD_INDEX["T" + s] for s in SUITS})

# The Wizard variant's eight cards follow the 52: 52..55 the Wizards, 56..59 the Jesters.
WIZARD_NAMES: tuple[str, ...] = ("W1", "W2", "W3", "W4")
JESTER_NAMES: tuple[str, ...] = ("N1", "N2", "N3", "N4")
WIZARD_DECK_SIZE = DECK_SIZE + len(WIZARD_NAMES) + len(JESTER_NAMES)
FIRST_WIZARD, FIRST_JESTER = DECK_SIZE, DECK_SIZE + len(WIZARD_NAMES)
# Every card number's name, the Wizard variant's included (the engine's number -> name).
NAME_OF: tuple[str, ...] = CARD_NAMES + WIZARD_NAMES + JESTER_NAMES
WIZARD_CARD_INDEX: dict[str, int] = {
    **CARD_INDEX,
    **{name: FIRST_WIZARD + i for i, name in enumerate(WIZARD_NAMES + JESTER_NAMES)},
}
# Pseudo-suits of the added cards: never a real suit, so never trump nor the suit led.
WIZARD_SUIT, JESTER_SUIT = 4, 5


def is_wizard(card: int) -> bool:
    """Whether a card number is one of the Wizard variant's four Wizards."""
    return FIRST_WIZARD <= card < FIRST_JESTER


def is_jester(card: int) -> bool:
    """Whether a card number is one of the Wizard variant's four Jesters (Narren)."""
    return FIRST_JESTER <= card < WIZARD_DECK_SIZE


def card_suit(card: int) -> int:
    """The suit index (into ``SUITS``) of an internal card number; a pseudo-suit for the
    Wizard variant's cards (``WIZARD_SUIT``, ``JESTER_SUIT``)."""
    return SUIT_OF[card]


def parse_card(text: object, wizard: bool = False) -> str:
    """The canonical notation of a card (``10H`` -> ``TH``); BadCard if not a card.

    ``wizard``: the Wizard variant's deck, so ``W1``-``W4`` and ``N1``-``N4`` are cards too.
    """
    return NAME_OF[_parse_index(text, wizard)]


def _parse_index(text: object, wizard: bool = False) -> int:
    """The internal number of a card written ``text`` (``10H`` too); BadCard if not a card."""
    index = (
        (WIZARD_CARD_INDEX if wizard else CARD_INDEX).get(text) if isinstance(text, str) else None
    )
    if index is None and wizard:
        raise BadCard(
            say(
                "{value} is not a card: write a rank 2-9, T (or 10), J, Q, K or A "
                "and a suit S, H, D or C, e.g. QH, or a Wizard W1-W4 or a Jester N1-N4",
                value=Verbatim(describe(text)),
            )
        )
    if index is None:
        raise BadCard(
            say(
                "{value} is not a card: write a rank 2-9, T (or 10), J, Q, K or A "
                "and a suit S, H, D or C, e.g. QH",
                value=Verbatim(describe(text)),
            )
        )
    return index


class FrenchCards:
    """Oh Pshaw's ``CardType``: a card is its internal number; faces show rank and suit symbol."""

    def parse(self, text: object) -> int:
        return _parse_index(text)

    def notation(self, card: int) -> str:
        return CARD_NAMES[card]

    def name(self, card: int) -> Words:
        # "Q♥", "10♠": the suit symbols read the same in every language.
        return self.face(card).text

    def face(self, card: int) -> CardFace:
        rank, suit = CARD_NAMES[card][0], CARD_NAMES[card][1]
        return CardFace(
            rank="10" if rank == "T" else rank,
            symbol=FRENCH_SUIT_SYMBOLS[suit],
            red_ink=suit in "HD",
        )


CARD_TYPE = FrenchCards()


def parse_wizard_card(text: object) -> str:
    """A card of the Wizard add-on deck (``W1``-``W4``, ``N1``-``N4``); BadCard if not."""
    return NAME_OF[_parse_addon_index(text)]


def _parse_addon_index(text: object) -> int:
    """The internal number of a Wizard add-on card (52..59); BadCard for anything else."""
    if isinstance(text, str) and text in WIZARD_NAMES + JESTER_NAMES:
        return WIZARD_CARD_INDEX[text]
    raise BadCard(
        say(
            "{value} is not a card of the Wizard add-on deck: W1-W4 or N1-N4",
            value=Verbatim(describe(text)),
        )
    )


class WizardAddonCards:
    """The ``CardType`` of the Wizard variant's add-on deck: four Wizards and four Jesters,
    drawn in colours no suit card has (a Wizard navy, a Jester sage) so neither is
    mistaken for a suit card."""

    def parse(self, text: object) -> int:
        return _parse_addon_index(text)

    def notation(self, card: int) -> str:
        return NAME_OF[card]

    def name(self, card: int) -> Words:
        number = Verbatim(NAME_OF[card][1:])
        if is_wizard(card):
            return say("Wizard {number}", number=number)
        return say("Jester {number}", number=number)

    def face(self, card: int) -> CardFace:
        colour = FaceColour.NAVY if is_wizard(card) else FaceColour.SAGE
        return CardFace(rank=NAME_OF[card], colour=colour)


WIZARD_CARD_TYPE = WizardAddonCards()


def card_index(name: str) -> int:
    """The internal number of a card in canonical (or ``10``) notation."""
    return CARD_INDEX[name]


def cut_rank(name: str) -> int:
    """What a card counts when cutting for the deal: its rank alone, 2 lowest, ace highest
    (the rulebook's order within a suit; the suits do not rank, so equal ranks tie)."""
    return card_index(name) % len(RANKS)


# The suit of each card number, read by the trick rules (a C-level lookup); the
# Wizard variant's cards have their pseudo-suits.
SUIT_OF: tuple[int, ...] = (
    tuple(card // 13 for card in range(DECK_SIZE))
    + (WIZARD_SUIT,) * len(WIZARD_NAMES)
    + (JESTER_SUIT,) * len(JESTER_NAMES)
)
# Must follow; the highest trump wins, else the highest of the led suit. Within a
# suit the card numbers are in rank order, so a card's number is its rank.
TRICK_RULES: TrickRules[int, int] = TrickRules(SUIT_OF.__getitem__, operator.index, WinRule.HIGHEST)
_SPECIAL = (WIZARD_SUIT, JESTER_SUIT)


class WizardTrick(Trick[int, int]):
    """A trick under the Wizard variant's rules (``docs/oh-pshaw.md``, "The Wizard variant").

    The first Wizard played wins; a trick of Jesters alone goes to the first
    Jester; otherwise the highest trump, else the highest card of the suit to
    follow. Wizards and Jesters may always be played. ``led`` is the suit to
    follow: the first card's, or after Jesters the first other card's; None
    while only Jesters lie, and for good once a Wizard leads (``free``).
    """

    __slots__ = ("free",)

    def __init__(self, lead_seat: int, rules: TrickRules[int, int] = TRICK_RULES) -> None:
        super().__init__(rules, lead_seat)
        self.free = False  # a Wizard came before any suit card: nobody need follow

    def add(self, seat: int, card: int) -> None:
        if self.led is None and not self.free:
            suit = SUIT_OF[card]
            if suit == WIZARD_SUIT:
                self.free = True
            elif suit != JESTER_SUIT:
                self.led = suit
        self.plays.append((seat, card))

    def with_play(self, seat: int, card: int) -> WizardTrick:
        probe = WizardTrick(self.lead_seat)
        for played_by, played in self.plays:
            probe.add(played_by, played)
        probe.add(seat, card)
        return probe

    def follows(self, card: int, hand: Iterable[int]) -> bool:
        led = self.led
        if led is None or SUIT_OF[card] in (led, *_SPECIAL):
            return True
        return led not in map(SUIT_OF.__getitem__, hand)

    def exempt(self, card: int) -> bool:
        # Wizards and Jesters may always be played.
        return SUIT_OF[card] in _SPECIAL

    def playable(self, hand: Collection[int]) -> Collection[int]:
        led = self.led
        if led is None or led not in map(SUIT_OF.__getitem__, hand):
            return hand
        return [c for c in hand if SUIT_OF[c] in (led, *_SPECIAL)]

    def winner(self, trump: int | None = None) -> tuple[int, int, TrickWin]:
        for seat, card in self.plays:
            if SUIT_OF[card] == WIZARD_SUIT:
                return seat, card, TrickWin.FIRST_WIZARD
        led = self.led
        if led is None:  # no Wizard and no suit card: Jesters alone
            seat, card = self.plays[0]
            return seat, card, TrickWin.ALL_JESTERS
        suited = [(s, c) for s, c in self.plays if SUIT_OF[c] != JESTER_SUIT]
        best_seat, best = suited[0]  # the card that set the suit to follow
        best_suit = led
        for seat, card in suited[1:]:
            suit = SUIT_OF[card]
            if suit == best_suit:
                if card > best:  # one suit's numbers are in rank order
                    best_seat, best = seat, card
            elif suit == trump:
                best_seat, best, best_suit = seat, card, suit
        how = TrickWin.HIGHEST_LED if best_suit == led else TrickWin.HIGHEST_TRUMP
        return best_seat, best, how


def card_arg(name: str) -> Card | Verbatim:
    """A card of a refused action as a message argument: a card if it is one, else as written."""
    return Card(name) if name in WIZARD_CARD_INDEX else Verbatim(name)


def parse_card_message(name: object, wizard: bool = False) -> Words:
    """The words for a string that is not a card (actions built in code, not parsed)."""
    try:
        parse_card(name, wizard)
    except MalformedAction as exc:
        return exc.text
    return say("{value} is not a card", value=Verbatim(describe(name)))


def deal_cards(
    players: int,
    dealer: int,
    hand_size: int,
    turns_card: bool,
    rng: random.Random,
    deck_size: int = DECK_SIZE,
) -> tuple[list[list[str]], str | None]:
    """Shuffle the deck (52 cards, or the Wizard variant's 60) and deal: hands and turned card.

    Cards go one at a time clockwise from the eldest hand, as the rulebook deals;
    the turned card (or None) is the next one off the stock.
    """
    if players * hand_size + (1 if turns_card else 0) > deck_size:
        raise ValueError(f"{players} hands of {hand_size} cards do not fit in the deck")
    deck = list(range(deck_size))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for i in range(players * hand_size):
        hands[(dealer + 1 + i) % players].append(deck[i])
    turned = NAME_OF[deck[players * hand_size]] if turns_card else None
    return [[NAME_OF[c] for c in sorted(hand)] for hand in hands], turned
