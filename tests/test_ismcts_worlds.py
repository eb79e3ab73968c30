"""The ISMCTS benchmark's worlds: what OpenSpiel's ``oh_hell`` resampler tells ISMCTS, and ours.

``benchmarks/oh_pshaw_vs_ismcts.py`` reports that OpenSpiel's resampler deals
the other seats' hands only from the cards really dealt to them (ISMCTS then
knows which cards are in play), and offers ``seat_world`` as a resampler that
knows only what the seat sees. These tests keep both statements true.
"""

from __future__ import annotations

import importlib.util
import random
from types import ModuleType

import pytest

from tests.conftest import ROOT

pyspiel = pytest.importorskip(
    "pyspiel", reason="the ISMCTS benchmark needs the open-spiel package (pip install open-spiel)"
)

SIZE = 5


def benchmark() -> ModuleType:
    path = ROOT / "benchmarks" / "oh_pshaw_vs_ismcts.py"
    spec = importlib.util.spec_from_file_location("oh_pshaw_vs_ismcts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def game() -> object:
    return pyspiel.load_game(
        "oh_hell",
        {"players": 4, "num_tricks_fixed": SIZE, "off_bid_penalty": False, "points_per_trick": 1},
    )


def test_openspiels_resampler_deals_only_the_cards_in_play() -> None:
    inside, expected = benchmark().leak_check(game(), deals=10)
    assert inside == 1.0  # every resampled card was really dealt to another seat
    assert expected < 0.4  # while a seat's own view allows two thirds of them to be in the stock


def test_a_seat_world_keeps_what_the_seat_knows_and_may_deal_from_the_stock() -> None:
    bench = benchmark()
    spiel_game = game()
    rng = random.Random(3)
    from_stock = 0
    for seed in range(12):
        table = bench.Table(spiel_game, seed, SIZE)
        # Play on a few actions at random, so worlds must keep bids, plays and voids.
        moves = random.Random(seed)
        for _ in range(4 + seed):
            table.apply(moves.choice(table.state.legal_actions()))
        seat = table.state.current_player()
        in_play = {c for s in range(4) for c in table.hands[s]}
        for _ in range(5):
            world = bench.seat_world(spiel_game, SIZE, rng, table.state, seat)
            # The seat cannot tell the world from the real table ...
            assert world.information_state_string(seat) == table.state.information_state_string(
                seat
            )
            assert world.legal_actions() == table.state.legal_actions()
            dealt = world.history()[2 : 2 + 4 * SIZE]
            from_stock += sum(1 for c in dealt if bench.ours(c) not in in_play)
    # ... and the other seats' cards come from everything it cannot see, stock included.
    assert from_stock > 0
