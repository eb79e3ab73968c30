"""Engine speed: random playouts of all four games, and the cost of resuming a long game.

Random playouts: a whole game from a fresh header, chance (deals, dice) from the
engine's ``chance_actions`` and every decision a uniformly random legal action
of the expected seat (``rng.choice(legal_actions(seat))``), all from one seeded
``random.Random``. This is what a bot's simulation or a replayed record costs.

The table path plays the same games through the game's adapter as the table
does: every event the engine answers is turned into the adapter's feedback
(messages and LED cues).

Resume: a record of N actions (random games, concatenated games of Oh Pshaw
with tie-break rounds forced by long schedules) is parsed and replayed on a
fresh engine, as the journal does on start-up. The figure is the replay time of
``--resume-actions`` actions, and the time of 10x as many, to show the cost
grows linearly (10x actions <= 11x time).

Run:  .venv/bin/python benchmarks/engines.py [--games 40] [--batches 5]
      taskset -c 0 .venv/bin/python benchmarks/engines.py   (pinned to one core)
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

from controller.adapters import new_adapter
from controller.games import spec_of
from controller.games.base import JSON, Chance, Engine
from controller.records.record import replay_actions

# Game id -> (players, options) of the measured playouts.
PLAYOUTS: dict[str, tuple[int, dict[str, Any]]] = {
    "oss": (4, {}),
    "oskar": (4, {}),
    "oh-pshaw": (4, {}),
    "oshaka-trick": (4, {}),
}


def random_game(game_id: str, players: int, options: dict[str, Any], rng: random.Random) -> Engine:
    """Play one whole game with random legal actions; returns the finished engine."""
    spec = spec_of(game_id)
    engine = spec.engine.from_header(spec.new_header(players, options, rng))
    chance = Chance()
    while True:
        dealt = engine.chance_actions(rng, chance)
        if dealt:
            for action in dealt:
                engine.apply(action)
            continue
        expected = engine.expected
        if expected is None:
            return engine
        engine.apply(rng.choice(engine.legal_actions(expected.seat)))


def table_game(game_id: str, players: int, options: dict[str, Any], rng: random.Random) -> None:
    """A random game through the table's hot path: the adapter's feedback for every event."""
    adapter = new_adapter(game_id, players, rng, options)
    engine, presentation = adapter.engine, adapter.presentation
    while True:
        dealt = adapter.chance(rng)
        if not dealt:
            expected = engine.expected
            if expected is None:
                return
            dealt = [rng.choice(engine.legal_actions(expected.seat))]
        for action in dealt:
            for event in engine.apply(action):
                presentation.feedback(event)


def recorded_game(
    game_id: str, players: int, options: dict[str, Any], rng: random.Random
) -> tuple[JSON, list[JSON]]:
    """A random game as a record: its header and its actions as JSON objects."""
    spec = spec_of(game_id)
    header = spec.new_header(players, options, rng)
    engine = spec.engine.from_header(header)
    actions: list[JSON] = []
    chance = Chance()
    while True:
        step = engine.chance_actions(rng, chance)
        if not step:
            expected = engine.expected
            if expected is None:
                return header, actions
            step = [rng.choice(engine.legal_actions(expected.seat))]
        for action in step:
            engine.apply(action)
            actions.append(action.to_json())


def playout_rates(
    game_id: str, games: int, batches: int, seed: int, play: Callable[..., object] = random_game
) -> list[float]:
    players, options = PLAYOUTS[game_id]
    rng = random.Random(seed)
    play(game_id, players, options, rng)  # warm-up
    out: list[float] = []
    for _ in range(batches):
        start = CLOCK[0]()
        for _ in range(games):
            play(game_id, players, options, rng)
        out.append(games / (CLOCK[0]() - start))
    return out


def long_record(actions_wanted: int, seed: int) -> tuple[JSON, list[JSON]]:
    """A record of at least ``actions_wanted`` actions: Oh Pshaw with a very long schedule."""
    rng = random.Random(seed)
    # Each 13-card round of 4 players is 4 hands + trump + 4 bids + 52 plays = 61 actions.
    rounds = actions_wanted // 50 + 1
    options = {"schedule": [13] * rounds, "hook": True}
    return recorded_game("oh-pshaw", 4, options, rng)


def replay_seconds(header: JSON, actions: list[JSON], count: int) -> float:
    spec = spec_of(header["game"])
    start = CLOCK[0]()
    # The table's one replay loop (a crash resume and a staff undo go through it).
    engine = replay_actions(spec.engine.from_header(header), actions[:count])
    engine.report()
    return CLOCK[0]() - start


# What the figures are timed with: wall-clock time, or with --cpu the process's own CPU
# time, which other processes sharing the core do not inflate.
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def resume_seconds(n: int) -> tuple[float, float]:
    """Median replay seconds of ``n`` actions (of 5) and of ``10 * n`` actions (of 3)."""
    header, actions = long_record(10 * n, 7)
    small = [replay_seconds(header, actions, n) for _ in range(5)]
    large = [replay_seconds(header, actions, 10 * n) for _ in range(3)]
    return statistics.median(small), statistics.median(large)


def figures(games: int, batches: int, resume_actions: int) -> dict[str, float]:
    """The printed figures as one mapping (``--json``): median playouts/s, resume ms, ratio."""
    out: dict[str, float] = {}
    for game_id in PLAYOUTS:
        out[f"{game_id} playouts/s"] = statistics.median(playout_rates(game_id, games, batches, 1))
        out[f"{game_id} table path playouts/s"] = statistics.median(
            playout_rates(game_id, games, batches, 1, table_game)
        )
    t1, t10 = resume_seconds(resume_actions)
    out["resume ms"], out["resume 10x ms"], out["resume ratio"] = t1 * 1000, t10 * 1000, t10 / t1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--cpu", action="store_true", help="time with process CPU time (a shared machine)"
    )
    parser.add_argument("--games", type=int, default=40, help="random games per timed batch")
    parser.add_argument("--batches", type=int, default=5, help="timed batches per game")
    parser.add_argument("--resume-actions", type=int, default=10_000)
    parser.add_argument(
        "--json", action="store_true", help="print only one JSON line of the figures"
    )
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.process_time
    if args.json:
        print(json.dumps(figures(args.games, args.batches, args.resume_actions)))
        return 0
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    print(
        f"python {sys.version.split()[0]}, cpus {cpus}, load {os.getloadavg()[0]:.2f}, "
        f"{args.batches} batches x {args.games} games, {'CPU' if args.cpu else 'wall'} time"
    )
    print(
        f"{'game':<13} {'players':>7} | {'engine playouts/s':>17} {'min':>6} {'max':>6} | "
        f"{'table path/s':>12} {'min':>6} {'max':>6}"
    )
    for game_id, (players, _) in PLAYOUTS.items():
        rates = playout_rates(game_id, args.games, args.batches, 1)
        table = playout_rates(game_id, args.games, args.batches, 1, table_game)
        print(
            f"{game_id:<13} {players:>7} | {statistics.median(rates):>17.0f} "
            f"{min(rates):>6.0f} {max(rates):>6.0f} | {statistics.median(table):>12.0f} "
            f"{min(table):>6.0f} {max(table):>6.0f}"
        )

    n = args.resume_actions
    t1, t10 = resume_seconds(n)
    print(
        f"resume {n} actions: {t1 * 1000:.1f} ms (median of 5); {10 * n} actions: "
        f"{t10 * 1000:.1f} ms (median of 3); ratio {t10 / t1:.2f} (linear <= 11)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
