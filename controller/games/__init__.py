"""The games, one folder each, and the one registry of games.

A game is the folder ``controller/games/<key>/``: ``spec.py`` ends with its
``SPEC`` (``controller.games.spec.GameSpec``: id, title, players, deck,
options, presets, requirements), ``engine.py`` and its modules hold the
rules, ``table.py`` its table side, ``bots.py`` its bot, ``search.py`` (if
any) its search bot, ``locale/`` its translations. The registry finds every
folder with a ``spec.py``; no list of games is kept anywhere else. The tag
registry's decks, the table's adapters and menu, the translation domains, the
search bots and the display's scenes are all derived from the specs.

A game's rules are pure: the standard library only, no I/O, no clock, no hidden
randomness (see ``base``). Its ``table``, ``bots`` and ``search`` modules are
the table side and may use the table's contract (``controller.adapters``).
"""

from __future__ import annotations

import importlib.util
import pkgutil
from importlib import import_module

from controller.games.base import FIELD_LABELS, BadOption, Engine
from controller.games.spec import DeckSpec, GameSpec
from controller.games.words import Words

_SPECS: dict[str, GameSpec] = {}


def game_folders() -> list[str]:
    """The keys of the game folders in this package: every sub-package with a ``spec.py``."""
    return sorted(
        info.name
        for info in pkgutil.iter_modules(__path__)
        if info.ispkg and importlib.util.find_spec(f"{__name__}.{info.name}.spec") is not None
    )


def specs() -> dict[str, GameSpec]:
    """Every game the project knows, by game id, in menu order (``menu_rank``, then id)."""
    if not _SPECS:
        found: list[GameSpec] = [
            import_module(f"{__name__}.{key}.spec").SPEC for key in game_folders()
        ]
        for spec in sorted(found, key=lambda s: (s.menu_rank, s.id)):
            _SPECS[spec.id] = spec
    return dict(_SPECS)


def register(spec: GameSpec) -> None:
    """Add a game defined outside this package (a plug-in, or a test's toy game)."""
    specs()
    _SPECS[spec.id] = spec


def unregister(game_id: str) -> None:
    """Take a registered game away again (tests that registered a toy game)."""
    _SPECS.pop(game_id, None)


def spec_of(game_id: object) -> GameSpec:
    """The spec of a record's ``game``; BadOption names the known games."""
    known = specs()
    if not isinstance(game_id, str) or game_id not in known:
        listed = ", ".join(f'"{g}"' for g in known)
        raise BadOption(f"unknown game {game_id!r}; the table knows {listed}")
    return known[game_id]


def deck_of_game(game_id: object) -> DeckSpec | None:
    """The deck a known game is played with; None for no game or one the table does not know."""
    spec = specs().get(game_id) if isinstance(game_id, str) else None
    return None if spec is None else spec.deck


def deck_of_card(game_id: object, notation: str) -> DeckSpec | None:
    """The deck of a known game that holds the card ``notation``: an add-on deck (Oh
    Pshaw's Wizards) when it holds it, else the game's own; None for no game or one the
    table does not know."""
    deck = deck_of_game(game_id)
    spec = specs().get(game_id) if isinstance(game_id, str) else None
    for addon in () if spec is None else spec.addon_decks:
        if addon.holds(notation):
            return addon
    return deck


def field_words(game_id: object, key: str) -> Words:
    """A report field's name for a reader ("hand_size": "hand size"): the game's own
    (``GameSpec.field_labels``), one every card game shares, or the key with spaces."""
    spec = specs().get(game_id) if isinstance(game_id, str) else None
    own = None if spec is None else spec.field_labels.get(key)
    if own is not None:
        return own
    return FIELD_LABELS.get(key, key.replace("_", " "))


def engine_class(game_id: object) -> type[Engine]:
    """The engine class for a record's ``game``; BadOption names the known games."""
    return spec_of(game_id).engine


def game_for_deck(deck: str) -> list[GameSpec]:
    """The games played with the registry deck ``deck``."""
    return [
        spec
        for spec in specs().values()
        if deck in (spec.deck.id, *(addon.id for addon in spec.addon_decks))
    ]
