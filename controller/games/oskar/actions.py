"""Oskar's actions (the record's verbs) and events (what ``apply`` returns).

Actions and events are frozen values; the commonest of them are made once
and shared (a table of every seat's plays and rolls, interned events), since
looking one up is cheaper than building a frozen dataclass on every card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.games.base import (
    JSON,
    Action,
    Event,
    Expectation,
    IllegalAction,
    TurnPassed,
)
from controller.games.interned import Interned
from controller.games.oskar.cards import DECK_ORDER, Card, WinReason
from controller.games.oskar.snapshot import GENRES, TREND_THRESHOLD, Verb
from controller.games.words import Words

# --- actions -------------------------------------------------------------------


@dataclass(frozen=True)
class RollDice(Action):
    """A seat's first roll of its two dice, at the start of the game."""

    faces: tuple[str, str]

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.DICE: list(self.faces)}


@dataclass(frozen=True)
class Reroll(Action):
    """Which dice (0, 1) a seat rerolled and the faces now showing; ``()`` keeps both."""

    rerolled: tuple[int, ...]
    faces: tuple[str, str]

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.REROLL: list(self.rerolled), Verb.DICE: list(self.faces)}


@dataclass(frozen=True)
class KeepDoubles(Action):
    """The seat with an open doubles offer declines it explicitly (``"reroll": []``, no dice).

    The spec's implicit decline (the next action is anyone else's) still
    holds; this makes the decision a line of the record, so a table can wait
    for it and a rebuilt game knows it was taken.
    """

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.REROLL: []}


class DoublesOpen(IllegalAction):
    """Refused at a table: ``seat`` rolled doubles and decides first (``Oskar.check_order``)."""

    def __init__(self, text: Words, seat: int) -> None:
        super().__init__(text)
        self.seat = seat


@dataclass(frozen=True)
class RegisterHand(Action):
    """A seat's hand for the current round, registered before its first play in it."""

    cards: tuple[Card, ...]

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.HAND: [str(c) for c in self.cards]}


@dataclass(frozen=True)
class Play(Action):
    """A seat plays a card to the trick."""

    card: Card

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.PLAY: str(self.card)}


# What the engine expects, built once per seat and verb (expected is read on every step).
EXPECT: Mapping[str, tuple[Expectation, ...]] = {
    verb: tuple(Expectation(seat, verb) for seat in range(6))
    for verb in (Verb.DICE, Verb.PLAY, Verb.REROLL)
}

EXPECT_PLAY = EXPECT[Verb.PLAY]
EXPECT_DICE = EXPECT[Verb.DICE]
EXPECT_REROLL = EXPECT[Verb.REROLL]

# Every choice of dice a reroll may name (compared by ==, so a hand-built list still
# reaches the full check, which words what is wrong with it).
DICE_CHOICES: tuple[tuple[int, ...], ...] = ((), (0,), (1,), (0, 1), (1, 0))

# "Seat N's turn" events, built once: events are frozen values, and one is
# answered after nearly every card.
TURNS: tuple[TurnPassed, ...] = tuple(TurnPassed(seat) for seat in range(6))

# Every seat's opening roll, each pair of faces, built once (listed as legal actions).
ROLLS: tuple[tuple[RollDice, ...], ...] = tuple(
    tuple(RollDice(seat, (a, b)) for a in GENRES for b in GENRES) for seat in range(6)
)

# Every seat's Play of every card, built once: actions are frozen values, and building
# a frozen dataclass costs more than looking one up (legal_actions lists them often).
PLAYS: tuple[Mapping[Card, Play], ...] = tuple(
    {card: Play(seat, card) for card in DECK_ORDER} for seat in range(6)
)


# --- events --------------------------------------------------------------------


@dataclass(frozen=True)
class DiceRolled(Event):
    seat: int
    faces: tuple[str, str]
    doubles: bool


@dataclass(frozen=True)
class RerollDone(Event):
    """A seat rerolled ``rerolled`` (maybe none); ``doubles_reroll`` if it was the extra one."""

    seat: int
    rerolled: tuple[int, ...]
    faces: tuple[str, str]
    doubles: bool
    doubles_reroll: bool


@dataclass(frozen=True)
class DoublesDeclined(Event):
    """The seat with doubles let the next action pass without its extra reroll."""

    seat: int


@dataclass(frozen=True)
class HandRegistered(Event):
    """The engine now knows the seat's hand for this round (its size only is public)."""

    seat: int
    cards: int


# Each (seat, cards) event made once and shared, as CardPlayed below: four per round.
HAND_REGISTERED: Interned[tuple[int, int], HandRegistered] = Interned()


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card went to the trick; ``zero`` counts the zeros in the trick with this one
    (1: the first zero, colours lapse; 2: the second, it takes the trick), 0 for a colour."""

    seat: int
    card: Card
    trick: int
    zero: int = 0


# Each (seat, card, trick) event made once and shared: events are frozen values, and
# building a frozen dataclass costs more than looking one up (one is answered per card).
# Interned: the table forgets them between games, so a night of games keeps none.
CARD_PLAYED: Interned[tuple[int, Card, int, int], CardPlayed] = Interned()


@dataclass(frozen=True)
class TrickWon(Event):
    seat: int
    trick: int
    cards: tuple[tuple[int, Card], ...]
    points: int
    reason: WinReason


@dataclass(frozen=True)
class StockWon(Event):
    """The seat won a trick with a second zero first this round: the stock is its."""

    seat: int
    cards: int


@dataclass(frozen=True)
class RoundScored(Event):
    round: int
    points: tuple[int, ...]
    stock_value: int
    stock_winner: int | None
    genre_totals: Mapping[str, int]
    trendy: tuple[str, ...]
    tokens: tuple[int, ...]
    totals: tuple[int, ...]
    threshold: int = TREND_THRESHOLD  # the genre points that made a genre trendy


@dataclass(frozen=True)
class RerollsDue(Event):
    """After a round: who rerolls in which order; ``most`` must reroll both."""

    order: tuple[int, ...]
    most: tuple[int, ...]
    fewest: tuple[int, ...]


@dataclass(frozen=True)
class RoundStarted(Event):
    round: int
    dealer: int
    lead: int
