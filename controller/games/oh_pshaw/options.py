"""Oh Pshaw's options: the header's ``options`` checked, with their limits, and resolved.

The schedule of hand sizes (``ascending``, ``up-down``, ``contract-whist`` or a
list), ``max_hand``, the ``hook``, ``standard`` or ``mild`` scoring, the round
winner bonus, trump rules and the renege penalty; see the engine's docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.games.base import JSON, BadOption, describe, read_options
from controller.games.oh_pshaw.cards import DECK_SIZE
from controller.games.oh_pshaw.state import GAME_ID
from controller.games.words import Verbatim, say

OPTION_DEFAULTS: Mapping[str, object] = {
    "schedule": "ascending",
    "max_hand": None,  # depends on the number of players; see default_max_hand
    "hook": False,
    "scoring": "standard",
    "round_winner_bonus": False,
    "no_trump_last_round": False,
    "rotating_trump": False,
    "renege_penalty": 0,
}
CONTRACT_WHIST: tuple[int, ...] = (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)


def default_max_hand(players: int) -> int:
    """15 for 3 players, 13 for 4, else floor(51 / players) (one card left to turn)."""
    return {3: 15, 4: 13}.get(players, 51 // players)


@dataclass(frozen=True)
class Options:
    """The game options of the spec's table, checked and resolved."""

    schedule: tuple[int, ...]
    schedule_name: str | list[int]
    max_hand: int
    max_hand_given: bool
    hook: bool
    scoring: str
    round_winner_bonus: bool
    no_trump_last_round: bool
    rotating_trump: bool
    renege_penalty: int

    @classmethod
    def read(cls, header: Mapping[str, Any], players: int) -> Options:
        """Read ``options`` from a header; BadOption on an unknown key or a bad value."""
        raw = read_options(header, OPTION_DEFAULTS, GAME_ID)

        def flag(key: str) -> bool:
            value = raw.get(key, False)
            if not isinstance(value, bool):
                raise BadOption(
                    say(
                        'option "{option}" must be true or false, not {value}',
                        option=Verbatim(key),
                        value=Verbatim(describe(value)),
                    )
                )
            return value

        max_given = raw.get("max_hand") is not None
        max_hand = raw.get("max_hand", None)
        if max_hand is None:
            max_hand = default_max_hand(players)
        elif isinstance(max_hand, bool) or not isinstance(max_hand, int) or max_hand < 1:
            raise BadOption(
                say(
                    'option "max_hand" must be a whole number from 1, not {value}',
                    value=Verbatim(describe(max_hand)),
                )
            )
        if players * max_hand > DECK_SIZE:
            raise BadOption(
                say(
                    'option "max_hand" {hand} is too large: {players} players x {hand} '
                    "cards is more than the {deck} cards of the deck (at most {most})",
                    hand=max_hand,
                    players=players,
                    deck=DECK_SIZE,
                    most=DECK_SIZE // players,
                )
            )

        name = raw.get("schedule", "ascending")
        schedule: tuple[int, ...]
        if name == "ascending":
            schedule = tuple(range(1, max_hand + 1))
        elif name == "up-down":
            schedule = (*range(1, max_hand + 1), *range(max_hand - 1, 0, -1))
        elif name == "contract-whist":
            if max_hand < 7:
                raise BadOption(
                    say(
                        'the "contract-whist" schedule needs hands of 7 cards; with {players} '
                        "players the largest hand is {hand}",
                        players=players,
                        hand=max_hand,
                    )
                )
            schedule = CONTRACT_WHIST
        elif isinstance(name, list):
            if not name:
                raise BadOption(say('option "schedule" must list at least one hand size'))
            for size in name:
                if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= max_hand:
                    raise BadOption(
                        say(
                            'every hand size in "schedule" must be a whole number 1..{hand} '
                            "(max_hand), not {value}",
                            hand=max_hand,
                            value=Verbatim(describe(size)),
                        )
                    )
            schedule = tuple(name)
            name = list(name)
        else:
            raise BadOption(
                say(
                    'option "schedule" must be "ascending", "up-down", "contract-whist" or a list '
                    "of hand sizes, not {value}",
                    value=Verbatim(describe(name)),
                )
            )

        scoring = raw.get("scoring", "standard")
        if scoring not in ("standard", "mild"):
            raise BadOption(
                say(
                    'option "scoring" must be "standard" or "mild", not {value}',
                    value=Verbatim(describe(scoring)),
                )
            )
        penalty = raw.get("renege_penalty", 0)
        if isinstance(penalty, bool) or not isinstance(penalty, int) or penalty < 0:
            raise BadOption(
                say(
                    'option "renege_penalty" must be a whole number from 0, not {value}',
                    value=Verbatim(describe(penalty)),
                )
            )
        return cls(
            schedule=schedule,
            schedule_name=name,
            max_hand=max_hand,
            max_hand_given=max_given,
            hook=flag("hook"),
            scoring=str(scoring),
            round_winner_bonus=flag("round_winner_bonus"),
            no_trump_last_round=flag("no_trump_last_round"),
            rotating_trump=flag("rotating_trump"),
            renege_penalty=penalty,
        )

    @property
    def tie_break_hand(self) -> int:
        """The cards of a tie-break round: the game's largest hand ("die maximale Blattgröße").

        ``max_hand``, except under the contract-whist schedule, whose largest hand is 7.
        """
        return max(self.schedule) if self.schedule_name == "contract-whist" else self.max_hand

    def to_json(self) -> JSON:
        """The options as a header writes them (only what differs from the defaults)."""
        out: JSON = {}
        if self.schedule_name != "ascending":
            out["schedule"] = self.schedule_name
        if self.max_hand_given:
            out["max_hand"] = self.max_hand
        for key in ("hook", "round_winner_bonus", "no_trump_last_round", "rotating_trump"):
            if getattr(self, key):
                out[key] = True
        if self.scoring != "standard":
            out["scoring"] = self.scoring
        if self.renege_penalty:
            out["renege_penalty"] = self.renege_penalty
        return out
