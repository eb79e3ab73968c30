"""Oss's manifest: the ``GameSpec`` every other room derives from.

Its id, title and players, its deck, its options with their limits, the
presets the menu offers, the rules page and the words the display needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.games.oss import cards
from controller.games.oss.identity import GAME_ID, MAX_PLAYERS, MIN_PLAYERS, TITLE
from controller.games.oss.options import OPTIONS
from controller.games.oss.rulings import RULINGS, TABLE_RULINGS
from controller.games.oss.verbs import Verb
from controller.games.spec import (
    DeckSpec,
    GameSpec,
    Requirement,
    Starter,
    Vocabulary,
)
from controller.games.words import Text, say

if TYPE_CHECKING:
    from controller.games.base import Engine


def load_engine() -> type[Engine]:
    """Oss's engine class, imported on the first call (``GameSpec.load_engine``)."""
    from controller.games.oss.engine import Oss

    return Oss


@dataclass(frozen=True, kw_only=True)
class OssVocabulary(Vocabulary):
    """What Oss's scene names besides the verb prompts: the rulings, by their English words.

    The display shows a ruling the snapshot names by its English words
    (``TableSide.help``) in the reader's language: here are their messages.
    """

    rulings: Mapping[str, Text]


VOCABULARY = OssVocabulary(
    rulings={str(text): text for text in (*RULINGS, *TABLE_RULINGS)},
    # What a seat is asked to do, by the verb the engine expects of it (the tribe
    # and result prompts name the trick, so the scene words those itself).
    verb_prompts={
        Verb.REPLAY: say("replay or pass"),
        Verb.KEEP: say("keep a duel card"),
    },
)

SPEC = GameSpec(
    id=GAME_ID,
    key="oss",
    menu_rank=40,
    title=TITLE,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    deck=DeckSpec("oss-tribes", say("Oss tribe cards"), cards.TRIBE_CARDS, cards.CARD_TYPE),
    load_engine=load_engine,
    options=OPTIONS,
    requirements=frozenset({Requirement.VIRTUAL_DEAL}),
    # The rulebook: "The first player is the most big-boned." The players decide; the
    # table asks, and draws only when nobody answers.
    starter=Starter("chief", say("Who is the most big-boned?"), say("is the first chief")),
    vocabulary=VOCABULARY,
    field_labels={
        "chief": say("chief"),
        "won": say("cards won"),
        "replays": say("replays"),
        "challenge": say("challenge"),
    },
    rules=(
        say("The chief reveals three solo tricks and a duel trick for the round."),
        say(
            "From the chief on, each player plays a tribe card below a solo trick: "
            "its value is the number of jacks to get."
        ),
        say(
            "Alone below a trick, you attempt it; the first two cards below a trick duel "
            "with the duel trick instead."
        ),
        say("Succeed to win your tribe card; in a duel the winner keeps one of the two cards."),
        say("Failed tricks may be tried again by discarding a card, up to the replays set."),
        say("Everyone attempts the challenge: the winner takes 4 points and becomes the chief."),
        say("After the last round, the most points wins: tribe cards won plus 4 per challenge."),
        say("Your own buttons and the toss timer enter your results; bots act only for bots."),
        say(
            "Hold NEXT for a second to see the last attempt again. A held button reports "
            "nothing: a result counts when a short press is let go."
        ),
    ),
)
