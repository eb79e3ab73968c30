"""Oskar's fast paths: shortcuts the engine takes on its commonest steps.

Each function here answers a question the rules answer too, only quicker on
the common case, and says when it cannot (then the engine takes the full,
worded path). ``tests/games/oskar/test_oskar_fast_paths.py`` plays seeded games through
both and checks they agree, so a rule changed in one place and not the other
fails there.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.base import Action
from controller.games.oskar.actions import PLAYS
from controller.games.oskar.cards import CARD_ORDER, COLOUR_RANK, ZEROS, Card, trick_winner
from controller.games.oskar.state import RoundState


def plays_held_card(rnd: RoundState, seat: int, card: Card) -> bool:
    """True when ``seat`` may certainly play ``card`` now: its turn, from its registered hand.

    The commonest play of a game (no doubles offer open, the play phase): only
    the tests that could refuse it, cheapest first. False says nothing; the
    engine's ``_check_play`` then finds and words any refusal.
    """
    hand = rnd.hands[seat]
    return (
        seat == rnd.turn
        and hand is not None
        and card in CARD_ORDER
        and card in hand
        and (rnd.played[card] < ZEROS if card.is_zero else not rnd.played[card])
    )


def hand_plays(seat: int, hand: Sequence[Card]) -> list[Action]:
    """The plays of a registered hand (kept in card order), repeated zeros dropped."""
    return list(map(PLAYS[seat].__getitem__, dict.fromkeys(hand)))


def winner(plays: Sequence[tuple[int, Card]], zeros: Sequence[int]) -> int:
    """``trick_winner`` of a non-empty trick of Oskar cards whose zeros' seats are ``zeros``.

    The engine's own path (cards it has checked): without zeros it ranks cards by
    a precomputed table instead of building a (strength, number) key per card.
    """
    if len(zeros) >= 2:
        return zeros[1]
    if zeros:
        # Colours lapse; the first of equal numbers keeps the trick (strict >).
        best_seat, best_number = plays[0][0], plays[0][1].number
        for seat, card in plays[1:]:
            if card.number > best_number:
                best_seat, best_number = seat, card.number
        return best_seat
    # The first of the highest ranks, as ``max`` keeps the first of equal keys.
    rank = COLOUR_RANK
    try:
        best_seat, best_rank = plays[0][0], rank[plays[0][1]]
        for seat, card in plays[1:]:
            if rank[card] > best_rank:
                best_seat, best_rank = seat, rank[card]
    except KeyError:  # a hand-built stranger of a Card: rank it as trick_winner does
        return trick_winner(plays)
    return best_seat
