"""Tests read what the table shows in English, as a person at seat 0's panel would."""

from __future__ import annotations

from collections.abc import Iterable

from controller.games.words import Words
from controller.words import Presenter

ENGLISH = Presenter()


def shown(words: Words | None) -> str:
    """``words`` as the English presenter writes them (a plain str as it is)."""
    return "" if words is None else ENGLISH(words)


def shown_all(many: Iterable[Words]) -> tuple[str, ...]:
    """Each of ``many`` as shown in English."""
    return tuple(ENGLISH(w) for w in many)
