"""Oskar's one option, declared once: how many Oskar tokens end the game.

The spec lists ``OPTIONS`` for the menu and the options screen; the engine
receives ``OskarOptions``, read from the header by the generic parser
(``controller.games.options``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from controller.games.options import GameOptions, OptionKind, OptionSpec
from controller.games.words import say

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "tokens_to_win",
        say("Oskar tokens to win"),
        OptionKind.NUMBER,
        7,
        say("the game ends after the round in which a seat reaches this many tokens"),
        low=7,
        high=8,
    ),
)


@dataclass(frozen=True)
class OskarOptions(GameOptions):
    """A header's options, checked against ``OPTIONS``, with their defaults."""

    declared: ClassVar[tuple[OptionSpec, ...]] = OPTIONS

    tokens_to_win: int
