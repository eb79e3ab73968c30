"""A stronger Oh Pshaw bot: determinized Monte Carlo search (PIMC) over the fast path.

For each decision (a bid or a card) the bot:

1. deals the cards it cannot see (not in its hand, not played, not the turned
   card) to the other seats at random, as many as each still holds, keeping
   to what the table has shown (a seat that did not follow the led suit in
   the current or the last trick has none of it);
2. for every legal action, plays the round to its end from that deal on
   ``controller.games.oh_pshaw.fast`` with a quick policy for every seat
   (seats still to bid bid what their hand should take; everyone then tries to
   take exactly their bid), and notes its own round score;
3. repeats with fresh deals, the same deals for every action (common random
   numbers), and picks the action with the best mean score.

How much it thinks: ``samples`` deals per decision (fixed, so a decision
depends only on the game and the bot's ``random.Random``: a resumed game plays
on as the uninterrupted one), and a hard ``budget`` in seconds: the search
stops at the budget even if deals are left, so the table never waits longer.
Only when the budget cuts a search short does the decision depend on the
machine's speed.

The bot reads what a person at the seat could know: its own registered hand
and what has been played, bid and turned. Without a registered hand it falls
back to the heuristic bot (``OhPshawBot``), as it does for the dealer's turned
card and, in the Wizard variant, for the trump a turned Wizard lets it choose.

The Wizard variant is searched like the 52-card game: the fast path plays its
60 cards by its rules, and the quick policy counts a Wizard the strongest card
(a sure trick: bid, led or played to win) and a Jester the weakest (a sure loser).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.bots.search_bot import SearchBot, sum_over_deals
from controller.games.base import Action
from controller.games.oh_pshaw.actions import Bid, Play
from controller.games.oh_pshaw.bots import OhPshawBot, estimate_hand
from controller.games.oh_pshaw.cards import (
    FIRST_JESTER,
    FIRST_WIZARD,
    JESTER_SUIT,
    NAME_OF,
    SUIT_OF,
    WIZARD_CARD_INDEX,
    WIZARD_SUIT,
)
from controller.games.oh_pshaw.engine import PLAYED, OhPshaw
from controller.games.oh_pshaw.fast import FastRound
from controller.games.oh_pshaw.state import Phase

DEFAULT_SAMPLES = 160  # deals per decision at the table's default 0.3 s budget


def policy_bid(fast: FastRound) -> int:
    """The quick policy's bid for the seat to bid: the legal bid nearest its estimate."""
    target = estimate_hand(fast.hands[fast.turn], fast.trump, fast.players)
    return min(fast.legal(), key=lambda b: (abs(b - target), b))


def policy_playout(fast: FastRound, rng: random.Random, noise: float = 0.1) -> list[int]:
    """Play ``fast`` to its end with the quick policy; its scores.

    A seat that still needs tricks plays to win (the cheapest winner when it
    plays last, the strongest card otherwise); one that has enough ducks (its
    highest losing card). With mild scoring a seat whose bid can no longer be
    made plays to win, as each trick still scores a point. With probability
    ``noise`` a seat plays a random legal card instead, so that the deals are
    not all played the same way.
    """
    while fast.bidding:
        fast.bid(policy_bid(fast))
    random_ = rng.random
    choice = rng.choice
    players, trump, bids, tricks = fast.players, fast.trump, fast.bids, fast.tricks
    mild, wizard = fast.mild, fast.wizard

    # Strength within what may be played: trumps above everything, then rank; in the
    # Wizard variant a Wizard above trumps, a Jester below all.
    def key(card: int) -> tuple[int, int]:
        return (card // 13 == trump, card % 13)

    def wizard_key(card: int) -> tuple[int, int]:
        if card >= FIRST_WIZARD:
            return (2 if card < FIRST_JESTER else -1, 0)
        return (card // 13 == trump, card % 13)

    if wizard:
        key = wizard_key
    while fast.left:
        seat = fast.turn
        legal = fast.legal()
        if len(legal) == 1:
            fast.play(legal[0])
            continue
        if random_() < noise:
            fast.play(choice(legal))
            continue
        need = bids[seat] - tricks[seat]
        if mild and (need < 0 or need > fast.left):
            # The bid can no longer be made: with mild scoring every trick still scores.
            need = 1
        if fast.in_trick == 0:
            ranked = sorted(legal, key=key)
            fast.play(ranked[-1] if need > 0 else ranked[0])
            continue
        best = fast.best
        best_suit = best // 13
        winners: list[int] = []
        losers: list[int] = []
        if wizard and best >= FIRST_WIZARD:
            if best < FIRST_JESTER:  # the first Wizard keeps the trick
                losers = legal
            else:  # Jesters alone so far: any card but a Jester takes the lead
                for card in legal:
                    (losers if card >= FIRST_JESTER else winners).append(card)
        else:
            for card in legal:
                suit = card // 13
                if (
                    (suit == best_suit and card > best)
                    or (suit == trump and best_suit != trump)
                    or FIRST_WIZARD <= card < FIRST_JESTER  # a Wizard (only in the variant)
                ):
                    winners.append(card)
                else:
                    losers.append(card)
        last = fast.in_trick == players - 1
        if need > 0:
            if winners:
                winners.sort(key=key)
                fast.play(winners[0] if last else winners[-1])
            else:
                fast.play(min(losers, key=key))
        elif losers:
            fast.play(max(losers, key=key))
        else:
            winners.sort(key=key)
            fast.play(winners[-1] if last else winners[0])
    return fast.scores()


@dataclass
class Seen:
    """What one seat knows of a round: the public state, its own cards, what others lack."""

    seat: int
    base: FastRound  # the public state; its hands are filled in by each determinization
    mine: list[int]
    unseen: list[int]  # cards the seat cannot place: in other hands (or not dealt)
    counts: list[int]  # cards each seat still holds
    voids: list[set[int]]  # suits a seat has shown it does not hold


def seen_from_engine(engine: OhPshaw, seat: int, mine: list[int]) -> Seen:
    """What ``seat`` knows of the engine's current round, holding ``mine``."""
    rnd = engine.round
    players = engine.players
    where = rnd.where
    own = set(mine)
    unseen = [
        c for c in range(rnd.deck_size) if where[c] != PLAYED and c != rnd.turned and c not in own
    ]
    in_trick = {s for s, _ in rnd.trick}
    completed = rnd.trick_number - 1
    counts = [rnd.hand_size - completed - (1 if s in in_trick else 0) for s in range(players)]
    return Seen(
        seat,
        FastRound.from_engine(engine, [[] for _ in range(players)]),
        mine,
        unseen,
        counts,
        trick_voids(players, (rnd.last_trick, tuple(rnd.trick))),
    )


def trick_voids(players: int, tricks: Sequence[Sequence[tuple[int, int]]]) -> list[set[int]]:
    """The suits each seat showed it lacks by not following them in these tricks.

    The suit to follow is the first card's; in the Wizard variant the first suit card's
    after Jesters, and none after a Wizard led. A Wizard or a Jester shows nothing.
    """
    voids: list[set[int]] = [set() for _ in range(players)]
    for plays in tricks:
        led = -1
        for s, card in plays:
            suit = SUIT_OF[card]
            if led >= 0:
                if suit != led and suit < WIZARD_SUIT:
                    voids[s].add(led)
            elif suit == WIZARD_SUIT:
                break  # a Wizard before any suit card: nobody need follow
            elif suit != JESTER_SUIT:
                led = suit
    return voids


def determinize(seen: Seen, rng: random.Random) -> list[list[int]]:
    """Every seat's remaining cards: its own for the seat, a random guess for the others."""
    players = len(seen.counts)
    counts, voids = seen.counts, seen.voids
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[seen.seat] = list(seen.mine)
    others = [s for s in range(players) if s != seen.seat]
    for _ in range(8):
        pool = list(seen.unseen)
        rng.shuffle(pool)
        ok = True
        # The most constrained seats first, each taking the first cards it may hold.
        for s in sorted(others, key=lambda s: -len(voids[s])):
            void = voids[s]
            take = (
                [c for c in pool if c // 13 not in void][: counts[s]] if void else pool[: counts[s]]
            )
            if len(take) < counts[s]:
                ok = False
                break
            taken = set(take)
            pool = [c for c in pool if c not in taken]
            hands[s] = take
        if ok:
            return hands
    # The voids cannot all be kept (a seat reneged, or bad luck eight times): ignore them.
    pool = list(seen.unseen)
    rng.shuffle(pool)
    for s in others:
        hands[s], pool = pool[: counts[s]], pool[counts[s] :]
    return hands


def search(
    seen: Seen,
    options: Sequence[int],
    rng: random.Random,
    samples: int,
    in_time: Callable[[], bool] = lambda: True,
) -> tuple[int, int]:
    """The index in ``options`` (bids or cards) with the best mean score, and the deals searched.

    Every deal serves every option (common random numbers); after the first deal
    ``in_time`` is asked before each playout, and the search stops when it says
    no (a deal cut short does not count), so it overruns by one playout at most.
    """
    seat = seen.seat

    def deal() -> Callable[[int], float]:
        base = seen.base.copy()
        base.hands = determinize(seen, rng)

        def score(index: int) -> float:
            fast = base.copy()
            fast.apply(options[index])
            return policy_playout(fast, rng)[seat]

        return score

    totals, done = sum_over_deals(len(options), samples, deal, in_time)
    return max(range(len(options)), key=lambda i: totals[i]), done


class OhPshawSearchBot(SearchBot[OhPshawBot]):
    """Chooses an action for one seat by PIMC search; deterministic for a given ``rng``."""

    fallback_bot = OhPshawBot
    default_samples = DEFAULT_SAMPLES

    def choose(self, engine: OhPshaw, seat: int) -> Action:
        legal, deadline = self.legal_and_deadline(engine, seat)
        hand = engine.registered_hand(seat)
        if hand is None or engine.phase not in (Phase.BID, Phase.PLAY):
            return self.fallback.choose(engine, seat)
        if len(legal) == 1:
            return legal[0]
        seen = seen_from_engine(engine, seat, [WIZARD_CARD_INDEX[c] for c in hand])
        if isinstance(legal[0], Bid):
            options = [a.bid for a in legal if isinstance(a, Bid)]
        else:
            options = [WIZARD_CARD_INDEX[a.card] for a in legal if isinstance(a, Play)]
        best, self.last_samples = search(
            seen, options, self.rng, self.samples, lambda: self.clock() < deadline
        )
        if isinstance(legal[0], Bid):
            return Bid(seat, options[best])
        return Play(seat, NAME_OF[options[best]])

    def turn_card(self, engine: OhPshaw, seat: int) -> Action:
        """A simulated dealer's turned card (as the heuristic bot turns it)."""
        return self.fallback.turn_card(engine, seat)


# The table's search bot for this game (``controller.kiosk.simulation.search_bot_of``).
SEARCH_BOT = OhPshawSearchBot
