"""Oss's id, title and number of players: what its spec and its engine both say.

A leaf that imports nothing, so the spec can name the game without importing its
rules: the registry, the menu and the attract screen list every game at start-up,
and a game's engine is imported only when a game of it is played, resumed or read.
"""

GAME_ID = "oss"
TITLE = "Oss"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
