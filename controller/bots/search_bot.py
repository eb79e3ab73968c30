"""What the determinized search bots share: their budget, deals, clock and fallback.

``OhPshawSearchBot``, ``OshakaSearchBot`` and ``OskarSearchBot`` differ in how
they search; how much they may think (``samples`` deals, at most ``budget``
seconds by ``clock``) and how they fall back on their heuristic bot are the
same here, and the table's simulator scales ``budget`` through this one type.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from controller.games.base import Action

Fallback = TypeVar("Fallback")


class SearchBot(Generic[Fallback]):
    """A bot that searches ``samples`` deals per decision within ``budget`` seconds.

    A game's search bot names its heuristic bot (``fallback_bot``) and how many
    deals it searches at the table's default budget (``default_samples``); the
    constructor is this one.
    """

    fallback_bot: ClassVar[type]
    """The heuristic bot, built from the same ``rng``, for what the search leaves to it."""
    default_samples: ClassVar[int]
    """Deals per decision at the table's default 0.3 s budget."""

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        budget: float = 0.3,
        samples: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.rng = rng or random.Random(0)
        self.budget = budget
        self.samples = self.default_samples if samples is None else samples
        self.clock = clock
        self.fallback: Fallback = self.fallback_bot(self.rng)
        self.last_samples = 0  # deals searched for the last decision (for benchmarks)

    def legal_and_deadline(self, engine: Any, seat: int) -> tuple[list[Action], float]:
        """The seat's legal actions (refusing a seat with none) and when thinking must stop."""
        deadline = self.clock() + self.budget
        legal: list[Action] = engine.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        return legal, deadline


def sum_over_deals(
    options: int,
    samples: int,
    deal: Callable[[], Callable[[int], float]],
    in_time: Callable[[], bool] = lambda: True,
) -> tuple[list[float], int]:
    """Each of ``options`` options' values summed over up to ``samples`` deals, and the deals.

    ``deal()`` deals the next world and returns how option ``i`` scores in it;
    every deal serves every option (common random numbers), in order. After
    the first deal ``in_time`` is asked before each playout, and the search
    stops when it says no: a deal cut short does not count, so a search
    overruns its time by one playout at most.
    """
    totals = [0.0] * options
    done = 0
    while done < samples and (done == 0 or in_time()):
        value = deal()
        values: list[float] = []
        for option in range(options):
            if done and values and not in_time():
                break  # out of time mid-deal: this deal does not count
            values.append(value(option))
        if len(values) < options:
            break
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        done += 1
    return totals, done
