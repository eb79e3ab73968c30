"""Oh Pshaw's options: declared once, with their limits, and resolved for the players.

``OPTIONS`` is the one declaration (the spec lists it for the menu and the
options screen); ``Chosen`` is a header's options as the generic parser
(``controller.games.options``) checks them, and ``Options`` what the engine
plays with: the schedule's names resolved to hand sizes and ``max_hand``
resolved against the players and the deck. See the engine's docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from controller.games.base import JSON, BadOption, describe
from controller.games.oh_pshaw.cards import DECK_SIZE, WIZARD_DECK_SIZE
from controller.games.oh_pshaw.identity import GAME_ID
from controller.games.options import GameOptions, OptionKind, OptionSpec
from controller.games.words import Verbatim, say

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "schedule",
        say("Hand sizes"),
        OptionKind.SCHEDULE,
        "ascending",
        say("ascending 1 to the most cards; up-down 1..max..1; contract whist 7-1-7; or a list"),
        choices=("ascending", "up-down", "contract-whist"),
        choice_words={
            "ascending": say("ascending"),
            "up-down": say("up and down"),
            "contract-whist": say("contract whist"),
        },
    ),
    OptionSpec(
        "max_hand",
        say("Largest hand"),
        OptionKind.NUMBER,
        None,  # depends on the number of players; see default_max_hand
        say("the most cards dealt in a round (players x cards at most 52)"),
        low=1,  # the most: players x max_hand <= the deck, resolved in Options.read
    ),
    OptionSpec(
        "hook",
        say("The hook"),
        OptionKind.FLAG,
        False,
        say("the dealer may not make bids add up"),
    ),
    OptionSpec(
        "scoring",
        say("Scoring"),
        OptionKind.CHOICE,
        "standard",
        say("standard: 10 + bid for an exact bid; mild: 1 a trick plus 10 for an exact bid"),
        choices=("standard", "mild"),
        choice_words={"standard": say("standard"), "mild": say("mild")},
    ),
    OptionSpec(
        "round_winner_bonus",
        say("Round winner bonus"),
        OptionKind.FLAG,
        False,
        say("10 extra to the round's highest scorer(s)"),
    ),
    OptionSpec(
        "no_trump_last_round",
        say("No trump in the last round"),
        OptionKind.FLAG,
        False,
        say("the last scheduled round is played without trump"),
    ),
    OptionSpec(
        "rotating_trump",
        say("Rotating trump"),
        OptionKind.FLAG,
        False,
        say("trump by round: hearts, clubs, diamonds, spades, ...; no card is turned"),
    ),
    OptionSpec(
        "renege_penalty",
        say("Renege penalty"),
        OptionKind.NUMBER,
        0,
        say("points taken off a seat whose renege is proven, besides scoring 0 for the round"),
        low=0,  # no most: the record format sets none; the options screen offers 0..100
        step=5,
    ),
    OptionSpec(
        "wizard",
        # TRANSLATORS: the rulebook's variant "Wizard" (a card game's name).
        say("Wizard"),
        OptionKind.FLAG,
        False,
        say("adds four Wizards (always win the trick) and four Jesters (always lose): 60 cards"),
    ),
    # The rulebook: "spielen Sie eine weitere Runde mit der maximalen Blattgröße (oder
    # einer vereinbarten Tie-Break-Runde)": the largest hand, or a round agreed before.
    OptionSpec(
        "tie_break_round",
        say("Tie-break round"),
        OptionKind.CHOICE,
        "largest",
        say("after a tie, one more round with the largest hand, or the largest hand played"),
        choices=("largest", "largest-played"),
        choice_words={
            "largest": say("the largest hand"),
            "largest-played": say("the largest hand played"),
        },
    ),
    OptionSpec(
        "tie_break_hand",
        say("Agreed tie-break round"),
        OptionKind.NUMBER,
        None,  # none agreed: the tie-break round above
        say("after a tie, one more round of this many cards (instead of the largest hand)"),
        low=1,  # the most: players x cards <= the deck, checked in Options.resolve
    ),
)
CONTRACT_WHIST: tuple[int, ...] = (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)


def default_max_hand(players: int, deck_size: int = DECK_SIZE) -> int:
    """15 for 3 players, 13 for 4, else floor(51 / players) (one card left to turn).

    With the Wizard variant's 60 cards: floor(60 / players), as Wizard deals
    (20 for 3, 15 for 4, 12 for 5, 10 for 6, 8 for 7).
    """
    if deck_size != DECK_SIZE:
        return deck_size // players
    return {3: 15, 4: 13}.get(players, 51 // players)


@dataclass(frozen=True)
class Chosen(GameOptions):
    """A header's options, checked against ``OPTIONS`` and with their defaults (not resolved)."""

    declared: ClassVar[tuple[OptionSpec, ...]] = OPTIONS

    schedule: str | tuple[Any, ...]  # a name, or hand sizes that ``Options.read`` checks
    max_hand: int | None  # None: the default for the players
    hook: bool
    scoring: str
    round_winner_bonus: bool
    no_trump_last_round: bool
    rotating_trump: bool
    renege_penalty: int
    wizard: bool
    tie_break_round: str
    tie_break_hand: int | None  # None: no agreed size, ``tie_break_round`` decides


@dataclass(frozen=True)
class Options:
    """The options the engine plays with: the header's, checked and resolved for the players."""

    chosen: Chosen  # as the header gave them (the header is written back from these)
    schedule: tuple[int, ...]
    schedule_name: str | list[int]
    max_hand: int
    tie_break_hand: int  # the cards of a tie-break round (see ``tie_break_size``)

    # The choices that need no resolving are read from ``chosen``, not copied beside it.
    @property
    def hook(self) -> bool:
        return self.chosen.hook

    @property
    def scoring(self) -> str:
        return self.chosen.scoring

    @property
    def round_winner_bonus(self) -> bool:
        return self.chosen.round_winner_bonus

    @property
    def no_trump_last_round(self) -> bool:
        return self.chosen.no_trump_last_round

    @property
    def rotating_trump(self) -> bool:
        return self.chosen.rotating_trump

    @property
    def renege_penalty(self) -> int:
        return self.chosen.renege_penalty

    @property
    def wizard(self) -> bool:
        return self.chosen.wizard

    @classmethod
    def read(cls, header: Mapping[str, Any], players: int) -> Options:
        """Read ``options`` from a header; BadOption on an unknown key or a bad value."""
        return cls.resolve(Chosen.read(header, GAME_ID), players)

    @classmethod
    def resolve(cls, chosen: Chosen, players: int) -> Options:
        """The chosen options for ``players``: the largest hand and the schedule's hand sizes."""
        deck = WIZARD_DECK_SIZE if chosen.wizard else DECK_SIZE
        max_hand = (
            chosen.max_hand if chosen.max_hand is not None else default_max_hand(players, deck)
        )
        if players * max_hand > deck:
            raise BadOption(
                say(
                    'option "max_hand" {hand} is too large: {players} players x {hand} '
                    "cards is more than the {deck} cards of the deck (at most {most})",
                    hand=max_hand,
                    players=players,
                    deck=deck,
                    most=deck // players,
                )
            )

        name: str | list[int]
        schedule: tuple[int, ...]
        if chosen.schedule == "ascending":
            schedule = tuple(range(1, max_hand + 1))
        elif chosen.schedule == "up-down":
            schedule = (*range(1, max_hand + 1), *range(max_hand - 1, 0, -1))
        elif chosen.schedule == "contract-whist":
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
        else:
            # A list (the declaration refuses any other name).
            if not chosen.schedule:
                raise BadOption(say('option "schedule" must list at least one hand size'))
            sizes: list[int] = []
            for size in chosen.schedule:
                if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= max_hand:
                    raise BadOption(
                        say(
                            'every hand size in "schedule" must be a whole number 1..{hand} '
                            "(max_hand), not {value}",
                            hand=max_hand,
                            value=Verbatim(describe(size)),
                        )
                    )
                sizes.append(size)
            schedule = tuple(sizes)
        name = chosen.schedule if isinstance(chosen.schedule, str) else list(schedule)
        tie_break_hand = tie_break_size(chosen, schedule, max_hand, players)
        return cls(
            chosen=chosen,
            schedule=schedule,
            schedule_name=name,
            max_hand=max_hand,
            tie_break_hand=tie_break_hand,
        )

    @property
    def deck_size(self) -> int:
        """The cards of the deck: 52, or 60 with the Wizard variant's eight."""
        return WIZARD_DECK_SIZE if self.wizard else DECK_SIZE

    def to_json(self) -> JSON:
        """The options as a header writes them (only what differs from the defaults)."""
        return self.chosen.changed()


def tie_break_size(chosen: Chosen, schedule: tuple[int, ...], max_hand: int, players: int) -> int:
    """The cards of a tie-break round; BadOption for an agreed size the deck cannot deal.

    By default the game's largest hand ("die maximale Blattgröße"): ``max_hand``,
    except under the contract-whist schedule, whose largest hand is 7. With
    ``tie_break_round`` "largest-played" the largest hand of the schedule; with
    ``tie_break_hand`` the agreed size ("einer vereinbarten Tie-Break-Runde").
    """
    agreed = chosen.tie_break_hand
    if agreed is not None:
        if chosen.tie_break_round != "largest":
            raise BadOption(
                say(
                    'option "tie_break_hand" agrees the tie-break round\'s size; it cannot '
                    'go with "tie_break_round" {value}',
                    value=Verbatim(describe(chosen.tie_break_round)),
                )
            )
        if agreed > max_hand:
            raise BadOption(
                say(
                    'option "tie_break_hand" {hand} is too large: with {players} players '
                    "the largest hand is {most} (max_hand)",
                    hand=agreed,
                    players=players,
                    most=max_hand,
                )
            )
        return agreed
    if chosen.tie_break_round == "largest-played" or chosen.schedule == "contract-whist":
        return max(schedule)
    return max_hand
