"""FAST PATH. Oh Pshaw's one round on plain integers, for the bots' simulated playouts.

A bot that searches (``controller.games.oh_pshaw.search``) plays thousands of
imagined rounds per decision. The engine (``engine.OhPshaw``) is built for the
table: it validates every action, says why a refused one is refused, emits
events, keeps what the record and the display need. None of that matters
inside a simulation whose actions come from ``legal()``, so this module keeps
only what decides the outcome of one round: the hands, the bids, the current
trick and the tricks taken.

Cards are the engine's integers (suit * 13 + rank, rank 0 = "2" .. 12 = "A"),
so a trick is won exactly as the engine's kernel ``Trick`` decides under
``WinRule.HIGHEST`` (``cards.TRICK_RULES``), inlined here; bids are ints.
Every seat's hand is known (a simulation deals the unseen cards first), so
must-follow always holds and no renege can happen. ``scores()`` is the round's
final score as the engine computes it (standard or mild, the hook, the round
winner bonus).

The Wizard variant (``wizard=True``) adds the engine's cards 52..55 (Wizards)
and 56..59 (Jesters), whose ``card // 13`` is 4: never a suit led nor trump,
so the 52-card tests need no change for them. Its trick is ``WizardTrick``'s
rules kept as the same four numbers: ``best`` a Wizard wins for good (and, when
no suit card came before it, ``led`` stays -1: nobody need follow); a Jester
never wins unless only Jesters lie, and then the first suit card takes the lead
and sets the suit to follow. Its hot path is a loop of its own, so that the
52-card loop pays nothing for it.

The differential test (``tests/games/oh_pshaw/test_oh_pshaw_fast.py``) keeps this honest: the
same deals and the same actions through both, the same legal actions at every
step and the same scores, over many seeded random rounds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from controller.games.oh_pshaw.cards import DECK_SIZE, FIRST_WIZARD, is_jester, is_wizard
from controller.games.oh_pshaw.engine import OhPshaw
from controller.games.oh_pshaw.state import Phase


class FastRound:
    """One Oh Pshaw round in integers: whose turn, the bids, the trick, the tricks taken."""

    __slots__ = (
        "best",
        "best_seat",
        "bidding",
        "bids",
        "bonus",
        "dealer",
        "hands",
        "hook",
        "in_trick",
        "led",
        "left",
        "mild",
        "players",
        "size",
        "tricks",
        "trump",
        "turn",
        "wizard",
    )

    def __init__(
        self,
        players: int,
        dealer: int,
        hands: Sequence[Sequence[int]],
        trump: int | None,
        *,
        hook: bool = False,
        mild: bool = False,
        bonus: bool = False,
        wizard: bool = False,
    ) -> None:
        """A round about to be bid: ``hands[seat]`` the dealt cards, ``trump`` a suit or None;
        ``wizard``: the Wizard variant's rules for its Wizards and Jesters."""
        self.players = players
        self.dealer = dealer
        self.size = len(hands[0])
        self.trump = -1 if trump is None else trump
        self.hook = hook
        self.mild = mild
        self.bonus = bonus
        self.wizard = wizard
        self.hands = [list(hand) for hand in hands]
        self.bids = [-1] * players
        self.tricks = [0] * players
        self.turn = (dealer + 1) % players
        self.bidding = True
        self.in_trick = 0  # cards in the current trick
        self.led = -1
        self.best = -1  # the card winning the current trick, and its seat
        self.best_seat = -1
        self.left = self.size  # tricks still to be completed

    @classmethod
    def from_engine(cls, engine: OhPshaw, hands: Sequence[Sequence[int]]) -> FastRound:
        """The engine's current round, with ``hands`` as every seat's remaining cards.

        For a determinized search: the engine supplies what is public (bids,
        the trick, tricks taken, trump), the caller every hand (its own, and a
        guess at the others'). The round must be bidding or playing.
        """
        rnd = engine.round
        opts = engine.options
        fast = cls(
            engine.players,
            rnd.dealer,
            [[]],
            rnd.trump,
            hook=opts.hook,
            mild=opts.scoring == "mild",
            bonus=opts.round_winner_bonus,
            wizard=opts.wizard,
        )
        fast.size = rnd.hand_size
        fast.hands = [list(hand) for hand in hands]
        fast.bids = [-1 if b is None else b for b in rnd.bids]
        fast.tricks = list(rnd.tricks)
        fast.turn = engine.turn
        fast.bidding = engine.phase is Phase.BID
        fast.left = rnd.hand_size - rnd.trick_number + 1
        for seat, card in rnd.trick:
            fast._add_to_trick(seat, card)
        return fast

    def copy(self) -> FastRound:
        other = FastRound.__new__(FastRound)
        for name in FastRound.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [list(hand) for hand in self.hands]
        other.bids = list(self.bids)
        other.tricks = list(self.tricks)
        return other

    @property
    def over(self) -> bool:
        return self.left == 0

    def forbidden_bid(self) -> int:
        """The bid the hook forbids the seat to bid now, or -1."""
        if not self.hook or self.turn != self.dealer:
            return -1
        return self.size - sum(b for b in self.bids if b >= 0)

    def legal(self) -> list[int]:
        """The bids, or the cards, the seat to act may choose now (cards in hand order)."""
        if self.bidding:
            forbidden = self.forbidden_bid()
            return [b for b in range(self.size + 1) if b != forbidden]
        hand = self.hands[self.turn]
        led = self.led
        if led >= 0:
            follow = [c for c in hand if c // 13 == led]
            if follow:
                # Wizards and Jesters may always be played.
                return (
                    [c for c in hand if c // 13 == led or c >= FIRST_WIZARD]
                    if self.wizard
                    else follow
                )
        return list(hand)

    def apply(self, action: int) -> None:
        """A bid while bidding, else a card of the seat to play; not checked."""
        if self.bidding:
            self.bid(action)
        else:
            self.play(action)

    def bid(self, bid: int) -> None:
        seat = self.turn
        self.bids[seat] = bid
        if seat == self.dealer:
            self.bidding = False
            self.turn = (seat + 1) % self.players
        else:
            self.turn = (seat + 1) % self.players

    def _add_to_trick(self, seat: int, card: int) -> None:
        if self.wizard and self._wizard_rule_decides(seat, card):
            self.in_trick += 1
            return
        if self.in_trick == 0:
            self.led = card // 13
            self.best, self.best_seat = card, seat
        else:
            best = self.best
            suit = card // 13
            if suit == best // 13:
                if card > best:
                    self.best, self.best_seat = card, seat
            elif suit == self.trump:
                self.best, self.best_seat = card, seat
        self.in_trick += 1

    def _wizard_rule_decides(self, seat: int, card: int) -> bool:
        """Whether the Wizard variant's rules (``cards.WizardTrick``) settle what ``card``
        does to the trick, having done it; False when the 52 cards' rule applies (a suit
        card led, or played after a suit card while no Wizard lies)."""
        best = self.best
        if self.in_trick == 0:
            if card < FIRST_WIZARD:
                return False
            self.best, self.best_seat = card, seat  # a Wizard or Jester led: no suit yet
        elif is_wizard(best) or is_jester(card):
            pass  # the first Wizard keeps the trick; a Jester never takes it
        elif is_wizard(card):
            self.best, self.best_seat = card, seat
        elif self.led < 0:  # only Jesters so far: this card takes the lead and sets the suit
            self.led = card // 13
            self.best, self.best_seat = card, seat
        else:
            return False
        return True

    def play(self, card: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        self._add_to_trick(seat, card)
        if self.in_trick < self.players:
            self.turn = (seat + 1) % self.players
            return
        winner = self.best_seat
        self.tricks[winner] += 1
        self.left -= 1
        self.in_trick = 0
        self.led = -1
        self.turn = winner

    def scores(self) -> list[int]:
        """The round's final scores, as ``OhPshaw`` scores a round without reneges."""
        out: list[int] = []
        for won, bid in zip(self.tricks, self.bids, strict=True):
            exact = won == bid
            if self.mild:
                out.append(won + (10 if exact else 0))
            else:
                out.append(10 + won if exact else 0)
        if self.bonus:
            top = max(out)
            if top > 0:
                out = [s + 10 if s == top else s for s in out]
        return out


def deal_round(
    players: int,
    dealer: int,
    size: int,
    turns_card: bool,
    rng: random.Random,
    deck_size: int = DECK_SIZE,
) -> tuple[list[list[int]], int | None]:
    """A random deal in integers: each seat's hand and the turned card (or None).

    Only the cards dealt are drawn (``rng.sample``), not the whole deck shuffled:
    a 3-player round of 5 cards draws 16 cards, not 52. Cards go round from the
    eldest hand as the engine deals them. ``deck_size`` 60: the Wizard variant's deck.
    """
    deck = rng.sample(range(deck_size), players * size + (1 if turns_card else 0))
    hands: list[list[int]] = [[] for _ in range(players)]
    first = dealer + 1
    for i in range(players * size):
        hands[(first + i) % players].append(deck[i])
    return hands, deck[players * size] if turns_card else None


def random_playout(fast: FastRound, rng: random.Random) -> list[int]:
    """Play ``fast`` to the end with uniformly random legal bids and cards; its scores.

    The loop is the methods above inlined (this is the hot path of every
    simulation); ``tests/games/oh_pshaw/test_oh_pshaw_fast.py`` checks it against the engine.
    """
    choice = rng.choice
    if fast.wizard:
        # Step by step (the variant is played far less): the stepwise path's own draws.
        while fast.left:
            fast.apply(choice(fast.legal()))
        return fast.scores()
    players = fast.players
    if fast.bidding:
        # The same draws as choice(fast.legal()): a range is indexed like the list.
        bids, dealer, size = fast.bids, fast.dealer, fast.size
        turn = fast.turn
        while turn != dealer:
            bids[turn] = choice(range(size + 1))
            turn = turn + 1 if turn + 1 < players else 0
        fast.turn = dealer
        forbidden = fast.forbidden_bid()
        bids[dealer] = choice([b for b in range(size + 1) if b != forbidden])
        fast.bidding = False
        fast.turn = dealer + 1 if dealer + 1 < players else 0
    hands, tricks, trump = fast.hands, fast.tricks, fast.trump
    turn, in_trick, led, best, best_seat, left = (
        fast.turn,
        fast.in_trick,
        fast.led,
        fast.best,
        fast.best_seat,
        fast.left,
    )
    while left:
        hand = hands[turn]
        if in_trick:
            follow = [c for c in hand if c // 13 == led]
            card = choice(follow or hand)
            hand.remove(card)
            suit = card // 13
            if suit == best // 13:
                if card > best:
                    best, best_seat = card, turn
            elif suit == trump:
                best, best_seat = card, turn
        else:
            card = choice(hand)
            hand.remove(card)
            led, best, best_seat = card // 13, card, turn
        in_trick += 1
        if in_trick < players:
            turn = turn + 1 if turn + 1 < players else 0
        else:
            tricks[best_seat] += 1
            left -= 1
            in_trick, led, turn = 0, -1, best_seat
    fast.turn, fast.in_trick, fast.led, fast.best, fast.best_seat, fast.left = (
        turn,
        in_trick,
        led,
        best,
        best_seat,
        left,
    )
    return fast.scores()
