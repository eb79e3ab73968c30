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
import importlib.machinery
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType

#: Top-level packages pygame imports eagerly that the kiosk never uses.
SKIPPED = ("numpy", "pkg_resources")


class _Refused(importlib.abc.Loader):
    """Fails the import of a skipped package (its spec was found, so a lookup says "there")."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        raise ImportError(f"{spec.name} is skipped while pygame starts")

    def exec_module(self, module: ModuleType) -> None:
        raise ImportError(f"{module.__name__} is skipped while pygame starts")


class _Refuse(importlib.abc.MetaPathFinder):
    """Refuses to import the skipped packages while pygame is being imported.

    A lookup (``importlib.util.find_spec``) must not raise: pygame-ce asks
    ``find_spec("numpy") is None`` before it decides to import anything, and
    an exception there stopped the Pi's pygame-ce from importing at all. So the
    finder answers with a spec whose loader fails: pygame-ce, which imports
    numpy lazily, goes on without touching it; classic pygame, which imports
    numpy at once, gets the ImportError it falls back on.
    """

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.partition(".")[0] in SKIPPED:
            return importlib.machinery.ModuleSpec(fullname, _Refused())
        return None


@contextmanager
def skipping() -> Iterator[None]:
    """While inside, the skipped packages cannot be imported (and are found, not loaded)."""
    refuse = _Refuse()
    sys.meta_path.insert(0, refuse)
    try:
        yield
    finally:
        sys.meta_path.remove(refuse)
        # Failed tries leave no half-imported skipped module behind.
        for name in [n for n in sys.modules if n.partition(".")[0] in SKIPPED]:
            if sys.modules[name] is None:
                del sys.modules[name]


def import_pygame() -> ModuleType:
    """pygame, imported without numpy and ``pkg_resources`` (unless already imported)."""
    if "pygame" in sys.modules:
        return sys.modules["pygame"]
    with skipping():
        import pygame
    return pygame
