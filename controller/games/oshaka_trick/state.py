"""Oshaka Trick's state: the phases, each seat's placed cards, and one round.

The engine (``engine.OshakaTrick``) changes these; the fast path
(``fast.FastRound.from_engine``), the bots and the snapshot read them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial

from controller.games.common.tricks import Trick
from controller.games.oshaka_trick.cards import COLOURS, TRICK_RULES, Card
from controller.games.oshaka_trick.identity import GAME_ID as GAME_ID
from controller.games.oshaka_trick.identity import TITLE as TITLE


class Phase(StrEnum):
    """What the game waits for: a card to the trick, a placement, round 2's lead, nothing."""

    PLAY = "play"
    PLACE = "place"
    LEAD = "lead"
    OVER = "over"


class Placed(StrEnum):
    """Where a won card went: face up in its colour's column, face down, or an Oshaka penalty."""

    UP = "up"
    DOWN = "down"
    OSHAKA = "oshaka"


# ``new_trick(lead_seat)``: an empty trick led by ``lead_seat``, under Oshaka's rules
# (the lowest wins).
# A partial, not a function: one trick is made per trick played, on the engines' hot path.
new_trick: Callable[[int], Trick[Card, str]] = partial(Trick, TRICK_RULES)


@dataclass
class SeatArea:
    """What a seat has placed in front of it this round."""

    columns: dict[str, list[Card]] = field(default_factory=dict)
    face_down: list[Card] = field(default_factory=list)
    oshaka: list[Card] = field(default_factory=list)

    def score(self) -> int:
        top = sum(column[-1].number for column in self.columns.values() if column)
        return top - len(self.face_down) - sum(card.number for card in self.oshaka)

    def columns_json(self) -> dict[str, list[str]]:
        return {c: [str(x) for x in self.columns[c]] for c in COLOURS if self.columns.get(c)}


@dataclass
class RoundState:
    """Everything that resets when a new round is dealt."""

    number: int
    trick: Trick[Card, str]
    trick_number: int = 1
    played: set[Card] = field(default_factory=set)
    hands: dict[int, set[Card]] = field(default_factory=dict)
    seats_started: set[int] = field(default_factory=set)
    areas: list[SeatArea] = field(default_factory=list)
    # seat -> colour -> tricks in which the seat did not follow that colour
    failed_to_follow: dict[int, dict[str, list[int]]] = field(default_factory=dict)
    reneges: list[tuple[int, int]] = field(default_factory=list)
    to_place: list[Card] = field(default_factory=list)
    winner: int | None = None
    # The round's last completed trick, its winner and where its cards went so far (in
    # the order placed), kept for the table to show again after the next trick starts.
    last_trick: tuple[tuple[int, Card], ...] = ()
    last_winner: int | None = None
    placed: list[tuple[Card, Placed]] = field(default_factory=list)
