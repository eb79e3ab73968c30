"""Oshaka Trick's actions: the record's verbs, the typed actions, and reading them.

``play`` a card to the trick, ``place`` a won card face up or face down,
``lead`` (round 2's lead, named by the lowest scorer of round 1) and ``hand``
(the kernel's ``RegisterHand``, a seat's 13 cards). ``parse_action`` checks a
record line's shape only; whether the rules allow it is the engine's job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from controller.games.base import JSON, Action, MalformedAction, describe, split_action
from controller.games.common.tricks import RegisterHand
from controller.games.oshaka_trick.cards import Card
from controller.games.words import Verbatim, say

__all__ = [
    "ChooseLead",
    "Place",
    "Placement",
    "Play",
    "RegisterHand",
    "Verb",
    "hand_registrations",
    "parse_action",
]


class Verb(StrEnum):
    """The record's verbs for Oshaka Trick; also what ``Expectation.expects`` names."""

    PLAY = "play"
    PLACE = "place"
    LEAD = "lead"
    HAND = "hand"


class Placement(StrEnum):
    """How a ``place`` action puts the card: face up to score, or face down for -1."""

    SCORE = "score"
    PENALTY = "penalty"


@dataclass(frozen=True)
class Play(Action):
    """A seat plays a card to the trick."""

    card: Card

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.PLAY: str(self.card)}


@dataclass(frozen=True)
class Place(Action):
    """The trick winner places the card being resolved: face up (score) or face down."""

    face_up: bool
    card: Card | None = None

    def to_json(self) -> JSON:
        placement = Placement.SCORE if self.face_up else Placement.PENALTY
        obj: JSON = {"seat": self.seat, Verb.PLACE: placement}
        if self.card is not None:
            obj["card"] = str(self.card)
        return obj


@dataclass(frozen=True)
class ChooseLead(Action):
    """Before round 2, the lowest scorer of round 1 names the seat that leads."""

    lead: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.LEAD: self.lead}


def hand_registrations(hands: Sequence[Sequence[Card]]) -> list[Action]:
    """The ``hand`` actions that register dealt hands, seat by seat."""
    return [RegisterHand(seat, tuple(hand)) for seat, hand in enumerate(hands)]


# --- reading a record line -----------------------------------------------------------


def _play(seat: int, obj: Mapping[str, Any], players: int) -> Action:
    return Play(seat, Card.parse(obj[Verb.PLAY]))


def _place(seat: int, obj: Mapping[str, Any], players: int) -> Action:
    value = obj[Verb.PLACE]
    if value not in (Placement.SCORE, Placement.PENALTY):
        raise MalformedAction(
            say(
                '"place" must be "score" (face up) or "penalty" (face down), not {value}',
                value=Verbatim(describe(value)),
            )
        )
    card = Card.parse(obj["card"]) if "card" in obj else None
    return Place(seat, value == Placement.SCORE, card)


def _lead(seat: int, obj: Mapping[str, Any], players: int) -> Action:
    value = obj[Verb.LEAD]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise MalformedAction(
            say(
                '"lead" must be a seat 0..{last}, not {value}',
                last=Verbatim(str(players - 1)),
                value=Verbatim(describe(value)),
            )
        )
    return ChooseLead(seat, value)


def _hand(seat: int, obj: Mapping[str, Any], players: int) -> Action:
    value = obj[Verb.HAND]
    if not isinstance(value, list):
        raise MalformedAction(
            say('"hand" must be a list of cards, not {value}', value=Verbatim(describe(value)))
        )
    return RegisterHand(seat, tuple(Card.parse(text) for text in value))


# Each verb: the extra keys its line may carry, and the reader of its line.
VERBS: Mapping[str, tuple[str, ...]] = {
    Verb.PLAY: (),
    Verb.PLACE: ("card",),
    Verb.LEAD: (),
    Verb.HAND: (),
}
_READERS: Mapping[str, Callable[[int, Mapping[str, Any], int], Action]] = {
    Verb.PLAY: _play,
    Verb.PLACE: _place,
    Verb.LEAD: _lead,
    Verb.HAND: _hand,
}


def parse_action(obj: Mapping[str, Any], players: int) -> Action:
    """A record line's object as a typed action of ``players`` seats; MalformedAction if not."""
    seat, verb = split_action(obj, players, VERBS)
    return _READERS[verb](seat, obj, players)
