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

from controller.games.base import BadOption, Engine
from controller.games.spec import GameSpec

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
