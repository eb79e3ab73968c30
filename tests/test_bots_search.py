"""The search bots: legal, deterministic for their rng, blind to hidden cards, within budget;
and the simulator that runs them off the table loop, with the ``[bots] think`` setting."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from itertools import count

import pytest

from controller.bots.search_bot import sum_over_deals
from controller.config.reading import ConfigError
from controller.config.table_config import parse
from controller.games.base import Action
from controller.games.oh_pshaw.engine import CARD_NAMES, OhPshaw, Options, Phase, deal
from controller.games.oh_pshaw.search import OhPshawSearchBot
from controller.games.oshaka_trick.engine import OshakaTrick, Place, hand_registrations
from controller.games.oshaka_trick.engine import Phase as OshakaPhase
from controller.games.oshaka_trick.engine import deal as deal_oshaka
from controller.games.oshaka_trick.search import OshakaSearchBot
from controller.games.oskar.bots import OskarBot
from controller.games.oskar.engine import Oskar, RollDice
from controller.kiosk.simulation import Simulator
from controller.view import Screen
from tests.rigs import TableRig

# Determinism is checked without the wall-clock budget: on a loaded machine a budget
# cuts a search short, and only then may a decision differ (the budget's own tests
# use a fake clock).
UNHURRIED = 1e9


def _oh_pshaw(seed: int, size: int = 6) -> OhPshaw:
    rng = random.Random(seed)
    options = Options.read({"options": {"schedule": [size], "hook": True}}, 4)
    engine = OhPshaw(4, rng.randrange(4), options)
    for action in deal(engine, rng):
        engine.apply(action)
    return engine


def _play_oh_pshaw(seed: int, samples: int = 6) -> list[Action]:
    engine = _oh_pshaw(seed)
    bots = [
        OhPshawSearchBot(random.Random(seed + s), samples=samples, budget=UNHURRIED)
        for s in range(4)
    ]
    actions: list[Action] = []
    first = engine.round
    while first.scores is None:
        expected = engine.expected
        assert expected is not None
        action = bots[expected.seat].choose(engine, expected.seat)
        assert action in engine.legal_actions(expected.seat)
        engine.apply(action)
        actions.append(action)
    return actions


def test_oh_pshaw_search_bot_plays_legal_actions_and_is_deterministic_for_its_rng() -> None:
    first = _play_oh_pshaw(3)
    assert first == _play_oh_pshaw(3)
    assert any(a.to_json().get("bid") is not None for a in first)
    assert sum(1 for a in first if "play" in a.to_json()) == 6 * 4


def test_oh_pshaw_search_bot_does_not_see_the_other_hands() -> None:
    """Shuffling the others' hidden cards among them changes nothing the bot decides."""
    engine = _oh_pshaw(11, size=8)
    seat = engine.turn
    other = _oh_pshaw(11, size=8)
    # The same public state, the other seats' (unplayed, registered) cards dealt differently.
    rnd = other.round
    hidden = [c for s in range(4) if s != seat for c in rnd.hands[s] or []]
    random.Random(1).shuffle(hidden)
    for s in range(4):
        if s == seat:
            continue
        cards, hidden = hidden[:8], hidden[8:]
        rnd.hands[s] = sorted(cards)
        for c in cards:
            rnd.where[c] = s
    assert other.round.hands != engine.round.hands
    a = OhPshawSearchBot(random.Random(5), samples=10, budget=UNHURRIED).choose(engine, seat)
    b = OhPshawSearchBot(random.Random(5), samples=10, budget=UNHURRIED).choose(other, seat)
    assert a == b


def test_a_search_stops_at_its_budget() -> None:
    """With a clock that jumps a second per reading, a 0.3 s budget allows one deal only."""
    ticks = count()
    engine = _oh_pshaw(4, size=10)
    bot = OhPshawSearchBot(random.Random(1), budget=0.3, samples=500, clock=lambda: next(ticks))
    action = bot.choose(engine, engine.turn)
    assert action in engine.legal_actions(engine.turn)
    assert bot.last_samples == 1
    roomy = OhPshawSearchBot(random.Random(1), budget=1e9, samples=7, clock=lambda: next(ticks))
    roomy.choose(engine, engine.turn)
    assert roomy.last_samples == 7


def test_oh_pshaw_search_bot_plays_cards_from_its_hand() -> None:
    engine = _oh_pshaw(8)
    while engine.phase is Phase.BID:
        engine.apply(engine.legal_actions(engine.turn)[0])
    seat = engine.turn
    action = OhPshawSearchBot(random.Random(2), samples=5).choose(engine, seat)
    hand = engine.registered_hand(seat)
    assert hand is not None and action.to_json()["play"] in hand
    assert action.to_json()["play"] in CARD_NAMES


def _play_oshaka(seed: int) -> tuple[list[Action], list[int]]:
    rng = random.Random(seed)
    engine = OshakaTrick(4, rng.randrange(4))
    for action in hand_registrations(deal_oshaka(4, rng)):
        engine.apply(action)
    bots = [OshakaSearchBot(random.Random(seed + s), samples=3, budget=UNHURRIED) for s in range(4)]
    actions: list[Action] = []
    while engine.phase in (OshakaPhase.PLAY, OshakaPhase.PLACE):
        expected = engine.expected
        assert expected is not None
        action = bots[expected.seat].choose(engine, expected.seat)
        assert action in engine.legal_actions(expected.seat)
        engine.apply(action)
        actions.append(action)
    return actions, [area.score() for area in engine.finished_rounds[0].areas]


def test_oshaka_search_bot_plays_and_places_legally_and_deterministically() -> None:
    actions, scores = _play_oshaka(2)
    assert (actions, scores) == _play_oshaka(2)
    assert any(isinstance(a, Place) for a in actions)
    assert sum(1 for a in actions if not isinstance(a, Place)) == 52


# --- the simulator and the config -------------------------------------------------------


def test_the_simulator_thinks_off_the_loop_and_plays_the_decision() -> None:
    decided = threading.Event()
    with TableRig(seats=4, bots=4).running() as rig:
        sim = rig.bots("oh-pshaw", think=0.05, background=True, on_decided=decided.set)
        thought_about = 0
        for _ in range(400):
            if rig.table.screen is Screen.PLAY and thought_about >= 3:
                break
            version = rig.table.version
            decided.clear()  # a decision quicker than step() itself leaves it set
            if not sim.step(0.0):
                # A bot is thinking on its worker: step() came back without waiting.
                # The previous decision's worker may still be calling back (it marks itself
                # done first, then wakes the loop), so wait for this decision's own end.
                deadline = time.monotonic() + 5.0
                while sim.thinking and time.monotonic() < deadline:
                    decided.wait(0.05)
                    decided.clear()
                assert not sim.thinking, "the bot's worker never decided"
                assert rig.table.version == version  # nothing was played meanwhile
                thought_about += 1
                assert sim.step(0.0)  # the decision is ready: the bot acts now
            rig.loop.drain()
        assert thought_about >= 3


def test_the_simulator_without_think_keeps_the_heuristic_bots() -> None:
    rig = TableRig(seats=4, bots=4)
    with rig.devices:
        sim = Simulator(rig.table, rig.devices, rig.registry, bot_seats={0, 1, 2, 3})
        rig.loop.drain()

        class Adapter:
            game_id = "oh-pshaw"

            class simulation:
                @staticmethod
                def make_bot(rng: random.Random) -> str:
                    return "heuristic"

        # The stand-in adapter's "bot" is a plain string, so the bots are compared as objects.
        plain: object = sim.make_bot(Adapter(), random.Random(1))
        assert plain == "heuristic"
        sim.think = 0.2
        made: object = sim.make_bot(Adapter(), random.Random(1))
        assert made != "heuristic"
        assert made.search.budget == 0.2  # type: ignore[attr-defined]


def test_bots_think_is_read_from_the_config() -> None:
    assert parse({}).bots.think == 0.3
    assert parse({"bots": {"think": 0.5}}).bots.think == 0.5
    with pytest.raises(ConfigError, match=r"bots\.think must be a number"):
        parse({"bots": {"think": "fast"}})
    with pytest.raises(ConfigError, match=r"bots\.speed is not a setting"):
        parse({"bots": {"speed": 1}})


def test_oskar_bot_rerolls_the_die_that_is_expected_to_earn_fewer_tokens() -> None:
    """Western is shown by every seat (nearly always trendy); horror by this seat alone."""
    engine = Oskar(4, 0)
    shown = [
        ("western", "horror"),
        ("western", "comedy"),
        ("western", "action"),
        ("scifi", "western"),
    ]
    for seat, faces in enumerate(shown):
        engine.apply(RollDice(seat, faces))
    bot = OskarBot(random.Random(4))
    assert bot.best_reroll(engine, 0, [(), (0,), (1,)]) == (1,)
    assert bot.best_reroll(engine, 3, [(), (0,), (1,)]) == (0,)
    # Keeping both beats rerolling the shared die.
    assert bot.best_reroll(engine, 1, [(), (0,)]) == ()


def test_sum_over_deals_counts_only_whole_deals_and_always_finishes_the_first() -> None:
    dealt: list[int] = []

    def deal() -> Callable[[int], float]:
        dealt.append(len(dealt))
        n = dealt[-1]
        return lambda option: float(10 * n + option)

    asked = count()
    # Out of time from the start: the first deal is still played whole, and no more.
    totals, done = sum_over_deals(3, 50, deal, lambda: False)
    assert (totals, done) == ([0.0, 1.0, 2.0], 1)
    # Time runs out in the middle of the third deal: it is left out of the sums.
    dealt.clear()
    totals, done = sum_over_deals(3, 50, deal, lambda: next(asked) < 5)
    assert done == 2 and len(dealt) == 3
    assert totals == [0.0 + 10.0, 1.0 + 11.0, 2.0 + 12.0]
    # With time to spare it stops at ``samples``.
    dealt.clear()
    assert sum_over_deals(2, 4, deal, lambda: True)[1] == 4 and len(dealt) == 4
