"""Oshaka Trick's fast playout path against the engine: same deals, same actions, same scores.

Each seeded round deals through the engine's ``deal()`` (3 or 4 players), and
every other one is a round 2 (round 1 played at random first, so the fourth
colour rule is in play). Random legal actions go through the engine and
``FastRound`` side by side: the same seat to act and the same legal actions at
every step, the same round scores at the end. 150 rounds in the quick suite
(both player counts, both rounds), 10,000 more in the slow one.
"""

from __future__ import annotations

import random

import pytest

from controller.games.oshaka_trick.actions import ChooseLead, Place, Play, hand_registrations
from controller.games.oshaka_trick.cards import deal
from controller.games.oshaka_trick.engine import OshakaTrick
from controller.games.oshaka_trick.fast import (
    FACE_DOWN,
    FACE_UP,
    FastRound,
    deal_round,
    random_playout,
    to_card,
    to_int,
)
from controller.games.oshaka_trick.state import Phase
from tests.games.lockstep import EngineSide, lockstep


def _engine_seat(engine: OshakaTrick) -> int:
    expected = engine.expected
    assert expected is not None
    return expected.seat


def _engine_legal(engine: OshakaTrick) -> list[int]:
    expected = engine.expected
    assert expected is not None
    out: list[int] = []
    for action in engine.legal_actions(expected.seat):
        if isinstance(action, Place):
            out.append(FACE_UP if action.face_up else FACE_DOWN)
        else:
            assert isinstance(action, Play)
            out.append(to_int(action.card))
    return sorted(out)


def _engine_apply(engine: OshakaTrick, action: int) -> None:
    expected = engine.expected
    assert expected is not None
    if engine.phase is Phase.PLACE:
        engine.apply(Place(expected.seat, action == FACE_UP))
    else:
        engine.apply(Play(expected.seat, to_card(action)))


def _check_round(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.choice([3, 4])
    engine = OshakaTrick(players, rng.randrange(players))
    for action in hand_registrations(deal(players, rng)):
        engine.apply(action)
    if seed % 2:
        # Round 1 at random, then round 2 is the one compared.
        while engine.phase is not Phase.LEAD:
            expected = engine.expected
            assert expected is not None
            engine.apply(rng.choice(engine.legal_actions(expected.seat)))
        engine.apply(ChooseLead(engine.lead_choosers[0], rng.randrange(players)))
        for action in hand_registrations(deal(players, rng)):
            engine.apply(action)
    rnd = engine.round
    hands = [[to_int(c) for c in engine.registered_hand(s) or []] for s in range(players)]
    fast = FastRound(players, hands, rnd.trick.lead_seat, rnd.number)
    side = EngineSide(
        turn=lambda: _engine_seat(engine),
        legal=lambda: _engine_legal(engine),
        apply=lambda action: _engine_apply(engine, action),
        rebuild=lambda hands: FastRound.from_engine(engine, hands),
    )
    inlined = lockstep(fast, side, random_playout, seed, check_at=rng.randrange(13 * players))
    assert engine.phase in (Phase.LEAD, Phase.OVER)
    scores = [area.score() for area in engine.finished_rounds[-1].areas]
    assert fast.scores() == scores
    assert inlined == scores


QUICK_ROUNDS = 150


def test_fast_round_matches_the_engine_on_150_seeded_rounds() -> None:
    for seed in range(QUICK_ROUNDS):
        _check_round(seed)


@pytest.mark.slow
def test_fast_round_matches_the_engine_on_10000_seeded_rounds() -> None:
    for seed in range(QUICK_ROUNDS, QUICK_ROUNDS + 10_000):
        _check_round(seed)


def test_deal_round_deals_13_distinct_cards_per_seat() -> None:
    for players in (3, 4):
        hands = deal_round(players, random.Random(players))
        cards = [c for hand in hands for c in hand]
        assert [len(h) for h in hands] == [13] * players
        assert len(set(cards)) == 13 * players
        assert all(to_int(to_card(c)) == c for c in cards)
