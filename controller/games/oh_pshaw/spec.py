"""Oh Pshaw's manifest: the ``GameSpec`` every other room derives from.

Its id, title and players, its deck, its options with their limits, the
presets the menu offers, the rules page and the words the display needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.games.oh_pshaw.cards import (
    CARD_NAMES,
    CARD_TYPE,
    JESTER_NAMES,
    RANKS,
    SUIT_NAMES,
    SUITS,
    WIZARD_CARD_TYPE,
    WIZARD_NAMES,
    cut_rank,
)
from controller.games.oh_pshaw.identity import GAME_ID, MAX_PLAYERS, MIN_PLAYERS, TITLE
from controller.games.oh_pshaw.options import OPTIONS
from controller.games.spec import DeckSpec, GameSpec, Preset, Starter, Vocabulary
from controller.games.words import Text, say

if TYPE_CHECKING:
    from controller.games.base import Engine


def load_engine() -> type[Engine]:
    """Oh Pshaw's engine class, imported on the first call (``GameSpec.load_engine``)."""
    from controller.games.oh_pshaw.engine import OhPshaw

    return OhPshaw


@dataclass(frozen=True, kw_only=True)
class OhPshawVocabulary(Vocabulary):
    """What Oh Pshaw's scene names: the suits, in notation letters and in words."""

    suits: str  # the suit letters, in ``suit_names`` order
    suit_names: tuple[Text, ...]
    ranks: str  # the rank letters, lowest first


VOCABULARY = OhPshawVocabulary(suits=SUITS, suit_names=SUIT_NAMES, ranks=RANKS)

SPEC = GameSpec(
    id=GAME_ID,
    key="oh_pshaw",
    menu_rank=20,
    title=TITLE,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    deck=DeckSpec("standard-52", say("Oh Pshaw (standard 52)"), CARD_NAMES, CARD_TYPE),
    # The Wizard variant's eight cards, a deck of their own played beside the 52.
    addon_decks=(
        DeckSpec(
            "wizard-8",
            say("Oh Pshaw Wizard add-on (4 Wizards, 4 Jesters)"),
            WIZARD_NAMES + JESTER_NAMES,
            WIZARD_CARD_TYPE,
        ),
    ),
    load_engine=load_engine,
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
    vocabulary=VOCABULARY,
    field_labels={
        "turned": say("turned card"),
        "status": say("bids against tricks"),
        "reneges": say("reneges"),
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
        say("Hold NEXT for a second to see the last trick again on your panel."),
        say("Staff may end the game early: the leaders at that moment win."),
        say(
            "Wizard variant: a Wizard (W) always wins the trick, the first one played if "
            "several; a Jester (N) always loses (all Jesters: the first wins)."
        ),
        say(
            "Wizards and Jesters may be played at any time. A Wizard led: nobody need follow; "
            "after a Jester lead the next card sets the suit."
        ),
        say("A turned Wizard: the dealer chooses trump; a turned Jester: no trump."),
    ),
)
