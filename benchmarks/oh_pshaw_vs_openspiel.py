"""Random full-hand playouts per second: our Oh Pshaw engine against OpenSpiel's oh_hell.

Both sides play the same thing: one hand of a fixed size with a random dealer,
a random deal and turned trump card, random legal bids (hook on) and random
legal cards until the hand is scored. OpenSpiel deals card by card through its
chance nodes; ours gets the deal from ``deal()`` (one ``hand`` action per seat
and the dealer's ``trump``). Each side draws from its own seeded
``random.Random`` with the same call pattern (``rng.choice(legal)``).

Run:  .venv/bin/python benchmarks/oh_pshaw_vs_openspiel.py [--batches 15] [--size 40]

It prints, per (players, hand size), the playouts per second over a number of
timed batches (median, 10th and 90th percentile) for our engine, for the bots'
fast integer path (``controller.games.oh_pshaw.fast``: integer deal, same
random choices, no events or checks) and for OpenSpiel, and the ratios of the
medians (engine / OpenSpiel; fast path / OpenSpiel, target >= 1.5).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from controller.games.oh_pshaw.engine import OhPshaw, Options, deal
from controller.games.oh_pshaw.fast import FastRound, deal_round, random_playout

CONFIGS: tuple[tuple[int, int], ...] = ((3, 5), (4, 7), (4, 12), (5, 10), (6, 8), (7, 7))


def our_playout_factory(players: int, hand_size: int) -> Callable[[random.Random], None]:
    options = Options.read(
        {"options": {"schedule": [hand_size], "hook": True, "scoring": "mild"}}, players
    )

    def playout(rng: random.Random) -> None:
        engine = OhPshaw(players, rng.randrange(players), options)
        for action in deal(engine, rng):
            engine.apply(action)
        first = engine.round
        while first.scores is None:
            expected = engine.expected
            assert expected is not None
            engine.apply(rng.choice(engine.legal_actions(expected.seat)))

    return playout


def fast_playout_factory(players: int, hand_size: int) -> Callable[[random.Random], None]:
    """The bots' fast path: an integer deal and ``random_playout`` (no events, no checks)."""
    turns_card = players * hand_size < 52

    def playout(rng: random.Random) -> None:
        dealer = rng.randrange(players)
        hands, turned = deal_round(players, dealer, hand_size, turns_card, rng)
        trump = None if turned is None else turned // 13
        random_playout(FastRound(players, dealer, hands, trump, hook=True, mild=True), rng)

    return playout


def openspiel_playout_factory(players: int, hand_size: int) -> Callable[[random.Random], None]:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game(
        "oh_hell",
        {
            "players": players,
            "num_tricks_fixed": hand_size,
            "off_bid_penalty": False,
            "points_per_trick": 1,
        },
    )

    def playout(rng: random.Random) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))

    return playout


def rates(
    playout: Callable[[random.Random], None], batches: int, size: int, seed: int
) -> list[float]:
    """Playouts per second of each timed batch (after one warm-up batch)."""
    rng = random.Random(seed)
    for _ in range(size):
        playout(rng)
    out: list[float] = []
    for _ in range(batches):
        start = CLOCK[0]()
        for _ in range(size):
            playout(rng)
        out.append(size / (CLOCK[0]() - start))
    return out


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    deciles = statistics.quantiles(ordered, n=10) if len(ordered) > 1 else ordered * 9
    return {"median": statistics.median(ordered), "p10": deciles[0], "p90": deciles[-1]}


# What the figures are timed with: wall-clock time, or with --cpu the process's own CPU
# time, which other processes sharing the core do not inflate.
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--cpu", action="store_true", help="time with process CPU time (a shared machine)"
    )
    parser.add_argument("--batches", type=int, default=15, help="timed batches per engine")
    parser.add_argument("--size", type=int, default=40, help="playouts per batch")
    parser.add_argument(
        "--json", action="store_true", help="print only one JSON line of the figures"
    )
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.process_time
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open-spiel is not installed (pip install open-spiel)", file=sys.stderr)
        return 2

    clock = "CPU" if args.cpu else "wall"
    say = (lambda *a: None) if args.json else print  # --json: only the JSON line
    say(
        f"python {sys.version.split()[0]}, load {os.getloadavg()[0]:.2f}, "
        f"batches {args.batches} x {args.size} playouts, {clock} time"
    )
    header = (
        f"{'players':>7} {'hand':>4} | {'engine':>7} {'p10':>6} {'p90':>6} | "
        f"{'fast':>7} {'p10':>6} {'p90':>6} | {'OS med':>7} {'p10':>6} {'p90':>6} | "
        f"{'eng/OS':>6} {'fast/OS':>7}"
    )
    say(header)
    say("-" * len(header))
    ratios: list[float] = []
    fast_ratios: list[float] = []
    for players, hand_size in CONFIGS:
        ours = summary(rates(our_playout_factory(players, hand_size), args.batches, args.size, 1))
        fast = summary(
            rates(fast_playout_factory(players, hand_size), args.batches, args.size * 10, 1)
        )
        theirs: dict[str, Any] = summary(
            rates(openspiel_playout_factory(players, hand_size), args.batches, args.size * 4, 1)
        )
        ratio = ours["median"] / theirs["median"]
        fast_ratio = fast["median"] / theirs["median"]
        ratios.append(ratio)
        fast_ratios.append(fast_ratio)
        say(
            f"{players:>7} {hand_size:>4} | {ours['median']:>7.0f} {ours['p10']:>6.0f} "
            f"{ours['p90']:>6.0f} | {fast['median']:>7.0f} {fast['p10']:>6.0f} "
            f"{fast['p90']:>6.0f} | {theirs['median']:>7.0f} {theirs['p10']:>6.0f} "
            f"{theirs['p90']:>6.0f} | {ratio:>6.2f} {fast_ratio:>7.2f}"
        )
    if args.json:
        print(
            json.dumps(
                {
                    "engine/openspiel": statistics.median(ratios),
                    "fast/openspiel": statistics.median(fast_ratios),
                    "fast/openspiel min": min(fast_ratios),
                    "fast/openspiel max": max(fast_ratios),
                }
            )
        )
        return 0
    print(f"median ratio engine / OpenSpiel: {statistics.median(ratios):.2f}")
    print(
        f"median ratio fast path / OpenSpiel: {statistics.median(fast_ratios):.2f}; target >= 1.5"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
