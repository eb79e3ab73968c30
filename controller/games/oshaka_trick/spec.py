"""Oshaka Trick's manifest: the ``GameSpec`` every other room derives from.

Its id, title and players, its deck, its options with their limits, the
presets the menu offers, the rules page and the words the display needs.
"""

from __future__ import annotations

from controller.games.oshaka_trick.cards import COLOUR_NAMES, COLOURS, Card, card_words, full_deck
from controller.games.oshaka_trick.engine import OshakaTrick
from controller.games.spec import DeckSpec, GameSpec, Starter
from controller.games.words import say

SPEC = GameSpec(
    id=OshakaTrick.game_id,
    key="oshaka_trick",
    menu_rank=10,
    title=OshakaTrick.title,
    min_players=OshakaTrick.min_players,
    max_players=OshakaTrick.max_players,
    deck=DeckSpec(
        "oshaka", "Oshaka Trick", tuple(str(c) for c in full_deck(4)), Card.parse, card_words
    ),
    engine=OshakaTrick,
    vocabulary={"colours": COLOURS, "colour_names": COLOUR_NAMES},
    starter=Starter("lead", say("Who most recently helped someone?"), say("leads the first trick")),
    rules=(
        say("The lowest card wins a trick; a card of another colour than the led one beats it."),
        say("Place each card you win face up in its colour's column, or face down for -1."),
        say("A card smaller than your column's top is an Oshaka penalty: minus its number."),
        say("Round 2: a fourth colour while you show three is an Oshaka penalty."),
        say("A round scores each face-up column's top card, -1 per face-down card."),
        say("Whoever most recently helped someone leads first; the lowest scorer picks round 2's."),
        say("Cards won in one trick are placed smallest first."),
    ),
)
