"""How strong and how quick the search bots are: duplicate matches and decision times.

Duplicate match: every deal is played twice on the real engine, the search bot
in seats 0 and 2 and the heuristic bot in 1 and 3, then with the seats swapped,
so both kinds of bot hold the same cards. A deal's figure is the search bots'
mean round score minus the heuristic bots', over both plays; the match reports
the mean over all deals with a 95 % confidence interval (normal approximation).
"Oh Pshaw Wizard" is the same match with the ``wizard`` option (60 cards, hands
of 3 to 15, the variant's largest with 4 seats); its decision times are
"oh-pshaw-wizard".

Oskar: whole games, in tokens per seat and round: the expected-token rerolls
against the old rule (reroll the dice whose genre no other seat shows), and
with ``--oskar-search-games`` the search bot (``OskarSearchBot``, its card play
searched, its dice as ``OskarBot``'s) against ``OskarBot``.

Decision time: the search bot's wall-clock time per decision at a given
budget (default 0.3 s), p50 / p99 / max; the target is p99 <= budget + 20 ms.

Run:  .venv/bin/python benchmarks/bots.py [--deals 2000] [--samples 12] [--timing 200]
      .venv/bin/python benchmarks/bots.py --deals 0 --oskar-games 0 --timing 0 \
          --oskar-search-games 500 [--oskar-first-game 1]
      taskset -c 0 .venv/bin/python benchmarks/bots.py   (pinned to one core)
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
from collections.abc import Callable
from typing import Any, Protocol

from controller.games.base import Action, Chance
from controller.games.oh_pshaw.bots import OhPshawBot
from controller.games.oh_pshaw.engine import OhPshaw, Options, deal
from controller.games.oh_pshaw.search import OhPshawSearchBot
from controller.games.oshaka_trick.bots import OshakaBot
from controller.games.oshaka_trick.engine import OshakaTrick, hand_registrations
from controller.games.oshaka_trick.engine import Phase as OshakaPhase
from controller.games.oshaka_trick.engine import deal as deal_oshaka
from controller.games.oshaka_trick.search import OshakaSearchBot
from controller.games.oskar.bots import OskarBot
from controller.games.oskar.engine import Oskar, reroll_action
from controller.games.oskar.search import DEFAULT_SAMPLES as OSKAR_SAMPLES
from controller.games.oskar.search import OskarSearchBot


class AnyBot(Protocol):
    def choose(self, engine: Any, seat: int) -> Action: ...


BotMaker = Callable[[random.Random], AnyBot]


def oh_pshaw_deal(seed: int, wizard: bool = False) -> tuple[OhPshaw, list[Action]]:
    """A fresh one-round game of 4 seats and its dealt actions, all from ``seed``;
    ``wizard``: the Wizard variant, hands up to its largest (15)."""
    rng = random.Random(seed)
    size = rng.randint(3, 15 if wizard else 10)
    chosen = {"schedule": [size], "hook": True, **({"wizard": True} if wizard else {})}
    options = Options.read({"options": chosen}, 4)
    engine = OhPshaw(4, rng.randrange(4), options)
    return engine, deal(engine, rng)


def play_oh_pshaw_wizard(seed: int, makers: list[BotMaker]) -> list[int]:
    """``play_oh_pshaw`` with the Wizard variant."""
    return play_oh_pshaw(seed, makers, wizard=True)


def play_oh_pshaw(seed: int, makers: list[BotMaker], wizard: bool = False) -> list[int]:
    engine, dealt = oh_pshaw_deal(seed, wizard)
    for action in dealt:
        engine.apply(action)
    bots = [make(random.Random(seed * 10 + s)) for s, make in enumerate(makers)]
    first = engine.round
    while first.scores is None:
        expected = engine.expected
        assert expected is not None
        engine.apply(bots[expected.seat].choose(engine, expected.seat))
    return list(first.scores)


def play_oshaka(seed: int, makers: list[BotMaker]) -> list[int]:
    """Round 1 of a 4-seat Oshaka Trick game dealt from ``seed``; its round scores."""
    rng = random.Random(seed)
    engine = OshakaTrick(4, rng.randrange(4))
    for action in hand_registrations(deal_oshaka(4, rng)):
        engine.apply(action)
    bots = [make(random.Random(seed * 10 + s)) for s, make in enumerate(makers)]
    while engine.phase in (OshakaPhase.PLAY, OshakaPhase.PLACE):
        expected = engine.expected
        assert expected is not None
        engine.apply(bots[expected.seat].choose(engine, expected.seat))
    return [area.score() for area in engine.finished_rounds[0].areas]


class GenreRerollBot(OskarBot):
    """The Oskar bot as it rerolled before expected tokens: dice whose genre nobody shows."""

    def doubles_choice(self, engine: Oskar, seat: int) -> Action | None:
        faces = engine.dice[seat]
        if engine.doubles != seat or faces is None or faces[0] in self._others_show(engine, seat):
            return None
        return reroll_action(self.rng, seat, faces, [1])

    def _reroll(self, engine: Oskar, seat: int) -> Action:
        faces = engine.dice[seat]
        assert faces is not None
        allowed = engine.reroll_allowance(seat)
        most = max(allowed)
        if min(allowed) == 2:
            return reroll_action(self.rng, seat, faces, [0, 1])
        shown = self._others_show(engine, seat)
        bad = [i for i in (0, 1) if faces[i] not in shown]
        if faces[0] == faces[1] and len(bad) == 2:
            bad = [1] if most == 1 else bad
        return reroll_action(self.rng, seat, faces, bad[:most])


def play_oskar(seed: int, makers: list[BotMaker]) -> list[int]:
    """A whole 4-seat Oskar game dealt and rolled from ``seed``; tokens per round, x100."""
    rng = random.Random(seed)
    engine = Oskar(4, rng.randrange(4))
    bots = [make(random.Random(seed * 10 + s)) for s, make in enumerate(makers)]
    chance = Chance(cards=True, dice=False)  # the bots roll their own dice
    while engine.expected is not None:
        for action in engine.chance_actions(rng, chance):
            engine.apply(action)
        seat = engine.decides
        if seat is None:
            break
        engine.apply(bots[seat].choose(engine, seat))
    # Per round, so that games of different lengths weigh the same.
    return [round(100 * t / len(engine.results)) for t in engine.tokens]


def duplicate(
    play: Callable[[int, list[BotMaker]], list[int]],
    new: BotMaker,
    old: BotMaker,
    deals: int,
    first_seed: int,
    diffs: list[float] | None = None,
) -> tuple[float, float, int]:
    """Mean (new - old) score per seat and round, its 95 % half-width, and the deals played;
    ``diffs``, when given, receives each deal's figure (for the deals won and lost)."""
    diffs = [] if diffs is None else diffs
    for d in range(deals):
        seed = first_seed + d
        a = play(seed, [new, old, new, old])
        b = play(seed, [old, new, old, new])
        new_total = a[0] + a[2] + b[1] + b[3]
        old_total = a[1] + a[3] + b[0] + b[2]
        diffs.append((new_total - old_total) / 4)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return mean, half, len(diffs)


def decision_times(game: str, budget: float, decisions: int, seed: int) -> list[float]:
    """Seconds per decision of seat 0's search bot (default samples, ``budget``) in real games."""
    times: list[float] = []
    d = 0
    while len(times) < decisions:
        d += 1
        rng = random.Random(seed + d)
        engine: Any
        if game.startswith("oh-pshaw"):
            engine, dealt = oh_pshaw_deal(seed + d, wizard=game == "oh-pshaw-wizard")
            bot: AnyBot = OhPshawSearchBot(random.Random(d), budget=budget)
            others: AnyBot = OhPshawBot(random.Random(d))
        else:
            engine = OshakaTrick(4, rng.randrange(4))
            dealt = hand_registrations(deal_oshaka(4, rng))
            bot, others = OshakaSearchBot(random.Random(d), budget=budget), OshakaBot(rng)
        for action in dealt:
            engine.apply(action)
        while len(times) < decisions:
            expected = engine.expected
            if expected is None or expected.expects not in ("bid", "play", "place", "trump_suit"):
                break
            if expected.seat == 0 and expected.expects != "trump_suit":  # (the heuristic's)
                start = time.perf_counter()
                action = bot.choose(engine, 0)
                times.append(time.perf_counter() - start)
            else:
                action = others.choose(engine, expected.seat)
            engine.apply(action)
    return times


def oskar_decision_times(budget: float, decisions: int, seed: int) -> list[float]:
    """Seconds per card played by seat 0's ``OskarSearchBot`` (default samples, ``budget``)
    in whole 4-seat games against ``OskarBot`` (its dice decisions are not timed)."""
    times: list[float] = []
    d = 0
    chance = Chance(cards=True, dice=False)
    while len(times) < decisions:
        d += 1
        rng = random.Random(seed + d)
        engine = Oskar(4, rng.randrange(4))
        bot = OskarSearchBot(random.Random(d), budget=budget)
        others = OskarBot(random.Random(d))
        while engine.expected is not None and len(times) < decisions:
            for action in engine.chance_actions(rng, chance):
                engine.apply(action)
            seat = engine.decides
            if seat is None:
                break
            if seat != 0:
                engine.apply(others.choose(engine, seat))
                continue
            playing = engine.expected is not None and engine.expected.expects == "play"
            start = time.perf_counter()
            action = bot.choose(engine, 0)
            if playing and engine.doubles is None:
                times.append(time.perf_counter() - start)
            engine.apply(action)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=2000, help="deals per duplicate match")
    parser.add_argument(
        "--samples", type=int, default=12, help="deals the search bot searches per decision"
    )
    parser.add_argument(
        "--oshaka-samples", type=int, default=8, help="the same for the Oshaka Trick bot"
    )
    parser.add_argument("--oskar-games", type=int, default=200, help="games per Oskar match")
    parser.add_argument(
        "--oskar-search-games", type=int, default=0, help="games of Oskar search vs heuristic"
    )
    parser.add_argument("--oskar-samples", type=int, default=OSKAR_SAMPLES)
    parser.add_argument("--oskar-first-game", type=int, default=1, help="its first game's seed")
    parser.add_argument("--only", default="", help="run only the matches whose name has this")
    parser.add_argument("--timing", type=int, default=200, help="decisions timed")
    parser.add_argument("--budget", type=float, default=0.3, help="think budget, seconds")
    parser.add_argument(
        "--json", action="store_true", help="print only one JSON line of the figures"
    )
    args = parser.parse_args(argv)
    # --json: the figures by name (a match's mean, CI half-width, deals and seconds; the
    # decision times in ms), printed as one line at the end instead of the sentences.
    figures: dict[str, float] = {}
    say = (lambda *_: None) if args.json else print
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    say(f"python {sys.version.split()[0]}, cpus {cpus}, load {os.getloadavg()[0]:.2f}")

    def search(rng: random.Random) -> AnyBot:
        return OhPshawSearchBot(rng, budget=10.0, samples=args.samples)

    def oshaka_search(rng: random.Random) -> AnyBot:
        return OshakaSearchBot(rng, budget=10.0, samples=args.oshaka_samples)

    matches: list[tuple[str, Callable[[int, list[BotMaker]], list[int]], BotMaker, BotMaker, int]]
    matches = [
        ("Oh Pshaw", play_oh_pshaw, search, OhPshawBot, args.samples),
        ("Oh Pshaw Wizard", play_oh_pshaw_wizard, search, OhPshawBot, args.samples),
        ("Oshaka Trick", play_oshaka, oshaka_search, OshakaBot, args.oshaka_samples),
    ]
    for name, play, new, old, samples in matches:
        if args.deals <= 0 or (args.only and args.only not in name.lower()):
            continue
        start = time.perf_counter()
        diffs: list[float] = []
        mean, half, n = duplicate(play, new, old, args.deals, 1, diffs)
        seconds = time.perf_counter() - start
        key = name.lower().replace(" ", "-")
        # A deal is won when the search bots' seats scored more than the heuristic's over
        # both plays (the normal approximation for the share's 95 % half-width).
        won = sum(1 for d in diffs if d > 0) / n
        lost = sum(1 for d in diffs if d < 0) / n
        won_half = 1.96 * math.sqrt(won * (1 - won) / n)
        figures.update(
            {
                f"{key} mean": mean,
                f"{key} half": half,
                f"{key} deals": n,
                f"{key} s": seconds,
                f"{key} won": won,
                f"{key} won half": won_half,
                f"{key} lost": lost,
            }
        )
        say(
            f"{name} duplicate, search ({samples} deals/decision) vs heuristic, {n} deals: "
            f"{mean:+.3f} points per seat and round, "
            f"95 % CI [{mean - half:+.3f}, {mean + half:+.3f}]; "
            f"search won {won:.1%} of the deals (95 % CI {won - won_half:.1%}-"
            f"{won + won_half:.1%}), lost {lost:.1%}, the rest level "
            f"({seconds:.0f} s)"
        )
    if args.oskar_games > 0 and (not args.only or args.only in "oskar"):
        start = time.perf_counter()
        mean, half, n = duplicate(play_oskar, OskarBot, GenreRerollBot, args.oskar_games, 1)
        seconds = time.perf_counter() - start
        figures.update(
            {
                "oskar mean": mean / 100,
                "oskar half": half / 100,
                "oskar games": n,
                "oskar s": seconds,
            }
        )
        say(
            f"Oskar duplicate, expected-token rerolls vs genre rerolls, {n} games: "
            f"{mean / 100:+.3f} tokens per seat and round, "
            f"95 % CI [{(mean - half) / 100:+.3f}, {(mean + half) / 100:+.3f}] "
            f"({seconds:.0f} s)"
        )
    if args.oskar_search_games > 0 and (not args.only or args.only in "oskar search"):

        def oskar_search(rng: random.Random) -> AnyBot:
            return OskarSearchBot(rng, budget=10.0, samples=args.oskar_samples)

        start = time.perf_counter()
        mean, half, n = duplicate(
            play_oskar, oskar_search, OskarBot, args.oskar_search_games, args.oskar_first_game
        )
        seconds = time.perf_counter() - start
        figures.update(
            {
                "oskar search mean": mean / 100,
                "oskar search half": half / 100,
                "oskar search games": n,
                "oskar search s": seconds,
            }
        )
        last = args.oskar_first_game + n - 1
        say(
            f"Oskar duplicate, search ({args.oskar_samples} deals/decision) vs heuristic, "
            f"games {args.oskar_first_game}-{last}: {mean / 100:+.3f} tokens per seat and "
            f"round, 95 % CI [{(mean - half) / 100:+.3f}, {(mean + half) / 100:+.3f}] "
            f"({seconds:.0f} s)"
        )
    for game in ("oh-pshaw", "oh-pshaw-wizard", "oshaka-trick", "oskar"):
        if args.timing <= 0 or (args.only and args.only not in game):
            continue
        if game == "oskar":
            times = oskar_decision_times(args.budget, args.timing, 10_000)
        else:
            times = decision_times(game, args.budget, args.timing, 10_000)
        figures[f"{game} decision p50 ms"] = percentile(times, 0.5) * 1000
        figures[f"{game} decision p99 ms"] = percentile(times, 0.99) * 1000
        figures[f"{game} decision max ms"] = max(times) * 1000
        say(
            f"{game} search decision time at budget {args.budget * 1000:.0f} ms, "
            f"{len(times)} decisions: p50 {percentile(times, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(times, 0.99) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
            f"(target p99 <= {args.budget * 1000 + 20:.0f} ms)"
        )
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
