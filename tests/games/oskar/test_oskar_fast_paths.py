"""Oskar's fast paths against the engine's full checks, over seeded random games.

The engine answers its commonest questions without the general code (a card
played from a registered hand, a hand registration that breaks no rule, the
legal plays of the seat to play, a trick's winner). These tests play random
games, some with every hand registered by the virtual deal and some with hands
partly or not registered, and check at every step that the fast answers are the
ones the full checks give:

* every card played goes through ``apply`` on the engine and, on a copy, through
  ``_check_play`` and ``_play`` (the general path): same events, same snapshot;
* every card any seat could tap is accepted by ``apply`` exactly when
  ``_check_play`` accepts it, and refused with the same words otherwise;
* the legal plays of the seat to play are exactly the cards ``_check_play``
  accepts, in card order;
* a won trick's seat, points and reason are ``trick_winner``'s, the card
  numbers' sum and ``win_reason``'s;
* a hand registration is accepted exactly when the registration rules (spelled
  out here) allow it.

The adapter's feedback looks its handler up by the event's exact type; the
picked dice are still cleared after every dice choice, a subclass included.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

import pytest

from controller.adapters import new_adapter
from controller.games.base import (
    Action,
    Chance,
    Event,
    IllegalAction,
    MalformedAction,
    TurnPassed,
)
from controller.games.oskar.engine import (
    DECK_ORDER,
    ZERO,
    ZEROS,
    Card,
    CardPlayed,
    DiceRolled,
    DoublesDeclined,
    HandRegistered,
    Oskar,
    Phase,
    Play,
    RegisterHand,
    RerollDone,
    TrickWon,
    full_deck,
    trick_winner,
    win_reason,
)
from controller.games.oskar.table import OskarAdapter

REGISTERED = [0]  # hands the "some" games registered (so that the fast path ran)
MODES = ("all", "some", "none")  # the ways of registering hands
TABLES = (3, 4, 5, 6)  # players


def refusal(engine: Oskar, action: Action) -> str | None:
    """The words ``apply`` refuses ``action`` with on a copy of ``engine``, or None."""
    try:
        copy.deepcopy(engine).apply(action)
    except (IllegalAction, MalformedAction) as refused:
        return str(refused.args[0])
    return None


def full_check(engine: Oskar, play: Play) -> str | None:
    """The words the general play check refuses ``play`` with, or None (state untouched)."""
    try:
        engine._check_play(play)
    except (IllegalAction, MalformedAction) as refused:
        return str(refused.args[0])
    return None


def may_register(engine: Oskar, seat: int, cards: tuple[Card, ...]) -> bool:
    """The registration rules, written out plainly: may ``seat`` register ``cards`` now?"""
    rnd = engine.round
    if not engine.round_in_progress() or rnd.hands[seat] is not None or rnd.cards_played[seat]:
        return False
    if len(cards) != engine.hand_size:
        return False
    colours = [card for card in cards if card is not ZERO]
    if len(set(colours)) != len(colours):
        return False
    others = [card for hand in rnd.hands if hand is not None for card in hand]
    if any(rnd.played[card] or card in others for card in colours):
        return False
    zeros_left = ZEROS - rnd.played[ZERO] - others.count(ZERO)
    return len(cards) - len(colours) <= zeros_left


def random_hand(rng: random.Random, engine: Oskar) -> tuple[Card, ...]:
    """A hand to register: often a plausible one, sometimes with repeats or extra zeros."""
    pool = full_deck() + [ZERO] * rng.choice((0, 0, 2))
    size = engine.hand_size + rng.choice((0, 0, 0, 0, 1, -1))
    cards = rng.sample(pool, size)
    if rng.random() < 0.1:
        cards[-1] = cards[0]  # a card twice
    return tuple(cards)


def check_events(events: list[Event]) -> None:
    for event in events:
        if isinstance(event, TrickWon):
            assert event.seat == trick_winner(event.cards)
            assert event.points == sum(card.number for _, card in event.cards)
            assert event.reason == win_reason(event.cards)


def play_game(seed: int, players: int, registering: str) -> int:
    """One random game, every step checked; returns the number of cards played."""
    rng = random.Random(seed)
    probe = random.Random(seed + 1)
    engine = Oskar(players, rng.randrange(players))
    deals = registering == "all"
    chance = Chance(cards=deals, dice=True)
    plays = 0
    while True:
        step = engine.chance_actions(rng, chance)
        if not step and registering == "some" and engine.round_in_progress():
            # Some seats register hands drawn at random (often refused: that is checked too).
            seat = probe.randrange(players)
            hand = random_hand(probe, engine)
            registration = RegisterHand(seat, hand)
            expected = may_register(engine, seat, hand)
            assert (refusal(engine, registration) is None) == expected, (hand, seat)
            if expected and probe.random() < 0.5:
                engine.apply(registration)
                REGISTERED[0] += 1
                continue
        if not step:
            expected_up = engine.expected
            if expected_up is None:
                return plays
            seat = expected_up.seat
            legal = engine.legal_actions(seat)
            if engine.phase is Phase.PLAY and engine.doubles is None:
                accepted = [c for c in DECK_ORDER if full_check(engine, Play(seat, c)) is None]
                assert [a for a in legal if isinstance(a, Play)] == [
                    Play(seat, c) for c in accepted
                ]
            for _ in range(3):
                other = Play(probe.randrange(players), probe.choice(DECK_ORDER))
                if engine.phase is Phase.PLAY and engine.doubles is None:
                    assert refusal(engine, other) == full_check(engine, other), other
            step = [rng.choice(legal)]
        for action in step:
            if isinstance(action, Play) and engine.doubles is None:
                # (A card played over an open doubles offer declines it first: the
                # general path of ``apply``, not compared here.)
                reference = copy.deepcopy(engine)
                assert full_check(reference, action) is None
                expected_events = reference._play(action)
                events = engine.apply(action)
                assert events == expected_events
                assert engine.snapshot() == reference.snapshot()
                check_events(events)
                plays += 1
            else:
                engine.apply(action)


def play_games(registering: str, tables: tuple[int, ...]) -> None:
    """A whole game at each of ``tables`` (player counts), every step checked."""
    played = 0
    REGISTERED[0] = 0
    for players in tables:
        game = TABLES.index(players)
        played += play_game(1000 * game + len(registering), players, registering)
    # Whole games were played (each has several rounds of every seat's hand).
    assert played > len(tables) * 3 * 30
    if registering == "some":
        assert REGISTERED[0] > len(tables)


@pytest.mark.parametrize("registering", MODES)
def test_fast_paths_answer_as_the_full_checks_do(registering: str) -> None:
    # Two tables a way of registering, so that the three ways see every player count.
    at = 2 * MODES.index(registering)
    play_games(registering, (TABLES * 2)[at : at + 2])


@pytest.mark.slow
@pytest.mark.parametrize("registering", MODES)
def test_fast_paths_answer_as_the_full_checks_do_at_every_table(registering: str) -> None:
    play_games(registering, TABLES)


def test_a_stranger_card_is_refused_on_the_fast_path_too() -> None:
    engine = Oskar(4, 0)
    rng = random.Random(7)
    while engine.phase is not Phase.PLAY or engine.doubles is not None:
        step = engine.chance_actions(rng, Chance())
        for action in step or [rng.choice(engine.legal_actions(engine.decides or 0))]:
            engine.apply(action)
    seat = engine.round.turn
    held = engine.round.hands[seat]
    assert held is not None
    stranger = Card("Y", 1.0)  # type: ignore[arg-type]  # not an Oskar card, hand-built
    assert stranger is not Card("Y", 1)
    with pytest.raises(MalformedAction):
        engine.apply(Play(seat, stranger))


@dataclass(frozen=True)
class _MarkedRoll(DiceRolled):
    """A DiceRolled of another type: the feedback's exact-type lookup misses it."""


def test_feedback_clears_picked_dice_after_a_choice_and_only_then() -> None:
    adapter = new_adapter("oskar", 4, random.Random(3))
    assert isinstance(adapter, OskarAdapter)
    cursor, feedback = adapter.cursor, adapter.presentation.feedback
    faces = ("horror", "comedy")
    keeps: list[Event] = [
        TurnPassed(1),
        HandRegistered(1, 9),
        CardPlayed(1, Card("Y", 1), 1),
    ]
    clears: list[Event] = [
        DiceRolled(1, faces, False),
        RerollDone(1, (0,), faces, False, False),
        DoublesDeclined(1),
        _MarkedRoll(1, faces, False),
    ]
    for event in keeps + clears:
        cursor.selection[1] = {0}
        feedback(event)
        assert (1 not in cursor.selection) == (event in clears), event
    # The subclass is cleared for like its base, and says nothing (as before).
    assert feedback(_MarkedRoll(1, faces, False)) == []
    assert feedback(DiceRolled(1, faces, False))  # the base is worded


def test_the_fast_trick_winner_agrees_with_the_rule() -> None:
    from controller.games.oskar import fast

    rng = random.Random(11)
    deck = full_deck()
    for _ in range(3000):
        cards = rng.sample(deck, rng.randint(1, 6))
        plays = [(seat, card) for seat, card in enumerate(cards)]
        zeros = [seat for seat, card in plays if card.is_zero]
        assert fast.winner(plays, zeros) == trick_winner(plays)
