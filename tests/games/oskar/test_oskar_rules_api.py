"""Oskar's rules the table asks the engine for instead of working them out itself.

Why a trick was won (``TrickWon.reason``) and which zero a card is
(``CardPlayed.zero``); which reroll rule binds a seat (``reroll_limit``) and why
a pick of dice is refused (``reroll_refusal``); the table's order around an open
doubles offer (``check_order``); and the dice a seat decides to roll drawn by the
engine (``roll_outcome``), exactly as the table's roller drew them before.
"""

from __future__ import annotations

import random

import pytest

from controller.adapters import AdapterContext, TableSettings
from controller.games.base import IllegalAction
from controller.games.oskar.engine import (
    GENRES,
    Card,
    CardPlayed,
    DoublesOpen,
    KeepDoubles,
    Oskar,
    Phase,
    Play,
    RegisterHand,
    Reroll,
    RerollLimit,
    RerollRefused,
    RollDice,
    RollRequest,
    TrickWon,
    WinReason,
    reroll_rule,
    roll,
    win_reason,
)
from controller.games.oskar.table import OskarAdapter
from controller.games.words import Text
from hardware.events import Button
from tests.words import shown


def cards(*texts: str) -> list[tuple[int, Card]]:
    return [(seat, Card.parse(text)) for seat, text in enumerate(texts)]


def test_win_reason_names_the_rule_by_the_zeros() -> None:
    assert win_reason(cards("Y1", "L16", "G2")) is WinReason.BEST_COLOUR
    assert win_reason(cards("Y1", "R0", "L16")) is WinReason.FIRST_ZERO
    assert win_reason(cards("R0", "L16", "R0")) is WinReason.SECOND_ZERO
    assert win_reason(cards("R0", "R0", "R0")) is WinReason.SECOND_ZERO


def rolled(players: int = 3) -> Oskar:
    engine = Oskar(players, 0)
    faces = [("horror", "comedy"), ("western", "action"), ("scifi", "romance")]
    for seat in range(players):
        engine.apply(RollDice(seat, faces[seat % 3]))
    assert engine.phase is Phase.PLAY
    return engine


def test_card_played_counts_the_zeros_even_when_the_zero_ends_the_trick() -> None:
    engine = rolled()
    lead = engine.round.turn
    seats = [(lead + i) % 3 for i in range(3)]
    first = engine.apply(Play(seats[0], Card.parse("R0")))
    assert isinstance(first[0], CardPlayed) and first[0].zero == 1
    colour = engine.apply(Play(seats[1], Card.parse("Y4")))
    assert isinstance(colour[0], CardPlayed) and colour[0].zero == 0
    last = engine.apply(Play(seats[2], Card.parse("R0")))
    # The trick is over and cleared, yet the event still says it was the second zero.
    assert isinstance(last[0], CardPlayed) and last[0].zero == 2
    won = next(e for e in last if isinstance(e, TrickWon))
    assert won.seat == seats[2] and won.reason is WinReason.SECOND_ZERO


def test_reroll_limits_are_the_rulebook_groups() -> None:
    rule = reroll_rule([30, 10, 20, 30], 0)
    assert rule.limits == (
        RerollLimit.MOST,
        RerollLimit.FEWEST,
        RerollLimit.REST,
        RerollLimit.MOST,
    )
    assert rule.allowed == (frozenset({2}), frozenset({0, 1, 2}), frozenset({0, 1}), frozenset({2}))
    refused = RerollRefused(0, 1, RerollLimit.MOST)
    assert str(refused.words) == "seat 0 must reroll both dice (most points), not reroll 1 die"


def test_doubles_limit_refusal_and_the_table_order() -> None:
    engine = Oskar(3, 0)
    engine.apply(RollDice(1, ("western", "western")))
    assert engine.reroll_limit(1) is RerollLimit.DOUBLES
    assert engine.reroll_limit(0) is None
    assert engine.reroll_refusal(1, 1) is None
    refused = engine.reroll_refusal(1, 2)
    assert refused == RerollRefused(1, 2, RerollLimit.DOUBLES)
    # The seat with the offer answers it; anyone else's move waits (the record would
    # let it decline the offer silently, the table does not).
    engine.check_order(KeepDoubles(1))
    engine.check_order(Reroll(1, (0,), ("comedy", "western")))
    engine.check_order(RegisterHand(0, ()))  # a registration is no move
    with pytest.raises(DoublesOpen, match="wait: seat 1 rolled doubles") as info:
        engine.check_order(RollDice(0, ("horror", "comedy")))
    assert info.value.seat == 1
    engine.apply(KeepDoubles(1))
    engine.check_order(RollDice(0, ("horror", "comedy")))  # the offer is answered


def test_a_play_waits_for_the_doubles_seat() -> None:
    engine = Oskar(3, 0)
    engine.apply(RollDice(0, ("horror", "comedy")))
    engine.apply(RollDice(1, ("western", "action")))
    engine.apply(RollDice(2, ("scifi", "scifi")))
    assert engine.phase is Phase.PLAY and engine.doubles == 2
    with pytest.raises(DoublesOpen, match="not Y4 yet: seat 2 rolled doubles") as info:
        engine.check_order(Play(engine.round.turn, Card.parse("Y4")))
    assert info.value.seat == 2


def test_roll_outcome_draws_as_the_table_roller_did() -> None:
    engine = Oskar(3, 0)
    for seed in range(20):
        action = engine.roll_outcome(RollRequest(0, (0, 1)), random.Random(seed))
        first, second = roll(random.Random(seed), 2)
        assert action == RollDice(0, (first, second))
    with pytest.raises(IllegalAction, match="must roll its dice first"):
        engine.roll_outcome(RollRequest(0, (1,)), random.Random(0))
    engine.apply(RollDice(0, ("action", "action")))
    # The doubles offer: one die, redrawn as the table's roller redrew it.
    for seed in range(20):
        action = engine.roll_outcome(RollRequest(0, (1,)), random.Random(seed))
        assert action == Reroll(0, (1,), ("action", roll(random.Random(seed), 1)[0]))
    with pytest.raises(IllegalAction, match="may reroll exactly one die, not 2"):
        engine.roll_outcome(RollRequest(0, (0, 1)), random.Random(0))
    with pytest.raises(IllegalAction, match="seat 1 must roll its dice first"):
        engine.roll_outcome(RollRequest(1, (0,)), random.Random(0))


def test_roll_outcome_after_a_round_follows_the_reroll_rule() -> None:
    engine = Oskar(3, 0)
    engine.dice = [("horror", "comedy"), ("western", "action"), ("scifi", "romance")]
    engine.phase = Phase.REROLL
    engine.rule = reroll_rule([40, 10, 20], 1)
    engine.rerolls_done = 0
    due = engine.rule.order[0]
    assert due == 0 and engine.reroll_limit(0) is RerollLimit.MOST
    with pytest.raises(IllegalAction, match="must reroll both dice"):
        engine.roll_outcome(RollRequest(0, (1,)), random.Random(0))
    action = engine.roll_outcome(RollRequest(0, (1, 0)), random.Random(7))
    rng = random.Random(7)
    assert action == Reroll(0, (0, 1), (roll(rng, 1)[0], roll(rng, 1)[0]))
    assert all(face in GENRES for face in action.faces)


def adapter_for(engine: Oskar) -> OskarAdapter:
    return OskarAdapter(AdapterContext(engine, 0, TableSettings(), lambda: random.Random(0)))


def test_the_table_words_the_engines_refusals_and_reasons() -> None:
    engine = Oskar(3, 0)
    engine.apply(RollDice(0, ("horror", "comedy")))
    engine.apply(RollDice(1, ("western", "action")))
    engine.apply(RollDice(2, ("scifi", "scifi")))
    adapter = adapter_for(engine)
    turn = engine.round.turn
    other = next(s for s in range(3) if s not in (turn, 2))
    # Another seat's tap waits for the doubles; the offer's own seat is told its buttons.
    with pytest.raises(IllegalAction) as info:
        adapter.input.on_card(turn if turn != 2 else other, "Y4")
    assert shown(info.value.text).startswith("not Y4 yet: Seat 3 rolled doubles")
    with pytest.raises(IllegalAction) as info:
        adapter.input.on_card(2, "Y4")
    assert shown(info.value.text).startswith("you rolled doubles: first PREV/NEXT picks a die")
    said = adapter.input.on_button(other, Button.OK)
    assert isinstance(said, str | Text)
    assert shown(said) == "wait: Seat 3 rolled doubles and decides first"
    engine.apply(KeepDoubles(2))
    # A zero that ends the trick is still announced as the second zero.
    seats = [(turn + i) % 3 for i in range(3)]
    engine.apply(Play(seats[0], Card.parse("R0")))
    engine.apply(Play(seats[1], Card.parse("Y4")))
    events = engine.apply(Play(seats[2], Card.parse("R0")))
    texts = [
        shown(f.message) for e in events for f in adapter.presentation.feedback(e) if f.message
    ]
    assert texts[0] == f"Seat {seats[2] + 1} plays the second zero: it takes the trick"
    assert texts[1].endswith("second zero wins the trick")
