"""Oskar's terms: the genres on its dice and their words, the trend threshold, the verbs.

The spec's vocabulary and rules page name them, and the spec is read at every
start-up; the snapshot's dataclasses, which also use them, are imported when a game
of Oskar is played or drawn. Standard library only.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from controller.games.words import Text, Words, say

GENRES: tuple[str, ...] = ("western", "horror", "comedy", "action", "scifi", "romance")
# The film genres of the dice as players read them, in the rulebook's words (the
# record keeps its own word: "scifi" is science fiction, "romance" the love story).
GENRE_WORDS: Mapping[str, Text] = {
    "western": say("western"),
    "horror": say("horror"),
    "comedy": say("comedy"),
    "action": say("action"),
    "scifi": say("science fiction"),
    "romance": say("love story"),
}


# The same, short enough for the caption under a die.
GENRE_CAPTIONS: Mapping[str, Text] = {
    **GENRE_WORDS,
    "scifi": say("sci-fi"),
    "romance": say("romance"),
}


def genre_word(genre: str) -> Words:
    """A die face as players read it ("love story" for ``romance``); an unknown face as it is."""
    return GENRE_WORDS.get(genre, genre)


TREND_THRESHOLD = 120  # genre points at which a genre is trendy (inclusive)


class Verb(enum.StrEnum):
    """The verbs of an Oskar record (``hand`` is this project's optional registration)."""

    PLAY = "play"
    DICE = "dice"
    REROLL = "reroll"
    HAND = "hand"
