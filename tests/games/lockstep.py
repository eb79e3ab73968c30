"""A trick game's fast playout path and its engine, played side by side on the same choices.

Each game's fast-path test checks the same things: at every step the same seat to
act and the same legal actions; once, mid-round, a ``FastRound`` rebuilt from the
engine plays on exactly as the running one does; and the inlined ``random_playout``
ends where the stepwise path ends. ``lockstep`` is that loop; each game's test says
how its engine lists and takes an action, and compares the round's scores.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, Self, TypeVar


class FastPath(Protocol):
    """What ``lockstep`` needs of a game's ``FastRound``: actions are small ints."""

    turn: int
    hands: list[list[int]]

    @property
    def over(self) -> bool: ...

    def legal(self) -> list[int]: ...

    def apply(self, action: int) -> None: ...

    def copy(self) -> Self: ...


F = TypeVar("F", bound=FastPath)


@dataclass(frozen=True)
class EngineSide(Generic[F]):
    """The engine's half of the lockstep, in the fast path's terms."""

    turn: Callable[[], int]  # the seat the engine expects next
    legal: Callable[[], list[int]]  # its legal actions, as the fast path's ints
    apply: Callable[[int], None]  # take one (a fast-path int) through the engine
    rebuild: Callable[[list[list[int]]], F]  # ``FastRound.from_engine`` with these hands


def lockstep(
    fast: F,
    engine: EngineSide[F],
    playout: Callable[[F, random.Random], list[int]],
    seed: int,
    check_at: int,
    same: Callable[[F, F], bool] = lambda rebuilt, running: True,
) -> list[int]:
    """Play ``fast`` and ``engine`` to the round's end on ``seed``'s choices, checking them
    against each other at every step and a rebuilt fast path at step ``check_at`` (also
    ``same(rebuilt, running)``); the scores ``playout`` reached from the same start."""
    inlined = playout(fast.copy(), random.Random(seed))
    choices = random.Random(seed)
    step = 0
    while not fast.over:
        assert fast.turn == engine.turn()
        legal = fast.legal()
        assert sorted(legal) == sorted(engine.legal())
        if step == check_at:
            rebuilt = engine.rebuild([list(hand) for hand in fast.hands])
            assert sorted(rebuilt.legal()) == sorted(legal)
            assert same(rebuilt, fast)
            assert playout(rebuilt, random.Random(seed + 1)) == playout(
                fast.copy(), random.Random(seed + 1)
            )
        action = choices.choice(legal)
        fast.apply(action)
        engine.apply(action)
        step += 1
    return inlined
