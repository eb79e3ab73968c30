"""Oskar's search bot: legal, deterministic, blind to hidden cards, within its budget.

How much better it plays than ``OskarBot`` is measured by duplicate games in
``benchmarks/bots.py --oskar-search-games`` (``docs/benchmarks.md``), not here.
"""

from __future__ import annotations

import importlib.util
import random
from itertools import count

import pytest

from controller.games import specs
from controller.games.base import Action, Chance
from controller.games.oskar.bots import OskarBot
from controller.games.oskar.engine import Card, Oskar, Phase, Play, RollDice
from controller.games.oskar.search import OskarSearchBot, policy_card, search, seen_from_engine
from controller.kiosk.simulation import Simulator
from tests.rigs import TableRig

UNHURRIED = 1e9  # a budget no test reaches: the deal count alone bounds the search


def _dealt(seed: int) -> tuple[Oskar, random.Random]:
    """A 4-seat game dealt (hands registered) and rolled, waiting for the first card."""
    rng = random.Random(seed)
    engine = Oskar(4, rng.randrange(4))
    chance = Chance(cards=True, dice=False)
    dice = OskarBot(random.Random(seed))
    while True:
        for action in engine.chance_actions(rng, chance):
            engine.apply(action)
        if engine.phase is Phase.PLAY and engine.doubles is None:
            break
        seat = engine.decides  # a seat to roll, or to answer its doubles
        assert seat is not None
        engine.apply(dice.choose(engine, seat))
    return engine, rng


def _play_round(seed: int, samples: int = 4) -> list[Action]:
    engine, _ = _dealt(seed)
    bots = [
        OskarSearchBot(random.Random(seed * 10 + s), samples=samples, budget=UNHURRIED)
        for s in range(4)
    ]
    actions: list[Action] = []
    while not engine.results:
        seat = engine.decides
        assert seat is not None
        action = bots[seat].choose(engine, seat)
        assert action in engine.legal_actions(seat)
        engine.apply(action)
        actions.append(action)
    return actions


def test_the_search_bot_plays_a_whole_round_legally_and_deterministically() -> None:
    first = _play_round(3)
    assert first == _play_round(3)
    # 38 cards, 4 hands of 9: every dealt card was played, the stock stays face down.
    assert sum(1 for a in first if isinstance(a, Play)) == 36


def test_the_search_bot_does_not_see_the_other_hands() -> None:
    """Dealing the others' hidden cards among them differently changes nothing it decides."""
    engine, _ = _dealt(11)
    seat = engine.decides
    assert seat is not None
    other, _ = _dealt(11)
    rnd = other.round
    hidden = [c for s in range(4) if s != seat for c in rnd.hands[s] or []]
    random.Random(1).shuffle(hidden)
    for s in range(4):
        if s != seat:
            size = len(rnd.hands[s] or [])
            rnd.hands[s], hidden = sorted(hidden[:size]), hidden[size:]
    assert other.round.hands != engine.round.hands
    a = OskarSearchBot(random.Random(5), samples=8, budget=UNHURRIED).choose(engine, seat)
    b = OskarSearchBot(random.Random(5), samples=8, budget=UNHURRIED).choose(other, seat)
    assert a == b


def test_a_search_stops_at_its_budget() -> None:
    """With a clock that jumps a second per reading, a 0.3 s budget allows one deal only."""
    ticks = count()
    engine, _ = _dealt(4)
    seat = engine.decides
    assert seat is not None
    bot = OskarSearchBot(random.Random(1), budget=0.3, samples=500, clock=lambda: next(ticks))
    assert bot.choose(engine, seat) in engine.legal_actions(seat)
    assert bot.last_samples == 1
    roomy = OskarSearchBot(random.Random(1), budget=1e9, samples=7, clock=lambda: next(ticks))
    roomy.choose(engine, seat)
    assert roomy.last_samples == 7


def test_dice_and_rerolls_are_the_heuristic_bots() -> None:
    engine = Oskar(4, 0)
    seat = engine.decides
    assert seat is not None
    searched = OskarSearchBot(random.Random(9)).choose(engine, seat)
    assert isinstance(searched, RollDice)
    assert searched == OskarBot(random.Random(9)).choose(engine, seat)


def test_the_search_counts_every_card_it_cannot_see_once() -> None:
    engine, _ = _dealt(6)
    seat = engine.decides
    assert seat is not None
    hand = engine.registered_hand(seat)
    assert hand is not None
    seen = seen_from_engine(engine, seat, hand)
    # The others' 27 cards and the 2 of the stock: 38 less the seat's 9.
    assert len(seen.unseen) == 29
    assert sum(seen.counts) == 27
    best, deals = search(seen, sorted(set(hand), key=str), random.Random(2), samples=3)
    assert deals == 3 and 0 <= best < len(set(hand))


def test_the_quick_policy_helps_a_friend_win_and_dumps_its_smallest_card_otherwise() -> None:
    friends = frozenset({1, 3})
    hand = [Card.parse("Y4"), Card.parse("L5"), Card.parse("G2")]
    # Seat 0 (not a friend) leads a big lilac card: seat 1 takes it with the cheapest winner.
    big = [(0, Card.parse("L16"))]
    assert policy_card(list(hand), big, 1, friends) == Card.parse("G2")
    # Friend seat 3 is winning: seat 1 adds the most points that keep a friend winning.
    friendly = [(3, Card.parse("Y3")), (0, Card.parse("L6"))]
    assert policy_card(list(hand), friendly, 1, friends) == Card.parse("L5")
    # A small trick for an opponent: seat 1 gives its smallest card.
    small = [(0, Card.parse("B3"))]
    assert policy_card(list(hand), small, 1, friends) == Card.parse("G2")


# Every game whose folder has a search module (its SEARCH_BOT).
SEARCHED = [
    game_id
    for game_id, spec in specs().items()
    if importlib.util.find_spec(f"{spec.package}.search") is not None
]


def test_the_games_that_ship_a_search_bot_are_found() -> None:
    assert {"oh-pshaw", "oshaka-trick", "oskar"} <= set(SEARCHED)


@pytest.mark.parametrize("game_id", SEARCHED)
def test_the_simulator_gives_each_searched_game_its_search_bot(game_id: str) -> None:
    rig = TableRig(seats=4, bots=4)
    with rig.devices:
        sim = Simulator(rig.table, rig.devices, rig.registry, bot_seats={0, 1, 2, 3}, think=0.2)

        class Adapter:
            class simulation:
                @staticmethod
                def make_bot(rng: random.Random) -> OskarBot:
                    return OskarBot(rng)

        Adapter.game_id = game_id  # type: ignore[attr-defined]
        made = sim.make_bot(Adapter(), random.Random(1))
        search = made.search  # type: ignore[attr-defined]
        assert type(search).__module__ == f"{specs()[game_id].package}.search"
        assert search.budget == 0.2
