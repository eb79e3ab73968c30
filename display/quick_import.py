"""Import pygame without the numpy and ``pkg_resources`` it pulls in for nothing.

pygame's ``__init__`` imports ``surfarray`` and ``sndarray`` (numpy, about
0.1 s) and ``pkgdata`` (``pkg_resources``, about 0.05 s) on every start; the
kiosk uses neither. While pygame itself is imported, those two names are made
unimportable, so pygame takes its own fallbacks (``surfarray`` becomes a
"missing module", ``pkgdata`` opens its files by path); afterwards they are
importable again for whoever needs them. On a Pi core that is 0.3-0.5 s less
before the first frame.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from types import ModuleType

#: Top-level packages pygame imports eagerly that the kiosk never uses.
SKIPPED = ("numpy", "pkg_resources")


class _Refuse(importlib.abc.MetaPathFinder):
    """Refuses the skipped packages while pygame is being imported."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> None:
        if fullname.partition(".")[0] in SKIPPED:
            raise ImportError(f"{fullname} is skipped while pygame starts")
        return None


def import_pygame() -> ModuleType:
    """pygame, imported without numpy and ``pkg_resources`` (unless already imported)."""
    if "pygame" in sys.modules:
        return sys.modules["pygame"]
    refuse = _Refuse()
    sys.meta_path.insert(0, refuse)
    try:
        import pygame
    finally:
        sys.meta_path.remove(refuse)
        # pygame's failed tries leave no half-imported skipped module behind.
        for name in [n for n in sys.modules if n.partition(".")[0] in SKIPPED]:
            if sys.modules[name] is None:
                del sys.modules[name]
    return pygame
