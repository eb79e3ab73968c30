"""Oh Pshaw's cards: a 52-card deck, ace high, its notation and words, and the deal.

Cards are written rank + suit (``AS``, ``TH``, ``2C``; ``10H`` is read as ``TH``).
``TRICK_RULES`` are the kernel's trick rules for these cards: the highest trump
wins, else the highest card of the led suit.
"""

from __future__ import annotations

import operator
import random

from controller.games.base import MalformedAction, describe
from controller.games.common.tricks import TrickRules, WinRule
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


def card_suit(card: int) -> int:
    """The suit index (into ``SUITS``) of an internal card number."""
    return card // 13


def parse_card(text: object) -> str:
    """The canonical notation of a card (``10H`` -> ``TH``); MalformedAction if not a card."""
    index = CARD_INDEX.get(text) if isinstance(text, str) else None
    if index is None:
        raise MalformedAction(
            say(
                "{value} is not a card: write a rank 2-9, T (or 10), J, Q, K or A "
                "and a suit S, H, D or C, e.g. QH",
                value=Verbatim(describe(text)),
            )
        )
    return CARD_NAMES[index]


def card_index(name: str) -> int:
    """The internal number of a card in canonical (or ``10``) notation."""
    return CARD_INDEX[name]


def cut_rank(name: str) -> int:
    """What a card counts when cutting for the deal: its rank alone, 2 lowest, ace highest
    (the rulebook's order within a suit; the suits do not rank, so equal ranks tie)."""
    return card_index(name) % len(RANKS)


# The suit of each card number, read by the trick rules (a C-level lookup).
SUIT_OF: tuple[int, ...] = tuple(card // 13 for card in range(DECK_SIZE))
# Must follow; the highest trump wins, else the highest of the led suit. Within a
# suit the card numbers are in rank order, so a card's number is its rank.
TRICK_RULES: TrickRules[int, int] = TrickRules(SUIT_OF.__getitem__, operator.index, WinRule.HIGHEST)


def card_arg(name: str) -> Card | Verbatim:
    """A card of a refused action as a message argument: a card if it is one, else as written."""
    return Card(name) if name in CARD_INDEX else Verbatim(name)


def parse_card_message(name: object) -> Words:
    """The words for a string that is not a card (actions built in code, not parsed)."""
    try:
        parse_card(name)
    except MalformedAction as exc:
        return exc.text
    return say("{value} is not a card", value=Verbatim(describe(name)))


def deal_cards(
    players: int, dealer: int, hand_size: int, turns_card: bool, rng: random.Random
) -> tuple[list[list[str]], str | None]:
    """Shuffle a 52-card deck and deal: each seat's hand and the turned card (or None).

    Cards go one at a time clockwise from the eldest hand, as the rulebook deals;
    the turned card is the next one off the stock.
    """
    if players * hand_size + (1 if turns_card else 0) > DECK_SIZE:
        raise ValueError(f"{players} hands of {hand_size} cards do not fit in the deck")
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for i in range(players * hand_size):
        hands[(dealer + 1 + i) % players].append(deck[i])
    turned = CARD_NAMES[deck[players * hand_size]] if turns_card else None
    return [[CARD_NAMES[c] for c in sorted(hand)] for hand in hands], turned
