"""What the determinized search bots share: their budget, deals, clock and fallback.

``OhPshawSearchBot`` and ``OshakaSearchBot`` differ in how they search; how
much they may think (``samples`` deals, at most ``budget`` seconds by
``clock``) and the heuristic bot they fall back on are the same here, and the
table's simulator scales ``budget`` through this one type.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from controller.games.base import Action

Fallback = TypeVar("Fallback")


class SearchBot(Generic[Fallback]):
    """A bot that searches ``samples`` deals per decision within ``budget`` seconds."""

    def __init__(
        self,
        rng: random.Random | None,
        *,
        fallback: Callable[[random.Random], Fallback],
        budget: float,
        samples: int,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.rng = rng or random.Random(0)
        self.budget = budget
        self.samples = samples
        self.clock = clock
        self.fallback = fallback(self.rng)
        self.last_samples = 0  # deals searched for the last decision (for benchmarks)

    def legal_and_deadline(self, engine: Any, seat: int) -> tuple[list[Action], float]:
        """The seat's legal actions (refusing a seat with none) and when thinking must stop."""
        deadline = self.clock() + self.budget
        legal: list[Action] = engine.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        return legal, deadline
