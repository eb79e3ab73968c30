"""A simple, sensible Oh Pshaw bot: bid what the hand should take, then take exactly that.

The heuristic:

* Bidding: each card's chance of winning a trick is estimated from its rank
  and whether it is trump (high trumps nearly always win, off-suit aces
  often, kings sometimes, less so in long suits and with many players); the
  bid is the legal bid nearest the sum (the hook may forbid one).
* Playing: while the seat still needs tricks it tries to win, with the
  cheapest card that takes the trick when it plays last and the strongest
  otherwise; once it has enough it ducks, throwing its highest card that
  still loses, and when every card wins it gets rid of a high one.
* Without a registered hand (the bot cannot know its cards) it picks any
  legal action at random, as it does for the dealer's turned card.
* The Wizard variant: a Wizard counts as a sure trick and beats all, a Jester
  as none and beats nothing; after a turned Wizard the dealer names the suit
  it holds most of.

Everything comes from ``legal_actions``, the seat's own registered hand and
the public snapshot; randomness only from the injected ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from controller.games.base import Action
from controller.games.oh_pshaw.actions import Bid, ChooseTrump, Play, TurnTrump
from controller.games.oh_pshaw.cards import (
    DECK_SIZE,
    JESTER_SUIT,
    RANKS,
    SUITS,
    WIZARD_CARD_INDEX,
    WIZARD_SUIT,
    is_wizard,
)
from controller.games.oh_pshaw.engine import OhPshaw
from controller.games.oh_pshaw.snapshot import OhPshawSnapshot

Card = tuple[int, int]  # (suit index, rank 0 = "2" .. 12 = "A")


def _card(name: str) -> Card:
    if name[0] == "W":  # the Wizard variant's cards: their pseudo-suits, above/below all
        return WIZARD_SUIT, 13
    if name[0] == "N":
        return JESTER_SUIT, -1
    return SUITS.index(name[1]), RANKS.index(name[0])


def _beats(card: Card, best: Card, trump: int | None) -> bool:
    """Whether ``card`` played now beats ``best``, the trick's winning card so far."""
    if best[0] == WIZARD_SUIT or card[0] == JESTER_SUIT:
        return False  # the first Wizard keeps the trick; a Jester never wins
    if card[0] == WIZARD_SUIT or best[0] == JESTER_SUIT:
        return True  # (a Jester led: the first other card takes the lead)
    if card[0] == best[0]:
        return card[1] > best[1]
    return card[0] == trump


def estimate_tricks(hand: Sequence[int], trump: int, players: int) -> float:
    """The tricks a hand of engine cards (suit * 13 + rank) should take; ``trump`` -1 if none."""
    lengths = [0, 0, 0, 0]
    for card in hand:
        lengths[card // 13] += 1
    crowd = 4.0 / players  # more opponents, fewer tricks for side-suit honours
    total = 0.0
    for card in hand:
        suit, rank = divmod(card, 13)
        if suit == trump:
            total += 0.25 + 0.06 * rank
        elif rank == 12:
            total += 0.85 * crowd if lengths[suit] <= 3 else 0.5 * crowd
        elif rank == 11:
            total += 0.45 * crowd if 2 <= lengths[suit] <= 3 else 0.2 * crowd
        elif rank == 10 and 3 <= lengths[suit] <= 4:
            total += 0.15 * crowd
    return min(total, float(len(hand)))


def estimate_hand(hand: Sequence[int], trump: int, players: int) -> float:
    """``estimate_tricks`` for a hand that may hold the Wizard variant's cards: a Wizard
    is a sure trick, a Jester none."""
    if not any(card >= DECK_SIZE for card in hand):
        return estimate_tricks(hand, trump, players)
    wizards = sum(1 for card in hand if is_wizard(card))
    return wizards + estimate_tricks([c for c in hand if c < DECK_SIZE], trump, players)


class OhPshawBot:
    """Chooses an action for one seat; deterministic for a given ``rng``."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose(self, engine: OhPshaw, seat: int) -> Action:
        legal = engine.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        hand = engine.registered_hand(seat)
        first = legal[0]
        if hand is not None and isinstance(first, ChooseTrump):
            return self.choose_trump(engine, seat)
        if hand is None or not isinstance(first, Bid | Play):
            return self.rng.choice(legal)
        snapshot = engine.snapshot()
        trump_letter = snapshot.trump
        trump = None if trump_letter is None else SUITS.index(trump_letter)
        if isinstance(first, Bid):
            bids = [a for a in legal if isinstance(a, Bid)]
            return self._bid(bids, hand, trump, engine.players)
        plays = [a for a in legal if isinstance(a, Play)]
        return self._play(plays, seat, snapshot, trump, engine.players)

    def turn_card(self, engine: OhPshaw, seat: int) -> TurnTrump:
        """A simulated dealer's turned card: some card nobody is known to hold."""
        return TurnTrump(seat, self.rng.choice(engine.unseen_cards()))

    def choose_trump(self, engine: OhPshaw, seat: int) -> ChooseTrump:
        """The Wizard variant's dealer choosing trump: its longest suit (any, hand unknown)."""
        hand = engine.registered_hand(seat) or []
        counts = [sum(1 for c in hand if c[-1] == suit) for suit in SUITS]
        if not any(counts):
            return ChooseTrump(seat, self.rng.choice(SUITS))
        return ChooseTrump(seat, SUITS[counts.index(max(counts))])

    # --- bidding ------------------------------------------------------------------

    @staticmethod
    def estimate(hand: Sequence[str], trump: int | None, players: int) -> float:
        """The expected number of tricks the hand takes, roughly."""
        cards = [WIZARD_CARD_INDEX[name] for name in hand]
        return estimate_hand(cards, -1 if trump is None else trump, players)

    def _bid(self, bids: list[Bid], hand: Sequence[str], trump: int | None, players: int) -> Bid:
        target = self.estimate(hand, trump, players)
        best = min(abs(b.bid - target) for b in bids)
        nearest = [b for b in bids if abs(b.bid - target) == best]
        return nearest[0] if len(nearest) == 1 else self.rng.choice(nearest)

    # --- playing ------------------------------------------------------------------

    def _play(
        self,
        plays: list[Play],
        seat: int,
        snapshot: OhPshawSnapshot,
        trump: int | None,
        players: int,
    ) -> Play:
        trick = snapshot.trick
        need = (snapshot.bids[seat] or 0) - snapshot.tricks[seat]
        options = [(_card(p.card), p) for p in plays]

        def strength(item: tuple[Card, Play]) -> tuple[int, int]:
            (suit, rank), _ = item
            if suit in (WIZARD_SUIT, JESTER_SUIT):  # the strongest and the weakest of all
                return (2 if suit == WIZARD_SUIT else -1, 0)
            return (1 if suit == trump else 0, rank)

        options.sort(key=strength)
        if not trick:
            # Leading: the strongest card to win, the weakest to lose.
            if need > 0:
                aces = [o for o in options if o[0][1] == 12 and o[0][0] != trump]
                return (aces or options)[-1][1]
            return options[0][1]

        best = _card(trick[0].card)  # (after a Jester lead, _beats moves it on)
        for entry in trick[1:]:
            card = _card(entry.card)
            if _beats(card, best, trump):
                best = card
        last = len(trick) == players - 1
        winners = [o for o in options if _beats(o[0], best, trump)]
        losers = [o for o in options if not _beats(o[0], best, trump)]
        if need > 0:
            if winners:
                return (winners[0] if last else winners[-1])[1]
            return losers[0][1]
        if losers:
            return losers[-1][1]
        return (winners[-1] if last else winners[0])[1]
