"""Our Oh Pshaw search bot against OpenSpiel's ISMCTS bot, on OpenSpiel's own ``oh_hell``.

Duplicate match: every deal is played twice on a pyspiel ``oh_hell`` state
(4 players, a fixed number of tricks drawn per deal from 3..8, OpenSpiel's
scoring: 1 point per trick plus 10 for an exact bid, no off-bid penalty; the
dealer's hook as OpenSpiel has it), our bot in seats 0 and 2 and ISMCTS in 1
and 3, then the seats swapped. Both search with the same number of simulated
playouts per decision: ISMCTS ``max_simulations`` = N (random rollouts, UCT),
ours N // (legal actions) deals with every legal action played out in each.

Our bot sees what its seat sees: its own dealt cards, the trump card and the
public actions (bids and cards played, in order); it keeps no OpenSpiel state.
The figure is our seats' mean score minus ISMCTS's per seat and deal, with a
95 % confidence interval; the target is >= 0.

What ISMCTS knows: OpenSpiel's ISMCTS samples its worlds with
``State.resample_from_infostate``, and ``oh_hell``'s resampler deals the other
seats' hands from the cards that were really dealt to them, never from the
cards left in the stock (with 4 players and 3-8 tricks, only 9-24 of the 43-48
cards a seat cannot see are in play). So ISMCTS knows which cards are in play,
which no player at a table does. ``leak_check`` measures this on every run and
prints it. Two comparisons at equal information: ``--same-knowledge`` gives our
bot the same knowledge (its worlds are dealt from the cards in the other hands
too); ``--fair-ismcts`` takes it from ISMCTS instead (OpenSpiel's Python ISMCTS
with ``seat_world`` as its resampler: every unseen card may be in a hand). With
neither, our bot knows only what its seat sees and ISMCTS knows more.

Run:  .venv/bin/python benchmarks/oh_pshaw_vs_ismcts.py [--deals 300] [--simulations 200]
          [--start 0] [--same-knowledge | --fair-ismcts] [--diffs FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from typing import Any

from controller.games.oh_pshaw.fast import FastRound
from controller.games.oh_pshaw.search import Seen, determinize, search, trick_voids

PLAYERS = 4
BID_BASE = 52  # OpenSpiel's oh_hell: actions 52.. are bids 0..
# OpenSpiel cards are rank * 4 + suit with suits C, D, S, H; ours suit * 13 + rank, S H D C.
_OS_SUIT_TO_OURS = (3, 2, 0, 1)


def ours(os_card: int) -> int:
    return _OS_SUIT_TO_OURS[os_card % 4] * 13 + os_card // 4


def theirs(card: int) -> int:
    suit, rank = divmod(card, 13)
    return rank * 4 + _OS_SUIT_TO_OURS.index(suit)


class Table:
    """One deal on a pyspiel state, with the public log every seat sees."""

    def __init__(self, game: Any, seed: int, size: int) -> None:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        self._read_deal(state, size)
        self.log: list[tuple[int, int]] = []  # (seat, action) of every bid and card

    def _read_deal(self, state: Any, size: int) -> None:
        history = state.history()
        self.state = state
        self.size = size
        self.dealer = history[1]
        dealt = history[2 : 2 + PLAYERS * size]
        # OpenSpiel deals card i of the deal to seat i % players (checked in __main__).
        self.hands = [[ours(c) for c in dealt[s::PLAYERS]] for s in range(PLAYERS)]
        self.trump_card = ours(history[2 + PLAYERS * size])

    @classmethod
    def of_state(cls, game: Any, state: Any, size: int) -> Table:
        """The table of a pyspiel state in play (its deal and log read from the history)."""
        table = cls.__new__(cls)
        table._read_deal(state, size)
        history = state.history()
        replay = game.new_initial_state()
        for action in history[: 3 + PLAYERS * size]:
            replay.apply_action(action)
        table.log = []
        for action in history[3 + PLAYERS * size :]:
            table.log.append((replay.current_player(), action))
            replay.apply_action(action)
        return table

    def apply(self, action: int) -> None:
        self.log.append((self.state.current_player(), action))
        self.state.apply_action(action)

    def public_round(self) -> tuple[FastRound, list[list[tuple[int, int]]]]:
        """The public state as a FastRound (no hands) and the tricks played so far."""
        fast = FastRound(
            PLAYERS,
            self.dealer,
            [[0] * self.size for _ in range(PLAYERS)],
            self.trump_card // 13,
            hook=True,
            mild=True,
        )
        fast.hands = [list(range(52)) for _ in range(PLAYERS)]  # room for any public card
        tricks: list[list[tuple[int, int]]] = [[]]
        for seat, action in self.log:
            if action >= BID_BASE:
                fast.bid(action - BID_BASE)
                continue
            card = ours(action)
            if len(tricks[-1]) == PLAYERS:
                tricks.append([])
            tricks[-1].append((seat, card))
            fast.play(card)
        if tricks[-1] and len(tricks[-1]) == PLAYERS:
            tricks.append([])
        fast.hands = [[] for _ in range(PLAYERS)]
        return fast, tricks

    def seen(self, seat: int, same_knowledge: bool = False) -> Seen:
        """What ``seat`` knows; with ``same_knowledge`` also which cards the others hold
        (not who holds which), as OpenSpiel's resampler tells ISMCTS."""
        fast, tricks = self.public_round()
        played = {card for trick in tricks for _, card in trick}
        mine = [c for c in self.hands[seat] if c not in played]
        unseen = [
            c for c in range(52) if c not in played and c != self.trump_card and c not in mine
        ]
        if same_knowledge:
            in_play = {c for s in range(PLAYERS) if s != seat for c in self.hands[s]}
            unseen = [c for c in unseen if c in in_play]
        made = [sum(1 for trick in tricks for s, _ in trick if s == p) for p in range(PLAYERS)]
        counts = [self.size - made[p] for p in range(PLAYERS)]
        return Seen(seat, fast, mine, unseen, counts, trick_voids(PLAYERS, tricks))


def our_action(
    table: Table, simulations: int, rng: random.Random, same_knowledge: bool = False
) -> int:
    state = table.state
    seat = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return int(legal[0])
    seen = table.seen(seat, same_knowledge)
    assert seen.base.turn == seat, "OpenSpiel's turn order is not ours"
    bidding = legal[0] >= BID_BASE
    options = [a - BID_BASE if bidding else ours(a) for a in legal]
    if bidding:
        # The rules agree: what OpenSpiel allows is what our fast path allows (the hook).
        assert sorted(options) == sorted(seen.base.legal()), (options, seen.base.legal())
    best, _ = search(seen, options, rng, max(1, simulations // len(options)))
    return int(legal[best])


def seat_world(game: Any, size: int, rng: random.Random, state: Any, seat: int) -> Any:
    """A world ``seat`` cannot tell from ``state``: the others' cards dealt from all it cannot see.

    The resampler OpenSpiel's ``oh_hell`` lacks (see the module's docstring):
    the unseen cards, stock included, dealt to the other seats as our bot deals
    them (keeping the suits a seat has shown it lacks), then the same bids and
    plays. Checked: the seat's information state is unchanged.
    """
    table = Table.of_state(game, state, size)
    remaining = determinize(table.seen(seat), rng)
    played: list[list[int]] = [[] for _ in range(PLAYERS)]
    for s, action in table.log:
        if action < BID_BASE:
            played[s].append(ours(action))
    hands = [table.hands[s] if s == seat else remaining[s] + played[s] for s in range(PLAYERS)]
    history = state.history()
    world = game.new_initial_state()
    world.apply_action(history[0])
    world.apply_action(history[1])
    for i in range(size):
        for s in range(PLAYERS):
            world.apply_action(theirs(hands[s][i]))
    for action in history[2 + PLAYERS * size :]:
        world.apply_action(action)
    assert world.information_state_string(seat) == state.information_state_string(seat)
    return world


def play(
    game: Any,
    seed: int,
    size: int,
    ours_at: set[int],
    simulations: int,
    same_knowledge: bool = False,
    fair_ismcts: bool = False,
) -> list[float]:
    import pyspiel  # type: ignore[import-not-found]

    table = Table(game, seed, size)
    ismcts: Any
    if fair_ismcts:
        import numpy as np

        # Untyped where installed, absent where not: either way not checked here.
        from open_spiel.python.algorithms import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            ismcts as python_ismcts,
        )
        from open_spiel.python.algorithms import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            mcts,
        )

        ismcts = python_ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
            2.0,
            simulations,
            random_state=np.random.RandomState(seed),
        )
        world_rng = random.Random(seed + 1_000_000)
        ismcts.set_resampler(lambda state, seat: seat_world(game, size, world_rng, state, seat))
    else:
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        ismcts = pyspiel.ISMCTSBot(
            seed,
            evaluator,
            2.0,
            simulations,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
        )
    rng = random.Random(seed)
    while not table.state.is_terminal():
        if table.state.current_player() in ours_at:
            table.apply(our_action(table, simulations, rng, same_knowledge))
        else:
            table.apply(int(ismcts.step(table.state)))
    return list(table.state.returns())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--simulations", type=int, default=200, help="playouts per decision")
    parser.add_argument("--start", type=int, default=0, help="first deal (to split a run)")
    parser.add_argument(
        "--same-knowledge",
        action="store_true",
        help="our bot also knows which cards the other seats hold, as ISMCTS does",
    )
    parser.add_argument(
        "--fair-ismcts",
        action="store_true",
        help="OpenSpiel's Python ISMCTS with a resampler that deals from every unseen card "
        "(slower, about 2-3 s a deal)",
    )
    parser.add_argument("--diffs", help="write each deal's score difference to this file")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print only one JSON line: mean, CI half-width, deals, seconds, the resampler's "
        "leak and each deal's difference (to pool runs over other deals)",
    )
    args = parser.parse_args(argv)
    say = (lambda *_: None) if args.json else print
    try:
        import pyspiel
    except ImportError:
        print("open-spiel is not installed (pip install open-spiel)", file=sys.stderr)
        return 2
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    say(f"python {sys.version.split()[0]}, cpus {cpus}, load {os.getloadavg()[0]:.2f}")
    games = {
        size: pyspiel.load_game(
            "oh_hell",
            {
                "players": PLAYERS,
                "num_tricks_fixed": size,
                "off_bid_penalty": False,
                "points_per_trick": 1,
            },
        )
        for size in range(3, 9)
    }
    check_deal_order(games[5])
    inside, expected = leak_check(games[5])
    say(
        f"OpenSpiel's resampler: of the cards it deals another seat, {inside:.0%} were really "
        f"dealt to the other seats (a uniform draw from the unseen cards: {expected:.0%}); "
        f"our bot knows this: {'yes' if args.same_knowledge else 'no'}"
    )
    diffs: list[float] = []
    start = time.perf_counter()
    for d in range(args.start, args.start + args.deals):
        size = random.Random(d).randint(3, 8)
        a = play(
            games[size], d, size, {0, 2}, args.simulations, args.same_knowledge, args.fair_ismcts
        )
        b = play(
            games[size], d, size, {1, 3}, args.simulations, args.same_knowledge, args.fair_ismcts
        )
        diffs.append((a[0] + a[2] + b[1] + b[3] - a[1] - a[3] - b[0] - b[2]) / 4)
    if args.diffs:
        with open(args.diffs, "w", encoding="utf-8") as out:
            out.writelines(f"{d}\n" for d in diffs)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    if args.json:
        figures = {
            "mean": mean,
            "half": half,
            "deals": len(diffs),
            "s": time.perf_counter() - start,
            "leak inside": inside,
            "leak uniform": expected,
            "diffs": diffs,
        }
        print(json.dumps(figures))
        return 0
    print(
        f"Oh Pshaw search vs OpenSpiel ISMCTS on oh_hell, {args.simulations} simulations per "
        f"decision, {len(diffs)} deals from {args.start}"
        f"{', same knowledge' if args.same_knowledge else ''}"
        f"{', ISMCTS without the leak (Python)' if args.fair_ismcts else ''}: "
        f"{mean:+.3f} points per seat and deal, "
        f"95 % CI [{mean - half:+.3f}, {mean + half:+.3f}] (target >= 0; "
        f"{time.perf_counter() - start:.0f} s)"
    )
    return 0


def leak_check(game: Any, deals: int = 50) -> tuple[float, float]:
    """How much of the others' hands OpenSpiel's resampler draws from the cards really dealt.

    Returns the share of resampled cards that were dealt to the other seats, and
    the share a uniform draw from every card the seat cannot see would give.
    """
    import pyspiel

    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    inside = drawn = 0
    expected = 0.0
    for seed in range(deals):
        table = Table(game, seed, table_size(game))
        seat = table.state.current_player()
        others = {c for s in range(PLAYERS) if s != seat for c in table.hands[s]}
        world = table.state.resample_from_infostate(seat, sampler)
        dealt = world.history()[2 : 2 + PLAYERS * table.size]
        for s in range(PLAYERS):
            if s != seat:
                cards = [ours(c) for c in dealt[s::PLAYERS]]
                inside += sum(1 for c in cards if c in others)
                drawn += len(cards)
        expected += len(others) / (52 - table.size - 1)
    return inside / drawn, expected / deals


def table_size(game: Any) -> int:
    return int(game.get_parameters()["num_tricks_fixed"])


def check_deal_order(game: Any) -> None:
    """Card i of OpenSpiel's deal goes to seat i % players: checked on its own info strings."""
    for seed in range(5):
        table = Table(game, seed, 5)
        for seat in range(PLAYERS):
            text = table.state.information_state_string(seat)
            block = text.split(f"Player: {seat}", 1)[1]
            listed = set()
            for line in block.splitlines()[1:5]:
                suit, _, ranks = line.strip().partition(":")
                for rank in ranks.strip():
                    os_card = "23456789TJQKA".index(rank) * 4 + "CDSH".index(suit)
                    listed.add(ours(os_card))
            assert listed == set(table.hands[seat]), (seed, seat, listed, table.hands[seat])


if __name__ == "__main__":
    raise SystemExit(main())
