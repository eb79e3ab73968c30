"""A stronger Oskar bot: determinized Monte Carlo search (PIMC) of its card play.

For each card it may play the bot:

1. deals the cards it cannot see (not in its hand, not played) at random: to
   the other seats as many as each still holds, the rest to the stock;
2. plays the card, then the round to its end with a quick policy for every
   seat (help a seat that shares a genre with you win the trick, feed it
   points when it is winning, dump your smallest card otherwise; lead at
   random), and scores the round as the engine does (``score_round``): its own
   Oskar tokens less the other seats' mean, since the game is won by having
   more tokens than the others;
3. repeats with fresh deals, the same deals for every card (common random
   numbers), and plays the card with the best mean.

Dice, rerolls and the doubles offer stay with the heuristic bot
(``OskarBot``: rerolls by expected tokens), as does a seat without a
registered hand. How much it thinks: ``samples`` deals per decision and a hard
``budget`` in seconds, checked between playouts; a decision depends only on
the game and the bot's ``random.Random`` unless the budget cuts it short.

Measured by duplicate whole games against the heuristic bot
(``benchmarks/bots.py --oskar-search-games``): see ``docs/benchmarks.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from controller.bots.search_bot import SearchBot, sum_over_deals
from controller.games.base import Action
from controller.games.oskar.bots import OskarBot, power
from controller.games.oskar.engine import (
    ZERO,
    Card,
    Oskar,
    Phase,
    Play,
    full_deck,
    hand_size,
    score_round,
    trick_winner,
)

DEFAULT_SAMPLES = 24  # deals per decision at the table's default 0.3 s budget
_DECK = tuple(full_deck())
# A trick worth this many points is worth spending a strong card to win for a friend.
WORTH_WINNING = 6


@dataclass
class Seen:
    """What one seat knows of the round in progress: the public state and its own cards."""

    seat: int
    players: int
    mine: list[Card]
    unseen: list[Card]  # cards in the other hands or in the stock
    counts: list[int]  # cards each other seat still holds (0 for ``seat``)
    trick: list[tuple[int, Card]]
    points: list[int]  # card points won so far this round
    stock_winner: int | None
    dice: list[tuple[str, ...]]
    friends: list[frozenset[int]]  # per seat: the seats (itself included) sharing a genre


def seen_from_engine(engine: Oskar, seat: int, mine: Sequence[Card]) -> Seen:
    """What ``seat`` knows of the engine's round, holding ``mine``."""
    rnd = engine.round
    players = engine.players
    pool = Counter(_DECK)
    pool.subtract(rnd.played)
    pool.subtract(mine)
    unseen = [card for card, n in pool.items() for _ in range(max(0, n))]
    dealt = hand_size(players)
    counts = [0 if s == seat else dealt - rnd.cards_played[s] for s in range(players)]
    dice = [tuple(faces or ()) for faces in engine.dice]
    friends = [
        frozenset(q for q in range(players) if q == p or set(dice[p]) & set(dice[q]))
        for p in range(players)
    ]
    return Seen(
        seat,
        players,
        list(mine),
        unseen,
        counts,
        list(rnd.trick),
        list(rnd.points),
        rnd.stock_winner,
        dice,
        friends,
    )


def policy_card(
    hand: list[Card], trick: list[tuple[int, Card]], seat: int, friends: frozenset[int]
) -> Card:
    """The quick policy's card for ``seat`` (a non-empty trick; a lead is random)."""
    winning = trick_winner(trick)
    if winning in friends:
        # A friend takes it: add the most points that still leave it to a friend.
        keep = [c for c in hand if trick_winner([*trick, (seat, c)]) in friends]
        if keep:
            return max(keep, key=lambda c: c.value)
        return min(hand, key=lambda c: c.value)
    if sum(c.value for _, c in trick) >= WORTH_WINNING:
        takes = [c for c in hand if trick_winner([*trick, (seat, c)]) in friends]
        if takes:
            return min(takes, key=power)
    return min(hand, key=lambda c: (c.value, power(c)))


def playout(
    seen: Seen,
    hands: list[list[Card]],
    trick: list[tuple[int, Card]],
    stock_value: int,
    rng: random.Random,
) -> list[int]:
    """Round points (the stock added to its winner) once the round is played out."""
    players, friends = seen.players, seen.friends
    points = list(seen.points)
    stock_winner = seen.stock_winner
    trick = list(trick)
    turn = (trick[-1][0] + 1) % players
    while True:
        if len(trick) == players:
            winner = trick_winner(trick)
            points[winner] += sum(c.value for _, c in trick)
            if stock_winner is None and sum(1 for _, c in trick if c is ZERO) >= 2:
                stock_winner = winner
            trick = []
            turn = winner
            if not hands[turn]:
                break
        hand = hands[turn]
        card = rng.choice(hand) if not trick else policy_card(hand, trick, turn, friends[turn])
        hand.remove(card)
        trick.append((turn, card))
        turn = (turn + 1) % players
    if stock_winner is not None:
        points[stock_winner] += stock_value
    return points


def search(
    seen: Seen,
    options: Sequence[Card],
    rng: random.Random,
    samples: int,
    in_time: Callable[[], bool] = lambda: True,
) -> tuple[int, int]:
    """The index in ``options`` with the best mean token margin, and the deals searched.

    Every deal serves every option; after the first deal ``in_time`` is asked
    before each playout, and a deal cut short does not count.
    """
    seat, players = seen.seat, seen.players
    unseen = list(seen.unseen)

    def deal() -> Callable[[int], float]:
        rng.shuffle(unseen)
        hands: list[list[Card]] = []
        at = 0
        for count in seen.counts:
            hands.append(unseen[at : at + count])
            at += count
        stock_value = sum(c.value for c in unseen[at:])

        def margin(index: int) -> float:
            card = options[index]
            dealt = [list(h) for h in hands]
            dealt[seat] = list(seen.mine)
            dealt[seat].remove(card)
            points = playout(seen, dealt, [*seen.trick, (seat, card)], stock_value, rng)
            tokens = score_round(seen.dice, points).tokens
            return tokens[seat] - (sum(tokens) - tokens[seat]) / (players - 1)

        return margin

    totals, done = sum_over_deals(len(options), samples, deal, in_time)
    # Ties go to the card that costs least to give up.
    best = max(range(len(options)), key=lambda i: (totals[i], -power(options[i])))
    return best, done


class OskarSearchBot(SearchBot[OskarBot]):
    """Plays Oskar's cards by PIMC search and its dice as ``OskarBot``; deterministic by ``rng``."""

    fallback_bot = OskarBot
    default_samples = DEFAULT_SAMPLES

    def choose(self, engine: Oskar, seat: int) -> Action:
        expected = engine.expected
        playing = (
            engine.phase is Phase.PLAY
            and engine.doubles != seat
            and expected is not None
            and expected.seat == seat
        )
        held = engine.registered_hand(seat) if playing else None
        if held is None or any(not faces for faces in engine.dice):
            return self.fallback.choose(engine, seat)
        legal, deadline = self.legal_and_deadline(engine, seat)
        playable = {a.card for a in legal if isinstance(a, Play)}
        options = sorted({c for c in held if c in playable}, key=lambda c: (c.colour, c.number))
        if not options:
            return self.fallback.choose(engine, seat)
        if len(options) == 1:
            return Play(seat, options[0])
        seen = seen_from_engine(engine, seat, held)
        best, self.last_samples = search(
            seen, options, self.rng, self.samples, lambda: self.clock() < deadline
        )
        return Play(seat, options[best])


# The table's search bot for this game (``controller.kiosk.simulation.search_bot_of``).
SEARCH_BOT = OskarSearchBot
