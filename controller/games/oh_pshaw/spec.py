"""Oh Pshaw's manifest: the ``GameSpec`` every other room derives from.

Its id, title and players, its deck, its options with their limits, the
presets the menu offers, the rules page and the words the display needs.
"""

from __future__ import annotations

from controller.games.oh_pshaw.cards import (
    CARD_NAMES,
    RANKS,
    SUIT_NAMES,
    SUITS,
    cut_rank,
    parse_card,
)
from controller.games.oh_pshaw.engine import OhPshaw
from controller.games.oh_pshaw.options import OPTIONS
from controller.games.spec import DeckSpec, GameSpec, Preset, Starter
from controller.games.words import say

SPEC = GameSpec(
    id=OhPshaw.game_id,
    key="oh_pshaw",
    menu_rank=20,
    title=OhPshaw.title,
    min_players=OhPshaw.min_players,
    max_players=OhPshaw.max_players,
    deck=DeckSpec("standard-52", "Oh Pshaw (standard 52)", CARD_NAMES, parse_card),
    engine=OhPshaw,
    options=OPTIONS,
    presets=(
        Preset(say("Quick: 1 to 7 cards"), {"max_hand": 7}),
        Preset(say("Up and down: 1-7-1 cards"), {"max_hand": 7, "schedule": "up-down"}),
        Preset(say("Short: 1 to 5 cards"), {"max_hand": 5}),
        Preset(say("Quick with the hook"), {"max_hand": 7, "hook": True}),
        Preset(say("Contract whist: 7-1-7 cards"), {"schedule": "contract-whist"}),
        Preset(say("Full: 1 card to the most"), {}),
    ),
    # The rulebook: "Der erste Geber wird durch Abheben für die niedrigste Karte bestimmt."
    starter=Starter(
        "dealer",
        say("Cut for the deal: each seat taps one card from the shuffled deck; lowest deals"),
        say("deals the first round"),
        cut=cut_rank,
    ),
    vocabulary={
        "suits": SUITS,
        "suit_names": SUIT_NAMES,
        "ranks": RANKS,
    },
    rules=(
        say("Bid how many tricks you will take; take exactly that many."),
        say("The turned card's suit is trump; you must follow suit."),
        say("Exact bid: 10 + your bid (mild scoring: 1 a trick + 10); else 0."),
        say("Cut for the first deal: the lowest card deals (ace high); tied seats cut again."),
        say("The eldest (left of the dealer) bids first and leads; the deal passes left."),
        say("Tie at the end: an extra round at the largest hand; only the tied seats score in it."),
        say(
            "A renege noticed before the next trick: its player presses PREV, "
            "takes the card back and plays a legal one."
        ),
        say("A renege proven later scores 0 for that round (and any penalty set)."),
        say("Staff may end the game early: the leaders at that moment win."),
    ),
)
