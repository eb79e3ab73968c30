"""The trick-taking kernel (``controller.games.common``) on its own: tricks, rules, dispatch.

The engines' own tests and ``test_trick_games_golden.py`` check the kernel as
Oshaka Trick and Oh Pshaw use it; these tests pin down its rules in small
cases a reader can check by hand, with cards written as (suit, rank) pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from operator import itemgetter
from typing import NoReturn

import pytest

from controller.games.base import Action, Event
from controller.games.common.dispatch import by_phase, on, phase_table
from controller.games.common.tricks import (
    RegisterHand,
    Trick,
    TrickRules,
    TrickWin,
    TrickWon,
    WinRule,
)

PairCard = tuple[str, int]
HIGHEST: TrickRules[PairCard, str] = TrickRules(itemgetter(0), itemgetter(1), WinRule.HIGHEST)
LOWEST: TrickRules[PairCard, str] = TrickRules(itemgetter(0), itemgetter(1), WinRule.LOWEST)


def trick(
    rules: TrickRules[PairCard, str], *cards: PairCard, lead: int = 0
) -> Trick[PairCard, str]:
    """A trick of ``cards`` played in turn from seat ``lead`` of four."""
    out = Trick(rules, lead)
    for i, card in enumerate(cards):
        out.add((lead + i) % 4, card)
    return out


def test_highest_of_the_led_suit_wins_and_an_off_suit_card_never_does() -> None:
    won = trick(HIGHEST, ("H", 5), ("S", 14), ("H", 9), ("H", 2)).winner(trump="C")
    assert won == (2, ("H", 9), TrickWin.HIGHEST_LED)


def test_the_highest_trump_wins_over_the_led_suit() -> None:
    won = trick(HIGHEST, ("H", 5), ("C", 2), ("H", 14), ("C", 3), lead=1).winner(trump="C")
    assert won == (0, ("C", 3), TrickWin.HIGHEST_TRUMP)


def test_a_trump_led_wins_as_the_led_suit() -> None:
    won = trick(HIGHEST, ("C", 5), ("C", 9), ("H", 14)).winner(trump="C")
    assert won == (1, ("C", 9), TrickWin.HIGHEST_LED)


def test_lowest_every_card_of_the_led_suit() -> None:
    won = trick(LOWEST, ("R", 7), ("R", 3), ("R", 9)).winner()
    assert won == (1, ("R", 3), TrickWin.LOWEST_ALL_LED)


def test_lowest_off_the_led_suit_wins_even_over_a_lower_led_card() -> None:
    won = trick(LOWEST, ("R", 7), ("R", 1), ("B", 9), ("G", 4)).winner()
    assert won == (3, ("G", 4), TrickWin.LOWEST_OFF_LEAD)


def test_lowest_equal_ranks_off_the_led_suit_go_to_the_later_player() -> None:
    won = trick(LOWEST, ("R", 7), ("B", 4), ("G", 4), ("Y", 5), lead=2).winner()
    assert won == (0, ("G", 4), TrickWin.LOWEST_OFF_LEAD)


def test_must_follow_while_holding_the_led_suit() -> None:
    empty = Trick(HIGHEST, 0)
    hand: list[PairCard] = [("H", 3), ("S", 4)]
    assert empty.follows(("S", 4), hand) and empty.playable(hand) is hand
    led = trick(HIGHEST, ("H", 9))
    assert led.led == "H"
    assert led.follows(("H", 3), hand) and not led.follows(("S", 4), hand)
    assert list(led.playable(hand)) == [("H", 3)]
    void: list[PairCard] = [("S", 4), ("D", 2)]
    assert led.follows(("D", 2), void) and led.playable(void) is void


def test_unfollowed_names_the_card_a_seat_played_off_the_suit_led() -> None:
    played = trick(HIGHEST, ("H", 9), ("S", 4), ("H", 2), lead=1)
    assert played.unfollowed(2) == ("S", 4)
    assert played.unfollowed(1) is None  # it led
    assert played.unfollowed(3) is None  # it followed
    assert played.unfollowed(0) is None  # it has not played
    assert Trick(HIGHEST, 0).unfollowed(0) is None


def test_a_trick_reads_as_its_plays_and_a_probe_leaves_it_alone() -> None:
    played = trick(HIGHEST, ("H", 9), ("H", 10), lead=3)
    assert list(played) == [(3, ("H", 9)), (0, ("H", 10))] and len(played) == 2 and played
    assert not Trick(HIGHEST, 0)
    probe = played.with_play(1, ("H", 12))
    assert probe.winner()[0] == 1 and len(played) == 2 and probe.led == "H"


def test_the_shared_events_and_the_hand_action_speak_the_record() -> None:
    assert RegisterHand(2, ("QH", "TS")).to_json() == {"seat": 2, "hand": ["QH", "TS"]}
    assert TrickWon(1, 3, ((0, "2H"), (1, "3H"))).reason is None


# --- the phase tables ----------------------------------------------------------------


class Phase(Enum):
    ONE = "one"
    TWO = "two"
    OVER = "over"


@dataclass(frozen=True)
class Go(Action):
    pass


@dataclass(frozen=True)
class Stop(Action):
    pass


@dataclass(frozen=True)
class Other(Action):
    pass


@dataclass(frozen=True)
class Said(Event):
    what: str


class Machine:
    """A toy engine: ``Go`` in phase one moves to two, ``Stop`` in two ends it."""

    def __init__(self) -> None:
        self.phase = Phase.ONE

    def go(self, action: Go) -> list[Event]:
        self.phase = Phase.TWO
        return [Said("went")]

    def stop(self, action: Stop) -> list[Event]:
        self.phase = Phase.OVER
        return [Said("stopped")]

    def not_now(self, action: Action) -> list[Event]:
        return [Said(f"not now: {type(action).__name__}")]

    def over(self, action: Action) -> NoReturn:
        raise ValueError("over")

    def unknown(self, action: Action) -> list[Event]:
        return [Said("unknown")]

    TABLE = phase_table(
        Phase,
        {Phase.ONE: (on(Go, go),), Phase.TWO: (on(Stop, stop),), Phase.OVER: ()},
        shared=(on(Go, not_now), on(Stop, not_now)),
        otherwise={Phase.OVER: over},
        unknown=unknown,
    )

    def apply(self, action: Action) -> list[Event]:
        return self.TABLE[self.phase][type(action)](self, action)


def test_a_phase_table_routes_by_phase_and_kind_with_refusals_and_an_end() -> None:
    machine = Machine()
    assert machine.apply(Stop(0)) == [Said("not now: Stop")]
    assert machine.apply(Other(0)) == [Said("unknown")]
    assert machine.apply(Go(0)) == [Said("went")]
    assert machine.apply(Go(0)) == [Said("not now: Go")]
    assert machine.apply(Stop(0)) == [Said("stopped")]
    with pytest.raises(ValueError, match="over"):
        machine.apply(Other(0))


def test_a_phase_table_must_name_every_phase() -> None:
    with pytest.raises(ValueError, match="TWO"):
        phase_table(Phase, {Phase.ONE: (), Phase.OVER: ()}, unknown=Machine.unknown)
    with pytest.raises(ValueError, match="OVER"):
        by_phase(Phase, {Phase.ONE: 1, Phase.TWO: 2})
    assert by_phase(Phase, {p: p.value for p in Phase})[Phase.TWO] == "two"
