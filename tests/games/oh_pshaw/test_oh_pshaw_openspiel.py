"""Differential test: our Oh Pshaw engine against OpenSpiel's ``oh_hell``.

OpenSpiel plays one hand: a chosen number of tricks, a random dealer, a random
deal (player 0 always gets the first card), a turned trump card, bids from the
dealer's left with the hook always on, and scoring of ``points_per_trick`` per
trick plus 10 for an exact bid. That is our engine with an explicit one-round
schedule, ``hook`` on and ``mild`` scoring, with OpenSpiel's deal registered as
hands and its turned card as the dealer's ``trump`` action.

Every hand is played with random legal moves drawn from OpenSpiel; at every
decision both engines must offer the same legal bids or cards, every trick
must go to the same seat and the hand must score the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from controller.games.oh_pshaw.actions import Bid as OurBid
from controller.games.oh_pshaw.actions import Play as OurPlay
from controller.games.oh_pshaw.actions import RegisterHand, TurnTrump
from controller.games.oh_pshaw.cards import RANKS
from controller.games.oh_pshaw.engine import OhPshaw
from controller.games.oh_pshaw.events import TrickWon

pyspiel = pytest.importorskip(
    "pyspiel", reason="the differential test needs the open-spiel package (pip install open-spiel)"
)

HANDS = 520
# OpenSpiel's card action a is rank * 4 + suit, suits in the order C, D, S, H.
OS_SUITS = "CDSH"


def os_card(action: int) -> str:
    """An OpenSpiel deal/play action as our card notation (rank + suit)."""
    return RANKS[action // 4] + OS_SUITS[action % 4]


_GAMES: dict[tuple[int, int], Any] = {}


def os_game(players: int, tricks: int) -> Any:
    key = (players, tricks)
    if key not in _GAMES:
        _GAMES[key] = pyspiel.load_game(
            "oh_hell",
            {
                "players": players,
                "num_tricks_fixed": tricks,
                "off_bid_penalty": False,
                "points_per_trick": 1,
            },
        )
    return _GAMES[key]


def play_one(seed: int) -> dict[str, int]:
    """Play one random hand in both engines, asserting they agree; return some counts."""
    rng = random.Random(seed)
    players = 3 + seed % 5
    tricks = rng.randint(1, 51 // players)
    state = os_game(players, tricks).new_initial_state()
    state.apply_action(tricks)  # chance: the number of tricks (fixed, one outcome)
    dealer = rng.randrange(players)
    state.apply_action(dealer)  # chance: the dealer
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * tricks):
        card = rng.choice([a for a, _ in state.chance_outcomes()])
        hands[i % players].append(os_card(card))  # OpenSpiel deals from player 0
        state.apply_action(card)
    turned = rng.choice([a for a, _ in state.chance_outcomes()])
    state.apply_action(turned)

    ours = OhPshaw.from_header(
        {
            "players": players,
            "dealer": dealer,
            "options": {
                "schedule": [tricks],
                "max_hand": 51 // players,
                "hook": True,
                "scoring": "mild",
            },
        }
    )
    for seat in range(players):
        ours.apply(RegisterHand(seat, tuple(hands[seat])))
    ours.apply(TurnTrump(dealer, os_card(turned)))

    n_cards = 52
    tricks_checked = 0
    while not state.is_terminal():
        seat = state.current_player()
        expected = ours.expected
        assert expected is not None and expected.seat == seat
        legal = state.legal_actions()
        ours_legal = ours.legal_actions(seat)
        if expected.expects == "bid":
            assert [a - n_cards for a in legal] == [
                a.bid for a in ours_legal if isinstance(a, OurBid)
            ]
            action = rng.choice(legal)
            ours.apply(OurBid(seat, action - n_cards))
            state.apply_action(action)
            continue
        assert expected.expects == "play"
        assert sorted(os_card(a) for a in legal) == sorted(
            a.card for a in ours_legal if isinstance(a, OurPlay)
        )
        action = rng.choice(legal)
        events = ours.apply(OurPlay(seat, os_card(action)))
        state.apply_action(action)
        won = [e for e in events if isinstance(e, TrickWon)]
        if won:
            tricks_checked += 1
            if not state.is_terminal():
                # OpenSpiel's winner leads the next trick.
                assert won[0].seat == state.current_player(), f"seed {seed}: trick winner"
    first = ours.rounds[0]
    assert first.scores is not None
    assert [int(r) for r in state.returns()] == first.scores, f"seed {seed}: scores"
    assert tricks_checked == tricks
    return {"players": players, "tricks": tricks}


def test_against_openspiel_oh_hell() -> None:
    seen_players: set[int] = set()
    seen_sizes: set[tuple[int, int]] = set()
    for seed in range(HANDS):
        info = play_one(seed)
        seen_players.add(info["players"])
        seen_sizes.add((info["players"], info["tricks"]))
    assert seen_players == {3, 4, 5, 6, 7}
    # Every hand size of every player count appears (3 players: 1..17, 7 players: 1..7).
    assert len(seen_sizes) == sum(51 // n for n in range(3, 8))


def test_openspiel_card_encoding_on_a_known_hand() -> None:
    """A hand built by hand checks the card encoding (48 = AC, 3 = 2H) and a trump win."""
    state = os_game(3, 1).new_initial_state()
    for action in (1, 0):  # 1 trick, dealer 0
        state.apply_action(action)
    # Player 0 gets CA (48), player 1 H2 (3), player 2 C3 (4); turned card H5 (15): hearts trump.
    for action in (48, 3, 4, 15):
        state.apply_action(action)
    for _ in range(3):  # everyone bids 0; the hook allows it (0 + 0 + 0 != 1)
        state.apply_action(52)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    ours = OhPshaw.from_header(
        {"players": 3, "dealer": 0, "options": {"schedule": [1], "hook": True, "scoring": "mild"}}
    )
    for seat, hand in enumerate((["AC"], ["2H"], ["3C"])):
        ours.apply(RegisterHand(seat, tuple(hand)))
    ours.apply(TurnTrump(0, "5H"))
    for seat in (1, 2, 0):
        ours.apply(OurBid(seat, 0))
    for seat, card in ((1, "2H"), (2, "3C"), (0, "AC")):
        ours.apply(OurPlay(seat, card))
    # Seat 1 leads the 2 of hearts, the trump suit: nothing else is trump, so it wins.
    assert ours.rounds[0].tricks == [0, 1, 0]
    assert [int(r) for r in state.returns()] == ours.rounds[0].scores == [10, 1, 10]
