"""Oh Pshaw's fast playout path against the engine: same deals, same actions, same scores.

Each seeded random round picks players, hand size, dealer and options, deals
through the engine's own ``deal()``, then plays random legal actions through the
engine and ``FastRound`` side by side: at every step both must agree on whose
turn it is and on the set of legal actions, and at the end on the round's
scores. The inlined ``random_playout`` is checked against the stepwise path
with the same seeded choices. 500 rounds run in the quick suite, 10,000 in the
slow one; as many again with the Wizard variant (60 cards; a turned Wizard's
trump chosen at random by the dealer during the bidding).
"""

from __future__ import annotations

import random

import pytest

from controller.games.oh_pshaw.actions import Bid, ChooseTrump, Play
from controller.games.oh_pshaw.cards import (
    NAME_OF,
    SUITS,
    WIZARD_CARD_INDEX,
    WIZARD_DECK_SIZE,
    WizardTrick,
)
from controller.games.oh_pshaw.engine import OhPshaw, deal
from controller.games.oh_pshaw.fast import FastRound, deal_round, random_playout
from controller.games.oh_pshaw.options import Options, default_max_hand
from controller.games.oh_pshaw.state import Phase
from tests.games.lockstep import EngineSide, lockstep


def _engine_round(rng: random.Random, wizard: bool) -> OhPshaw:
    players = rng.randint(3, 7)
    size = rng.randint(1, default_max_hand(players, WIZARD_DECK_SIZE if wizard else 52))
    options = Options.read(
        {
            "options": {
                "schedule": [size],
                "hook": rng.random() < 0.5,
                "scoring": rng.choice(["standard", "mild"]),
                "round_winner_bonus": rng.random() < 0.3,
                "rotating_trump": rng.random() < 0.2,
                "wizard": wizard,
            }
        },
        players,
    )
    engine = OhPshaw(players, rng.randrange(players), options)
    for action in deal(engine, rng):
        engine.apply(action)
    if engine.awaiting_trump_choice:
        engine.apply(ChooseTrump(engine.round.dealer, rng.choice(SUITS)))
    return engine


def _engine_legal(engine: OhPshaw) -> list[int]:
    assert engine.phase in (Phase.BID, Phase.PLAY)
    out: list[int] = []
    for action in engine.legal_actions(engine.turn):
        if isinstance(action, Bid):
            out.append(action.bid)
        else:
            assert isinstance(action, Play)
            out.append(WIZARD_CARD_INDEX[action.card])
    return sorted(out)


def _engine_apply(engine: OhPshaw, action: int) -> None:
    if engine.phase is Phase.BID:
        engine.apply(Bid(engine.turn, action))
    else:
        engine.apply(Play(engine.turn, _name(action)))


def _name(card: int) -> str:
    return NAME_OF[card]


def _check_round(seed: int, wizard: bool = False) -> set[str]:
    """Play one seeded round through both; the Wizard variant's cases it met, by name."""
    rng = random.Random(seed)
    engine = _engine_round(rng, wizard)
    rnd = engine.round
    cases = {"chosen trump"} if rnd.turned is not None and _name(rnd.turned)[0] == "W" else set()
    trick: list[str] = []
    hands = [
        [WIZARD_CARD_INDEX[c] for c in engine.registered_hand(seat) or []]
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
        wizard=wizard,
    )

    def apply(action: int) -> None:
        nonlocal trick, cases
        playing = engine.phase is Phase.PLAY
        _engine_apply(engine, action)
        if playing:
            trick.append(_name(action))
            if len(trick) == engine.players:
                cases |= _wizard_cases(trick)
                trick = []

    side = EngineSide(
        turn=lambda: engine.turn,
        legal=lambda: _engine_legal(engine),
        apply=apply,
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
    return cases


def _wizard_cases(trick: list[str]) -> set[str]:
    """What a completed trick shows of the Wizard variant's rules (cards by notation)."""
    kinds = [name[0] if name[0] in "WN" else "suit" for name in trick]
    cases: set[str] = set()
    if "W" in kinds:
        cases.add("wizard wins")
    if set(kinds) == {"N"}:
        cases.add("jesters alone")
    if kinds[0] == "N" and "suit" in kinds:
        cases.add("jester led")
    suits = {name[1] for name in trick if name[0] not in "WN"}
    if kinds[0] == "W" and len(suits) > 1:
        cases.add("wizard led")
    return cases


def test_fast_round_matches_the_engine_on_500_seeded_rounds() -> None:
    for seed in range(500):
        _check_round(seed)


@pytest.mark.slow
def test_fast_round_matches_the_engine_on_10000_seeded_rounds() -> None:
    for seed in range(500, 10_500):
        _check_round(seed)


def test_fast_round_matches_the_engine_on_500_seeded_wizard_rounds() -> None:
    for seed in range(500):
        _check_round(seed, wizard=True)


@pytest.mark.slow
def test_fast_round_matches_the_engine_on_10000_seeded_wizard_rounds() -> None:
    for seed in range(500, 10_500):
        _check_round(seed, wizard=True)


def test_the_wizard_rounds_meet_the_cases_of_the_variant() -> None:
    """The 500 seeded Wizard rounds above do meet what the variant changes (else their
    agreement would prove little): tricks won by a Wizard, by a suit card after a Jester
    lead, off-suit cards after a Wizard lead, and a turned Wizard's chosen trump. (A
    trick of Jesters alone is rare in random play: the next test makes many.)"""
    seen: set[str] = set()
    for seed in range(500):
        seen |= _check_round(seed, wizard=True)
    assert {"wizard wins", "jester led", "wizard led", "chosen trump"} <= seen


def test_a_fast_wizard_trick_is_won_as_the_engines_trick_is_won() -> None:
    """Random tricks heavy in Wizards and Jesters (all-Jester tricks included), every
    card added to ``FastRound`` and to the engine's ``WizardTrick``: after each card the
    same suit to follow, and the same seat winning."""
    rng = random.Random(7)
    jesters_alone = 0
    for _ in range(3000):
        players = rng.randint(3, 7)
        specials = rng.sample(range(52, 60), rng.randint(0, min(players, 8)))
        cards = specials + rng.sample(range(52), players - len(specials))
        rng.shuffle(cards)
        trump = rng.choice([None, 0, 1, 2, 3])
        lead = rng.randrange(players)
        fast = FastRound(players, lead - 1, [[] for _ in range(players)], trump, wizard=True)
        fast.bidding = False
        trick = WizardTrick(lead)
        for i, card in enumerate(cards):
            seat = (lead + i) % players
            fast._add_to_trick(seat, card)
            trick.add(seat, card)
            assert fast.led == (-1 if trick.led is None else trick.led)
            assert fast.best_seat == trick.winner(trump)[0]
        jesters_alone += all(c >= 56 for c in cards)
    assert jesters_alone > 10


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


def test_deal_round_deals_the_wizard_deck_when_asked() -> None:
    hands, _ = deal_round(4, 0, 15, False, random.Random(1), WIZARD_DECK_SIZE)
    assert sorted(c for hand in hands for c in hand) == list(range(WIZARD_DECK_SIZE))
