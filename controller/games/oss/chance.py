"""Oss's chance, drawn from an injected ``random.Random``: hands, draws, reveals, challenges.

Shuffles are modelled as uniform draws from what is left, from sorted
sequences, so a seed always gives the same game.
"""

from __future__ import annotations

import random
from collections import Counter

from controller.games.base import (
    Action,
    Chance,
)
from controller.games.oss import cards
from controller.games.oss.actions import (
    Challenge,
    Draw,
    Hand,
    Reveal,
    Verb,
)
from controller.games.oss.rulings import (
    HAND_SIZE,
)
from controller.games.oss.state import (
    OssState,
)


def hands_from(deck: Counter[int]) -> list[tuple[int, ...]]:
    """Every distinct hand of HAND_SIZE values that a deck can deal, smallest first."""
    values = sorted(deck)
    hands: list[tuple[int, ...]] = []

    def build(i: int, chosen: list[int]) -> None:
        if len(chosen) == HAND_SIZE:
            hands.append(tuple(chosen))
            return
        if i == len(values):
            return
        value = values[i]
        for n in range(min(deck[value], HAND_SIZE - len(chosen)), -1, -1):
            build(i + 1, chosen + [value] * n)

    build(0, [])
    return sorted(hands)


# --- chance, from an injected random generator ------------------------------------------


def chance_action(engine: OssState, rng: random.Random) -> Action | None:
    """The chance action the engine waits for, drawn from ``rng``; None for a seat's decision.

    Shuffles are modelled as uniform draws from what is left: a hand is a sample
    of the seat's deck, a draw is one of its remaining cards, a reveal takes one
    unused card of each trick family, a challenge one unused challenge card.
    Everything is drawn from sorted sequences so a seed always gives the same game.
    """
    expected = engine.expected
    if expected is None:
        return None
    seat = expected.seat
    if expected.expects == Verb.HAND:
        deck = list(engine.deck_of(seat))
        return Hand(seat, tuple(sorted(rng.sample(deck, HAND_SIZE))))
    if expected.expects == Verb.DRAW:
        return Draw(seat, rng.choice(engine.deck_of(seat)))
    if expected.expects == Verb.REVEAL:
        return reveal_from(engine, seat, rng)
    if expected.expects == Verb.CHALLENGE:
        return Challenge(seat, rng.choice(engine.available_challenges()))
    return None


def reveal_from(engine: OssState, chief: int, rng: random.Random) -> Reveal:
    solo = tuple(rng.choice(engine.available_tricks(f)) for f in (1, 2, 3))
    return Reveal(chief, solo, rng.choice(engine.available_tricks(cards.DUEL)))


def chance_actions(engine: OssState, rng: random.Random) -> list[Action]:
    """Apply every chance action due now (e.g. all the hands) and return them in order."""
    done = engine.chance_actions(rng, Chance())
    for action in done:
        engine.apply(action)
    return done
