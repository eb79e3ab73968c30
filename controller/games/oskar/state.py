"""Oskar's state: the round in progress and the whole game's, shared by its phases.

``OskarState`` holds what every phase reads and changes and answers who acts
next; the phases (``phases.py``) and the views (``views.py``) are its
subclasses, and ``Oskar`` (``engine.py``) composes them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from controller.games.base import (
    BadOption,
    Engine,
    Expectation,
)
from controller.games.oskar.actions import (
    EXPECT_DICE,
    EXPECT_PLAY,
    EXPECT_REROLL,
)
from controller.games.oskar.cards import (
    UNPLAYED,
    ZERO,
    ZEROS,
    Card,
    hand_size,
)
from controller.games.oskar.dice import (
    RerollRule,
)
from controller.games.oskar.identity import GAME_ID, MAX_PLAYERS, MIN_PLAYERS, TITLE
from controller.games.oskar.options import OskarOptions
from controller.games.oskar.scoring import (
    RoundResult,
)
from controller.games.oskar.snapshot import (
    TREND_THRESHOLD,
    Phase,
    RollView,
)
from controller.games.words import Verbatim, say


@dataclass
class RoundState:
    """Everything that resets when a new round is dealt."""

    number: int
    dealer: int
    lead: int
    players: int
    trick_lead: int = 0
    trick: list[tuple[int, Card]] = field(default_factory=list)
    trick_number: int = 1
    # Every card counted from 0, so that looking up an unplayed card costs no __missing__.
    played: Counter[Card] = field(default_factory=lambda: Counter(UNPLAYED))
    cards_played: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    stock_winner: int | None = None
    # The round's last completed trick and its winner, for the table to show again.
    last_trick: tuple[tuple[int, Card], ...] = ()
    last_winner: int | None = None
    # Registered hands: the cards dealt, and those not yet played (None: not registered).
    dealt: list[tuple[Card, ...] | None] = field(default_factory=list)
    hands: list[list[Card] | None] = field(default_factory=list)
    # The seat to play next: the trick's lead, then clockwise (kept, not derived, as it
    # is read several times for every card played).
    turn: int = 0

    def __post_init__(self) -> None:
        self.trick_lead = self.lead
        self.turn = self.lead
        self.cards_played = [0] * self.players
        self.points = [0] * self.players
        self.tricks_won = [0] * self.players
        self.dealt = [None] * self.players
        self.hands = [None] * self.players

    def zeros_unaccounted(self) -> int:
        """Zeros neither played nor in a registered hand: what an unregistered seat may hold."""
        held = sum(h.count(ZERO) for h in self.hands if h is not None)
        return ZEROS - self.played[ZERO] - held

    def holder(self, card: Card) -> int | None:
        """The seat whose registered hand still holds ``card`` (a non-zero card), or None."""
        for seat, hand in enumerate(self.hands):
            if hand is not None and card in hand:
                return seat
        return None


class OskarState(Engine):
    """The state of a game of Oskar and who acts next; see ``engine.py`` for the rules."""

    game_id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = TITLE
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS

    def __init__(self, players: int, dealer: int, options: OskarOptions | None = None):
        if not self.min_players <= players <= self.max_players:
            raise BadOption(say("oskar is for 3 to 6 players, not {players}", players=players))
        if not 0 <= dealer < players:
            raise BadOption(
                say(
                    '"dealer" must be a seat 0..{last}, not {dealer}',
                    last=Verbatim(str(players - 1)),
                    dealer=Verbatim(str(dealer)),
                )
            )
        self.options = options or OskarOptions.read({}, self.game_id)
        self.players = players
        self.first_dealer = dealer
        self.tokens_to_win = self.options.tokens_to_win
        self.hand_size = hand_size(players)
        self.trend_threshold = TREND_THRESHOLD  # genre points that make a genre trendy
        self.phase = Phase.DICE
        self.dice: list[tuple[str, str] | None] = [None] * players
        self.tokens: list[int] = [0] * players
        self.round = RoundState(1, dealer, (dealer + 1) % players, players)
        self.results: list[RoundResult] = []
        self.rule: RerollRule | None = None
        self.rerolls_done = 0
        self.doubles: int | None = None  # the seat that may reroll one of its doubles now
        self.last_rolls: tuple[RollView, ...] = ()  # the latest rolls of the dice, newest last

    @property
    def expected(self) -> Expectation | None:
        phase = self.phase
        if phase is Phase.PLAY:
            return EXPECT_PLAY[self.round.turn]
        if phase is Phase.DICE:
            return EXPECT_DICE[self.unrolled()[0]]
        if self.phase is Phase.REROLL:
            assert self.rule is not None
            return EXPECT_REROLL[self.rule.order[self.rerolls_done]]
        return None

    @property
    def decides(self) -> int | None:
        """The seat the table waits for first: an open doubles offer, else the expected seat.

        ``expected`` names only what the game cannot go on without, and the
        doubles offer is optional in the record; a table still lets the seat
        decide (``KeepDoubles`` or a reroll of one die) before anyone else acts.
        """
        if self.doubles is not None:
            return self.doubles
        expected = self.expected
        return None if expected is None else expected.seat

    def unrolled(self) -> list[int]:
        """Seats that have not rolled their dice yet."""
        return [seat for seat, faces in enumerate(self.dice) if faces is None]

    def round_in_progress(self) -> bool:
        """True while the current round has been dealt and is not yet scored."""
        return self.phase in (Phase.DICE, Phase.PLAY)

    def _faces(self, seat: int) -> tuple[str, str]:
        faces = self.dice[seat]
        assert faces is not None, "every seat rolls before the first play"
        return faces
