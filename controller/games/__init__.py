"""The game engines, one module per game, and the one registry of games.

Every game module ends with a ``SPEC`` (``controller.games.spec.GameSpec``):
its id, title, players, deck, options, presets and requirements. This module
is the only list of games the project keeps; the tag registry's decks, the
table's adapters and menu, and the display's scenes are all found from it.

Everything in this package is pure: the standard library only, no I/O, no clock,
no hidden randomness (see ``base``).
"""

from __future__ import annotations

from importlib import import_module

from controller.games.base import BadOption, Engine
from controller.games.spec import GameSpec

# The game modules of this package, in menu order.
GAME_MODULES: tuple[str, ...] = ("oshaka_trick", "oh_pshaw", "oskar", "oss")

_SPECS: dict[str, GameSpec] = {}


def specs() -> dict[str, GameSpec]:
    """Every game the project knows, by game id, in menu order."""
    if not _SPECS:
        for name in GAME_MODULES:
            found: GameSpec = import_module(f"{__name__}.{name}").SPEC
            _SPECS[found.id] = found
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
    return [spec for spec in specs().values() if spec.deck.id == deck]
