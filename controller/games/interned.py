"""Frozen values an engine makes once and shares, forgotten when the table rests.

The engines' hot paths hand out one frozen event or feedback per key instead
of building an equal one every time: building a frozen dataclass costs more
than a dict look-up, which bots' playouts feel. Keyed by seat, card and trick,
such a table fills slowly over a night of games (Oskar's ``CardPlayed`` alone
has over 6,000 possible keys at seven seats), and what it holds stays in the
process for good.

So every such table is an ``Interned`` dict, and ``forget_interned()``
empties them all; the table calls it when it goes back to the attract
screen, so a night of games keeps no more of them than one game made. A
table is a pure cache: forgetting it changes no result, only what the next
look-up costs.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["Interned", "forget_interned", "interned_count"]

K = TypeVar("K")
V = TypeVar("V")

_TABLES: list[Interned[object, object]] = []


class Interned(dict[K, V]):
    """A module's table of shared values, emptied by ``forget_interned()``.

    Made once at import; a plain dict otherwise (``get`` and item assignment
    stay the built-in ones, so look-ups cost what a dict's cost).
    """

    def __init__(self) -> None:
        super().__init__()
        _TABLES.append(self)  # type: ignore[arg-type]  # any Interned is forgotten alike


def forget_interned() -> None:
    """Empty every ``Interned`` table (the table rests: no game is in progress)."""
    for table in _TABLES:
        table.clear()


def interned_count() -> int:
    """How many values the ``Interned`` tables hold together (for tests and benchmarks)."""
    return sum(len(table) for table in _TABLES)
