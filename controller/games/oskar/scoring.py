"""Oskar's scoring: genre totals, trendy genres and tokens for a round.

A seat's points count once in each distinct genre its dice show; a genre is
trendy at ``TREND_THRESHOLD`` points or more; each die showing a trendy genre
earns its seat one Oskar token.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from controller.games.oskar.snapshot import GENRE_WORDS, GENRES, TREND_THRESHOLD
from controller.games.words import Text, Verbatim


def score_round(dice: Sequence[Sequence[str]], points: Sequence[int]) -> RoundScore:
    """Genre totals, trendy genres and tokens for one round.

    A seat's points count once in each distinct genre its dice show; a genre
    is trendy at ``TREND_THRESHOLD`` or more; each die showing a trendy genre
    earns its seat one token.
    """
    totals = dict.fromkeys(GENRES, 0)
    for faces, seat_points in zip(dice, points, strict=True):
        for genre in set(faces):
            totals[genre] += seat_points
    trendy = tuple(g for g in GENRES if totals[g] >= TREND_THRESHOLD)
    tokens = tuple(sum(1 for face in faces if face in trendy) for faces in dice)
    return RoundScore(totals, trendy, tokens)


@dataclass(frozen=True)
class RoundScore:
    """The outcome of a round's trend determination."""

    genre_totals: Mapping[str, int]
    trendy: tuple[str, ...]
    tokens: tuple[int, ...]


@dataclass(frozen=True)
class RoundResult:
    """A scored round: the dice it was scored with, its points and its tokens."""

    number: int
    dealer: int
    lead: int
    dice: tuple[tuple[str, str], ...]
    points: tuple[int, ...]
    stock_value: int
    stock_winner: int | None
    score: RoundScore


def genre_text(genre: str) -> Text | Verbatim:
    """A genre of the record ("scifi") in the rulebook's words ("science fiction")."""
    return GENRE_WORDS.get(genre) or Verbatim(genre)
