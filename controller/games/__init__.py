"""The game engines, one module per game, and the registry that finds them by id.

Everything in this package is pure: the standard library only, no I/O, no clock,
no hidden randomness (see ``base``).
"""

from __future__ import annotations

from importlib import import_module

from controller.games.base import BadOption, Engine

# game id -> (module, class). Loaded on first use so that starting the replay of
# one game does not import every engine.
_ENGINES: dict[str, tuple[str, str]] = {
    "oshaka-trick": ("controller.games.oshaka_trick", "OshakaTrick"),
    "oh-pshaw": ("controller.games.oh_pshaw", "OhPshaw"),
    "oskar": ("controller.games.oskar", "Oskar"),
    "oss": ("controller.games.oss", "Oss"),
}

GAME_IDS: tuple[str, ...] = tuple(_ENGINES)


def engine_class(game_id: object) -> type[Engine]:
    """The engine class for a record's ``game``; BadOption names the known games."""
    if not isinstance(game_id, str) or game_id not in _ENGINES:
        known = ", ".join(f'"{g}"' for g in GAME_IDS)
        raise BadOption(f"unknown game {game_id!r}; the table knows {known}")
    module_name, class_name = _ENGINES[game_id]
    engine: type[Engine] = getattr(import_module(module_name), class_name)
    return engine
