"""Oss's options, declared once: the rounds, and how many replays a round allows and for whom.

The spec lists ``OPTIONS`` for the menu and the options screen; the engine
receives ``OssOptions``, read from the header by the generic parser
(``controller.games.options``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from controller.games.options import GameOptions, OptionKind, OptionSpec
from controller.games.oss.identity import GAME_ID
from controller.games.words import say

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "rounds",
        say("Rounds"),
        OptionKind.NUMBER,
        4,
        say("how many rounds are played"),
        low=1,
        high=4,  # the rulebook's game: four rounds
    ),
    OptionSpec(
        "replays_per_round",
        say("Replays per round"),
        OptionKind.NUMBER,
        2,
        say("how many failed tricks may be tried again each round"),
        low=0,
        high=8,
    ),
    OptionSpec(
        "replay_scope",
        say("Replays count"),
        OptionKind.CHOICE,
        "player",
        say("per player, or shared by the whole table"),
        choices=("player", "table"),
        choice_words={"player": say("per player"), "table": say("shared by the table")},
    ),
)


@dataclass(frozen=True)
class OssOptions(GameOptions):
    """A header's options, checked against ``OPTIONS``, with their defaults."""

    declared: ClassVar[tuple[OptionSpec, ...]] = OPTIONS

    rounds: int
    replays_per_round: int
    replay_scope: str  # "player" or "table"


#: The options of a header that sets none (what a snapshot missing them shows).
DEFAULTS = OssOptions.read({}, GAME_ID)
