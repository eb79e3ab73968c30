"""Oshaka Trick's manifest: the ``GameSpec`` every other room derives from.

Its id, title and players, its deck, its options with their limits, the
presets the menu offers, the rules page and the words the display needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.games.cards import FaceColour
from controller.games.oshaka_trick.cards import CARD_TYPE, COLOUR_NAMES, COLOURS, Card, full_deck
from controller.games.oshaka_trick.identity import GAME_ID, MAX_PLAYERS, MIN_PLAYERS, TITLE
from controller.games.spec import DeckSpec, GameSpec, Starter, Vocabulary
from controller.games.words import Text, say

if TYPE_CHECKING:
    from controller.games.base import Engine


def load_engine() -> type[Engine]:
    """Oshaka Trick's engine class, imported on the first call (``GameSpec.load_engine``)."""
    from controller.games.oshaka_trick.engine import OshakaTrick

    return OshakaTrick


@dataclass(frozen=True, kw_only=True)
class OshakaVocabulary(Vocabulary):
    """What Oshaka Trick's scene names: the colour columns, in order, with their words
    and the colour their cards are printed in (an empty column is outlined in it)."""

    colours: tuple[str, ...]  # the colour letters, in the rulebook's column order
    colour_names: Mapping[str, Text]
    colour_faces: Mapping[str, FaceColour]


VOCABULARY = OshakaVocabulary(
    colours=COLOURS,
    colour_names=COLOUR_NAMES,
    colour_faces={c: CARD_TYPE.face(Card(c, 1)).colour for c in COLOURS},
)

SPEC = GameSpec(
    id=GAME_ID,
    key="oshaka_trick",
    menu_rank=10,
    title=TITLE,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    deck=DeckSpec("oshaka", "Oshaka Trick", tuple(str(c) for c in full_deck(4)), CARD_TYPE),
    load_engine=load_engine,
    vocabulary=VOCABULARY,
    starter=Starter("lead", say("Who most recently helped someone?"), say("leads the first trick")),
    rules=(
        say("The lowest card wins a trick; a card of another colour than the led one beats it."),
        say("Place each card you win face up in its colour's column, or face down for -1."),
        say("A card smaller than your column's top is an Oshaka penalty: minus its number."),
        say("Round 2: a fourth colour while you show three is an Oshaka penalty."),
        say("A round scores each face-up column's top card, -1 per face-down card."),
        say("Whoever most recently helped someone leads first; the lowest scorer picks round 2's."),
        say("Cards won in one trick are placed smallest first."),
        say("Hold NEXT for a second to see the last trick again on your panel, and where it went."),
    ),
)
