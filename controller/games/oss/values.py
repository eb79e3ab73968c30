"""Oss's small value types: tribe cards, placements, attempts, timed tosses, round facts.

Also the checks a record's values go through when an action is parsed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from controller.games.base import (
    JSON,
    MalformedAction,
    describe,
)
from controller.games.oss import cards
from controller.games.oss.actions import (
    FAILED,
    MAX_COUNT,
    AttemptKind,
)
from controller.games.words import Verbatim, say

# --- small value types -----------------------------------------------------------


@dataclass(frozen=True)
class TribeCard:
    """One physical tribe card: whose tribe it belongs to and its value."""

    tribe: int
    value: int


@dataclass(frozen=True)
class Won:
    """A tribe card in a seat's won pile, with the round it was won in."""

    card: TribeCard
    round: int


@dataclass(frozen=True)
class Placement:
    """A tribe card played below a solo trick, in playing order."""

    seat: int
    value: int
    trick: str


@dataclass(frozen=True)
class Attempt:
    """One attempt of the round: a solo (one seat) or a duel (first duelist, second)."""

    kind: AttemptKind
    trick: str
    seats: tuple[int, ...]
    values: tuple[int, ...]

    def card_of(self, seat: int) -> TribeCard:
        return TribeCard(seat, self.values[self.seats.index(seat)])


@dataclass(frozen=True)
class TimedToss:
    """One entry of the attempt log: a toss the timer measured, to the millisecond."""

    seat: int
    millis: int
    round: int
    trick: str  # the solo trick attempted, or the duel trick

    def to_json(self) -> JSON:
        return {"seat": self.seat, "millis": self.millis, "round": self.round, "trick": self.trick}


@dataclass
class RoundInfo:
    """What the report shows about one round besides the scores."""

    chief: int
    solo: tuple[str, ...] = ()
    duel: str | None = None
    challenge: str | None = None
    challenge_winner: int | None = None
    replays: list[int] = field(default_factory=list)


def sorted_values(counter: Counter[int]) -> list[int]:
    return sorted(counter.elements())


def require_value(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 4:
        raise MalformedAction(
            say(
                "{what} must be a tribe card value 1..4, not {value}",
                what=Verbatim(what),
                value=Verbatim(describe(value)),
            )
        )
    return value


def require_count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not FAILED <= value <= MAX_COUNT:
        raise MalformedAction(
            say(
                "a count must be {failed} (failed) to {most} jacks, not {value}",
                failed=FAILED,
                most=MAX_COUNT,
                value=Verbatim(describe(value)),
            )
        )
    return value


def require_trick(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise MalformedAction(
            say(
                "{what} must be a trick name, not {value}",
                what=Verbatim(what),
                value=Verbatim(describe(value)),
            )
        )
    name = cards.trick_name(value)
    if name is None:
        raise MalformedAction(
            say(
                "{what}: there is no trick called {value}",
                what=Verbatim(what),
                value=Verbatim(describe(value)),
            )
        )
    return name


def tribe_of(seat: int) -> int:
    """The tribe a seat plays: seat ``p`` plays tribe ``p + 1`` (cards ``T{p+1}-...``)."""
    return seat + 1
