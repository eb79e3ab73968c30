"""Oshaka Trick's events: what the engine answers, for the table, the display and the bots.

``HandRegistered``, ``CardPlayed`` and ``TrickWon`` are the trick kernel's
(``TrickWon.reason`` says in words which of the two ways won the trick); the
others are Oshaka's own: placing won cards, penalties, reneges, rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.games.base import Event
from controller.games.common.tricks import CardPlayed, HandRegistered, TrickWon
from controller.games.oshaka_trick.cards import Card
from controller.games.words import Words

__all__ = [
    "CardPlaced",
    "CardPlayed",
    "HandRegistered",
    "LeadChoiceDue",
    "OshakaPenalty",
    "PlacementDue",
    "RenegeProven",
    "RoundScored",
    "RoundStarted",
    "TrickWon",
]


@dataclass(frozen=True)
class CardPlaced(Event):
    """The trick winner placed ``card``: face up in its colour's column, or face down (-1)."""

    seat: int
    card: Card
    face_up: bool


@dataclass(frozen=True)
class OshakaPenalty(Event):
    """A won card the seat could not place: it scores minus its number."""

    seat: int
    card: Card
    reason: Words


@dataclass(frozen=True)
class PlacementDue(Event):
    """The trick winner must now place ``card`` face up or face down."""

    seat: int
    card: Card


@dataclass(frozen=True)
class RenegeProven(Event):
    """``seat`` did not follow ``colour`` in ``trick`` and has now played that colour."""

    seat: int
    trick: int
    colour: str


@dataclass(frozen=True)
class RoundScored(Event):
    """Round ``round`` is scored: each seat's round score and total."""

    round: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class LeadChoiceDue(Event):
    """Round 1 is over: one of ``choosers`` (its lowest scorers) names round 2's lead."""

    choosers: tuple[int, ...]


@dataclass(frozen=True)
class RoundStarted(Event):
    """Round ``round`` begins, ``lead`` leading its first trick."""

    round: int
    lead: int
