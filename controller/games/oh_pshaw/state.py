"""Oh Pshaw's state: the phases and one round, as the engine keeps them.

The engine (``engine.OhPshaw``) changes these; the fast path
(``fast.FastRound.from_engine``), the search bot and the snapshot read them.
Cards are the card numbers of ``cards`` (suit * 13 + rank).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial

from controller.games.common.tricks import Trick
from controller.games.oh_pshaw.cards import (
    DECK_SIZE,
    TRICK_RULES,
    WIZARD_DECK_SIZE,
    WizardTrick,
)
from controller.games.oh_pshaw.events import BidStatus
from controller.games.oh_pshaw.identity import GAME_ID as GAME_ID
from controller.games.oh_pshaw.identity import TITLE as TITLE

FREE, PLAYED, TURNED = -1, -2, -3  # RoundState.where values that are not seats


class Phase(StrEnum):
    """What the game waits for: the turned card (after the bidding), a bid, a card, nothing."""

    TRUMP = "trump"
    BID = "bid"
    PLAY = "play"
    OVER = "over"


# ``new_trick(lead_seat)``: an empty trick led by ``lead_seat``, under Oh Pshaw's rules
# (the highest trump, else the highest of the led suit).
# A partial, not a function: one trick is made per trick played, on the engines' hot path.
new_trick: Callable[[int], Trick[int, int]] = partial(Trick, TRICK_RULES)


def trick_of(plays: Sequence[tuple[int, int]], wizard: bool) -> Trick[int, int]:
    """The trick of ``plays`` ((seat, card), at least one, in order), under the Wizard
    variant's rules or not."""
    lead_seat = plays[0][0]
    trick = WizardTrick(lead_seat) if wizard else new_trick(lead_seat)
    for seat, card in plays:
        trick.add(seat, card)
    return trick


@dataclass
class RoundState:
    """Everything that resets when a new round is dealt."""

    index: int
    dealer: int
    hand_size: int
    tie_break: bool
    turns_card: bool
    trump: int | None  # suit index, or None (no trump / not turned yet)
    players: int
    turned: int | None = None
    touched: bool = False  # any action of this round accepted (it then shows in reports)
    bids: list[int | None] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)
    # A seat's registered cards not yet played, sorted, or None.
    hands: list[list[int] | None] = field(default_factory=list)
    # Where each card is: FREE (unseen), PLAYED, TURNED or the seat whose registered
    # hand holds it. One lookup answers every "may this card be played" question.
    where: list[int] = field(default_factory=list)
    started: list[bool] = field(default_factory=list)
    # seat -> (suit, trick) failures to follow not yet proven to be reneges
    failures: list[list[tuple[int, int]]] = field(default_factory=list)
    reneges: list[tuple[int, int]] = field(default_factory=list)
    # The current trick (its lead seat leads it); set by __post_init__.
    trick: Trick[int, int] = field(init=False)
    trick_number: int = 1
    last_trick: tuple[tuple[int, int], ...] = ()
    last_winner: int | None = None
    scores: list[int] | None = None  # set when the round is scored
    # A tie-break round scores the tied seats only (the others play along);
    # None: every seat scores.
    scoring_seats: tuple[int, ...] | None = None
    # The Wizard variant: its 60-card deck and tricks; ``choosing`` while the dealer,
    # having turned a Wizard, has yet to choose trump.
    wizard: bool = False
    choosing: bool = False

    def __post_init__(self) -> None:
        n = self.players
        self.bids = [None] * n
        self.tricks = [0] * n
        self.hands = [None] * n
        self.where = [FREE] * self.deck_size
        self.started = [False] * n
        self.failures = [[] for _ in range(n)]
        self.trick = self.new_trick((self.dealer + 1) % n)  # the eldest hand leads first

    @property
    def deck_size(self) -> int:
        """The cards of the round's deck: 52, or 60 in the Wizard variant."""
        return WIZARD_DECK_SIZE if self.wizard else DECK_SIZE

    def new_trick(self, lead_seat: int) -> Trick[int, int]:
        """An empty trick led by ``lead_seat`` under the round's rules (Wizard or not)."""
        return WizardTrick(lead_seat) if self.wizard else new_trick(lead_seat)

    def latest_trick(self) -> Trick[int, int] | None:
        """The trick on the table, or until the next trick's first card the one just taken
        (a renege noticed "before the next trick" is still in time); None before the round's
        first card."""
        if self.trick:
            return self.trick
        return trick_of(self.last_trick, self.wizard) if self.last_trick else None

    @property
    def leader(self) -> int:
        """The seat that leads the current trick."""
        return self.trick.lead_seat

    @property
    def reneged(self) -> set[int]:
        return {seat for seat, _ in self.reneges}

    def status(self) -> BidStatus | None:
        """The announcement once every bid is in (over, under or equal); else None."""
        if any(b is None for b in self.bids):
            return None
        total = sum(b for b in self.bids if b is not None)
        if total == self.hand_size:
            return BidStatus.EQUAL
        return BidStatus.OVER if total > self.hand_size else BidStatus.UNDER
