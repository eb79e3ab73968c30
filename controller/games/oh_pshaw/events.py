"""Oh Pshaw's events: what the engine answers, for the table, the display and the bots.

``HandRegistered``, ``CardPlayed`` and ``TrickWon`` are the trick kernel's (an
Oh Pshaw trick is won one way, by the highest card that counts, so its
``TrickWon.reason`` is None); the others are Oh Pshaw's own: rounds, the
turned card, bids and the announcement that closes them, reneges, scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from controller.games.base import Event
from controller.games.common.tricks import CardPlayed, HandRegistered, TrickWon
from controller.games.words import Text, say

__all__ = [
    "BidMade",
    "BidOutcome",
    "BidStatus",
    "BiddingClosed",
    "CardPlayed",
    "GameEndedEarly",
    "HandRegistered",
    "RenegeProven",
    "RoundScored",
    "RoundStarted",
    "TieBreak",
    "TrickWon",
    "TrumpTurned",
]


class BidStatus(StrEnum):
    """The announcement when the bidding closes: the bids against the round's tricks."""

    OVER = "over"
    UNDER = "under"
    EQUAL = "equal"

    @property
    def explanation(self) -> Text:
        """What the announcement means for the players, in words."""
        return _STATUS_EXPLANATIONS[self]

    @property
    def word(self) -> Text:
        """The announcement itself, one word for the display ("OVER")."""
        return _STATUS_WORDS[self]


_STATUS_EXPLANATIONS: Mapping[BidStatus, Text] = {
    BidStatus.OVER: say("OVER: more tricks bid than there are, someone must miss"),
    BidStatus.UNDER: say(
        "UNDER: fewer tricks bid than there are, someone takes more than they want"
    ),
    BidStatus.EQUAL: say("EQUAL: the bids add up to the tricks"),
}
# TRANSLATORS: the announcement when the bidding closes: more tricks bid than the round has.
_STATUS_WORDS: Mapping[BidStatus, Text] = {
    BidStatus.OVER: say("OVER"),
    BidStatus.UNDER: say("UNDER"),
    BidStatus.EQUAL: say("EQUAL"),
}


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round begins: who deals, how many cards, and the trump when no card is turned."""

    round: int
    dealer: int
    hand_size: int
    tie_break: bool
    turns_card: bool
    trump: str | None


@dataclass(frozen=True)
class TrumpTurned(Event):
    """The dealer turned ``card``; ``trump`` its suit, or None for a Wizard (the dealer
    chooses, ``TrumpChosen``) or a Jester (no trump) in the Wizard variant."""

    seat: int
    card: str
    trump: str | None


@dataclass(frozen=True)
class TrumpChosen(Event):
    """The Wizard variant: the dealer, having turned a Wizard, chose ``trump``."""

    seat: int
    trump: str


@dataclass(frozen=True)
class BidMade(Event):
    seat: int
    bid: int


@dataclass(frozen=True)
class BiddingClosed(Event):
    """All bids are in: ``status`` says whether they are over, under or equal to the tricks."""

    bids: tuple[int, ...]
    total: int
    tricks: int
    status: BidStatus


@dataclass(frozen=True)
class RenegeProven(Event):
    """``seat`` failed to follow ``suit`` in ``trick`` and has now shown that it held one."""

    seat: int
    trick: int
    suit: str


class BidOutcome(StrEnum):
    """How a seat's round went: its bid made exactly, missed, or a proven renege."""

    MADE = "made"
    MISSED = "missed"
    RENEGED = "reneged"


@dataclass(frozen=True)
class RoundScored(Event):
    """A round is scored; per seat: its score, bid, tricks taken and outcome."""

    round: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    bids: tuple[int | None, ...] = ()
    tricks: tuple[int, ...] = ()
    outcomes: tuple[BidOutcome, ...] = ()


@dataclass(frozen=True)
class GameEndedEarly(Event):
    """Staff ended the game before its schedule ran out; ``GameOver`` follows."""

    round: int  # the round in progress (or just scored) when it ended, from 1


@dataclass(frozen=True)
class TieBreak(Event):
    """The schedule ended with the best total shared: an extra round at max_hand."""

    tied: tuple[int, ...]
    hand_size: int = 0  # the extra round's cards (max_hand)
