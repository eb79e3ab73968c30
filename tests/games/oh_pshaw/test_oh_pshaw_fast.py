"""Oh Pshaw's fast playout path against the engine: same deals, same actions, same scores.

Each seeded random round picks players, hand size, dealer and options, deals
through the engine's own ``deal()``, then plays random legal actions through the
engine and ``FastRound`` side by side: at every step both must agree on whose
turn it is and on the set of legal actions, and at the end on the round's
scores. The inlined ``random_playout`` is checked against the stepwise path
with the same seeded choices. 500 rounds run in the quick suite, 10,000 in the
slow one.
"""

from __future__ import annotations

import random

import pytest

from controller.games.oh_pshaw.actions import Bid, Play
from controller.games.oh_pshaw.cards import CARD_NAMES, card_index
from controller.games.oh_pshaw.engine import OhPshaw, deal
from controller.games.oh_pshaw.fast import FastRound, deal_round, random_playout
from controller.games.oh_pshaw.options import Options, default_max_hand
from controller.games.oh_pshaw.state import Phase
from tests.games.lockstep import EngineSide, lockstep


def _engine_round(rng: random.Random) -> OhPshaw:
    players = rng.randint(3, 7)
    size = rng.randint(1, default_max_hand(players))
    options = Options.read(
        {
            "options": {
                "schedule": [size],
                "hook": rng.random() < 0.5,
                "scoring": rng.choice(["standard", "mild"]),
                "round_winner_bonus": rng.random() < 0.3,
                "rotating_trump": rng.random() < 0.2,
            }
        },
        players,
    )
    engine = OhPshaw(players, rng.randrange(players), options)
    for action in deal(engine, rng):
        engine.apply(action)
    return engine


def _engine_legal(engine: OhPshaw) -> list[int]:
    assert engine.phase in (Phase.BID, Phase.PLAY)
    out: list[int] = []
    for action in engine.legal_actions(engine.turn):
        if isinstance(action, Bid):
            out.append(action.bid)
        else:
            assert isinstance(action, Play)
            out.append(card_index(action.card))
    return sorted(out)


def _engine_apply(engine: OhPshaw, action: int) -> None:
    if engine.phase is Phase.BID:
        engine.apply(Bid(engine.turn, action))
    else:
        engine.apply(Play(engine.turn, _name(action)))


def _name(card: int) -> str:
    return CARD_NAMES[card]


def _check_round(seed: int) -> None:
    rng = random.Random(seed)
    engine = _engine_round(rng)
    rnd = engine.round
    hands = [
        [card_index(c) for c in engine.registered_hand(seat) or []]
        for seat in range(engine.players)
    ]
    opts = engine.options
    fast = FastRound(
        engine.players,
        rnd.dealer,
        hands,
        rnd.trump,
        hook=opts.hook,
        mild=opts.scoring == "mild",
        bonus=opts.round_winner_bonus,
    )
    side = EngineSide(
        turn=lambda: engine.turn,
        legal=lambda: _engine_legal(engine),
        apply=lambda action: _engine_apply(engine, action),
        rebuild=lambda hands: FastRound.from_engine(engine, hands),
    )
    inlined = lockstep(
        fast,
        side,
        random_playout,
        seed,
        check_at=rng.randrange(engine.players + rnd.hand_size * engine.players),
        same=lambda rebuilt, running: (rebuilt.turn, rebuilt.left) == (running.turn, running.left),
    )
    scored = engine.rounds[0].scores
    assert scored is not None
    assert fast.scores() == scored
    assert fast.tricks == list(engine.rounds[0].tricks)
    assert inlined == scored


def test_fast_round_matches_the_engine_on_500_seeded_rounds() -> None:
    for seed in range(500):
        _check_round(seed)


@pytest.mark.slow
def test_fast_round_matches_the_engine_on_10000_seeded_rounds() -> None:
    for seed in range(500, 10_500):
        _check_round(seed)


def test_deal_round_deals_distinct_cards_round_from_the_eldest() -> None:
    for seed in range(50):
        players, dealer, size = 5, seed % 5, 7
        hands, turned = deal_round(players, dealer, size, True, random.Random(seed))
        cards = [c for hand in hands for c in hand]
        assert [len(h) for h in hands] == [size] * players
        assert turned is not None
        assert len(set(cards) | {turned}) == players * size + 1
        assert all(0 <= c < 52 for c in cards)
        _, no_turn = deal_round(4, 0, 13, False, random.Random(seed))
        assert no_turn is None
