"""Oskar's manifest: the ``GameSpec`` every other room derives from.

Its id, title and players, its deck, its options with their limits, the
presets the menu offers, the rules page and the words the display needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.games.oskar.cards import CARD_TYPE, COLOUR_NAMES, full_deck
from controller.games.oskar.identity import GAME_ID, MAX_PLAYERS, MIN_PLAYERS, TITLE
from controller.games.oskar.options import OPTIONS
from controller.games.oskar.terms import GENRE_CAPTIONS, GENRE_WORDS, GENRES, TREND_THRESHOLD, Verb
from controller.games.spec import DeckSpec, GameSpec, Preset, Vocabulary
from controller.games.words import Text, say

if TYPE_CHECKING:
    from controller.games.base import Engine


def load_engine() -> type[Engine]:
    """Oskar's engine class, imported on the first call (``GameSpec.load_engine``)."""
    from controller.games.oskar.engine import Oskar

    return Oskar


@dataclass(frozen=True, kw_only=True)
class OskarVocabulary(Vocabulary):
    """What Oskar's scene names besides the verb prompts: genres and colours."""

    # The verb prompts while another seat's doubles offer is still open.
    genres: tuple[str, ...]
    genre_words: Mapping[str, Text]  # a genre's word ("love story")
    genre_captions: Mapping[str, Text]  # a genre's caption under its die face
    trend_threshold: int  # genre points at which a genre is trendy
    colour_names: Mapping[str, str]  # the record's English colour word by letter
    colour_words: Mapping[str, Text]  # the colour's word for a reader, by letter


VOCABULARY = OskarVocabulary(
    # What a seat is asked to do, by the verb the engine expects of it.
    verb_prompts={
        Verb.PLAY: say("play a card"),
        Verb.REROLL: say("choose dice to reroll"),
        Verb.DICE: say("roll your dice"),
    },
    genres=GENRES,
    genre_words=GENRE_WORDS,
    genre_captions=GENRE_CAPTIONS,
    trend_threshold=TREND_THRESHOLD,
    colour_names=COLOUR_NAMES,
    colour_words={
        "Y": say("yellow"),
        "G": say("green"),
        "B": say("blue"),
        "L": say("lilac"),
        "R": say("red"),
    },
)

SPEC = GameSpec(
    id=GAME_ID,
    key="oskar",
    menu_rank=30,
    title=TITLE,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    deck=DeckSpec("oskar", "Oskar", tuple(str(c) for c in full_deck()), CARD_TYPE),
    load_engine=load_engine,
    options=OPTIONS,
    presets=(
        Preset(say("first to 7 tokens"), {}),
        Preset(say("first to 8 tokens"), {"tokens_to_win": 8}),
    ),
    vocabulary=VOCABULARY,
    field_labels={
        "trendy": say("trendy genres"),
        "genres": say("points per genre"),
        "stock": say("stock"),
    },
    rules=(
        say("Your two dice show the genres your card points count for."),
        say(
            "A genre with {threshold} points or more is trendy: a token for each die showing one.",
            threshold=TREND_THRESHOLD,
        ),
        say("Yellow beats green, green beats blue, blue beats lilac; the higher number wins."),
        say("One zero in a trick: colours lapse, the highest number wins (the first of equals)."),
        say("The first to win a trick with a second zero in a round takes the stock's points."),
        say("After each round everyone rerolls as the rulebook says; doubles may reroll one die."),
        say("The game ends after the round in which someone reaches the tokens to win."),
        say("The deck has 38 cards (lilac runs 4 to 16), dealt evenly; the rest is the stock."),
        say("Hold NEXT for a second to see the last trick and the last roll again on your panel."),
    ),
)
