"""Oh Pshaw's actions: the record's verbs, the typed actions, and reading them.

``play`` a card, ``bid`` a number of tricks, ``trump`` (the dealer's turned
card), ``hand`` (the kernel's ``RegisterHand``) and ``end`` (staff's early end);
with the ``wizard`` option also ``trump_suit`` (the dealer's choice of trump
after turning a Wizard) and the cards ``W1``-``W4``, ``N1``-``N4``.
``parse_action`` checks a record line's shape only; whether the rules allow it
is the engine's job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from controller.games.base import (
    JSON,
    Action,
    MalformedAction,
    describe,
    require_int,
    split_action,
)
from controller.games.common.tricks import RegisterHand
from controller.games.oh_pshaw.cards import NAME_OF, SUITS, WIZARD_DECK_SIZE, parse_card
from controller.games.words import Verbatim, say

__all__ = [
    "BIDS",
    "EARLY",
    "PLAYS",
    "Bid",
    "ChooseTrump",
    "EndEarly",
    "Play",
    "RegisterHand",
    "TurnTrump",
    "Verb",
    "parse_action",
]


class Verb(StrEnum):
    """The record's verbs for Oh Pshaw; also what ``Expectation.expects`` names."""

    PLAY = "play"
    BID = "bid"
    TRUMP = "trump"
    HAND = "hand"
    END = "end"
    TRUMP_SUIT = "trump_suit"  # the Wizard variant only


EARLY = "early"  # the only value of an ``end`` action: the rulebook's early end


@dataclass(frozen=True)
class Play(Action):
    """A seat plays a card to the trick (canonical notation, e.g. ``TH``)."""

    card: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.PLAY: self.card}


@dataclass(frozen=True)
class Bid(Action):
    """A seat bids how many tricks it will take this round."""

    bid: int

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.BID: self.bid}


@dataclass(frozen=True)
class TurnTrump(Action):
    """The dealer's turned card; its suit is trump for the round."""

    card: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.TRUMP: self.card}


@dataclass(frozen=True)
class ChooseTrump(Action):
    """The dealer names trump (``S``, ``H``, ``D`` or ``C``) after turning a Wizard."""

    suit: str

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.TRUMP_SUIT: self.suit}


@dataclass(frozen=True)
class EndEarly(Action):
    """Staff end the game now: the rulebook's early end, the points as they stand.

    "Muss das Spiel früh beendet werden, ist derjenige, der zu diesem Zeitpunkt
    führt, der Gewinner": the current leaders win. Any seat may take it (staff
    ask at a seat); the table records the seat whose turn it was.
    """

    def to_json(self) -> JSON:
        return {"seat": self.seat, Verb.END: EARLY}


# Actions are immutable, so the ones legal_actions hands out are made once.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, name) for name in NAME_OF) for seat in range(7)
)
BIDS: tuple[tuple[Bid, ...], ...] = tuple(
    tuple(Bid(seat, n) for n in range(WIZARD_DECK_SIZE // 3 + 1)) for seat in range(7)
)


# --- reading a record line -----------------------------------------------------------


def _play(seat: int, value: object, wizard: bool) -> Action:
    return Play(seat, parse_card(value, wizard))


def _bid(seat: int, value: object, wizard: bool) -> Action:
    return Bid(seat, require_int(value, '"bid"'))


def _trump(seat: int, value: object, wizard: bool) -> Action:
    return TurnTrump(seat, parse_card(value, wizard))


def _hand(seat: int, value: object, wizard: bool) -> Action:
    if not isinstance(value, list):
        raise MalformedAction(
            say('"hand" must be a list of cards, not {value}', value=Verbatim(describe(value)))
        )
    return RegisterHand(seat, tuple(parse_card(text, wizard) for text in value))


def _trump_suit(seat: int, value: object, wizard: bool) -> Action:
    if not isinstance(value, str) or value not in SUITS:
        raise MalformedAction(
            say(
                '"trump_suit" must be a suit S, H, D or C, not {value}',
                value=Verbatim(describe(value)),
            )
        )
    return ChooseTrump(seat, value)


def _end(seat: int, value: object, wizard: bool) -> Action:
    if value != EARLY:
        raise MalformedAction(
            say('"end" must be "early", not {value}', value=Verbatim(describe(value)))
        )
    return EndEarly(seat)


# Each verb: the extra keys its line may carry (none), and the reader of its value.
# ``trump_suit`` is a verb of the Wizard variant alone: without it the game knows no such verb.
VERBS: Mapping[str, tuple[str, ...]] = {verb: () for verb in Verb if verb != Verb.TRUMP_SUIT}
WIZARD_VERBS: Mapping[str, tuple[str, ...]] = {verb: () for verb in Verb}
_READERS: Mapping[str, Callable[[int, object, bool], Action]] = {
    Verb.PLAY: _play,
    Verb.BID: _bid,
    Verb.TRUMP: _trump,
    Verb.HAND: _hand,
    Verb.END: _end,
    Verb.TRUMP_SUIT: _trump_suit,
}


def parse_action(obj: Mapping[str, Any], players: int, wizard: bool = False) -> Action:
    """A record line's object as a typed action of ``players`` seats; MalformedAction if not.

    ``wizard``: the game plays the Wizard variant (its cards and ``trump_suit`` are read).
    """
    seat, verb = split_action(obj, players, WIZARD_VERBS if wizard else VERBS)
    return _READERS[verb](seat, obj[verb], wizard)
